// Output formats, loss metrics and case checks with exact, hand-computed values.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "eval/accuracy.hpp"
#include "routetune/error.hpp"

namespace routetune {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

template <typename T>
std::string raw_bytes(std::initializer_list<T> values) {
    std::string bytes;
    for (T value : values) {
        char item[sizeof(T)];
        std::memcpy(item, &value, sizeof(T));  // the test host is little-endian (x86-64, arm64)
        bytes.append(item, sizeof(T));
    }
    return bytes;
}

/// A .npy file as numpy writes it: magic, version, header length, dict padded to 64 bytes.
std::string npy(const std::string& descr, const std::string& shape, const std::string& data, int version = 1,
                bool fortran = false) {
    std::string header = "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") +
                         ", 'shape': " + shape + ", }";
    std::size_t prefix = version == 1 ? 10 : 12;
    while ((prefix + header.size() + 1) % 64 != 0) header += ' ';
    header += '\n';
    std::string bytes("\x93NUMPY", 6);
    bytes += static_cast<char>(version);
    bytes += '\0';
    std::size_t length = header.size();
    bytes += static_cast<char>(length & 0xff);
    bytes += static_cast<char>((length >> 8) & 0xff);
    if (version != 1) bytes += std::string(2, '\0');
    return bytes + header + data;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(ReadText, NumbersWithSeparatorsAndSpecialValues) {
    NumericOutput output = read_output("1 2.5,-3\n\t+4 1e3; nan inf -inf", OutputFormat::Text);
    ASSERT_TRUE(output.ok) << output.message;
    ASSERT_EQ(output.values.size(), 8u);
    EXPECT_EQ(output.values[0], 1);
    EXPECT_EQ(output.values[1], 2.5);
    EXPECT_EQ(output.values[2], -3);
    EXPECT_EQ(output.values[3], 4);
    EXPECT_EQ(output.values[4], 1000);
    EXPECT_TRUE(std::isnan(output.values[5]));
    EXPECT_EQ(output.values[6], kInf);
    EXPECT_EQ(output.values[7], -kInf);
    EXPECT_TRUE(output.shape.empty());
}

TEST(ReadText, NumpyStyleBracketsAndTrailingDots) {
    NumericOutput output = read_output("[[1. 2.]\n [3. 4.5]]\n", OutputFormat::Text);
    ASSERT_TRUE(output.ok) << output.message;
    EXPECT_EQ(output.values, (std::vector<double>{1, 2, 3, 4.5}));
}

TEST(ReadText, EmptyIsNoNumbers) {
    NumericOutput output = read_output(" \n", OutputFormat::Text);
    EXPECT_TRUE(output.ok);
    EXPECT_TRUE(output.values.empty());
}

TEST(ReadText, NonNumberIsMalformedWithPosition) {
    NumericOutput output = read_output("1 2 abc 4", OutputFormat::Text);
    EXPECT_FALSE(output.ok);
    EXPECT_TRUE(contains(output.message, "'abc'")) << output.message;
    EXPECT_TRUE(contains(output.message, "byte 4")) << output.message;
    EXPECT_FALSE(read_output("1.5x", OutputFormat::Text).ok);
}

TEST(ReadRaw, F32F64I32) {
    NumericOutput f32 = read_output(raw_bytes<float>({1.5f, -2.0f}), OutputFormat::F32);
    ASSERT_TRUE(f32.ok);
    EXPECT_EQ(f32.values, (std::vector<double>{1.5, -2.0}));
    NumericOutput f64 = read_output(raw_bytes<double>({0.1, 1e300}), OutputFormat::F64);
    ASSERT_TRUE(f64.ok);
    EXPECT_EQ(f64.values, (std::vector<double>{0.1, 1e300}));
    NumericOutput i32 = read_output(raw_bytes<std::int32_t>({-5, 2147483647}), OutputFormat::I32);
    ASSERT_TRUE(i32.ok);
    EXPECT_EQ(i32.values, (std::vector<double>{-5, 2147483647}));
}

TEST(ReadRaw, LengthMustBeAMultiple) {
    NumericOutput output = read_output(std::string(7, '\0'), OutputFormat::F32);
    EXPECT_FALSE(output.ok);
    EXPECT_TRUE(contains(output.message, "7 bytes")) << output.message;
    EXPECT_TRUE(contains(output.message, "multiple of 4")) << output.message;
    EXPECT_FALSE(read_output(std::string(12, '\0'), OutputFormat::F64).ok);
}

TEST(ReadNpy, Version1Float32Matrix) {
    NumericOutput output = read_output(npy("<f4", "(2, 3)", raw_bytes<float>({1, 2, 3, 4, 5, 6.5f})), OutputFormat::Npy);
    ASSERT_TRUE(output.ok) << output.message;
    EXPECT_EQ(output.values, (std::vector<double>{1, 2, 3, 4, 5, 6.5}));
    EXPECT_EQ(output.shape, (std::vector<std::size_t>{2, 3}));
}

TEST(ReadNpy, Versions2And3AndIntegerDtypes) {
    NumericOutput f8 = read_output(npy("<f8", "(2,)", raw_bytes<double>({0.25, -1}), 2), OutputFormat::Npy);
    ASSERT_TRUE(f8.ok) << f8.message;
    EXPECT_EQ(f8.values, (std::vector<double>{0.25, -1}));
    NumericOutput i8 = read_output(npy("<i8", "(2,)", raw_bytes<std::int64_t>({-7, 1LL << 40}), 3), OutputFormat::Npy);
    ASSERT_TRUE(i8.ok) << i8.message;
    EXPECT_EQ(i8.values, (std::vector<double>{-7, 1099511627776.0}));
    NumericOutput i4 = read_output(npy("<i4", "(1,)", raw_bytes<std::int32_t>({-3})), OutputFormat::Npy);
    EXPECT_EQ(i4.values, (std::vector<double>{-3}));
    NumericOutput u1 = read_output(npy("|u1", "(3,)", std::string("\x00\x7f\xff", 3)), OutputFormat::Npy);
    EXPECT_EQ(u1.values, (std::vector<double>{0, 127, 255}));
    NumericOutput b1 = read_output(npy("|b1", "(2,)", std::string("\x01\x00", 2)), OutputFormat::Npy);
    EXPECT_EQ(b1.values, (std::vector<double>{1, 0}));
    NumericOutput f2 = read_output(npy("<f2", "(3,)", raw_bytes<std::uint16_t>({0x3c00, 0xc000, 0x7bff})), OutputFormat::Npy);
    EXPECT_EQ(f2.values, (std::vector<double>{1, -2, 65504}));
}

TEST(ReadNpy, ScalarShape) {
    NumericOutput output = read_output(npy("<f8", "()", raw_bytes<double>({3.5})), OutputFormat::Npy);
    ASSERT_TRUE(output.ok) << output.message;
    EXPECT_EQ(output.values, (std::vector<double>{3.5}));
    EXPECT_TRUE(output.shape.empty());
}

TEST(ReadNpy, RejectsFortranOrderMatrix) {
    NumericOutput output =
        read_output(npy("<f4", "(2, 2)", raw_bytes<float>({1, 2, 3, 4}), 1, true), OutputFormat::Npy);
    EXPECT_FALSE(output.ok);
    EXPECT_TRUE(contains(output.message, "Fortran")) << output.message;
    EXPECT_TRUE(read_output(npy("<f4", "(2,)", raw_bytes<float>({1, 2}), 1, true), OutputFormat::Npy).ok);
}

TEST(ReadNpy, RejectsBigEndian) {
    NumericOutput output = read_output(npy(">f4", "(1,)", std::string(4, '\0')), OutputFormat::Npy);
    EXPECT_FALSE(output.ok);
    EXPECT_TRUE(contains(output.message, "big-endian")) << output.message;
}

TEST(ReadNpy, RejectsUnsupportedDtypeBadMagicAndWrongSize) {
    NumericOutput complex = read_output(npy("<c8", "(1,)", std::string(8, '\0')), OutputFormat::Npy);
    EXPECT_FALSE(complex.ok);
    EXPECT_TRUE(contains(complex.message, "unsupported dtype")) << complex.message;
    NumericOutput magic = read_output("1 2 3 4 5 6 7 8 9", OutputFormat::Npy);
    EXPECT_FALSE(magic.ok);
    EXPECT_TRUE(contains(magic.message, "magic")) << magic.message;
    NumericOutput size = read_output(npy("<f4", "(3,)", raw_bytes<float>({1, 2})), OutputFormat::Npy);
    EXPECT_FALSE(size.ok);
    EXPECT_TRUE(contains(size.message, "needs 12 data bytes, found 8")) << size.message;
    EXPECT_FALSE(read_output(std::string("\x93NUMPY\x01\x00\xff\x00{", 11), OutputFormat::Npy).ok);
}

TEST(OutputReader, TrtexecJsonIsEveryTensorsValuesInFileOrder) {
    NumericOutput output = read_output(R"([{"name": "a", "dimensions": "2", "values": [1.5, -2]},
                                           {"name": "b", "dimensions": "1", "values": [0.25]}])",
                                       OutputFormat::TrtexecJson);
    ASSERT_TRUE(output.ok) << output.message;
    EXPECT_EQ(output.values, (std::vector<double>{1.5, -2.0, 0.25}));
    NumericOutput bad = read_output("[{\"name\": \"a\"", OutputFormat::TrtexecJson);
    EXPECT_FALSE(bad.ok);
    EXPECT_TRUE(contains(bad.message, "trtexec output file")) << bad.message;
    EXPECT_FALSE(read_output("[{\"name\": \"a\"}]", OutputFormat::TrtexecJson).ok);
}

