#include "store/record_redaction.hpp"

#include "util/redaction.hpp"

namespace routetune {

Evaluation redacted_record(Evaluation evaluation) {
    evaluation.message = redact_secrets(evaluation.message);
    evaluation.build_log_tail = redact_secrets(evaluation.build_log_tail);
    for (auto& result : evaluation.cases) result.stderr_tail = redact_secrets(result.stderr_tail);
    return evaluation;
}

StudyHeader redacted_record(StudyHeader header) {
    header.command_line = redact_secrets(header.command_line);
    return header;
}

StudyOutcome redacted_record(StudyOutcome outcome) {
    outcome.message = redact_secrets(outcome.message);
    return outcome;
}

}  // namespace routetune
