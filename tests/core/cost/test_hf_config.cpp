// A Hugging Face config.json as the cost model's model (cost/hf_config.h): every family with its
// defaults as transformers 5.24 has them, the sample configs of samples/hf, and every refusal
// named by file and field.
#include "cost/hf_config.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

namespace slimpack {
namespace {

using Json = nlohmann::json;

const std::string kSamples = SLIMPACK_SAMPLES_DIR "/hf/";

// The sizes every family requires, over which a test sets its own fields.
Json config(const char* model_type, const Json& fields = Json::object()) {
  Json j = {{"model_type", model_type}, {"hidden_size", 512},        {"intermediate_size", 1376},
            {"num_hidden_layers", 4},   {"num_attention_heads", 32}, {"vocab_size", 1000}};
  for (auto it = fields.begin(); it != fields.end(); ++it) {
    if (it->is_string() && it->get<std::string>() == "<absent>")
      j.erase(it.key());
    else
      j[it.key()] = *it;
  }
  return j;
}

ModelConfig read(const Json& j) {
  auto m = hf_config_from_json(j, "config.json");
  EXPECT_TRUE(m.ok()) << (m ? "" : m.error().message);
  return m ? *m : ModelConfig{};
}

std::string error_of(const Json& j) {
  auto m = hf_config_from_json(j, "config.json");
  return m ? std::string("(read)") : m.error().message;
}

TEST(HfConfig, LlamaSample) {
  const std::string path = kSamples + "llama-tiny.json";
  auto m = load_hf_config(path);
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->name, "llama-tiny");
  EXPECT_EQ(m->source, "hf-config:" + path);
  EXPECT_EQ(m->layers, 8);
  EXPECT_EQ(m->hidden, 256);
  EXPECT_EQ(m->ffn, 688);
  EXPECT_EQ(m->heads, 8);
  EXPECT_EQ(m->kv_heads, 4);
  EXPECT_EQ(m->vocab, 2048);
  EXPECT_EQ(m->explicit_head_dim, 0);  // head_dim 32 = 256 / 8
  EXPECT_EQ(m->head_dim(), 32);
  EXPECT_FALSE(m->tied_embeddings);
  EXPECT_EQ(m->attention_bias, AttentionBias::None);
}

TEST(HfConfig, Qwen2SampleHasTiedEmbeddingsAndQkvBias) {
  auto m = load_hf_config(kSamples + "qwen2-tiny.json");
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->name, "qwen2-tiny");
  EXPECT_EQ(m->kv_heads, 2);
  EXPECT_TRUE(m->tied_embeddings);
  EXPECT_EQ(m->attention_bias, AttentionBias::Qkv);
  // The table is counted once: 8 layers + h V.
  EXPECT_DOUBLE_EQ(m->total_params(), 8 * m->params_per_layer() + 256.0 * 2048);
}

TEST(HfConfig, MistralSampleWithoutSlidingWindow) {
  auto m = load_hf_config(kSamples + "mistral-tiny.json");
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->kv_heads, 2);
  EXPECT_EQ(m->attention_bias, AttentionBias::None);
  EXPECT_FALSE(m->tied_embeddings);
}

TEST(HfConfig, WideHeadsAndLlamaAttentionBias) {
  auto m = load_hf_config(kSamples + "llama-wide-heads.json");
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->explicit_head_dim, 64);  // not 256 / 8
  EXPECT_EQ(m->head_dim(), 64);
  EXPECT_DOUBLE_EQ(m->attention_width(), 512.0);
  EXPECT_EQ(m->attention_bias, AttentionBias::QkvO);
  EXPECT_TRUE(validate(*m, ParallelConfig{2, 1, 2, 1}).ok());
}

// Meta-Llama-3-8B's published config.json is the built-in llama-3-8b field for field, so it is
// priced exactly like it (the CLI's golden test checks the same for a solve).
TEST(HfConfig, Llama3EightBIsThePreset) {
  auto m = load_hf_config(kSamples + "Meta-Llama-3-8B/config.json");
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->name, "Meta-Llama-3-8B");  // the folder of a file called config.json
  const ModelConfig p = *model_preset("llama-3-8b");
  EXPECT_EQ(m->layers, p.layers);
  EXPECT_EQ(m->hidden, p.hidden);
  EXPECT_EQ(m->ffn, p.ffn);
  EXPECT_EQ(m->heads, p.heads);
  EXPECT_EQ(m->kv_heads, p.kv_heads);
  EXPECT_EQ(m->vocab, p.vocab);
  EXPECT_EQ(m->explicit_head_dim, p.explicit_head_dim);
  EXPECT_EQ(m->tied_embeddings, p.tied_embeddings);
  EXPECT_EQ(m->attention_bias, p.attention_bias);
  EXPECT_DOUBLE_EQ(m->total_params(), p.total_params());
}

