// When a measured run cannot be a run of the plan it is checked against, run_plan_mismatch() says
// why (and the explorer shows that instead of a percentage error).
#include <gtest/gtest.h>

#include "app/trace_run.h"

namespace slimpack {
namespace {

TraceCheck matched(int units, double simulated_us, double measured_us) {
  TraceCheck c;
  c.units.resize(static_cast<std::size_t>(units));
  c.simulated_makespan_us = simulated_us;
  c.measured_makespan_us = measured_us;
  return c;
}

TEST(RunPlanMismatch, AMatchingRunHasNone) {
  EXPECT_EQ(run_plan_mismatch(matched(100, 9.3e6, 9.0e6)), "");
  TraceCheck c = matched(100, 9.3e6, 4.0e6);  // 2.3 times: a slower machine, still this plan
  c.only_simulated = 5;                       // 5 % missing: a trace cut short
  EXPECT_EQ(run_plan_mismatch(c), "");
}

TEST(RunPlanMismatch, NamesTheUnitsAndTheScale) {
  EXPECT_EQ(run_plan_mismatch(matched(0, 9.3e6, 1.0e5)),
            "no unit of the trace matches a pack of the plan");
  TraceCheck c = matched(11, 9.3e6, 9.3e6);
  c.only_simulated = 245;
  c.only_measured = 3;
  EXPECT_EQ(run_plan_mismatch(c),
            "11 of the plan's 256 units are in the trace and 3 units of the trace have no pack "
            "in the plan");
  // The third-party trace beside the default plan: 112 ms against 9.3 s.
  EXPECT_EQ(run_plan_mismatch(matched(256, 9.3e6, 1.12e5)),
            "the trace runs 112 ms where the plan is simulated at 9.30 s (83x)");
}

}  // namespace
}  // namespace slimpack
