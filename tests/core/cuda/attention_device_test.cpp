// GPU tests: skipped where CUDA reports no device (CI, the build machine).
#include <gtest/gtest.h>

#include "attention_test_util.h"
#include "cuda/attention.h"

namespace slimpack::profiling {
namespace {

using testing::max_abs;
using testing::max_abs_diff;
using testing::random_tensor;

class AttentionDevice : public ::testing::Test {
 protected:
  void SetUp() override {
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  }
  // Segments that cross tile edges, a cached prefix longer than a tile, a single token and GQA.
  AttnLayout layout() const {
    return make_attn_layout(PackShape{"x", {{0, 70}, {50, 30}, {0, 1}, {130, 64}}}, 4, 2);
  }
};

TEST_F(AttentionDevice, ForwardMatchesReference) {
  const auto l = layout();
  const auto q = random_tensor(static_cast<std::size_t>(l.total_q) * 4 * kHeadDim, 11, 1.0f);
  const auto k = random_tensor(static_cast<std::size_t>(l.total_kv) * 2 * kHeadDim, 12, 1.0f);
  const auto v = random_tensor(k.size(), 13, 1.0f);
  const auto ref = attention_forward_reference(l, q, k, v);
  auto gpu = attention_forward_device(l, q, k, v);
  ASSERT_TRUE(gpu.ok()) << gpu.error().message;
  // bf16 probabilities and output: a few parts in a thousand of the value range.
  EXPECT_LT(max_abs_diff(gpu->out, ref.out), 2e-2f * max_abs(ref.out));
  EXPECT_LT(max_abs_diff(gpu->lse, ref.lse), 1e-3f);
}

TEST_F(AttentionDevice, BackwardMatchesReference) {
  const auto l = layout();
  const auto q = random_tensor(static_cast<std::size_t>(l.total_q) * 4 * kHeadDim, 21, 1.0f);
  const auto k = random_tensor(static_cast<std::size_t>(l.total_kv) * 2 * kHeadDim, 22, 1.0f);
  const auto v = random_tensor(k.size(), 23, 1.0f);
  const auto dout = random_tensor(q.size(), 24, 1.0f);
  const auto ref = attention_backward_reference(l, q, k, v, dout);
  auto gpu = attention_backward_device(l, q, k, v, dout);
  ASSERT_TRUE(gpu.ok()) << gpu.error().message;
  EXPECT_LT(max_abs_diff(gpu->dq, ref.dq), 3e-2f * max_abs(ref.dq));
  EXPECT_LT(max_abs_diff(gpu->dk, ref.dk), 3e-2f * max_abs(ref.dk));
  EXPECT_LT(max_abs_diff(gpu->dv, ref.dv), 3e-2f * max_abs(ref.dv));
}

}  // namespace
}  // namespace slimpack::profiling
