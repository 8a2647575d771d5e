// Both runs go through run_compiler (C locale, timeout); `-###` only prints the jobs, so
// neither run writes a file.
#include "adapters/clang_driver.hpp"

#include "adapters/clang_defaults.hpp"
#include "adapters/compiler_runner.hpp"
#include "util/text.hpp"

namespace routetune {

std::optional<std::string> clang_cc1_line(const CompilerIdentity& identity, const std::vector<std::string>& flags,
                                          const std::filesystem::path& cwd) {
    bool cxx = identity.path.find("++") != std::string::npos;
    std::vector<std::string> args = flags;
    for (const char* arg : {"-###", "-c", "-o", "/dev/null", "-x", cxx ? "c++" : "c", "-"}) args.push_back(arg);
    auto result = run_compiler(identity, args, cwd);
    if (!result.succeeded()) return std::nullopt;
    for (auto line : split_lines(result.err)) {
        if (line.find("\"-cc1\"") != std::string_view::npos) return std::string(line);
    }
    return std::nullopt;
}

std::optional<std::set<std::string>> clang_macros(const CompilerIdentity& identity, const std::vector<std::string>& flags,
                                                  const std::filesystem::path& cwd) {
    std::vector<std::string> args = flags;
    for (const char* arg : {"-dM", "-E", "-x", "c", "/dev/null"}) args.push_back(arg);
    auto result = run_compiler(identity, args, cwd);
    if (!result.succeeded()) return std::nullopt;
    return defined_macros(result.out);
}

}  // namespace routetune
