// The product fixes the fuzz runs of issue 9 led to (bench/fuzz/run.sh; each crashing input is
// also kept under bench/fuzz/corpus/ and replayed by `ctest -L fuzz`), as plain unit tests that
// name the rule each input broke.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "routetune/error.hpp"
#include "spec/value_ranges.hpp"

namespace routetune {
namespace {

TEST(FuzzFindings, DurationsAreParsedWholeInTheirGrammar) {
    EXPECT_DOUBLE_EQ(parse_duration("90", "--lease", ranges::lease_s), 90);
    EXPECT_DOUBLE_EQ(parse_duration("1h30m", "--time-limit", ranges::time_limit_s), 5400);
    EXPECT_DOUBLE_EQ(parse_duration("2.5s", "--lease", ranges::lease_s), 2.5);
    // "1.2.3s" was 1.2 s (stod read a prefix); "92\0" was 92 s (a NUL taken for "no unit").
    for (std::string bad : {"1.2.3s", std::string("92\0", 3), "", "s", ".", "1h30", "5x", "-5s", "1e3s", " 5"}) {
        try {
            parse_duration(bad, "--lease", ranges::lease_s);
            ADD_FAILURE() << "accepted '" << bad << "'";
        } catch (const UsageError& e) {
            EXPECT_NE(std::string(e.what()).find("is not a duration"), std::string::npos) << e.what();
        }
    }
}

TEST(FuzzFindings, DurationsAreCheckedAgainstTheirRange) {
    // A lease of 10^300 hours was accepted and overflowed the heartbeat's clock.
    std::string huge = std::string(300, '9') + "h";
    for (const std::string& bad : {huge, std::string("0.5s"), std::string("2d") }) {
        EXPECT_THROW(parse_duration(bad, "--lease", ranges::lease_s), UsageError) << bad;
    }
    try {
        parse_duration(huge, "--lease", ranges::lease_s);
    } catch (const UsageError& e) {
        std::string message = e.what();
        EXPECT_NE(message.find("at least 1 and at most 86400 s"), std::string::npos) << message;
        EXPECT_LT(message.size(), 300u) << "the text is cut, not echoed whole";
    }
    EXPECT_DOUBLE_EQ(parse_duration("0", "--time-limit", ranges::time_limit_s), 0);  // as time_limit_s = 0
}

}  // namespace
}  // namespace routetune
