#include "util/signal_name.hpp"
#include "adapters/compiler_runner.hpp"

#include "util/files.hpp"

namespace routetune {

ProcessResult run_compiler(const CompilerIdentity& identity, const std::vector<std::string>& args,
                           const std::filesystem::path& cwd, const std::string& stdin_data) {
    ProcessSpec spec;
    spec.cwd = cwd;
    spec.argv = {identity.path};
    spec.argv.insert(spec.argv.end(), args.begin(), args.end());
    spec.env.emplace("LC_ALL", "C");
    spec.timeout_s = stdin_data.empty() ? 60 : 20;
    spec.memory_limit_bytes = stdin_data.empty() ? 0 : std::uint64_t{4} << 30;
    spec.output_cap = 4 << 20;
    spec.stdin_data = stdin_data;
    return run_process(spec);
}

std::string describe_failure(const ProcessResult& result) {
    if (!result.error.empty()) return result.error;
    if (result.outcome == ProcessOutcome::TimedOut) return "timed out";
    if (result.outcome == ProcessOutcome::Signaled) return "killed by " + signal_name(result.signal);
    return "exit code " + std::to_string(result.exit_code) + ": " + tail_of(result.err, 600);
}

ScratchFolder::ScratchFolder(const std::string& prefix)
    : path(make_scratch_folder(std::filesystem::temp_directory_path(), prefix)) {}

ScratchFolder::~ScratchFolder() { remove_tree_quietly(path); }

}  // namespace routetune
