// How a check runs. The account of the final flags F is asked once. A knob whose state the
// account prints (GCC: `-fassociative-math [disabled]`) is compared with the route's value.
// A knob it does not print (GCC's -O and -ffast-math, most of Clang's switches) is asserted
// once more at the end of F: if that changes the account, some later flag had overridden it.
// An umbrella is asserted followed by the route's more specific flags that the order put
// after it on purpose, and compared with F followed by those flags alone. When nothing but
// those flags follows the knob in F, no later flag can override it and nothing is asked.
// The other unstated knobs are first asserted together, in reverse order, in one account:
// if it stays the same they all hold (a route of many switches costs two accounts), else
// each half is tried the same way, so one conflict among n costs about 2 log2(n). The
// value the compiler ends with is then the other one for a switch, or the value of an enum
// (up to 64 values) whose assertion leaves the account unchanged. For each conflict, the
// overriding flag is found by leaving flags out: first the overriders found for earlier knobs
// (one flag such as -msoft-float may override dozens), then all others (if the knob still
// does not hold, the compiler overrides it even alone), then halves down to one flag. Every
// account is asked at most once per check; RouteCheckCache keeps whole checks per flag list.
#include "adapters/route_checker.hpp"

#include <algorithm>
#include <charconv>
#include <set>

#include "adapters/flag_order.hpp"
#include "adapters/declared_knobs.hpp"

namespace routetune {

namespace {

constexpr std::size_t kMaxValuesAsked = 64;

// A flag and the argument it takes as its next argv item.
bool takes_next_item(const std::string& flag) {
    return flag == "--param" || flag == "-mllvm" || flag == "-Xclang";
}

std::optional<long long> as_integer(const std::string& text) {
    long long value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
    return value;
}

bool same_value(const std::string& a, const std::string& b) {
    if (a == b) return true;
    auto x = as_integer(a);
    auto y = as_integer(b);
    return x && y && *x == *y;
}

// True when flags end with the knob's items followed by its `after` items: no other flag
// comes later that could override it.
bool ends_flags(const EmittedKnob& knob, const std::vector<std::string>& flags) {
    std::size_t n = knob.items.size() + knob.after.size();
    if (flags.size() < n) return false;
    auto tail = flags.end() - static_cast<std::ptrdiff_t>(n);
    return std::equal(knob.items.begin(), knob.items.end(), tail) &&
           std::equal(knob.after.begin(), knob.after.end(), tail + static_cast<std::ptrdiff_t>(knob.items.size()));
}

// Index ranges [first, last) of F's flags, a flag and its argument forming one group.
using Group = std::pair<std::size_t, std::size_t>;

class Checker {
public:
    Checker(const std::vector<std::string>& flags, const AccountSource& source) : flags_(flags), source_(source) {}

    const std::optional<CompilerAccount>& account(const std::vector<std::string>& flags) {
        auto found = accounts_.find(flags);
        if (found == accounts_.end()) found = accounts_.emplace(flags, source_.account(flags)).first;
        return found->second;
    }

    // The value the compiler ends with for knob under flags; nullopt when it cannot tell.
    std::optional<std::string> effective(const EmittedKnob& knob, const std::vector<std::string>& flags) {
        const auto& base = account(flags);
        if (!base) return std::nullopt;
        if (auto reported = source_.reported(*knob.knob, knob.value, *base)) return reported;
        if (ends_flags(knob, flags)) return knob.value;
        std::vector<std::string> with_after = flags;
        with_after.insert(with_after.end(), knob.after.begin(), knob.after.end());
        const auto& reference = account(with_after);
        if (!reference) return std::nullopt;
        auto unchanged = [&](const std::string& value) {
            std::vector<std::string> again = flags;
            for (auto& item : source_.flags_of(*knob.knob, value)) again.push_back(std::move(item));
            again.insert(again.end(), knob.after.begin(), knob.after.end());
            const auto& asserted = account(again);
            return asserted && *asserted == *reference;
        };
        if (unchanged(knob.value)) return knob.value;
        const Knob& k = *knob.knob;
        if (k.type == KnobType::Int || !k.bounded || k.values.size() > kMaxValuesAsked) return std::string();
        for (const auto& value : k.values) {
            if (value != knob.value && unchanged(value)) return value;
        }
        return std::string();
    }

