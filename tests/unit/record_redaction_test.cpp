// The store's gate: whatever code made an evaluation, header or outcome, what a store writes
// has passed the redaction filter, so the file's bytes never hold the secret; gc's clearing of
// log tails also filters a message stored before the filter knew the secret's form.
#include <gtest/gtest.h>

#include "store/record_redaction.hpp"
#include "store/sqlite/sqlite_db.hpp"
#include "store/study_store.hpp"
#include "util/files.hpp"

namespace routetune {
namespace {

namespace fs = std::filesystem;

const std::string kToken = "ghp_0123456789abcdefghijklmnopqrstuv";

Evaluation leaky_evaluation() {
    Evaluation e;
    e.route = Route::parse("-O=3");
    e.phase = "fast";
    e.status = Status::BuildFailed;
    e.message = "the build exited with code 1: error: GITHUB_TOKEN=" + kToken;
    e.build_log_tail = "curl -u admin:adminpw https://x\n";
    CaseResult c;
    c.name = "typical";
    c.status = Status::RunFailed;
    c.stderr_tail = "psql postgresql://ann:s3cretpw@db/x\n";
    e.cases.push_back(c);
    return e;
}

TEST(RecordRedaction, EveryTextFieldOfARecordPassesTheFilter) {
    Evaluation e = redacted_record(leaky_evaluation());
    EXPECT_EQ(e.message, "the build exited with code 1: error: GITHUB_TOKEN=[REDACTED]");
    EXPECT_EQ(e.build_log_tail, "curl -u admin:[REDACTED] https://x\n");
    EXPECT_EQ(e.cases.at(0).stderr_tail, "psql postgresql://ann:[REDACTED]@db/x\n");
    StudyHeader header;
    header.command_line = "routetune tune spec.toml --store postgresql://ann:s3cretpw@db/x";
    EXPECT_EQ(redacted_record(header).command_line, "routetune tune spec.toml --store postgresql://ann:[REDACTED]@db/x");
    StudyOutcome outcome;
    outcome.message = "DB_PASSWORD=hunter2";
    EXPECT_EQ(redacted_record(outcome).message, "DB_PASSWORD=[REDACTED]");
}

TEST(RecordRedaction, AnSqliteStoreNeverWritesTheSecretAndGcFiltersAnOldMessage) {
    fs::path file = make_scratch_folder(fs::temp_directory_path(), "routetune-redact-") / "study.sqlite";
    std::int64_t id = 0;
    {
        auto store = StudyStore::open(StoreLocation(file.string()));
        StudyHeader header;
        header.name = "leaky";
        header.command_line = "routetune tune --reason DB_PASSWORD=hunter2";
        store->write_header(header);
        id = store->record(leaky_evaluation());
        StudyOutcome outcome;
        outcome.message = "MY_SECRET=s3cretpw";
        store->record_outcome(outcome);
        Evaluation back = *store->find(Route::parse("-O=3").hash());
        EXPECT_EQ(back.message.find(kToken), std::string::npos) << back.message;
        EXPECT_EQ(store->read_header()->command_line, "routetune tune --reason DB_PASSWORD=[REDACTED]");
    }
    std::string bytes = read_file(file).value_or("") + read_file(file.string() + "-wal").value_or("");
    for (const std::string secret : {kToken, std::string("adminpw"), std::string("s3cretpw"), std::string("hunter2")})
        EXPECT_EQ(bytes.find(secret), std::string::npos) << secret;
    {
        SqliteDb raw(file, false, false);
        auto old = raw.prepare("UPDATE evaluation SET message = ? WHERE id = ?");
        old.bind(1, "stored by an older routetune: mysql -uroot -pMyS3cretPass").bind(2, id).run();
    }
    auto store = StudyStore::open(StoreLocation(file.string()));
    store->clear_log_tails(id);
    Evaluation cleared = store->evaluations().at(0);
    EXPECT_EQ(cleared.message, "stored by an older routetune: mysql -uroot -p[REDACTED]");
    EXPECT_EQ(cleared.build_log_tail, "");
    EXPECT_EQ(cleared.cases.at(0).stderr_tail, "");
}

}  // namespace
}  // namespace routetune
