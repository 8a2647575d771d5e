// Protected evaluations: the default's and the winner's when kept, and always those named by a
// registered lock (its route's evaluation id, or the same artifact sha256). Everything else
// with an artifact and old enough loses its scratch folder, and its artifact path is cleared
// in the store. Locked copies under <store>.d/locked/ are never touched.
//
// Crash consistency: the plan (every evaluation whose folder goes) is written first to a
// journal beside the study's folders (<study folder>/gc-journal.json, fsync'ed and renamed
// into place), then a "gc-planned" audit entry names every folder, then every planned
// evaluation's artifact path is cleared in the store (one durable transaction), and only then
// are the folders removed, so no row ever points at a removed folder and no folder goes
// without an audit entry. The journal is removed last. A gc that finds a journal (the one before was killed)
// completes it first, under a "gc-resumed" entry, the same way.
#include "govern/garbage_collector.hpp"

#include <chrono>

#include "govern/governed_setup.hpp"
#include "govern/lock.hpp"
#include "routetune/error.hpp"
#include "store/store_location.hpp"
#include "store/study_store.hpp"
#include "util/bounded_read.hpp"
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

// One evaluation whose folder gc removes.
struct Doomed {
    std::int64_t id = 0;
    std::string route;       ///< for messages and the audit log
    std::string route_hash;  ///< names its folder
};

fs::path journal_path(const StudyPaths& paths) { return paths.root / "gc-journal.json"; }

nlohmann::json doomed_json(const std::vector<Doomed>& doomed) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& d : doomed) list.push_back({{"id", d.id}, {"route", d.route}, {"route_hash", d.route_hash}});
    return list;
}

void write_journal(const StudyPaths& paths, const std::vector<Doomed>& doomed) {
    std::error_code ec;
    fs::create_directories(paths.root, ec);
    std::string error;
    nlohmann::json journal{{"planned_at", iso8601_utc_now()}, {"remove", doomed_json(doomed)}};
    if (!write_file(journal_path(paths), journal.dump(1) + "\n", &error))
        throw RuntimeFailure("gc: cannot write its journal (nothing was removed): " + error);
}

// The plan of a gc that did not finish; empty when there is none.
std::vector<Doomed> read_journal(const StudyPaths& paths, std::string* planned_at) {
    std::vector<Doomed> doomed;
    BoundedRead text = read_bounded(journal_path(paths), kMaxStudyFileBytes, "gc journal");
    if (text.missing) return doomed;
    if (!text.bytes) throw RuntimeFailure("gc: " + text.error);
    nlohmann::json journal = nlohmann::json::parse(*text.bytes, nullptr, false);
    if (journal.is_discarded() || !journal.is_object() || !journal.contains("remove") || !journal["remove"].is_array())
        throw RuntimeFailure("gc: " + journal_path(paths).string() +
                             " is not a gc journal (expected {\"remove\": [...]}); move it away to go on");
    *planned_at = journal.value("planned_at", "");
    for (const auto& item : journal["remove"]) {
        if (!item.is_object() || !item.contains("id") || !item["id"].is_number_integer() ||
            !item.contains("route_hash") || !item["route_hash"].is_string())
            throw RuntimeFailure("gc: " + journal_path(paths).string() + " holds a malformed entry: " + item.dump());
        std::string hash = item["route_hash"].get<std::string>();
        if (hash.empty() || hash.find_first_of("/.") != std::string::npos)
            throw RuntimeFailure("gc: " + journal_path(paths).string() + " names a folder outside the study: " + hash);
        doomed.push_back({item["id"].get<std::int64_t>(), item.value("route", ""), hash});
    }
    return doomed;
}

