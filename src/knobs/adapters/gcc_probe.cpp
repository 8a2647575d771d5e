// Probing in batches: GCC checks every command-line option on its own, so one compile with a
// few hundred candidate flags tells whether all of them are accepted. A failing batch is split
// in halves and each half compiled again, down to the single flags that fail alone; with f
// failing flags among n this costs about 2·f·log2(n) compiles instead of n. Options of which
// only the last occurrence counts (enum values, int bounds) go in rounds that hold at most one
// value per option. -march and -mtune are checked only for their last value, so their lists
// come from the compiler's own diagnostic for a bogus value, which names exactly the values
// valid for the current target mode (e.g. no i386 in 64-bit mode).
#include "knobs/adapters/gcc_probe.hpp"

#include <algorithm>
#include <set>

#include "knobs/adapters/gcc_flags.hpp"
#include "knobs/adapters/gcc_help_parser.hpp"

namespace routetune {

namespace {

void bisect(const std::vector<std::string>& flags, std::size_t begin, std::size_t end,
            const ProbeCompiler& compile, std::vector<bool>& accepted, std::size_t& compiles) {
    ++compiles;
    std::vector<std::string> batch(flags.begin() + static_cast<std::ptrdiff_t>(begin),
                                   flags.begin() + static_cast<std::ptrdiff_t>(end));
    if (compile(batch).accepted) {
        std::fill(accepted.begin() + static_cast<std::ptrdiff_t>(begin),
                  accepted.begin() + static_cast<std::ptrdiff_t>(end), true);
        return;
    }
    if (end - begin == 1) return;
    std::size_t middle = begin + (end - begin) / 2;
    bisect(flags, begin, middle, compile, accepted, compiles);
    bisect(flags, middle, end, compile, accepted, compiles);
}

struct Candidate {
    std::size_t knob;
    std::string value;
};

bool contains(const std::vector<std::string>& values, const std::string& value) {
    return std::find(values.begin(), values.end(), value) != values.end();
}

bool has_value(const Knob& knob, const std::string& value) { return contains(knob.values, value); }

bool listed_by_diagnostic(const Knob& knob) {
    if (knob.name == "-march" || knob.name == "-mtune") return true;
    return knob.has_tag("param") && knob.type == KnobType::Enum && !knob.bounded;
}

class Prober {
public:
    Prober(std::vector<Knob>& knobs, const ProbeCompiler& compile)
        : knobs_(knobs), compile_(compile), rejected_(knobs.size()) {}

    // Probes candidates in one batch; returns those rejected.
    std::vector<Candidate> round(const std::vector<Candidate>& candidates) {
        std::vector<std::string> flags;
        for (const auto& candidate : candidates) flags.push_back(gcc_flag_for(knobs_[candidate.knob], candidate.value));
        auto accepted = probe_flags(flags, compile_, report.compiles);
        std::vector<Candidate> rejected;
        for (std::size_t i = 0; i < candidates.size(); ++i) {
            if (!accepted[i]) rejected.push_back(candidates[i]);
        }
        return rejected;
    }

    void switches() {
        for (const std::string form : {"on", "off"}) {
            std::vector<Candidate> candidates;
            for (std::size_t i = 0; i < knobs_.size(); ++i) {
                const Knob& knob = knobs_[i];
                bool switchable = knob.type == KnobType::Bool || (knob.type == KnobType::Enum && !knob.bounded);
                if (switchable && has_value(knob, form)) candidates.push_back({i, form});
            }
            for (auto& bad : round(candidates)) rejected_[bad.knob].insert(bad.value);
        }
    }

    void listed_values() {
        for (auto& knob : knobs_) {
            if (!listed_by_diagnostic(knob)) continue;
            ++report.compiles;
            auto result = compile_({gcc_flag_for(knob, "routetune-invalid-value")});
            auto values = result.accepted ? std::vector<std::string>{} : parse_gcc_valid_arguments(result.diagnostics);
            if (values.empty()) continue;
            if ((knob.name == "-march" || knob.name == "-mtune") && !contains(values, "native")) {
                values.push_back("native");
            }
            if (knob.name == "-mtune" && !contains(values, "generic")) values.push_back("generic");
            knob.values = values;
            knob.bounded = true;
            if (!has_value(knob, knob.default_value)) knob.default_value.clear();
        }
    }

    void enum_values() {
        std::size_t longest = 0;
        for (const auto& knob : knobs_) longest = std::max(longest, knob.values.size());
        for (std::size_t k = 0; k < longest; ++k) {
            std::vector<Candidate> candidates;
            for (std::size_t i = 0; i < knobs_.size(); ++i) {
                const Knob& knob = knobs_[i];
                if (knob.type != KnobType::Enum || !knob.bounded || listed_by_diagnostic(knob)) continue;
                if (k < knob.values.size()) candidates.push_back({i, knob.values[k]});
            }
            for (auto& bad : round(candidates)) rejected_[bad.knob].insert(bad.value);
        }
    }

    void int_bounds() {
        for (bool lower : {true, false}) {
            std::vector<Candidate> candidates;
            for (std::size_t i = 0; i < knobs_.size(); ++i) {
                const Knob& knob = knobs_[i];
                if (knob.type != KnobType::Int || !knob.bounded) continue;
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

std::vector<bool> probe_flags(const std::vector<std::string>& flags, const ProbeCompiler& compile,
                              std::size_t& compiles) {
    std::vector<bool> accepted(flags.size(), false);
    if (!flags.empty()) bisect(flags, 0, flags.size(), compile, accepted, compiles);
    return accepted;
}

ProbeReport probe_gcc_knobs(std::vector<Knob>& knobs, const ProbeCompiler& compile) {
    Prober prober(knobs, compile);
    prober.switches();
    prober.listed_values();
    prober.enum_values();
    prober.int_bounds();
    prober.finish();
    return prober.report;
}

}  // namespace routetune
