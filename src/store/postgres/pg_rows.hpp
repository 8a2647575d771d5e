// Evaluation rows in PostgreSQL, shared by the study store and the work queue: one insert
// that records a route at most once per study, and reads of many rows with their cases.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/postgres/pg_connection.hpp"
#include "store/study_store.hpp"

namespace routetune {

/// Inserts evaluation (and its cases) into study, inside the caller's transaction, after
/// dropping a pending row of its route; returns the new id, or nullopt when the route is
/// already recorded (the first finished record wins). attempt_id: the lease that produced it.
std::optional<std::int64_t> insert_pg_evaluation(PgConnection& db, std::int64_t study, const Evaluation& evaluation,
                                                 std::optional<std::int64_t> attempt_id = std::nullopt);

/// The evaluations of study matching condition (SQL after "WHERE study_id = $1 AND ", over
/// params $2...), in id order, with their cases unless cases is Skip.
std::vector<Evaluation> select_pg_evaluations(PgConnection& db, std::int64_t study, const std::string& condition,
                                              const std::vector<PgParam>& params, CaseRows cases);

/// Fills each evaluation's cases from case_result.
void load_pg_cases(PgConnection& db, std::vector<Evaluation>& evaluations);

}  // namespace routetune
