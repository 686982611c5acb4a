#include "plan/plan_json.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "plan/legality.h"
#include "plan_builders.h"

namespace slimpack {
namespace {

using nlohmann::json;
using test::merged;
using test::pack;
using test::seg;

json example() {
  return json::parse(R"({ "format": "slimpack-plan", "version": 1,
    "stages": 4, "schedule": "1f1b", "warmup_extra": 1, "vchunks": 1, "p2p_latency": 0.25,
    "sequences": [ {"id": "X", "length": 16384}, {"id": "s0", "length": 2048} ],
    "forward_packs":  [ {"segments": [ {"seq": "X", "begin": 0, "end": 4096}, {"seq": "s0"} ],
                         "time": 2.5, "comment": "unknown fields are ignored"},
                        {"segments": [ {"seq": "X", "begin": 4096, "end": 16384} ],
                         "stage_times": [1, 2, 3, 4.5]} ],
    "backward_packs": [ {"segments": [ {"seq": "s0"}, {"seq": "X"} ], "time": 2.0} ] })");
}

std::string error_of(const json& j) {
  auto plan = plan_from_json(j);
  EXPECT_FALSE(plan.ok());
  return plan.ok() ? std::string() : plan.error().message;
}

TEST(PlanJson, ReadsTheDesignExample) {
  auto plan = plan_from_json(example());
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  EXPECT_EQ(plan->stages, 4);
  EXPECT_EQ(plan->schedule, ScheduleKind::OneFOneB);
  EXPECT_EQ(plan->warmup_extra, 1);
  EXPECT_DOUBLE_EQ(plan->p2p_latency, 0.25);
  ASSERT_EQ(plan->sequences.size(), 2u);
  EXPECT_EQ(plan->sequences[0].id, "X");
  EXPECT_EQ(plan->sequences[1].length, 2048);
  ASSERT_EQ(plan->dp(), 1);
  const auto& f = plan->replicas[0].forward;
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].segments[0], seg(0, 0, 4096));
  EXPECT_EQ(f[0].segments[1], seg(1, 0, 2048));  // no begin/end: the whole sequence
  EXPECT_EQ(f[0].tokens(), 6144);
  ASSERT_TRUE(f[0].time.has_value());
  EXPECT_DOUBLE_EQ(*f[0].time, 2.5);
  EXPECT_EQ(f[1].stage_times, (std::vector<double>{1, 2, 3, 4.5}));
  EXPECT_FALSE(f[1].time.has_value());
  EXPECT_EQ(plan->replicas[0].backward[0].segments[1], seg(0, 0, 16384));
  EXPECT_TRUE(plan->has_explicit_times());
  EXPECT_TRUE(check_legality(*plan).legal()) << check_legality(*plan).summary();
}

TEST(PlanJson, DocumentedDefaults) {
  json j = example();
  j.erase("warmup_extra");
  j.erase("vchunks");
  j.erase("p2p_latency");
  auto plan = plan_from_json(j);
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  EXPECT_EQ(plan->warmup_extra, 0);
  EXPECT_EQ(plan->vchunks, 1);
  EXPECT_DOUBLE_EQ(plan->p2p_latency, 0.0);
  EXPECT_EQ(plan->slice_size, 0);
  EXPECT_EQ(plan->strategy, "");
}

Plan rich_plan() {
  Plan p;
  p.stages = 3;
  p.schedule = ScheduleKind::Interleaved;
  p.warmup_extra = 2;
  p.vchunks = 2;
  p.p2p_latency = 1.0 / 3.0;
  p.slice_size = 4096;
  p.strategy = "slimpack";
  p.sequences = {{"long", 8193}, {"a", 100}, {"b", 7}};
  Pack f0 = pack({merged(0, 0, 8193, 2, 0), seg(1, 0, 100)}, 0.1 + 0.2);
  Pack f1 = pack({seg(2, 0, 3), seg(2, 3, 7)});
  f1.stage_times = {1.5, 2.5, 1e-9};
  p.replicas.push_back(
      {{f0, f1},
       {pack({seg(2, 0, 7), seg(1, 0, 100)}, 4.0), pack({merged(0, 0, 8193, 2, 0)}, 7.25)}});
  p.replicas.push_back({{pack({merged(0, 0, 8193, 2, 1)}, 3.0)},
                        {pack({}, 0.0), pack({merged(0, 0, 8193, 2, 1)}, 7.25)}});
  return p;
}

