// trace compare per profiler step, with self time, the profiler span left out, the category check
// and HTA's short names, over hand-built traces whose figures are worked out in the comments.
#include <gtest/gtest.h>

#include <map>

#include "compare_helpers.h"
#include "hand_trace.h"
#include "trace/trace_compare.h"

namespace slimpack {
namespace {

// Steps of 100 us from 0; in each step (b = its start): "fn" [b+10, b+10+outer) holding "fn"
// [b+20, b+20+inner) holding "aten::mm" [b+25, b+25+mm), which launches "gemm" at b+30 (a 2 us
// cudaLaunchKernel); the gemm runs [b+105, b+105+gemm): in the next step's window, or after the
// last step. "PyTorch Profiler (0)" spans the recording.
HandTrace stepped(int steps, double outer, double inner, double mm, double gemm) {
  HandTrace t;
  t.x("user_annotation", "PyTorch Profiler (0)", "1", "1", 0, 100.0 * steps + 100);
  for (int k = 0; k < steps; ++k) {
    const double b = 100.0 * k;
    t.step(k + 1, b, 100);
    t.x("python_function", "fn", "1", "1", b + 10, outer);
    t.x("python_function", "fn", "1", "1", b + 20, inner);
    t.x("cpu_op", "aten::mm", "1", "1", b + 25, mm);
    t.op("kernel", "gemm", 7, b + 105, gemm, b + 30, 2);
  }
  return t;
}

// A: 3 steps; per step fn total 50 + 30 = 80, self (50 - 30) + (30 - 10) = 40; aten::mm 10, self
// 10 - 2 (its cudaLaunchKernel) = 8; gemm 25.
ImportedTrace trace_a() {
  return import(stepped(3, 50, 30, 10, 25), "a.json");
}
// B: 2 steps; per step fn 70 + 40 = 110, self 30 + 20 = 50; aten::mm 20, self 18; gemm 40.
ImportedTrace trace_b() {
  return import(stepped(2, 70, 40, 20, 40), "b.json");
}

using test::by_name;
using test::compared;

TEST(TraceCompareSteps, WholeTraceHasSelfTimeAndNoProfilerSpan) {
  const TraceComparison c = compared(trace_a(), trace_b(), {});
  auto m = by_name(c);
  EXPECT_EQ(m.count("PyTorch Profiler (0)"), 0u);  // left out by default
  EXPECT_TRUE(c.a.steps.empty());
  EXPECT_TRUE(c.note.empty());
  // fn in fn: 3 x 80 = 240 us of durations, but the lane spent 3 x 40 = 120 us in fn itself.
  EXPECT_EQ(m["fn"].count_a, 6);
  EXPECT_DOUBLE_EQ(m["fn"].total_us_a, 240);
  EXPECT_DOUBLE_EQ(m["fn"].self_us_a, 120);
  EXPECT_DOUBLE_EQ(m["fn"].total_us_b, 220);
  EXPECT_DOUBLE_EQ(m["fn"].self_us_b, 100);
  EXPECT_DOUBLE_EQ(m["fn"].delta_us, -20);
  EXPECT_DOUBLE_EQ(m["fn"].delta_self_us, -20);
  EXPECT_DOUBLE_EQ(m["aten::mm"].self_us_a, 24);
  // ProfilerStep#1: 100 minus its one child on its lane, the outer fn (the gemm runs on a stream).
  EXPECT_DOUBLE_EQ(m["ProfilerStep#1"].self_us_a, 50);
  EXPECT_DOUBLE_EQ(m["ProfilerStep#1"].self_us_b, 30);

  TraceCompareOptions o;
  o.include_profiler_span = true;
  auto with = by_name(compared(trace_a(), trace_b(), o));
  ASSERT_EQ(with.count("PyTorch Profiler (0)"), 1u);
  EXPECT_DOUBLE_EQ(with["PyTorch Profiler (0)"].total_us_a, 400);
  // Its self time is what no step covers: 400 - 3 x 100.
  EXPECT_DOUBLE_EQ(with["PyTorch Profiler (0)"].self_us_a, 100);
}

TEST(TraceCompareSteps, AllStepsAreMeansPerStep) {
  TraceCompareOptions o;
  o.steps = StepRange{};
  const TraceComparison c = compared(trace_a(), trace_b(), o);
  EXPECT_EQ(c.a.steps, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(c.b.steps, (std::vector<int>{1, 2}));
  EXPECT_EQ(c.note, "A has 3 steps in all, B has 2: means per step");
  auto m = by_name(c);
  EXPECT_DOUBLE_EQ(m["fn"].count_a, 2);
  EXPECT_DOUBLE_EQ(m["fn"].total_us_a, 80);
  EXPECT_DOUBLE_EQ(m["fn"].self_us_a, 40);
  EXPECT_DOUBLE_EQ(m["fn"].total_us_b, 110);
  EXPECT_DOUBLE_EQ(m["fn"].self_us_b, 50);
  EXPECT_DOUBLE_EQ(m["fn"].delta_us, 30);
  EXPECT_DOUBLE_EQ(m["fn"].delta_self_us, 10);
  // Every gemm is launched inside a step, also the last one that runs after A's steps end.
  EXPECT_DOUBLE_EQ(m["gemm"].count_a, 1);
  EXPECT_DOUBLE_EQ(m["gemm"].total_us_a, 25);
  EXPECT_DOUBLE_EQ(m["gemm"].total_us_b, 40);
  // Each ProfilerStep#k is one of A's three steps: 1/3 per step.
  EXPECT_DOUBLE_EQ(m["ProfilerStep#3"].count_a, 1.0 / 3.0);
  EXPECT_EQ(m["ProfilerStep#3"].status, NameDiffStatus::Removed);
  // Sides: per step too.
  EXPECT_DOUBLE_EQ(c.a.total_us, 100 + 80 + 10 + 2 + 25);
  EXPECT_EQ(c.a.counted, 3 * 6);  // events over the three steps
}

TEST(TraceCompareSteps, OneStepAttributesKernelsByLaunch) {
  TraceCompareOptions o;
  o.steps = StepRange{1, 1};
  const TraceComparison c = compared(trace_a(), trace_b(), o);
  EXPECT_TRUE(c.note.empty());
  auto m = by_name(c);
  // Step 1 is [0, 100): its gemm runs [105, 130), in step 2's window, but was launched at 30.
  // Step 2's gemm (launched at 130) is not step 1's, though step 1's window ends before it.
  EXPECT_DOUBLE_EQ(m["gemm"].count_a, 1);
  EXPECT_DOUBLE_EQ(m["gemm"].total_us_a, 25);
  EXPECT_DOUBLE_EQ(m["fn"].total_us_a, 80);
  EXPECT_EQ(m.count("ProfilerStep#2"), 0u);
  EXPECT_EQ(c.a.steps, (std::vector<int>{1}));
}

TEST(TraceCompareSteps, ARepeatedStepIsOneStepPerOccurrenceAndSaysSo) {
  // ProfilerStep#1 [0, 100), #2 [100, 200), #1 again [200, 300); one gemm in each: 20, 40, 50 us.
  // --steps 1: two steps, gemm 1 per step and (20 + 50) / 2 = 35 us; merged into one window
  // [0, 300) it was 3 gemms and 110 us in "one step".
  HandTrace t;
  t.step(1, 0, 100);
  t.step(2, 100, 100);
  t.step(1, 200, 100);
  t.bare("kernel", "gemm", 7, 10, 20);
  t.bare("kernel", "gemm", 7, 110, 40);
  t.bare("kernel", "gemm", 7, 210, 50);
  const ImportedTrace trace = import(t, "r.json");
  TraceCompareOptions o;
  o.steps = StepRange{1, 1};
  const TraceComparison c = compared(trace, trace, o);
  EXPECT_EQ(c.a.steps, (std::vector<int>{1, 1}));
  EXPECT_EQ(c.a.repeated_steps, (std::vector<int>{1}));
  EXPECT_EQ(c.note,
            "A has ProfilerStep#1 more than once: each occurrence is a step of its own; B has "
            "ProfilerStep#1 more than once: each occurrence is a step of its own");
  auto m = by_name(c);
  EXPECT_DOUBLE_EQ(m["gemm"].count_a, 1);
  EXPECT_DOUBLE_EQ(m["gemm"].total_us_a, 35);
  // All steps: three, the gemms 110 / 3 per step.
  o.steps = StepRange{};
  m = by_name(compared(trace, trace, o));
  EXPECT_DOUBLE_EQ(m["gemm"].total_us_a, 110.0 / 3.0);
  // The step list of an error names a repeated number once.
  o.steps = StepRange{5, 5};
  EXPECT_EQ(compare_traces(trace, trace, o).error().message,
            "r.json: no ProfilerStep#5 (its steps: 1-2)");
}

TEST(TraceCompareSteps, RangeWithDifferentCountsSaysSo) {
  TraceCompareOptions o;
  o.steps = StepRange{2, 3};
  const TraceComparison c = compared(trace_a(), trace_b(), o);
  EXPECT_EQ(c.a.steps, (std::vector<int>{2, 3}));
  EXPECT_EQ(c.b.steps, (std::vector<int>{2}));
  EXPECT_EQ(c.note, "A has 2 steps in 2-3, B has 1: means per step");
  EXPECT_DOUBLE_EQ(by_name(c)["fn"].total_us_a, 80);
}

TEST(TraceCompareSteps, MissingStepsAreErrorsNamingTheSteps) {
  TraceCompareOptions o;
  o.steps = StepRange{5, 5};
  auto c = compare_traces(trace_a(), trace_b(), o);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().message, "a.json: no ProfilerStep#5 (its steps: 1-3)");
  o.steps = StepRange{3, 4};
  c = compare_traces(trace_a(), trace_b(), o);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().message, "b.json: no step in 3-4 (its steps: 1-2)");

