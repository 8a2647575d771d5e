// The study store interface: a study's header, one record per evaluation (with its per-case
// results), the interleaved confirmation and the outcome. Every record() is its own durable
// transaction, so a kill -9 loses at most the evaluations in flight. Backends live below
// (sqlite/: one file per study, the embedded default; postgres/: one database of many studies,
// shared by a coordinator and its workers); no caller names a backend.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "routetune/evaluation.hpp"
#include "routetune/route.hpp"
#include "routetune/study.hpp"
#include "store/process_ledger.hpp"
#include "store/store_location.hpp"

namespace routetune {

/// What a study is: written when it starts, read by --continue and report.
struct StudyHeader {
    std::string name;              ///< the spec's name
    std::string spec_sha256;
    std::string spec_path;
    std::string expression;        ///< route expression text
    std::string mode;              ///< search mode / strategy
    std::uint64_t seed = 0;
    std::string fingerprint_json;  ///< the environment fingerprint (see eval/fingerprint.hpp)
    std::string tool_version;
    std::string command_line;
    std::string user;
    std::string host;
    std::string created_at;        ///< ISO 8601 UTC

    bool operator==(const StudyHeader&) const = default;
};

/// The interleaved re-measurement (D C1 C2 ... each round) of the default and the top
/// routes, each one a Confirmation (routetune/study.hpp) against the default's samples.
struct StudyConfirmation {
    int rounds = 0;
    std::optional<Confirmation> baseline;  ///< the default against itself; absent when its runs failed
    std::vector<Confirmation> candidates;  ///< the top routes, in the order measured
    std::string recorded_at;               ///< ISO 8601 UTC
};

/// How the study ended.
struct StudyOutcome {
    Outcome outcome = Outcome::Unfinished;  ///< improved, default-stays or no-eligible-route
    std::optional<Route> winner;   ///< absent unless improved
    double speedup = 1;
    double speedup_ci_low = 0;
    double speedup_ci_high = 0;
    std::string artifact_path;
    std::string artifact_sha256;
    std::string message;
    std::string recorded_at;       ///< ISO 8601 UTC
    std::optional<Route> minimal_route;  ///< the winner without the changes that do not pay (--minimize)
    double minimal_speedup = 0;          ///< its re-confirmed speedup over the default
    double minimal_ci_low = 0;
    double minimal_ci_high = 0;
};

/// Whether reading evaluations also reads their per-case rows.
enum class CaseRows { Load, Skip };

/// An open study store: the operations a study, a report, a simulation and GPT import/export
/// need, whatever the backend. Every operation is pure virtual: a backend states each one.
/// Implementations are thread-safe.
class StudyStore {
public:
    virtual ~StudyStore() = default;

    /// Opens the store at location (a path: SQLite; a postgresql:// URL: PostgreSQL, study
    /// location.study) for writing, creating it when absent and upgrading an older schema; only
    /// one writer at a time. Throws UsageError for a foreign store or a newer schema,
    /// RuntimeFailure when it cannot be opened or another writer holds it.
    static std::unique_ptr<StudyStore> open(const StoreLocation& location);
    /// Opens the store at location for writing as a new study: a study already there is moved
    /// aside under its name + ".<UTC time>.old" (a file with its companions, e.g. the study's
    /// folder, under the writer lock; a study in a database renamed, its companions moved too);
    /// moved_aside_to() names where. A file that is not a routetune store is refused
    /// (UsageError) and left as it is; other errors as open().
    static std::unique_ptr<StudyStore> open_new_study(const StoreLocation& location,
                                                      const std::vector<std::filesystem::path>& companions);
    /// Opens the study at location for writing to continue it (tune --continue): UsageError
    /// when there is none to continue at a file location; other errors as open().
    static std::unique_ptr<StudyStore> open_to_continue(const StoreLocation& location);
    /// Opens an existing store for reading only (report, simulate); same errors; never creates.
    /// A database of several studies needs location.study.
    static std::unique_ptr<StudyStore> open_read_only(const StoreLocation& location);

