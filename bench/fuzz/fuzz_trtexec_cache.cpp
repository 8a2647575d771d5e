// libFuzzer target: a GPT tuning cache (JSON lines). Bad input must be a UsageError with a
// bounded, clean message (fuzz_checks.hpp), never a crash, a hang or another exception type;
// what parses must convert to evaluations.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "gpt/trtexec_cache.hpp"
#include "fuzz_checks.hpp"
#include "routetune/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        routetune::TrtexecCache cache = routetune::parse_trtexec_cache(text, "fuzz");
        routetune::trtexec_cache_to_evaluations(cache);
    } catch (const routetune::UsageError& error) {
        routetune::fuzz::check_message(error.what());
    }
    return 0;
}
