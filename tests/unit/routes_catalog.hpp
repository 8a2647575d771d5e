// A hand-built catalog shared by the route, expression and expansion tests.
#pragma once

#include <string>
#include <vector>

#include "routetune/catalog.hpp"

namespace routetune::fixture {

inline Knob bool_knob(std::string name, std::string default_value, std::vector<std::string> tags = {}) {
    Knob knob;
    knob.name = std::move(name);
    knob.type = KnobType::Bool;
    knob.values = {"on", "off"};
    knob.default_value = std::move(default_value);
    knob.tags = std::move(tags);
    return knob;
}

inline Knob enum_knob(std::string name, std::vector<std::string> values, std::string default_value, bool bounded = true) {
    Knob knob;
    knob.name = std::move(name);
    knob.type = KnobType::Enum;
    knob.values = std::move(values);
    knob.default_value = std::move(default_value);
    knob.bounded = bounded;
    return knob;
}

inline Knob int_knob(std::string name, std::int64_t min, std::int64_t max, std::string default_value, bool bounded = true) {
    Knob knob;
    knob.name = std::move(name);
    knob.type = KnobType::Int;
    knob.min = min;
    knob.max = max;
    knob.bounded = bounded;
    knob.default_value = std::move(default_value);
    return knob;
}

/// -O, -fomit-frame-pointer, -ffast-math (unsafe), -funroll-loops, -march (open enum),
/// -param:max-unroll-times (1..64, default 8), -param:huge (unbounded, no default),
/// -param:nodefault (0..100, no default).
inline Catalog small_catalog() {
    Catalog catalog;
    catalog.add(enum_knob("-O", {"0", "1", "2", "3", "s", "fast", "g", "z"}, "2"));
    catalog.add(bool_knob("-fomit-frame-pointer", "on"));
    catalog.add(bool_knob("-ffast-math", "off", {"unsafe"}));
    catalog.add(bool_knob("-funroll-loops", "off"));
    catalog.add(enum_knob("-march", {"x86-64", "native"}, "x86-64", false));
    catalog.add(int_knob("-param:max-unroll-times", 1, 64, "8"));
    catalog.add(int_knob("-param:huge", 0, 0, "", false));
    catalog.add(int_knob("-param:nodefault", 0, 100, ""));
    return catalog;
}

}  // namespace routetune::fixture
