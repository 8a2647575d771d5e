// SHA-256 through OpenSSL's libcrypto (EVP digest interface), which uses the CPU's SHA
// extensions or vector code where the machine has them. Files are streamed through one
// incremental digest in 64 KiB chunks, so memory does not grow with the file.
#include "util/sha256.hpp"

#include <openssl/evp.h>

#include <array>
#include <fstream>
#include <memory>
#include <vector>

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
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec)) return std::nullopt;
    std::ifstream in(file, std::ios::binary);
    if (!in) return std::nullopt;
    Sha256 hasher;
    std::vector<char> chunk(1 << 16);
    while (in) {
        in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
        std::streamsize got = in.gcount();
        if (got > 0) hasher.update(chunk.data(), std::size_t(got));
    }
    if (in.bad()) return std::nullopt;
    return hasher.finish();
}

}  // namespace routetune
