// The worker loop. Each of --jobs threads repeats: reclaim expired leases (any participant
// may; it is one indexed UPDATE), claim the oldest queued candidate, build it, measure it
// while holding the process-wide measurement mutex (so measurements never overlap, like in
// `tune`), and commit it fenced by the claim. A built artifact that was measured already (the
// same run identity) is answered by that measurement instead (same_as); one that another
// candidate is measuring is claimed by that candidate (WorkQueue::claim_artifact), and this one
// waits for its answer. A heartbeat thread renews every held lease each
// third of the lease and says when one was lost (its result will then be refused). With
// nothing queued a thread waits, saying so once per idle spell; once the coordinator has
// closed the queue and nothing is queued, the worker exits. Work folders are per worker and
// deleted after each commit: the coordinator rebuilds what it confirms. With paired timing
// ([timing] paired, the default) the worker builds the default route once, here, while the
// coordinator evaluates its own (the build needs no baseline), and pairs every candidate's
// runs with that build's: a pair is always timed on one machine.
#include "study/study_worker.hpp"

#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <nlohmann/json.hpp>
#include <ostream>
#include <set>
#include <thread>

#include "eval/fingerprint.hpp"
#include "routetune/error.hpp"
#include "store/postgres/work_queue.hpp"
#include "study/same_artifact.hpp"
#include "study/study_opening.hpp"
#include "study/study_setup.hpp"
#include "util/files.hpp"
#include "util/interrupt_guard.hpp"

namespace routetune {

namespace {

using namespace std::chrono_literals;

bool stopping(const std::atomic<bool>* stop) { return interrupt_requested() || (stop && stop->load()); }

void sleep_s(double seconds) { std::this_thread::sleep_for(std::chrono::duration<double>(seconds)); }

}  // namespace

std::string this_host() {
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    return host;
}

std::string default_worker_id() { return this_host() + "-" + std::to_string(getpid()); }

std::optional<JoinedStudy> join_study(WorkQueue& queue, const WorkerOptions& options, std::ostream& log) {
    bool said = false;
    while (!queue.attach(options.store.study)) {
        if (interrupt_requested()) return std::nullopt;
        if (!said) log << "routetune worker: waiting for study '" << options.store.study << "' to start in "
                       << queue.where() << "\n" << std::flush;
        said = true;
        sleep_s(options.poll_s);
    }
    return queue.identity();
}

void check_worker_identity(const JoinedStudy& study, const StudySetup& setup) {
    if (study.spec_sha256 != setup.spec.sha256) {
        throw FingerprintMismatch("  spec.sha256: the study's spec is " + study.spec_sha256 + ", this worker's " +
                                  setup.spec.file.string() + " is " + setup.spec.sha256 +
                                  "\n(a worker runs the coordinator's spec, byte for byte)");
    }
    Fingerprint recorded;
    auto json = nlohmann::json::parse(study.fingerprint_json, nullptr, false);
    if (json.is_object()) recorded.values = json.get<std::map<std::string, std::string>>();
    std::vector<std::string> changes = diff(recorded, Fingerprint{study_fingerprint(setup)});
    if (changes.empty()) return;
    std::string text;
    for (const auto& line : changes) text += "  " + line + "\n";
    throw FingerprintMismatch(text + "(this worker does not measure: its numbers would not compare with the study's)");
}

struct StudyWorker::Loop {
    StudyWorker& self;
    WorkQueue& queue;
    const std::atomic<bool>* stop;
    Evaluator evaluator;
    RunBaseline baseline;
    std::mutex mutex;  // guards held, totals, log
    std::mutex measuring;
    std::set<std::int64_t> held;
    WorkerTotals totals;
    std::atomic<int> active{0};
    std::atomic<bool> failed{false};  // a thread failed: the others stop too
    std::condition_variable beat;

    void say(const std::string& line) {
        std::lock_guard lock(mutex);
        self.log_ << "routetune worker " << self.options_.worker_id << ": " << line << "\n" << std::flush;
    }

    void heartbeat() {
        std::unique_lock lock(mutex);
        while (active > 0) {
            if (beat.wait_for(lock, std::chrono::duration<double>(self.options_.lease_s / 3), [&] { return active == 0; }))
                break;  // every claim loop ended
            std::vector<std::int64_t> ids(held.begin(), held.end());
            lock.unlock();
            std::vector<std::int64_t> lost;
            try {
                lost = queue.renew(ids, self.options_.lease_s);
            } catch (const std::exception& error) {
                say(std::string("heartbeat failed: ") + error.what());
            }
            for (std::int64_t id : lost) say("lease of attempt id " + std::to_string(id) + " lost; its result will be refused");
            lock.lock();
        }
    }

    // One candidate: build, measure (one at a time), commit fenced by the claim.
    void evaluate(const Claim& claim) {
        {
            std::lock_guard lock(mutex);
            held.insert(claim.attempt_id);
        }
        BuiltCandidate built = evaluator.build(claim.route, claim.phase);
        std::optional<Evaluation> answered = answer(built, claim);
        {
            std::lock_guard lock(mutex);
            held.erase(claim.attempt_id);
        }
        if (!answered) {  // stopped while another candidate measured its artifact: its lease expires
            remove_tree_quietly(built.workdir);
            return;
        }
        Evaluation e = std::move(*answered);
        e.artifact_path.clear();
        bool recorded = queue.commit(claim, e);
        remove_tree_quietly(built.workdir);
        std::lock_guard lock(mutex);
        ++(recorded ? totals.recorded : totals.refused);
        self.log_ << "routetune worker " << self.options_.worker_id << ": "
                  << (recorded ? "recorded " : "refused (lease lost) ") << to_string(e.status) << "  "
                  << (claim.route.empty() ? "(default)" : claim.route.to_string()) << "  attempt " << claim.attempt
                  << (e.same_as.empty() ? "" : "  = " + e.same_as) << "\n" << std::flush;
    }

