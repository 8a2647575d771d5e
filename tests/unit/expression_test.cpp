#include "routetune/expression.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "routetune/error.hpp"
#include "unit/routes_catalog.hpp"

using namespace routetune;

namespace {

const Catalog& catalog() {
    static const Catalog c = fixture::small_catalog();
    return c;
}

std::vector<std::string> values_of(const Axis& axis) {
    std::vector<std::string> values;
    for (std::uint64_t i = 0; i < axis.values.size(); ++i) values.push_back(axis.values.at(i));
    return values;
}

const Axis& axis_named(const Expression& e, const std::string& name) {
    for (const auto& axis : e.axes) {
        if (axis.knob == name) return axis;
    }
    throw std::runtime_error("no axis " + name);
}

std::vector<std::string> knobs_of(const Expression& e) {
    std::vector<std::string> names;
    for (const auto& axis : e.axes) names.push_back(axis.knob);
    return names;
}

std::string error_of(const std::string& text, bool include_unsafe = false) {
    try {
        ExpressionOptions options;
        options.include_unsafe = include_unsafe;
        options.source = "--routes";
        parse_expression(text, catalog(), options);
    } catch (const UsageError& e) {
        std::string message = e.what();
        EXPECT_EQ(message.rfind("--routes: column ", 0), 0u) << "no position: " << message;
        EXPECT_NE(message.find(": token '"), std::string::npos) << "no token: " << message;
        return message;
    }
    return "no error";
}

void expect_has(const std::string& message, std::initializer_list<const char*> parts) {
    for (const char* part : parts) EXPECT_NE(message.find(part), std::string::npos) << "'" << part << "' not in: " << message;
}

using Values = std::vector<std::string>;

}  // namespace

TEST(ValueList, ExplicitList) {
    auto list = ValueList::of({"a", "b", "c"});
    EXPECT_EQ(list.size(), 3u);
    EXPECT_EQ(list.at(1), "b");
    EXPECT_TRUE(list.contains("c"));
    EXPECT_FALSE(list.contains("d"));
}

TEST(ValueList, AdditiveRangeIsArithmetic) {
    auto range = ValueList::additive(-3, 10, 4);
    EXPECT_EQ(range.size(), 4u);
    EXPECT_EQ(range.at(0), "-3");
    EXPECT_EQ(range.at(3), "9");
    EXPECT_TRUE(range.contains("5"));
    EXPECT_FALSE(range.contains("6"));
    EXPECT_FALSE(range.contains("13"));
    EXPECT_FALSE(range.contains("x"));
    auto huge = ValueList::additive(0, 4000000000000000000, 1);
    EXPECT_EQ(huge.size(), 4000000000000000001u);
    EXPECT_EQ(huge.at(3999999999999999999u), "3999999999999999999");
    EXPECT_TRUE(huge.contains("123456789012345"));
}

TEST(ValueList, MultiplicativeRange) {
    auto range = ValueList::multiplicative(3, 100, 2);
    EXPECT_EQ(range.size(), 6u);
    EXPECT_EQ(range.at(5), "96");
    EXPECT_TRUE(range.contains("24"));
    EXPECT_FALSE(range.contains("25"));
    EXPECT_FALSE(range.contains("192"));
    EXPECT_FALSE(range.contains("1"));
    EXPECT_EQ(ValueList::multiplicative(1, INT64_MAX, 2).size(), 63u);
    EXPECT_THROW(ValueList::multiplicative(0, 8, 2), UsageError);
}

TEST(Expression, FixedListAndSorting) {
    auto e = parse_expression("-march=native -O=[2|3] -funroll-loops=[on|off]", catalog());
    EXPECT_EQ(knobs_of(e), (Values{"-O", "-funroll-loops", "-march"}));
    EXPECT_EQ(values_of(axis_named(e, "-O")), (Values{"2", "3"}));
    EXPECT_TRUE(axis_named(e, "-march").fixed());
    EXPECT_EQ(axis_named(e, "-O").default_value, "2");
    EXPECT_EQ(axis_named(e, "-march").default_value, "x86-64");
    EXPECT_EQ(e.text, "-march=native -O=[2|3] -funroll-loops=[on|off]");
}

