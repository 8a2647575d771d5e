// libFuzzer target: the writer lock's holder line. Whatever the bytes, parse_lock_holder returns
// nullopt or a holder whose formatting parses back to the same holder.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "store/sqlite/writer_lock.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    auto holder = routetune::parse_lock_holder(text);
    if (holder) {
        auto again = routetune::parse_lock_holder(routetune::format_lock_holder(*holder));
        if (!again || again->pid != holder->pid || again->host != holder->host) std::abort();
    }
    return 0;
}
