// Axes and observations built by hand for the search tests (no catalog, no parser, no runs).
#pragma once

#include <string>
#include <vector>

#include "routetune/expression.hpp"
#include "routetune/strategy.hpp"

namespace routetune {

/// An axis of knob over values, with default_value as the compiler's default.
inline Axis axis(std::string knob, std::vector<std::string> values, std::string default_value) {
    Axis a;
    a.knob = std::move(knob);
    a.values = ValueList::of(std::move(values));
    a.default_value = std::move(default_value);
    return a;
}

/// An Ok observation of route with this median and an interval of +-1%.
inline Observation ok(const Route& route, double median) {
    Observation obs;
    obs.route = route;
    obs.status = Status::Ok;
    obs.median_s = median;
    obs.ci_low_s = median * 0.99;
    obs.ci_high_s = median * 1.01;
    return obs;
}

}  // namespace routetune
