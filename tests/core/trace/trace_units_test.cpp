// Mapping trace events to pipeline units, and measured against simulated.
#include <gtest/gtest.h>

#include "../sim/sim_test_plans.h"
#include "plan/plan_json.h"
#include "sim/simulator.h"
#include "trace/chrome_trace.h"
#include "trace/trace_check.h"
#include "trace/trace_units.h"

namespace slimpack {
namespace {

ImportedTrace import_text(const std::string& json) {
  auto t = import_chrome_trace_text(json, "test.json");
  EXPECT_TRUE(t.ok()) << t.error().message;
  return t.ok() ? *t : ImportedTrace{};
}

// Round trip: our own export, mapped with the built-in rules, against the simulation it came from.
void expect_round_trip_exact(const Plan& plan) {
  auto sim = simulate(plan, nullptr, {});
  ASSERT_TRUE(sim.ok()) << sim.error().message;
  const ImportedTrace trace = import_text(chrome_trace_json(plan, *sim));
  auto rules = builtin_unit_rules("slimpack");
  ASSERT_TRUE(rules.ok());
  auto mapped = map_trace_units(trace, default_lane_mapping(trace), *rules);
  ASSERT_TRUE(mapped.ok()) << mapped.error().message;
  const TraceCheck check = check_against_simulation(*mapped, *sim, trace_us_per_unit(*sim));
  std::size_t ops = 0;
  for (const auto& r : sim->replicas)
    for (const auto& s : r.stages)
      for (const auto& op : s.ops) ops += op.kind == OpKind::Forward || op.kind == OpKind::Backward;
  EXPECT_EQ(check.units.size(), ops);
  EXPECT_EQ(check.only_simulated, 0);
  EXPECT_EQ(check.only_measured, 0);
  EXPECT_NEAR(check.mape, 0.0, 1e-12);
  EXPECT_NEAR(check.makespan_error, 0.0, 1e-12);
  EXPECT_NEAR(check.measured_makespan_us, sim->makespan * trace_us_per_unit(*sim), 1e-6);
}

TEST(TraceUnits, RoundTripOfOurExportIsExact1F1B) {
  expect_round_trip_exact(test::uniform_plan(4, 8, 1.0, 2.0));
}

TEST(TraceUnits, RoundTripOfOurExportIsExactAsymmetric) {
  auto plan = read_plan_file(std::string(SLIMPACK_SAMPLES_DIR) + "/plans/asymmetric-example.json");
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  expect_round_trip_exact(*plan);
}

TEST(TraceUnits, SlowerMeasurementShowsAsError) {
  const Plan plan = test::uniform_plan(2, 2, 1.0, 2.0);
  auto sim = simulate(plan, nullptr, {});
  ASSERT_TRUE(sim.ok());
  // The "measured" run: every backward takes 3 units instead of 2 (simulated is 1/3 too fast).
  const Plan slower = test::uniform_plan(2, 2, 1.0, 3.0);
  auto measured_sim = simulate(slower, nullptr, {});
  ASSERT_TRUE(measured_sim.ok());
  const ImportedTrace trace = import_text(chrome_trace_json(slower, *measured_sim));
  auto mapped =
      map_trace_units(trace, default_lane_mapping(trace), *builtin_unit_rules("slimpack"));
  ASSERT_TRUE(mapped.ok());
  const TraceCheck check = check_against_simulation(*mapped, *sim, 1000.0);
  ASSERT_EQ(check.units.size(), 8u);
  // Backward units first (|error| 1/3), forward units exact.
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(check.units[i].pass, Pass::Backward);
    EXPECT_NEAR(check.units[i].error, (2.0 - 3.0) / 3.0, 1e-12);
  }
  for (std::size_t i = 4; i < 8; ++i) EXPECT_NEAR(check.units[i].error, 0.0, 1e-12);
  EXPECT_NEAR(check.mape, 0.5 * (1.0 / 3.0), 1e-12);
  // 1F1B, p = 2, M = 2: makespan (M + p - 1)(tF + tB) = 3 * 3 = 9 simulated, 3 * 4 = 12 measured.
  EXPECT_NEAR(check.simulated_makespan_us, 9000.0, 1e-6);
  EXPECT_NEAR(check.measured_makespan_us, 12000.0, 1e-6);
  EXPECT_NEAR(check.makespan_error, -0.25, 1e-12);
}

// Two ranks as two processes with Megatron-style ranges: micro-batches numbered in order per lane.
TEST(TraceUnits, MegatronTimerNamesInOrder) {
  const std::string json = R"J({"traceEvents": [
    {"ph": "X", "name": "forward-compute", "pid": 0, "tid": 1, "ts": 0, "dur": 10},
    {"ph": "X", "name": "aten::mm", "pid": 0, "tid": 1, "ts": 2, "dur": 5},
    {"ph": "X", "name": "forward-compute", "pid": 0, "tid": 1, "ts": 10, "dur": 10},
    {"ph": "X", "name": "forward-send", "pid": 0, "tid": 1, "ts": 20, "dur": 2},
    {"ph": "X", "name": "backward-compute", "pid": 0, "tid": 1, "ts": 40, "dur": 20},
    {"ph": "X", "name": "forward-compute", "pid": 1, "tid": 1, "ts": 10, "dur": 10},
    {"ph": "X", "name": "backward-compute", "pid": 1, "tid": 1, "ts": 20, "dur": 20}
  ]})J";
  const ImportedTrace trace = import_text(json);
  auto mapped =
      map_trace_units(trace, default_lane_mapping(trace), *builtin_unit_rules("megatron"));
  ASSERT_TRUE(mapped.ok()) << mapped.error().message;
  ASSERT_EQ(mapped->units.size(), 5u);
  // Sorted by replica, stage, pass, pack: stage 0 F0 F1 B0, stage 1 F0 B0.
  EXPECT_EQ(mapped->units[0].stage, 0);
  EXPECT_EQ(mapped->units[1].pack, 1);
  EXPECT_DOUBLE_EQ(mapped->units[1].start_us, 10.0);
  EXPECT_EQ(mapped->units[2].pass, Pass::Backward);
  EXPECT_EQ(mapped->units[3].stage, 1);
  // Lane 0: events [0,10) [2,7) [10,20) [20,22) [40,60): busy 42 of a 60 us span.
  ASSERT_EQ(mapped->lanes.size(), 2u);
  EXPECT_DOUBLE_EQ(mapped->lanes[0].busy_us, 42.0);
  EXPECT_DOUBLE_EQ(mapped->lanes[0].span_us, 60.0);
  EXPECT_NEAR(mapped->lanes[0].idle_ratio, 0.3, 1e-12);
  EXPECT_EQ(mapped->lanes[0].units, 3);
}

