// The kernel tables (trace/trace_kernel_table.h: HTA's kernel breakdown) of the summary over a
// small hand-built trace whose figures are worked out in the comments, and the summary's total
// over HTA's window (IdleWindow::Gpu).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "hand_trace.h"
#include "trace/trace_gpu.h"
#include "trace/trace_kernel_table.h"
#include "trace/trace_summary.h"

namespace slimpack {
namespace {

// step 1 [0, 100):  gemm<float>(int) [10, 30) 20, gemm<half>(int) [30, 60) 30 (two instances of
//                   one template), nccl [20, 50) 30 on stream 20, Memcpy DtoH [60, 70) 10
// step 2 [100, 200): gemm<float>(int) [110, 150) 40, Memcpy DtoH [150, 152) 2
// An operation is in the step it starts in. The whole trace [0, 200) (its first event to last).
HandTrace trace() {
  HandTrace t;
  t.step(1, 0, 100);
  t.step(2, 100, 100);
  t.op("kernel", "void gemm<float>(int)", 7, 10, 20, 5, 1);
  t.op("kernel", "ncclDevKernel_AllReduce_Sum_bf16_RING_LL", 20, 20, 30, 6, 1);
  t.op("kernel", "void gemm<half>(int)", 7, 30, 30, 8, 1);
  t.op("gpu_memcpy", "Memcpy DtoH (Device -> Pageable)", 30, 60, 10, 55, 1, "cudaMemcpyAsync");
  t.op("kernel", "void gemm<float>(int)", 7, 110, 40, 100, 1);
  t.op("gpu_memcpy", "Memcpy DtoH (Device -> Pageable)", 30, 150, 2, 140, 1, "cudaMemcpyAsync");
  return t;
}

TraceSummary summarize(const TraceSummaryOptions& o = {}) {
  const ImportedTrace t = import(trace());
  auto s = summarize_trace(t, o);
  EXPECT_TRUE(s.ok());
  return s.ok() ? *s : TraceSummary{};
}

const KernelRow* row(const std::vector<KernelRow>& rows, const std::string& name) {
  for (const KernelRow& r : rows)
    if (r.name == name) return &r;
  return nullptr;
}

TEST(TraceKernelTable, WholeTracePerNameAndKind) {
  const KernelTable& t = summarize().total.kernels;
  // 20 + 30 + 30 + 10 + 40 + 2 = 132 us of summed durations.
  EXPECT_DOUBLE_EQ(t.total_us, 132.0);
  ASSERT_EQ(t.names.size(), 4u);
  // gemm<float>: 20 + 40 = 60, largest first.
  EXPECT_EQ(t.names[0].name, "void gemm<float>(int)");
  EXPECT_EQ(t.names[0].kind, GpuOpKind::Computation);
  EXPECT_EQ(t.names[0].count, 2);
  EXPECT_DOUBLE_EQ(t.names[0].total_us, 60.0);
  EXPECT_DOUBLE_EQ(t.names[0].mean_us, 30.0);
  EXPECT_DOUBLE_EQ(t.names[0].min_us, 20.0);
  EXPECT_DOUBLE_EQ(t.names[0].max_us, 40.0);
  // Sample deviation of {20, 40}: sqrt(((-10)^2 + 10^2) / 1) = sqrt(200).
  EXPECT_DOUBLE_EQ(t.names[0].stddev_us, std::sqrt(200.0));
  EXPECT_DOUBLE_EQ(t.names[0].share, 60.0 / 132.0);
  // 30 and 30: the tie goes by kind (computation before communication).
  EXPECT_EQ(t.names[1].name, "void gemm<half>(int)");
  EXPECT_EQ(t.names[2].name, "ncclDevKernel_AllReduce_Sum_bf16_RING_LL");
  EXPECT_EQ(t.names[2].kind, GpuOpKind::Communication);
  EXPECT_EQ(t.names[2].stddev_us, 0.0);  // one operation
  const KernelRow* copy = row(t.names, "Memcpy DtoH (Device -> Pageable)");
  ASSERT_NE(copy, nullptr);
  EXPECT_EQ(copy->kind, GpuOpKind::Memory);
  EXPECT_EQ(copy->count, 2);
  EXPECT_DOUBLE_EQ(copy->total_us, 12.0);
  EXPECT_DOUBLE_EQ(copy->min_us, 2.0);
  EXPECT_DOUBLE_EQ(copy->max_us, 10.0);
  // Kinds: computation 90, communication 30, memory 12.
  ASSERT_EQ(t.kinds.size(), 3u);
  EXPECT_EQ(t.kinds[0].name, "computation");
  EXPECT_EQ(t.kinds[0].count, 3);
  EXPECT_DOUBLE_EQ(t.kinds[0].total_us, 90.0);
  EXPECT_DOUBLE_EQ(t.kinds[0].mean_us, 30.0);
  EXPECT_DOUBLE_EQ(t.kinds[0].min_us, 20.0);
  EXPECT_DOUBLE_EQ(t.kinds[0].max_us, 40.0);
  EXPECT_DOUBLE_EQ(t.kinds[0].stddev_us, 10.0);  // {20, 30, 40}
  EXPECT_EQ(t.kinds[1].name, "communication");
  EXPECT_DOUBLE_EQ(t.kinds[1].share, 30.0 / 132.0);
  EXPECT_EQ(t.kinds[2].name, "memory");
  EXPECT_DOUBLE_EQ(t.kinds[2].total_us, 12.0);
}

TEST(TraceKernelTable, PerStepByStart) {
  const TraceSummary s = summarize();
  ASSERT_EQ(s.steps.size(), 2u);
  const KernelTable& one = s.steps[0].kernels;
  EXPECT_DOUBLE_EQ(one.total_us, 90.0);  // 20 + 30 + 30 + 10
  ASSERT_EQ(one.names.size(), 4u);
  EXPECT_EQ(row(one.names, "void gemm<float>(int)")->count, 1);
  const KernelTable& two = s.steps[1].kernels;
  EXPECT_DOUBLE_EQ(two.total_us, 42.0);
  ASSERT_EQ(two.names.size(), 2u);
  EXPECT_EQ(two.names[0].name, "void gemm<float>(int)");
  EXPECT_DOUBLE_EQ(two.names[0].share, 40.0 / 42.0);
  EXPECT_EQ(two.kinds.size(), 2u);  // no communication in step 2
}

TEST(TraceKernelTable, ShortNamesJoinTemplateInstances) {
  const KernelTable& t = summarize({.short_names = true}).total.kernels;
  const KernelRow* gemm = row(t.names, "gemm");
  ASSERT_NE(gemm, nullptr);
  // {20, 30, 40}: the two instances combined.
  EXPECT_EQ(gemm->count, 3);
  EXPECT_DOUBLE_EQ(gemm->total_us, 90.0);
  EXPECT_DOUBLE_EQ(gemm->mean_us, 30.0);
  EXPECT_DOUBLE_EQ(gemm->stddev_us, 10.0);
  EXPECT_DOUBLE_EQ(gemm->min_us, 20.0);
  EXPECT_DOUBLE_EQ(gemm->max_us, 40.0);
  EXPECT_NE(row(t.names, "Memcpy DtoH (Device -> Pageable)"), nullptr);  // kept whole
  EXPECT_EQ(t.names.size(), 3u);
}

TEST(TraceKernelTable, EmptyRange) {
  const ImportedTrace t = import(trace());
  const KernelTable k = kernel_table(t, gpu_ops(t), 3, 3);
  EXPECT_TRUE(k.names.empty());
  EXPECT_TRUE(k.kinds.empty());
  EXPECT_EQ(k.total_us, 0.0);
}

// HTA's window: first GPU start 10 to last end 152. Busy = [10, 70) + [110, 152) = 102, so idle
// over the window is 142 - 102 = 40 ([70, 110)), where the whole trace [0, 200) has 98.
TEST(TraceKernelTable, IdleOverHtaWindow) {
  const TraceSummary trace_window = summarize();
  EXPECT_EQ(trace_window.total_window, IdleWindow::Trace);
  EXPECT_DOUBLE_EQ(trace_window.total.span_us, 200.0);
  EXPECT_DOUBLE_EQ(trace_window.total.idle_us, 98.0);
  const TraceSummary gpu = summarize({.total_window = IdleWindow::Gpu});
  EXPECT_EQ(gpu.total_window, IdleWindow::Gpu);
  EXPECT_DOUBLE_EQ(gpu.gpu_first_us, 10.0);
  EXPECT_DOUBLE_EQ(gpu.gpu_last_us, 152.0);
  EXPECT_DOUBLE_EQ(gpu.total.start_us, 10.0);
  EXPECT_DOUBLE_EQ(gpu.total.span_us, 142.0);
  EXPECT_DOUBLE_EQ(gpu.total.gpu_busy_us, 102.0);
  EXPECT_DOUBLE_EQ(gpu.total.idle_us, 40.0);
  EXPECT_DOUBLE_EQ(gpu.total.computation_us, trace_window.total.computation_us);
  EXPECT_EQ(gpu.total.gpu_ops, 6);
  // The steps keep their own windows.
  ASSERT_EQ(gpu.steps.size(), 2u);
  EXPECT_DOUBLE_EQ(gpu.steps[0].idle_us, trace_window.steps[0].idle_us);
}

}  // namespace
}  // namespace slimpack
