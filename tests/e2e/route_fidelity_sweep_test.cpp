// The route is what was built (docs/design.md, "Evidence that cannot lie"), against the real gcc
// and clang of this machine. Every value of every knob of their catalogs (the `~` values of
// integer knobs), one at a time on top of -O2, and the known umbrella pairs (each -O level
// with every optimizer switch on and off, fast math and unsafe math with each of their parts,
// each -march value with every ISA switch on and off) end in the value the route asks for in
// the compiler's own account; the exceptions are listed below with the reason the compiler
// cannot honour them, and each must be route_conflict. Each value is its own route, except
// GCC's params and Clang's -mllvm options, checked in rounds (the i-th value of each at once):
// GCC sets a param from others only when it was not given (SET_OPTION_IF_UNSET), and clang's
// driver forwards -mllvm options verbatim, so neither can mask another's value. Pairs of an
// umbrella and many switches are batches too. A conflict in a batch is checked again as the
// knob alone (with its umbrella, for pairs); a batch the compiler rejects is split. A study
// that builds a route as recorded and refuses a conflicting one: route_fidelity_cli_test.cpp.
#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <future>
#include <mutex>
#include <set>

#include "adapters/clang_adapter.hpp"
#include "adapters/clang_route_check.hpp"
#include "adapters/gcc_adapter.hpp"
#include "adapters/gcc_route_check.hpp"
#include "adapters/host_isa.hpp"
#include "adapters/route_checker.hpp"
#include "e2e/cli_harness.hpp"
#include "routes/value_spec.hpp"
#include "util/process.hpp"
#include "util/text.hpp"

namespace routetune::e2e {
namespace {

// A conflict of one knob value, alone or with its umbrella.
struct Finding {
    std::string route;     // the route checked
    std::string knob;      // the knob that conflicts
    std::string reported;  // what the compiler ends with
    std::string cause;     // the overriding flag, "alone" or "together"
};

std::string cause_of(const KnobConflict& conflict) {
    if (!conflict.overridden_by.empty()) return conflict.overridden_by.front();
    return conflict.alone ? "alone" : "together";
}

// The account source an adapter's check uses for a route.
using SourceOf = std::function<AccountSource(const Route& route)>;

class Sweep {
public:
    Sweep(const Adapter& adapter, const Catalog& catalog, SourceOf source_of)
        : adapter_(adapter), catalog_(catalog), source_of_(std::move(source_of)) {}

    struct Batch {
        Route anchor;  // the umbrella of a pair (empty for single values)
        Route knobs;
    };

    // Checks every batch, two at a time.
    void run(const std::vector<Batch>& batches) {
        std::vector<std::future<void>> running;
        for (const auto& batch : batches) {
            if (running.size() == 2) {
                running.front().get();
                running.erase(running.begin());
            }
            running.push_back(std::async(std::launch::async, [this, batch] { check(batch.anchor, batch.knobs); }));
        }
        for (auto& task : running) task.get();
    }

    std::vector<Finding> findings() const {
        std::lock_guard lock(mutex_);
        return findings_;
    }
    std::set<std::string> rejected() const {
        std::lock_guard lock(mutex_);
        return rejected_;
    }
    std::size_t checks() const { return checks_; }

private:
    void check(const Route& anchor, const Route& knobs) {
        Route route = anchor;
        for (const auto& [name, value] : knobs.assignments()) route.set(name, value);
        ++checks_;
        RouteCheck result = knobs.assignments().size() <= 1 ? adapter_.check(route, catalog_, adapter_.apply(route, catalog_))
                                                            : check_batch(route);
        if (!result.checked) {
            if (knobs.assignments().size() <= 1) {
                std::lock_guard lock(mutex_);
                rejected_.insert(route.to_string());
                return;
            }
            Route first, second;
            std::size_t i = 0, half = knobs.assignments().size() / 2;
            for (const auto& [name, value] : knobs.assignments()) (i++ < half ? first : second).set(name, value);
            check(anchor, first);
            check(anchor, second);
            return;
        }
        for (const auto& conflict : result.conflicts) {
            if (knobs.assignments().size() <= 1 || anchor.get(conflict.knob)) {
                std::lock_guard lock(mutex_);
                findings_.push_back({route.to_string(), conflict.knob, conflict.reported, cause_of(conflict)});
                continue;
            }
            Route alone;
            alone.set(conflict.knob, conflict.asked);
            check(anchor, alone);
        }
    }