  HandTrace flat;
  flat.x("cpu_op", "aten::mm", "1", "1", 0, 10);
  o.steps = StepRange{};
  c = compare_traces(import(flat, "flat.json"), trace_b(), o);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("flat.json: no ProfilerStep#N span"), std::string::npos);
}

TEST(TraceCompareSteps, SelfOrderAndStatus) {
  // By self time, fn changed by +10 of 50 per step (20 %: longer) and aten::mm by +10 of 18.
  TraceCompareOptions o;
  o.steps = StepRange{1, 1};
  o.by = CompareTime::Self;
  auto m = by_name(compared(trace_a(), trace_b(), o));
  EXPECT_EQ(m["fn"].status, NameDiffStatus::Longer);
  EXPECT_DOUBLE_EQ(m["aten::mm"].delta_self_us, 10);
}

TEST(TraceCompareSteps, ParseStepRange) {
  EXPECT_EQ(*parse_step_range("all"), StepRange{});
  EXPECT_EQ(*parse_step_range("7"), (StepRange{7, 7}));
  EXPECT_EQ(*parse_step_range("2-5"), (StepRange{2, 5}));
  EXPECT_EQ(step_range_text(StepRange{2, 5}), "2-5");
  EXPECT_EQ(step_range_text(StepRange{7, 7}), "7");
  EXPECT_EQ(step_range_text(StepRange{}), "all");
  for (const char* bad : {"", "x", "-3", "3-", "5-2", "1-2-3", "1.5", "+2"})
    EXPECT_FALSE(parse_step_range(bad).ok()) << bad;
  EXPECT_EQ(parse_step_range("5-2").error().message,
            "--steps '5-2': the range ends before it starts");
}

