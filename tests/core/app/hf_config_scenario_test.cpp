// A Hugging Face config.json as the scenario's model (ConfigSpec::hf_config_file, `--hf-config`):
// it is the cost model's model exactly as a preset would be, the search's space follows its
// heads and layers, a --costs file cannot refine it (the option wins, a named model contradicts
// it), and a schedule planned from it names the file again.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "app/cost_file_rule.h"
#include "app/input_file.h"
#include "app/pipeline.h"
#include "app/scenario.h"
#include "app/schedule_input.h"
#include "app/search_space.h"
#include "schedule/schedule.h"
#include "solver/strategy.h"

namespace slimpack {
namespace {

const std::string kHf = std::string(SLIMPACK_SAMPLES_DIR) + "/hf/";

std::string write_file(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("slimpack-hf-" + name);
  std::ofstream(path) << text;
  return path.string();
}

ConfigSpec with_config(const std::string& sample, std::vector<std::string> given = {}) {
  ConfigSpec c;
  c.hf_config_file = kHf + sample;
  c.pp = 2;
  c.tp = 2;
  c.given_options = std::move(given);
  return c;
}

TEST(HfConfigScenario, TheConfigIsTheCostModelsModel) {
  const ConfigSpec c = with_config("qwen2-tiny.json");
  auto cost = make_cost_model(c);
  ASSERT_TRUE(cost.ok()) << cost.error().message;
  const ModelConfig& m = (*cost)->model();
  EXPECT_EQ(m.name, "qwen2-tiny");
  EXPECT_EQ(m.source, "hf-config:" + c.hf_config_file);
  EXPECT_EQ(m.layers, 8);
  EXPECT_TRUE(m.tied_embeddings);
  EXPECT_EQ(m.attention_bias, AttentionBias::Qkv);
  // The preset named beside it is not used.
  EXPECT_EQ(c.model, "llama-3-8b");
  auto model = scenario_model(c);
  ASSERT_TRUE(model.ok());
  EXPECT_EQ(model->hidden, 256);
}

TEST(HfConfigScenario, Llama3ConfigCostsExactlyLikeThePreset) {
  ConfigSpec preset;
  preset.pp = 4;
  ConfigSpec config = preset;
  config.hf_config_file = kHf + "Meta-Llama-3-8B/config.json";
  auto a = make_cost_model(preset);
  auto b = make_cost_model(config);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ((*a)->coeffs().forward.alpha, (*b)->coeffs().forward.alpha);
  EXPECT_EQ((*a)->coeffs().backward.beta, (*b)->coeffs().backward.beta);
  EXPECT_EQ((*a)->coeffs().head_forward_per_token, (*b)->coeffs().head_forward_per_token);
  for (int s = 0; s < 4; ++s) {
    EXPECT_EQ((*a)->static_bytes(s), (*b)->static_bytes(s));
    EXPECT_EQ((*a)->dp_sync_time(s), (*b)->dp_sync_time(s));
  }
  EXPECT_EQ((*a)->activation_bytes_per_token_layer(), (*b)->activation_bytes_per_token_layer());
  EXPECT_EQ((*a)->stage_layers(), (*b)->stage_layers());
}

TEST(HfConfigScenario, ABadConfigIsNamedByFileAndField) {
  const std::string file = write_file("no-layers.json", R"({"model_type": "llama",
      "hidden_size": 64, "intermediate_size": 128, "num_attention_heads": 4, "vocab_size": 100})");
  ConfigSpec c;
  c.hf_config_file = file;
  auto cost = make_cost_model(c);
  ASSERT_FALSE(cost.ok());
  EXPECT_EQ(cost.error().message, file + ": num_hidden_layers: missing");
  EXPECT_TRUE(cost.error().field.empty());  // not an option's field: printed as it is
}

TEST(HfConfigScenario, TheSearchSpaceFollowsTheConfigsModel) {
  SearchSpace space;
  space.gpus = 64;
  ConfigSpec base = with_config("llama-tiny.json");  // 8 layers, 8 heads
  auto resolved = resolve_space(space, base);
  ASSERT_TRUE(resolved.ok()) << resolved.error().message;
  EXPECT_EQ(resolved->pp, (std::vector<int>{1, 2, 4, 8}));
  EXPECT_EQ(resolved->tp, (std::vector<int>{1, 2, 4, 8}));
}

TEST(HfConfigScenario, ACostFileCannotRefineTheConfig) {
  // Its fields are replaced, each said in one line; the rest of the file applies.
  const std::string file =
      write_file("refine.json", R"({"model": {"layers": 16, "hidden": 512}, "gpu": "h200"})");
  ConfigSpec c = with_config("llama-tiny.json", {"hf-config"});
  c.cost_overrides_file = file;
  auto overrides = cost_file_overrides(c);
  ASSERT_TRUE(overrides.ok()) << overrides.error().message;
  std::vector<std::string> lines;
  for (const auto& o : *overrides) lines.push_back(override_line(o));
  EXPECT_EQ(lines,
            (std::vector<std::string>{
                "--hf-config " + c.hf_config_file + " overrides model.hidden = 512 of " + file,
                "--hf-config " + c.hf_config_file + " overrides model.layers = 16 of " + file}));
  auto cost = make_cost_model(c);
  ASSERT_TRUE(cost.ok()) << cost.error().message;
  EXPECT_EQ((*cost)->model().layers, 8);
  EXPECT_EQ((*cost)->model().hidden, 256);
  EXPECT_EQ((*cost)->model().source, "hf-config:" + c.hf_config_file);
  EXPECT_EQ((*cost)->gpu().name, "h200");
  // A file that names its model describes another one: refused.
  ConfigSpec named = with_config("llama-tiny.json", {"hf-config"});
  named.cost_overrides_file = std::string(SLIMPACK_SOURCE_DIR) + "/samples/models/tiny-8x256.json";
  auto contradiction = cost_file_overrides(named);
  ASSERT_FALSE(contradiction.ok());
  EXPECT_EQ(contradiction.error().message,
            "--hf-config " + named.hf_config_file + " contradicts model = tiny-8x256 of " +
                named.cost_overrides_file +
                ": the file describes its own model; drop --hf-config or the file's \"model\"");
  EXPECT_FALSE(make_cost_model(named).ok());
  named.cost_overrides_file = write_file("preset.json", R"({"model": "llama-3-8b"})");
  EXPECT_FALSE(cost_file_overrides(named).ok());
}

TEST(HfConfigScenario, AdoptingACostFileThatNamesAPresetDropsTheConfig) {
  ConfigSpec c = with_config("llama-tiny.json");
  c.cost_overrides_file = write_file("adopt.json", R"({"model": "llama-2-7b"})");
  auto adopted = adopt_cost_file(c);
  ASSERT_TRUE(adopted.ok()) << adopted.error().message;
  EXPECT_EQ(adopted->model, "llama-2-7b");
  EXPECT_TRUE(adopted->hf_config_file.empty());
}

TEST(HfConfigScenario, AScheduleFromAConfigNamesItAgain) {
  ConfigSpec c = with_config("mistral-tiny.json");
  c.strategy = "sliced";
  WorkloadSpec w;
  w.preset = "chat-sft";
  w.batch_tokens = 1 << 15;
  auto prepared = prepare_scenario(w, c);
  ASSERT_TRUE(prepared.ok()) << prepared.error().message;
  SolveInput in;
  in.batch = prepared->batch;
  in.cost = prepared->inputs.cost.get();
  in.params = prepared->inputs.params;
  auto solved = solve("sliced", in);
  ASSERT_TRUE(solved.ok()) << solved.error().message;
  auto schedule = make_schedule(solved->plan, in.cost);
  ASSERT_TRUE(schedule.ok()) << schedule.error().message;
  auto loaded = load_schedule_json(schedule_to_json(*schedule), "s.json");
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_EQ(loaded->config.hf_config_file, c.hf_config_file);
  EXPECT_EQ(loaded->config.model, "mistral-tiny");
  // The same --hf-config agrees with the schedule; another model contradicts it.
  EXPECT_TRUE(check_schedule_options({"hf-config"}, c, loaded->config).ok());
  ConfigSpec other = c;
  other.hf_config_file = kHf + "llama-tiny.json";
  auto refused = check_schedule_options({"hf-config"}, other, loaded->config);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message,
            "--hf-config " + other.hf_config_file + " contradicts the schedule's setup (" +
                c.hf_config_file +
                "): a schedule file fixes its model, parallelism and costs; drop the option");
}

