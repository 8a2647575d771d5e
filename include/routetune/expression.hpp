// Route expressions (GPT syntax, extended) and their expansion into candidates.
// An expression is parsed against a catalog into axes: one per knob, each a lazily indexed
// list of values (a fixed knob is an axis of one value). Expansion never materialises the
// space: candidates are produced one at a time and counted exactly with BigCount.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "routetune/big_count.hpp"
#include "routetune/catalog.hpp"
#include "routetune/route.hpp"

namespace routetune {

/// How an expression is read.
struct ExpressionOptions {
    bool include_unsafe = false;          ///< globs also match knobs tagged unsafe
    std::string source = "<expression>";  ///< named in messages: a file name or "--routes"
};

/// The values one knob takes in an expression: an explicit list or an integer range
/// (additive or multiplicative step), indexed without materialising it.
class ValueList {
public:
    /// An explicit list of values (already validated, unique).
    static ValueList of(std::vector<std::string> values);
    /// lo, lo+step, ... <= hi.
    static ValueList additive(std::int64_t lo, std::int64_t hi, std::int64_t step);
    /// lo, lo*factor, ... <= hi (lo >= 1, factor >= 2).
    static ValueList multiplicative(std::int64_t lo, std::int64_t hi, std::int64_t factor);

    /// Number of values.
    std::uint64_t size() const;
    /// The i-th value (i < size()).
    std::string at(std::uint64_t i) const;
    /// True when value is one of the values.
    bool contains(std::string_view value) const;

private:
    enum class Kind { List, Additive, Multiplicative } kind_ = Kind::List;
    std::vector<std::string> list_;
    std::int64_t lo_ = 0, hi_ = 0, step_ = 1;
};

/// One knob of an expression and its values.
struct Axis {
    std::string knob;
    ValueList values;
    std::string default_value;  ///< the knob's default at the base flags; "" when unknown
    /// True when the knob may also be left unset (the compiler's default applies): `~` whose
    /// values leave out the knob's known default, e.g. a flag gcc accepts only as `on`.
    bool may_be_unset = false;
    /// True when the knob takes one value in every candidate.
    bool fixed() const { return values.size() == 1 && !may_be_unset; }
    /// Number of choices of the knob in full mode: its values, plus "unset" when it may be.
    std::uint64_t full_choices() const { return values.size() + (may_be_unset ? 1 : 0); }
};

/// A parsed, validated route expression.
struct Expression {
    std::string text;        ///< the expression as written (normalised whitespace)
    std::vector<Axis> axes;  ///< sorted by knob name, one per knob
    /// What `~` left out, by knob name then value order: knobs whose `~` gave only the
    /// default after that are not axes (a glob skips them) but are listed here too.
    std::vector<LeftOutAxisValue> left_out;
};

/// Parses text against catalog; throws UsageError naming the token, its position and what
/// would be valid (closest names for an unknown knob).
Expression parse_expression(std::string_view text, const Catalog& catalog,
                            const ExpressionOptions& options = {});

/// Reads an expression file (tokens over lines, '#' comments) and parses it; messages name
/// the file and line.
Expression parse_expression_file(const std::filesystem::path& file, const Catalog& catalog,
                                 ExpressionOptions options = {});

/// The enumeration modes of the design. Mixed expands its phase one (same as fast) here.
enum class ExpansionMode { Fast, Full, Mixed };


/// A lazy stream of candidate routes.
class CandidateStream {
public:
    virtual ~CandidateStream() = default;
    /// The next candidate, or nullopt at the end.
    virtual std::optional<Route> next() = 0;
    /// The exact number of candidates the stream yields in all.
    virtual BigCount count() const = 0;
};

/// The baseline of an expression: fixed knobs set, varying knobs left at their defaults
/// (not mentioned).
Route baseline_route(const Expression& expression);

/// Candidates of expression under mode (fast: baseline then one knob at a time; full: the
/// Cartesian product in mixed-radix order, first axis slowest; mixed: phase one).
std::unique_ptr<CandidateStream> expand(const Expression& expression, ExpansionMode mode);

/// The number of candidates of expand(expression, mode), exactly, without enumerating.
BigCount count_candidates(const Expression& expression, ExpansionMode mode);

}  // namespace routetune
