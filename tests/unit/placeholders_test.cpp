// Placeholder expansion: whole-item lists, text substitution, and the errors.
#include <gtest/gtest.h>

#include "spec/placeholders.hpp"
#include "routetune/error.hpp"

namespace routetune {
namespace {

using Argv = std::vector<std::string>;

PlaceholderValues sample_values() {
    return {{"compiler", {"/usr/bin/gcc"}},
            {"flags", {"-O3", "-funroll-loops"}},
            {"artifact", {"/tmp/w/a.out"}},
            {"none", {}}};
}

TEST(PlaceholdersTest, FlagsExpandToSeveralItems) {
    EXPECT_EQ(expand_argv({"{compiler}", "{flags}", "mm.c", "-o", "{artifact}"}, sample_values()),
              (Argv{"/usr/bin/gcc", "-O3", "-funroll-loops", "mm.c", "-o", "/tmp/w/a.out"}));
}

TEST(PlaceholdersTest, EmptyListExpandsToNothing) {
    EXPECT_EQ(expand_argv({"cc", "{none}", "x.c"}, sample_values()), (Argv{"cc", "x.c"}));
}

TEST(PlaceholdersTest, TextSubstitutionInsideItems) {
    EXPECT_EQ(expand_argv({"-o{artifact}", "--saveEngine={artifact}", "{compiler}:{artifact}"}, sample_values()),
              (Argv{"-o/tmp/w/a.out", "--saveEngine=/tmp/w/a.out", "/usr/bin/gcc:/tmp/w/a.out"}));
}

TEST(PlaceholdersTest, NonIdentifierBracesAreText) {
    EXPECT_EQ(expand_argv({"{}", "{\"time_ms\": 1}", "{a-b}", "{", "}{compiler}"}, sample_values()),
              (Argv{"{}", "{\"time_ms\": 1}", "{a-b}", "{", "}/usr/bin/gcc"}));
}

TEST(PlaceholdersTest, ListInsideLargerItemIsAnError) {
    try {
        expand_argv({"-x{flags}"}, sample_values());
        FAIL() << "expected a UsageError";
    } catch (const UsageError& error) {
        EXPECT_EQ(std::string(error.what()),
                  "placeholder {flags} stands for 2 argv items and must be an argv item of its own, not part of "
                  "'-x{flags}'");
    }
}

TEST(PlaceholdersTest, UnknownPlaceholderIsNamed) {
    try {
        expand_argv({"{output}"}, {{"artifact", {"a"}}, {"flags", {}}});
        FAIL() << "expected a UsageError";
    } catch (const UsageError& error) {
        EXPECT_EQ(std::string(error.what()), "unknown placeholder {output} (valid here: {artifact}, {flags})");
    }
}

TEST(PlaceholdersTest, ExpandText) {
    EXPECT_EQ(expand_text("{artifact}.log", sample_values()), "/tmp/w/a.out.log");
    EXPECT_THROW(expand_text("{flags}", sample_values()), UsageError);
}

TEST(PlaceholdersTest, FindPlaceholdersReportsPositions) {
    auto uses = find_placeholders("a{x}b{y_2}");
    ASSERT_EQ(uses.size(), 2u);
    EXPECT_EQ(uses[0].name, "x");
    EXPECT_EQ(uses[0].offset, 1u);
    EXPECT_FALSE(uses[0].whole_item);
    EXPECT_EQ(uses[1].name, "y_2");
    EXPECT_EQ(uses[1].offset, 5u);
    auto whole = find_placeholders("{flags}");
    ASSERT_EQ(whole.size(), 1u);
    EXPECT_TRUE(whole[0].whole_item);
}

}  // namespace
}  // namespace routetune
