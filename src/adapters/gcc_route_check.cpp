// GCC prints the state every optimizer, param and target option ends in after the whole
// command line, so a knob's value is read from its line: `-fname` for a switch (and the on/off
// values of a merged open enum), `-fname=`, `-mname=` or `--param=name=` for a value. GCC
// accepts several spellings of some values and prints one: those are listed here as facts of
// GCC's option tables (gcc/config/i386/i386.opt, enum fpmath_unit).
#include "adapters/gcc_route_check.hpp"

#include <algorithm>
#include <array>
#include <filesystem>
#include <string_view>

#include "adapters/compiler_runner.hpp"
#include "adapters/gcc_flags.hpp"
#include "adapters/gcc_help_parser.hpp"

namespace routetune {

namespace {

struct Synonyms {
    std::string_view knob;
    std::array<std::string_view, 5> spellings;  // one value, as GCC accepts it
};

constexpr std::array<Synonyms, 1> kSynonyms{{
    {"-mfpmath", {"387+sse", "387,sse", "sse+387", "sse,387", "both"}},
}};

bool synonyms(const std::string& knob, const std::string& a, const std::string& b) {
    for (const auto& row : kSynonyms) {
        if (row.knob != knob) continue;
        auto has = [&](const std::string& v) {
            return std::find(row.spellings.begin(), row.spellings.end(), v) != row.spellings.end();
        };
        return has(a) && has(b);
    }
    return false;
}

}  // namespace

std::optional<std::string> gcc_reported_value(const Knob& knob, const std::string& asked,
                                              const std::map<std::string, std::string>& states) {
    if (knob.name == "-O" || asked == "native") return std::nullopt;
    bool switched = knob.type == KnobType::Bool ||
                    (knob.type == KnobType::Enum && !knob.bounded && (asked == "on" || asked == "off"));
    auto found = states.find(switched ? knob.name : knob.name + "=");
    if (found == states.end()) return std::nullopt;
    const std::string& state = found->second;
    if (switched) {
        if (state == "[enabled]") return "on";
        if (state == "[disabled]") return "off";
        return std::nullopt;
    }
    if (state.empty() || state == "[default]") return std::nullopt;
    return synonyms(knob.name, state, asked) ? asked : state;
}

AccountSource gcc_account_source(const CompilerIdentity& identity) {
    AccountSource source;
    source.compiler = "GCC";
    source.account = [identity](const std::vector<std::string>& flags) -> std::optional<CompilerAccount> {
        std::vector<std::string> args = {"-Q", "--help=optimizers", "--help=params", "--help=target"};
        args.insert(args.end(), flags.begin(), flags.end());
        auto result = run_compiler(identity, args, std::filesystem::temp_directory_path());
        if (!result.succeeded()) return std::nullopt;
        return CompilerAccount{parse_gcc_option_states(result.out), {}};
    };
    source.reported = [](const Knob& knob, const std::string& asked, const CompilerAccount& account) {
        return gcc_reported_value(knob, asked, account.states);
    };
    source.flags_of = [](const Knob& knob, const std::string& value) {
        return std::vector<std::string>{gcc_flag_for(knob, value)};
    };
    return source;
}

}  // namespace routetune
