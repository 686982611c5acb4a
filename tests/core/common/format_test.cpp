// The one formatter: three significant digits in a unit chosen by magnitude, the same string for
// the same value wherever it is shown.
#include <gtest/gtest.h>

#include <cmath>

#include "common/format.h"

namespace slimpack {
namespace {

TEST(Format, BytesInDecimalUnitsWithThreeSignificantDigits) {
  EXPECT_EQ(format_bytes(7.5e9), "7.50 GB");  // the value the tooltip and the panel disagreed on
  EXPECT_EQ(format_bytes(77.03e9), "77.0 GB");
  EXPECT_EQ(format_bytes(512e6), "512 MB");
  EXPECT_EQ(format_bytes(1.5e3), "1.50 kB");
  EXPECT_EQ(format_bytes(812), "812 B");
  EXPECT_EQ(format_bytes(0), "0 B");
  EXPECT_EQ(format_bytes(999.7e6), "1.00 GB");  // not "1000 MB"
  EXPECT_EQ(format_bytes(-2.5e9), "-2.50 GB");
  EXPECT_EQ(format_bytes(NAN), "-");
}

TEST(Format, TimesPickTheLargestUnitAtLeastOne) {
  EXPECT_EQ(format_time(0.00235), "2.35 ms");
  EXPECT_EQ(format_time(17.0), "17.0 s");
  EXPECT_EQ(format_time(123.4), "123 s");
  EXPECT_EQ(format_time(0.5), "500 ms");
  EXPECT_EQ(format_time(42e-6), "42.0 us");
  EXPECT_EQ(format_time(3e-9), "3.00 ns");
  EXPECT_EQ(format_time(0.0), "0 s");
  EXPECT_EQ(format_time(0.9997), "1.00 s");  // not "1000 ms"
  EXPECT_EQ(format_time(-0.0015), "-1.50 ms");
  EXPECT_EQ(format_time(4.5, "units"), "4.50 units");
}

TEST(Format, TimesWithFourDigitsForComparisonTables) {
  EXPECT_EQ(format_time_digits(55.702, 4), "55.70 s");
  EXPECT_EQ(format_time_digits(124.38, 4), "124.4 s");
  EXPECT_EQ(format_time_digits(0.0235, 4), "23.50 ms");
  EXPECT_EQ(format_time_digits(0.99996, 4), "1.000 s");  // not "1000.0 ms"
  EXPECT_EQ(format_time_digits(0.9994, 4), "999.4 ms");
  EXPECT_EQ(format_time_digits(4.5, 4, "units"), "4.500 units");
  EXPECT_EQ(format_time_digits(17.0, 3), format_time(17.0));
  EXPECT_EQ(format_time_digits(17.0, 1), format_time(17.0));  // fewer than 3 reads as 3
}

TEST(Format, PercentCountsAndRates) {
  EXPECT_EQ(format_percent(0.125), "12.5 %");
  EXPECT_EQ(format_percent(-0.0001), "0.0 %");  // no "-0.0 %"
  EXPECT_EQ(format_count(950), "950");
  EXPECT_EQ(format_count(412345), "412 k");
  EXPECT_EQ(format_count(1048576), "1.05 M");
  EXPECT_EQ(format_count(2.5e9), "2.50 G");
  EXPECT_EQ(format_rate(412345), "412 k tok/s");
  EXPECT_EQ(format_fixed(-0.001, 2), "0.00");
}

}  // namespace
}  // namespace slimpack
