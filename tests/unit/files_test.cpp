// Whole-file I/O, scratch folders, tails, timestamps and the clock interface.
#include "util/files.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "routetune/error.hpp"
#include "util/clock.hpp"

namespace routetune {
namespace {

class FilesTest : public ::testing::Test {
protected:
    void SetUp() override { folder_ = make_scratch_folder(std::filesystem::temp_directory_path(), "files_test_"); }
    void TearDown() override { remove_tree_quietly(folder_); }
    std::filesystem::path folder_;
};

TEST_F(FilesTest, WriteThenReadRoundTripsBinaryBytes) {
    std::string bytes("a\0b\nc\xff", 6);
    std::string error;
    ASSERT_TRUE(write_file(folder_ / "data.bin", bytes, &error)) << error;
    EXPECT_EQ(read_file(folder_ / "data.bin"), bytes);
}

TEST_F(FilesTest, WriteReplacesAndLeavesNoTemporary) {
    ASSERT_TRUE(write_file(folder_ / "f.txt", "first version, longer"));
    ASSERT_TRUE(write_file(folder_ / "f.txt", "second"));
    EXPECT_EQ(read_file(folder_ / "f.txt"), "second");
    int entries = 0;
    for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(folder_)) ++entries;
    EXPECT_EQ(entries, 1);
}

TEST_F(FilesTest, WriteIntoMissingFolderFailsWithMessage) {
    std::string error;
    EXPECT_FALSE(write_file(folder_ / "missing" / "f.txt", "x", &error));
    EXPECT_NE(error.find("missing"), std::string::npos) << error;
    EXPECT_FALSE(write_file(folder_ / "missing" / "f.txt", "x"));
}

TEST_F(FilesTest, CopyReplacesKeepsPermissionBitsAndLeavesNoTemporary) {
    namespace fs = std::filesystem;
    ASSERT_TRUE(write_file(folder_ / "tool", "#!/bin/sh\necho new\n"));
    fs::permissions(folder_ / "tool", fs::perms::owner_all | fs::perms::group_read, fs::perm_options::replace);
    ASSERT_TRUE(write_file(folder_ / "copy", "old"));
    std::string error;
    ASSERT_TRUE(copy_file_atomically(folder_ / "tool", folder_ / "copy", &error)) << error;
    EXPECT_EQ(read_file(folder_ / "copy"), "#!/bin/sh\necho new\n");
    EXPECT_EQ(fs::status(folder_ / "copy").permissions(), fs::perms::owner_all | fs::perms::group_read);
    int entries = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(folder_)) ++entries;
    EXPECT_EQ(entries, 2);
}

TEST_F(FilesTest, CopyOfAMissingSourceFailsAndLeavesTheTargetAsItWas) {
    ASSERT_TRUE(write_file(folder_ / "copy", "old"));
    std::string error;
    EXPECT_FALSE(copy_file_atomically(folder_ / "absent", folder_ / "copy", &error));
    EXPECT_FALSE(error.empty());
    EXPECT_EQ(read_file(folder_ / "copy"), "old");
    EXPECT_FALSE(copy_file_atomically(folder_ / "absent", folder_ / "missing" / "copy"));
}

TEST_F(FilesTest, ReadMissingOrFolderIsNullopt) {
    EXPECT_FALSE(read_file(folder_ / "nope").has_value());
    EXPECT_FALSE(read_file(folder_).has_value());
}

TEST_F(FilesTest, EmptyFileReadsAsEmptyString) {
    ASSERT_TRUE(write_file(folder_ / "empty", ""));
    EXPECT_EQ(read_file(folder_ / "empty"), std::string());
}

TEST_F(FilesTest, ScratchFoldersAreUniqueAndEmpty) {
    std::filesystem::path a = make_scratch_folder(folder_ / "nested", "eval_");
    std::filesystem::path b = make_scratch_folder(folder_ / "nested", "eval_");
    EXPECT_NE(a, b);
    EXPECT_TRUE(std::filesystem::is_directory(a));
    EXPECT_TRUE(std::filesystem::is_empty(b));
    EXPECT_EQ(a.filename().string().rfind("eval_", 0), 0u);
    EXPECT_EQ(a.parent_path(), folder_ / "nested");
}

TEST_F(FilesTest, ScratchFolderFailureThrowsRuntimeFailure) {
    ASSERT_TRUE(write_file(folder_ / "plain", "x"));
    EXPECT_THROW(make_scratch_folder(folder_ / "plain", "s_"), RuntimeFailure);
}

TEST_F(FilesTest, RemoveTreeQuietlyCountsAndIgnoresMissing) {
    std::filesystem::create_directories(folder_ / "t" / "u");
    ASSERT_TRUE(write_file(folder_ / "t" / "u" / "f", "x"));
    ASSERT_TRUE(write_file(folder_ / "t" / "g", "y"));
    EXPECT_EQ(remove_tree_quietly(folder_ / "t"), 4u);
    EXPECT_FALSE(std::filesystem::exists(folder_ / "t"));
    EXPECT_EQ(remove_tree_quietly(folder_ / "t"), 0u);
}

TEST(TailOf, ShortTextIsKept) {
    EXPECT_EQ(tail_of("abc\ndef\n", 8), "abc\ndef\n");
    EXPECT_EQ(tail_of("", 0), "");
}

TEST(TailOf, CutsAtALineStart) {
    EXPECT_EQ(tail_of("line one\nline two\nline three\n", 16), "line three\n");
    EXPECT_EQ(tail_of("line one\nline two\nline three\n", 20), "line two\nline three\n");
}

TEST(TailOf, WindowStartingAtALineIsKeptWhole) {
    EXPECT_EQ(tail_of("aaaa\nbbbb\n", 5), "bbbb\n");
}

TEST(TailOf, NoLineBreakKeepsTheLastBytes) {
    EXPECT_EQ(tail_of("0123456789", 4), "6789");
    EXPECT_EQ(tail_of("0123456789\n", 4), "789\n");
}

TEST(Iso8601, FormatsUtc) {
    auto time = std::chrono::system_clock::time_point(std::chrono::seconds(1700000000));
    EXPECT_EQ(iso8601_utc(time), "2023-11-14T22:13:20Z");
    EXPECT_EQ(iso8601_utc(std::chrono::system_clock::time_point{}), "1970-01-01T00:00:00Z");
}

TEST(Iso8601, NowHasTheShape) {
    std::string now = iso8601_utc_now();
    ASSERT_EQ(now.size(), 20u);
    EXPECT_EQ(now[4], '-');
    EXPECT_EQ(now[10], 'T');
    EXPECT_EQ(now[19], 'Z');
}

TEST(Clock, FakeClockMovesOnlyWhenTold) {
    FakeClock clock(10);
    EXPECT_EQ(clock.now_s(), 10);
    clock.advance(2.5);
    EXPECT_EQ(clock.now_s(), 12.5);
    clock.advance(-5);
    EXPECT_EQ(clock.now_s(), 12.5);
    const Clock& as_interface = clock;
    EXPECT_EQ(as_interface.now_s(), 12.5);
}

TEST(Clock, RealClockDoesNotGoBack) {
    double first = real_clock().now_s();
    double second = real_clock().now_s();
    EXPECT_GE(second, first);
    EXPECT_GT(first, 0);
}

}  // namespace
}  // namespace routetune