TEST(TraceCompareSelf, PartialOverlapIsClipped) {
  // b starts inside a and ends after it: b is clipped to a, [5, 10), so a loses [5, 10) and b's
  // self time is those 5 us; c, after a's end, is nested in neither.
  HandTrace t;
  t.x("cpu_op", "a", "1", "1", 0, 10);
  t.x("cpu_op", "b", "1", "1", 5, 15);
  t.x("cpu_op", "c", "1", "1", 12, 2);
  auto m = by_name(compared(import(t), import(t), {}));
  EXPECT_DOUBLE_EQ(m["a"].self_us_a, 5);
  EXPECT_DOUBLE_EQ(m["b"].self_us_a, 5);
  EXPECT_DOUBLE_EQ(m["b"].total_us_a, 15);  // the total is the event's whole duration
  EXPECT_DOUBLE_EQ(m["c"].self_us_a, 2);
}

TEST(TraceCompareSelf, ChildOutlivingItsParentNeverAddsSelfTime) {
  // The reported case: "fn" [0, 400) holds "child" [100, 405), which ends 5 us after it. Self
  // times were 100 + 305 = 405 us in a 400 us range; the child is clipped: 100 + 300.
  HandTrace t;
  t.x("cpu_op", "fn", "1", "1", 0, 400);
  t.x("cpu_op", "child", "1", "1", 100, 305);
  t.x("cpu_op", "grandchild", "1", "1", 350, 100);  // clipped to [350, 400) through both
  auto m = by_name(compared(import(t), import(t), {}));
  EXPECT_DOUBLE_EQ(m["fn"].self_us_a, 100);
  EXPECT_DOUBLE_EQ(m["child"].self_us_a, 250);
  EXPECT_DOUBLE_EQ(m["grandchild"].self_us_a, 50);
  EXPECT_DOUBLE_EQ(m["fn"].self_us_a + m["child"].self_us_a + m["grandchild"].self_us_a, 400);
}

