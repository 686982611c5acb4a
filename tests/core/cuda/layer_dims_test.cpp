#include <gtest/gtest.h>

#include "cuda/layer_dims.h"

namespace slimpack::profiling {
namespace {

TEST(LayerDims, Llama3_8bOnTwoGpus) {
  auto m = model_preset("llama-3-8b");
  ASSERT_TRUE(m.ok());
  auto d = layer_dims(*m, 2);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->q_heads, 16);
  EXPECT_EQ(d->kv_heads, 4);
  EXPECT_EQ(d->ffn_rank, 7168);
  EXPECT_EQ(d->head_dim, 128);
  EXPECT_EQ(d->qkv_cols(), (16 + 8) * 128);
  EXPECT_EQ(d->attn_cols(), 2048);

  const auto fwd = forward_gemms(*d, 1000);
  ASSERT_EQ(fwd.size(), 4u);
  EXPECT_EQ(fwd[0].name, "qkv");
  EXPECT_EQ(fwd[0].m, 1000);
  EXPECT_EQ(fwd[0].n, 3072);
  EXPECT_EQ(fwd[0].k, 4096);
  EXPECT_EQ(fwd[2].n, 14336);  // gate and up together
  EXPECT_EQ(fwd[3].k, 7168);
  // Forward FLOPs per GPU = 2 N P_L / t; backward twice that (docs/design.md section 3).
  double f = 0.0, b = 0.0;
  for (const auto& g : fwd) f += g.flops();
  for (const auto& g : backward_gemms(*d, 1000)) b += g.flops();
  EXPECT_DOUBLE_EQ(f, 2.0 * 1000 * m->params_per_layer() / 2);
  EXPECT_DOUBLE_EQ(b, 2.0 * f);
}

TEST(LayerDims, BackwardPairsDgradAndWgradInReverseOrder) {
  auto d = layer_dims(*model_preset("llama-2-7b"), 1);
  ASSERT_TRUE(d.ok());
  const auto bwd = backward_gemms(*d, 512);
  ASSERT_EQ(bwd.size(), 8u);
  EXPECT_EQ(bwd[0].name, "down.dgrad");
  EXPECT_TRUE(bwd[0].trans_b);
  EXPECT_EQ(bwd[0].m, 512);
  EXPECT_EQ(bwd[0].n, 11008);
  EXPECT_EQ(bwd[0].k, 4096);
  EXPECT_EQ(bwd[1].name, "down.wgrad");
  EXPECT_TRUE(bwd[1].trans_a);
  EXPECT_EQ(bwd[1].m, 11008);
  EXPECT_EQ(bwd[1].k, 512);
  EXPECT_EQ(bwd[7].name, "qkv.wgrad");
  // Largest operand: gate_up output / weight, 4096 x 22016 > 512 x 22016.
  EXPECT_EQ(max_gemm_operand(*d, 512), 4096LL * 22016);
}

TEST(LayerDims, KvHeadsAreReplicatedWhenFewerThanTp) {
  auto d = layer_dims(*model_preset("llama-3-70b"), 16);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->q_heads, 4);
  EXPECT_EQ(d->kv_heads, 1);
}

TEST(LayerDims, RejectsTpThatDoesNotDivideHeads) {
  auto d = layer_dims(*model_preset("llama-3-8b"), 3);
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.error().message.find("parallel.tp"), std::string::npos);
}

}  // namespace
}  // namespace slimpack::profiling