TEST(FormatNames, RoundTrip) {
    for (const char* name : {"text", "f32", "f64", "i32", "npy", "trtexec-json"})
        EXPECT_EQ(to_string(*output_format_from_string(name)), name);
    EXPECT_FALSE(output_format_from_string("csv").has_value());
    for (const char* name : {"exact", "l0", "l1", "l2", "linf", "rel_l2", "cos"})
        EXPECT_EQ(to_string(*metric_from_string(name)), name);
    EXPECT_FALSE(metric_from_string("mse").has_value());
}

// actual {1, 2, 3, 4} against reference {1, 2.5, 2, 4}: differences {0, -0.5, 1, 0}.
const std::vector<double> kActual = {1, 2, 3, 4};
const std::vector<double> kReference = {1, 2.5, 2, 4};

TEST(LossMetrics, Exact) {
    EXPECT_EQ(compute_loss(kActual, kReference, Metric::Exact).value, 1);
    EXPECT_EQ(compute_loss(kActual, kActual, Metric::Exact).value, 0);
}

TEST(LossMetrics, L0CountsElementsOutsideTheTolerance) {
    EXPECT_EQ(compute_loss(kActual, kReference, Metric::L0).value, 0.5);
    EXPECT_EQ(compute_loss(kActual, kReference, Metric::L0, 0.6, 0).value, 0.25);
    // rtol 0.3: bounds {0.3, 0.75, 0.6, 1.2}; only |1| > 0.6.
    EXPECT_EQ(compute_loss(kActual, kReference, Metric::L0, 0, 0.3).value, 0.25);
    EXPECT_EQ(compute_loss(kActual, kReference, Metric::L0, 1, 0).value, 0);
}