TEST(TraceUnits, DualPipeAnnotations) {
  const std::string json = R"J([
    {"ph": "X", "name": "attn(F)", "pid": 0, "tid": 0, "ts": 0, "dur": 4},
    {"ph": "X", "name": "mlp(F)", "pid": 0, "tid": 0, "ts": 4, "dur": 4},
    {"ph": "X", "name": "mlp(B)", "pid": 0, "tid": 0, "ts": 8, "dur": 8},
    {"ph": "X", "name": "attn(W)", "pid": 0, "tid": 0, "ts": 16, "dur": 3},
    {"ph": "X", "name": "1F1B", "pid": 0, "tid": 0, "ts": 0, "dur": 19}
  ])J";
  const ImportedTrace trace = import_text(json);
  auto mapped =
      map_trace_units(trace, default_lane_mapping(trace), *builtin_unit_rules("dualpipe"));
  ASSERT_TRUE(mapped.ok()) << mapped.error().message;
  ASSERT_EQ(mapped->units.size(), 4u);  // the "1F1B" phase annotation is not a unit
  EXPECT_EQ(mapped->units[0].pass, Pass::Forward);
  EXPECT_EQ(mapped->units[2].pass, Pass::Backward);
  EXPECT_EQ(mapped->units[3].pass, Pass::Backward);  // W is backward work
  EXPECT_DOUBLE_EQ(mapped->lanes[0].busy_us, 19.0);
  EXPECT_DOUBLE_EQ(mapped->lanes[0].idle_ratio, 0.0);
}

