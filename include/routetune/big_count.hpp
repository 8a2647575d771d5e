// An unsigned integer of arbitrary size, for exact candidate counts of huge spaces.
#pragma once

#include <compare>
#include <cstdint>
#include <string>
#include <vector>

namespace routetune {

/// A non-negative integer of any size; supports what counting a search space needs.
class BigCount {
public:
    /// The value v.
    BigCount(std::uint64_t v = 0);
    /// *this += v.
    BigCount& operator+=(const BigCount& v);
    /// *this *= v.
    BigCount& operator*=(std::uint64_t v);
    /// Decimal digits, exactly.
    std::string to_string() const;
    /// True when the value fits in 64 bits.
    bool fits_u64() const;
    /// The value; only meaningful when fits_u64().
    std::uint64_t to_u64() const;

    std::strong_ordering operator<=>(const BigCount& other) const;
    bool operator==(const BigCount& other) const;

private:
    std::vector<std::uint32_t> limbs_;  // little-endian base 2^32, no trailing zeros
};

}  // namespace routetune