TEST(Expression, WhitespaceInsideBracketsIsAllowed) {
    auto e = parse_expression("  -O=[ 2 |\t3 | s ]   -funroll-loops=on ", catalog());
    EXPECT_EQ(values_of(axis_named(e, "-O")), (Values{"2", "3", "s"}));
    EXPECT_EQ(e.text, "-O=[2|3|s] -funroll-loops=on");
}

TEST(Expression, IntegerRanges) {
    auto e = parse_expression("-param:max-unroll-times=[2..10:+4]", catalog());
    EXPECT_EQ(values_of(e.axes[0]), (Values{"2", "6", "10"}));
    e = parse_expression("-param:max-unroll-times=[1..64:*4]", catalog());
    EXPECT_EQ(values_of(e.axes[0]), (Values{"1", "4", "16", "64"}));
    e = parse_expression("-param:max-unroll-times=[5..9]", catalog());
    EXPECT_EQ(values_of(e.axes[0]), (Values{"5", "6", "7", "8", "9"}));
    e = parse_expression("-param:huge=[-5..1000000000000]", catalog());
    EXPECT_EQ(e.axes[0].values.size(), 1000000000006u);
}

TEST(Expression, IntegerValuesAreCanonical) {
    auto e = parse_expression("-param:max-unroll-times=[08|16]", catalog());
    EXPECT_EQ(values_of(e.axes[0]), (Values{"8", "16"}));
    expect_has(error_of("-param:max-unroll-times=[8|08]"), {"duplicate value '08'"});
}

TEST(Expression, StarTakesEveryAllowedValue) {
    auto e = parse_expression("-O=* -funroll-loops=* -param:max-unroll-times=*", catalog());
    EXPECT_EQ(values_of(axis_named(e, "-O")), (Values{"0", "1", "2", "3", "s", "fast", "g", "z"}));
    EXPECT_EQ(values_of(axis_named(e, "-funroll-loops")), (Values{"on", "off"}));
    EXPECT_EQ(axis_named(e, "-param:max-unroll-times").values.size(), 64u);
    EXPECT_EQ(axis_named(e, "-param:max-unroll-times").values.at(63), "64");
}

TEST(Expression, TildeTakesRepresentativeValues) {
    auto e = parse_expression("-O=~ -funroll-loops=~ -march=~ -param:max-unroll-times=~ -param:nodefault=~", catalog());
    EXPECT_EQ(axis_named(e, "-O").values.size(), 8u);
    EXPECT_EQ(values_of(axis_named(e, "-funroll-loops")), (Values{"on", "off"}));
    EXPECT_EQ(values_of(axis_named(e, "-march")), (Values{"x86-64", "native"}));
    // default 8 in 1..64: 2, 4, 8, 16, 32 and the bounds 1, 64
    EXPECT_EQ(values_of(axis_named(e, "-param:max-unroll-times")), (Values{"1", "2", "4", "8", "16", "32", "64"}));
    // no default in 0..100: the bounds and the quartiles
    EXPECT_EQ(values_of(axis_named(e, "-param:nodefault")), (Values{"0", "25", "50", "75", "100"}));
}

TEST(Expression, TildeClampsToTheBounds) {
    Catalog c;
    c.add(fixture::int_knob("-param:a", 10, 20, "16"));
    c.add(fixture::int_knob("-param:b", 0, 0, "6", false));
    auto e = parse_expression("-param:a=~ -param:b=~", c);
    EXPECT_EQ(values_of(axis_named(e, "-param:a")), (Values{"10", "16", "20"}));
    EXPECT_EQ(values_of(axis_named(e, "-param:b")), (Values{"1", "3", "6", "12", "24"}));
}