    // A batch is checked as the adapter does, but without naming overriders: each of its
    // conflicts is checked again on its own, with its overrider named there.
    RouteCheck check_batch(const Route& route) const {
        AccountSource source = source_of_(route);
        source.name_overriders = false;
        std::vector<std::string> unchecked;
        auto knobs = emitted_knobs(route, catalog_, source.flags_of, unchecked);
        return check_route_flags(adapter_.apply(route, catalog_).flags, knobs, source);
    }

    const Adapter& adapter_;
    const Catalog& catalog_;
    SourceOf source_of_;
    mutable std::mutex mutex_;
    std::vector<Finding> findings_;
    std::set<std::string> rejected_;
    std::atomic<std::size_t> checks_{0};
};

// Every value a route may give knob: all values of a switch or enum, the `~` values of an int.
std::vector<std::string> values_of(const Knob& knob) {
    if (knob.type != KnobType::Int) return knob.values;
    std::vector<std::string> values;
    for (auto value : representative_ints(knob)) values.push_back(std::to_string(value));
    return values;
}

// One route per value of every knob, except knobs named batched_prefix...: those go in
// rounds, round i holding the i-th value of each (they cannot mask one another, see above).
std::vector<Sweep::Batch> single_values(const Catalog& catalog, const std::string& batched_prefix) {
    std::vector<Sweep::Batch> singles, rounds;
    for (const auto& knob : catalog.knobs()) {
        auto values = values_of(knob);
        for (std::size_t i = 0; i < values.size(); ++i) {
            if (!knob.name.starts_with(batched_prefix)) {
                singles.emplace_back();
                singles.back().knobs.set(knob.name, values[i]);
                continue;
            }
            if (rounds.size() <= i) rounds.emplace_back();
            rounds[i].knobs.set(knob.name, values[i]);
        }
    }
    singles.insert(singles.end(), rounds.begin(), rounds.end());
    return singles;
}

// For each value of umbrella: knobs all on, and all off, in one batch each.
std::vector<Sweep::Batch> switch_pairs(const Catalog& catalog, const std::string& umbrella,
                                       const std::vector<std::string>& knobs) {
    std::vector<Sweep::Batch> batches;
    for (const auto& value : values_of(*catalog.find(umbrella))) {
        for (const char* state : {"on", "off"}) {
            Sweep::Batch batch;
            batch.anchor.set(umbrella, value);
            for (const auto& name : knobs) {
                if (catalog.find(name)->allows(state)) batch.knobs.set(name, state);
            }
            batches.push_back(batch);
        }
    }
    return batches;
}

// For each value of umbrella and each value of each part: one pair each.
std::vector<Sweep::Batch> value_pairs(const Catalog& catalog, const std::string& umbrella,
                                      const std::vector<std::string>& parts) {
    std::vector<Sweep::Batch> batches;
    for (const auto& value : values_of(*catalog.find(umbrella))) {
        for (const auto& part : parts) {
            const Knob* knob = catalog.find(part);
            if (!knob) continue;
            for (const auto& part_value : values_of(*knob)) {
                Sweep::Batch batch;
                batch.anchor.set(umbrella, value);
                batch.knobs.set(part, part_value);
                batches.push_back(batch);
            }
        }
    }
    return batches;
}

std::vector<std::string> optimizer_switches(const Catalog& catalog) {
    std::vector<std::string> names;
    for (const auto& knob : catalog.knobs()) {
        if (knob.type == KnobType::Bool && knob.name.starts_with("-f")) names.push_back(knob.name);
    }
    return names;
}

// A conflict the compiler really has: the route (a value `*` matches any value of its knob),
// the knob, what it ends as, the overriding flag (`-march=*` matches any -march flag) or
// "alone", and why.
struct Expected {
    std::string route;
    std::string knob;
    std::string reported;
    std::string cause;
    std::string why;
};

// True when text matches pattern, where a `*` after '=' stands for any value.
bool matches(const std::string& pattern, const std::string& text) {
    auto star = pattern.find("=*");
    if (star == std::string::npos) return pattern == text;
    std::string prefix = pattern.substr(0, star + 1);
    if (!text.starts_with(prefix)) return false;
    std::string rest = pattern.substr(star + 2);
    auto space = text.find(' ', prefix.size());
    std::string text_rest = space == std::string::npos ? "" : text.substr(space);
    return matches(rest, text_rest);
}

bool expected_as(const Finding& found, const Expected& e) {
    return matches(e.route, found.route) && e.knob == found.knob && e.reported == found.reported &&
           matches(e.cause, found.cause);
}

// Every finding is expected, and every expected one is found.
void expect_exactly(const std::vector<Finding>& findings, const std::vector<Expected>& expected) {
    std::vector<bool> seen(expected.size(), false);
    for (const auto& found : findings) {
        bool listed = false;
        for (std::size_t i = 0; i < expected.size(); ++i) {
            if (!expected_as(found, expected[i])) continue;
            listed = true;
            seen[i] = true;
        }
        EXPECT_TRUE(listed) << "unexpected route_conflict: " << found.route << " | " << found.knob << " -> "
                            << found.reported << " (" << found.cause << ")";
    }
    for (std::size_t i = 0; i < expected.size(); ++i) {
        EXPECT_TRUE(seen[i]) << "no longer a conflict: " << expected[i].route << " (" << expected[i].why << ")";
    }
}

// True when the route text has token among its NAME=VALUE tokens.
bool has_token(const std::string& route, const std::string& token) {
    return (" " + route + " ").find(" " + token + " ") != std::string::npos;
}

AdapterOptions options_for(const std::string& compiler) {
    AdapterOptions options;
    options.compiler = compiler;
    options.base_flags = {"-O2"};
    options.cache_dir = shared_cache_home() / "routetune" / "catalogs";
    options.host_isa_only = false;
    return options;
}

class GccRouteFidelity : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        adapter_ = new GccAdapter(options_for("gcc"));
        catalog_ = new Catalog(adapter_->discover());
    }
    static void TearDownTestSuite() {
        delete catalog_;
        delete adapter_;
    }

