#include "eval/accuracy.hpp"

#include <cmath>
#include <limits>
#include <sstream>

#include "routetune/error.hpp"
#include "util/bounded_read.hpp"

namespace routetune {
namespace {

std::string show(double value) {
    std::ostringstream text;
    text.precision(6);
    text << value;
    return text.str();
}

void require_non_negative(double value, const char* key) {
    if (!(value >= 0))
        throw UsageError(std::string("[accuracy] ") + key + " = " + show(value) + ": must be a number >= 0");
}

}  // namespace

AccuracyRule accuracy_rule_from(const AccuracySpec& spec) {
    AccuracyRule rule;
    std::optional<OutputFormat> format = output_format_from_string(spec.format);
    if (!format)
        throw UsageError("[accuracy] format = \"" + spec.format + "\" is unknown; valid: text, f32, f64, i32, npy");
    std::optional<Metric> metric = metric_from_string(spec.metric);
    if (!metric)
        throw UsageError("[accuracy] metric = \"" + spec.metric +
                         "\" is unknown; valid: exact, l0, l1, l2, linf, rel_l2, cos");
    require_non_negative(spec.threshold, "threshold");
    require_non_negative(spec.atol, "atol");
    require_non_negative(spec.rtol, "rtol");
    rule.format = *format;
    rule.metric = *metric;
    rule.threshold = spec.threshold;
    rule.atol = spec.atol;
    rule.rtol = spec.rtol;
    return rule;
}

AccuracyRule accuracy_rule_for(const AccuracySpec& spec, const std::string& case_class) {
    AccuracyRule rule = accuracy_rule_from(spec);
    auto own = spec.classes.find(case_class);
    if (own == spec.classes.end()) return rule;
    rule.threshold = own->second.threshold.value_or(rule.threshold);
    rule.atol = own->second.atol.value_or(rule.atol);
    rule.rtol = own->second.rtol.value_or(rule.rtol);
    return rule;
}

std::string read_golden_reference(const CaseSpec& test_case, std::uint64_t max_output_mb) {
    BoundedRead read = read_bounded(test_case.reference, max_output_mb << 20, "reference");
    if (read.bytes) return std::move(*read.bytes);
    throw UsageError("case '" + test_case.name + "': " + read.error +
                     (read.error.find("larger than") != std::string::npos
                          ? "; its output may be at most [run] max_output_mb = " + std::to_string(max_output_mb) +
                                " MB, so it could never match: raise max_output_mb or shorten the reference"
                          : ""));
}

CaseCheck check_case(std::string_view actual_bytes, std::string_view reference_bytes, const AccuracyRule& rule) {
    if (rule.metric == Metric::Exact && actual_bytes == reference_bytes) return {true, 0, ""};
    OutputValues reference(reference_bytes, rule.format);
    if (!reference.ok())
        return {false, std::numeric_limits<double>::quiet_NaN(), "the reference is unreadable: " + reference.message()};
    OutputValues actual(actual_bytes, rule.format);
    if (!actual.ok()) return {false, std::numeric_limits<double>::infinity(), "malformed output: " + actual.message()};
    if (!actual.shape().empty() && !reference.shape().empty() && actual.shape() != reference.shape()) {
        auto shape_text = [](const std::vector<std::size_t>& shape) {
            std::string text = "(";
            for (std::size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
            return text + ")";
        };
        return {false, std::numeric_limits<double>::infinity(),
                "the output's shape " + shape_text(actual.shape()) + " differs from the reference's " +
                    shape_text(reference.shape())};
    }
    Loss loss = compute_loss(actual, reference, rule.metric, rule.atol, rule.rtol);
    if (loss.unreadable == Unreadable::Reference)
        return {false, std::numeric_limits<double>::quiet_NaN(), "the reference is unreadable: " + loss.message};
    if (loss.unreadable == Unreadable::Actual)
        return {false, std::numeric_limits<double>::infinity(), "malformed output: " + loss.message};
    if (!loss.ok) return {false, loss.value, loss.message};
    if (!(loss.value <= rule.threshold))
        return {false, loss.value,
                std::string(to_string(rule.metric)) + " loss " + show(loss.value) + " is over the threshold " +
                    show(rule.threshold)};
    return {true, loss.value, ""};
}

}  // namespace routetune
