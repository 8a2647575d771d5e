// The SQLite backend of the study store: one file per study holding its header, one row per
// evaluation (with its per-case results in a child table), the confirmation and the outcome.
// One process writes (an flock on "<store>.lock"); others may read while it does (WAL).
#pragma once

#include <filesystem>
#include <memory>
#include <vector>

#include "store/study_store.hpp"

namespace routetune {

/// A study store in one SQLite file; it keeps its own process ledger (on the pending rows).
class SqliteStudyStore final : public StudyStore, public ProcessLedger {
public:
    /// Opens the file (see StudyStore::open and open_read_only for the contract).
    static std::unique_ptr<SqliteStudyStore> open(const std::filesystem::path& path, bool read_only);
    /// Opens the file as a new study (see StudyStore::open_new_study).
    static std::unique_ptr<SqliteStudyStore> open_fresh(const std::filesystem::path& path,
                                                        const std::vector<std::filesystem::path>& companions);
    ~SqliteStudyStore() override;

    std::string location() const override;
    std::string moved_aside_to() const override;
    int opened_schema_version() const override;
    void write_header(const StudyHeader& header) override;
    std::optional<StudyHeader> read_header() const override;
    std::int64_t mark_pending(const Route& route, const std::string& phase, const std::string& started_at) override;
    ProcessLedger* process_ledger() override { return this; }
    const ProcessLedger* process_ledger() const override { return this; }
    void note_process(const std::string& route_hash, std::int64_t pgid, std::uint64_t pgid_ticks) override;
    std::vector<PendingProcess> pending_processes() const override;
    std::int64_t record(const Evaluation& evaluation) override;
    std::vector<std::int64_t> record_many(const std::vector<Evaluation>& evaluations) override;
    void update_artifact_path(std::int64_t id, const std::string& artifact_path) override;
    void clear_artifact_paths(const std::vector<std::int64_t>& ids) override;
    void clear_log_tails(std::int64_t id) override;
    std::vector<Evaluation> evaluations(CaseRows cases = CaseRows::Load) const override;
    void load_cases(Evaluation& evaluation) const override;
    std::optional<Evaluation> find(const std::string& route_hash) const override;
    std::size_t count() const override;
    void record_confirmation(const StudyConfirmation& confirmation) override;
    std::optional<StudyConfirmation> read_confirmation() const override;
    void record_outcome(const StudyOutcome& outcome) override;
    std::optional<StudyOutcome> read_outcome() const override;
    void write_note(const std::string& key, const std::string& value) override;
    std::optional<std::string> read_note(const std::string& key) const override;

    struct Impl;

private:
    explicit SqliteStudyStore(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

}  // namespace routetune