// GCC prints 2147483647 for a param without a real limit: `~` takes 16 × the default there
// (docs/route-syntax.md has the measurements), never INT_MAX itself.
TEST(Expression, TildeTakesSixteenTimesTheDefaultForAnUnlimitedBound) {
    Catalog c;
    c.add(fixture::int_knob("-param:early-inlining-insns", 0, 2147483647, "6"));
    c.add(fixture::int_knob("-param:zero-default", 0, 2147483647, "0"));
    c.add(fixture::int_knob("-param:no-default", 1, 2147483647, ""));
    c.add(fixture::int_knob("-param:large-default", 0, 2147483647, "500000000"));
    c.add(fixture::int_knob("-param:below-the-limit", 0, 2147483646, "6"));
    auto e = parse_expression("-param:*=~", c);
    EXPECT_EQ(values_of(axis_named(e, "-param:early-inlining-insns")), (Values{"0", "1", "3", "6", "12", "24", "96"}));
    EXPECT_EQ(values_of(axis_named(e, "-param:zero-default")), (Values{"0", "16"}));
    EXPECT_EQ(values_of(axis_named(e, "-param:no-default")), (Values{"1", "2", "4", "16"}));
    EXPECT_EQ(values_of(axis_named(e, "-param:large-default")),
              (Values{"0", "125000000", "250000000", "500000000", "1000000000", "2000000000", "2147483647"}));
    EXPECT_EQ(values_of(axis_named(e, "-param:below-the-limit")),
              (Values{"0", "1", "3", "6", "12", "24", "2147483646"})) << "an ordinary bound stays a value";
}

TEST(Expression, GlobsMatchKnobNamesAndSkipUnfittingKnobs) {
    auto e = parse_expression("-f*=~", catalog());
    EXPECT_EQ(knobs_of(e), (Values{"-fomit-frame-pointer", "-funroll-loops"}));
    e = parse_expression("-param:*=*", catalog());
    EXPECT_EQ(knobs_of(e), (Values{"-param:max-unroll-times", "-param:nodefault"}));
    e = parse_expression("-?=3", catalog());
    EXPECT_EQ(knobs_of(e), (Values{"-O"}));
    e = parse_expression("*=~", catalog());
    EXPECT_EQ(knobs_of(e), (Values{"-O", "-fomit-frame-pointer", "-funroll-loops", "-march", "-param:max-unroll-times",
                                   "-param:nodefault"}));
}

TEST(Expression, UnsafeKnobsOnlyExplicitlyOrWithIncludeUnsafe) {
    auto e = parse_expression("-f*=on", catalog());
    EXPECT_EQ(knobs_of(e), (Values{"-fomit-frame-pointer", "-funroll-loops"}));
    ExpressionOptions options;
    options.include_unsafe = true;
    e = parse_expression("-f*=on", catalog(), options);
    EXPECT_EQ(knobs_of(e), (Values{"-ffast-math", "-fomit-frame-pointer", "-funroll-loops"}));
    e = parse_expression("-ffast-math=[on|off]", catalog());
    EXPECT_EQ(knobs_of(e), (Values{"-ffast-math"}));
    expect_has(error_of("-ffast-m*=on"), {"matches no knob", "1 unsafe knobs match", "--include-unsafe"});
}

TEST(Expression, ExplicitKnobsOverrideGlobsInAnyOrder) {
    auto e = parse_expression("-funroll-loops=on -f*=[on|off]", catalog());
    EXPECT_EQ(values_of(axis_named(e, "-funroll-loops")), (Values{"on"}));
    EXPECT_EQ(values_of(axis_named(e, "-fomit-frame-pointer")), (Values{"on", "off"}));
    e = parse_expression("-f*=[on|off] -funroll-loops=off", catalog());
    EXPECT_EQ(values_of(axis_named(e, "-funroll-loops")), (Values{"off"}));
    e = parse_expression("-f*=[on|off] -fu*=on", catalog());
    EXPECT_EQ(values_of(axis_named(e, "-funroll-loops")), (Values{"on"}));
}

