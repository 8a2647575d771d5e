#include "govern/lock_use.hpp"

#include <system_error>

#include "routetune/error.hpp"

namespace routetune {

namespace fs = std::filesystem;

LockUse judge_lock_use(const fs::path& lock_file, SystemProbe& probe) {
    LockUse use;
    std::error_code error;
    if (!fs::exists(fs::symlink_status(lock_file, error))) {
        use.refusal = LockRefusal::Missing;
        use.why = lock_file.string() + ": no lock file here";
        return use;
    }
    try {
        use.lock = read_lock(lock_file);
    } catch (const UsageError& e) {
        use.refusal = LockRefusal::Unreadable;
        use.why = e.what();
        return use;
    }
    use.differences = environment_differences(*use.lock, lock_file, probe, &use.notes);
    if (!use.differences.empty()) {
        use.refusal = LockRefusal::Stale;
        use.why = lock_file.string() + " is stale here (" + std::to_string(use.differences.size()) + " differences)";
    }
    return use;
}

const Lock& readable_lock(const LockUse& use) {
    if (!use.lock) throw UsageError(use.why);
    return *use.lock;
}

int refusal_exit_code(LockRefusal refusal) {
    switch (refusal) {
        case LockRefusal::None: return 0;
        case LockRefusal::Missing:
        case LockRefusal::Unreadable: return 2;
        case LockRefusal::Stale: return 3;
    }
    return 2;
}

std::string_view to_string(LockRefusal refusal) {
    switch (refusal) {
        case LockRefusal::None: return "usable";
        case LockRefusal::Missing: return "missing";
        case LockRefusal::Unreadable: return "unreadable";
        case LockRefusal::Stale: return "stale";
    }
    return "unreadable";
}

}  // namespace routetune
