// Expansion of a parsed expression into candidates, lazily. Fast mode walks the varying axes
// in name order and, for each, every value but the default, each on top of the baseline
// (fixed knobs set, others unmentioned). Full mode keeps one index per axis and counts them
// up as a mixed-radix number, last axis fastest; each candidate sets every knob (an axis that
// may be unset has "unset" as its choice 0), and only the knobs whose index moved are
// rewritten between candidates. Memory is a copy of the axes plus one index per axis,
// whatever the size of the space. Counts are
// computed from the axis sizes with BigCount, never by enumerating. Integer values and
// defaults are canonical decimals (the parser ensures it), so "is the default" is equality.
#include <vector>

#include "routetune/expression.hpp"

namespace routetune {

namespace {

bool lists_default(const Axis& axis) { return !axis.default_value.empty() && axis.values.contains(axis.default_value); }

class FastStream : public CandidateStream {
public:
    explicit FastStream(const Expression& expression)
        : axes_(expression.axes), baseline_(baseline_route(expression)), count_(count_candidates(expression, ExpansionMode::Fast)) {}

    std::optional<Route> next() override {
        if (!baseline_done_) {
            baseline_done_ = true;
            return baseline_;
        }
        while (axis_ < axes_.size()) {
            const Axis& axis = axes_[axis_];
            if (axis.fixed() || value_ >= axis.values.size()) {
                ++axis_;
                value_ = 0;
                continue;
            }
            std::string value = axis.values.at(value_++);
            if (!axis.default_value.empty() && value == axis.default_value) continue;
            Route route = baseline_;
            route.set(axis.knob, value);
            return route;
        }
        return std::nullopt;
    }

    BigCount count() const override { return count_; }

private:
    std::vector<Axis> axes_;
    Route baseline_;
    BigCount count_;
    bool baseline_done_ = false;
    std::size_t axis_ = 0;
    std::uint64_t value_ = 0;
};

class FullStream : public CandidateStream {
public:
    explicit FullStream(const Expression& expression)
        : axes_(expression.axes), indices_(axes_.size(), 0), count_(count_candidates(expression, ExpansionMode::Full)) {
        for (std::size_t i = 0; i < axes_.size(); ++i) apply(i);
    }

    std::optional<Route> next() override {
        if (done_) return std::nullopt;
        Route route = current_;
        std::size_t i = axes_.size();
        while (true) {
            if (i == 0) {
                done_ = true;
                break;
            }
            --i;
            bool carry = ++indices_[i] == axes_[i].full_choices();
            if (carry) indices_[i] = 0;
            apply(i);
            if (!carry) break;
        }
        return route;
    }

    BigCount count() const override { return count_; }

private:
    /// Writes axis i's current choice into current_.
    void apply(std::size_t i) {
        const Axis& axis = axes_[i];
        std::uint64_t choice = indices_[i];
        if (axis.may_be_unset && choice == 0) {
            current_.erase(axis.knob);
            return;
        }
        current_.set(axis.knob, axis.values.at(axis.may_be_unset ? choice - 1 : choice));
    }

    std::vector<Axis> axes_;
    std::vector<std::uint64_t> indices_;
    Route current_;  // the candidate at indices_; only the axes that moved are rewritten
    BigCount count_;
    bool done_ = false;
};

}  // namespace

Route baseline_route(const Expression& expression) {
    Route route;
    for (const auto& axis : expression.axes) {
        if (axis.fixed()) route.set(axis.knob, axis.values.at(0));
    }
    return route;
}

std::unique_ptr<CandidateStream> expand(const Expression& expression, ExpansionMode mode) {
    if (mode == ExpansionMode::Full) return std::make_unique<FullStream>(expression);
    return std::make_unique<FastStream>(expression);
}

BigCount count_candidates(const Expression& expression, ExpansionMode mode) {
    BigCount count(1);
    if (mode == ExpansionMode::Full) {
        for (const auto& axis : expression.axes) count *= axis.full_choices();
        return count;
    }
    for (const auto& axis : expression.axes) {
        if (!axis.fixed()) count += BigCount(axis.values.size() - (lists_default(axis) ? 1 : 0));
    }
    return count;
}

}  // namespace routetune
