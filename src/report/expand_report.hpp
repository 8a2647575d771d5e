// The `routetune expand` command as a library function over a catalog, so it can be tested
// without a compiler (internal; src/cli/expand_command.cpp finds the catalog and calls it).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "routetune/big_count.hpp"
#include "routetune/catalog.hpp"
#include "routetune/expression.hpp"

namespace routetune {

/// What `routetune expand` was asked for.
struct ExpandRequest {
    std::string routes;                  ///< expression text (used when routes_file is empty)
    std::string routes_source = "--routes";  ///< named in messages for routes
    std::filesystem::path routes_file;   ///< an expression file, preferred over routes
    std::string mode = "fast";           ///< any strategy name (strategy_names())
    bool count_only = false;             ///< print only the exact count
    std::optional<std::uint64_t> limit;  ///< print at most this many candidates
    bool json = false;                   ///< print one JSON document (see run_expand)
    bool include_unsafe = false;         ///< globs also match unsafe knobs
    int mixed_max_knobs = 4;             ///< for mixed: knobs in phase two, for its bound
    std::ostream* notes = nullptr;       ///< where a note on what `~` left out goes (stderr); nullptr: nowhere
};

/// A count as a JSON number: exact when it fits in 64 bits, a double approximation up to
/// 1e300, null beyond (the exact decimal goes beside it, under the key with "_exact").
nlohmann::ordered_json count_number(const BigCount& count);

/// Upper bound on mixed phase two: the product of the value counts of the max_knobs varying
/// axes with the most values (0 when there is no varying axis or max_knobs < 1).
BigCount mixed_phase_two_bound(const Expression& expression, int max_knobs);

/// Parses the request's expression against catalog and prints its candidates to out: one
/// canonical route a line, the empty route as "(default)"; with count_only the exact count
/// alone (phase one's, for mixed); for mixed, a last line "phase two: at most N candidates"
/// (N from mixed_phase_two_bound). An adaptive mode (auto, random, ...: a strategy with no
/// fixed list) lists the whole space it searches, with a note saying so. In JSON, count and
/// phase_two_bound are numbers (count_number) beside their exact decimals (count_exact,
/// phase_two_bound_exact), the default route is "", "adaptive" says whether the mode picks
/// from results, and what `~` left out is "left_out": [{"knob", "value", "reason"}] (the note
/// also goes to request.notes). Returns the exit code (0); throws UsageError for a bad
/// expression or a mode no strategy has.
int run_expand(const Catalog& catalog, const ExpandRequest& request, std::ostream& out);

}  // namespace routetune