TEST(Expression, EmptyExpressionHasNoAxes) {
    EXPECT_TRUE(parse_expression("", catalog()).axes.empty());
    EXPECT_TRUE(parse_expression("   ", catalog()).axes.empty());
}

TEST(ExpressionErrors, EmptyAndDuplicateValues) {
    expect_has(error_of("-O=3 -funroll-loops=[on||off]"), {"--routes: column 6", "'-funroll-loops=[on||off]'", "empty value"});
    expect_has(error_of("-O=[2|3|]"), {"column 1", "'-O=[2|3|]'", "empty value"});
    expect_has(error_of("-O=[]"), {"'-O=[]'", "empty value list"});
    expect_has(error_of("-O="), {"'-O='", "empty value"});
    expect_has(error_of("  -O=[2|3|2]"), {"column 3", "'-O=[2|3|2]'", "duplicate value '2'"});
}

TEST(ExpressionErrors, UnknownKnobNamesClosest) {
    expect_has(error_of("-O=2 -funroll-loop=on"), {"column 6", "'-funroll-loop=on'", "unknown knob '-funroll-loop'",
                                                   "closest: -funroll-loops"});
}

TEST(ExpressionErrors, ValueOutsideTheAllowedSet) {
    expect_has(error_of("-O=[2|4]"), {"'-O=[2|4]'", "value '4' is not allowed for -O", "0|1|2|3|s|fast|g|z"});
    expect_has(error_of("-funroll-loops=yes"), {"'-funroll-loops=yes'", "on|off"});
    expect_has(error_of("-param:max-unroll-times=[0..8]"), {"'-param:max-unroll-times=[0..8]'", "outside the bounds", "1..64"});
    expect_has(error_of("-param:max-unroll-times=65"), {"1..64"});
    expect_has(error_of("-O=[1..3]"), {"'-O=[1..3]'", "needs an int knob"});
}

TEST(ExpressionErrors, StarOnUnboundedKnob) {
    expect_has(error_of("-march=*"), {"'-march=*'", "'*' needs a bounded knob"});
    expect_has(error_of("-param:huge=*"), {"'-param:huge=*'", "'*' needs a bounded knob", "any integer"});
    expect_has(error_of("-param:huge=~"), {"'-param:huge=~'", "neither"});
}

TEST(ExpressionErrors, TextOutsideBracketsAndUnbalancedBrackets) {
    expect_has(error_of("-O=[2|3]x"), {"column 1", "'-O=[2|3]x'", "text outside brackets"});
    expect_has(error_of("-O=x[2|3]"), {"'-O=x[2|3]'", "text outside brackets"});
    expect_has(error_of("-O=2|3"), {"'-O=2|3'", "needs brackets"});
    expect_has(error_of("-O=3 -funroll-loops=[on|off"), {"column 6", "'-funroll-loops=[on|off'", "unbalanced '['"});
    expect_has(error_of("-O=3]"), {"column 1", "unbalanced ']'"});
    expect_has(error_of("-O=[[2]]"), {"nested brackets"});
}

TEST(ExpressionErrors, MalformedRanges) {
    expect_has(error_of("-param:max-unroll-times=[1..x]"), {"malformed integer range", "[lo..hi:+step]"});
    expect_has(error_of("-param:max-unroll-times=[1..8:/2]"), {"malformed range step"});
    expect_has(error_of("-param:max-unroll-times=[8..1]"), {"empty range"});
    expect_has(error_of("-param:max-unroll-times=[1..8:+0]"), {"step must be >= 1"});
    expect_has(error_of("-param:max-unroll-times=[1..8:*1]"), {"factor >= 2"});
}

