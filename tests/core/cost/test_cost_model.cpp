#include <gtest/gtest.h>

#include "cost/cost_model.h"
#include "cost/flops.h"

namespace slimpack {
namespace {

CostModel make(const std::string& model, const std::string& gpu, ParallelConfig par,
               CostOptions options = {}) {
  auto cm = CostModel::create(*model_preset(model), *gpu_preset(gpu), par, options);
  EXPECT_TRUE(cm.ok()) << (cm.ok() ? "" : cm.error().message);
  return *cm;
}

TEST(CostModel, CoefficientsFromFlops) {
  const CostModel cm = make("llama-3-8b", "h100-sxm", {1, 1, 1, 1});
  const CostCoeffs& c = cm.coeffs();
  // alpha_f = 2 P_L / (peak * linear_eff), beta_f = 4h / (peak * attn_fwd_eff).
  EXPECT_DOUBLE_EQ(c.forward.alpha, 2.0 * 218103808.0 / (989e12 * 0.6));
  EXPECT_DOUBLE_EQ(c.forward.beta, 4.0 * 4096 / (989e12 * 0.5));
  EXPECT_DOUBLE_EQ(c.forward.kappa, 40e-6);
  EXPECT_DOUBLE_EQ(c.backward.alpha, 2.0 * c.forward.alpha);
  EXPECT_DOUBLE_EQ(c.backward.beta, 2.5 * 4.0 * 4096 / (989e12 * 0.4));
  EXPECT_DOUBLE_EQ(c.backward.kappa, 80e-6);
  EXPECT_DOUBLE_EQ(c.head_forward_per_token, 2.0 * 4096 * 128256 / (989e12 * 0.6));
  EXPECT_DOUBLE_EQ(c.head_backward_per_token, 2.0 * c.head_forward_per_token);
  EXPECT_EQ(c.provenance, "flops");
  // Tensor parallelism divides the per-GPU time.
  const CostModel tp4 = make("llama-3-8b", "h100-sxm", {1, 1, 4, 1});
  EXPECT_DOUBLE_EQ(tp4.coeffs().forward.alpha, c.forward.alpha / 4.0);
  // Forward 8K-token sequence: about 7 ms per layer at these efficiencies.
  const double fwd = c.forward.alpha * 8192 + c.forward.beta * flops::causal_pairs(8192, 0);
  EXPECT_NEAR(fwd, 7.1e-3, 0.1e-3);
}

TEST(CostModel, TimeByHand) {
  CostModel cm = make("llama-3-8b", "h100-sxm", {4, 1, 1, 1});
  CostCoeffs c;
  c.forward = {1e-4, 2e-7, 3e-11};
  c.backward = {2e-4, 5e-7, 8e-11};
  c.head_forward_per_token = 1e-7;
  c.head_backward_per_token = 3e-7;
  cm.set_coeffs(c);
  ASSERT_EQ(cm.layers_per_stage(), 8);
  // 8 * (1e-4 + 2e-7*1000 + 3e-11*500500) = 8 * 3.15015e-4
  EXPECT_NEAR(cm.time(Pass::Forward, 0, 1000, 500500), 2.52012e-3, 1e-15);
  EXPECT_NEAR(cm.time(Pass::Forward, 2, 1000, 500500), 2.52012e-3, 1e-15);
  // Last stage adds the LM head: + 1000 * 1e-7.
  EXPECT_NEAR(cm.time(Pass::Forward, 3, 1000, 500500), 2.62012e-3, 1e-15);
  // 8 * (2e-4 + 5e-4 + 4.004e-5) + 1000 * 3e-7 = 6.22032e-3
  EXPECT_NEAR(cm.time(Pass::Backward, 3, 1000, 500500), 6.22032e-3, 1e-15);

  CostOptions no_head;
  no_head.include_head = false;
  CostModel cm2 = make("llama-3-8b", "h100-sxm", {4, 1, 1, 1}, no_head);
  cm2.set_coeffs(c);
  EXPECT_NEAR(cm2.time(Pass::Forward, 3, 1000, 500500), 2.52012e-3, 1e-15);
}

TEST(CostModel, PackTimePrefersExplicitTimes) {
  CostModel cm = make("llama-3-8b", "h100-sxm", {4, 1, 1, 1});
  CostCoeffs c;
  c.forward = {1e-4, 2e-7, 3e-11};
  cm.set_coeffs(c);
  Pack pack;
  pack.segments = {Segment{0, 0, 600}, Segment{1, 200, 600}};
  // tokens 1000; pairs 600*601/2 + (400*200 + 400*401/2) = 180300 + 160200 = 340500.
  ASSERT_EQ(pack.tokens(), 1000);
  ASSERT_DOUBLE_EQ(pack.attention_pairs(), 340500.0);
  EXPECT_NEAR(cm.pack_time(Pass::Forward, 1, pack), 8 * (1e-4 + 2e-4 + 3e-11 * 340500), 1e-15);
  pack.time = 2.5;
  EXPECT_DOUBLE_EQ(cm.pack_time(Pass::Forward, 1, pack), 2.5);
  pack.stage_times = {1.0, 2.0, 3.0, 4.0};
  EXPECT_DOUBLE_EQ(cm.pack_time(Pass::Backward, 2, pack), 3.0);
}

TEST(CostModel, MergedSegmentsPayKvAllGather) {
  const CostModel cm = make("llama-3-8b", "h100-sxm", {4, 2, 2, 1});
  // 2 (K,V) * 8 heads * 128 / min(2, 8) * 2 bytes.
  EXPECT_DOUBLE_EQ(cm.kv_bytes_per_token_layer(), 2048.0);
  Pack plain;
  plain.segments = {Segment{0, 0, 8192}};
  EXPECT_DOUBLE_EQ(cm.merge_comm_time(plain), 0.0);
  Pack merged;
  merged.segments = {Segment{0, 0, 8192, 2, 0}};
  // Ls * ((n-1)/n * end * 2048 / dp_bw + (n-1) * dp_latency)
  // = 8 * (0.5 * 8192 * 2048 / 50e9 + 20e-6) = 8 * 187.77216e-6
  EXPECT_NEAR(cm.merge_comm_time(merged), 1.50217728e-3, 1e-15);
  const double compute = cm.time(Pass::Forward, 1, 4096, merged.attention_pairs());
  EXPECT_NEAR(cm.pack_time(Pass::Forward, 1, merged), compute + 1.50217728e-3, 1e-12);
}

TEST(CostModel, MemoryByHand) {
  // Llama-3-8B, p=4, d=2, t=2 on H100: Ls = 8.
  const CostModel cm = make("llama-3-8b", "h100-sxm", {4, 2, 2, 1});
  const double layers = 8 * 218103808.0;  // 1744830464
  const double table = 4096.0 * 128256;   // 525336576
  EXPECT_DOUBLE_EQ(cm.params_on_stage(0), layers + table);
  EXPECT_DOUBLE_EQ(cm.params_on_stage(1), layers);
  EXPECT_DOUBLE_EQ(cm.params_on_stage(3), layers + table);
  // (2 + 4 + 12/2) * 1744830464 / 2 + 6e9
  EXPECT_DOUBLE_EQ(cm.static_bytes(1), 16468982784.0);
  EXPECT_DOUBLE_EQ(cm.static_bytes(0), 12.0 * (layers + table) / 2.0 + 6e9);
  // (12*4096 + 6*14336)/2 + 4*8*128/2 + 4*32/2 = 67584 + 2048 + 64
  EXPECT_DOUBLE_EQ(cm.activation_bytes_per_token_layer(), 69696.0);
  const MemoryModel mm = cm.memory_model();
  ASSERT_EQ(mm.static_bytes.size(), 4u);
  EXPECT_DOUBLE_EQ(mm.static_bytes[2], 16468982784.0);
  EXPECT_DOUBLE_EQ(mm.activation_per_token[1], 557568.0);
  EXPECT_DOUBLE_EQ(mm.dkdv_per_context_token[3], 8.0 * 4 * 8 * 128 / 2);  // 16384
  EXPECT_DOUBLE_EQ(mm.capacity_bytes, 80e9);

  CostOptions capped;
  capped.memory_cap_bytes = 70e9;
  EXPECT_DOUBLE_EQ(make("llama-3-8b", "h200", {4, 2, 2, 1}, capped).memory_cap(), 70e9);
  EXPECT_DOUBLE_EQ(make("llama-3-8b", "h200", {4, 2, 2, 1}).memory_cap(), 141e9);
  // With t > g the K/V heads are replicated: 4*8*128/8 instead of /16.
  const CostModel tp16 = make("llama-3-8b", "h100-sxm", {1, 1, 16, 1});
  EXPECT_DOUBLE_EQ(tp16.activation_bytes_per_token_layer(),
                   (12.0 * 4096 + 6.0 * 14336) / 16 + 512.0 + 8.0);
}

TEST(CostModel, Communication) {
  const CostModel cm = make("llama-3-8b", "h100-sxm", {4, 2, 2, 1});
  // 8192 tokens * 2 bytes * 4096 / 2
  EXPECT_DOUBLE_EQ(cm.p2p_bytes(8192), 33554432.0);
  EXPECT_NEAR(cm.p2p_time(8192), 10e-6 + 33554432.0 / 50e9, 1e-15);
  // Stage 1 holds 1744830464 params, 872415232 per GPU:
  // reduce-scatter 1/2 * 4 B * 872415232 / 50e9 + 20e-6, all-gather 1/2 * 2 B * ... + 20e-6.
  EXPECT_NEAR(cm.dp_sync_time(1), 0.03489660928 + 0.01744830464 + 40e-6, 1e-15);
  EXPECT_DOUBLE_EQ(make("llama-3-8b", "h100-sxm", {4, 1, 2, 1}).dp_sync_time(1), 0.0);
  CostOptions no_sync;
  no_sync.include_dp_sync = false;
  EXPECT_DOUBLE_EQ(make("llama-3-8b", "h100-sxm", {4, 2, 2, 1}, no_sync).dp_sync_time(1), 0.0);
}

TEST(CostModel, StepFlopsAndPeak) {
  const CostModel cm = make("llama-2-7b", "a100-80g", {2, 4, 2, 1});
  EXPECT_DOUBLE_EQ(cm.cluster_peak_flops(), 2.0 * 4 * 2 * 312e12);
  const double pairs = flops::causal_pairs(4096, 0);
  EXPECT_DOUBLE_EQ(cm.step_flops(4096, pairs), flops::training_flops(cm.model(), 4096, pairs));
  // 6 * 32 * P_L * tokens + 3.5 * 32 * 4h * pairs + 6 h V tokens
  const double expected =
      6.0 * 32 * 202375168.0 * 4096 + 3.5 * 32 * 4 * 4096 * pairs + 6.0 * 4096 * 32000 * 4096;
  EXPECT_NEAR(cm.step_flops(4096, pairs) / expected, 1.0, 1e-12);
}

TEST(CostModel, CreateRejectsBadConfig) {
  auto bad = CostModel::create(*model_preset("llama-3-8b"), *gpu_preset("h100-sxm"), {5, 1, 1, 1});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("model.layers"), std::string::npos);
  GpuSpec g = *gpu_preset("h100-sxm");
  g.peak_flops = 0;
  auto bad_gpu = CostModel::create(*model_preset("llama-3-8b"), g, {});
  ASSERT_FALSE(bad_gpu.ok());
  EXPECT_NE(bad_gpu.error().message.find("gpu.peak_flops"), std::string::npos);
}

}  // namespace
}  // namespace slimpack
