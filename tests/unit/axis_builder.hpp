// Builds expression axes by hand for the search tests (no catalog, no parser).
#pragma once

#include <string>
#include <vector>

#include "routetune/expression.hpp"

namespace routetune {

/// An axis of knob over values, with default_value as the compiler's default.
inline Axis axis(std::string knob, std::vector<std::string> values, std::string default_value) {
    Axis a;
    a.knob = std::move(knob);
    a.values = ValueList::of(std::move(values));
    a.default_value = std::move(default_value);
    return a;
}

}  // namespace routetune
