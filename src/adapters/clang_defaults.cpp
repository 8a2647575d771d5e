// Clang has no `-Q --help=optimizers`. The driver, though, passes an `-f` switch on to cc1
// only when it differs from the default: at -O2, `-fvectorize` leaves the cc1 line as it was
// and `-fno-vectorize` changes it, so vectorising is on. Switches the driver always or never
// forwards (e.g. -funroll-loops) stay without a default. Target features are checked through
// the macros they define, since the driver forwards both forms of a feature.
#include "adapters/clang_defaults.hpp"

#include <algorithm>
#include <cctype>
#include <future>
#include <thread>

#include "adapters/gcc_flags.hpp"
#include "util/text.hpp"

namespace routetune {

std::string switch_default(const std::string& base, const std::string& with_on, const std::string& with_off) {
    bool on_same = with_on == base;
    bool off_same = with_off == base;
    if (on_same && !off_same) return "on";
    if (off_same && !on_same) return "off";
    return {};
}

void set_optimizer_defaults(std::vector<Knob>& knobs, const DriverLine& driver) {
    std::vector<Knob*> switches;
    for (auto& knob : knobs) {
        if (knob.type == KnobType::Bool && knob.name.starts_with("-f")) switches.push_back(&knob);
    }
    const std::string base = driver({});
    std::size_t workers = std::max(2u, std::thread::hardware_concurrency());
    std::vector<std::future<void>> tasks;
    for (std::size_t w = 0; w < workers; ++w) {
        tasks.push_back(std::async(std::launch::async, [&, w] {
            for (std::size_t i = w; i < switches.size(); i += workers) {
                Knob& knob = *switches[i];
                knob.default_value = switch_default(base, driver({gcc_flag_for(knob, "on")}),
                                                    driver({gcc_flag_for(knob, "off")}));
            }
        }));
    }
    for (auto& task : tasks) task.get();
}

std::set<std::string> defined_macros(std::string_view text) {
    std::set<std::string> names;
    for (auto line : split_lines(text)) {
        if (!line.starts_with("#define ")) continue;
        auto words = split_words(line.substr(8));
        if (!words.empty()) names.insert(words.front());
    }
    return names;
}

std::string clang_feature_macro(const std::string& switch_name) {
    std::string macro = "__";
    for (char c : switch_name.substr(2)) macro += std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::toupper(c)) : '_';
    return macro + "__";
}

void set_target_defaults(std::vector<Knob>& knobs, const std::set<std::string>& base,
                         const std::set<std::string>& all_on) {
    for (auto& knob : knobs) {
        if (knob.type != KnobType::Bool || !knob.name.starts_with("-m")) continue;
        std::string macro = clang_feature_macro(knob.name);
        if (base.count(macro)) knob.default_value = "on";
        else if (all_on.count(macro)) knob.default_value = "off";
    }
}

}  // namespace routetune