void expect_same(const Plan& a, const Plan& b) {
  EXPECT_EQ(a.stages, b.stages);
  EXPECT_EQ(a.schedule, b.schedule);
  EXPECT_EQ(a.warmup_extra, b.warmup_extra);
  EXPECT_EQ(a.vchunks, b.vchunks);
  EXPECT_EQ(a.p2p_latency, b.p2p_latency);  // exact: the writer keeps every digit
  EXPECT_EQ(a.slice_size, b.slice_size);
  EXPECT_EQ(a.strategy, b.strategy);
  ASSERT_EQ(a.sequences.size(), b.sequences.size());
  for (std::size_t i = 0; i < a.sequences.size(); ++i) {
    EXPECT_EQ(a.sequences[i].id, b.sequences[i].id);
    EXPECT_EQ(a.sequences[i].length, b.sequences[i].length);
  }
  ASSERT_EQ(a.dp(), b.dp());
  for (int r = 0; r < a.dp(); ++r) {
    for (int pass = 0; pass < 2; ++pass) {
      const auto& pa = pass == 0 ? a.replicas[r].forward : a.replicas[r].backward;
      const auto& pb = pass == 0 ? b.replicas[r].forward : b.replicas[r].backward;
      ASSERT_EQ(pa.size(), pb.size());
      for (std::size_t k = 0; k < pa.size(); ++k) {
        EXPECT_EQ(pa[k].segments, pb[k].segments);
        EXPECT_EQ(pa[k].time, pb[k].time);
        EXPECT_EQ(pa[k].stage_times, pb[k].stage_times);
      }
    }
  }
}

TEST(PlanJson, RoundTripIsIdentity) {
  for (const Plan& original :
       {rich_plan(), test::make_plan(4, {{"u", 10}}, {pack({seg(0, 0, 10)}, 1.0)},
                                     {pack({seg(0, 0, 10)}, 2.0)})}) {
    const json j = plan_to_json(original);
    auto back = plan_from_json(j);
    ASSERT_TRUE(back.ok()) << back.error().message;
    expect_same(original, *back);
    EXPECT_EQ(plan_to_json(*back), j);
    // The pretty text form reads back to the same plan as well.
    auto again = plan_from_json(json::parse(plan_to_string(original)));
    ASSERT_TRUE(again.ok()) << again.error().message;
    expect_same(original, *again);
  }
}

TEST(PlanJson, WriterLayout) {
  const json j = plan_to_json(rich_plan());
  EXPECT_EQ(j.at("format").get<std::string>(), "slimpack-plan");
  EXPECT_EQ(j.at("version").get<int>(), 1);
  EXPECT_EQ(j.at("schedule").get<std::string>(), "interleaved");
  EXPECT_EQ(j.at("slice_size").get<std::int64_t>(), 4096);
  EXPECT_EQ(j.at("strategy").get<std::string>(), "slimpack");
  EXPECT_FALSE(j.contains("forward_packs"));  // d = 2 writes "replicas"
  ASSERT_EQ(j.at("replicas").size(), 2u);
  const json& s = j.at("replicas")[0].at("forward_packs")[0].at("segments")[0];
  EXPECT_EQ(s.at("shards").get<int>(), 2);
  EXPECT_EQ(s.at("shard").get<int>(), 0);
  EXPECT_FALSE(j.at("replicas")[0].at("forward_packs")[0].at("segments")[1].contains("shards"));
  const std::string text = plan_to_string(rich_plan());
  EXPECT_EQ(text.rfind("{\n  \"format\": \"slimpack-plan\",\n  \"version\": 1,\n", 0), 0u) << text;
  EXPECT_EQ(text.back(), '\n');
  // Unset informational fields are omitted.
  const json plain = plan_to_json(test::make_plan(1, {{"u", 1}}, {}, {}));
  EXPECT_FALSE(plain.contains("slice_size"));
  EXPECT_FALSE(plain.contains("strategy"));
  EXPECT_TRUE(plain.contains("forward_packs"));
}

TEST(PlanJson, HeaderErrorsNameTheField) {
  EXPECT_EQ(error_of(json::array()), "$: expected a JSON object");
  json j = example();
  j.erase("format");
  EXPECT_EQ(error_of(j), "$.format: missing required field");
  j = example();
  j["format"] = "slimpack-trace";
  EXPECT_EQ(error_of(j), "$.format: expected \"slimpack-plan\", got \"slimpack-trace\"");
  j = example();
  j["version"] = 2;
  EXPECT_EQ(error_of(j), "$.version: unsupported version 2 (this program reads version 1)");
  j = example();
  j.erase("stages");
  EXPECT_EQ(error_of(j), "$.stages: missing required field");
  j = example();
  j["stages"] = 0;
  EXPECT_EQ(error_of(j), "$.stages: 0 is out of range [1, 4096]");
  j = example();
  j["schedule"] = "zigzag";
  EXPECT_EQ(
      error_of(j),
      "$.schedule: unknown schedule \"zigzag\" (expected \"1f1b\", \"gpipe\" or \"interleaved\")");
  j = example();
  j["warmup_extra"] = -1;
  EXPECT_EQ(error_of(j), "$.warmup_extra: -1 is out of range [0, 65536]");
  j = example();
  j["vchunks"] = "two";
  EXPECT_EQ(error_of(j), "$.vchunks: expected an integer");
  j = example();
  j["p2p_latency"] = -0.5;
  EXPECT_EQ(error_of(j), "$.p2p_latency: must not be negative");
}