    // Which knobs of F's route hold by joint assertions: the knobs F's account does not
    // state, that are no umbrella and that other flags follow, asserted again together in
    // reverse order (a later flag that had overridden an earlier one is then itself
    // overridden, so the account changes). All hold when the account stays the same;
    // otherwise each half is asserted the same way, down to single knobs, which are left to
    // effective().
    std::vector<bool> hold_together(const std::vector<EmittedKnob>& knobs) {
        std::vector<bool> settled(knobs.size(), false);
        const auto& base = account(flags_);
        std::vector<std::size_t> joint;
        for (std::size_t i = 0; i < knobs.size(); ++i) {
            const EmittedKnob& knob = knobs[i];
            if (knob.after.empty() && !ends_flags(knob, flags_) && !source_.reported(*knob.knob, knob.value, *base)) {
                joint.push_back(i);
            }
        }
        settle(knobs, joint, *base, settled);
        return settled;
    }

    void settle(const std::vector<EmittedKnob>& knobs, const std::vector<std::size_t>& joint, const CompilerAccount& base,
                std::vector<bool>& settled) {
        if (joint.size() < 2) return;
        std::vector<std::string> again = flags_;
        for (auto i = joint.rbegin(); i != joint.rend(); ++i) again.insert(again.end(), knobs[*i].items.begin(), knobs[*i].items.end());
        const auto& asserted = account(again);
        if (asserted && *asserted == base) {
            for (std::size_t i : joint) settled[i] = true;
            return;
        }
        auto middle = joint.begin() + static_cast<std::ptrdiff_t>(joint.size() / 2);
        settle(knobs, {joint.begin(), middle}, base, settled);
        settle(knobs, {middle, joint.end()}, base, settled);
    }

    bool holds(const EmittedKnob& knob, const std::vector<std::string>& flags) {
        auto value = effective(knob, flags);
        return value && same_value(*value, knob.value);
    }

    KnobConflict conflict(const EmittedKnob& knob, const std::string& reported) {
        KnobConflict found{knob.knob->name, knob.value, reported, {}, false};
        std::vector<Group> others = other_groups(knob);
        for (std::size_t g = 0; g < others.size(); ++g) {
            if (overriders_.count(others[g]) && holds(knob, without(others, g, g + 1))) {
                found.overridden_by.push_back(group_text(others[g]));
                return found;
            }
        }
        if (others.empty() || !holds(knob, without(others, 0, others.size()))) {
            found.alone = true;
            return found;
        }
        std::size_t lo = 0, hi = others.size();
        while (hi - lo > 1) {
            std::size_t mid = lo + (hi - lo) / 2;
            if (holds(knob, without(others, lo, mid))) {
                hi = mid;
            } else if (holds(knob, without(others, mid, hi))) {
                lo = mid;
            } else {
                return found;  // no single flag: several together
            }
        }
        overriders_.insert(others[lo]);
        found.overridden_by.push_back(group_text(others[lo]));
        return found;
    }

private:
    std::string group_text(const Group& group) const {
        std::string text;
        for (std::size_t i = group.first; i < group.second; ++i) text += (text.empty() ? "" : " ") + flags_[i];
        return text;
    }

    // The groups of F other than the knob's own items (their last occurrence).
    std::vector<Group> other_groups(const EmittedKnob& knob) const {
        std::size_t own = flags_.size();
        for (std::size_t at = flags_.size(); at-- > 0;) {
            if (at + knob.items.size() <= flags_.size() &&
                std::equal(knob.items.begin(), knob.items.end(), flags_.begin() + static_cast<std::ptrdiff_t>(at))) {
                own = at;
                break;
            }
        }
        std::vector<Group> groups;
        for (std::size_t i = 0; i < flags_.size();) {
            std::size_t end = takes_next_item(flags_[i]) && i + 1 < flags_.size() ? i + 2 : i + 1;
            bool mine = own < flags_.size() && i >= own && i < own + knob.items.size();
            if (!mine) groups.emplace_back(i, end);
            i = end;
        }
        return groups;
    }

    // F without the groups [lo, hi) of groups.
    std::vector<std::string> without(const std::vector<Group>& groups, std::size_t lo, std::size_t hi) const {
        std::vector<bool> dropped(flags_.size(), false);
        for (std::size_t g = lo; g < hi; ++g) {
            for (std::size_t i = groups[g].first; i < groups[g].second; ++i) dropped[i] = true;
        }
        std::vector<std::string> kept;
        for (std::size_t i = 0; i < flags_.size(); ++i) {
            if (!dropped[i]) kept.push_back(flags_[i]);
        }
        return kept;
    }

