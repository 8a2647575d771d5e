// A program that times itself (CUDA events, a kernel-only clock) writes {"time_ms": x} or
// {"time_ms": [x, ...]}. A list is the program's own repeats: its median is the run's time,
// so one slow repeat inside the program does not move the sample.
#include "eval/reported_time.hpp"

#include <cmath>
#include <nlohmann/json.hpp>
#include <vector>

#include "util/statistics.hpp"

namespace routetune {

std::optional<double> parse_reported_time(std::string_view text, std::string* error) {
    auto fail = [&](const std::string& why) -> std::optional<double> {
        if (error) *error = why;
        return std::nullopt;
    };
    nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) return fail("metrics file is not a JSON object");
    auto it = doc.find("time_ms");
    if (it == doc.end()) return fail("metrics file has no \"time_ms\"");
    std::vector<double> values;
    if (it->is_number()) {
        values.push_back(it->get<double>());
    } else if (it->is_array()) {
        for (const auto& v : *it) {
            if (!v.is_number()) return fail("\"time_ms\" list holds a non-number");
            values.push_back(v.get<double>());
        }
    } else {
        return fail("\"time_ms\" is neither a number nor a list of numbers");
    }
    if (values.empty()) return fail("\"time_ms\" list is empty");
    for (double v : values) {
        if (!std::isfinite(v) || v < 0) return fail("\"time_ms\" holds a negative or non-finite value");
    }
    return median(values) / 1000.0;
}

}  // namespace routetune
