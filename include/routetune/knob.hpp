// The knob model: one tunable compiler option, its type, allowed values, default and tags.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace routetune {

/// The kind of values a knob takes.
enum class KnobType { Bool, Enum, Int };

/// Returns "bool", "enum" or "int".
std::string_view to_string(KnobType type);

/// Parses "bool", "enum" or "int"; throws UsageError otherwise.
KnobType knob_type_from_string(std::string_view text);

/// How a user-declared knob's value reaches the build (empty fields: the adapter decides).
struct KnobApplication {
    std::string argv_template;  ///< e.g. "-DTILE={value}": one argv item appended to {flags}
    std::string env_name;       ///< e.g. "TILE": the value is set in this environment variable
};

/// A value that `~` leaves out of a knob's representative values, and why (e.g. the CPU of
/// this machine cannot run code built with it). Written explicitly, the value is still allowed.
struct LeftOutValue {
    std::string value;   ///< e.g. "bdver3", or "on" of a switch
    std::string reason;  ///< e.g. "needs -mfma4 -mxop, which this machine's CPU (znver3) lacks"
};

/// A value `~` left out of a knob of an expression or a study (the knob's Knob::left_out), with the knob's name.
struct LeftOutAxisValue {
    std::string knob;    ///< the knob's name
    std::string value;   ///< the value left out
    std::string reason;  ///< why (LeftOutValue::reason)
};

/// One tunable compiler option. Names start with '-' and contain no '=', space, '[', ']', '|'.
struct Knob {
    std::string name;                  ///< "-O", "-funroll-loops", "-param:max-unroll-times"
    KnobType type = KnobType::Bool;
    std::vector<std::string> values;   ///< Bool: {"on","off"}; Enum: allowed values; Int: empty
    std::int64_t min = 0;              ///< Int only: smallest allowed value
    std::int64_t max = 0;              ///< Int only: largest allowed value
    bool bounded = true;               ///< false: Int with no known range, or an open Enum
    std::string default_value;         ///< value at the base flags; empty when unknown
    std::string help;                  ///< one line of help text
    std::vector<std::string> tags;     ///< e.g. "unsafe", "optimizer", "param", "target"
    KnobApplication application;       ///< for user-declared knobs; empty otherwise
    std::vector<LeftOutValue> left_out; ///< values `~` skips here (set after the catalog cache)

    /// True when tags contains tag.
    bool has_tag(std::string_view tag) const;
    /// True when value is allowed (in values, or an integer within [min, max]; any value of
    /// an unbounded knob of matching type).
    bool allows(std::string_view value) const;
    /// The reason value is left out of `~`, or nullptr when it is not.
    const LeftOutValue* left_out_reason(std::string_view value) const;
    /// A short description of the allowed values for messages, e.g. "on|off" or "1..65536".
    std::string allowed_text() const;
};

/// True when name is a syntactically valid knob name (see the struct's contract).
bool is_valid_knob_name(std::string_view name);

}  // namespace routetune
