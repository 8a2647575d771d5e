// Order: check the request against the store, the lock's path, the lock registry and who
// promotes (nothing is built for bad input), write a "promote-proposed" audit entry, run the
// regression set and the A/B, then either write a "promote-refused" entry naming every failure,
// or copy the fresh artifact out of gc's reach (<store>.d/locked/), register the lock beside the
// store, write "promoted" (recording the lock's body hash), seal the lock with that entry as its
// anchor and write it atomically. A failure after the run writes "promote-failed" and no lock.
#include "govern/promotion.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "eval/accuracy.hpp"
#include "eval/fingerprint.hpp"
#include "govern/actor_identity.hpp"
#include "govern/governed_setup.hpp"
#include "govern/lock_seal.hpp"
#include "govern/regression_run.hpp"
#include "spec/build_inputs.hpp"
#include "routetune/error.hpp"
#include "store/study_store.hpp"
#include "util/files.hpp"
#include "util/output_path.hpp"
#include "util/sha256.hpp"

namespace routetune {

namespace fs = std::filesystem;

namespace {

struct StudyEvidence {
    std::string where;      ///< the store for messages and records (a URL without its password)
    fs::path anchor;        ///< SQLite: the store file; PostgreSQL: the file a local study would use
    std::string store_sha;  ///< SQLite: the file's sha256; PostgreSQL: "" (no file to hash)
    StudyHeader header;
    std::string outcome;
    Route route;
    std::int64_t route_id = 0;
    std::int64_t default_id = 0;
    std::string winner;     ///< the study's confirmed winner ("" when none)
};

// Who promotes, settled before anything runs.
struct Promoter {
    std::optional<LockSigner> signer;
    std::string owner;
    ActorIdentity actor;
};

StudyEvidence read_evidence(const PromoteRequest& request) {
    StudyEvidence evidence;
    evidence.where = request.store.redacted();
    bool database = !request.store.is_file();
    if (!database && !fs::is_regular_file(request.store.text))
        throw UsageError(evidence.where + ": no study store here (run `routetune tune` first)");
    auto store = StudyStore::open_read_only(request.store);
    auto header = store->read_header();
    if (!header) throw UsageError(evidence.where + ": the store holds no study header");
    if (database) {
        evidence.where += " (study " + header->name + ")";
        evidence.anchor = make_study_paths(fs::path(header->spec_path).parent_path(), header->name).cache;
    } else {
        evidence.anchor = request.store.text;
        evidence.store_sha = sha256_file(evidence.anchor).value_or("");
    }
    evidence.header = *header;
    auto outcome = store->read_outcome();
    evidence.outcome = outcome ? std::string(to_string(outcome->outcome)) : "unfinished";
    if (outcome && outcome->winner) evidence.winner = outcome->winner->to_string();
    if (request.route) {
        evidence.route = Route::parse(*request.route);
    } else if (outcome && outcome->winner) {
        evidence.route = *outcome->winner;
    } else {
        throw UsageError(evidence.where + ": the study has no confirmed winner (outcome " + evidence.outcome +
                         "); give --route with a route it evaluated as ok");
    }
    if (evidence.route.empty()) throw UsageError("--route '': the default route is what a build uses without a lock");
    auto found = store->find(evidence.route.hash());
    if (!found)
        throw UsageError(evidence.where + ": the study never evaluated the route '" + evidence.route.to_string() +
                         "'; promote takes the winner or a route the study evaluated as ok");
    if (found->status != Status::Ok)
        throw UsageError(evidence.where + ": the study evaluated '" + evidence.route.to_string() + "' as " +
                         std::string(to_string(found->status)) + ", not ok; it cannot be promoted");
    evidence.route_id = found->id;
    if (auto fresh_default = store->find(Route{}.hash())) evidence.default_id = fresh_default->id;
    return evidence;
}

void fill_inputs(Lock& lock, const Spec& spec, const RegressionOutcome& run, const fs::path& lock_file) {
    for (const CaseSpec& test_case : spec.cases) {
        LockedCase locked;
        locked.name = test_case.name;
        locked.case_class = test_case.case_class;
        locked.promotion_only = test_case.promotion_only;
        for (const auto& result : run.cases) {
            if (result.name != test_case.name) continue;
            locked.status = std::string(to_string(result.status));
            locked.loss = result.loss;
            locked.threshold = result.threshold;
        }
        if (!test_case.input.empty()) {
            locked.input = path_for_lock(test_case.input, lock_file);
            locked.input_sha256 = sha256_file(test_case.input).value_or("");
        }
        if (!test_case.reference.empty()) {
            locked.reference = path_for_lock(test_case.reference, lock_file);
            locked.reference_sha256 = sha256_file(test_case.reference).value_or("");
        }
        lock.evidence.cases.push_back(locked);
        lock.thresholds[test_case.case_class] = locked.threshold;
    }
}

// The checks that must pass before anything is built: a registry that can be read, and who
// promotes (a signing key's principal, else the real uid's account, else --owner).
Promoter check_before_running(const PromoteRequest& request, const StudyEvidence& evidence) {
    registered_locks(evidence.anchor);
    Promoter promoter;
    promoter.actor = current_actor();
    if (!request.sign_key.empty()) {
        if (request.allowed_signers.empty())
            throw UsageError("--sign " + request.sign_key.string() +
                             " needs --allowed-signers FILE (git's format), which names the key's principal");
        promoter.signer = establish_signer(request.sign_key, request.allowed_signers);
    }
    promoter.owner = lock_owner(request.owner, promoter.signer ? promoter.signer->principal : "", promoter.actor);
    return promoter;
}

Lock make_lock(const PromoteRequest& request, const GovernedSetup& setup, const StudyEvidence& evidence,
               const RegressionOutcome& run, const fs::path& artifact, const Promoter& promoter) {
    Lock lock;
    lock.route = evidence.route.to_string();
    AppliedRoute applied = setup.adapter->apply(evidence.route, setup.catalog);
    AppliedRoute fallback = setup.adapter->apply(Route{}, setup.catalog);
    lock.flags = applied.flags;
    lock.environment = applied.environment;
    lock.default_flags = fallback.flags;
    lock.default_environment = fallback.environment;
    lock.fingerprint = take_fingerprint(setup.spec, *make_system_probe()).values;
    lock.routetune_version = lock.fingerprint["routetune.version"];
    lock.spec = path_for_lock(setup.spec.file, request.lock);
    lock.spec_sha256 = setup.spec.sha256;
    lock.inputs = build_input_hashes(setup.spec, UnmatchedInputs::Refused);
    lock.artifact = path_for_lock(artifact, request.lock);
    lock.artifact_sha256 = run.route_build.artifact_sha256;
    lock.artifact_bytes = run.route_build.artifact_bytes;
    LockEvidence& e = lock.evidence;
    e.study = evidence.header.name;
    e.store = request.store.is_file() ? path_for_lock(evidence.anchor, request.lock) : request.store.redacted();
    e.store_sha256 = evidence.store_sha;
    e.default_evaluation_id = evidence.default_id;
    e.route_evaluation_id = evidence.route_id;
    e.study_outcome = evidence.outcome;
    e.speedup = run.confirmation->speedup;
    e.speedup_ci_low = run.confirmation->ci_low;
    e.speedup_ci_high = run.confirmation->ci_high;
    e.rounds = std::max(setup.spec.timing.confirm_rounds, 1);
    e.min_gain = setup.spec.timing.min_gain;
    e.builds = run.builds;
    e.runs = run.runs;
    e.winner = evidence.winner;
    e.overrides_winner = lock.route != evidence.winner;
    fill_inputs(lock, setup.spec, run, request.lock);
    lock.owner = promoter.owner;
    lock.signer = promoter.signer ? promoter.signer->principal : "";
    lock.reason = request.reason;
    lock.promoted_at = iso8601_utc_now();
    lock.review_after_days = request.review_after_days;
    lock.review_by = date_after_days(request.review_after_days);
    lock.metric = setup.spec.accuracy.metric;
    return lock;
}

fs::path keep_artifact(const fs::path& store, const RegressionOutcome& run) {
    fs::path folder = make_study_paths({}, "", store).root / "locked" / run.route_build.artifact_sha256.substr(0, 16);
    fs::create_directories(folder);
    fs::path target = folder / "artifact";
    fs::copy_file(run.route_artifact, target, fs::copy_options::overwrite_existing);
    return target;
}

// Registers, logs "promoted" (the anchor) and writes the sealed lock; on any failure logs
// "promote-failed" and rethrows, leaving no lock behind.
void write_promoted_lock(const PromoteRequest& request, const StudyEvidence& evidence, const Promoter& promoter,
                         Lock& lock, AuditEntry done) {
    try {
        register_lock(evidence.anchor, request.lock);
        done.evidence["lock_body_sha256"] = lock_body_sha256(lock);
        done.result = "lock written: " + request.lock.string();
        if (promoter.signer) {
            done.evidence["account"] = promoter.actor.name;
            done.actor = promoter.signer->principal;
        }
        AuditAppend written = append_audit_entry(request.audit, request.lock, done);
        seal_lock(lock, written, request.lock, promoter.signer ? &*promoter.signer : nullptr);
        write_lock(request.lock, lock);
    } catch (const std::exception& e) {
        AuditEntry failed = make_audit_entry("promote-failed", request.lock.string(), request.audit.command);
        failed.evidence = done.evidence;
        failed.proposed = done.proposed;
        failed.result = std::string("no lock written: ") + e.what();
        try {
            append_audit_entry(request.audit, request.lock, failed);
        } catch (const std::exception&) {
            // the failure being rethrown says more than this one
        }
        throw;
    }
}

}  // namespace

PromoteResult promote(const PromoteRequest& request) {
    if (request.lock.empty())
        throw UsageError("promote " + request.store.redacted() + ": --lock FILE is required (where the lock is written)");
    check_output_path(request.lock, "--lock", is_lock_file);  // a new file or a lock; never a link, device or other file
    StudyEvidence evidence = read_evidence(request);
    Promoter promoter = check_before_running(request, evidence);
    GovernedSetup setup = governed_setup(evidence.header.spec_path);
    if (setup.spec.sha256 != evidence.header.spec_sha256)
        throw UsageError(setup.spec.file.string() + ": the spec changed since the study in " + evidence.where +
                         " (sha256 " + evidence.header.spec_sha256.substr(0, 12) + " then, " +
                         setup.spec.sha256.substr(0, 12) + " now); tune again before promoting");
    validate_route(evidence.route, setup.catalog);
    fs::path study_folder = make_study_paths({}, "", evidence.anchor).root;
    if (std::string why = folder_write_error(study_folder / "promote"); !why.empty())
        throw RuntimeFailure(evidence.where + ": the study's folder " + study_folder.string() + " cannot be written (" +
                             why + (why == std::strerror(EROFS) ? ": the store is on a read-only medium" : "") +
                             "); promote builds the route and the default in its promote/ folder and keeps the "
                             "promoted artifact in its locked/ folder: run it where the store can be written");
    nlohmann::json consulted{{"store", evidence.where},
                             {"store_sha256", evidence.store_sha},
                             {"evaluation_ids", {evidence.default_id, evidence.route_id}},
                             {"study_outcome", evidence.outcome},
                             {"winner", evidence.winner},
                             {"overrides_winner", evidence.route.to_string() != evidence.winner}};
    AuditEntry proposed = make_audit_entry("promote-proposed", request.lock.string(), request.audit.command);
    proposed.evidence = consulted;
    proposed.proposed = evidence.route.to_string();
    proposed.result = "regression set and A/B started";
    append_audit_entry(request.audit, request.lock, proposed);

    RegressionRun check(setup.spec, *setup.adapter, setup.catalog,
                        governance_paths(make_study_paths({}, "", evidence.anchor).root, "promote"));
    RegressionOutcome run;
    try {
        run = check.run(evidence.route, RegressionOptions{});
    } catch (const Interrupted& stop) {
        AuditEntry interrupted = make_audit_entry("promote-interrupted", request.lock.string(), request.audit.command);
        interrupted.evidence = consulted;
        interrupted.proposed = evidence.route.to_string();
        interrupted.result = "interrupted by a signal; no lock written";
        append_audit_entry(request.audit, request.lock, interrupted);
        throw Interrupted(std::string(stop.what()) + "; no lock written (audit entry promote-interrupted)");
    }
    PromoteResult result;
    result.route = evidence.route.to_string();
    result.failures = run.failures;
    AuditEntry done = make_audit_entry(run.passed() ? "promoted" : "promote-refused", request.lock.string(),
                                       request.audit.command);
    done.evidence = consulted;
    done.evidence["builds"] = run.builds;
    done.evidence["runs"] = run.runs;
    done.proposed = result.route;
    if (!run.passed()) {
        done.evidence["failures"] = run.failures;
        done.result = "refused; no lock written";
        append_audit_entry(request.audit, request.lock, done);
        return result;
    }
    result.lock = make_lock(request, setup, evidence, run, keep_artifact(evidence.anchor, run), promoter);
    done.evidence["speedup"] = {run.confirmation->speedup, run.confirmation->ci_low, run.confirmation->ci_high};
    write_promoted_lock(request, evidence, promoter, result.lock, done);
    result.promoted = true;
    return result;
}

}  // namespace routetune