TEST(LossMetrics, L1L2Linf) {
    EXPECT_EQ(compute_loss(kActual, kReference, Metric::L1).value, 0.375);
    EXPECT_EQ(compute_loss(kActual, kReference, Metric::L2).value, 0.3125);
    EXPECT_EQ(compute_loss(kActual, kReference, Metric::Linf).value, 1);
}

TEST(LossMetrics, RelativeL2) {
    EXPECT_EQ(compute_loss({3, 9}, {3, 4}, Metric::RelL2).value, 1);
    EXPECT_DOUBLE_EQ(compute_loss(kActual, kReference, Metric::RelL2).value, std::sqrt(1.25 / 27.25));
    EXPECT_EQ(compute_loss({3, 4}, {0, 0}, Metric::RelL2).value, 5);
    EXPECT_EQ(compute_loss({1e200, 1e200}, {1e200, 1e200}, Metric::RelL2).value, 0);
    EXPECT_DOUBLE_EQ(compute_loss({2e200}, {1e200}, Metric::RelL2).value, 1);
}

TEST(LossMetrics, Cosine) {
    EXPECT_EQ(compute_loss({1, 0}, {0, 1}, Metric::Cos).value, 1);
    EXPECT_EQ(compute_loss({3, 4}, {3, 4}, Metric::Cos).value, 0);
    EXPECT_EQ(compute_loss({1, 1, 1}, {1, 1, 1}, Metric::Cos).value, 0);
    EXPECT_EQ(compute_loss({-1, -2}, {1, 2}, Metric::Cos).value, 2);
    EXPECT_EQ(compute_loss({2, 4}, {1, 2}, Metric::Cos).value, 0);
    EXPECT_DOUBLE_EQ(compute_loss({1, 0}, {1, 1}, Metric::Cos).value, 1 - 1 / std::sqrt(2.0));
    EXPECT_EQ(compute_loss({0, 0}, {0, 0}, Metric::Cos).value, 0);
    EXPECT_EQ(compute_loss({0, 0}, {1, 0}, Metric::Cos).value, 1);
}

