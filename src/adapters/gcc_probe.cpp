// Probing in batches: GCC checks every command-line option on its own, so one compile with a
// few hundred candidate flags tells whether all of them are accepted. When a batch fails, the
// flags its "error:" lines name (`unrecognized command-line option '-mno-x'`, `argument to
// '--param=x=' ...`) are set aside and the rest compiled again; a failure that names no flag
// of the batch (`sorry, unimplemented: ...`) is bisected, down to the single flags that fail
// alone. Most rejections cost nothing extra this way; each unnamed one about 2·log2(n)
// compiles. Options of which
// only the last occurrence counts (enum values, int bounds) go in rounds that hold at most one
// value per option. -march and -mtune are checked only for their last value, so their lists
// come from the compiler's own diagnostic for a bogus value, which names exactly the values
// valid for the current target mode (e.g. no i386 in 64-bit mode); so do target options with
// an open value such as -mstore-max= (128 256 512 none, not any integer). A batch that
// compiles may still warn that a flag does nothing ("no longer supported", "is ignored in
// 64bit mode"): such flags are Ignored, and a switch with an ignored form is no knob at all.
#include "adapters/gcc_probe.hpp"

#include <algorithm>
#include <cstdint>
#include <future>
#include <semaphore>
#include <thread>
#include <limits>
#include <set>

#include "adapters/gcc_flags.hpp"
#include "adapters/gcc_help_parser.hpp"

namespace routetune {

namespace {

// The flags of batch that the lines of diagnostics for which is_blame holds name: a line that
// quotes exactly one flag of the batch (the flag itself, or a `-name=` prefix of it) names
// that flag. Lines quoting two flags of the batch are about their combination and name
// nothing; in a "did you mean" line only the first quote counts (the second is a suggestion).
template <typename IsBlame>
std::vector<std::size_t> named_in_lines(const std::vector<std::string>& batch, const std::string& diagnostics,
                                        IsBlame is_blame) {
    std::vector<std::size_t> named;
    std::size_t start = 0;
    while (start < diagnostics.size()) {
        std::size_t end = diagnostics.find('\n', start);
        if (end == std::string::npos) end = diagnostics.size();
        std::string line = diagnostics.substr(start, end - start);
        start = end + 1;
        if (!is_blame(line)) continue;
        bool suggestion = line.find("did you mean") != std::string::npos;
        std::vector<std::size_t> blamed;
        for (auto open = line.find('\''); open != std::string::npos; open = line.find('\'', open + 1)) {
            auto close = line.find('\'', open + 1);
            if (close == std::string::npos) break;
            std::string quoted = line.substr(open + 1, close - open - 1);
            for (std::size_t i = 0; i < batch.size(); ++i) {
                bool prefix = !quoted.empty() && quoted.back() == '=' && batch[i].starts_with(quoted);
                if ((batch[i] == quoted || prefix) && std::find(blamed.begin(), blamed.end(), i) == blamed.end()) {
                    blamed.push_back(i);
                }
            }
            open = close;
            if (suggestion) break;
        }
        if (blamed.size() == 1) named.push_back(blamed.front());
    }
    return named;
}

std::vector<std::size_t> named_in_errors(const std::vector<std::string>& batch, const std::string& diagnostics) {
    return named_in_lines(batch, diagnostics, [](const std::string& line) { return line.find("error:") != std::string::npos; });
}

// Warnings that say an accepted flag does nothing: `switch '-mmpx' is no longer supported`,
// `'-mrtd' is ignored in 64bit mode`, `this target does not support '-fsection-anchors'`.
// The trailing `[-Wname]` is left out, so a warning class named "-Wignored-..." says nothing.
bool says_ignored(const std::string& line) {
    auto warning = line.find("warning:");
    if (warning == std::string::npos) return false;
    std::string text = line.substr(warning, line.rfind(" [-W") == std::string::npos ? std::string::npos
                                                                                     : line.rfind(" [-W") - warning);
    for (const char* phrase : {"deprecated", "ignored", "no longer supported", "not supported", "does not support",
                               "has no effect"}) {
        if (text.find(phrase) != std::string::npos) return true;
    }
    return false;
}

// Gives the flags of indices (into flags) their verdicts and returns the compiles it ran;
// failing flags named by the diagnostics are set aside at once, the rest of a failing batch
// is bisected, the two halves on two threads (compile must be thread-safe; verdicts holds
// one byte per flag, so the halves never write the same memory).
std::size_t probe_subset(const std::vector<std::string>& flags, std::vector<std::size_t> indices,
                         const ProbeCompiler& compile, std::vector<FlagVerdict>& verdicts) {
    std::size_t compiles = 0;
    while (!indices.empty()) {
        std::vector<std::string> batch;
        for (auto index : indices) batch.push_back(flags[index]);
        ++compiles;
        auto result = compile(batch);
        if (result.accepted) {
            for (auto index : indices) verdicts[index] = FlagVerdict::Accepted;
            for (auto i : named_in_lines(batch, result.diagnostics, says_ignored)) {
                verdicts[indices[i]] = FlagVerdict::Ignored;
            }
            return compiles;
        }
        if (indices.size() == 1) return compiles;
        auto named = named_in_errors(batch, result.diagnostics);
        if (named.empty()) break;
        std::vector<std::size_t> rest;
        for (std::size_t i = 0; i < indices.size(); ++i) {
            if (std::find(named.begin(), named.end(), i) == named.end()) rest.push_back(indices[i]);
        }
        indices = std::move(rest);
    }
    if (indices.empty()) return compiles;
    auto middle = indices.begin() + static_cast<std::ptrdiff_t>(indices.size() / 2);
    std::vector<std::size_t> upper(middle, indices.end());
    auto upper_compiles = std::async(std::launch::async, [&flags, &compile, &verdicts, upper = std::move(upper)] {
        return probe_subset(flags, upper, compile, verdicts);
    });
    compiles += probe_subset(flags, std::vector<std::size_t>(indices.begin(), middle), compile, verdicts);
    return compiles + upper_compiles.get();
}

struct Candidate {
    std::size_t knob;
    std::string value;
    bool ignored = false;   ///< set by a round: it compiled, but a warning says it does nothing
};

bool contains(const std::vector<std::string>& values, const std::string& value) {
    return std::find(values.begin(), values.end(), value) != values.end();
}

bool has_value(const Knob& knob, const std::string& value) { return contains(knob.values, value); }

bool listed_by_diagnostic(const Knob& knob) {
    if (knob.name == "-march" || knob.name == "-mtune") return true;
    bool open = !knob.bounded && (knob.type == KnobType::Enum || knob.type == KnobType::Int);
    return open && (knob.has_tag("param") ? knob.type == KnobType::Enum : knob.has_tag("target"));
}

class Prober {
public:
    Prober(std::vector<Knob>& knobs, const ProbeCompiler& compile)
        : knobs_(knobs), compile_(compile), rejected_(knobs.size()) {}

