// Two looks: kJudgeRounds interleaved rounds of reference and candidate, and the bootstrap
// interval of the ratio of their medians. An interval below 1 refuses the removal at once;
// so does a failed run. When the interval reaches 1 but the point estimate is below 1 (the
// candidate looks slower, without confidence) kJudgeRounds more rounds are drawn and the
// interval of all samples decides. A removal stays, as before, unless it costs time with
// confidence; the second look only spends runs where a loss is plausible, so a real loss of
// about twice the noise is refused far more often than after one look (a dropped gain is
// expensive: the minimal route is slower for good), while a removal that costs nothing needs
// the second look about half the time.
#include "study/removal_judge.hpp"

#include "util/statistics.hpp"

namespace routetune {

bool slower_with_confidence(const DrawRounds& draw) {
    std::vector<double> reference, candidate;
    for (int look = 0; look < 2; ++look) {
        if (!draw(kJudgeRounds, reference, candidate) || reference.empty() || candidate.empty()) return true;
        RatioEstimate ratio = ratio_of_medians(reference, candidate);
        if (ratio.high < 1.0) return true;
        if (ratio.ratio >= 1.0) return false;
    }
    return false;
}

}  // namespace routetune