TEST(TraceUnits, NoMatchNamesTheRules) {
  const ImportedTrace trace =
      import_text(R"J([{"ph": "X", "name": "aten::mm", "pid": 0, "tid": 0, "ts": 0, "dur": 1}])J");
  auto mapped =
      map_trace_units(trace, default_lane_mapping(trace), *builtin_unit_rules("megatron"));
  ASSERT_FALSE(mapped.ok());
  EXPECT_NE(mapped.error().message.find("forward-compute"), std::string::npos);
  EXPECT_NE(mapped.error().message.find("test.json"), std::string::npos);
}

TEST(TraceUnits, RulesFile) {
  auto rules = parse_unit_rules(R"J({"name": "mine", "rules": [
      {"name": "fwd_mb([0-9]+)", "pass": "forward", "pack_group": 1, "pack_base": 0},
      {"name": "bwd.*", "category": "user_annotation", "lane": "rank", "pass": "backward"}]})J",
                                "rules.json");
  ASSERT_TRUE(rules.ok()) << rules.error().message;
  EXPECT_EQ(rules->name, "mine");
  ASSERT_EQ(rules->rules.size(), 2u);
  EXPECT_EQ(rules->rules[0].pack_base, 0);
  EXPECT_EQ(rules->rules[1].pass, Pass::Backward);
  const ImportedTrace trace = import_text(R"J([
    {"ph": "M", "name": "process_name", "pid": 0, "args": {"name": "rank 0"}},
    {"ph": "X", "name": "fwd_mb7", "pid": 0, "tid": 0, "ts": 0, "dur": 1},
    {"ph": "X", "name": "bwd_x", "cat": "user_annotation", "pid": 0, "tid": 0, "ts": 1, "dur": 2}])J");
  auto mapped = map_trace_units(trace, default_lane_mapping(trace), *rules);
  ASSERT_TRUE(mapped.ok()) << mapped.error().message;
  ASSERT_EQ(mapped->units.size(), 2u);
  EXPECT_EQ(mapped->units[0].pack, 7);
}

TEST(TraceUnits, RulesFileErrorsNameThePath) {
  auto bad_pass = parse_unit_rules(R"J({"rules": [{"name": "x", "pass": "sideways"}]})J", "r.json");
  ASSERT_FALSE(bad_pass.ok());
  EXPECT_NE(bad_pass.error().message.find("r.json: $.rules[0].pass"), std::string::npos);
  auto bad_regex = parse_unit_rules(R"J({"rules": [{"name": "(", "pass": "forward"}]})J", "r.json");
  ASSERT_FALSE(bad_regex.ok());
  EXPECT_NE(bad_regex.error().message.find("invalid regular expression"), std::string::npos);
  auto bad_group = parse_unit_rules(
      R"J({"rules": [{"name": "F", "pass": "forward", "pack_group": 1}]})J", "r.json");
  ASSERT_FALSE(bad_group.ok());
  EXPECT_NE(bad_group.error().message.find("capture groups"), std::string::npos);
  EXPECT_FALSE(parse_unit_rules(R"J({"rules": []})J", "r.json").ok());
  EXPECT_FALSE(builtin_unit_rules("nccl").ok());
}

// std::regex recurses per character: a hostile trace or rules file must not exhaust the stack.
TEST(TraceUnits, HostileLengthsAreBounded) {
  UnitRuleSet set;
  set.name = "long";
  set.rules.push_back({std::string(600, 'a'), "", "", Pass::Forward, 0, 1});
  const ImportedTrace small = import_text(
      R"J([{"ph": "X", "name": "F1", "cat": "forward", "pid": 0, "tid": 0, "ts": 0, "dur": 1}])J");
  auto refused = map_trace_units(small, default_lane_mapping(small), set);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("longer than 512"), std::string::npos);

  const std::string huge(200000, 'F');
  const ImportedTrace trace = import_text(
      R"J([{"ph": "X", "name": ")J" + huge +
      R"J(", "pid": 0, "tid": 0, "ts": 0, "dur": 1}, {"ph": "X", "name": "forward-compute", "pid": 0, "tid": 0, "ts": 1, "dur": 1}])J");
  UnitRuleSet any;
  any.name = "any";
  any.rules.push_back({".*", "", "", Pass::Forward, 0, 1});
  auto mapped = map_trace_units(trace, default_lane_mapping(trace), any);
  ASSERT_TRUE(mapped.ok()) << mapped.error().message;
  EXPECT_EQ(mapped->units.size(), 1u);  // the 200k-character name is skipped, not matched
}