    // Probes candidates in one batch; returns those rejected or ignored. Thread-safe: reads
    // knobs only.
    std::vector<Candidate> round(const std::vector<Candidate>& candidates, std::size_t& compiles) const {
        std::vector<std::string> flags;
        for (const auto& candidate : candidates) flags.push_back(gcc_flag_for(knobs_[candidate.knob], candidate.value));
        auto verdicts = probe_flags(flags, compile_, compiles);
        std::vector<Candidate> rejected;
        for (std::size_t i = 0; i < candidates.size(); ++i) {
            if (verdicts[i] == FlagVerdict::Accepted) continue;
            rejected.push_back(candidates[i]);
            rejected.back().ignored = verdicts[i] == FlagVerdict::Ignored;
        }
        return rejected;
    }

    std::vector<Candidate> round(const std::vector<Candidate>& candidates) { return round(candidates, report.compiles); }

    // One compile per knob listed by a diagnostic, all at once; each task writes its own knob.
    void listed_values() {
        std::vector<std::future<void>> tasks;
        for (auto& knob : knobs_) {
            if (!listed_by_diagnostic(knob)) continue;
            ++report.compiles;
            tasks.push_back(std::async(std::launch::async, [this, &knob] { list_values(knob); }));
        }
        for (auto& task : tasks) task.get();
    }

    void list_values(Knob& knob) const {
        auto result = compile_({gcc_flag_for(knob, "routetune-invalid-value")});
        auto values = result.accepted ? std::vector<std::string>{} : parse_gcc_valid_arguments(result.diagnostics);
        if (values.empty()) return;
        if (knob.type == KnobType::Int) knob.type = KnobType::Enum;  // -mstore-max: 128 256 512 none
        if ((knob.name == "-march" || knob.name == "-mtune") && !contains(values, "native")) values.push_back("native");
        if (knob.name == "-mtune" && !contains(values, "generic")) values.push_back("generic");
        knob.values = values;
        knob.bounded = true;
        if (!has_value(knob, knob.default_value)) knob.default_value.clear();
    }

