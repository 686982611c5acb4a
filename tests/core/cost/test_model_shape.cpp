// The model's shape beyond the presets' (a config.json's): an explicit head dimension, attention
// biases and tied embeddings, in the parameter count, the FLOPs, the memory and the cost JSON.
#include <gtest/gtest.h>

#include "cost/cost_json.h"
#include "cost/cost_model.h"
#include "cost/flops.h"

namespace slimpack {
namespace {

using Json = nlohmann::json;

// h 2560, a 32, g 8, dh 128 (not 2560 / 32 = 80), f 6912, V 1000, 4 layers.
ModelConfig wide_heads() {
  ModelConfig m;
  m.name = "wide";
  m.layers = 4;
  m.hidden = 2560;
  m.ffn = 6912;
  m.heads = 32;
  m.kv_heads = 8;
  m.vocab = 1000;
  m.explicit_head_dim = 128;
  return m;
}

CostModel make(const ModelConfig& m, ParallelConfig par) {
  auto cm = CostModel::create(m, *gpu_preset("h100-sxm"), par, {});
  EXPECT_TRUE(cm.ok()) << (cm.ok() ? "" : cm.error().message);
  return *cm;
}

TEST(ModelShape, ExplicitHeadDimensionByHand) {
  const ModelConfig m = wide_heads();
  EXPECT_EQ(m.head_dim(), 128);
  EXPECT_DOUBLE_EQ(m.attention_width(), 4096.0);
  // h (a dh + 2 g dh) + a dh h + 3 h f = 2560 * (4096 + 2048) + 4096 * 2560 + 3 * 2560 * 6912
  EXPECT_DOUBLE_EQ(m.weights_per_layer(), 15728640.0 + 10485760.0 + 53084160.0);
  EXPECT_DOUBLE_EQ(m.params_per_layer(), m.weights_per_layer());
  // Attention: 4 a dh per pair, not 4 h.
  EXPECT_DOUBLE_EQ(flops::attention_forward(m, 10, 0), 4.0 * 4096 * 55);
  EXPECT_DOUBLE_EQ(flops::linear_forward(m, 10), 20.0 * m.weights_per_layer());
  // h / a need not be whole with an explicit dh; it must be without.
  ModelConfig odd = m;
  odd.hidden = 2500;
  EXPECT_TRUE(validate(odd, ParallelConfig{}).ok());
  odd.explicit_head_dim = 0;
  EXPECT_FALSE(validate(odd, ParallelConfig{}).ok());
  odd = m;
  odd.explicit_head_dim = 70000;
  auto s = validate(odd, ParallelConfig{});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "model.head_dim: 70000 is more than the maximum 65536");
}

TEST(ModelShape, CostModelUsesTheHeadDimension) {
  const ModelConfig m = wide_heads();
  const CostModel cm = make(m, {1, 1, 1, 1});
  // beta_f = 4 a dh / (peak * attn_fwd_eff)
  EXPECT_DOUBLE_EQ(cm.coeffs().forward.beta, 4.0 * 4096 / (989e12 * 0.5));
  EXPECT_DOUBLE_EQ(cm.coeffs().forward.alpha, 2.0 * m.weights_per_layer() / (989e12 * 0.6));
  // Activations: 8 h + 4 a dh + 6 f, + K/V 4 g dh, + 4 a bytes per token per layer.
  EXPECT_DOUBLE_EQ(cm.activation_bytes_per_token_layer(),
                   8.0 * 2560 + 4.0 * 4096 + 6.0 * 6912 + 4.0 * 8 * 128 + 4.0 * 32);
  // With dh = h / a the formula is the presets' 12 h.
  const CostModel preset = make(*model_preset("llama-3-8b"), {1, 1, 1, 1});
  EXPECT_DOUBLE_EQ(preset.activation_bytes_per_token_layer(),
                   12.0 * 4096 + 6.0 * 14336 + 4.0 * 8 * 128 + 4.0 * 32);
}

TEST(ModelShape, AttentionBiasesAreParametersNotFlops) {
  ModelConfig m = wide_heads();
  const double weights = m.weights_per_layer();
  m.attention_bias = AttentionBias::Qkv;  // Qwen2: a dh + 2 g dh
  EXPECT_DOUBLE_EQ(m.biases_per_layer(), 4096.0 + 2048.0);
  EXPECT_DOUBLE_EQ(m.params_per_layer(), weights + 6144.0);
  m.attention_bias = AttentionBias::QkvO;  // Llama's attention_bias: + h
  EXPECT_DOUBLE_EQ(m.biases_per_layer(), 6144.0 + 2560.0);
  EXPECT_DOUBLE_EQ(flops::linear_forward(m, 1), 2.0 * weights);
  // Memory and the DP sync count them.
  const CostModel biased = make(m, {1, 1, 1, 1});
  const CostModel plain = make(wide_heads(), {1, 1, 1, 1});
  EXPECT_DOUBLE_EQ(biased.params_on_stage(0) - plain.params_on_stage(0), 4 * (6144.0 + 2560.0));
  EXPECT_DOUBLE_EQ(biased.coeffs().forward.alpha, plain.coeffs().forward.alpha);
}

TEST(ModelShape, TiedEmbeddingsAreOneTableOnOneStage) {
  ModelConfig m = wide_heads();
  const double table = 2560.0 * 1000;
  const double untied_total = m.total_params();
  m.tied_embeddings = true;
  EXPECT_DOUBLE_EQ(untied_total - m.total_params(), table);
  ModelConfig untied = wide_heads();
  // p = 1: the one stage holds the table once.
  EXPECT_DOUBLE_EQ(
      make(untied, {1, 1, 1, 1}).params_on_stage(0) - make(m, {1, 1, 1, 1}).params_on_stage(0),
      table);
  // p = 2: the last stage keeps its own copy for the LM head (as Megatron does).
  for (int stage : {0, 1})
    EXPECT_DOUBLE_EQ(make(untied, {2, 1, 1, 1}).params_on_stage(stage),
                     make(m, {2, 1, 1, 1}).params_on_stage(stage));
}

TEST(ModelShape, CostJsonRoundTripsTheShape) {
  CostSetup s;
  s.model = wide_heads();
  s.model.source = "hf-config:models/wide.json";
  s.model.tied_embeddings = true;
  s.model.attention_bias = AttentionBias::QkvO;
  const Json j = to_json(s);
  EXPECT_EQ(j["model"]["head_dim"], 128);
  EXPECT_EQ(j["model"]["tied_embeddings"], true);
  EXPECT_EQ(j["model"]["attention_bias"], "qkvo");
  EXPECT_EQ(j["model"]["source"], "hf-config:models/wide.json");
  CostSetup back;
  ASSERT_TRUE(apply_cost_overrides(j, back, "").ok());
  EXPECT_EQ(back.model.explicit_head_dim, 128);
  EXPECT_TRUE(back.model.tied_embeddings);
  EXPECT_EQ(back.model.attention_bias, AttentionBias::QkvO);
  EXPECT_EQ(back.model.source, "hf-config:models/wide.json");
  EXPECT_EQ(to_json(back), j);
  // A preset's JSON writes its head dimension, which reads back as none: the preset again.
  CostSetup p;
  p.model = *model_preset("llama-3-8b");
  const Json pj = to_json(p);
  EXPECT_EQ(pj["model"]["head_dim"], 128);
  EXPECT_EQ(pj["model"]["source"], "preset");
  CostSetup p2;
  ASSERT_TRUE(apply_cost_overrides(pj, p2, "").ok());
  EXPECT_EQ(p2.model.explicit_head_dim, 0);
  EXPECT_EQ(to_json(p2), pj);
}

TEST(ModelShape, CostFileModelSource) {
  auto source_of = [](const char* text) {
    CostSetup s;
    auto st = apply_cost_overrides(Json::parse(text), s, "costs.json");
    return st ? s.model.source : st.error().message;
  };
  EXPECT_EQ(source_of(R"({"model": "llama-3-8b"})"), "preset");
  EXPECT_EQ(source_of(R"({"model": {"preset": "llama-3-8b"}})"), "preset");
  EXPECT_EQ(source_of(R"({"model": {"preset": "llama-3-8b", "layers": 8}})"), "costs:costs.json");
  EXPECT_EQ(source_of(R"({"model": {"name": "tiny", "layers": 8, "hidden": 256}})"),
            "costs:costs.json");
  EXPECT_EQ(source_of(R"({"model": {"layers": 8, "source": "hf-config:c.json"}})"),
            "hf-config:c.json");
  EXPECT_EQ(source_of(R"({"model": {"attention_bias": "qkvx"}})"),
            "costs.json: $.model.attention_bias: \"qkvx\" is not \"none\", \"qkv\" or \"qkvo\"");
  EXPECT_EQ(source_of(R"({"model": {"head_dim": 0}})"),
            "costs.json: $.model.head_dim: expected a head dimension from 1 to 65536");
  EXPECT_EQ(source_of(R"({"model": {"tied_embeddings": 1}})"),
            "costs.json: $.model.tied_embeddings: expected true or false");
}

TEST(ModelShape, AttentionBiasNames) {
  for (auto bias : {AttentionBias::None, AttentionBias::Qkv, AttentionBias::QkvO})
    EXPECT_EQ(*parse_attention_bias(attention_bias_name(bias)), bias);
  EXPECT_FALSE(parse_attention_bias("yes").ok());
}

}  // namespace
}  // namespace slimpack
