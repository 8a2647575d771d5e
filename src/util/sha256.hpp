// SHA-256 of bytes and files (FIPS 180-4, computed by OpenSSL's libcrypto), for route
// hashes, artifact and input hashes.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace routetune {

/// Lower-case hex SHA-256 of data ("" only if libcrypto fails, which it does not for SHA-256).
std::string sha256_hex(std::string_view data);

/// Lower-case hex SHA-256 of the file's bytes, streamed (any size); nullopt when it cannot be
/// read or is not a regular file (a FIFO or device is never read: it could block or not end).
std::optional<std::string> sha256_file(const std::filesystem::path& file);

}  // namespace routetune