    static SourceOf gcc_source() {
        return [](const Route&) { return gcc_account_source(catalog_->compiler); };
    }

    static inline GccAdapter* adapter_ = nullptr;
    static inline Catalog* catalog_ = nullptr;
};

// GCC 12.2 on x86-64 at -O2: the values GCC cannot honour, and why.
const std::vector<Expected> kGccSingle = {
    {"-ffp-contract=on", "-ffp-contract", "off", "alone", "GCC 12 implements 'on' as 'off'"},
    {"-fvar-tracking=on", "-fvar-tracking", "off", "alone", "needs debug info (-g)"},
    {"-fvar-tracking-uninit=on", "-fvar-tracking-uninit", "off", "alone", "needs debug info (-g)"},
    {"-fsel-sched-pipelining-outer-loops=on", "-fsel-sched-pipelining-outer-loops", "off", "alone",
     "needs -fsel-sched-pipelining"},
    {"-funroll-completely-grow-size=on", "-funroll-completely-grow-size", "off", "alone",
     "GCC turns it on only with -funroll-loops, -fpeel-loops or -O3"},
    {"-momit-leaf-frame-pointer=on", "-momit-leaf-frame-pointer", "off", "-O2",
     "GCC clears it when -fomit-frame-pointer is on, which -O2 turns on"},
    {"-mfancy-math-387=off", "-mfancy-math-387", "on", "alone", "no effect with SSE math in 64-bit mode"},
    {"-mregparm=*", "-mregparm", "", "alone", "'-mregparm' is ignored in 64-bit mode (GCC's warning), every value"},
    {"-fassociative-math=on", "-fassociative-math", "off", "alone",
     "'-fassociative-math' disabled (GCC's warning) unless -fno-signed-zeros and -fno-trapping-math"},
};

