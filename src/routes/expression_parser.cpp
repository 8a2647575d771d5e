// The expression parser: the lexer splits the text into tokens with positions; each token
// is split at its first '=' into a knob name (or a glob) and a value spec, whose syntax is
// checked before any knob is looked at. An explicit name must exist and take the spec, else
// the token is an error. A glob takes every matching knob that takes the spec (unsafe knobs
// only with include_unsafe) and skips the others; it is an error only when it matches no
// knob, or when no matched knob takes the spec. Explicit names win over globs whatever the
// order; among globs, a later one overrides an earlier one. Axes come out sorted by name.
// `~` is "the values worth trying, the default among them": when the knob's representative
// values leave out its known default (a flag gcc takes only as `on`; an int whose default is
// 0), the axis may also be left unset; and a glob skips a knob whose `~` is its default alone,
// since it has nothing to try (setting it explicitly can even be rejected, e.g.
// -mincoming-stack-boundary=0). What `~` left out of the knobs that last took it (a knob's
// Knob::left_out) is listed in Expression::left_out.
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "routes/expression_lexer.hpp"
#include "routes/value_spec.hpp"
#include "routetune/error.hpp"
#include "util/bounded_read.hpp"
#include "util/excerpt.hpp"
#include "routetune/expression.hpp"

namespace routetune {

namespace {

// GCC's negative spellings are values, not knobs: -fno-unroll-loops is -funroll-loops=off.
std::string negation_hint(std::string_view name) {
    if (name.rfind("-fno-", 0) != 0) return "";
    std::string positive = "-f" + std::string(name.substr(5));
    return "; GCC knobs are named -f<name> and take on|off, so write " + unquoted_excerpt(positive + "=off") + " (e.g. " +
           "-funroll-loops=off means -fno-unroll-loops)";
}

bool is_glob(std::string_view name) { return name.find_first_of("*?") != std::string_view::npos; }

bool glob_match(std::string_view pattern, std::string_view name) {
    std::size_t p = 0, n = 0, star = std::string_view::npos, resume = 0;
    while (n < name.size()) {
        if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == name[n])) {
            ++p;
            ++n;
        } else if (p < pattern.size() && pattern[p] == '*') {
            star = p++;
            resume = n;
        } else if (star != std::string_view::npos) {
            p = star + 1;
            n = ++resume;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '*') ++p;
    return p == pattern.size();
}

struct ChosenValues {
    ValueList values;
    bool may_be_unset = false;
};

/// Every knob's values so far, and which knobs took them from `~` (for Expression::left_out).
struct Choices {
    std::map<std::string, ChosenValues> values;
    std::set<std::string> from_tilde;

