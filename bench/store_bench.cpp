// Study store benchmark: inserting N evaluations (batched by this benchmark; a study commits
// each one on its own), the cost of one durable record(), opening a store of N evaluations
// and loading them all (with and without case rows), and opening it to look up one route
// hash. Each figure is the median of R repetitions. With KEEP, the last store gets a study
// header, a default-route evaluation and an outcome, and is moved to KEEP (for timing
// `routetune report KEEP`).
//   usage: store_bench [N=100000] [R=5] [FOLDER=temp] [KEEP]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "store/study_store.hpp"

namespace fs = std::filesystem;
using routetune::Evaluation;
using routetune::StudyStore;

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    std::size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

Evaluation make_evaluation(std::size_t i) {
    Evaluation evaluation;
    evaluation.route = routetune::Route::parse("-O=" + std::to_string(i % 4) + " -param:bench-id=" + std::to_string(i) +
                                               (i % 2 ? " -funroll-loops=on" : " -funroll-loops=off"));
    evaluation.phase = "full";
    evaluation.status = i % 10 == 0 ? routetune::Status::Inaccurate : routetune::Status::Ok;
    evaluation.message = i % 10 == 0 ? "case 'b': loss 0.01 > 1e-06" : "";
    evaluation.build_s = 0.5 + (i % 100) * 0.01;
    evaluation.build_log_tail = "mm.c: In function 'main':\nmm.c:12: warning: unused variable 'k'";
    evaluation.artifact_sha256 = std::string(64, 'a');
    evaluation.artifact_bytes = 17000 + i;
    evaluation.started_at = "2026-11-29T23:00:00Z";
    evaluation.finished_at = "2026-11-29T23:00:01Z";
    for (int c = 0; c < 3; ++c) {
        routetune::CaseResult result;
        result.name = "case" + std::to_string(c);
        result.status = routetune::Status::Ok;
        result.loss = 1e-9 * c;
        for (int r = 0; r < 7; ++r) result.timing.samples_s.push_back(0.01 + 1e-5 * ((i + r) % 17));
        result.timing.median_s = result.timing.samples_s[3];
        evaluation.cases.push_back(result);
    }
    for (int r = 0; r < 7; ++r) evaluation.timing.samples_s.push_back(0.03 + 1e-5 * ((i + r) % 13));
    evaluation.timing.median_s = evaluation.timing.samples_s[3];
    return evaluation;
}

// Gives the store what a finished study has (header, default route, outcome) and moves it.
void keep_as_study(const fs::path& store_path, const fs::path& keep) {
    {
        StudyStore store = StudyStore::open(store_path);
        routetune::StudyHeader header;
        header.name = "store_bench";
        header.spec_sha256 = std::string(64, 'b');
        header.spec_path = "bench/store_bench.toml";
        header.expression = "-O=[0|1|2|3] -param:bench-id=* -funroll-loops=[on|off]";
        header.mode = "full";
        header.fingerprint_json = R"({"compiler": "gcc 12.2.0", "host_cpu": "bench"})";
        header.tool_version = "bench";
        header.command_line = "store_bench";
        header.created_at = routetune::utc_now_iso8601();
        store.write_header(header);
        Evaluation default_route = make_evaluation(0);
        default_route.route = routetune::Route();
        default_route.phase = "default";
        default_route.status = routetune::Status::Ok;
        default_route.message = "";
        store.record(default_route);
        routetune::StudyOutcome outcome;
        outcome.outcome = "default-stays";
        outcome.message = "no route's median was 1.02x the default's or better";
        outcome.recorded_at = routetune::utc_now_iso8601();
        store.record_outcome(outcome);
    }
    fs::rename(store_path, keep);
    fs::remove(store_path.string() + ".lock");
    std::printf("  kept as %s (with header, default route and outcome)\n", keep.string().c_str());
}

}  // namespace

