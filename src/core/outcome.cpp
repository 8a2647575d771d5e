// Names of study outcomes, as the design spells them: one table read in both directions.
#include <array>
#include <utility>

#include "routetune/study.hpp"

namespace routetune {

namespace {

constexpr std::array<std::pair<Outcome, std::string_view>, 4> kNames{{
    {Outcome::Improved, "improved"},
    {Outcome::DefaultStays, "default-stays"},
    {Outcome::NoEligibleRoute, "no-eligible-route"},
    {Outcome::Unfinished, "unfinished"},
}};

}  // namespace

std::string_view to_string(Outcome outcome) {
    for (const auto& [value, name] : kNames) {
        if (value == outcome) return name;
    }
    return "unfinished";
}

std::optional<Outcome> outcome_from_string(std::string_view text) {
    for (const auto& [value, name] : kNames) {
        if (name == text) return value;
    }
    return std::nullopt;
}

}  // namespace routetune