TEST(LossMetrics, LengthMismatchFails) {
    Loss loss = compute_loss({1, 2, 3}, kReference, Metric::L1);
    EXPECT_FALSE(loss.ok);
    EXPECT_EQ(loss.value, kInf);
    EXPECT_EQ(loss.message, "the output has 3 values, the reference 4");
}

TEST(LossMetrics, NonFiniteWhereReferenceIsFiniteAlwaysFails) {
    for (Metric metric : {Metric::Exact, Metric::L0, Metric::L1, Metric::L2, Metric::Linf, Metric::RelL2, Metric::Cos}) {
        Loss nan_loss = compute_loss({1, kNaN}, {1, 2}, metric, 1e9, 1e9);
        EXPECT_FALSE(nan_loss.ok);
        EXPECT_EQ(nan_loss.value, kInf);
        EXPECT_EQ(nan_loss.message, "value #1 is nan where the reference is 2");
        Loss inf_loss = compute_loss({-kInf, 2}, {1, 2}, metric);
        EXPECT_FALSE(inf_loss.ok);
        EXPECT_EQ(inf_loss.value, kInf);
    }
}

TEST(LossMetrics, MatchingNonFiniteValuesCountAsEqual) {
    Loss loss = compute_loss({kNaN, 1, kInf}, {kNaN, 2.5, kInf}, Metric::L1);
    EXPECT_TRUE(loss.ok) << loss.message;
    EXPECT_EQ(loss.value, 0.5);
    EXPECT_EQ(compute_loss({kNaN, kInf}, {kNaN, kInf}, Metric::RelL2).value, 0);
    EXPECT_FALSE(compute_loss({-kInf}, {kInf}, Metric::L1).ok);
    EXPECT_FALSE(compute_loss({0}, {kNaN}, Metric::L1).ok);
}

TEST(LossMetrics, EmptyIsZero) {
    for (Metric metric : {Metric::Exact, Metric::L0, Metric::L1, Metric::L2, Metric::Linf, Metric::RelL2, Metric::Cos})
        EXPECT_EQ(compute_loss({}, {}, metric).value, 0);
}

AccuracyRule rule(OutputFormat format, Metric metric, double threshold) {
    AccuracyRule result;
    result.format = format;
    result.metric = metric;
    result.threshold = threshold;
    return result;
}

