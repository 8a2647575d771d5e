// The coordinator's collection against a real server: an evaluation whose commit became
// visible after one with a higher id is still collected. (Ids are drawn when an insert starts;
// the collector once polled "ids above the last seen" and lost such a result, and the
// coordinator waited forever.) The slow commit is made slow for certain: an open transaction
// holds an uncommitted row of the same (study, route), so the worker's insert, its id already
// drawn, waits on the unique key until that transaction rolls back.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "pg/pg_test_database.hpp"
#include "store/postgres/pg_connection.hpp"
#include "store/postgres/work_queue.hpp"
#include "store/study_store.hpp"
#include "study/queue_dispatch.hpp"
#include "study/study_setup.hpp"
#include "study/tune_options.hpp"

namespace routetune {
namespace {

using namespace routetune::testing;
using namespace std::chrono_literals;

Evaluation ok_evaluation(const Route& route) {
    Evaluation e;
    e.route = route;
    e.phase = "full";
    e.status = Status::Ok;
    e.timing = {{0.1}, 0.1, 0.1, 0.1};
    return e;
}

bool waits_on_a_lock(const std::string& url) {
    return PgConnection(url)
               .exec("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()")
               .integer(0, 0) > 0;
}

TEST(QueueDispatch, ACommitVisibleAfterOneWithAHigherIdIsStillCollected) {
    ROUTETUNE_FRESH_PG_DATABASE(url);
    StudySetup setup = prepare_study(load_spec(ROUTETUNE_FIXTURES "/specs/fake_timed.toml"), TuneOptions{});
    StudyStore::open(StoreLocation(url, "s"))->write_header(StudyHeader{"s", "x", "", "", "full", 0, "{}", "", "", "", "", ""});
    QueueDispatch dispatch(setup, StoreLocation(url, "s"), 0, 60);
    Route slow = Route::parse("-O=3"), fast = Route::parse("-O=1");
    auto slow_result = dispatch.submit(slow, "full");
    auto fast_result = dispatch.submit(fast, "full");
    WorkQueue slow_worker(url, "slow", "here"), fast_worker(url, "fast", "here");
    ASSERT_TRUE(slow_worker.attach("s") && fast_worker.attach("s"));
    std::optional<Claim> slow_claim = slow_worker.claim(60), fast_claim = fast_worker.claim(60);
    ASSERT_TRUE(slow_claim && fast_claim);
    ASSERT_EQ(slow_claim->route, slow);

    PgConnection blocker(url);
    blocker.exec("BEGIN");
    blocker.exec("INSERT INTO evaluation (study_id, route, route_hash, phase, status, message, build_log_tail, "
                 "artifact_sha256, artifact_bytes, artifact_path, samples, started_at, finished_at) SELECT id, $1, $2, "
                 "'full', 'ok', '', '', '', 0, '', '[]', '', '' FROM study",
                 {slow.to_string(), slow.hash()});
    std::thread slow_commit([&] { EXPECT_TRUE(slow_worker.commit(*slow_claim, ok_evaluation(slow))); });
    for (int i = 0; i < 200 && !waits_on_a_lock(url); ++i) std::this_thread::sleep_for(25ms);
    ASSERT_TRUE(waits_on_a_lock(url)) << "the slow commit never reached its insert";
    ASSERT_TRUE(fast_worker.commit(*fast_claim, ok_evaluation(fast)));
    ASSERT_EQ(fast_result.wait_for(10s), std::future_status::ready);
    blocker.exec("ROLLBACK");
    slow_commit.join();
    PgConnection db(url);
    ASSERT_LT(db.exec("SELECT id FROM evaluation WHERE route = '-O=3'").integer(0, 0),
              db.exec("SELECT id FROM evaluation WHERE route = '-O=1'").integer(0, 0));
    ASSERT_EQ(slow_result.wait_for(10s), std::future_status::ready) << "the lower id committed later was never collected";
    EXPECT_EQ(slow_result.get().evaluation.route, slow);
    dispatch.close();
}

}  // namespace
}  // namespace routetune
