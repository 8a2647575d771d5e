// The work queue's claim against a real server: one claim takes exactly one candidate, even
// with many queued (the planner once re-ran the SKIP LOCKED sub-select per joined row and
// took a second candidate that no one evaluated until its lease expired), and concurrent
// claimers never share one. A superseded attempt's late commit is refused while the reclaiming
// attempt still holds a live lease (the fencing token, not only the lease, decides).
#include <gtest/gtest.h>

#include <chrono>
#include <set>
#include <thread>

#include "pg/pg_test_database.hpp"
#include "store/postgres/pg_connection.hpp"
#include "store/postgres/work_queue.hpp"
#include "store/study_store.hpp"

namespace routetune {
namespace {

using namespace routetune::testing;

void queue_routes(const std::string& url, int count) {
    StudyStore::open(StoreLocation(url, "q"))->write_header(StudyHeader{"q", "x", "", "", "full", 0, "{}", "", "", "", "", ""});
    WorkQueue queue(url, "coordinator", "here");
    ASSERT_TRUE(queue.attach("q"));
    for (int i = 0; i < count; ++i) queue.enqueue(Route::parse("-O=" + std::to_string(i)), "full");
}

std::int64_t running_rows(const std::string& url) {
    PgConnection db(url);
    return db.exec("SELECT count(*) FROM candidate WHERE state = 'running'").integer(0, 0);
}

TEST(WorkQueueClaim, EachClaimTakesExactlyOneCandidate) {
    ROUTETUNE_FRESH_PG_DATABASE(url);
    queue_routes(url, 16);
    WorkQueue queue(url, "w", "here");
    ASSERT_TRUE(queue.attach("q"));
    std::set<std::string> claimed;
    for (int i = 1; i <= 16; ++i) {
        std::optional<Claim> claim = queue.claim(60);
        ASSERT_TRUE(claim.has_value()) << "claim " << i;
        EXPECT_TRUE(claimed.insert(claim->route_hash).second);
        ASSERT_EQ(running_rows(url), i) << "claim " << i << " took more than one candidate";
    }
    EXPECT_FALSE(queue.claim(60).has_value());
    EXPECT_EQ(queue.counts().queued, 0);
}

TEST(WorkQueueClaim, ConcurrentClaimersTakeEveryCandidateOnce) {
    ROUTETUNE_FRESH_PG_DATABASE(url);
    queue_routes(url, 40);
    std::vector<std::vector<std::string>> taken(4);
    std::vector<std::thread> threads;
    for (std::size_t w = 0; w < taken.size(); ++w) {
        threads.emplace_back([&, w] {
            WorkQueue queue(url, "w" + std::to_string(w), "here");
            if (!queue.attach("q")) return;
            while (auto claim = queue.claim(60)) taken[w].push_back(claim->route_hash);
        });
    }
    for (auto& thread : threads) thread.join();
    std::multiset<std::string> all;
    for (const auto& hashes : taken) all.insert(hashes.begin(), hashes.end());
    EXPECT_EQ(all.size(), 40u);
    EXPECT_EQ(std::set<std::string>(all.begin(), all.end()).size(), 40u);
    EXPECT_EQ(running_rows(url), 40);
}

Evaluation finished(const Claim& claim) {
    Evaluation e;
    e.route = claim.route;
    e.phase = "full";
    e.status = Status::Ok;
    e.timing = {{0.1}, 0.1, 0.1, 0.1};
    return e;
}

TEST(WorkQueueClaim, AnExpiredLeaseCannotCommitBeforeAnyoneReclaimsIt) {
    ROUTETUNE_FRESH_PG_DATABASE(url);
    queue_routes(url, 1);
    WorkQueue worker(url, "w", "here");
    ASSERT_TRUE(worker.attach("q"));
    std::optional<Claim> claim = worker.claim(0.2);
    ASSERT_TRUE(claim.has_value());
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    EXPECT_FALSE(worker.commit(*claim, finished(*claim))) << "the lease expired; the attempt id alone does not hold it";
    EXPECT_EQ(worker.counts().done, 0);
}

TEST(WorkQueueClaim, ASupersededAttemptCannotCommitWhileTheReclaimerHoldsTheLease) {
    ROUTETUNE_FRESH_PG_DATABASE(url);
    queue_routes(url, 1);
    WorkQueue slow(url, "slow", "here");
    WorkQueue fresh(url, "fresh", "here");
    ASSERT_TRUE(slow.attach("q"));
    ASSERT_TRUE(fresh.attach("q"));
    std::optional<Claim> first = slow.claim(0.2);
    ASSERT_TRUE(first.has_value());
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    ASSERT_EQ(fresh.reclaim_expired(), 1u);
    std::optional<Claim> second = fresh.claim(60);
    ASSERT_TRUE(second.has_value());
    ASSERT_NE(second->attempt_id, first->attempt_id);
    EXPECT_FALSE(slow.commit(*first, finished(*first))) << "the superseded attempt wrote while attempt 2 holds a live lease";
    EXPECT_EQ(fresh.counts().running, 1) << "the candidate stays with its reclaimer";
    EXPECT_TRUE(fresh.commit(*second, finished(*second)));
    EXPECT_EQ(fresh.counts().done, 1);
}

}  // namespace
}  // namespace routetune
