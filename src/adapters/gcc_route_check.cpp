// GCC prints the state every optimizer, param and target option ends in after the whole
// command line, so a knob's value is read from its line: `-fname` for a switch (and the on/off
// values of a merged open enum), `-fname=`, `-mname=` or `--param=name=` for a value. GCC
// accepts several spellings of some values and prints one: those are listed here as facts of
// GCC's option tables (gcc/config/i386/i386.opt, enum fpmath_unit). Some decisions come after
// the options are printed: `-fassociative-math` without `-fno-signed-zeros -fno-trapping-math`
// is printed [enabled], and compiling then warns "'-fassociative-math' disabled; other options
// take precedence". So the account also checks the syntax of an empty file with the same
// flags (`-fsyntax-only`: option processing runs, nothing is written), and a warning whose
// subject is the knob's flag and that says disabled, ignored or not supported overrides what
// the line says.
#include "adapters/gcc_route_check.hpp"

#include <algorithm>
#include <array>
#include <filesystem>
#include <string_view>

#include "adapters/compiler_runner.hpp"
#include "adapters/gcc_flags.hpp"
#include "adapters/gcc_help_parser.hpp"
#include "util/text.hpp"

namespace routetune {

namespace {

// The states key of a warning about a flag: "warning:-fassociative-math".
const std::string kWarningKey = "warning:";

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

std::map<std::string, std::string> parse_gcc_option_warnings(std::string_view diagnostics) {
    std::map<std::string, std::string> warnings;
    for (auto line : split_lines(diagnostics)) {
        if (line.find("warning:") == std::string_view::npos) continue;
        bool dropped = line.find("disabled") != std::string_view::npos || line.find("ignored") != std::string_view::npos ||
                       line.find("not supported") != std::string_view::npos;
        if (!dropped) continue;
        for (std::string_view open : {"'", "\xe2\x80\x98"}) {
            auto start = line.find(open);
            if (start == std::string_view::npos) continue;
            start += open.size();
            auto end = line.find(open == "'" ? "'" : "\xe2\x80\x99", start);
            if (end == std::string_view::npos) continue;
            std::string_view subject = line.substr(start, end - start);
            if (subject.starts_with("-")) warnings.try_emplace(std::string(subject), std::string(trim(line)));
            break;
        }
    }
    return warnings;
}

std::optional<std::string> gcc_reported_value(const Knob& knob, const std::string& asked,
                                              const std::map<std::string, std::string>& states) {
    std::string flag = gcc_flag_for(knob, asked);
    for (auto found = states.lower_bound(kWarningKey); found != states.end() && found->first.starts_with(kWarningKey);
         ++found) {
        std::string subject = found->first.substr(kWarningKey.size());
        if (subject != flag && !flag.starts_with(subject + "=")) continue;
        if (knob.type == KnobType::Bool || asked == "on" || asked == "off") return asked == "on" ? "off" : "on";
        return std::string();
    }
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
        auto folder = std::filesystem::temp_directory_path();
        auto result = run_compiler(identity, args, folder);
        if (!result.succeeded()) return std::nullopt;
        CompilerAccount account{parse_gcc_option_states(result.out), {}};
        args.assign(flags.begin(), flags.end());
        bool cxx = identity.path.find("++") != std::string::npos;
        for (const char* arg : {"-fsyntax-only", "-x", cxx ? "c++" : "c", "/dev/null"}) args.push_back(arg);
        auto compiled = run_compiler(identity, args, folder);
        if (!compiled.succeeded()) return account;  // no warnings to read (e.g. a wrapper that needs -o)
        for (auto& [subject, line] : parse_gcc_option_warnings(compiled.err)) account.states[kWarningKey + subject] = line;
        return account;
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
