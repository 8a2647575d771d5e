// Looks: kJudgeRounds interleaved rounds of reference and candidate, and the bootstrap
// interval of the ratio of their medians. An interval below 1 refuses the removal at once;
// so does a failed run. When the interval reaches 1 but the point estimate is below 1 (the
// candidate looks slower, without confidence) kJudgeRounds more rounds are drawn and the
// interval of all samples decides, up to kJudgeLooks looks; a point estimate of 1 or more
// accepts the removal. A removal stays, as before, unless it costs time with confidence; the
// further looks spend runs only where a loss is plausible, so a real loss of one or two noise
// sd is refused far more often than after one look (a dropped gain is expensive: the minimal
// route is slower for good), while a removal that costs nothing stops at the first look about
// half the time. The price is a higher rate of refused removals that cost nothing (several
// looks, each at 2.5%), which keeps a change that does not matter: cheap.
#include "study/removal_judge.hpp"

#include "util/statistics.hpp"

namespace routetune {

bool slower_with_confidence(const DrawRounds& draw) {
    std::vector<double> reference, candidate;
    for (int look = 0; look < kJudgeLooks; ++look) {
        if (!draw(kJudgeRounds, reference, candidate) || reference.empty() || candidate.empty()) return true;
        RatioEstimate ratio = ratio_of_medians(reference, candidate);
        if (ratio.high < 1.0) return true;
        if (ratio.ratio >= 1.0) return false;
    }
    return false;
}

}  // namespace routetune
