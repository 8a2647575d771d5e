// What `~` left out (Knob::left_out, Expression::left_out) in words, for `knobs`, `expand`
// and `tune`.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "routetune/catalog.hpp"
#include "routetune/expression.hpp"

namespace routetune {

/// Every left-out value of catalog's knobs, by knob name, in each knob's value order.
std::vector<LeftOutAxisValue> left_out_values(const Catalog& catalog);

/// One sentence: how many values `~` left out, grouped by knob ("-march=[bdver1|knl|...] (12
/// values), -mavx512f=on, ..."), and how to keep them; "" when none were.
std::string left_out_summary(const std::vector<LeftOutAxisValue>& left_out);

/// One warning line ("warning: -march=bdver3 is written explicitly, but ...") per value of
/// expression's axes that catalog marks left out: such a value came from an explicit list (or
/// `*`), so it is tried as written; "" when there is none.
std::string explicit_left_out_warnings(const Expression& expression, const Catalog& catalog);

/// Writes to out, each line prefixed "routetune: ", the note of left_out_summary(expression's
/// left-out values) and the warnings of explicit_left_out_warnings; nothing when both are "".
void write_left_out_notes(std::ostream& out, const Expression& expression, const Catalog& catalog);

/// A heading and one line per left-out value with its reason; "" when none were.
std::string left_out_details(const std::vector<LeftOutAxisValue>& left_out);

}  // namespace routetune
