// `routetune worker SPEC --store URL`: joins the study a coordinator (`tune --store URL`)
// runs in PostgreSQL, checks that this machine and spec are the study's (else refuses, exit 3,
// naming what differs), and evaluates queued candidates until the coordinator closes the
// queue (exit 0) or SIGINT/SIGTERM arrives (exit 130 after the evaluations in hand).
#include <iostream>
#include <limits>
#include <memory>

#include "cli/cli_support.hpp"
#include "spec/value_ranges.hpp"
#include "cli/commands.hpp"
#include "routetune/error.hpp"
#include "store/postgres/work_queue.hpp"
#include "util/interrupt_guard.hpp"
#include "study/study_setup.hpp"
#include "study/study_worker.hpp"

namespace routetune::cli {

namespace {

struct WorkerArguments {
    std::string spec;
    StoreArguments store;
    int jobs = 1;
    std::string lease = "60s";
    std::string worker_id;
};

int run(const WorkerArguments& a) {
    if (!StoreLocation(a.store.store).shares_work())
        throw UsageError("--store: a worker needs a postgresql:// URL (an SQLite file has one writer), not '" +
                         redact_location(a.store.store) + "'");
    if (!in_range(a.jobs, ranges::jobs))
        throw UsageError("--jobs: " + std::to_string(a.jobs) + " is not valid (expected " + describe(ranges::jobs) + ")");
    InterruptGuard guard;
    Spec spec = load_spec(a.spec);
    WorkerOptions options;
    options.store = StoreLocation(a.store.store, a.store.study.empty() ? spec.name : a.store.study);
    options.jobs = a.jobs;
    options.lease_s = parse_duration(a.lease, "--lease", ranges::lease_s);
    options.worker_id = a.worker_id.empty() ? default_worker_id() : a.worker_id;
    WorkQueue queue(options.store.text, options.worker_id, this_host());
    std::optional<JoinedStudy> study = join_study(queue, options, std::cerr);
    if (!study) throw Interrupted("before the study started");
    TuneOptions tune;
    tune.routes = study->expression;
    tune.search = study->mode;
    tune.max_routes = std::numeric_limits<std::uint64_t>::max();
    StudySetup setup = prepare_study(std::move(spec), tune);
    try {
        check_worker_identity(*study, setup);
    } catch (const FingerprintMismatch& error) {
        std::cerr << "routetune worker: refused: this worker differs from study '" << options.store.study << "' in "
                  << queue.where() << ":\n" << error.what() << "\n";
        return 3;
    }
    StudyWorker worker(setup, options, std::cerr);
    WorkerTotals totals = worker.run(queue);
    std::cerr << "routetune worker " << options.worker_id << ": " << totals.recorded << " evaluations recorded, "
              << totals.refused << " late results refused\n";
    if (interrupt_requested()) throw Interrupted("the worker stopped; its unfinished claims return to the queue");
    return 0;
}

}  // namespace

void add_worker_command(CLI::App& app, Action& action) {
    auto a = std::make_shared<WorkerArguments>();
    CLI::App* c = app.add_subcommand("worker", "Evaluate queued candidates of a study that `tune --store URL` runs");
    c->footer("Exit codes: 0 the queue is empty and the study finished; 1 a runtime failure (the store unreachable); 2 bad spec, store or options; 3 this machine or spec is not the study's (the differences are printed); 130 interrupted after the evaluations in hand.");
    c->add_option("spec", a->spec, "the study's spec (TOML), with its files")->required();
    add_store_options(*c, a->store);
    c->get_option("--store")->required();
    c->add_option("--jobs,-j", a->jobs, "candidates at once (builds overlap; measurements one at a time)");
    c->add_option("--lease", a->lease, "lease of a claim, renewed every third of it (default 60s)");
    c->add_option("--worker-id", a->worker_id, "recorded with each evaluation (default HOST-PID)");
    c->callback([a, &action] { action = [a] { return run(*a); }; });
}

}  // namespace routetune::cli