TEST(HfConfig, KeyValueHeadsDefaultAsTransformersHasThem) {
  // Absent: llama the attention heads, mistral 8, qwen2 32 (their class defaults).
  EXPECT_EQ(read(config("llama")).kv_heads, 32);
  EXPECT_EQ(read(config("mistral", {{"sliding_window", nullptr}})).kv_heads, 8);
  EXPECT_EQ(read(config("qwen2")).kv_heads, 32);
  // null: the attention heads, in every family.
  for (const char* family : {"llama", "mistral", "qwen2"})
    EXPECT_EQ(read(config(family, {{"num_key_value_heads", nullptr}, {"sliding_window", nullptr}}))
                  .kv_heads,
              32)
        << family;
  EXPECT_EQ(read(config("llama", {{"num_key_value_heads", 8}})).kv_heads, 8);
}

TEST(HfConfig, OtherDefaults) {
  for (const char* family : {"llama", "mistral", "qwen2"}) {
    const ModelConfig m = read(config(family, {{"sliding_window", nullptr}}));
    EXPECT_FALSE(m.tied_embeddings) << family;  // tie_word_embeddings false in all three
    EXPECT_EQ(m.head_dim(), 16) << family;      // hidden_size / num_attention_heads
    EXPECT_EQ(m.explicit_head_dim, 0) << family;
    EXPECT_EQ(m.name, "config") << family;  // a config.json in no folder
  }
  EXPECT_EQ(read(config("llama")).attention_bias, AttentionBias::None);
  EXPECT_EQ(read(config("llama", {{"attention_bias", true}})).attention_bias, AttentionBias::QkvO);
  // Qwen2 always biases q, k and v; Mistral never: neither reads attention_bias.
  EXPECT_EQ(read(config("qwen2", {{"attention_bias", false}})).attention_bias, AttentionBias::Qkv);
  EXPECT_EQ(read(config("mistral", {{"attention_bias", true}, {"sliding_window", nullptr}}))
                .attention_bias,
            AttentionBias::None);
  EXPECT_TRUE(read(config("qwen2", {{"tie_word_embeddings", true}})).tied_embeddings);
  // null reads as absent; a head dimension of h / a is no explicit one.
  EXPECT_EQ(read(config("llama", {{"head_dim", nullptr}})).head_dim(), 16);
  EXPECT_EQ(read(config("llama", {{"head_dim", 16}})).explicit_head_dim, 0);
  // An explicit one need not divide the hidden size.
  const ModelConfig odd = read(config("qwen2", {{"hidden_size", 500}, {"head_dim", 24}}));
  EXPECT_EQ(odd.head_dim(), 24);
  EXPECT_TRUE(validate(odd, ParallelConfig{}).ok());
}

TEST(HfConfig, NameFromTheFile) {
  auto named = [](const std::string& path) {
    auto m = hf_config_from_json(config("llama"), path);
    return m ? m->name : m.error().message;
  };
  EXPECT_EQ(named("models/my-llama.json"), "my-llama");
  EXPECT_EQ(named("/models/Qwen2-0.5B/config.json"), "Qwen2-0.5B");
  EXPECT_EQ(named("config.json"), "config");
}

TEST(HfConfig, FamiliesAreListed) {
  EXPECT_EQ(hf_config_families(), (std::vector<std::string>{"llama", "mistral", "qwen2"}));
}

TEST(HfConfig, UnknownOrMissingFamilyIsRefused) {
  EXPECT_EQ(error_of(config("gpt2")),
            "config.json: model_type: \"gpt2\" is not a supported family (supported: llama, "
            "mistral, qwen2)");
  EXPECT_EQ(error_of(config("llama", {{"model_type", "<absent>"}})),
            "config.json: model_type: missing");
  EXPECT_EQ(error_of(config("llama", {{"model_type", 7}})),
            "config.json: model_type: expected a string, got 7");
  EXPECT_EQ(error_of(Json::array()), "config.json: expected a JSON object");
}