// Pairs GCC cannot honour beyond the single values above.
const std::vector<Expected> kGccPairs = {
    {"-O=0 -finline=on", "-finline", "off", "alone", "GCC does not inline at -O0 (its default level)"},
    {"-O=3 -funroll-completely-grow-size=off", "-funroll-completely-grow-size", "on", "-O3",
     "-O3 turns it on even when it is asked off"},
    {"-O=fast -funroll-completely-grow-size=off", "-funroll-completely-grow-size", "on", "-Ofast",
     "-Ofast turns it on even when it is asked off"},
    {"-O=s -fprefetch-loop-arrays=on", "-fprefetch-loop-arrays", "off", "-Os",
     "'-fprefetch-loop-arrays' is not supported with '-Os' (GCC's warning)"},
    {"-O=z -fprefetch-loop-arrays=on", "-fprefetch-loop-arrays", "off", "-Oz",
     "'-fprefetch-loop-arrays' is not supported with '-Oz' (GCC's warning)"},
    {"-march=* -mhle=off", "-mhle", "on", "-march=*",
     "GCC 12 keeps HLE on for the -march values that have it (Haswell and later Intel cores, KNL, KNM)"},
};

// Catalog values GCC rejects outright (-Q exits non-zero): not checked (the build fails and
// says why). Discovery keeps them: the stack boundaries' printed default (0) lies outside the
// range GCC accepts (3..12), and the `~` values of -mregparm (default 6) go past its limit;
// that is the catalog's concern, not the check's.
const std::set<std::string> kGccRejected = {"-mincoming-stack-boundary=0", "-mpreferred-stack-boundary=0",
                                            "-mregparm=12", "-mregparm=24"};

TEST_F(GccRouteFidelity, EveryValueOfEveryKnobEndsAsTheRouteAsks) {
    Sweep sweep(*adapter_, *catalog_, gcc_source());
    sweep.run(single_values(*catalog_, "-param:"));
    expect_exactly(sweep.findings(), kGccSingle);
    for (const auto& route : sweep.rejected()) EXPECT_TRUE(kGccRejected.count(route)) << "rejected: " << route;
    RecordProperty("checks", static_cast<int>(sweep.checks()));
}

// The pairs' conflicts that are not those of a single value above.
std::vector<Finding> beyond_single(const std::vector<Finding>& findings, const std::vector<Expected>& single) {
    std::vector<Finding> left;
    for (const auto& found : findings) {
        bool known = false;
        for (const auto& e : single) {
            for (const auto& token : split_words(found.route)) known = known || (matches(e.route, token) && found.knob == e.knob);
        }
        if (!known) left.push_back(found);
    }
    return left;
}

TEST_F(GccRouteFidelity, UmbrellaPairsEndAsTheRouteAsks) {
    Sweep sweep(*adapter_, *catalog_, gcc_source());
    auto batches = value_pairs(*catalog_, "-ffast-math",
                               {"-funsafe-math-optimizations", "-fassociative-math", "-freciprocal-math",
                                "-fsigned-zeros", "-ftrapping-math", "-ffinite-math-only", "-fmath-errno",
                                "-frounding-math", "-fsignaling-nans", "-fcx-limited-range", "-fexcess-precision"});
    for (auto& batch : value_pairs(*catalog_, "-funsafe-math-optimizations",
                                   {"-fassociative-math", "-freciprocal-math", "-fsigned-zeros", "-ftrapping-math"})) {
        batches.push_back(batch);
    }
    for (auto& batch : switch_pairs(*catalog_, "-O", optimizer_switches(*catalog_))) batches.push_back(batch);
    std::set<std::string> isa = gcc_isa_switches(*catalog_);
    for (auto& batch : switch_pairs(*catalog_, "-march", {isa.begin(), isa.end()})) batches.push_back(batch);
    sweep.run(batches);
    expect_exactly(beyond_single(sweep.findings(), kGccSingle), kGccPairs);
    for (const auto& route : sweep.rejected()) ADD_FAILURE() << "rejected: " << route;
}

// Clang 14 on x86-64 at -O2: every value, alone, ends as asked. A switch, -O, -march or
// -mtune value alone is the last flag, so the driver's cc1 line is what it asked for; what
// this sweep shows is that ISA switches end as asked in the feature macros and -mllvm values
// reach cc1 as asked.
const std::vector<Expected> kClangSingle = {};

// Pairs clang cannot honour beyond the single values above: none, with the umbrella first.
const std::vector<Expected> kClangPairs = {};

// Catalog values clang rejects outright: not checked (the build fails and says why).
// -ftrapv-handler takes a function name as its next argument; discovery's probe compile gave
// it one by accident (the next flag), so the catalog offers it as a switch: the catalog's
// concern, not the check's.
const std::set<std::string> kClangRejected = {"-ftrapv-handler=on"};

