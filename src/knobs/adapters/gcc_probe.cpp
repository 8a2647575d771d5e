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
// valid for the current target mode (e.g. no i386 in 64-bit mode).
#include "knobs/adapters/gcc_probe.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <set>

#include "knobs/adapters/gcc_flags.hpp"
#include "knobs/adapters/gcc_help_parser.hpp"

namespace routetune {

namespace {

// The flags of batch that the quoted option of an "error:" line names: the flag itself, or,
// for a quoted `-name=` prefix, every flag starting with it. Lines quoting two options are
// about their combination and name nothing (except "did you mean", which quotes a suggestion).
std::vector<std::size_t> named_in_errors(const std::vector<std::string>& batch, const std::string& diagnostics) {
    std::vector<std::size_t> named;
    std::size_t start = 0;
    while (start < diagnostics.size()) {
        std::size_t end = diagnostics.find('\n', start);
        if (end == std::string::npos) end = diagnostics.size();
        std::string line = diagnostics.substr(start, end - start);
        start = end + 1;
        auto error = line.find("error:");
        if (error == std::string::npos) continue;
        auto open = line.find('\'', error);
        auto close = open == std::string::npos ? open : line.find('\'', open + 1);
        if (close == std::string::npos) continue;
        bool second_quote = line.find('\'', close + 1) != std::string::npos;
        if (second_quote && line.find("did you mean") == std::string::npos) continue;  // e.g. "X is incompatible with Y"
        std::string quoted = line.substr(open + 1, close - open - 1);
        for (std::size_t i = 0; i < batch.size(); ++i) {
            bool prefix = !quoted.empty() && quoted.back() == '=' && batch[i].starts_with(quoted);
            if (batch[i] == quoted || prefix) named.push_back(i);
        }
    }
    return named;
}

// Marks the flags of indices (into flags) that compile; failing flags named by the
// diagnostics are set aside at once, the rest of a failing batch is bisected.
void probe_subset(const std::vector<std::string>& flags, std::vector<std::size_t> indices,
                  const ProbeCompiler& compile, std::vector<bool>& accepted, std::size_t& compiles) {
    while (!indices.empty()) {
        std::vector<std::string> batch;
        for (auto index : indices) batch.push_back(flags[index]);
        ++compiles;
        auto result = compile(batch);
        if (result.accepted) {
            for (auto index : indices) accepted[index] = true;
            return;
        }
        if (indices.size() == 1) return;
        auto named = named_in_errors(batch, result.diagnostics);
        if (named.empty()) break;
        std::vector<std::size_t> rest;
        for (std::size_t i = 0; i < indices.size(); ++i) {
            if (std::find(named.begin(), named.end(), i) == named.end()) rest.push_back(indices[i]);
        }
        indices = std::move(rest);
    }
    if (indices.empty()) return;
    auto middle = indices.begin() + static_cast<std::ptrdiff_t>(indices.size() / 2);
    probe_subset(flags, std::vector<std::size_t>(indices.begin(), middle), compile, accepted, compiles);
    probe_subset(flags, std::vector<std::size_t>(middle, indices.end()), compile, accepted, compiles);
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

std::vector<bool> probe_flags(const std::vector<std::string>& flags, const ProbeCompiler& compile,
                              std::size_t& compiles) {
    std::vector<bool> accepted(flags.size(), false);
    std::vector<std::size_t> indices(flags.size());
    for (std::size_t i = 0; i < indices.size(); ++i) indices[i] = i;
    probe_subset(flags, std::move(indices), compile, accepted, compiles);
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
