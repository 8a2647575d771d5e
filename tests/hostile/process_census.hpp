// Counting the processes a hostile scenario may leave behind, by a marker in their command
// line or environment, with a bounded wait for them to go (a killed process needs a moment to
// be gone from /proc; nothing here asserts how long).
#pragma once

#include <dirent.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#include "util/files.hpp"

namespace routetune::e2e {

/// Live processes (zombies not counted) whose /proc/PID/<field> (cmdline, or environ) holds
/// marker, other than this one.
inline std::vector<pid_t> processes_with(const std::string& marker, const char* field = "cmdline") {
    std::vector<pid_t> found;
    DIR* proc = opendir("/proc");
    while (dirent* entry = readdir(proc)) {
        if (entry->d_name[0] < '0' || entry->d_name[0] > '9') continue;
        std::filesystem::path base = std::filesystem::path("/proc") / entry->d_name;
        std::string stat = read_file(base / "stat").value_or("");
        std::size_t close = stat.rfind(')');
        if (close == std::string::npos || close + 2 >= stat.size() || stat[close + 2] == 'Z') continue;
        auto text = read_file(base / field).value_or("");
        for (char& c : text) c = c == '\0' ? ' ' : c;
        pid_t pid = static_cast<pid_t>(std::stol(entry->d_name));
        if (pid != getpid() && text.find(marker) != std::string::npos) found.push_back(pid);
    }
    closedir(proc);
    return found;
}

/// How many processes_with(marker, field) are still there after waiting up to limit_s for none.
inline std::size_t survivors(const std::string& marker, const char* field = "cmdline", double limit_s = 15) {
    auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(limit_s);
    while (!processes_with(marker, field).empty() && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    return processes_with(marker, field).size();
}

/// Waits up to limit_s for a process with marker in field to appear; true when one did.
inline bool appears(const std::string& marker, const char* field = "cmdline", double limit_s = 60) {
    auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(limit_s);
    while (processes_with(marker, field).empty()) {
        if (std::chrono::steady_clock::now() >= until) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return true;
}

/// SIGKILLs every process with marker in field (the clean-up of a test that failed).
inline void kill_all_with(const std::string& marker, const char* field = "cmdline") {
    for (pid_t pid : processes_with(marker, field)) kill(pid, SIGKILL);
}

}  // namespace routetune::e2e
