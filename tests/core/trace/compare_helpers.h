#pragma once
// Shared by the trace comparison tests: compare two imported traces (a failure is a test failure)
// and index the result's rows by name.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "trace/trace_compare.h"
#include "trace/trace_import.h"

namespace slimpack::test {

inline TraceComparison compared(const ImportedTrace& a, const ImportedTrace& b,
                                const TraceCompareOptions& o = {}) {
  auto c = compare_traces(a, b, o);
  EXPECT_TRUE(c.ok()) << (c.ok() ? "" : c.error().message);
  return c.ok() ? *c : TraceComparison{};
}

inline std::map<std::string, NameDiff> by_name(const TraceComparison& c) {
  std::map<std::string, NameDiff> m;
  for (const NameDiff& d : c.names) m[d.name] = d;
  return m;
}

}  // namespace slimpack::test
