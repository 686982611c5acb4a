#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "cost/cost_json.h"
#include "cost/stage_split.h"

namespace slimpack {
namespace {

using Json = nlohmann::json;

CostSetup base() {
  CostSetup s;
  s.model = *model_preset("llama-3-8b");
  s.gpu = *gpu_preset("h100-sxm");
  s.par = {4, 2, 1, 1};
  return s;
}

std::string apply_error(const char* text, CostSetup& s) {
  auto st = apply_cost_overrides(Json::parse(text), s, "cfg.json");
  return st.ok() ? std::string() : st.error().message;
}

TEST(CostJson, PresetsAndFieldOverrides) {
  CostSetup s = base();
  const auto st =
      apply_cost_overrides(Json::parse(R"({"model": {"preset": "llama-3-70b", "layers": 40},
                      "gpu": {"preset": "h200", "linear_efficiency": 0.55},
                      "parallel": {"pp": 8, "tp": 4},
                      "options": {"memory_cap_bytes": 120e9, "token_cap": 65536,
                                  "include_head": false}})"),
                           s, "cfg.json");
  ASSERT_TRUE(st.ok()) << st.error().message;
  EXPECT_EQ(s.model.name, "llama-3-70b");
  EXPECT_EQ(s.model.layers, 40);
  EXPECT_EQ(s.model.hidden, 8192);
  EXPECT_DOUBLE_EQ(s.gpu.memory_bytes, 141e9);
  EXPECT_DOUBLE_EQ(s.gpu.linear_efficiency, 0.55);
  EXPECT_EQ(s.par.pp, 8);
  EXPECT_EQ(s.par.dp, 2);  // untouched
  EXPECT_EQ(s.par.tp, 4);
  EXPECT_DOUBLE_EQ(s.options.memory_cap_bytes, 120e9);
  EXPECT_EQ(s.options.token_cap, 65536);
  EXPECT_FALSE(s.options.include_head);
  EXPECT_FALSE(s.coeffs.has_value());

  ASSERT_TRUE(apply_cost_overrides(Json::parse(R"({"model": "qwen2.5-32b"})"), s, "x").ok());
  EXPECT_EQ(s.model.ffn, 27648);
}

TEST(CostJson, TyposAreRejectedWithTheirPath) {
  CostSetup s = base();
  std::string e = apply_error(R"({"model": {"hiden": 4096}})", s);
  EXPECT_NE(e.find("cfg.json"), std::string::npos) << e;
  EXPECT_NE(e.find("$.model.hiden: unknown key"), std::string::npos) << e;
  e = apply_error(R"({"gpu": {"peak_flop": 1e15}})", s);
  EXPECT_NE(e.find("$.gpu.peak_flop"), std::string::npos) << e;
  e = apply_error(R"({"coeffs": {"forward": {"alpa": 1e-7}}})", s);
  EXPECT_NE(e.find("$.coeffs.forward.alpa"), std::string::npos) << e;
  e = apply_error(R"({"modle": "llama-2-7b"})", s);
  EXPECT_NE(e.find("$.modle"), std::string::npos) << e;
  e = apply_error(R"({"model": {"layers": "32"}})", s);
  EXPECT_NE(e.find("$.model.layers: expected an integer"), std::string::npos) << e;
  e = apply_error(R"({"gpu": "tpu-v5"})", s);
  EXPECT_NE(e.find("unknown GPU preset 'tpu-v5'"), std::string::npos) << e;
  // Semantic errors after applying also name the field, and nothing was changed.
  e = apply_error(R"({"parallel": {"pp": 3}})", s);
  EXPECT_NE(e.find("model.layers"), std::string::npos) << e;
  e = apply_error(R"({"coeffs": {"backward": {"beta": -1}}})", s);
  EXPECT_NE(e.find("$.coeffs"), std::string::npos) << e;
  const CostSetup fresh = base();
  EXPECT_EQ(s.par.pp, fresh.par.pp);
  EXPECT_EQ(s.model.hidden, fresh.model.hidden);
  EXPECT_FALSE(s.coeffs.has_value());
}

TEST(CostJson, PartialCoefficientsStartFromFlops) {
  CostSetup s = base();
  ASSERT_TRUE(apply_cost_overrides(Json::parse(R"({"coeffs": {"backward": {"beta": 9e-11}}})"), s,
                                   "ovr.json")
                  .ok());
  ASSERT_TRUE(s.coeffs.has_value());
  const CostCoeffs flops = CostModel::coeffs_from_flops(s.model, s.gpu, s.par);
  EXPECT_DOUBLE_EQ(s.coeffs->backward.beta, 9e-11);
  EXPECT_DOUBLE_EQ(s.coeffs->backward.alpha, flops.backward.alpha);
  EXPECT_DOUBLE_EQ(s.coeffs->forward.kappa, flops.forward.kappa);
  EXPECT_EQ(s.coeffs->provenance, "ovr.json");
  auto cm = cost_model_from_setup(s);
  ASSERT_TRUE(cm.ok());
  EXPECT_DOUBLE_EQ(cm->coeffs().backward.beta, 9e-11);
}

TEST(CostJson, RoundTripAndFile) {
  CostSetup s = base();
  s.gpu.kernel_overhead_s = 55e-6;
  s.options.token_cap = 32768;
  CostCoeffs c;
  c.forward = {1e-5, 2e-7, 3e-11};
  c.backward = {2e-5, 4e-7, 9e-11};
  c.provenance = "profile: h100";
  s.coeffs = c;
  const Json j = to_json(s);
  EXPECT_EQ(j.at("model").at("kv_heads").get<int>(), 8);
  EXPECT_DOUBLE_EQ(j.at("coeffs").at("backward").at("beta").get<double>(), 9e-11);

  const std::string path = ::testing::TempDir() + "slimpack_cost_setup.json";
  {
    std::ofstream out(path);
    out << j.dump(2);
  }
  CostSetup back;
  const Status st = read_cost_overrides_file(path, back);
  std::remove(path.c_str());
  ASSERT_TRUE(st.ok()) << st.error().message;
  EXPECT_EQ(to_json(back), j);

  CostSetup untouched = base();
  const Status missing = read_cost_overrides_file("/nonexistent/cost.json", untouched);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(untouched.par.pp, 4);
  EXPECT_NE(missing.error().message.find("/nonexistent/cost.json"), std::string::npos);
}

}  // namespace
}  // namespace slimpack

