// Look-ups over the evaluations so far, and the confident-improvement test every strategy
// and the mixed phase two share: non-overlapping confidence intervals with a margin; and which
// measurement an observation's figures are (its own, or its byte-identical twin's). An
// evaluation paired with the default is observed through its paired speedup s (interval
// [lo, hi]) as the time D / s with interval [D / hi, D / lo], D the default's median: every
// strategy that ranks or models times then ranks and models the paired figures, and the test
// against the default is lo > 1 + min_gain, since the pairs already hold the default's noise.
#include "routetune/strategy.hpp"

namespace routetune {

Observation pending_observation(const Route& route) {
    Observation obs;
    obs.route = route;
    obs.status = Status::Pending;
    return obs;
}

std::string measured_as(const Observation& obs) {
    if (!obs.same_as.empty()) return obs.same_as;
    return obs.route.empty() ? "(default)" : obs.route.to_string();
}

Observation observe(const Evaluation& e, const Evaluation* default_evaluation) {
    Observation obs{e.route, e.status, e.timing.median_s, e.timing.ci_low_s, e.timing.ci_high_s, e.same_as};
    if (default_evaluation == nullptr || !e.paired.has_pairs()) return obs;
    std::optional<SpeedupEstimate> speedup = speedup_against_default(e, *default_evaluation);
    if (!speedup || !speedup->paired || !(speedup->ci_low > 0)) return obs;
    double reference = default_evaluation->timing.median_s;
    obs.median_s = reference / speedup->speedup;
    obs.ci_low_s = reference / speedup->ci_high;
    obs.ci_high_s = reference / speedup->ci_low;
    obs.paired = true;
    return obs;
}

const Observation* SearchHistory::find(const Route& route) const {
    for (auto it = observations.rbegin(); it != observations.rend(); ++it)
        if (it->route == route) return &*it;
    return nullptr;
}

const Observation* SearchHistory::default_observation() const { return find(Route{}); }

bool SearchHistory::beats(const Observation& obs, const Observation& reference) const {
    if (obs.status != Status::Ok || reference.status != Status::Ok) return false;
    if (obs.paired && reference.route.empty()) return obs.ci_high_s < reference.median_s / (1.0 + min_gain);
    return obs.ci_high_s < reference.ci_low_s / (1.0 + min_gain);
}

bool SearchHistory::beats_default(const Observation& obs) const {
    const Observation* reference = default_observation();
    return reference != nullptr && beats(obs, *reference);
}

}  // namespace routetune