TEST(TraceUnits, UnionLength) {
  std::vector<TraceEvent> e = {{0, 10, 0, 0}, {5, 10, 0, 0}, {20, 1, 0, 0}, {20.5, 0.25, 0, 0}};
  EXPECT_DOUBLE_EQ(union_length(e), 16.0);  // [0,15) and [20,21)
  EXPECT_DOUBLE_EQ(union_length({}), 0.0);
}

}  // namespace
}  // namespace slimpack

namespace slimpack {
namespace {

TEST(TraceUnitRules, JsonRoundTripAndValidation) {
  UnitRuleSet set;
  set.name = "my job";
  UnitRule f;
  f.name_pattern = "fwd_mb([0-9]+)";
  f.pack_group = 1;
  f.pack_base = 0;
  UnitRule b;
  b.name_pattern = "bwd.*";
  b.category_pattern = "user_annotation";
  b.lane_pattern = "rank";
  b.pass = Pass::Backward;
  set.rules = {f, b};
  ASSERT_TRUE(validate_unit_rules(set).ok());
  auto back = parse_unit_rules(unit_rules_to_json(set), "rules.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->name, "my job");
  ASSERT_EQ(back->rules.size(), 2u);
  EXPECT_EQ(back->rules[0].name_pattern, "fwd_mb([0-9]+)");
  EXPECT_EQ(back->rules[0].pack_group, 1);
  EXPECT_EQ(back->rules[0].pack_base, 0);
  EXPECT_EQ(back->rules[0].pass, Pass::Forward);
  EXPECT_EQ(back->rules[1].category_pattern, "user_annotation");
  EXPECT_EQ(back->rules[1].lane_pattern, "rank");
  EXPECT_EQ(back->rules[1].pass, Pass::Backward);
  for (const auto& name : builtin_unit_rule_set_names()) {
    auto builtin = builtin_unit_rules(name);
    ASSERT_TRUE(builtin.ok());
    EXPECT_TRUE(validate_unit_rules(*builtin).ok()) << name;
    auto again = parse_unit_rules(unit_rules_to_json(*builtin), name);
    ASSERT_TRUE(again.ok()) << again.error().message;
    EXPECT_EQ(again->rules.size(), builtin->rules.size());
  }

  UnitRuleSet bad = set;
  bad.rules[1].name_pattern = "bwd(";
  const Status regex = validate_unit_rules(bad);
  ASSERT_FALSE(regex.ok());
  EXPECT_EQ(regex.error().message.rfind("my job: rules[1]: invalid regular expression", 0), 0u)
      << regex.error().message;
  bad = set;
  bad.rules[0].pack_group = 2;
  ASSERT_FALSE(validate_unit_rules(bad).ok());
  EXPECT_NE(
      validate_unit_rules(bad).error().message.find("pack_group 2 but the name pattern has 1"),
      std::string::npos);
  // The rule as a typed field (the rules dialog marks its row from it, not from the words).
  EXPECT_EQ(validate_unit_rules(bad).error().field, "rules[0]");
  EXPECT_EQ(validate_unit_rules(bad).error().field_reason,
            "pack_group 2 but the name pattern has 1 capture groups");
  bad = set;
  bad.rules.clear();
  ASSERT_FALSE(validate_unit_rules(bad).ok());
  EXPECT_EQ(validate_unit_rules(bad).error().message, "my job: no rules (at least one is needed)");
}

}  // namespace
}  // namespace slimpack

namespace slimpack {
namespace {

// libstdc++'s std::regex reads repetition counts and back-reference numbers into a long without an
// overflow check, and copies a quantified operand once per repetition: such patterns are refused
// before they are compiled (the trace_rules fuzzer found the back-reference overflow).
TEST(TraceUnitRules, PatternsThatWouldOverflowOrExplodeAreRefused) {
  auto error_for = [](const std::string& name, const std::string& lane = {}) {
    UnitRuleSet set;
    set.name = "r.json";
    UnitRule ok;
    ok.name_pattern = "F([0-9]+)";
    ok.pack_group = 1;
    UnitRule r;
    r.name_pattern = name;
    r.lane_pattern = lane;
    set.rules = {ok, r};
    const Status st = validate_unit_rules(set);
    return st.ok() ? std::string("(valid)") : st.error().message;
  };
  EXPECT_EQ(error_for("mlp%\\5555555555555555555555(x)"),
            "r.json: rules[1]: the name pattern has a back-reference number longer than 2 digits");
  EXPECT_EQ(error_for("a{5555555555555555555}"),
            "r.json: rules[1]: the name pattern has a repetition count longer than 6 digits");
  EXPECT_EQ(error_for("a{2,99999999}"),
            "r.json: rules[1]: the name pattern has a repetition count longer than 6 digits");
  EXPECT_EQ(error_for("x", "(a{1000}){1000}"),
            "r.json: rules[1]: the lane pattern repeats its parts too often (more than 100000 "
            "copies once {n} counts are expanded)");
  // Exponential backtracking: stacked quantifiers (the fuzzer's hang) and nested repetition.
  EXPECT_EQ(error_for("f1???;?.*???????{0,}??[^a]l||||mpute"),
            "r.json: rules[1]: the name pattern has a quantifier with nothing to repeat (or on a "
            "quantifier)");
  EXPECT_EQ(error_for("(a+)*b"),
            "r.json: rules[1]: the name pattern nests repetitions (\"(a+)*\" style), which take "
            "exponential time to match");
  EXPECT_EQ(error_for("x", "((?:ab*c)+d){2,9}"),
            "r.json: rules[1]: the lane pattern nests repetitions (\"(a+)*\" style), which take "
            "exponential time to match");
  EXPECT_EQ(error_for("*a"),
            "r.json: rules[1]: the name pattern has a quantifier with nothing to repeat (or on a "
            "quantifier)");
  EXPECT_EQ(error_for("((ab){100}c){100}x{20}"), "(valid)");  // 10k states: fine
  EXPECT_EQ(error_for("(?:fwd|bwd)_mb([0-9]+)(_chunk[0-9]+)?.*?"), "(valid)");
  EXPECT_EQ(error_for("(a+){2}b?"), "(valid)");  // a fixed count of a repetition is polynomial
  EXPECT_EQ(error_for("attn\\(F\\)|mlp\\(B\\)[0-9]{1,3}"), "(valid)");
  EXPECT_EQ(error_for("[\\]{]{3}(a)\\1"), "(valid)");

  // The fuzzer's input, through the JSON reader.
  auto parsed = parse_unit_rules(
      R"j({"rules": [{"name": "F([0-~a\\dG]+n|mlp%\\555555555555555555555(([BW])\\)",)j"
      R"j( "pass": "backward"}]})j",
      "crash.json");
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.error().message.find("back-reference number longer than 2 digits"),
            std::string::npos)
      << parsed.error().message;
}

}  // namespace
}  // namespace slimpack