    const std::vector<std::string>& flags_;
    const AccountSource& source_;
    std::map<std::vector<std::string>, std::optional<CompilerAccount>> accounts_;
    std::set<Group> overriders_;  // found for earlier knobs: tried first for the next
};

}  // namespace

std::vector<EmittedKnob> emitted_knobs(const Route& route, const Catalog& catalog, const KnobFlags& flags_of,
                                       std::vector<std::string>& unchecked) {
    std::vector<EmittedKnob> knobs;
    std::vector<int> ranks;
    for (const auto& [name, value] : umbrella_first(route)) {
        const Knob* knob = catalog.find(name);
        if (!knob || is_declared_knob(*knob)) {
            unchecked.push_back(name);
            continue;
        }
        knobs.push_back(EmittedKnob{knob, value, flags_of(*knob, value), {}});
        ranks.push_back(umbrella_rank(name));
    }
    for (std::size_t i = 0; i < knobs.size(); ++i) {
        for (std::size_t j = i + 1; j < knobs.size(); ++j) {
            if (ranks[j] > ranks[i]) knobs[i].after.insert(knobs[i].after.end(), knobs[j].items.begin(), knobs[j].items.end());
        }
    }
    return knobs;
}

RouteCheck check_route_flags(const std::vector<std::string>& flags, const std::vector<EmittedKnob>& knobs,
                             const AccountSource& source) {
    RouteCheck check;
    check.compiler = source.compiler;
    Checker checker(flags, source);
    if (!checker.account(flags)) {
        check.note = source.compiler + " rejects these flags; the build will say why";
        return check;
    }
    check.checked = true;
    std::vector<bool> holds = checker.hold_together(knobs);
    for (std::size_t i = 0; i < knobs.size(); ++i) {
        const EmittedKnob& knob = knobs[i];
        if (holds[i]) continue;
        auto value = checker.effective(knob, flags);
        if (!value) {
            check.unchecked.push_back(knob.knob->name);
        } else if (!same_value(*value, knob.value)) {
            check.conflicts.push_back(source.name_overriders ? checker.conflict(knob, *value)
                                                             : KnobConflict{knob.knob->name, knob.value, *value, {}, false});
        }
    }
    return check;
}

RouteCheck RouteCheckCache::get(const Route& route, const std::vector<std::string>& flags,
                                const std::function<RouteCheck()>& check) {
    auto key = std::make_pair(route.to_string(), flags);
    {
        std::lock_guard lock(mutex_);
        auto found = checks_.find(key);
        if (found != checks_.end()) return found->second;
    }
    RouteCheck result = check();
    std::lock_guard lock(mutex_);
    return checks_.emplace(std::move(key), std::move(result)).first->second;
}

RouteCheck check_applied_route(const Route& route, const Catalog& catalog, const AppliedRoute& applied,
                               const AccountSource& source, RouteCheckCache& cache) {
    return cache.get(route, applied.flags, [&] {
        std::vector<std::string> unchecked;
        auto knobs = emitted_knobs(route, catalog, source.flags_of, unchecked);
        RouteCheck check = check_route_flags(applied.flags, knobs, source);
        check.unchecked.insert(check.unchecked.begin(), unchecked.begin(), unchecked.end());
        return check;
    });
}

std::string describe_route_conflicts(const RouteCheck& check) {
    std::string text = check.compiler + " would not build the route as recorded:";
    for (std::size_t i = 0; i < check.conflicts.size(); ++i) {
        const KnobConflict& c = check.conflicts[i];
        text += (i ? "; " : " ") + c.knob + "=" + c.asked + " ends as " +
                (c.reported.empty() ? std::string("another value") : c.reported) + " in " + check.compiler + "'s report";
        if (!c.overridden_by.empty()) {
            text += ", overridden by " + c.overridden_by.front();
        } else if (c.alone) {
            text += ", even with no other flag (" + check.compiler + "'s own rule)";
        } else {
            text += ", overridden by several of the other flags together";
        }
    }
    return text;
}

RouteCheck Adapter::check(const Route&, const Catalog&, const AppliedRoute&) const {
    RouteCheck check;
    check.compiler = name();
    check.note = "the " + name() + " adapter's compiler gives no account of its options";
    return check;
}

}  // namespace routetune
