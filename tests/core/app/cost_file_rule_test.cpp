// A command-line option against a --costs file that sets the same thing
// (core/app/cost_file_rule.h): the given option wins and is reported; a contradiction is refused;
// an option not given takes the file's value. `slimpack solve --costs tiny-8x256.json --tp 2` used
// to run with the file's tp 1 without a word.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "app/cost_file_rule.h"
#include "app/pipeline.h"
#include "app/scenario.h"
#include "app/search_space.h"
#include "app/strategy_variant.h"

namespace slimpack {
namespace {

const std::string kTiny = std::string(SLIMPACK_SOURCE_DIR) + "/samples/models/tiny-8x256.json";

ConfigSpec tiny(std::vector<std::string> given = {}) {
  ConfigSpec c;
  c.cost_overrides_file = kTiny;
  c.given_options = std::move(given);
  return c;
}

std::string write_file(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("slimpack-cost-rule-" + name);
  std::ofstream(path) << text;
  return path.string();
}

TEST(CostFileRule, AGivenOptionWinsAndIsReportedInOneLine) {
  ConfigSpec c = tiny({"tp"});
  c.tp = 2;
  c.pp = 2;
  auto overrides = cost_file_overrides(c);
  ASSERT_TRUE(overrides.ok()) << overrides.error().message;
  ASSERT_EQ(overrides->size(), 1u);
  EXPECT_EQ(override_line(overrides->front()), "--tp 2 overrides parallel.tp = 1 of " + kTiny);
  auto cost = make_cost_model(c);
  ASSERT_TRUE(cost.ok()) << cost.error().message;
  EXPECT_EQ((*cost)->parallel().tp, 2);
  EXPECT_EQ((*cost)->model().name, "tiny-8x256");
}

TEST(CostFileRule, AnOptionNotGivenTakesTheFilesValueSilently) {
  ConfigSpec c = tiny();
  c.pp = 2;  // the default tp 8 is not given: the file's 1 holds
  auto overrides = cost_file_overrides(c);
  ASSERT_TRUE(overrides.ok());
  EXPECT_TRUE(overrides->empty());
  auto cost = make_cost_model(c);
  ASSERT_TRUE(cost.ok()) << cost.error().message;
  EXPECT_EQ((*cost)->parallel().tp, 1);
}

TEST(CostFileRule, TheSameValueIsNoOverride) {
  ConfigSpec c = tiny({"tp", "pp"});
  c.tp = 1;
  c.pp = 2;
  auto overrides = cost_file_overrides(c);
  ASSERT_TRUE(overrides.ok());
  EXPECT_TRUE(overrides->empty());
}

TEST(CostFileRule, EveryFieldAnOptionSetsIsReportedInTheTablesOrder) {
  const std::string file = write_file("all.json", R"({"model": "llama-3-8b",
      "parallel": {"pp": 4, "dp": 2, "tp": 2, "cp": 1, "stage_layers": [8, 8, 8, 8]},
      "options": {"recompute": "full", "memory_cap_bytes": 70e9, "token_cap": 4096}})");
  ConfigSpec c;
  c.cost_overrides_file = file;
  c.given_options = {"pp", "dp", "tp", "recompute", "stage-layers", "memory-cap", "token-cap"};
  c.pp = 2;
  c.dp = 1;
  c.tp = 8;
  c.recompute = RecomputeSpec{RecomputeMode::None, 0};
  c.stage_split = StageSplitSpec{false, {15, 17}};
  c.memory_cap_gb = 60;
  c.token_cap = 8192;
  auto overrides = cost_file_overrides(c);
  ASSERT_TRUE(overrides.ok()) << overrides.error().message;
  std::vector<std::string> lines;
  for (const auto& o : *overrides) lines.push_back(override_line(o));
  const std::vector<std::string> want = {
      "--pp 2 overrides parallel.pp = 4 of " + file,
      "--dp 1 overrides parallel.dp = 2 of " + file,
      "--tp 8 overrides parallel.tp = 2 of " + file,
      "--recompute none overrides options.recompute = full of " + file,
      "--stage-layers 15,17 overrides parallel.stage_layers = 8,8,8,8 of " + file,
      "--memory-cap 60 overrides options.memory_cap_bytes = 70000000000.0 of " + file,
      "--token-cap 8192 overrides options.token_cap = 4096 of " + file};
  EXPECT_EQ(lines, want);
  auto cost = make_cost_model(c);
  ASSERT_TRUE(cost.ok()) << cost.error().message;
  EXPECT_EQ((*cost)->stages(), 2);
  EXPECT_EQ((*cost)->parallel().dp, 1);
  EXPECT_EQ((*cost)->parallel().tp, 8);
  EXPECT_EQ((*cost)->stage_layers(), (std::vector<int>{15, 17}));
  EXPECT_DOUBLE_EQ((*cost)->memory_cap(), 60e9);
}

TEST(CostFileRule, AModelOrGpuTheFileDescribesCannotBeReplaced) {
  ConfigSpec c = tiny({"model"});
  c.model = "llama-3-8b";
  auto overrides = cost_file_overrides(c);
  ASSERT_FALSE(overrides.ok());
  EXPECT_EQ(overrides.error().message,
            "--model llama-3-8b contradicts model = tiny-8x256 of " + kTiny +
                ": the file describes its own model; drop --model or the file's \"model\"");
  EXPECT_FALSE(make_cost_model(c).ok());
  // A file whose model section only refines fields applies on top of the given preset.
  const std::string file = write_file("layers.json", R"({"model": {"layers": 16}})");
  ConfigSpec refined;
  refined.cost_overrides_file = file;
  refined.given_options = {"model"};
  refined.model = "llama-3-70b";
  refined.pp = 4;
  ASSERT_TRUE(cost_file_overrides(refined).ok());
  auto cost = make_cost_model(refined);
  ASSERT_TRUE(cost.ok()) << cost.error().message;
  EXPECT_EQ((*cost)->model().layers, 16);
}

TEST(CostFileRule, StagesAndAStageListOfAnotherCountContradict) {
  const std::string file = write_file(
      "split.json", R"({"model": {"layers": 8}, "parallel": {"stage_layers": [3, 3, 2]}})");
  ConfigSpec c;
  c.cost_overrides_file = file;
  c.given_options = {"pp"};
  c.pp = 2;
  auto overrides = cost_file_overrides(c);
  ASSERT_FALSE(overrides.ok());
  EXPECT_EQ(overrides.error().message, "--pp 2 contradicts parallel.stage_layers = 3,3,2 of " +
                                           file +
                                           " (3 stages): give --stage-layers too, or drop --pp");
}

TEST(CostFileRule, APlanFixesStagesAndReplicasOverTheFile) {
  const std::string file =
      write_file("pp2.json", R"({"model": {"layers": 8}, "parallel": {"pp": 2}})");
  ConfigSpec c;
  c.cost_overrides_file = file;
  auto cost = make_cost_model(c, PlanShape{4, 1});
  ASSERT_TRUE(cost.ok()) << cost.error().message;
  EXPECT_EQ((*cost)->stages(), 4);
}

TEST(CostFileRule, ASearchPointsSettingsAreGivenAndReportedWhenTheFileSetsThem) {
  ConfigSpec base = tiny();
  SearchConfig point;
  point.p = 2;
  point.t = 2;
  point.strategy = "sliced";
  const ConfigSpec c = config_for(base, point);
  auto cost = make_cost_model(c);
  ASSERT_TRUE(cost.ok()) << cost.error().message;
  EXPECT_EQ((*cost)->parallel().tp, 2);
  auto overrides = cost_file_overrides(base, {"pp", "tp"});
  ASSERT_TRUE(overrides.ok());
  ASSERT_EQ(overrides->size(), 1u);
  EXPECT_EQ(overrides->front().field, "parallel.tp");
}

// compare's variants set what they name: fixed:cp=2 ran with the file's parallel.cp = 1.
TEST(CostFileRule, ACompareVariantsSettingsAreGiven) {
  const std::string file = write_file("cp1.json", R"({"parallel": {"cp": 1, "dp": 2}})");
  ConfigSpec base;
  base.cost_overrides_file = file;
  base.dp = 2;
  base.strategy = "fixed";
  auto v = parse_strategy_variant("fixed:cp=2", base);
  ASSERT_TRUE(v.ok()) << v.error().message;
  ASSERT_TRUE(v->not_applicable.empty());
  auto cost = make_cost_model(v->config);
  ASSERT_TRUE(cost.ok()) << cost.error().message;
  EXPECT_EQ((*cost)->parallel().cp, 2);
  EXPECT_EQ((*cost)->parallel().dp, 1);
}

TEST(CostFileRule, AdoptingAFileShowsItsValuesAndALaterEditWins) {
  ConfigSpec c = tiny({"model", "gpu", "pp", "tp"});
  c.pp = 2;
  auto adopted = adopt_cost_file(c);
  ASSERT_TRUE(adopted.ok()) << adopted.error().message;
  EXPECT_EQ(adopted->tp, 1);
  EXPECT_EQ(adopted->pp, 2);  // the file has no parallel.pp
  // The file describes its model and GPU: the panel's names are not given, so no contradiction.
  EXPECT_EQ(std::count(adopted->given_options.begin(), adopted->given_options.end(), "model"), 0);
  auto overrides = cost_file_overrides(*adopted);
  ASSERT_TRUE(overrides.ok()) << overrides.error().message;
  EXPECT_TRUE(overrides->empty());
  ConfigSpec edited = *adopted;
  edited.tp = 2;
  auto cost = make_cost_model(edited);
  ASSERT_TRUE(cost.ok()) << cost.error().message;
  EXPECT_EQ((*cost)->parallel().tp, 2);
  overrides = cost_file_overrides(edited);
  ASSERT_TRUE(overrides.ok());
  ASSERT_EQ(overrides->size(), 1u);
  EXPECT_EQ(override_line(overrides->front()), "--tp 2 overrides parallel.tp = 1 of " + kTiny);
}

}  // namespace
}  // namespace slimpack
