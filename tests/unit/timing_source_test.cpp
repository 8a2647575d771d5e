// Timing sources on real processes: "cpu" is the run's user + system time from wait4, so a
// program that burns the CPU shows about its wall time and one that sleeps shows almost none;
// "process" is the wall time either way. The table of names and traits, and a factory for
// every name in it.
#include "eval/timing_source.hpp"

#include <gtest/gtest.h>

#include "routetune/error.hpp"
#include "util/process.hpp"

namespace routetune {
namespace {

class NoTimesAdapter : public Adapter {
public:
    std::string name() const override { return "none"; }
    Catalog discover() override { return {}; }
    AppliedRoute apply(const Route&, const Catalog&) const override { return {}; }
};

double measured(const std::string& source, const ProcessResult& result) {
    NoTimesAdapter adapter;
    std::string error;
    auto times = make_timing_source(source, adapter)->times(FinishedRun{result, {}, [] { return std::string(); }}, &error);
    EXPECT_TRUE(times) << error;
    return times ? times->front() : -1;
}

ProcessResult shell(const std::string& script) {
    ProcessSpec spec;
    spec.argv = {"/bin/sh", "-c", script};
    ProcessResult result = run_process(spec);
    EXPECT_TRUE(result.succeeded()) << result.err;
    return result;
}

TEST(CpuTiming, ABusyProgramCountsItsCpuTimeASleepingOneAlmostNone) {
    // The shell's own arithmetic loop: CPU work and nothing else (no child to wait for).
    ProcessResult busy = shell("i=0; while [ $i -lt 150000 ]; do i=$((i+1)); done");
    ProcessResult sleeper = shell("sleep 0.4");
    EXPECT_GT(measured("cpu", busy), 0.1) << "user " << busy.user_s << " system " << busy.system_s;
    EXPECT_LT(measured("cpu", sleeper), 0.05) << "a sleep uses no CPU";
    EXPECT_GT(measured("cpu", busy), 5 * measured("cpu", sleeper));
    EXPECT_GE(measured("process", sleeper), 0.4) << "wall time includes the sleep";
    EXPECT_LE(measured("cpu", busy), busy.wall_s + 0.05) << "one thread cannot use more CPU than wall time";
}

TEST(TimingSources, EveryNameInTheTableHasAnImplementation) {
    NoTimesAdapter adapter;
    for (const auto& name : timing_source_names()) EXPECT_NE(make_timing_source(name, adapter), nullptr) << name;
    EXPECT_EQ(timing_source_names().front(), "process") << "the default first";
    EXPECT_THROW(make_timing_source("sundial", adapter), UsageError);
    EXPECT_THROW(timing_source_traits("sundial"), UsageError);
}

TEST(TimingSources, OnlyReportedTimeMayOverlapBuildsAndReadsMetrics) {
    EXPECT_FALSE(timing_source_traits("process").overlaps_builds);
    EXPECT_FALSE(timing_source_traits("cpu").overlaps_builds) << "CPU time still shares caches and memory with builds";
    EXPECT_TRUE(timing_source_traits("reported").overlaps_builds);
    EXPECT_TRUE(timing_source_traits("reported").reads_metrics);
    EXPECT_FALSE(timing_source_traits("cpu").reads_metrics);
}

TEST(ReportedTiming, ReadsTheMetricsFileElseFailsNamingTheAdapter) {
    NoTimesAdapter adapter;
    ProcessResult result;
    std::string error;
    auto none = make_timing_source("reported", adapter)
                    ->times(FinishedRun{result, "/nonexistent/metrics.json", [] { return std::string("no time"); }}, &error);
    EXPECT_FALSE(none);
    EXPECT_NE(error.find("none adapter"), std::string::npos) << error;
}

}  // namespace
}  // namespace routetune
