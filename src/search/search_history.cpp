// Look-ups over the evaluations so far, and the confident-improvement test every strategy
// and the mixed phase two share: non-overlapping confidence intervals with a margin; and which
// measurement an observation's figures are (its own, or its byte-identical twin's).
#include "routetune/strategy.hpp"

namespace routetune {

std::string measured_as(const Observation& obs) {
    if (!obs.same_as.empty()) return obs.same_as;
    return obs.route.empty() ? "(default)" : obs.route.to_string();
}

const Observation* SearchHistory::find(const Route& route) const {
    for (auto it = observations.rbegin(); it != observations.rend(); ++it)
        if (it->route == route) return &*it;
    return nullptr;
}

const Observation* SearchHistory::default_observation() const { return find(Route{}); }

bool SearchHistory::beats(const Observation& obs, const Observation& reference) const {
    if (obs.status != Status::Ok || reference.status != Status::Ok) return false;
    return obs.ci_high_s < reference.ci_low_s / (1.0 + min_gain);
}

bool SearchHistory::beats_default(const Observation& obs) const {
    const Observation* reference = default_observation();
    return reference != nullptr && beats(obs, *reference);
}

}  // namespace routetune
