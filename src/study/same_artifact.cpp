// A twin's answer is copied whole (status, message, per-case results, timing, paired rounds, what its
// runs cost), so a report, a strategy, the confirmation's choice and its price read the same
// figures for both routes; only what the candidate did itself (its route, phase, build and
// artifact, when it started) stays its own.
#include "study/same_artifact.hpp"

#include "routetune/strategy.hpp"
#include "util/files.hpp"

namespace routetune {

bool measured_itself(const Evaluation& e) {
    if (!e.same_as.empty() || e.artifact_sha256.empty()) return false;
    switch (e.status) {
        case Status::Ok:
        case Status::Inaccurate:
        case Status::RunFailed:
        case Status::RunCrashed:
        case Status::RunTimeout: return true;
        default: return false;
    }
}

Evaluation same_as_twin(Evaluation built, const Evaluation& twin) {
    built.status = twin.status;
    built.message = twin.message;
    built.cases = twin.cases;
    built.timing = twin.timing;
    built.paired = twin.paired;
    built.run_first_s = twin.run_first_s;
    built.run_repeat_s = twin.run_repeat_s;
    built.same_as = measured_as(observe(twin, nullptr));
    built.finished_at = iso8601_utc_now();
    return built;
}

}  // namespace routetune