// A sliding window is planned where it masks nothing, for a workload and for a plan file alike.
TEST(HfConfigScenario, ASlidingWindowLimitsTheSequences) {
  ConfigSpec c;
  c.hf_config_file = std::string(SLIMPACK_SOURCE_DIR) + "/tests/cli/inputs/hf-mistral-window.json";
  c.pp = 2;
  c.tp = 1;
  c.strategy = "sliced";
  WorkloadSpec tiny;
  tiny.file = std::string(SLIMPACK_SAMPLES_DIR) + "/lengths/tiny_batch.json";
  auto fits = prepare_scenario(tiny, c);
  ASSERT_TRUE(fits.ok()) << fits.error().message;
  EXPECT_EQ(fits->inputs.cost->model().sliding_window, 4096);
  WorkloadSpec chat;
  chat.preset = "chat-sft";
  chat.batch_tokens = 1 << 16;
  auto longer = prepare_scenario(chat, c);
  ASSERT_FALSE(longer.ok());
  EXPECT_EQ(longer.error().message.rfind(c.hf_config_file + ": sliding_window: 4096 is shorter "
                                                            "than sequence ",
                                         0),
            0u)
      << longer.error().message;
  // A plan of the long batch (solved for a preset), priced with the windowed model.
  ConfigSpec preset = c;
  preset.hf_config_file.clear();
  preset.tp = 8;  // Llama-3-8B fits the chat batch at t = 8
  auto prepared = prepare_scenario(chat, preset);
  ASSERT_TRUE(prepared.ok()) << prepared.error().message;
  SolveInput in;
  in.batch = prepared->batch;
  in.cost = prepared->inputs.cost.get();
  in.params = prepared->inputs.params;
  auto solved = solve("sliced", in);
  ASSERT_TRUE(solved.ok()) << solved.error().message;
  auto priced = plan_cost_model(solved->plan, c, true);
  ASSERT_FALSE(priced.ok());
  EXPECT_NE(priced.error().message.find("sliding_window: 4096 is shorter than sequence"),
            std::string::npos);
  EXPECT_TRUE(plan_cost_model(solved->plan, preset, true).ok());
}

// The explorer's File > Open says what the file is and where a model is chosen.
TEST(HfConfigScenario, OpeningAConfigAsAnInputSaysWhereItGoes) {
  auto opened = load_input_file(kHf + "llama-tiny.json");
  ASSERT_FALSE(opened.ok());
  EXPECT_EQ(opened.error().message,
            kHf +
                "llama-tiny.json: a Hugging Face config.json, not a length file, plan or "
                "schedule: choose it as the model (Model: From a config.json..., or the CLI's "
                "--hf-config)");
}

}  // namespace
}  // namespace slimpack
