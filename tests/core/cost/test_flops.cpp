#include <gtest/gtest.h>

#include <algorithm>

#include "cost/flops.h"
#include "cost/model_config.h"

namespace slimpack {
namespace {

ModelConfig preset(const std::string& name) {
  auto m = model_preset(name);
  EXPECT_TRUE(m.ok());
  return *m;
}

TEST(ModelConfig, ParamsPerLayerByHand) {
  // h(h + 2 g dh) + h^2 + 3 h f = 4096*12288 + 4096^2 + 3*4096*11008
  //                            = 50331648 + 16777216 + 135266304
  EXPECT_DOUBLE_EQ(preset("llama-2-7b").params_per_layer(), 202375168.0);
  // GQA: 4096*(4096 + 2*8*128) + 4096^2 + 3*4096*14336 = 25165824 + 16777216 + 176160768
  EXPECT_DOUBLE_EQ(preset("llama-3-8b").params_per_layer(), 218103808.0);
  // 32 layers + untied embedding and head 2 * 4096 * 128256.
  EXPECT_DOUBLE_EQ(preset("llama-3-8b").total_params(), 32.0 * 218103808.0 + 1050673152.0);
}

TEST(ModelConfig, PresetsAreExactAndValid) {
  const ModelConfig q = preset("qwen2.5-72b");
  EXPECT_EQ(q.layers, 80);
  EXPECT_EQ(q.hidden, 8192);
  EXPECT_EQ(q.ffn, 29568);
  EXPECT_EQ(q.heads, 64);
  EXPECT_EQ(q.kv_heads, 8);
  EXPECT_EQ(q.vocab, 152064);
  EXPECT_EQ(preset("qwen2.5-32b").head_dim(), 128);
  for (const auto& name : model_preset_names()) {
    const ModelConfig m = preset(name);
    EXPECT_EQ(m.name, name);
    for (int pp : {1, 2, 4, 8}) {
      EXPECT_TRUE(validate(m, ParallelConfig{pp, 2, 8, 1}).ok()) << name << " pp=" << pp;
    }
  }
  for (const auto& name : gpu_preset_names()) {
    auto g = gpu_preset(name);
    ASSERT_TRUE(g.ok()) << name;
    EXPECT_TRUE(validate(*g).ok()) << name;
  }
  EXPECT_DOUBLE_EQ(gpu_preset("h200")->memory_bytes, 141e9);
  EXPECT_DOUBLE_EQ(gpu_preset("a100-80g")->peak_flops, 312e12);
  EXPECT_DOUBLE_EQ(gpu_preset("a100-80g")->dp_bandwidth, 25e9);
}

TEST(ModelConfig, UnknownPresetListsKnownNames) {
  auto m = model_preset("llama-9");
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error().message.find("llama-9"), std::string::npos);
  EXPECT_NE(m.error().message.find("qwen2.5-72b"), std::string::npos);
  auto g = gpu_preset("b200");
  ASSERT_FALSE(g.ok());
  EXPECT_NE(g.error().message.find("a100-80g, h100-sxm, h200"), std::string::npos);
}

TEST(ModelConfig, ValidateNamesTheField) {
  ModelConfig m = preset("llama-3-8b");
  auto message = [](const Status& s) { return s.ok() ? std::string() : s.error().message; };
  EXPECT_NE(message(validate(m, ParallelConfig{3, 1, 1, 1})).find("model.layers"),
            std::string::npos);
  EXPECT_NE(message(validate(m, ParallelConfig{4, 1, 1, 3})).find("vchunks"), std::string::npos);
  EXPECT_NE(message(validate(m, ParallelConfig{1, 1, 3, 1})).find("parallel.tp"),
            std::string::npos);
  EXPECT_NE(message(validate(m, ParallelConfig{1, 0, 1, 1})).find("parallel.dp"),
            std::string::npos);
  m.kv_heads = 5;
  EXPECT_NE(message(validate(m, {})).find("model.kv_heads"), std::string::npos);
  m = preset("llama-3-8b");
  m.hidden = 4100;
  EXPECT_NE(message(validate(m, {})).find("model.hidden"), std::string::npos);
  GpuSpec g;
  g.linear_efficiency = 1.5;
  EXPECT_NE(message(validate(g)).find("gpu.linear_efficiency"), std::string::npos);
}

TEST(Flops, ForwardFormulas) {
  const ModelConfig m = preset("llama-2-7b");
  EXPECT_DOUBLE_EQ(flops::causal_pairs(4, 10), 4 * 10 + 10);
  EXPECT_DOUBLE_EQ(flops::linear_forward(m, 1000), 2.0 * 1000 * 202375168.0);
  // 4 h l (o + (l+1)/2) with h=4096, l=1000, o=3000: 4*4096*1000*3500.5
  EXPECT_DOUBLE_EQ(flops::attention_forward(m, 1000, 3000), 57352192000.0);
  EXPECT_DOUBLE_EQ(flops::head_forward(m, 10), 2.0 * 10 * 4096 * 32000);
  EXPECT_DOUBLE_EQ(flops::linear_backward(m, 7), 2.0 * flops::linear_forward(m, 7));
  EXPECT_DOUBLE_EQ(flops::attention_backward(m, 7, 3), 2.5 * flops::attention_forward(m, 7, 3));
  EXPECT_DOUBLE_EQ(flops::head_backward(m, 7), 2.0 * flops::head_forward(m, 7));
}

TEST(Flops, AttentionOverSlicesSumsToWholeSequence) {
  const ModelConfig m = preset("llama-3-8b");
  const double n = 10000, slice = 3000;
  double sum = 0.0;
  for (double o = 0; o < n; o += slice)
    sum += flops::attention_forward(m, std::min(slice, n - o), o);
  EXPECT_DOUBLE_EQ(sum, 2.0 * m.hidden * n * (n + 1.0));
  EXPECT_DOUBLE_EQ(sum, 819281920000.0);  // 2 * 4096 * 10000 * 10001
}

TEST(Flops, BackwardToForwardRatioGrowsWithOffset) {
  const ModelConfig m = preset("llama-3-8b");
  const double l = 4096;
  double previous = 0.0;
  for (double o : {0.0, 4096.0, 16384.0, 65536.0, 262144.0, 4194304.0}) {
    const double fwd = flops::linear_forward(m, l) + flops::attention_forward(m, l, o);
    const double bwd = flops::linear_backward(m, l) + flops::attention_backward(m, l, o);
    const double ratio = bwd / fwd;
    EXPECT_GE(ratio, 2.0);
    EXPECT_LE(ratio, 2.5);
    EXPECT_GT(ratio, previous) << "offset " << o;
    previous = ratio;
  }
}

TEST(Flops, TrainingFlopsSumsPasses) {
  const ModelConfig m = preset("llama-2-7b");
  const double tokens = 2048, pairs = flops::causal_pairs(2048, 0);
  const double per_layer = flops::linear_forward(m, tokens) + flops::linear_backward(m, tokens) +
                           flops::attention_forward(m, tokens, 0) +
                           flops::attention_backward(m, tokens, 0);
  const double head = flops::head_forward(m, tokens) + flops::head_backward(m, tokens);
  EXPECT_DOUBLE_EQ(flops::training_flops(m, tokens, pairs), 32.0 * per_layer + head);
}

}  // namespace
}  // namespace slimpack
