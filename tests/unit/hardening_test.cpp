// Unit tests of the hardening pieces (issue 9): the lock holder line, number ranges shared by
// TOML and the CLI, quoted excerpts, store file classification, the writer lock taken before the
// store exists, bounded reads, and the process tree helpers.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "routetune/error.hpp"
#include "spec/value_ranges.hpp"
#include "store/sqlite/store_file.hpp"
#include "store/sqlite/writer_lock.hpp"
#include "store/study_store.hpp"
#include "util/bounded_read.hpp"
#include "util/excerpt.hpp"
#include "util/files.hpp"
#include "util/process.hpp"
#include "util/process_tree.hpp"

namespace routetune {
namespace {

namespace fs = std::filesystem;

fs::path scratch() { return make_scratch_folder(fs::temp_directory_path(), "routetune-hardening-"); }

TEST(LockHolder, RoundTripsAndRejectsMalformedLines) {
    LockHolder holder{4242, "node-1", "2026-12-01T10:00:00Z", 123456};
    auto parsed = parse_lock_holder(format_lock_holder(holder));
    ASSERT_TRUE(parsed);
    EXPECT_EQ(parsed->pid, 4242);
    EXPECT_EQ(parsed->host, "node-1");
    EXPECT_EQ(parsed->start_ticks, 123456u);
    for (const char* bad : {"", "4242", "pid=4242 host=a started=b ticks=1", "pid=-1 host=a started=b ticks=1\n",
                            "pid=0 host=a started=b ticks=1\n", "pid=1 host= started=b ticks=1\n",
                            "pid=1 host=a started=b ticks=1 extra\n", "pid=99999999999 host=a started=b ticks=1\n"})
        EXPECT_FALSE(parse_lock_holder(bad)) << bad;
}

TEST(ValueRanges, IntegerOptionsAreCheckedWholeAndInRange) {
    EXPECT_EQ(parse_integer_option("12", ranges::max_routes, "--max-routes"), 12);
    for (const char* bad : {"", "-1", "0", "1e3", "12x", "18446744073709551616", " 5", "+"}) {
        try {
            parse_integer_option(bad, ranges::max_routes, "--max-routes");
            ADD_FAILURE() << bad;
        } catch (const UsageError& e) {
            EXPECT_NE(std::string(e.what()).find("from 1 to 1000000000000"), std::string::npos) << e.what();
        }
    }
    EXPECT_EQ(parse_integer_option("0", ranges::seed, "--seed"), 0);
    EXPECT_THROW(parse_integer_option("-1", ranges::seed, "--seed"), UsageError);
    EXPECT_FALSE(in_range(1e10, ranges::timeout_s));
    EXPECT_FALSE(in_range(0.0, ranges::timeout_s));
    EXPECT_TRUE(in_range(0.5, ranges::timeout_s));
}

TEST(QuotedExcerpt, TruncatesAndEscapes) {
    EXPECT_EQ(quoted_excerpt("abc"), "'abc'");
    EXPECT_EQ(quoted_excerpt(std::string("a\x1b[2Jb\n", 7)), "'a\\x1b[2Jb\\x0a'");
    std::string long_text(10000, 'x');
    std::string quoted = quoted_excerpt(long_text, 80);
    EXPECT_LT(quoted.size(), 120u);
    EXPECT_NE(quoted.find("(10000 bytes)"), std::string::npos);
}

TEST(StoreFile, ClassifiesWithoutFollowingLinks) {
    fs::path dir = scratch();
    EXPECT_EQ(check_store_file(dir / "absent.sqlite"), StoreFile::Absent);
    write_file(dir / "empty.sqlite", "");
    EXPECT_EQ(check_store_file(dir / "empty.sqlite"), StoreFile::Empty);
    write_file(dir / "code.c", "int main() {}\n");
    EXPECT_THROW(check_store_file(dir / "code.c"), UsageError);
    EXPECT_THROW(check_store_file("/dev/null"), UsageError);
    StudyStore::open(dir / "real.sqlite");
    EXPECT_EQ(check_store_file(dir / "real.sqlite"), StoreFile::Routetune);
    fs::create_symlink(dir / "real.sqlite", dir / "link.sqlite");
    EXPECT_THROW(check_store_file(dir / "link.sqlite"), UsageError);
}

TEST(StoreFile, FreshOpenMovesAsideOnlyItsOwnStoreAndOnlyUnderTheLock) {
    fs::path dir = scratch();
    { StudyStore::open(dir / "s.sqlite")->mark_pending(Route::parse("-O=2"), "fast", "t"); }
    fs::create_directories(dir / "s.d");
    {
        auto writer = StudyStore::open(dir / "s.sqlite");
        EXPECT_THROW(StudyStore::open_new_study(dir / "s.sqlite", {dir / "s.d"}), RuntimeFailure);
        EXPECT_TRUE(fs::exists(dir / "s.d"));  // nothing moved while the writer holds it
    }
    auto fresh = StudyStore::open_new_study(dir / "s.sqlite", {dir / "s.d"});
    EXPECT_EQ(fresh->count(), 0u);
    EXPECT_FALSE(fs::exists(dir / "s.d"));
    write_file(dir / "notes.txt", "mine\n");
    EXPECT_THROW(StudyStore::open_new_study(dir / "notes.txt", {}), UsageError);
    EXPECT_EQ(read_file(dir / "notes.txt"), "mine\n");
}

TEST(StoreFile, DamagedSchemaVersionIsNamed) {
    fs::path dir = scratch();
    StudyStore::open(dir / "s.sqlite");
    ProcessSpec spec;
    spec.argv = {"sqlite3", (dir / "s.sqlite").string(), "UPDATE meta SET value = 'abc' WHERE key = 'schema_version'"};
    if (!run_process(spec).succeeded()) GTEST_SKIP() << "no sqlite3 command";
    try {
        StudyStore::open_read_only(dir / "s.sqlite");
        ADD_FAILURE();
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("schema version is 'abc'"), std::string::npos) << e.what();
    }
}

TEST(BoundedRead, RefusesDevicesAndLargeFiles) {
    fs::path dir = scratch();
    EXPECT_THROW(read_bounded_file("/dev/zero", 1024, "routes file"), UsageError);
    write_file(dir / "big", std::string(2048, 'x'));
    EXPECT_THROW(read_bounded_file(dir / "big", 1024, "routes file"), UsageError);
    EXPECT_EQ(read_bounded_file(dir / "big", 4096, "routes file").size(), 2048u);
}

TEST(ProcessTree, RunProcessEndsASetsidGrandchild) {
    std::string marker = "sleep 4444." + std::to_string(getpid());  // unique to this test process
    ProcessSpec spec;
    spec.argv = {"sh", "-c", "setsid " + marker + " > /dev/null 2>&1 < /dev/null & echo started"};
    ProcessResult result = run_process(spec);
    EXPECT_TRUE(result.succeeded());
    usleep(100000);
    ProcessSpec look;
    look.argv = {"pgrep", "-f", marker};
    EXPECT_FALSE(run_process(look).succeeded()) << "the setsid'ed grandchild survived";
}

TEST(ProcessTree, OutputLimitEndsAFloodingChild) {
    ProcessSpec spec;
    spec.argv = {"sh", "-c", "head -c 50000000 /dev/zero"};
    spec.output_limit_bytes = 1 << 20;
    ProcessResult result = run_process(spec);
    EXPECT_TRUE(result.output_exceeded);
    EXPECT_LE(result.out.size(), spec.output_cap);
}

TEST(ProcessTree, EndGroupChecksTheLeadersStartTime) {
    pid_t child = fork();
    if (child == 0) {
        setpgid(0, 0);
        pause();
        _exit(0);
    }
    usleep(50000);
    std::uint64_t ticks = process_start_ticks(child);
    ASSERT_GT(ticks, 0u);
    EXPECT_FALSE(end_group_if_same(child, ticks + 1));  // a recycled pid is left alone
    EXPECT_TRUE(end_group_if_same(child, ticks));
    int status = 0;
    waitpid(child, &status, 0);
    EXPECT_TRUE(WIFSIGNALED(status));
}

}  // namespace
}  // namespace routetune
