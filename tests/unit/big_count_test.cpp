#include "routetune/big_count.hpp"

#include <gtest/gtest.h>

#include <cstdint>

using routetune::BigCount;

namespace {

BigCount power(std::uint64_t base, int exponent) {
    BigCount value(1);
    for (int i = 0; i < exponent; ++i) value *= base;
    return value;
}

}  // namespace

TEST(BigCount, SmallValuesPrintExactly) {
    EXPECT_EQ(BigCount().to_string(), "0");
    EXPECT_EQ(BigCount(7).to_string(), "7");
    EXPECT_EQ(BigCount(1000000000).to_string(), "1000000000");
    EXPECT_EQ(BigCount(UINT64_MAX).to_string(), "18446744073709551615");
}

TEST(BigCount, PowersOfTwoAndThree) {
    EXPECT_EQ(power(2, 128).to_string(), "340282366920938463463374607431768211456");
    EXPECT_EQ(power(2, 200).to_string(), "1606938044258990275541962092341162602522202993782792835301376");
    EXPECT_EQ(power(3, 100).to_string(), "515377520732011331036461129765621272702107522001");
}

TEST(BigCount, Factorial30) {
    BigCount value(1);
    for (std::uint64_t i = 2; i <= 30; ++i) value *= i;
    EXPECT_EQ(value.to_string(), "265252859812191058636308480000000");
}

TEST(BigCount, MultiplyByLargeFactors) {
    BigCount value(UINT64_MAX);
    value *= UINT64_MAX;
    EXPECT_EQ(value.to_string(), "340282366920938463426481119284349108225");
    value *= 0;
    EXPECT_EQ(value.to_string(), "0");
    EXPECT_EQ(value, BigCount(0));
}

TEST(BigCount, AdditionCarriesAcrossLimbs) {
    BigCount value(UINT64_MAX);
    value += BigCount(1);
    EXPECT_EQ(value.to_string(), "18446744073709551616");
    EXPECT_FALSE(value.fits_u64());
    BigCount big = power(2, 200);
    big += power(2, 200);
    EXPECT_EQ(big, power(2, 201));
    BigCount small(5);
    small += power(10, 30);
    EXPECT_EQ(small.to_string(), "1000000000000000000000000000005");
    BigCount zero;
    zero += BigCount();
    EXPECT_EQ(zero.to_string(), "0");
}

TEST(BigCount, ChunksWithInnerZerosKeepTheirDigits) {
    EXPECT_EQ(power(10, 27).to_string(), "1000000000000000000000000000");
    BigCount value = power(10, 18);
    value += BigCount(7);
    EXPECT_EQ(value.to_string(), "1000000000000000007");
}

TEST(BigCount, FitsAndConverts) {
    EXPECT_TRUE(BigCount(0).fits_u64());
    EXPECT_TRUE(BigCount(UINT64_MAX).fits_u64());
    EXPECT_EQ(BigCount(UINT64_MAX).to_u64(), UINT64_MAX);
    EXPECT_EQ(BigCount(4294967296ULL).to_u64(), 4294967296ULL);
    EXPECT_EQ(power(3, 40).to_u64(), 12157665459056928801ULL);
    EXPECT_FALSE(power(2, 64).fits_u64());
}

TEST(BigCount, Ordering) {
    EXPECT_LT(BigCount(3), BigCount(4));
    EXPECT_LT(BigCount(UINT64_MAX), power(2, 64));
    EXPECT_GT(power(3, 100), power(2, 158));
    EXPECT_LT(power(3, 100), power(2, 159));
    EXPECT_EQ(power(2, 64), power(4, 32));
    EXPECT_NE(power(2, 64), power(2, 65));
    EXPECT_LE(BigCount(0), BigCount());
}
