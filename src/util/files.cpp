// Atomic writes and copies go to "<file>.tmp.<pid>.<counter>" in the target's own folder (so the rename
// stays on one file system), are fsync'ed, then renamed over the target; on any failure the
// temporary is removed and the target is untouched. Scratch folders use mkdtemp.
#include "util/files.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>
#include <vector>

#include "routetune/error.hpp"

namespace routetune {
namespace {

bool fail(std::string* error, std::string message) {
    if (error != nullptr) *error = std::move(message);
    return false;
}

std::filesystem::path temporary_for(const std::filesystem::path& file) {
    static std::atomic<unsigned> counter{0};
    std::filesystem::path temporary = file;
    temporary += ".tmp." + std::to_string(getpid()) + "." + std::to_string(counter++);
    return temporary;
}

// fsyncs and closes fd (open on temporary), then renames temporary over file; removes the
// temporary on failure.
bool commit_temporary(int fd, const std::filesystem::path& temporary, const std::filesystem::path& file,
                      std::string* error) {
    if (fsync(fd) != 0 || close(fd) != 0) {
        std::string reason = std::strerror(errno);
        unlink(temporary.c_str());
        return fail(error, "cannot flush '" + temporary.string() + "': " + reason);
    }
    if (rename(temporary.c_str(), file.c_str()) != 0) {
        std::string reason = std::strerror(errno);
        unlink(temporary.c_str());
        return fail(error, "cannot rename '" + temporary.string() + "' to '" + file.string() + "': " + reason);
    }
    return true;
}

}  // namespace

std::optional<std::string> read_file(const std::filesystem::path& file) {
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec)) return std::nullopt;
    std::ifstream in(file, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream content;
    content << in.rdbuf();
    if (in.bad()) return std::nullopt;
    return std::move(content).str();
}

bool write_file(const std::filesystem::path& file, std::string_view data, std::string* error) {
    std::filesystem::path temporary = temporary_for(file);
    int fd = open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) return fail(error, "cannot create '" + temporary.string() + "': " + std::strerror(errno));
    std::string_view rest = data;
    while (!rest.empty()) {
        ssize_t put = write(fd, rest.data(), rest.size());
        if (put < 0 && errno == EINTR) continue;
        if (put < 0) {
            std::string reason = std::strerror(errno);
            close(fd);
            unlink(temporary.c_str());
            return fail(error, "cannot write '" + temporary.string() + "': " + reason);
        }
        rest.remove_prefix(static_cast<std::size_t>(put));
    }
    return commit_temporary(fd, temporary, file, error);
}

bool copy_file_atomically(const std::filesystem::path& source, const std::filesystem::path& file, std::string* error) {
    namespace fs = std::filesystem;
    fs::path temporary = temporary_for(file);
    std::error_code ec;
    fs::perms permissions = fs::status(source, ec).permissions();
    if (!ec) fs::copy_file(source, temporary, fs::copy_options::overwrite_existing, ec);
    if (!ec) fs::permissions(temporary, permissions, fs::perm_options::replace, ec);
    int fd = ec ? -1 : open(temporary.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        std::string reason = ec ? ec.message() : std::strerror(errno);
        fs::remove(temporary, ec);
        return fail(error, reason);
    }
    return commit_temporary(fd, temporary, file, error);
}

std::filesystem::path make_scratch_folder(const std::filesystem::path& parent, const std::string& prefix) {
    std::error_code ec;
    std::filesystem::create_directories(parent, ec);
    std::string pattern = (parent / (prefix + "XXXXXX")).string();
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    if (mkdtemp(buffer.data()) == nullptr)
        throw RuntimeFailure("cannot create a scratch folder '" + pattern + "': " + std::strerror(errno));
    return std::filesystem::path(buffer.data());
}

std::string folder_write_error(const std::filesystem::path& folder) {
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    if (ec) return ec.message();
    std::string pattern = (folder / ".routetune-probe-XXXXXX").string();
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    int fd = mkstemp(buffer.data());
    if (fd < 0) return std::strerror(errno);
    close(fd);
    unlink(buffer.data());
    return "";
}

std::uintmax_t remove_tree_quietly(const std::filesystem::path& folder) noexcept {
    std::error_code ec;
    std::uintmax_t removed = std::filesystem::remove_all(folder, ec);
    return removed == static_cast<std::uintmax_t>(-1) ? 0 : removed;
}

std::string tail_of(std::string_view text, std::size_t max_bytes) {
    if (text.size() <= max_bytes) return std::string(text);
    std::string_view window = text.substr(text.size() - max_bytes);
    bool starts_a_line = text[text.size() - max_bytes - 1] == '\n';
    if (!starts_a_line) {
        std::size_t newline = window.find('\n');
        if (newline != std::string_view::npos && newline + 1 < window.size()) window.remove_prefix(newline + 1);
    }
    return std::string(window);
}

std::string iso8601_utc(std::chrono::system_clock::time_point time) {
    std::time_t seconds = std::chrono::system_clock::to_time_t(time);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

std::string iso8601_utc_now() { return iso8601_utc(std::chrono::system_clock::now()); }

}  // namespace routetune