namespace slimpack {
namespace {

// An automatic split need not divide the layers: a --costs file of an 8-layer model on 3 stages
// was refused ("model.layers: 8 is not divisible by parallel.pp * parallel.vchunks = 3") while the
// explicit 3,3,2 ran. Hand-computed: every layer costs the same, so the balanced split puts the
// extra stage's layer where the LM head is not: 3,3,2 with the head priced on the last stage;
// without the head the surplus is taken from stage 0 (it holds the most activations): 2,3,3.
TEST(StageSplit, AutoSplitsLayersThatDoNotDivideByStages) {
  CostSetup s = base();
  s.options.stage_split = StageSplit::Auto;
  s.par = {3, 1, 1, 1};
  ASSERT_TRUE(apply_cost_overrides(Json::parse(R"({"model": {"preset": "llama-3-8b",
      "name": "tiny", "layers": 8, "hidden": 256, "ffn": 688, "heads": 4, "kv_heads": 2,
      "vocab": 512}})"),
                                   s, "tiny.json")
                  .ok());
  auto cost = cost_model_from_setup(s);
  ASSERT_TRUE(cost.ok()) << cost.error().message;
  EXPECT_EQ(cost->stage_layers(), (std::vector<int>{3, 3, 2}));
  s.options.include_head = false;
  auto headless = cost_model_from_setup(s);
  ASSERT_TRUE(headless.ok());
  EXPECT_EQ(headless->stage_layers(), (std::vector<int>{2, 3, 3}));

  // The same through the file's own options; an even split still needs p to divide the layers.
  CostSetup from_file = base();
  const char* file = R"({"model": {"layers": 8, "heads": 32, "kv_heads": 8},
      "parallel": {"pp": 3, "dp": 1, "tp": 1}, "options": {"stage_split": "auto"}})";
  EXPECT_EQ(apply_error(file, from_file), "");
  CostSetup even = base();
  EXPECT_EQ(apply_error(R"({"model": {"layers": 8}, "parallel": {"pp": 3},
      "options": {"stage_split": "even"}})",
                        even),
            "cfg.json: model.layers: 8 is not divisible by parallel.pp * parallel.vchunks = 3");
}

TEST(StageSplit, BalancedSplitsAreTheHandComputedOnes) {
  // Equal stages: the surplus of the ceiling split comes off stage 0 first.
  EXPECT_EQ(balanced_stage_layers(8, 1.0, {0, 0, 0}), (std::vector<int>{2, 3, 3}));
  // A head of half a layer on the last stage: 3,3,2 (busiest 3, against 3.5 for 2,3,3).
  EXPECT_EQ(balanced_stage_layers(8, 1.0, {0, 0, 0.5}), (std::vector<int>{3, 3, 2}));
  // A head of two layers: 10 layers on 4 stages as 3,3,3,1 (busiest 3).
  EXPECT_EQ(balanced_stage_layers(10, 1.0, {0, 0, 0, 2.0}), (std::vector<int>{3, 3, 3, 1}));
  // 7 layers on 2 stages, head of 1.5 layers: 4,3 has 4.5 at most, 5,2 has 5.
  EXPECT_EQ(balanced_stage_layers(7, 1.0, {0, 1.5}), (std::vector<int>{4, 3}));
}

}  // namespace
}  // namespace slimpack
