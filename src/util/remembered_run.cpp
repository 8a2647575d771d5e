// The memory holds a few entries (one per command remembered and not yet taken); the oldest
// is dropped past that. The program file's identity is read with stat(2) when remembering and
// again when taking, so a compiler replaced in between is run afresh.
#include "util/remembered_run.hpp"

#include <sys/stat.h>

#include <chrono>
#include <deque>
#include <mutex>

#include "util/child_launch.hpp"

namespace routetune {

namespace {

constexpr double kMaxAgeS = 10;
constexpr std::size_t kMaxEntries = 4;

struct Remembered {
    std::vector<std::string> argv;
    std::vector<std::string> environment;
    std::string cwd;
    std::string file;  ///< the program file's identity (file_identity)
    std::chrono::steady_clock::time_point at;
    ProcessResult result;
};

std::mutex memory_mutex;

std::deque<Remembered>& memory() {
    static std::deque<Remembered> entries;
    return entries;
}

// "device inode size mtime ctime" of path (nanoseconds), "" when it cannot be read.
std::string file_identity(const std::string& path) {
    struct stat info {};
    if (stat(path.c_str(), &info) != 0) return "";
    auto ns = [](const timespec& t) { return std::to_string(t.tv_sec) + "." + std::to_string(t.tv_nsec); };
    return std::to_string(info.st_dev) + " " + std::to_string(info.st_ino) + " " + std::to_string(info.st_size) +
           " " + ns(info.st_mtim) + " " + ns(info.st_ctim);
}

bool same_command(const Remembered& entry, const ProcessSpec& spec, const std::vector<std::string>& environment) {
    return entry.argv == spec.argv && entry.cwd == spec.cwd.string() && entry.environment == environment &&
           spec.stdin_data.empty() && spec.stdout_file.empty();
}

}  // namespace

void remember_run(const ProcessSpec& spec, const ProcessResult& result) {
    if (spec.argv.empty() || !result.succeeded() || !spec.stdin_data.empty() || !spec.stdout_file.empty()) return;
    std::string file = file_identity(spec.argv[0]);
    if (file.empty()) return;
    std::lock_guard lock(memory_mutex);
    memory().push_back(Remembered{spec.argv, detail::merged_environment(spec.env), spec.cwd.string(), file,
                                  std::chrono::steady_clock::now(), result});
    if (memory().size() > kMaxEntries) memory().pop_front();
}

std::optional<ProcessResult> take_remembered_run(const ProcessSpec& spec) {
    if (spec.argv.empty()) return std::nullopt;
    std::vector<std::string> environment = detail::merged_environment(spec.env);
    std::lock_guard lock(memory_mutex);
    auto& entries = memory();
    for (auto it = entries.begin(); it != entries.end(); ++it) {
        if (!same_command(*it, spec, environment)) continue;
        Remembered entry = std::move(*it);
        entries.erase(it);
        double age_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - entry.at).count();
        bool fits = entry.result.out.size() <= spec.output_cap && entry.result.err.size() <= spec.output_cap &&
                    !entry.result.out_truncated && !entry.result.err_truncated;
        if (age_s > kMaxAgeS || !fits || file_identity(spec.argv[0]) != entry.file) return std::nullopt;
        return entry.result;
    }
    return std::nullopt;
}

}  // namespace routetune