TEST(TraceCompareSelf, AnnotationOnAStreamLosesItsKernels) {
  HandTrace t;
  t.bare("gpu_user_annotation", "forward", 7, 0, 100);
  t.bare("kernel", "k", 7, 10, 10);
  t.bare("kernel", "k", 7, 30, 20);
  auto m = by_name(compared(import(t), import(t), {}));
  EXPECT_DOUBLE_EQ(m["forward"].self_us_a, 70);
  EXPECT_DOUBLE_EQ(m["k"].self_us_a, 30);
}

TEST(TraceCompareCategory, UnknownOrAbsentCategoryListsThePresentOnes) {
  const ImportedTrace a = trace_a();
  HandTrace cpu_only;
  cpu_only.x("cpu_op", "aten::mm", "1", "1", 0, 10);
  const ImportedTrace b = import(cpu_only, "b.json");
  EXPECT_TRUE(check_compare_category(a, a, "kernel").ok());
  EXPECT_TRUE(check_compare_category(a, b, "").ok());
  Status s = check_compare_category(a, b, "Kernel");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message,
            "--category Kernel: no complete event of this category in A nor B (categories of A, "
            "a.json: cpu_op, cuda_runtime, kernel, python_function, user_annotation; of B, "
            "b.json: cpu_op)");
  s = check_compare_category(a, b, "kernel");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message.rfind("--category kernel: no complete event of this category in B "
                                    "(",
                                    0),
            0u);
  EXPECT_EQ(event_categories(b), (std::vector<std::string>{"cpu_op"}));
}

TEST(TraceCompareNames, ShortNamesAsHta) {
  // HTA's own cases (tests/test_trace_utils.py).
  EXPECT_EQ(short_name("a"), "a");
  EXPECT_EQ(short_name("aten::empty"), "aten::empty");
  EXPECT_EQ(short_name("a(1)"), "a");
  EXPECT_EQ(short_name("a<int>(b)"), "a");
  EXPECT_EQ(short_name("void at::native::vectorized_elementwise_kernel<4, "
                       "at::native::CUDAFunctor_add<int>, at::detail::Array<char*, 3> >(int, "
                       "at::native::CUDAFunctor_add<int>, at::detail::Array<char*, 3>)"),
            "at::native::vectorized_elementwise_kernel");
  EXPECT_EQ(short_name("Memcpy DtoD (Device -> Device)"), "Memcpy DtoD (Device -> Device)");
  // Ours: a trailing space before the arguments, and a name that would come out empty.
  EXPECT_EQ(short_name("void f<int> (int)"), "f");
  EXPECT_EQ(short_name("x>(y)"), "x>(y)");
  // GEMM tiles keep their digits (what --fold-digits merges).
  EXPECT_EQ(short_name("sm90_xmma_gemm_128x256"), "sm90_xmma_gemm_128x256");
}

TEST(TraceCompareNames, ShortNamesJoinTemplateInstances) {
  HandTrace a, b;
  a.bare("kernel", "void k<float>(float*)", 7, 0, 10);
  a.bare("kernel", "void k<half>(half*)", 7, 10, 10);
  b.bare("kernel", "void k<float>(float*)", 7, 0, 30);
  TraceCompareOptions o;
  o.short_names = true;
  auto m = by_name(compared(import(a), import(b), o));
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m["k"].count_a, 2);
  EXPECT_DOUBLE_EQ(m["k"].delta_us, 10);
}

}  // namespace
}  // namespace slimpack
