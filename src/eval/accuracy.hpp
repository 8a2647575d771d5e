// Checking one case's output against its reference under the spec's accuracy rule.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "eval/loss_metrics.hpp"
#include "eval/output_reader.hpp"
#include "routetune/spec.hpp"

namespace routetune {

/// The [accuracy] section with its names resolved.
struct AccuracyRule {
    OutputFormat format = OutputFormat::Text;
    Metric metric = Metric::RelL2;
    double threshold = 1e-6;  ///< a case passes when loss <= threshold
    double atol = 0;          ///< for l0
    double rtol = 0;          ///< for l0
};

/// Resolves spec's format and metric names; throws UsageError naming the bad value and the
/// valid ones, or a negative or NaN threshold, atol or rtol.
AccuracyRule accuracy_rule_from(const AccuracySpec& spec);

/// The rule for a case of case_class: accuracy_rule_from(spec) with that class's own
/// threshold, atol and rtol ([accuracy.<class>]) where they are set.
AccuracyRule accuracy_rule_for(const AccuracySpec& spec, const std::string& case_class);

/// The verdict on one case.
struct CaseCheck {
    bool passed = false;
    double loss = 0;       ///< the metric's value; +inf for malformed or non-finite output,
                           ///< NaN when the reference itself is unreadable
    std::string message;   ///< why it failed, in one line; empty when it passed
};

/// The golden reference of test_case, read up to max_output_mb ([run] max_output_mb: an
/// output is never larger, so a larger reference could never match) and only as a regular
/// file; throws UsageError naming the case, the file and the limit when it cannot be read.
std::string read_golden_reference(const CaseSpec& test_case, std::uint64_t max_output_mb);

/// Reads both byte strings in rule.format and compares them under rule.metric, value by value
/// where they lie (no copy of their values). For the exact metric, byte-identical outputs pass
/// without being parsed (so any text can be compared).
CaseCheck check_case(std::string_view actual_bytes, std::string_view reference_bytes, const AccuracyRule& rule);

}  // namespace routetune