TEST(HfConfig, EachRequiredFieldIsNamedWhenMissing) {
  for (const char* key : {"hidden_size", "intermediate_size", "num_hidden_layers",
                          "num_attention_heads", "vocab_size"}) {
    EXPECT_EQ(error_of(config("llama", {{key, "<absent>"}})),
              "config.json: " + std::string(key) + ": missing");
    EXPECT_EQ(error_of(config("qwen2", {{key, nullptr}})),
              "config.json: " + std::string(key) + ": expected a positive integer, got null");
  }
}

TEST(HfConfig, WrongTypesAndSizesAreNamed) {
  EXPECT_EQ(error_of(config("llama", {{"hidden_size", "4096"}})),
            "config.json: hidden_size: expected an integer, got \"4096\"");
  EXPECT_EQ(error_of(config("llama", {{"num_hidden_layers", 32.5}})),
            "config.json: num_hidden_layers: expected an integer, got 32.5");
  EXPECT_EQ(error_of(config("llama", {{"vocab_size", true}})),
            "config.json: vocab_size: expected an integer, got true");
  EXPECT_EQ(error_of(config("llama", {{"num_attention_heads", 0}})),
            "config.json: num_attention_heads: must be positive, got 0");
  EXPECT_EQ(error_of(config("llama", {{"intermediate_size", -4}})),
            "config.json: intermediate_size: must be positive, got -4");
  EXPECT_EQ(error_of(config("llama", {{"num_hidden_layers", 1000000000}})),
            "config.json: num_hidden_layers: 1000000000 is more than the maximum 65536");
  EXPECT_EQ(error_of(config("llama", {{"head_dim", "64"}})),
            "config.json: head_dim: expected an integer, got \"64\"");
  EXPECT_EQ(error_of(config("llama", {{"num_key_value_heads", 0}})),
            "config.json: num_key_value_heads: must be positive, got 0");
  EXPECT_EQ(error_of(config("llama", {{"tie_word_embeddings", "yes"}})),
            "config.json: tie_word_embeddings: expected true or false, got \"yes\"");
  EXPECT_EQ(error_of(config("llama", {{"attention_bias", 1}})),
            "config.json: attention_bias: expected true or false, got 1");
  EXPECT_EQ(error_of(config("llama", {{"hidden_act", 3}})),
            "config.json: hidden_act: expected a string, got 3");
}

TEST(HfConfig, InconsistentSizesAreNamed) {
  EXPECT_EQ(error_of(config("llama", {{"num_key_value_heads", 6}})),
            "config.json: num_key_value_heads: 6 does not divide num_attention_heads 32");
  // Mistral's default of 8 K/V heads does not divide 4 heads.
  EXPECT_EQ(error_of(config("mistral", {{"num_attention_heads", 4}, {"sliding_window", nullptr}})),
            "config.json: num_key_value_heads: 8 (transformers' default for mistral when the "
            "field is absent) does not divide num_attention_heads 4");
  EXPECT_EQ(error_of(config("llama", {{"hidden_size", 500}})),
            "config.json: hidden_size: 500 is not divisible by num_attention_heads 32 and no "
            "head_dim is given");
}

TEST(HfConfig, UnmodelledArchitecturesAreRefused) {
  EXPECT_EQ(error_of(config("llama", {{"hidden_act", "gelu"}})),
            "config.json: hidden_act: \"gelu\" is not modelled: the cost model prices the SwiGLU "
            "FFN with \"silu\"");
  EXPECT_EQ(error_of(config("llama", {{"mlp_bias", true}})),
            "config.json: mlp_bias: true is not modelled: the cost model counts no FFN biases");
  EXPECT_EQ(read(config("llama", {{"mlp_bias", false}, {"hidden_act", "silu"}})).layers, 4);
  EXPECT_EQ(error_of(config("llama", {{"mlp_bias", "no"}})),
            "config.json: mlp_bias: expected true or false, got \"no\"");
}

TEST(HfConfig, MistralSlidingWindow) {
  EXPECT_EQ(read(config("mistral", {{"sliding_window", 2048}})).sliding_window, 2048);
  // Absent is transformers' 4096; null is none.
  EXPECT_EQ(read(config("mistral")).sliding_window, 4096);
  EXPECT_EQ(read(config("mistral", {{"sliding_window", nullptr}})).sliding_window, 0);
  EXPECT_EQ(error_of(config("mistral", {{"sliding_window", "4096"}})),
            "config.json: sliding_window: expected an integer, got \"4096\"");
  EXPECT_EQ(error_of(config("mistral", {{"sliding_window", 0}})),
            "config.json: sliding_window: must be positive, got 0");
  // Llama has no sliding window: the field means nothing there.
  EXPECT_EQ(read(config("llama", {{"sliding_window", 4096}})).sliding_window, 0);
}

