// BigCount: a non-negative integer stored as little-endian base-2^32 limbs with no trailing
// zero limbs (zero is the empty vector). Addition and multiplication by a 64-bit factor are
// schoolbook with a 128-bit carry; decimal printing divides repeatedly by 10^9 and prints
// each remainder as nine digits, so a number of n limbs prints in O(n^2) limb operations.
#include "routetune/big_count.hpp"

#include <algorithm>

namespace routetune {

namespace {

constexpr std::uint64_t limb_base = std::uint64_t{1} << 32;

void trim(std::vector<std::uint32_t>& limbs) {
    while (!limbs.empty() && limbs.back() == 0) limbs.pop_back();
}

}  // namespace

BigCount::BigCount(std::uint64_t v) {
    while (v != 0) {
        limbs_.push_back(static_cast<std::uint32_t>(v));
        v >>= 32;
    }
}

BigCount& BigCount::operator+=(const BigCount& v) {
    if (limbs_.size() < v.limbs_.size()) limbs_.resize(v.limbs_.size(), 0);
    std::uint64_t carry = 0;
    for (std::size_t i = 0; i < limbs_.size(); ++i) {
        std::uint64_t sum = carry + limbs_[i] + (i < v.limbs_.size() ? v.limbs_[i] : 0);
        limbs_[i] = static_cast<std::uint32_t>(sum);
        carry = sum >> 32;
        if (carry == 0 && i + 1 >= v.limbs_.size()) break;
    }
    if (carry != 0) limbs_.push_back(static_cast<std::uint32_t>(carry));
    return *this;
}

BigCount& BigCount::operator*=(std::uint64_t v) {
    if (v == 0) {
        limbs_.clear();
        return *this;
    }
    unsigned __int128 carry = 0;
    for (auto& limb : limbs_) {
        unsigned __int128 product = static_cast<unsigned __int128>(limb) * v + carry;
        limb = static_cast<std::uint32_t>(product);
        carry = product >> 32;
    }
    while (carry != 0) {
        limbs_.push_back(static_cast<std::uint32_t>(carry));
        carry >>= 32;
    }
    trim(limbs_);
    return *this;
}

std::string BigCount::to_string() const {
    if (limbs_.empty()) return "0";
    std::vector<std::uint32_t> rest = limbs_;
    std::vector<std::uint32_t> chunks;  // base 10^9, least significant first
    while (!rest.empty()) {
        std::uint64_t remainder = 0;
        for (std::size_t i = rest.size(); i-- > 0;) {
            std::uint64_t current = (remainder << 32) | rest[i];
            rest[i] = static_cast<std::uint32_t>(current / 1000000000u);
            remainder = current % 1000000000u;
        }
        chunks.push_back(static_cast<std::uint32_t>(remainder));
        trim(rest);
    }
    std::string text = std::to_string(chunks.back());
    for (std::size_t i = chunks.size() - 1; i-- > 0;) {
        std::string part = std::to_string(chunks[i]);
        text.append(9 - part.size(), '0');
        text += part;
    }
    return text;
}

bool BigCount::fits_u64() const { return limbs_.size() <= 2; }

std::uint64_t BigCount::to_u64() const {
    std::uint64_t value = 0;
    for (std::size_t i = std::min<std::size_t>(limbs_.size(), 2); i-- > 0;) value = value * limb_base + limbs_[i];
    return value;
}

std::strong_ordering BigCount::operator<=>(const BigCount& other) const {
    if (limbs_.size() != other.limbs_.size()) return limbs_.size() <=> other.limbs_.size();
    for (std::size_t i = limbs_.size(); i-- > 0;) {
        if (limbs_[i] != other.limbs_[i]) return limbs_[i] <=> other.limbs_[i];
    }
    return std::strong_ordering::equal;
}

bool BigCount::operator==(const BigCount& other) const { return limbs_ == other.limbs_; }

}  // namespace routetune