    void note(const ValueSpec& spec, const std::string& name) {
        if (spec.kind == ValueSpec::Kind::Representative) {
            from_tilde.insert(name);
        } else {
            from_tilde.erase(name);
        }
    }
};

std::string canonical_default(const Knob& knob) {
    return knob.type == KnobType::Int ? canonical_int(knob.default_value) : knob.default_value;
}

/// True when values hold the knob's known default.
bool lists_default(const Knob& knob, const ValueList& values) {
    return !knob.default_value.empty() && values.contains(canonical_default(knob));
}

/// The axis values of a resolved spec; for `~`, whether the knob may also stay unset.
ChosenValues choose(const ValueSpec& spec, const Knob& knob, ValueList values) {
    bool may_be_unset = spec.kind == ValueSpec::Kind::Representative && !knob.default_value.empty() &&
                        !lists_default(knob, values);
    return ChosenValues{std::move(values), may_be_unset};
}

/// True when a `~` spec gave the knob's known default and nothing else.
bool only_default(const ValueSpec& spec, const Knob& knob, const ValueList& values) {
    return spec.kind == ValueSpec::Kind::Representative && values.size() == 1 && lists_default(knob, values);
}

std::string join(const std::vector<std::string>& names) {
    std::string text;
    for (const auto& name : names) text += (text.empty() ? "" : ", ") + name;
    return text;
}

void add_glob(const std::string& pattern, const ValueSpec& spec, const std::string& context, const Catalog& catalog,
              const ExpressionOptions& options, const std::set<std::string>& explicit_names, Choices& chosen) {
    std::size_t matched = 0, taken = 0, unsafe_skipped = 0;
    std::string first_error;
    for (const auto& knob : catalog.knobs()) {
        if (!glob_match(pattern, knob.name)) continue;
        if (knob.has_tag("unsafe") && !options.include_unsafe) {
            ++unsafe_skipped;
            continue;
        }
        ++matched;
        std::string error;
        auto values = resolve_value_spec(spec, knob, error);
        if (!values) {
            if (first_error.empty()) first_error = error;
            continue;
        }
        ++taken;
        if (explicit_names.count(knob.name) != 0) continue;
        chosen.note(spec, knob.name);
        if (only_default(spec, knob, *values)) {
            chosen.values.erase(knob.name);
            continue;
        }
        chosen.values.insert_or_assign(knob.name, choose(spec, knob, std::move(*values)));
    }
    if (matched == 0)
        throw UsageError(context + ": glob " + quoted_excerpt(pattern) + " matches no knob" +
                         (unsafe_skipped != 0 ? " (" + std::to_string(unsafe_skipped) +
                                                    " unsafe knobs match; --include-unsafe takes them)"
                                              : std::string(" (`routetune knobs` lists the knob names)")) +
                         negation_hint(pattern));
    if (taken == 0)
        throw UsageError(context + ": glob '" + pattern + "' matches " + std::to_string(matched) +
                         " knobs but none takes this value spec (first: " + first_error + ")");
}

Expression parse_tokens(const std::vector<ExpressionToken>& tokens, const Catalog& catalog,
                        const ExpressionOptions& options) {
    Choices chosen;
    std::set<std::string> explicit_names;
    Expression expression;
    for (const auto& token : tokens) {
        if (!expression.text.empty()) expression.text += ' ';
        expression.text += token.text;
        std::string context = token.where + ": token " + quoted_excerpt(token.text);
        auto eq = token.text.find('=');
        if (eq == std::string::npos || eq == 0)
            throw UsageError(context + ": expected NAME=VALUE (e.g. -O=[2|3], -funroll-loops=on, -f*=~)");
        std::string name = token.text.substr(0, eq);
        ValueSpec spec = parse_value_spec(std::string_view(token.text).substr(eq + 1), context);
        if (name.find_first_of("[]|") != std::string::npos)
            throw UsageError(context + ": " + quoted_excerpt(name) + " is not a knob name (it cannot contain '[', ']' or '|')");
        if (is_glob(name)) {
            add_glob(name, spec, context, catalog, options, explicit_names, chosen);
            continue;
        }
        if (!is_valid_knob_name(name))
            throw UsageError(context + ": " + quoted_excerpt(name) + " is not a knob name (knob names start with '-', e.g. -O)");
        const Knob* knob = catalog.find(name);
        if (knob == nullptr) {
            // Suggestions cost an edit distance per knob: none for a name no knob is near in length.
            auto closest = name.size() <= 200 ? catalog.closest_names(name) : std::vector<std::string>{};
            throw UsageError(context + ": unknown knob " + quoted_excerpt(name) +
                             (closest.empty() ? std::string(" (the catalog is empty)") : " (closest: " + join(closest) + ")") +
                             negation_hint(name));
        }
        if (!explicit_names.insert(name).second) throw UsageError(context + ": knob " + name + " is given twice");
        std::string error;
        auto values = resolve_value_spec(spec, *knob, error);
        if (!values) throw UsageError(context + ": " + error);
        chosen.note(spec, name);
        chosen.values.insert_or_assign(name, choose(spec, *knob, std::move(*values)));
    }
    for (auto& [name, choice] : chosen.values) {
        const Knob* knob = catalog.find(name);
        expression.axes.push_back(Axis{name, std::move(choice.values), canonical_default(*knob), choice.may_be_unset});
    }
    for (const auto& name : chosen.from_tilde) {
        for (const auto& entry : catalog.find(name)->left_out) expression.left_out.push_back({name, entry.value, entry.reason});
    }
    return expression;
}

}  // namespace

Expression parse_expression(std::string_view text, const Catalog& catalog, const ExpressionOptions& options) {
    return parse_tokens(lex_expression(text, options.source, false), catalog, options);
}

Expression parse_expression_file(const std::filesystem::path& file, const Catalog& catalog, ExpressionOptions options) {
    std::string content = read_bounded_file(file, kMaxExpressionBytes, "routes file");
    options.source = file.string();
    return parse_tokens(lex_expression(content, options.source, true), catalog, options);
}

}  // namespace routetune
