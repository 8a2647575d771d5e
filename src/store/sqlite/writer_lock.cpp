// The holder line is written after the flock is taken, so a second writer racing the first
// may find the file still empty; it re-reads for up to 200 ms before saying "not yet
// recorded". The lock file is opened with O_NOFOLLOW and must be a regular file: a link
// planted at "<store>.lock" cannot redirect the write.
#include "store/sqlite/writer_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>

#include "routetune/error.hpp"
#include "util/files.hpp"
#include "util/process_tree.hpp"

namespace routetune {

namespace {

std::string host_name() {
    char buffer[256] = {};
    return gethostname(buffer, sizeof buffer - 1) == 0 ? buffer : "unknown";
}

bool plain_word(std::string_view text) {
    if (text.empty() || text.size() > 255) return false;
    for (char c : text) {
        if (static_cast<unsigned char>(c) <= 0x20 || static_cast<unsigned char>(c) >= 0x7f) return false;
    }
    return true;
}

std::string read_holder_text(int fd) {
    char buffer[512] = {};
    ssize_t got = pread(fd, buffer, sizeof buffer - 1, 0);
    return got > 0 ? std::string(buffer, static_cast<std::size_t>(got)) : std::string();
}

std::string describe_holder(int fd) {
    std::optional<LockHolder> holder;
    for (int attempt = 0; attempt < 10 && !holder; ++attempt) {
        holder = parse_lock_holder(read_holder_text(fd));
        if (!holder) usleep(20000);
    }
    if (!holder) return "another routetune process (its pid is not recorded yet)";
    return "routetune pid " + std::to_string(holder->pid) + " on host " + holder->host + " since " + holder->started_at;
}

}  // namespace

std::string format_lock_holder(const LockHolder& holder) {
    return "pid=" + std::to_string(holder.pid) + " host=" + holder.host + " started=" + holder.started_at +
           " ticks=" + std::to_string(holder.start_ticks) + "\n";
}

std::optional<LockHolder> parse_lock_holder(std::string_view text) {
    if (text.empty() || text.back() != '\n') return std::nullopt;
    text.remove_suffix(1);
    LockHolder holder;
    const char* keys[] = {"pid=", "host=", "started=", "ticks="};
    for (int field = 0; field < 4; ++field) {
        std::string_view key = keys[field];
        if (text.substr(0, key.size()) != key) return std::nullopt;
        text.remove_prefix(key.size());
        std::size_t end = field < 3 ? text.find(' ') : text.size();
        if (end == std::string_view::npos) return std::nullopt;
        std::string_view value = text.substr(0, end);
        text.remove_prefix(field < 3 ? end + 1 : end);
        if (!plain_word(value)) return std::nullopt;
        if (field == 0 || field == 3) {
            std::uint64_t number = 0;
            auto result = std::from_chars(value.data(), value.data() + value.size(), number);
            if (result.ec != std::errc() || result.ptr != value.data() + value.size()) return std::nullopt;
            if (field == 0) {
                if (number == 0 || number > 0x7fffffff) return std::nullopt;
                holder.pid = static_cast<std::int64_t>(number);
            } else {
                holder.start_ticks = number;
            }
        } else {
            (field == 1 ? holder.host : holder.started_at) = std::string(value);
        }
    }
    return text.empty() ? std::optional<LockHolder>(holder) : std::nullopt;
}

WriterLock WriterLock::acquire(const std::filesystem::path& store) {
    std::string lock_path = store.string() + ".lock";
    int fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
    if (fd < 0 && errno == ELOOP)
        throw UsageError(lock_path + ": is a symbolic link; routetune's writer lock must be a plain file");
    if (fd < 0) throw RuntimeFailure(lock_path + ": cannot create the writer lock: " + std::strerror(errno));
    struct stat info {};
    if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        ::close(fd);
        throw UsageError(lock_path + ": is not a regular file; routetune's writer lock must be a plain file");
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        std::string holder = describe_holder(fd);
        ::close(fd);
        throw RuntimeFailure(store.string() + ": the study is being written by " + holder +
                             "; wait for it to finish or use another --cache");
    }
    LockHolder self{getpid(), host_name(), iso8601_utc_now(), process_start_ticks(getpid())};
    if (!plain_word(self.host)) self.host = "unknown";
    std::string line = format_lock_holder(self);
    bool written = ftruncate(fd, 0) == 0 && pwrite(fd, line.data(), line.size(), 0) == static_cast<ssize_t>(line.size());
    static_cast<void>(written);  // the holder line only improves a second writer's message
    return WriterLock(fd);
}

WriterLock& WriterLock::operator=(WriterLock&& other) noexcept {
    if (this != &other) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = other.fd_;
        other.fd_ = -1;
    }
    return *this;
}

WriterLock::~WriterLock() {
    if (fd_ >= 0) ::close(fd_);
}

}  // namespace routetune
