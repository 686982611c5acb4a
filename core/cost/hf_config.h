#pragma once
// A Hugging Face config.json as the cost model's model (`--hf-config FILE`, the explorer's "Model:
// From a config.json..."): the decoder families whose architecture is the one the cost model
// prices (SwiGLU FFN with silu, grouped-query attention, RMSNorm, rotary positions), read as
// transformers reads them, defaults included (checked against transformers 5.24):
//
//   model_type   "llama", "mistral" or "qwen2"
//   required     hidden_size, intermediate_size, num_hidden_layers, num_attention_heads,
//                vocab_size (transformers would fill in Llama-2-7B's sizes; a config without
//                them is refused rather than planned as a model it does not describe)
//   num_key_value_heads  absent: llama num_attention_heads, mistral 8, qwen2 32; null: the heads
//   head_dim             absent or null: hidden_size / num_attention_heads
//   tie_word_embeddings  absent: false (all three)
//   attention_bias       llama only (q, k, v and o biased); qwen2 always biases q, k and v;
//                        mistral none
//   sliding_window       mistral: every layer's, 4096 when absent, null = none; qwen2: only
//                        with use_sliding_window true, on the layers layer_types (or from
//                        max_window_layers on) make sliding. Kept as ModelConfig::sliding_window:
//                        the cost model prices full causal attention, exact for a sequence no
//                        longer than the window; a longer one is refused (check_sliding_window).
//   refused: hidden_act other than "silu"; llama's mlp_bias true.
//
// Every error is one line naming the file and the field: "config.json: num_hidden_layers:
// missing". The model's name is the file's stem ("llama-tiny"), or its folder's name for a file
// called config.json; its source is "hf-config:PATH" with the path as given.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "common/sequence.h"
#include "common/status.h"
#include "cost/model_config.h"

namespace slimpack {

// "llama", "mistral", "qwen2"
std::vector<std::string> hf_config_families();

// The name a config read from `path` gets: the file's stem, or its folder's for config.json.
std::string hf_config_model_name(const std::string& path);

// Reads a config.json; errors name `path` and the field.
Expected<ModelConfig> load_hf_config(const std::string& path);
// The same for a config already parsed from `path`.
Expected<ModelConfig> hf_config_from_json(const nlohmann::json& config, const std::string& path);

// A sliding window masks nothing in a sequence no longer than it, so the model is planned exactly
// for such sequences; the first longer one is refused, naming the config's file and field:
// "config.json: sliding_window: 4096 is shorter than sequence s7 (16484 tokens): ...".
Status check_sliding_window(const ModelConfig& model, const std::vector<Sequence>& sequences);

}  // namespace slimpack