class ClangRouteFidelity : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        if (find_executable("clang").empty()) return;
        adapter_ = new ClangAdapter(options_for("clang"));
        catalog_ = new Catalog(adapter_->discover());
    }
    static void TearDownTestSuite() {
        delete catalog_;
        delete adapter_;
    }
    void SetUp() override {
        if (!catalog_) GTEST_SKIP() << "no clang on PATH";
    }

    static SourceOf clang_source() {
        return [](const Route& route) {
            return clang_account_source(catalog_->compiler, clang_route_needs_macros(route, *catalog_));
        };
    }

    static inline ClangAdapter* adapter_ = nullptr;
    static inline Catalog* catalog_ = nullptr;
};

TEST_F(ClangRouteFidelity, EveryValueOfEveryKnobEndsAsTheRouteAsks) {
    Sweep sweep(*adapter_, *catalog_, clang_source());
    sweep.run(single_values(*catalog_, "-mllvm:"));
    expect_exactly(sweep.findings(), kClangSingle);
    for (const auto& route : sweep.rejected()) EXPECT_TRUE(kClangRejected.count(route)) << "rejected: " << route;
    RecordProperty("checks", static_cast<int>(sweep.checks()));
}

// ISA extensions imply one another in clang's backend, not in its driver: the cc1 line keeps
// both -mno-avx and -mavx512f, and only the feature macros tell that AVX ends on.
TEST_F(ClangRouteFidelity, AnIsaSwitchAnotherOneImpliesIsRouteConflict) {
    Route route = Route::parse("-mavx=off -mavx512f=on");
    RouteCheck check = adapter_->check(route, *catalog_, adapter_->apply(route, *catalog_));
    ASSERT_EQ(check.conflicts.size(), 1u) << describe_route_conflicts(check);
    EXPECT_EQ(check.conflicts[0].knob, "-mavx");
    EXPECT_EQ(check.conflicts[0].reported, "on");
    EXPECT_EQ(check.conflicts[0].overridden_by, (std::vector<std::string>{"-mavx512f"}));
    Route fine = Route::parse("-mavx=on -mavx512f=off");
    EXPECT_TRUE(adapter_->check(fine, *catalog_, adapter_->apply(fine, *catalog_)).conflicts.empty());
}

TEST_F(ClangRouteFidelity, UmbrellaPairsEndAsTheRouteAsks) {
    Sweep sweep(*adapter_, *catalog_, clang_source());
    auto batches = value_pairs(*catalog_, "-ffast-math",
                               {"-funsafe-math-optimizations", "-fassociative-math", "-freciprocal-math",
                                "-fsigned-zeros", "-ftrapping-math", "-ffinite-math-only", "-fhonor-nans",
                                "-fhonor-infinities", "-fmath-errno", "-fapprox-func", "-frounding-math"});
    for (auto& batch : value_pairs(*catalog_, "-funsafe-math-optimizations",
                                   {"-fassociative-math", "-freciprocal-math", "-fsigned-zeros", "-ftrapping-math",
                                    "-fapprox-func"})) {
        batches.push_back(batch);
    }
    for (auto& batch : value_pairs(*catalog_, "-ffinite-math-only", {"-fhonor-nans", "-fhonor-infinities"})) {
        batches.push_back(batch);
    }
    for (auto& batch : switch_pairs(*catalog_, "-O", optimizer_switches(*catalog_))) batches.push_back(batch);
    std::vector<std::string> isa;
    for (const auto& knob : catalog_->knobs()) {
        bool feature = knob.type == KnobType::Bool && knob.name.starts_with("-m") && !knob.name.starts_with("-mllvm:") &&
                       !knob.default_value.empty();
        if (feature) isa.push_back(knob.name);
    }
    for (auto& batch : switch_pairs(*catalog_, "-march", isa)) batches.push_back(batch);
    sweep.run(batches);
    expect_exactly(beyond_single(sweep.findings(), kClangSingle), kClangPairs);
    for (const auto& route : sweep.rejected()) {
        bool known = false;
        for (const auto& single : kClangRejected) known = known || has_token(route, single);
        EXPECT_TRUE(known) << "rejected: " << route;
    }
}

}  // namespace
}  // namespace routetune::e2e
