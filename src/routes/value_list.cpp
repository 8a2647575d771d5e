// ValueList: an explicit list, or an integer range kept as (lo, hi, step) and indexed by
// arithmetic. An additive range has (hi - lo) / step + 1 values, value i = lo + i * step; a
// multiplicative range has the powers lo * step^i not above hi (at most 63 of them). Nothing
// is materialised, so `-k=[1..1000000000]` costs three integers.
#include "routetune/expression.hpp"

#include <algorithm>
#include <charconv>
#include <limits>

#include "routetune/error.hpp"

namespace routetune {

namespace {

std::optional<std::int64_t> as_int(std::string_view text) {
    std::int64_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

}  // namespace

ValueList ValueList::of(std::vector<std::string> values) {
    ValueList list;
    list.kind_ = Kind::List;
    list.list_ = std::move(values);
    return list;
}

ValueList ValueList::additive(std::int64_t lo, std::int64_t hi, std::int64_t step) {
    if (step < 1 || hi < lo) throw UsageError("invalid integer range " + std::to_string(lo) + ".." + std::to_string(hi));
    auto span = static_cast<unsigned __int128>(static_cast<__int128>(hi) - lo) / static_cast<unsigned __int128>(step);
    if (span >= std::numeric_limits<std::uint64_t>::max())
        throw UsageError("integer range " + std::to_string(lo) + ".." + std::to_string(hi) + " has too many values");
    ValueList list;
    list.kind_ = Kind::Additive;
    list.lo_ = lo;
    list.hi_ = hi;
    list.step_ = step;
    return list;
}

ValueList ValueList::multiplicative(std::int64_t lo, std::int64_t hi, std::int64_t factor) {
    if (lo < 1 || factor < 2 || hi < lo)
        throw UsageError("invalid multiplicative range " + std::to_string(lo) + ".." + std::to_string(hi) +
                         ":*" + std::to_string(factor) + " (needs 1 <= lo <= hi and factor >= 2)");
    ValueList list;
    list.kind_ = Kind::Multiplicative;
    list.lo_ = lo;
    list.hi_ = hi;
    list.step_ = factor;
    return list;
}

std::uint64_t ValueList::size() const {
    switch (kind_) {
        case Kind::List: return list_.size();
        case Kind::Additive:
            return static_cast<std::uint64_t>(static_cast<unsigned __int128>(static_cast<__int128>(hi_) - lo_) /
                                              static_cast<unsigned __int128>(step_)) + 1;
        case Kind::Multiplicative: {
            std::uint64_t count = 1;
            __int128 value = lo_;
            while (value * step_ <= hi_) {
                value *= step_;
                ++count;
            }
            return count;
        }
    }
    return 0;
}

std::string ValueList::at(std::uint64_t i) const {
    switch (kind_) {
        case Kind::List: return list_.at(i);
        case Kind::Additive: return std::to_string(static_cast<std::int64_t>(lo_ + static_cast<__int128>(i) * step_));
        case Kind::Multiplicative: {
            __int128 value = lo_;
            for (std::uint64_t k = 0; k < i; ++k) value *= step_;
            return std::to_string(static_cast<std::int64_t>(value));
        }
    }
    return {};
}

bool ValueList::contains(std::string_view value) const {
    if (kind_ == Kind::List) return std::find(list_.begin(), list_.end(), value) != list_.end();
    auto number = as_int(value);
    if (!number || *number < lo_ || *number > hi_) return false;
    if (kind_ == Kind::Additive) return (static_cast<__int128>(*number) - lo_) % step_ == 0;
    __int128 power = lo_;
    while (power < *number) power *= step_;
    return power == *number;
}

}  // namespace routetune
