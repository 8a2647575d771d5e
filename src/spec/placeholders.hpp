// Placeholders in command templates: `{name}` where name is an identifier. An argv item that
// is exactly one placeholder expands to the placeholder's whole list of values (so `{flags}`
// becomes several argv items, or none); a placeholder inside a larger item ("-o{artifact}",
// "--saveEngine={artifact}") substitutes text and needs exactly one value. Braces around
// anything that is not an identifier ("{}", "{\"a\": 1}") are plain text.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace routetune {

/// Values of placeholders by name (without braces): "flags" -> {"-O2", "-g"}.
using PlaceholderValues = std::map<std::string, std::vector<std::string>, std::less<>>;

/// One placeholder occurrence in a template item.
struct PlaceholderUse {
    std::string name;        ///< without braces
    std::size_t offset = 0;  ///< position of '{' in the item
    bool whole_item = false; ///< the item is exactly "{name}"
};

/// The placeholders a spec's commands may use: compiler, flags, artifact, input, output,
/// metrics, workdir, spec_dir.
const std::vector<std::string>& spec_placeholder_names();

/// The placeholders in one template item, in order of appearance.
std::vector<PlaceholderUse> find_placeholders(std::string_view item);

/// Expands an argv template; throws UsageError naming the placeholder when it has no value,
/// or when a list of other than one value sits inside a larger item.
std::vector<std::string> expand_argv(const std::vector<std::string>& argv_template,
                                     const PlaceholderValues& values);

/// Substitutes text placeholders in one string (a cwd, an environment value); every
/// placeholder used needs exactly one value, else UsageError.
std::string expand_text(std::string_view text, const PlaceholderValues& values);

}  // namespace routetune