TEST(PlanJson, SequenceErrors) {
  json j = example();
  j.erase("sequences");
  EXPECT_EQ(error_of(j), "$.sequences: missing required field");
  j = example();
  j["sequences"][1]["id"] = "X";
  EXPECT_EQ(error_of(j), "$.sequences[1].id: duplicate sequence id \"X\"");
  j = example();
  j["sequences"][0].erase("length");
  EXPECT_EQ(error_of(j), "$.sequences[0].length: missing required field");
  j = example();
  j["sequences"][1]["length"] = 0;
  EXPECT_EQ(error_of(j), "$.sequences[1].length: 0 (a sequence has at least 1 token)");
}

TEST(PlanJson, PackAndSegmentErrors) {
  json j = example();
  j["forward_packs"][1]["segments"][0]["seq"] = "X7";
  EXPECT_EQ(error_of(j), "$.forward_packs[1].segments[0].seq: unknown sequence \"X7\"");
  j = example();
  j.erase("backward_packs");
  EXPECT_EQ(error_of(j), "$.backward_packs: missing required field");
  j = example();
  j["forward_packs"][0].erase("segments");
  EXPECT_EQ(error_of(j), "$.forward_packs[0].segments: missing required field");
  j = example();
  j["forward_packs"][0]["segments"][0]["end"] = 20000;
  EXPECT_EQ(error_of(j),
            "$.forward_packs[0].segments[0].end: 20000 is past the end of sequence \"X\" (length "
            "16384)");
  j = example();
  j["forward_packs"][0]["segments"][0]["begin"] = 4096;
  EXPECT_EQ(error_of(j), "$.forward_packs[0].segments[0]: begin 4096 must be less than end 4096");
  j = example();
  j["forward_packs"][0]["segments"][0]["begin"] = -1;
  EXPECT_EQ(error_of(j), "$.forward_packs[0].segments[0].begin: must not be negative");
  j = example();
  j["forward_packs"][0]["segments"][1]["shards"] = 2;
  j["forward_packs"][0]["segments"][1]["shard"] = 2;
  EXPECT_EQ(error_of(j), "$.forward_packs[0].segments[1].shard: 2 is out of range [0, 1]");
  j = example();
  j["backward_packs"][0]["time"] = -1;
  EXPECT_EQ(error_of(j), "$.backward_packs[0].time: must not be negative");
  j = example();
  j["forward_packs"][1]["stage_times"] = json::array({1, 2});
  EXPECT_EQ(error_of(j),
            "$.forward_packs[1].stage_times: expected an array of 4 numbers (one per stage)");
  j = example();
  j["forward_packs"][0]["segments"] = json::object();
  EXPECT_EQ(error_of(j), "$.forward_packs[0].segments: expected an array");
}

TEST(PlanJson, ReplicaErrors) {
  json j = plan_to_json(rich_plan());
  j["forward_packs"] = json::array();
  EXPECT_EQ(error_of(j), "$.forward_packs: not allowed together with $.replicas");
  j = plan_to_json(rich_plan());
  j["replicas"][1]["backward_packs"][1]["segments"][0]["seq"] = "nope";
  EXPECT_EQ(error_of(j),
            "$.replicas[1].backward_packs[1].segments[0].seq: unknown sequence \"nope\"");
  j = plan_to_json(rich_plan());
  j["replicas"] = json::array();
  EXPECT_EQ(error_of(j), "$.replicas: expected a non-empty array");
  j = plan_to_json(rich_plan());
  j["replicas"][0].erase("forward_packs");
  EXPECT_EQ(error_of(j), "$.replicas[0].forward_packs: missing required field");
}

TEST(PlanJson, ReadPlanFilePrefixesErrorsWithThePath) {
  const auto dir = std::filesystem::temp_directory_path() / "slimpack-plan-json-test";
  std::filesystem::create_directories(dir);
  const std::string bad = (dir / "bad.json").string();
  {
    std::ofstream out(bad);
    out << R"({"format": "slimpack-plan", "version": 1, "stages": 2, "schedule": "1f1b"})";
  }
  auto plan = read_plan_file(bad);
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.error().message, bad + ": $.sequences: missing required field");
  EXPECT_EQ(plan.error().kind, ErrorKind::BadInput);
  const std::string missing = (dir / "does-not-exist.json").string();
  plan = read_plan_file(missing);
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.error().message.rfind(missing + ":", 0), 0u) << plan.error().message;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace slimpack