    /// Where opening this store as a new study (open_new_study) moved the study that was
    /// there, by its new name; "" when none was moved.
    virtual std::string moved_aside_to() const = 0;
    /// Where the store is, for messages (a file path, or the URL without its password).
    virtual std::string location() const = 0;
    /// The schema version the store had when opened (0 for a new store).
    virtual int opened_schema_version() const = 0;

    /// Writes (or replaces) the study header.
    virtual void write_header(const StudyHeader& header) = 0;
    /// The header, or nullopt before write_header.
    virtual std::optional<StudyHeader> read_header() const = 0;

    /// Records that route started (status pending, owned by this process) and returns its row
    /// id; record() of the same route later replaces the pending row.
    virtual std::int64_t mark_pending(const Route& route, const std::string& phase, const std::string& started_at) = 0;
    /// Where the store notes the processes of its pending evaluations (see ProcessLedger), or
    /// nullptr when it keeps none (a database shared by workers: a worker's processes end
    /// with its lease).
    virtual ProcessLedger* process_ledger() = 0;
    /// The same, read-only.
    virtual const ProcessLedger* process_ledger() const = 0;
    /// Stores a finished evaluation (and its cases) in one durable transaction, replacing any
    /// pending row of the same route; returns the new row id.
    virtual std::int64_t record(const Evaluation& evaluation) = 0;
    /// Stores many evaluations in one transaction (imports, benchmarks); returns their ids.
    virtual std::vector<std::int64_t> record_many(const std::vector<Evaluation>& evaluations) = 0;

    /// Sets the artifact path of evaluation id ("" once its artifact is deleted).
    virtual void update_artifact_path(std::int64_t id, const std::string& artifact_path) = 0;
    /// Clears the artifact path of every evaluation in ids, durably and all at once (one
    /// transaction).
    virtual void clear_artifact_paths(const std::vector<std::int64_t>& ids) = 0;

    /// Empties the build log tail and every case's stderr tail of evaluation id (retention), with
    /// the freed bytes overwritten, and passes its message through the redaction filter again (a
    /// store written before the filter knew a secret's form); hashes, statuses, losses and
    /// timings stay.
    virtual void clear_log_tails(std::int64_t id) = 0;

    /// Every evaluation: finished ones in the order they finished, then pending ones.
    virtual std::vector<Evaluation> evaluations(CaseRows cases = CaseRows::Load) const = 0;
    /// Fills evaluation.cases from the store (after evaluations(CaseRows::Skip)).
    virtual void load_cases(Evaluation& evaluation) const = 0;
    /// The latest finished evaluation of the route with this hash (Route::hash()), or nullopt.
    virtual std::optional<Evaluation> find(const std::string& route_hash) const = 0;
    /// The number of evaluation rows (pending included).
    virtual std::size_t count() const = 0;

    /// Stores (replacing) the confirmation.
    virtual void record_confirmation(const StudyConfirmation& confirmation) = 0;
    /// The confirmation, or nullopt.
    virtual std::optional<StudyConfirmation> read_confirmation() const = 0;
    /// Stores (replacing) the outcome.
    virtual void record_outcome(const StudyOutcome& outcome) = 0;
    /// The outcome, or nullopt while the study has not finished.
    virtual std::optional<StudyOutcome> read_outcome() const = 0;

    /// Stores (replacing) a named fact of the study that reports give back as tune printed it
    /// ("metric", "candidates_total", "artifact_bytes", "wall_s").
    virtual void write_note(const std::string& key, const std::string& value) = 0;
    /// A fact stored by write_note, or nullopt.
    virtual std::optional<std::string> read_note(const std::string& key) const = 0;
};

/// The row mark_pending() stores for route: status pending, its phase and start, nothing else.
Evaluation pending_evaluation(const Route& route, const std::string& phase, const std::string& started_at);

/// Samples as text ("0.25 0.5"), exact: shortest round-trip decimal of each double.
std::string encode_samples(const std::vector<double>& samples);
/// The inverse of encode_samples; throws RuntimeFailure on malformed text.
std::vector<double> decode_samples(std::string_view text);

/// Reads route text from a store: canonical text (what Route::to_string wrote) is split
/// directly, anything else goes through Route::parse; throws RuntimeFailure naming store when
/// corrupt.
Route parse_stored_route(const std::filesystem::path& store, const std::string& text);

}  // namespace routetune