TEST(CheckCase, PassesAtOrUnderTheThreshold) {
    CaseCheck check = check_case("1 2 3 4", "1 2.5 2 4", rule(OutputFormat::Text, Metric::L1, 0.375));
    EXPECT_TRUE(check.passed) << check.message;
    EXPECT_EQ(check.loss, 0.375);
    EXPECT_EQ(check.message, "");
}

TEST(CheckCase, FailsOverTheThresholdWithTheLoss) {
    CaseCheck check = check_case("1 2 3 4", "1 2.5 2 4", rule(OutputFormat::Text, Metric::Linf, 0.5));
    EXPECT_FALSE(check.passed);
    EXPECT_EQ(check.loss, 1);
    EXPECT_EQ(check.message, "linf loss 1 is over the threshold 0.5");
}

TEST(CheckCase, NaNOutputFails) {
    CaseCheck check = check_case("1 nan", "1 2", rule(OutputFormat::Text, Metric::RelL2, 1e9));
    EXPECT_FALSE(check.passed);
    EXPECT_EQ(check.loss, kInf);
    EXPECT_TRUE(contains(check.message, "nan")) << check.message;
}

TEST(CheckCase, MalformedOutputIsAFailedCaseNotAnException) {
    CaseCheck check = check_case("Segmentation fault", "1 2", rule(OutputFormat::Text, Metric::RelL2, 1));
    EXPECT_FALSE(check.passed);
    EXPECT_EQ(check.loss, kInf);
    EXPECT_TRUE(contains(check.message, "malformed output")) << check.message;
}

TEST(CheckCase, UnreadableReferenceHasNaNLoss) {
    CaseCheck check = check_case("1", std::string(3, '\0'), rule(OutputFormat::F32, Metric::RelL2, 1));
    EXPECT_FALSE(check.passed);
    EXPECT_TRUE(std::isnan(check.loss));
    EXPECT_TRUE(contains(check.message, "reference")) << check.message;
}

TEST(CheckCase, ExactComparesAnyIdenticalBytes) {
    EXPECT_TRUE(check_case("hello world\n", "hello world\n", rule(OutputFormat::Text, Metric::Exact, 0)).passed);
    EXPECT_FALSE(check_case("hello there\n", "hello world\n", rule(OutputFormat::Text, Metric::Exact, 0)).passed);
    CaseCheck numeric = check_case("1.0 2", "1 2.00", rule(OutputFormat::Text, Metric::Exact, 0));
    EXPECT_TRUE(numeric.passed) << numeric.message;
    EXPECT_EQ(numeric.loss, 0);
    CaseCheck differs = check_case("1 3", "1 2", rule(OutputFormat::Text, Metric::Exact, 0));
    EXPECT_FALSE(differs.passed);
    EXPECT_EQ(differs.loss, 1);
}

TEST(CheckCase, NpyShapesMustAgree) {
    std::string data = raw_bytes<float>({1, 2, 3, 4, 5, 6});
    CaseCheck check = check_case(npy("<f4", "(2, 3)", data), npy("<f4", "(3, 2)", data),
                                 rule(OutputFormat::Npy, Metric::RelL2, 1));
    EXPECT_FALSE(check.passed);
    EXPECT_EQ(check.message, "the output's shape (2, 3) differs from the reference's (3, 2)");
    CaseCheck same = check_case(npy("<f4", "(2, 3)", data), npy("<f8", "(2, 3)", raw_bytes<double>({1, 2, 3, 4, 5, 6})),
                                rule(OutputFormat::Npy, Metric::RelL2, 0));
    EXPECT_TRUE(same.passed) << same.message;
    EXPECT_EQ(same.loss, 0);
}

TEST(CheckCase, RawFormatsAgainstEachOther) {
    CaseCheck check = check_case(raw_bytes<float>({1, 2, 3}), raw_bytes<float>({1, 2, 3.5f}),
                                 rule(OutputFormat::F32, Metric::L0, 0.4));
    EXPECT_TRUE(check.passed) << check.message;
    EXPECT_DOUBLE_EQ(check.loss, 1.0 / 3);
}