int main(int argc, char** argv) {
    std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 100000;
    int reps = argc > 2 ? std::atoi(argv[2]) : 5;
    fs::path folder = argc > 3 ? fs::path(argv[3]) : fs::temp_directory_path() / "routetune-store-bench";
    fs::create_directories(folder);
    std::vector<Evaluation> evaluations;
    evaluations.reserve(n);
    for (std::size_t i = 0; i < n; ++i) evaluations.push_back(make_evaluation(i));
    const std::size_t batch = 1000;

    std::vector<double> insert_s, record_one_s, load_all_s, load_index_s, lookup_s;
    fs::path store_path;
    for (int rep = 0; rep < reps; ++rep) {
        store_path = folder / ("bench-" + std::to_string(rep) + ".sqlite");
        fs::remove(store_path);
        fs::remove(store_path.string() + "-wal");
        fs::remove(store_path.string() + "-shm");
        auto start = std::chrono::steady_clock::now();
        {
            StudyStore store = StudyStore::open(store_path);
            for (std::size_t i = 0; i < n; i += batch) {
                std::vector<Evaluation> chunk(evaluations.begin() + i, evaluations.begin() + std::min(n, i + batch));
                store.record_many(chunk);
            }
        }
        insert_s.push_back(seconds_since(start));
        {
            StudyStore store = StudyStore::open(store_path);
            const int singles = 50;
            auto one = std::chrono::steady_clock::now();
            for (int k = 0; k < singles; ++k) store.record(make_evaluation(n + k));
            record_one_s.push_back(seconds_since(one) / singles);
        }
    }
    for (int rep = 0; rep < reps; ++rep) {
        auto start = std::chrono::steady_clock::now();
        StudyStore store = StudyStore::open(store_path);
        auto all = store.evaluations(routetune::CaseRows::Load);
        load_all_s.push_back(seconds_since(start));
        if (all.size() != n + 50 || all.back().cases.size() != 3) {
            std::fprintf(stderr, "unexpected contents: %zu evaluations\n", all.size());
            return 1;
        }
    }
    for (int rep = 0; rep < reps; ++rep) {
        auto start = std::chrono::steady_clock::now();
        StudyStore store = StudyStore::open(store_path);
        auto all = store.evaluations(routetune::CaseRows::Skip);
        load_index_s.push_back(seconds_since(start));
    }
    for (int rep = 0; rep < reps; ++rep) {
        std::string hash = evaluations[(n / 7) * (rep + 1) % n].route.hash();
        auto start = std::chrono::steady_clock::now();
        StudyStore store = StudyStore::open(store_path);
        auto found = store.find(hash);
        lookup_s.push_back(seconds_since(start));
        if (!found || found->cases.size() != 3) {
            std::fprintf(stderr, "lookup failed\n");
            return 1;
        }
    }
    std::printf("study store benchmark: %zu evaluations (3 cases x 7 samples each), median of %d\n", n, reps);
    std::printf("  insert %zu evaluations (batches of %zu):     %9.3f s  (%.1f us/evaluation)\n", n, batch,
                median(insert_s), median(insert_s) / n * 1e6);
    std::printf("  record() one evaluation, durable txn:        %9.3f ms\n", median(record_one_s) * 1e3);
    std::printf("  open + load all evaluations with cases:     %9.3f s\n", median(load_all_s));
    std::printf("  open + load all evaluations, no case rows:  %9.3f s\n", median(load_index_s));
    std::printf("  open + find one route hash (with cases):    %9.3f ms\n", median(lookup_s) * 1e3);
    std::printf("  store size: %.1f MiB\n", static_cast<double>(fs::file_size(store_path)) / (1 << 20));
    if (argc > 4) keep_as_study(store_path, argv[4]);
    for (int rep = 0; rep < reps; ++rep) {
        fs::path path = folder / ("bench-" + std::to_string(rep) + ".sqlite");
        fs::remove(path);
        fs::remove(path.string() + "-wal");
        fs::remove(path.string() + "-shm");
        fs::remove(path.string() + ".lock");
    }
    return 0;
}