    // The on and off forms of every switch, and round k of the k-th value of every enum, all
    // rounds compiled concurrently.
    void value_rounds() {
        std::vector<std::vector<Candidate>> rounds;
        for (const std::string form : {"on", "off"}) {
            rounds.emplace_back();
            for (std::size_t i = 0; i < knobs_.size(); ++i) {
                const Knob& knob = knobs_[i];
                bool switchable = knob.type == KnobType::Bool || (knob.type == KnobType::Enum && !knob.bounded);
                if (switchable && has_value(knob, form)) rounds.back().push_back({i, form});
            }
        }
        std::size_t longest = 0;
        for (const auto& knob : knobs_) longest = std::max(longest, knob.values.size());
        for (std::size_t k = 0; k < longest; ++k) {
            rounds.emplace_back();
            for (std::size_t i = 0; i < knobs_.size(); ++i) {
                const Knob& knob = knobs_[i];
                if (knob.type != KnobType::Enum || !knob.bounded || knob.name == "-march" || knob.name == "-mtune") continue;
                if (k < knob.values.size()) rounds.back().push_back({i, knob.values[k]});
            }
        }
        std::vector<std::size_t> compiles(rounds.size(), 0);
        std::vector<std::future<std::vector<Candidate>>> results;
        for (std::size_t r = 0; r < rounds.size(); ++r) {
            results.push_back(std::async(std::launch::async, [this, &rounds, &compiles, r] {
                return round(rounds[r], compiles[r]);
            }));
        }
        for (std::size_t r = 0; r < rounds.size(); ++r) {
            for (auto& bad : results[r].get()) {
                bool no_op_switch = bad.ignored && knobs_[bad.knob].type == KnobType::Bool;
                rejected_[bad.knob].insert(no_op_switch ? "*" : bad.value);
            }
            report.compiles += compiles[r];
        }
    }

    void int_bounds() {
        for (bool lower : {true, false}) {
            std::vector<Candidate> candidates;
            for (std::size_t i = 0; i < knobs_.size(); ++i) {
                const Knob& knob = knobs_[i];
                if (knob.type != KnobType::Int || !knob.bounded) continue;
                // INT_MAX is the option machinery's own limit, and using it as, say, a heap
                // size makes cc1 exhaust memory: the upper bound of unranged params is trusted.
                if (!lower && knob.max == std::numeric_limits<std::int32_t>::max()) continue;
                candidates.push_back({i, std::to_string(lower ? knob.min : knob.max)});
            }
            auto rejected = round(candidates);
            for (auto& bad : rejected) {
                Knob& knob = knobs_[bad.knob];
                ++report.rejected_values;
                (lower ? knob.min : knob.max) += lower ? 1 : -1;
                bad.value = std::to_string(lower ? knob.min : knob.max);
            }
            for (auto& bad : round(rejected)) rejected_[bad.knob].insert("*");
        }
    }

    void finish() {
        std::vector<Knob> kept;
        for (std::size_t i = 0; i < knobs_.size(); ++i) {
            Knob& knob = knobs_[i];
            bool unusable = rejected_[i].count("*") > 0 || (knob.type == KnobType::Int && knob.bounded && knob.min > knob.max);
            for (const auto& value : rejected_[i]) {
                auto at = std::find(knob.values.begin(), knob.values.end(), value);
                if (at == knob.values.end()) continue;
                knob.values.erase(at);
                ++report.rejected_values;
            }
            if (knob.type != KnobType::Int && knob.values.empty() && knob.bounded) unusable = true;
            if (unusable) {
                ++report.dropped_knobs;
                continue;
            }
            kept.push_back(std::move(knob));
        }
        knobs_ = std::move(kept);
    }

    ProbeReport report;

private:
    std::vector<Knob>& knobs_;
    const ProbeCompiler& compile_;
    std::vector<std::set<std::string>> rejected_;
};

}  // namespace

std::vector<FlagVerdict> probe_flags(const std::vector<std::string>& flags, const ProbeCompiler& compile,
                                     std::size_t& compiles) {
    std::vector<FlagVerdict> verdicts(flags.size(), FlagVerdict::Rejected);
    std::vector<std::size_t> indices(flags.size());
    for (std::size_t i = 0; i < indices.size(); ++i) indices[i] = i;
    compiles += probe_subset(flags, std::move(indices), compile, verdicts);
    return verdicts;
}

ProbeReport probe_gcc_knobs(std::vector<Knob>& knobs, const ProbeCompiler& compile) {
    // Rounds and bisection halves run on threads; at most one compile per hardware thread.
    std::counting_semaphore<> slots(std::max<std::ptrdiff_t>(2, std::thread::hardware_concurrency()));
    ProbeCompiler limited = [&](const std::vector<std::string>& flags) {
        slots.acquire();
        struct Release {
            std::counting_semaphore<>& slots;
            ~Release() { slots.release(); }
        } release{slots};
        return compile(flags);
    };
    Prober prober(knobs, limited);
    prober.listed_values();
    prober.value_rounds();
    prober.int_bounds();
    prober.finish();
    return prober.report;
}

}  // namespace routetune