    // built's evaluation: the answer of a twin that ran its artifact the same way (recorded by
    // anyone: the coordinator's default, another worker, an earlier invocation), else its own
    // measurement (one at a time) under the artifact's claim; while another candidate holds
    // that claim and is running, this one waits for its answer. nullopt when the worker stops
    // while waiting.
    std::optional<Evaluation> answer(BuiltCandidate& built, const Claim& claim) {
        const std::string& sha = built.evaluation.artifact_sha256;
        std::string identity = built.evaluation.status == Status::Pending ? evaluator.run_identity(built.evaluation) : "";
        while (!identity.empty()) {
            for (const Evaluation& twin : queue.measured_artifact(sha))
                if (measured_itself(twin) && evaluator.run_identity(twin) == identity) return same_as_twin(built.evaluation, twin);
            std::string holder = queue.claim_artifact(identity, claim.route_hash);
            if (holder == claim.route_hash || queue.take_over_artifact(identity, holder, claim.route_hash, sha)) break;
            if (stopping(stop) || failed) return std::nullopt;
            sleep_s(self.options_.poll_s);
        }
        std::lock_guard lock(measuring);
        return evaluator.measure(built, baseline);
    }

    void claim_loop() {
        bool idle = false;
        while (!stopping(stop) && !failed) {
            queue.reclaim_expired();
            std::optional<Claim> claim = queue.claim(self.options_.lease_s);
            if (claim) {
                idle = false;
                evaluate(*claim);
                continue;
            }
            if (self.options_.exit_when_closed && queue.closed() && queue.counts().queued == 0) break;
            if (!idle) say("nothing queued; waiting for the coordinator");
            idle = true;
            sleep_s(self.options_.poll_s);
        }
    }
};

BuiltCandidate StudyWorker::own_default(Loop& loop, BuiltCandidate built) const {
    if (built.evaluation.status != Status::Pending)
        throw RuntimeFailure("the default route did not build on this worker (" + built.evaluation.message +
                             "), so its candidates could not be timed paired with it; fix the worker's toolchain "
                             "or set [timing] paired = false");
    loop.say("built the default route here: every candidate's runs are paired with its runs");
    return built;
}

StudyWorker::StudyWorker(const StudySetup& setup, WorkerOptions options, std::ostream& log, ProcessRunner& runner)
    : setup_(setup), options_(std::move(options)), log_(log), runner_(runner) {
    if (options_.worker_id.empty()) options_.worker_id = default_worker_id();
}

StudyWorker::~StudyWorker() = default;

WorkerTotals StudyWorker::run(WorkQueue& queue, const std::atomic<bool>* stop) {
    StudyPaths paths = make_study_paths(setup_.spec.dir, setup_.spec.name + ".worker-" + options_.worker_id);
    Loop loop{*this, queue, stop, Evaluator(setup_.spec, *setup_.adapter, setup_.catalog, paths, runner_), {}, {}, {}, {}, {}, {}, {}, {}};
    loop.evaluator.set_builds_at_once(options_.jobs);
    // With paired timing the default is built here first, while the coordinator evaluates its
    // own: the build needs neither the baseline nor the default's build time (its limit is
    // [build] timeout_s, as the coordinator's default's is).
    std::optional<BuiltCandidate> paired;
    if (setup_.spec.timing.paired) paired = loop.evaluator.build(Route{}, "default");
    bool said = false;
    std::optional<StoredBaseline> stored;
    while (!(stored = queue.read_baseline())) {
        if (stopping(stop)) {
            remove_tree_quietly(paths.root);
            return loop.totals;
        }
        if (!said) loop.say("waiting for the coordinator to evaluate the default route");
        said = true;
        sleep_s(options_.poll_s);
    }
    loop.baseline.reference_outputs = stored->outputs;
    loop.baseline.default_case_s = stored->wall_s;
    if (stored->default_build_s) loop.evaluator.set_default_build_s(*stored->default_build_s);  // [build] relative_timeout
    if (paired) loop.baseline.paired_default = own_default(loop, std::move(*paired));
    int jobs = std::max(options_.jobs, 1);
    loop.active = jobs;
    std::thread heartbeat([&] { loop.heartbeat(); });
    std::vector<std::thread> threads;
    std::exception_ptr failure;
    std::mutex failure_mutex;
    for (int i = 0; i < jobs; ++i) {
        threads.emplace_back([&] {
            try {
                loop.claim_loop();
            } catch (...) {
                std::lock_guard lock(failure_mutex);
                if (!failure) failure = std::current_exception();
                loop.failed = true;
            }
            std::lock_guard lock(loop.mutex);
            --loop.active;
            loop.beat.notify_all();
        });
    }
    for (auto& thread : threads) thread.join();
    heartbeat.join();
    remove_tree_quietly(paths.root);
    if (failure) std::rethrow_exception(failure);
    return loop.totals;
}

}  // namespace routetune
