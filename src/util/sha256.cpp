// SHA-256 through OpenSSL's libcrypto (EVP digest interface), which uses the CPU's SHA
// extensions or vector code where the machine has them. Files are streamed through one
// incremental digest in 64 KiB chunks, so memory does not grow with the file; a file is opened
// by the one rule for files routetune reads (util/bounded_read.hpp: regular files only, so a
// FIFO or device left at {artifact} is refused at once, never read).
#include "util/sha256.hpp"

#include <fcntl.h>
#include <openssl/evp.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <memory>
#include <vector>

#include "util/bounded_read.hpp"

namespace routetune {
namespace {

/// An incremental SHA-256: update() any number of times, then finish() once; ok() is false
/// when libcrypto failed at any step.
class Sha256 {
public:
    Sha256() : context_(EVP_MD_CTX_new(), &EVP_MD_CTX_free) {
        ok_ = context_ && EVP_DigestInit_ex(context_.get(), EVP_sha256(), nullptr) == 1;
    }

    void update(const void* data, std::size_t size) {
        ok_ = ok_ && EVP_DigestUpdate(context_.get(), data, size) == 1;
    }

    std::optional<std::string> finish() {
        std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
        unsigned int length = 0;
        ok_ = ok_ && EVP_DigestFinal_ex(context_.get(), digest.data(), &length) == 1;
        if (!ok_) return std::nullopt;
        static constexpr char kHex[] = "0123456789abcdef";
        std::string hex;
        hex.reserve(2 * length);
        for (unsigned int i = 0; i < length; ++i) {
            hex.push_back(kHex[digest[i] >> 4]);
            hex.push_back(kHex[digest[i] & 0xf]);
        }
        return hex;
    }

private:
    std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context_;
    bool ok_ = false;
};

}  // namespace

std::string sha256_hex(std::string_view data) {
    Sha256 hasher;
    hasher.update(data.data(), data.size());
    return hasher.finish().value_or("");
}

std::optional<std::string> sha256_file(const std::filesystem::path& file) {
    RegularFile opened = open_regular_file(file, O_RDONLY, LinkRule::Follow, "file");
    if (opened.fd < 0) return std::nullopt;
    Sha256 hasher;
    std::vector<char> chunk(1 << 16);
    while (true) {
        ssize_t got = read(opened.fd, chunk.data(), chunk.size());
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) return std::nullopt;
        if (got == 0) break;
        hasher.update(chunk.data(), static_cast<std::size_t>(got));
    }
    return hasher.finish();
}

}  // namespace routetune
