// The order of a route's flags (flag_order.hpp): umbrella flags first, broadest first, so the
// route's own value of every knob an umbrella touches comes later and wins; within a rank the
// knob-name order; base flags first, a route knob replacing the base flag of the same knob.
#include <gtest/gtest.h>

#include "adapters/flag_order.hpp"
#include "adapters/gcc_flags.hpp"
#include "unit/routes_catalog.hpp"

namespace routetune {
namespace {

Catalog math_catalog() {
    Catalog catalog = fixture::small_catalog();
    for (const char* name : {"-fassociative-math", "-fsigned-zeros", "-ftrapping-math", "-funsafe-math-optimizations",
                             "-ffinite-math-only", "-fhonor-nans", "-mavx2", "-aaa-first-by-name"}) {
        catalog.add(fixture::bool_knob(name, "off"));
    }
    catalog.add(fixture::enum_knob("-mtune", {"generic", "native"}, "generic"));
    catalog.add(fixture::enum_knob("-ffp-model", {"precise", "fast", "strict"}, "precise"));
    return catalog;
}

TEST(FlagOrder, UmbrellasRankBroadestFirst) {
    EXPECT_EQ(umbrella_rank("-O"), 0);
    EXPECT_LT(umbrella_rank("-O"), umbrella_rank("-march"));
    EXPECT_LT(umbrella_rank("-march"), umbrella_rank("-mtune"));
    EXPECT_LT(umbrella_rank("-mtune"), umbrella_rank("-ffp-model"));
    EXPECT_LT(umbrella_rank("-ffp-model"), umbrella_rank("-ffast-math"));
    EXPECT_LT(umbrella_rank("-ffast-math"), umbrella_rank("-funsafe-math-optimizations"));
    EXPECT_EQ(umbrella_rank("-funsafe-math-optimizations"), umbrella_rank("-ffinite-math-only"));
    EXPECT_LT(umbrella_rank("-ffinite-math-only"), umbrella_rank_last);
    EXPECT_EQ(umbrella_rank("-fassociative-math"), umbrella_rank_last);
    EXPECT_EQ(umbrella_rank("-mavx2"), umbrella_rank_last);
}

TEST(FlagOrder, TheIssuesFastMathRouteEndsWithAssociativeMathOn) {
    // Knob-name order put -fno-fast-math last, and it resets associative math.
    Route route = Route::parse("-fassociative-math=on -ffast-math=off -fsigned-zeros=off -ftrapping-math=off");
    EXPECT_EQ(apply_gcc_route({"-O2"}, route, math_catalog()),
              (std::vector<std::string>{"-O2", "-fno-fast-math", "-fassociative-math", "-fno-signed-zeros",
                                        "-fno-trapping-math"}));
}

TEST(FlagOrder, EveryUmbrellaPrecedesTheKnobsItTouches) {
    Route route = Route::parse(
        "-aaa-first-by-name=on -fassociative-math=off -ffast-math=on -ffinite-math-only=on -ffp-model=fast "
        "-fhonor-nans=on -funsafe-math-optimizations=on -mavx2=off -march=native -mtune=generic -O=fast");
    EXPECT_EQ(apply_gcc_route({"-g"}, route, math_catalog()),
              (std::vector<std::string>{"-g", "-Ofast", "-march=native", "-mtune=generic", "-ffp-model=fast",
                                        "-ffast-math", "-ffinite-math-only", "-funsafe-math-optimizations",
                                        "-aaa-first-by-name", "-fno-associative-math", "-fhonor-nans", "-mno-avx2"}));
}

TEST(FlagOrder, BaseFlagsComeFirstAndARouteKnobReplacesItsBaseFlag) {
    Route route = Route::parse("-fassociative-math=on -ffast-math=off");
    EXPECT_EQ(apply_gcc_route({"-O2", "-ffast-math", "-fno-associative-math", "-Wall"}, route, math_catalog()),
              (std::vector<std::string>{"-O2", "-Wall", "-fno-fast-math", "-fassociative-math"}));
}

}  // namespace
}  // namespace routetune