TEST(AccuracyRuleFrom, ResolvesNames) {
    AccuracySpec spec;
    spec.format = "npy";
    spec.metric = "l0";
    spec.threshold = 0.01;
    spec.atol = 1e-5;
    spec.rtol = 1e-3;
    AccuracyRule resolved = accuracy_rule_from(spec);
    EXPECT_EQ(resolved.format, OutputFormat::Npy);
    EXPECT_EQ(resolved.metric, Metric::L0);
    EXPECT_EQ(resolved.threshold, 0.01);
    EXPECT_EQ(resolved.atol, 1e-5);
    EXPECT_EQ(resolved.rtol, 1e-3);
}

TEST(AccuracyRuleFrom, BadValuesThrowUsageErrorListingValidOnes) {
    AccuracySpec spec;
    spec.format = "csv";
    try {
        accuracy_rule_from(spec);
        FAIL() << "no exception";
    } catch (const UsageError& error) {
        EXPECT_TRUE(contains(error.what(), "\"csv\"")) << error.what();
        EXPECT_TRUE(contains(error.what(), "text, f32, f64, i32, npy")) << error.what();
    }
    spec = AccuracySpec{};
    spec.metric = "mse";
    EXPECT_THROW(accuracy_rule_from(spec), UsageError);
    spec = AccuracySpec{};
    spec.threshold = -1;
    EXPECT_THROW(accuracy_rule_from(spec), UsageError);
    spec = AccuracySpec{};
    spec.rtol = kNaN;
    EXPECT_THROW(accuracy_rule_from(spec), UsageError);
}

TEST(StreamedLoss, EqualsTheLossOverListsBitForBitForEveryMetric) {
    std::vector<double> actual, reference;
    std::uint64_t state = 12345;
    auto next = [&] {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<double>(state >> 11) / static_cast<double>(1ULL << 53) * 2e3 - 1e3;
    };
    for (int i = 0; i < 5000; ++i) {
        reference.push_back(next());
        actual.push_back(i % 7 == 0 ? reference.back() : reference.back() + next() * 1e-3);
    }
    reference[10] = actual[10] = kInf;  // a matching non-finite pair is skipped by both
    std::string actual_bytes, reference_bytes;
    for (double v : actual) actual_bytes += raw_bytes<double>({v});
    for (double v : reference) reference_bytes += raw_bytes<double>({v});
    for (Metric metric : {Metric::Exact, Metric::L0, Metric::L1, Metric::L2, Metric::Linf, Metric::RelL2, Metric::Cos}) {
        Loss lists = compute_loss(actual, reference, metric, 1e-3, 1e-4);
        OutputValues a(actual_bytes, OutputFormat::F64), r(reference_bytes, OutputFormat::F64);
        Loss streamed = compute_loss(a, r, metric, 1e-3, 1e-4);
        EXPECT_TRUE(lists.ok && streamed.ok) << to_string(metric);
        EXPECT_EQ(std::memcmp(&lists.value, &streamed.value, sizeof(double)), 0)
            << to_string(metric) << ": " << lists.value << " vs " << streamed.value;
    }
}

TEST(StreamedLoss, TextIsReadWhereItLiesAndItsErrorsKeepTheirPrecedence) {
    AccuracyRule rule;
    rule.format = OutputFormat::Text;
    rule.metric = Metric::RelL2;
    rule.threshold = 1;
    CaseCheck both = check_case("1 x 3", "1 2 y", rule);  // the output breaks first, the reference later
    EXPECT_TRUE(std::isnan(both.loss)) << both.message;
    EXPECT_TRUE(contains(both.message, "the reference is unreadable: text output: 'y' at byte 4")) << both.message;
    CaseCheck output = check_case("1 x 3", "1 2 3", rule);
    EXPECT_EQ(output.loss, kInf);
    EXPECT_TRUE(contains(output.message, "malformed output: text output: 'x' at byte 2")) << output.message;
    CaseCheck length = check_case("1 2", "1 2 3", rule);
    EXPECT_TRUE(contains(length.message, "the output has 2 values, the reference 3")) << length.message;
}

}  // namespace
}  // namespace routetune
