// FIPS 180-4 / NIST test vectors for sha256_hex, and file hashing.
#include "util/sha256.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace routetune {
namespace {

TEST(Sha256, EmptyString) {
    EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(Sha256, Abc) {
    EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Sha256, TwoBlockMessage448Bits) {
    EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Sha256, MillionA) {
    EXPECT_EQ(sha256_hex(std::string(1000000, 'a')),
              "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, PaddingBoundaries) {
    // 55 bytes fit the length in one block; 56 bytes need a second block.
    EXPECT_EQ(sha256_hex(std::string(55, 'a')),
              "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
    EXPECT_EQ(sha256_hex(std::string(56, 'a')),
              "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
    EXPECT_EQ(sha256_hex(std::string(64, 'a')),
              "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}

TEST(Sha256, FileMatchesBytes) {
    std::filesystem::path file =
        std::filesystem::temp_directory_path() / ("sha256_test_" + std::to_string(getpid()));
    std::string content(200000, '\0');
    for (std::size_t i = 0; i < content.size(); ++i) content[i] = static_cast<char>(i * 7 + 3);
    {
        std::ofstream out(file, std::ios::binary);
        out << content;
    }
    auto hashed = sha256_file(file);
    std::filesystem::remove(file);
    ASSERT_TRUE(hashed.has_value());
    EXPECT_EQ(*hashed, sha256_hex(content));
}

TEST(Sha256, AFifoOrADeviceIsNulloptAtOnceNeverRead) {
    // A build may leave a FIFO at {artifact} (issue 25): hashing it would wait for a writer
    // forever; /dev/zero would never end.
    std::string fifo = (std::filesystem::temp_directory_path() / ("sha256_fifo_" + std::to_string(getpid()))).string();
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_FALSE(sha256_file(fifo).has_value());
    std::filesystem::remove(fifo);
    EXPECT_FALSE(sha256_file("/dev/zero").has_value());
}

TEST(Sha256, MissingFileOrFolderIsNullopt) {
    EXPECT_FALSE(sha256_file("/nonexistent/routetune/file").has_value());
    EXPECT_FALSE(sha256_file(std::filesystem::temp_directory_path()).has_value());
}

}  // namespace
}  // namespace routetune
