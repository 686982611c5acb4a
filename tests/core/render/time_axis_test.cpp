#include "render/time_axis.h"

#include <gtest/gtest.h>

namespace slimpack {
namespace {

TEST(TimeAxis, NiceStepsAreOneTwoFive) {
  EXPECT_DOUBLE_EQ(nice_step(0.7), 1.0);
  EXPECT_DOUBLE_EQ(nice_step(1.0), 1.0);
  EXPECT_DOUBLE_EQ(nice_step(1.3), 2.0);
  EXPECT_DOUBLE_EQ(nice_step(3.0), 5.0);
  EXPECT_DOUBLE_EQ(nice_step(7.0), 10.0);
  EXPECT_NEAR(nice_step(0.013), 0.02, 1e-15);
  EXPECT_DOUBLE_EQ(nice_step(0.0), 1.0);
}

TEST(TimeAxis, AbstractUnitsArePlainNumbers) {
  // 15 units over 900 px: 90 px spacing needs 1.5 units -> step 2.
  const TimeAxis a = compute_time_axis(TimeScale({0, 15}, 0, 900), "units", 90);
  EXPECT_DOUBLE_EQ(a.step, 2.0);
  EXPECT_EQ(a.unit_label, "units");
  ASSERT_EQ(a.ticks.size(), 8u);
  EXPECT_EQ(a.ticks[1].label, "2");
  EXPECT_DOUBLE_EQ(a.ticks[1].x, 120.0);
  EXPECT_EQ(a.ticks.back().label, "14");
}

TEST(TimeAxis, SecondsPickAUnitByMagnitude) {
  // 12 ms over 1200 px: 90 px is 0.9 ms -> step 1 ms.
  const TimeAxis ms = compute_time_axis(TimeScale({0, 0.012}, 0, 1200), "s", 90);
  EXPECT_EQ(ms.unit_label, "ms");
  ASSERT_EQ(ms.ticks.size(), 13u);
  EXPECT_EQ(ms.ticks[0].label, "0 ms");
  EXPECT_EQ(ms.ticks[12].label, "12 ms");
  // Zoomed in on 1.5-2.5 ms: steps of 100 us still read in ms.
  const TimeAxis zoom = compute_time_axis(TimeScale({0.0015, 0.0025}, 0, 1000), "s", 90);
  EXPECT_NEAR(zoom.step, 1e-4, 1e-18);
  EXPECT_EQ(zoom.ticks.front().label, "1.5 ms");
  EXPECT_EQ(zoom.ticks[1].label, "1.6 ms");
  const TimeAxis sec = compute_time_axis(TimeScale({0, 25}, 0, 1000), "s", 90);
  EXPECT_EQ(sec.unit_label, "s");
  EXPECT_EQ(sec.ticks[1].label, "5 s");
  const TimeAxis us = compute_time_axis(TimeScale({0, 4e-4}, 0, 800), "s", 90);
  EXPECT_EQ(us.unit_label, "us");
  EXPECT_EQ(us.ticks[1].label, "50 us");
}

TEST(TimeAxis, FormatsDurationsAndBytes) {
  EXPECT_EQ(format_time(0.00235, "s"), "2.35 ms");
  EXPECT_EQ(format_time(17.0, "s"), "17.0 s");
  EXPECT_EQ(format_time(250e-6, "s"), "250 us");
  EXPECT_EQ(format_time(4.5, "units"), "4.50 units");
  EXPECT_EQ(format_bytes(900), "900 B");
  EXPECT_EQ(format_bytes(1.5e9), "1.50 GB");
  EXPECT_EQ(format_bytes(512e6), "512 MB");
  EXPECT_EQ(format_bytes(77.03e9), "77.0 GB");
}

TEST(TimeScale, MappingAndZoomKeepTheAnchor) {
  const TimeScale s({10, 20}, 100, 500);
  EXPECT_DOUBLE_EQ(s.x_of(15), 350.0);
  EXPECT_DOUBLE_EQ(s.t_of(350), 15.0);
  EXPECT_DOUBLE_EQ(s.px_per_time(), 50.0);
  const TimeRange z = zoom_range({10, 20}, 2.0, 12.0);
  EXPECT_DOUBLE_EQ(z.t0, 11.0);
  EXPECT_DOUBLE_EQ(z.t1, 16.0);
  // The anchor keeps its relative position: (12-10)/10 == (12-11)/5.
  const TimeScale zs(z, 100, 500);
  EXPECT_DOUBLE_EQ(zs.x_of(12.0), s.x_of(12.0));
  EXPECT_EQ(pan_range({10, 20}, 2.5), (TimeRange{12.5, 22.5}));
}

}  // namespace
}  // namespace slimpack
