// The store's gate for secrets: every backend's row writer (SQLite's and PostgreSQL's
// evaluation rows, the work queue's fenced commit, headers and outcomes) passes what it writes
// through these, so no message, log tail or command line reaches a store unfiltered, whichever
// code made it.
#pragma once

#include "routetune/evaluation.hpp"
#include "store/study_store.hpp"

namespace routetune {

/// evaluation with its message, build log tail and every case's stderr tail through the
/// redaction filter (util/redaction.hpp); everything else unchanged.
Evaluation redacted_record(Evaluation evaluation);

/// header with its command line through the redaction filter.
StudyHeader redacted_record(StudyHeader header);

/// outcome with its message through the redaction filter.
StudyOutcome redacted_record(StudyOutcome outcome);

}  // namespace routetune
