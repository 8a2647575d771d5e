// The product fixes the fuzz runs of issue 9 led to (bench/fuzz/run.sh; each crashing input is
// also kept under bench/fuzz/corpus/ and replayed by `ctest -L fuzz`), as plain unit tests that
// name the rule each input broke.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "gpt/trtexec_cache.hpp"
#include "routetune/catalog.hpp"
#include "routetune/error.hpp"
#include "routetune/expression.hpp"
#include "spec/value_ranges.hpp"
#include "store/store_location.hpp"

namespace routetune {
namespace {

TEST(FuzzFindings, DurationsAreParsedWholeInTheirGrammar) {
    EXPECT_DOUBLE_EQ(parse_duration("90", "--lease", ranges::lease_s), 90);
    EXPECT_DOUBLE_EQ(parse_duration("1h30m", "--time-limit", ranges::time_limit_s), 5400);
    EXPECT_DOUBLE_EQ(parse_duration("2.5s", "--lease", ranges::lease_s), 2.5);
    // "1.2.3s" was 1.2 s (stod read a prefix); "92\0" was 92 s (a NUL taken for "no unit").
    for (const std::string& bad : std::vector<std::string>{"1.2.3s", std::string("92\0", 3), "", "s", ".", "1h30", "5x", "-5s", "1e3s", " 5"}) {
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

// A message must not carry the input's control bytes (they can rewrite a terminal).
bool clean(const std::string& message) {
    for (unsigned char c : message)
        if ((c < 0x20 && c != '\n') || c == 0x7f) return false;
    return true;
}

std::string usage_error_of(const std::function<void()>& action) {
    try {
        action();
    } catch (const UsageError& e) {
        return e.what();
    }
    return "(no error)";
}

TEST(FuzzFindings, AUrlPasswordWithSlashQuestionMarkOrAtIsHidden) {
    // bench/fuzz/corpus/store_location/password_with_slash: a '/' ended the userinfo early.
    EXPECT_EQ(redact_location("postgresql://user:pa/ss?@host/db"), "postgresql://user:***@host/db");
    EXPECT_EQ(redact_location("postgres://u:a@b@h:5432/d"), "postgres://u:***@h:5432/d");
    EXPECT_EQ(redact_location("postgresql://u:pw@h:5/d"), "postgresql://u:***@h:5/d");
    EXPECT_EQ(redact_location("postgresql://u@h:5432/d"), "postgresql://u@h:5432/d");
    // finding-store_location-9e6c26a7eeab and -9ab019419610: each cut, done first, removed the
    // other's delimiter ('?' of the query, '@' of the userinfo); both are now found on the
    // original text and hidden together.
    EXPECT_EQ(redact_location("postgres://a:x?y=1&password=p@h/d"), "postgres://a:***");  // errs on hiding
    EXPECT_EQ(redact_location("postgres://u:SECRET?c?p=r&password=wx@pg@loc"), "postgres://u:***");
    EXPECT_EQ(redact_location("postgres://u:p?q@h/db?password=S"), "postgres://u:***@h/db?password=***");
}

TEST(FuzzFindings, TheNegationHintEscapesTheKnobName) {
    // finding-route_expression-71da74be0021: "-fno-" + a name with \x04 was echoed raw.
    Catalog catalog;
    Knob flag;
    flag.name = "-funroll-loops";
    flag.type = KnobType::Bool;
    flag.values = {"on", "off"};
    flag.default_value = "off";
    flag.bounded = true;
    catalog.add(flag);
    std::string message = usage_error_of([&] { parse_expression("-fno-x\x04y=on", catalog, {}); });
    EXPECT_TRUE(clean(message)) << message;
    EXPECT_NE(message.find("so write -fx\\x04y=off"), std::string::npos) << message;
}

TEST(FuzzFindings, JsonParserMessagesInATuningCacheAreEscaped) {
    // finding-trtexec_cache-53001a7381e8: nlohmann's "last read: '...'" carried a raw DEL byte.
    std::string message = usage_error_of([] { parse_trtexec_cache("{\"r:tei\"\x7f: 1}\n", "cache.jsonl"); });
    EXPECT_NE(message.find("cache.jsonl:1: not a tuning cache header line"), std::string::npos) << message;
    EXPECT_TRUE(clean(message)) << message;
    EXPECT_NE(message.find("\\x7f"), std::string::npos) << message;
}

}  // namespace
}  // namespace routetune