TEST(ExpressionErrors, RangeTooLargeToCount) {
    Catalog c;
    c.add(fixture::int_knob("-param:all", INT64_MIN, INT64_MAX, "0"));
    try {
        parse_expression("-param:all=*", c);
        FAIL() << "no error";
    } catch (const UsageError& e) {
        expect_has(e.what(), {"'-param:all=*'", "too many values"});
    }
}

TEST(ExpressionErrors, KnobGivenTwiceAndBadTokens) {
    expect_has(error_of("-O=2 -funroll-loops=on -O=[2|3]"), {"column 24", "'-O=[2|3]'", "given twice"});
    expect_has(error_of("-O=2 -funroll-loops"), {"column 6", "'-funroll-loops'", "expected NAME=VALUE"});
    expect_has(error_of("O=2"), {"'O=2'", "not a knob name"});
}

TEST(ExpressionErrors, AControlCharacterInAValueIsRefusedEscaped) {
    expect_has(error_of(std::string("-O=[2|3\x01]")), {"control character", "\\x01"});
    expect_has(error_of(std::string("-march=native\x7f")), {"control character", "\\x7f"});
}

TEST(ExpressionErrors, GlobMatchingNothing) {
    expect_has(error_of("-fnothing*=on"), {"column 1", "'-fnothing*=on'", "glob '-fnothing*' matches no knob"});
    expect_has(error_of("-param:max*=[70..80]"), {"'-param:max*=[70..80]'", "matches 1 knobs but none takes", "outside the bounds"});
}

class ExpressionFile : public ::testing::Test {
protected:
    std::filesystem::path write(const std::string& content) {
        auto path = std::filesystem::temp_directory_path() /
                    ("routetune_expr_" + std::to_string(::getpid()) + "_" + std::to_string(counter_++) + ".txt");
        std::ofstream(path) << content;
        files_.push_back(path);
        return path;
    }
    void TearDown() override {
        for (const auto& f : files_) std::filesystem::remove(f);
    }
    std::vector<std::filesystem::path> files_;
    int counter_ = 0;
};

TEST_F(ExpressionFile, TokensOverLinesCommentsAndBracketsSpanningLines) {
    auto path = write("# tuning of the loop knobs\n-O=[2|3]   # levels\n-funroll-loops=on\n-param:max-unroll-times=[\n  4 |\n  # comment in a list\n  8 |\n 16 ]\n");
    auto e = parse_expression_file(path, catalog());
    EXPECT_EQ(knobs_of(e), (Values{"-O", "-funroll-loops", "-param:max-unroll-times"}));
    EXPECT_EQ(values_of(axis_named(e, "-param:max-unroll-times")), (Values{"4", "8", "16"}));
    EXPECT_EQ(e.text, "-O=[2|3] -funroll-loops=on -param:max-unroll-times=[4|8|16]");
}

TEST_F(ExpressionFile, ErrorsNameFileAndLine) {
    auto path = write("-O=[2|3]\n\n# fine so far\n-funroll-loops=[on||off]\n");
    try {
        parse_expression_file(path, catalog());
        FAIL() << "no error";
    } catch (const UsageError& e) {
        expect_has(e.what(), {(path.string() + ":4").c_str(), "'-funroll-loops=[on||off]'", "empty value"});
    }
    auto unbalanced = write("-O=3\n-funroll-loops=[on|\noff\n");
    try {
        parse_expression_file(unbalanced, catalog());
        FAIL() << "no error";
    } catch (const UsageError& e) {
        expect_has(e.what(), {(unbalanced.string() + ":2").c_str(), "unbalanced '['", "end of the file"});
    }
}

TEST_F(ExpressionFile, MissingFileIsAUsageError) {
    expect_has([] {
        try {
            parse_expression_file("/nonexistent/routes.txt", catalog());
        } catch (const UsageError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    }(), {"cannot read routes file '/nonexistent/routes.txt'"});
}
