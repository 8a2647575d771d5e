// The real SystemProbe: files through the bounded reader (util/bounded_read.hpp), hashes
// through sha256_file, programs through find_executable and run_process (argv only, a 20 s timeout, output capped; a run
// another asker of this process has just made of the same command is taken from
// util/remembered_run instead), and uname(2) for the kernel release and machine.
#include <sys/utsname.h>


#include "eval/fingerprint.hpp"
#include "util/bounded_read.hpp"
#include "util/process.hpp"
#include "util/remembered_run.hpp"
#include "util/sha256.hpp"

namespace routetune {

namespace {

constexpr double kProbeTimeoutS = 20;

class RealSystemProbe : public SystemProbe {
public:
    std::optional<std::string> read_file(const std::filesystem::path& file) override {
        return read_bounded(file, kMaxSystemFileBytes, "system file").bytes;
    }

    std::optional<std::string> file_sha256(const std::filesystem::path& file) override { return sha256_file(file); }

    std::filesystem::path find_executable(const std::string& program) override {
        return routetune::find_executable(program);
    }

    std::optional<std::string> run(const std::vector<std::string>& argv) override {
        ProcessSpec spec;
        spec.argv = argv;
        spec.timeout_s = kProbeTimeoutS;
        spec.output_cap = 1 << 16;
        spec.env.emplace("LC_ALL", std::string(1, 'C'));
        std::optional<ProcessResult> remembered = take_remembered_run(spec);  // e.g. the compiler's --version
        ProcessResult result = remembered ? std::move(*remembered) : run_process(spec);
        if (!result.succeeded()) return std::nullopt;
        std::string output = std::move(result.out);
        output.append(result.err);
        return output;
    }

    std::string kernel_release() override {
        utsname names{};
        return uname(&names) == 0 ? names.release : "";
    }

    std::string machine() override {
        utsname names{};
        return uname(&names) == 0 ? names.machine : "";
    }
};

}  // namespace

std::unique_ptr<SystemProbe> make_system_probe() { return std::make_unique<RealSystemProbe>(); }

}  // namespace routetune
