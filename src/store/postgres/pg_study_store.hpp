// The PostgreSQL backend of the study store: one database holds many studies (by name), each
// with its header, evaluations (with worker and host), confirmation and outcome. The process
// that opens a study for writing (the coordinator) holds a session advisory lock on its name,
// released by the server when that process's connection ends, however it ends.
#pragma once

#include <memory>

#include "store/study_store.hpp"

namespace routetune {

/// A study in a PostgreSQL database.
class PgStudyStore final : public StudyStore {
public:
    /// Opens location.study in the database at location.text (see StudyStore::open and
    /// open_read_only); a read-only open without a name takes the database's only study.
    static std::unique_ptr<PgStudyStore> open(const StoreLocation& location, bool read_only);
    ~PgStudyStore() override;

    /// Moves the study held here out of the way under its name + suffix (every row kept), so
    /// that a new study of the same name begins here.
    void set_aside(const std::string& suffix);
    std::string location() const override;
    std::string moved_aside_to() const override;
    int opened_schema_version() const override;
    void write_header(const StudyHeader& header) override;
    std::optional<StudyHeader> read_header() const override;
    std::int64_t mark_pending(const Route& route, const std::string& phase, const std::string& started_at) override;
    /// None: a worker's processes end with its lease (store/postgres/work_queue.hpp).
    ProcessLedger* process_ledger() override { return nullptr; }
    const ProcessLedger* process_ledger() const override { return nullptr; }
    std::int64_t record(const Evaluation& evaluation) override;
    std::vector<std::int64_t> record_many(const std::vector<Evaluation>& evaluations) override;
    void update_artifact_path(std::int64_t id, const std::string& artifact_path) override;
    void clear_artifact_paths(const std::vector<std::int64_t>& ids) override;
    std::vector<Evaluation> evaluations(CaseRows cases = CaseRows::Load) const override;
    void load_cases(Evaluation& evaluation) const override;
    std::optional<Evaluation> find(const std::string& route_hash) const override;
    std::size_t count() const override;
    void record_confirmation(const StudyConfirmation& confirmation) override;
    std::optional<StudyConfirmation> read_confirmation() const override;
    void record_outcome(const StudyOutcome& outcome) override;
    std::optional<StudyOutcome> read_outcome() const override;
    void clear_log_tails(std::int64_t id) override;
    void write_note(const std::string& key, const std::string& value) override;
    std::optional<std::string> read_note(const std::string& key) const override;

    /// The study's id in the database (0 before its header is written).
    std::int64_t study_id() const;

    struct Impl;

private:
    explicit PgStudyStore(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

/// The names of the studies in the database at url, oldest first (for messages and --study).
std::vector<std::string> pg_study_names(const std::string& url);

}  // namespace routetune