TEST(HfConfig, Qwen2SlidingWindowOnlyWhenUsed) {
  // Without use_sliding_window transformers drops the window.
  EXPECT_EQ(read(config("qwen2", {{"sliding_window", 4096}})).sliding_window, 0);
  EXPECT_EQ(read(config("qwen2", {{"use_sliding_window", false}, {"sliding_window", 131072}}))
                .sliding_window,
            0);
  // Used: the layers from max_window_layers on slide (28 by default, so none of 4 here).
  EXPECT_EQ(read(config("qwen2", {{"use_sliding_window", true}})).sliding_window, 0);
  EXPECT_EQ(read(config("qwen2", {{"use_sliding_window", true},
                                  {"sliding_window", 1024},
                                  {"max_window_layers", 1}}))
                .sliding_window,
            1024);
  // layer_types, when given, says which layers slide.
  const Json full = {"full_attention", "full_attention", "full_attention", "full_attention"};
  EXPECT_EQ(
      read(config("qwen2",
                  {{"use_sliding_window", true}, {"max_window_layers", 0}, {"layer_types", full}}))
          .sliding_window,
      0);
  Json one = full;
  one[3] = "sliding_attention";
  EXPECT_EQ(
      read(config("qwen2", {{"use_sliding_window", true}, {"layer_types", one}})).sliding_window,
      4096);
  // A null window slides nowhere.
  EXPECT_EQ(read(config("qwen2", {{"use_sliding_window", true},
                                  {"sliding_window", nullptr},
                                  {"max_window_layers", 0}}))
                .sliding_window,
            0);
  EXPECT_EQ(error_of(config("qwen2", {{"use_sliding_window", "yes"}})),
            "config.json: use_sliding_window: expected true or false, got \"yes\"");
  EXPECT_EQ(error_of(config("qwen2", {{"use_sliding_window", true}, {"max_window_layers", -1}})),
            "config.json: max_window_layers: expected a layer count, got -1");
  EXPECT_EQ(error_of(config("qwen2", {{"use_sliding_window", true}, {"layer_types", "full"}})),
            "config.json: layer_types: expected a list of layer types");
  EXPECT_EQ(error_of(config("qwen2", {{"use_sliding_window", true}, {"layer_types", {1, 2}}})),
            "config.json: layer_types: expected strings, got 1");
}

// A window masks nothing in a sequence no longer than it: such sequences are planned as with full
// attention; the first longer one is refused, naming the file and the field.
TEST(HfConfig, ASlidingWindowIsPlannedOnlyWhereItMasksNothing) {
  auto m = hf_config_from_json(config("mistral", {{"sliding_window", 1024}}), "models/m.json");
  ASSERT_TRUE(m.ok());
  const auto seq = [](const char* id, Tokens length) {
    Sequence s;
    s.id = id;
    s.length = length;
    return s;
  };
  const std::vector<Sequence> fits = {seq("a", 1000), seq("b", 1024)};
  EXPECT_TRUE(check_sliding_window(*m, fits).ok());
  const std::vector<Sequence> longer = {seq("a", 1000), seq("b", 1025), seq("c", 3000)};
  auto refused = check_sliding_window(*m, longer);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message,
            "models/m.json: sliding_window: 1024 is shorter than sequence c (3000 tokens): a "
            "window masks attention the cost model prices in full (not modelled); plan sequences "
            "of at most 1024 tokens, or set sliding_window to null");
  EXPECT_TRUE(check_sliding_window(*model_preset("llama-3-8b"), longer).ok());
}

TEST(HfConfig, FilesThatAreNotConfigsAreNamed) {
  const std::string dir = ::testing::TempDir();
  const std::string path = dir + "/not-json.json";
  std::ofstream(path) << "model_type: llama\n";
  auto bad = load_hf_config(path);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message.rfind(path + ": invalid JSON", 0), 0u) << bad.error().message;
  auto missing = load_hf_config(dir + "/no-such-config.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("no-such-config.json"), std::string::npos);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace slimpack
