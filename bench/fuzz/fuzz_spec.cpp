// libFuzzer target: a study spec (TOML) as load_spec reads it, placed in a folder that does not
// exist (so case files are looked up and missed, nothing is read or written). Bad input must be
// a UsageError with a bounded, clean message (fuzz_checks.hpp), never a crash, a hang or
// another exception type; what parses must have a usable study name, at least one case and a
// build and a run command.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "fuzz_checks.hpp"
#include "routetune/error.hpp"
#include "routetune/spec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string text(reinterpret_cast<const char*>(data), size);
    try {
        routetune::Spec spec = routetune::parse_spec(text, "/nonexistent/routetune-fuzz/spec.toml");
        if (spec.name.empty() || spec.name.find('/') != std::string::npos || spec.cases.empty() ||
            spec.build.command.empty() || spec.run.command.empty())
            std::abort();
    } catch (const routetune::UsageError& error) {
        routetune::fuzz::check_message(error.what());
    }
    return 0;
}
