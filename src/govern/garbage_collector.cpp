// Protected evaluations: the default's and the winner's when kept, and always those named by a
// registered lock (its route's evaluation id, or the same artifact sha256). Everything else
// with an artifact and old enough loses its scratch folder, and its artifact path is cleared
// in the store. Locked copies under <store>.d/locked/ are never touched.
#include "govern/garbage_collector.hpp"

#include <chrono>

#include "govern/governed_setup.hpp"
#include "govern/lock.hpp"
#include "routetune/error.hpp"
#include "store/store_location.hpp"
#include "store/study_store.hpp"
#include "util/files.hpp"
#include "util/sha256.hpp"
#include "util/text.hpp"

namespace routetune {

namespace fs = std::filesystem;

namespace {

std::uintmax_t bytes_below(const fs::path& folder) {
    std::uintmax_t bytes = 0;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec))
        if (it->is_regular_file(ec)) bytes += it->file_size(ec);
    return bytes;
}

bool older_than(const std::string& finished_at, const std::optional<double>& age_s) {
    if (!age_s) return true;
    auto cutoff = std::chrono::system_clock::now() - std::chrono::seconds(static_cast<long long>(*age_s));
    return !finished_at.empty() && finished_at <= iso8601_utc(cutoff);
}

struct Protection {
    std::set<std::int64_t> ids;
    std::set<std::string> artifact_hashes;
};

Protection locked_evaluations(const fs::path& store, GcReport& report) {
    Protection locked;
    for (const auto& lock_file : registered_locks(store)) {
        try {
            Lock lock = read_lock(lock_file);
            locked.ids.insert(lock.evidence.route_evaluation_id);
            locked.artifact_hashes.insert(lock.artifact_sha256);
        } catch (const UsageError& e) {
            report.notes.push_back("registered lock not read (" + std::string(e.what()) + ")");
        }
    }
    return locked;
}

}  // namespace

std::set<std::string> parse_keep_list(const std::string& text) {
    std::set<std::string> keep;
    for (const auto& item : split_words(text, ",")) {
        std::string name(trim(item));
        if (name != "winner" && name != "default" && name != "locked")
            throw UsageError("--keep '" + name + "': valid items are winner, default, locked (comma separated)");
        keep.insert(name);
    }
    return keep;
}

GcReport collect_garbage(const fs::path& store_file, const GcOptions& options) {
    if (is_postgres_url(store_file.string()))
        throw UsageError(redact_location(store_file.string()) +
                         ": gc reads SQLite study stores only (a study in PostgreSQL keeps its artifacts on the "
                         "machines that evaluated it)");
    if (!fs::is_regular_file(store_file)) throw UsageError(store_file.string() + ": no study store here");
    GcReport report;
    Protection locked = locked_evaluations(store_file, report);
    if (!options.keep.count("locked") && !locked.ids.empty())
        report.notes.push_back("locked artifacts are kept even though --keep leaves out 'locked'");
    auto store = StudyStore::open(store_file);
    auto outcome = store->read_outcome();
    std::string winner_hash = outcome && outcome->winner ? outcome->winner->hash() : "";
    StudyPaths paths = make_study_paths({}, "", store_file);
    for (Evaluation& e : store->evaluations(CaseRows::Load)) {
        std::string name = e.route.empty() ? "(default)" : e.route.to_string();
        std::string why;
        if (locked.ids.count(e.id) || (!e.artifact_sha256.empty() && locked.artifact_hashes.count(e.artifact_sha256)))
            why = "locked";
        else if (e.route.empty() && options.keep.count("default")) why = "default";
        else if (!winner_hash.empty() && e.route.hash() == winner_hash && options.keep.count("winner")) why = "winner";
        if (!older_than(e.finished_at, options.older_than_s)) why = why.empty() ? "newer than --older-than" : why;
        if (options.logs && why != "newer than --older-than") {
            bool has_logs = !e.build_log_tail.empty();
            for (const auto& c : e.cases) has_logs = has_logs || !c.stderr_tail.empty();
            store->clear_log_tails(e.id);  // also re-filters the message, logs or not
            report.logs_cleared += has_logs;
        }
        fs::path folder = paths.workdir(e.route.hash());
        if (!fs::exists(folder)) continue;
        if (!why.empty()) {
            report.kept.push_back(name + " (" + why + ")");
            continue;
        }
        report.bytes_freed += bytes_below(folder);
        remove_tree_quietly(folder);
        if (!e.artifact_path.empty()) store->update_artifact_path(e.id, "");
        ++report.artifacts_removed;
    }
    AuditEntry entry = make_audit_entry("gc", store_file.string(), options.audit.command);
    entry.evidence = {{"store_sha256", sha256_file(store_file).value_or("")}, {"kept", report.kept}, {"notes", report.notes}};
    entry.result = "removed " + std::to_string(report.artifacts_removed) + " artifacts (" +
                   std::to_string(report.bytes_freed) + " bytes), cleared logs of " +
                   std::to_string(report.logs_cleared) + " evaluations";
    append_audit_entry(options.audit, store_file, entry);
    return report;
}

}  // namespace routetune
