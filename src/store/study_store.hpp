// The study store: one SQLite file per study holding its header, one row per evaluation (with
// its per-case results in a child table), the interleaved confirmation and the outcome. Every
// record() is its own committed, fsynced transaction, so a kill -9 loses at most the
// evaluations in flight. One process writes; others may read while it does (WAL).
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "routetune/evaluation.hpp"
#include "routetune/route.hpp"

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

/// One route of the confirmation (the default or a top candidate).
struct ConfirmedRoute {
    Route route;
    bool is_default = false;
    TimingSummary timing;          ///< its samples over the interleaved rounds
    double speedup = 1;            ///< default median / this median
    double speedup_ci_low = 0;     ///< 95% interval of the speedup
    double speedup_ci_high = 0;
};

/// The interleaved re-measurement (A B A B ...) of the default and the top routes.
struct StudyConfirmation {
    int rounds = 0;
    std::vector<ConfirmedRoute> routes;  ///< in the order given (the default first, by convention)
    std::string recorded_at;             ///< ISO 8601 UTC
};

/// How the study ended.
struct StudyOutcome {
    std::string outcome;           ///< "improved", "default-stays", "no-eligible-route"
    std::optional<Route> winner;   ///< absent unless improved
    double speedup = 1;
    double speedup_ci_low = 0;
    double speedup_ci_high = 0;
    std::string artifact_path;
    std::string artifact_sha256;
    std::string message;
    std::string recorded_at;       ///< ISO 8601 UTC
};

/// Whether reading evaluations also reads their per-case rows.
enum class CaseRows { Load, Skip };

/// An open study store. Methods are thread-safe (one connection behind a mutex).
class StudyStore {
public:
    /// Opens the store at path for writing, creating it and its parent folders when absent and
    /// upgrading an older schema; holds "<path>.lock" so no other open() succeeds meanwhile.
    /// Throws UsageError for a foreign file or a newer schema, RuntimeFailure when the file
    /// cannot be opened or another writer holds it.
    static StudyStore open(const std::filesystem::path& path);
    /// Opens an existing store for reading only (report); same errors; never creates.
    static StudyStore open_read_only(const std::filesystem::path& path);

    StudyStore(StudyStore&&) noexcept;
    StudyStore& operator=(StudyStore&&) noexcept;
    ~StudyStore();

    /// The file.
    const std::filesystem::path& path() const;
    /// The schema version the file had when opened (0 for a new file).
    int opened_schema_version() const;

    /// Writes (or replaces) the study header.
    void write_header(const StudyHeader& header);
    /// The header, or nullopt before write_header.
    std::optional<StudyHeader> read_header() const;

    /// Records that route started (status pending) and returns its row id; record() of the
    /// same route later replaces the pending row.
    std::int64_t mark_pending(const Route& route, const std::string& phase, const std::string& started_at);
    /// Stores a finished evaluation (and its cases) in one durable transaction, replacing any
    /// pending row of the same route; returns the new row id.
    std::int64_t record(const Evaluation& evaluation);
    /// Stores many evaluations in one transaction (imports, benchmarks); returns their ids.
    std::vector<std::int64_t> record_many(const std::vector<Evaluation>& evaluations);

    /// Sets the artifact path of evaluation id ("" once its artifact is deleted).
    void update_artifact_path(std::int64_t id, const std::string& artifact_path);

    /// Every evaluation: finished ones in the order they finished, then pending ones.
    std::vector<Evaluation> evaluations(CaseRows cases = CaseRows::Load) const;
    /// Fills evaluation.cases from the store (after evaluations(CaseRows::Skip)).
    void load_cases(Evaluation& evaluation) const;
    /// The latest finished evaluation of the route with this hash (Route::hash()), or nullopt.
    std::optional<Evaluation> find(const std::string& route_hash) const;
    /// The number of evaluation rows (pending included).
    std::size_t count() const;

    /// Stores (replacing) the confirmation.
    void record_confirmation(const StudyConfirmation& confirmation);
    /// The confirmation, or nullopt.
    std::optional<StudyConfirmation> read_confirmation() const;
    /// Stores (replacing) the outcome.
    void record_outcome(const StudyOutcome& outcome);
    /// The outcome, or nullopt while the study has not finished.
    std::optional<StudyOutcome> read_outcome() const;

    struct Impl;

private:
    explicit StudyStore(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

/// Samples as text ("0.25 0.5"), exact: shortest round-trip decimal of each double.
std::string encode_samples(const std::vector<double>& samples);
/// The inverse of encode_samples; throws RuntimeFailure on malformed text.
std::vector<double> decode_samples(std::string_view text);

}  // namespace routetune
