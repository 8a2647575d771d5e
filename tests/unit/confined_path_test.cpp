// Confinement of a spec's files to its folder: inside stays, outside is refused as written and
// through a symbolic link anywhere on the way, naming where the link leads.
#include <gtest/gtest.h>

#include "util/confined_path.hpp"
#include "util/files.hpp"

namespace routetune {
namespace {

namespace fs = std::filesystem;

class ConfinedPath : public ::testing::Test {
protected:
    void SetUp() override {
        root_ = make_scratch_folder(fs::temp_directory_path(), "routetune-confined-");
        spec_ = root_ / "project";
        fs::create_directories(spec_ / "data");
        ASSERT_TRUE(write_file(spec_ / "data" / "in.txt", "1\n"));
        ASSERT_TRUE(write_file(root_ / "secret.txt", "SECRET\n"));
    }
    void TearDown() override { remove_tree_quietly(root_); }
    fs::path root_, spec_;
};

TEST_F(ConfinedPath, AFileInsideTheFolderOrNotYetThereIsAccepted) {
    EXPECT_EQ(outside_folder(spec_, spec_ / "data" / "in.txt"), std::nullopt);
    EXPECT_EQ(outside_folder(spec_, spec_ / "data" / "later.txt"), std::nullopt);
    fs::create_symlink("in.txt", spec_ / "data" / "alias.txt");
    EXPECT_EQ(outside_folder(spec_, spec_ / "data" / "alias.txt"), std::nullopt) << "a link staying inside is fine";
}

TEST_F(ConfinedPath, APathOutsideAsWrittenIsRefused) {
    auto why = outside_folder(spec_, (spec_ / ".." / "secret.txt").lexically_normal());
    ASSERT_TRUE(why);
    EXPECT_NE(why->find("outside " + spec_.string()), std::string::npos) << *why;
}

TEST_F(ConfinedPath, ALinkLeavingTheFolderIsRefusedNamingItsTarget) {
    fs::create_symlink(root_ / "secret.txt", spec_ / "data" / "ref.txt");
    auto why = outside_folder(spec_, spec_ / "data" / "ref.txt");
    ASSERT_TRUE(why);
    EXPECT_NE(why->find("symbolic link"), std::string::npos) << *why;
    EXPECT_NE(why->find((root_ / "secret.txt").string()), std::string::npos) << *why;
    fs::create_directory_symlink(root_, spec_ / "linked");
    EXPECT_TRUE(outside_folder(spec_, spec_ / "linked" / "secret.txt")) << "a linked folder on the way";
}

TEST_F(ConfinedPath, LiesWithinComparesAsWritten) {
    EXPECT_TRUE(lies_within(spec_, spec_));
    EXPECT_TRUE(lies_within(spec_, spec_ / "a" / "b"));
    EXPECT_FALSE(lies_within(spec_, root_ / "projectx"));
    EXPECT_FALSE(lies_within(spec_, root_));
}

}  // namespace
}  // namespace routetune
