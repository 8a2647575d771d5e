// The governance parts of the spec and the lock: case classes, promotion-only cases and class
// thresholds parse and are validated; a lock round-trips and refuses another schema version;
// flags print as shell words that a shell splits back into the same items.
#include <gtest/gtest.h>

#include "eval/accuracy.hpp"
#include "govern/lock.hpp"
#include "routetune/error.hpp"
#include "routetune/spec.hpp"
#include "util/files.hpp"
#include "util/shell_quote.hpp"

namespace routetune {
namespace {

namespace fs = std::filesystem;

const std::string kCommands = R"(
[build]
command = ["{compiler}", "{flags}", "k.c", "-o", "{artifact}"]
[run]
command = ["{artifact}"]
)";

Spec parse(const std::string& text) {
    return parse_spec(text, make_scratch_folder(fs::temp_directory_path(), "routetune-gspec-") / "spec.toml");
}

TEST(GovernanceSpec, CaseClassesPromotionOnlyAndClassThresholdsParse) {
    Spec spec = parse(kCommands + R"(
[accuracy]
threshold = 1e-6
[accuracy.boundary]
threshold = 1e-9
[[case]]
name = "typical"
[[case]]
name = "edge"
class = "boundary"
promotion_only = true
)");
    ASSERT_EQ(spec.cases.size(), 2u);
    EXPECT_EQ(spec.cases[0].case_class, "normal");
    EXPECT_FALSE(spec.cases[0].promotion_only);
    EXPECT_EQ(spec.cases[1].case_class, "boundary");
    EXPECT_TRUE(spec.cases[1].promotion_only);
    EXPECT_EQ(accuracy_rule_for(spec.accuracy, "boundary").threshold, 1e-9);
    EXPECT_EQ(accuracy_rule_for(spec.accuracy, "normal").threshold, 1e-6);
    EXPECT_EQ(accuracy_rule_for(spec.accuracy, "misuse").threshold, 1e-6);
}

TEST(GovernanceSpec, AnUnknownClassOrClassKeyIsAUsageErrorNamingIt) {
    try {
        parse(kCommands + "[[case]]\nname = \"a\"\nclass = \"edge\"\n");
        FAIL() << "an unknown class parsed";
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("boundary"), std::string::npos) << e.what();
    }
    EXPECT_THROW(parse(kCommands + "[accuracy.boundary]\nmetric = \"l1\"\n"), UsageError);
    EXPECT_THROW(parse(kCommands + "[accuracy.boundary]\nthreshold = -1.0\n"), UsageError);
}

TEST(GovernanceLock, RoundTripsAndRefusesAnotherSchemaVersionNamingTheFile) {
    fs::path dir = make_scratch_folder(fs::temp_directory_path(), "routetune-lock-");
    Lock lock;
    lock.route = "-O=3";
    lock.flags = {"-O3", "-DNAME=a b"};
    lock.fingerprint = {{"compiler.version", "gcc 12"}};
    lock.evidence.cases.push_back({"edge", "boundary", true, "ok", 0.5, 1e-9});
    lock.thresholds = {{"boundary", 1e-9}};
    write_lock(dir / "x.lock.json", lock);
    Lock back = read_lock(dir / "x.lock.json");
    EXPECT_EQ(lock_to_text(back), lock_to_text(lock));
    EXPECT_EQ(back.evidence.cases.at(0).case_class, "boundary");

    std::string text = *read_file(dir / "x.lock.json");
    text.replace(text.find("\"schema_version\": 2"), 19, "\"schema_version\": 1");  // a lock from before seals
    ASSERT_TRUE(write_file(dir / "x.lock.json", text));
    try {
        read_lock(dir / "x.lock.json");
        FAIL() << "a version 1 lock was read";
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("x.lock.json: lock schema version 1"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(is_lock_file(dir / "x.lock.json")) << "promote may replace a lock of another version";
    ASSERT_TRUE(write_file(dir / "y.lock.json", "{\"schema_version\": 2}"));
    EXPECT_THROW(read_lock(dir / "y.lock.json"), UsageError);
}

TEST(GovernanceLock, PathsAreRelativeToTheLocksFolder) {
    fs::path dir = make_scratch_folder(fs::temp_directory_path(), "routetune-lock-");
    fs::path lock = dir / "app" / "routetune.lock.json";
    EXPECT_EQ(path_for_lock(dir / "app" / "spec.toml", lock), "spec.toml");
    EXPECT_EQ(path_for_lock(dir / "data" / "in.txt", lock), "../data/in.txt");
    EXPECT_EQ(path_from_lock("../data/in.txt", lock), dir / "data" / "in.txt");
}

TEST(ShellQuote, PlainItemsStayAndOthersAreQuotedSoAShellSplitsThemBack) {
    EXPECT_EQ(shell_words({"-O3", "-march=native", "--param=max-unroll-times=16"}),
              "-O3 -march=native --param=max-unroll-times=16");
    EXPECT_EQ(shell_quote("-DNAME=a b"), "'-DNAME=a b'");
    EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
    EXPECT_EQ(shell_quote(""), "''");
    EXPECT_EQ(shell_quote("$(rm -rf /)"), "'$(rm -rf /)'");
}

}  // namespace
}  // namespace routetune