// Clears every doomed evaluation's artifact path (durably, at once), then removes the folders.
void remove_doomed(StudyStore& store, const StudyPaths& paths, const std::vector<Doomed>& doomed, GcReport& report) {
    std::vector<std::int64_t> ids;
    for (const auto& d : doomed) ids.push_back(d.id);
    store.clear_artifact_paths(ids);
    for (const auto& d : doomed) {
        fs::path folder = paths.workdir(d.route_hash);
        report.bytes_freed += bytes_below(folder);
        if (remove_tree_quietly(folder) > 0) ++report.artifacts_removed;
    }
}

// Finishes the plan a killed gc left, under its own audit entry.
void complete_journal(StudyStore& store, const StudyPaths& paths, const fs::path& store_file, const GcOptions& options,
                      GcReport& report) {
    std::string planned_at;
    std::vector<Doomed> doomed = read_journal(paths, &planned_at);
    if (doomed.empty() && !fs::exists(journal_path(paths))) return;
    AuditEntry entry = make_audit_entry("gc-resumed", store_file.string(), options.audit.command);
    entry.evidence = {{"planned_at", planned_at}, {"remove", doomed_json(doomed)}};
    entry.result = "completing the gc planned at " + planned_at + " that did not finish: " +
                   std::to_string(doomed.size()) + " artifacts";
    append_audit_entry(options.audit, store_file, entry);
    remove_doomed(store, paths, doomed, report);
    std::error_code ec;
    fs::remove(journal_path(paths), ec);
    report.notes.push_back("completed the gc planned at " + planned_at + " that did not finish (" +
                           std::to_string(doomed.size()) + " artifacts)");
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
    if (!StoreLocation(store_file).is_file())
        throw UsageError(redact_location(store_file.string()) +
                         ": gc reads SQLite study stores only (a study in PostgreSQL keeps its artifacts on the "
                         "machines that evaluated it)");
    if (!fs::is_regular_file(store_file)) throw UsageError(store_file.string() + ": no study store here");
    GcReport report;
    Protection locked = locked_evaluations(store_file, report);
    if (!options.keep.count("locked") && !locked.ids.empty())
        report.notes.push_back("locked artifacts are kept even though --keep leaves out 'locked'");
    auto store = StudyStore::open(store_file);
    StudyPaths paths = make_study_paths({}, "", store_file);
    complete_journal(*store, paths, store_file, options, report);
    auto outcome = store->read_outcome();
    std::string winner_hash = outcome && outcome->winner ? outcome->winner->hash() : "";
    std::vector<Doomed> doomed;
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
        if (!fs::exists(folder)) {
            if (!e.artifact_path.empty()) {  // its folder is gone already: the row must not point at it
                store->update_artifact_path(e.id, "");
                ++report.paths_cleared;
            }
            continue;
        }
        if (!why.empty()) {
            report.kept.push_back(name + " (" + why + ")");
            continue;
        }
        doomed.push_back({e.id, name, e.route.hash()});
    }
    if (!doomed.empty()) {
        write_journal(paths, doomed);
        AuditEntry planned = make_audit_entry("gc-planned", store_file.string(), options.audit.command);
        planned.evidence = {{"remove", doomed_json(doomed)}};
        planned.result = "about to remove " + std::to_string(doomed.size()) + " artifacts";
        append_audit_entry(options.audit, store_file, planned);
        remove_doomed(*store, paths, doomed, report);
    }
    AuditEntry entry = make_audit_entry("gc", store_file.string(), options.audit.command);
    entry.evidence = {{"store_sha256", sha256_file(store_file).value_or("")}, {"kept", report.kept},
                      {"notes", report.notes}, {"paths_cleared", report.paths_cleared}};
    entry.result = "removed " + std::to_string(report.artifacts_removed) + " artifacts (" +
                   std::to_string(report.bytes_freed) + " bytes), cleared logs of " +
                   std::to_string(report.logs_cleared) + " evaluations";
    append_audit_entry(options.audit, store_file, entry);
    std::error_code ec;
    fs::remove(journal_path(paths), ec);
    return report;
}

}  // namespace routetune
