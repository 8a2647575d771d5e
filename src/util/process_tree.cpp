// Ending descendants. end_tagged_processes() lists /proc, reads each process's environment
// (only processes of the same user are readable, which are the only ones routetune could have
// started) and looks for the tag variable; matches are killed. A process whose environment
// reads empty and that is an adopted orphan (a child of this process that no run_process call
// is waiting for: util/child_registry) is reaped when it has ended, whoever's descendant it
// was: a zombie left there would make every later scan look again. The scan repeats until it
// finds nothing tagged and no adopted orphan still ending, so a descendant forked while the
// scan ran is caught on the next pass, and a killed one is reaped (at most 8 passes, 1 ms
// apart).
#include "util/process_tree.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <optional>
#include <set>
#include <vector>

#include "util/child_registry.hpp"

namespace routetune {

namespace {

// The first limit bytes of path; nullopt when it cannot be opened (errno says why).
std::optional<std::string> read_if_open(const std::string& path, std::size_t limit) {
    int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    std::string text;
    char buffer[8192];
    while (text.size() < limit) {
        ssize_t got = read(fd, buffer, sizeof buffer);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        text.append(buffer, static_cast<std::size_t>(got));
    }
    close(fd);
    return text;
}

std::string read_small(const std::string& path, std::size_t limit) { return read_if_open(path, limit).value_or(""); }

// Field n (1-based) of /proc/PID/stat; the command name (field 2) may hold spaces and
// parentheses, so counting starts after its last ')'.
std::string_view stat_field(std::string_view stat, int n) {
    std::size_t close = stat.rfind(')');
    if (close == std::string_view::npos) return {};
    std::size_t pos = close + 2;
    for (int field = 3; field < n && pos < stat.size(); ++field) {
        pos = stat.find(' ', pos);
        if (pos == std::string_view::npos) return {};
        ++pos;
    }
    std::size_t end = stat.find(' ', pos);
    return pos < stat.size() ? stat.substr(pos, end == std::string_view::npos ? end : end - pos) : std::string_view{};
}

std::int64_t to_number(std::string_view text) {
    std::int64_t value = 0;
    auto result = std::from_chars(text.data(), text.data() + text.size(), value);
    return result.ec == std::errc() ? value : 0;
}

bool environment_has_tag(const std::string& environ_text, std::string_view variable, std::string_view tag,
                         TagMatch match) {
    std::string wanted = std::string(variable) + "=" + std::string(tag);
    std::size_t pos = 0;
    while (pos < environ_text.size()) {
        std::size_t end = environ_text.find('\0', pos);
        if (end == std::string::npos) end = environ_text.size();
        std::string_view entry(environ_text.data() + pos, end - pos);
        if (match == TagMatch::Exact ? entry == wanted : entry.substr(0, wanted.size()) == wanted) return true;
        pos = end + 1;
    }
    return false;
}

// Tagged processes. A process whose environment cannot be opened for want of one (ESRCH: a
// zombie, a kernel thread, one gone) or reads empty (one exiting, or one that scrubbed it)
// is reaped here when it is an adopted orphan (a child of this process nobody waits for) that
// has ended, and sets *uncertain when it is one still running (the caller looks again).
// Other processes whose environment cannot be opened (not ours to read) cost nothing more.
std::vector<pid_t> tagged_processes(std::string_view variable, std::string_view tag, TagMatch match, bool* uncertain) {
    std::vector<pid_t> found;
    DIR* proc = opendir("/proc");
    if (!proc) return found;
    pid_t self = getpid();
    while (dirent* entry = readdir(proc)) {
        pid_t pid = static_cast<pid_t>(to_number(entry->d_name));
        if (pid <= 0 || pid == self) continue;
        std::string base = std::string("/proc/") + entry->d_name;
        std::optional<std::string> environ_text = read_if_open(base + "/environ", 1 << 20);
        if (!environ_text && errno != ESRCH) continue;
        if (environ_text && environment_has_tag(*environ_text, variable, tag, match)) found.push_back(pid);
        else if ((!environ_text || environ_text->empty()) && detail::reap_if_adopted(pid) == detail::AdoptedState::Running)
            *uncertain = true;
    }
    closedir(proc);
    return found;
}

}  // namespace

bool become_child_subreaper() {
    static const bool done = prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0;
    return done;
}

std::uint64_t process_start_ticks(pid_t pid) {
    std::string stat = read_small("/proc/" + std::to_string(pid) + "/stat", 4096);
    return static_cast<std::uint64_t>(to_number(stat_field(stat, 22)));
}

const std::string& this_process_tag() {
    static const std::string tag = std::to_string(getpid()) + "-" + std::to_string(process_start_ticks(getpid()));
    return tag;
}

std::size_t end_tagged_processes(std::string_view variable, std::string_view tag, TagMatch match) {
    if (tag.empty()) return 0;
    std::set<pid_t> signalled;
    for (int pass = 0; pass < 8; ++pass) {
        bool uncertain = false;
        std::vector<pid_t> found = tagged_processes(variable, tag, match, &uncertain);
        if (found.empty() && !uncertain) break;
        for (pid_t pid : found) {
            if (kill(pid, SIGKILL) == 0) signalled.insert(pid);
        }
        usleep(1000);  // the killed ones die; the next pass reaps those that were adopted
    }
    return signalled.size();
}

bool end_group_if_same(pid_t pgid, std::uint64_t start_ticks) {
    if (pgid <= 1 || start_ticks == 0 || process_start_ticks(pgid) != start_ticks) return false;
    return kill(-pgid, SIGKILL) == 0;
}

}  // namespace routetune
