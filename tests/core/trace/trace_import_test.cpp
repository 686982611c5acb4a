#include "trace/trace_import.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../sim/sim_test_plans.h"
#include "sim/simulator.h"
#include "trace/chrome_trace.h"

namespace slimpack {
namespace {

const std::string kSample = std::string(SLIMPACK_SAMPLES_DIR) + "/traces/kineto_small.json";

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string temp_file(const std::string& name, const std::string& bytes) {
  const std::string path = ::testing::TempDir() + "traceimport_" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

std::string name_of(const ImportedTrace& t, std::int32_t id) {
  return t.names[static_cast<std::size_t>(id)];
}

Expected<ImportedTrace> parse(const std::string& json, const std::string& src = "t.json") {
  return import_chrome_trace_text(json, src);
}

std::string error_of(const Expected<ImportedTrace>& r) {
  return r.ok() ? std::string("(no error)") : r.error().message;
}

TEST(TraceImport, SampleCountsPerPhase) {
  auto t = import_chrome_trace(kSample);
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->source, kSample);
  EXPECT_EQ(t->events, 30);
  const std::map<std::string, std::int64_t> expected = {
      {"B", 2}, {"C", 2}, {"E", 2}, {"I", 1}, {"M", 6}, {"X", 11}, {"f", 2}, {"i", 2}, {"s", 2}};
  EXPECT_EQ(t->by_phase, expected);
  EXPECT_EQ(t->unmatched, 0);
  EXPECT_EQ(t->bytes, static_cast<std::int64_t>(read_bytes(kSample).size()));
  // First start: ProfilerStep#1 at 1000; last end: the NCCL kernel, 1500 + 420.25.
  EXPECT_DOUBLE_EQ(t->span_us, 920.25);
}

TEST(TraceImport, SampleLanesSortedWithLabels) {
  auto t = import_chrome_trace(kSample);
  ASSERT_TRUE(t.ok()) << t.error().message;
  // pid 0 before 4242 (numeric); string tids in text order ("stream 20" < "stream 7"). The CPU
  // process has process_labels "CPU": its label says so.
  ASSERT_EQ(t->lanes.size(), 4u);
  const std::vector<std::vector<std::string>> expected = {
      {"0", "stream 20", "GPU 0 / stream 20 nccl"},
      {"0", "stream 7", "GPU 0 / stream 7"},
      {"4242", "4242", "python3 (CPU) / thread 4242 (python3)"},
      {"4242", "4250", "python3 (CPU)"}};
  const std::vector<std::int64_t> counts = {1, 4, 6, 2};
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const TraceLane& l = t->lanes[i];
    EXPECT_EQ(l.pid, expected[i][0]);
    EXPECT_EQ(l.tid, expected[i][1]);
    EXPECT_EQ(l.label, expected[i][2]);
    EXPECT_EQ(l.count, counts[i]);
    EXPECT_EQ(l.events.size(), static_cast<std::size_t>(counts[i]));
    for (std::size_t k = 1; k < l.events.size(); ++k)
      EXPECT_LE(l.events[k - 1].start_us, l.events[k].start_us);
  }
  const TraceLane& cpu = t->lanes[2];
  EXPECT_EQ(name_of(*t, cpu.events[0].name), "ProfilerStep#1");
  EXPECT_EQ(name_of(*t, cpu.events[0].cat), "user_annotation");
  EXPECT_DOUBLE_EQ(cpu.events[0].dur_us, 900.5);
  EXPECT_EQ(name_of(*t, cpu.events[1].name), "aten::linear");
  EXPECT_DOUBLE_EQ(cpu.events[1].start_us, 1010.25);
  // Interning: both aten::linear events share one name index.
  EXPECT_EQ(cpu.events[1].name, cpu.events[3].name);
}

TEST(TraceImport, BeginEndPairsNestPerLane) {
  auto t = import_chrome_trace(kSample);
  ASSERT_TRUE(t.ok()) << t.error().message;
  const TraceLane& py = t->lanes[3];
  ASSERT_EQ(py.events.size(), 2u);
  // B forward 1005 .. E 1400 encloses B attention 1050 .. E 1150.5 (the inner E closes first).
  EXPECT_EQ(name_of(*t, py.events[0].name), "forward");
  EXPECT_DOUBLE_EQ(py.events[0].start_us, 1005.0);
  EXPECT_DOUBLE_EQ(py.events[0].dur_us, 395.0);
  EXPECT_EQ(name_of(*t, py.events[1].name), "attention");
  EXPECT_EQ(name_of(*t, py.events[1].cat), "python_function");
  EXPECT_DOUBLE_EQ(py.events[1].start_us, 1050.0);
  EXPECT_DOUBLE_EQ(py.events[1].dur_us, 100.5);
}

TEST(TraceImport, UnmatchedBeginEndAreCountedNotFatal) {
  // Lane 1/1: E with nothing open, then B..E matched, then a dangling B. Lane 1/2 is separate:
  // its E does not close lane 1/1's B.
  auto t = parse(R"([
    {"ph":"E","pid":1,"tid":1,"ts":1},
    {"ph":"B","name":"a","pid":1,"tid":1,"ts":2},
    {"ph":"E","pid":1,"tid":1,"ts":5},
    {"ph":"B","name":"b","pid":1,"tid":1,"ts":6},
    {"ph":"E","pid":1,"tid":2,"ts":7}])");
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->events, 5);
  EXPECT_EQ(t->unmatched, 3);
  ASSERT_EQ(t->lanes.size(), 2u);
  ASSERT_EQ(t->lanes[0].events.size(), 1u);
  EXPECT_DOUBLE_EQ(t->lanes[0].events[0].dur_us, 3.0);
  EXPECT_DOUBLE_EQ(t->span_us, 3.0);
}

TEST(TraceImport, StringAndNumberIdsNameTheSameLane) {
  auto t = parse(R"({"traceEvents":[
    {"ph":"X","pid":"3","tid":7,"ts":10,"dur":1},
    {"ph":"X","pid":3,"tid":"7","ts":1.5e1,"dur":2.5},
    {"ph":"X","pid":10,"tid":2,"ts":0.5,"dur":0},
    {"ph":"X","pid":9,"tid":2,"ts":20}]})");
  ASSERT_TRUE(t.ok()) << t.error().message;
  ASSERT_EQ(t->lanes.size(), 3u);
  EXPECT_EQ(t->lanes[0].pid, "3");  // 3 < 9 < 10 numerically (text order would put 10 first)
  EXPECT_EQ(t->lanes[0].count, 2);
  EXPECT_EQ(t->lanes[1].pid, "9");
  EXPECT_EQ(t->lanes[2].pid, "10");
  EXPECT_DOUBLE_EQ(t->span_us, 20.0 - 0.5);  // the "X" without dur counts as zero length
}

TEST(TraceImport, CountOnlyKeepsNoEvents) {
  TraceImportOptions opt;
  opt.keep_events = false;
  auto t = import_chrome_trace(kSample, opt);
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->events, 30);
  EXPECT_DOUBLE_EQ(t->span_us, 920.25);
  ASSERT_EQ(t->lanes.size(), 4u);
  for (const TraceLane& l : t->lanes) EXPECT_TRUE(l.events.empty());
  EXPECT_EQ(t->lanes[1].count, 4);
}

TEST(TraceImport, GzipEqualsPlain) {
  auto plain = import_chrome_trace(kSample);
  auto gz = import_chrome_trace(kSample + ".gz");
  ASSERT_TRUE(plain.ok()) << plain.error().message;
  ASSERT_TRUE(gz.ok()) << gz.error().message;
  EXPECT_EQ(gz->events, plain->events);
  EXPECT_EQ(gz->by_phase, plain->by_phase);
  EXPECT_EQ(gz->bytes, plain->bytes);
  EXPECT_EQ(gz->names, plain->names);
  EXPECT_DOUBLE_EQ(gz->span_us, plain->span_us);
  ASSERT_EQ(gz->lanes.size(), plain->lanes.size());
  for (std::size_t i = 0; i < gz->lanes.size(); ++i) {
    EXPECT_EQ(gz->lanes[i].label, plain->lanes[i].label);
    ASSERT_EQ(gz->lanes[i].events.size(), plain->lanes[i].events.size());
    for (std::size_t k = 0; k < gz->lanes[i].events.size(); ++k) {
      EXPECT_EQ(gz->lanes[i].events[k].start_us, plain->lanes[i].events[k].start_us);
      EXPECT_EQ(gz->lanes[i].events[k].dur_us, plain->lanes[i].events[k].dur_us);
      EXPECT_EQ(gz->lanes[i].events[k].name, plain->lanes[i].events[k].name);
    }
  }
}

TEST(TraceImport, TruncatedJsonNamesFileAndReason) {
  const std::string text = read_bytes(kSample);
  const std::string path = temp_file("truncated.json", text.substr(0, text.size() / 2));
  auto t = import_chrome_trace(path);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().kind, ErrorKind::BadInput);
  EXPECT_EQ(t.error().message.rfind(path + ": ", 0), 0u) << t.error().message;
  EXPECT_NE(t.error().message.find("JSON error"), std::string::npos) << t.error().message;
}

TEST(TraceImport, TruncatedGzipNamesFile) {
  const std::string gz = read_bytes(kSample + ".gz");
  const std::string path = temp_file("truncated.json.gz", gz.substr(0, gz.size() / 2));
  auto t = import_chrome_trace(path);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().message.rfind(path + ": ", 0), 0u) << t.error().message;
}

TEST(TraceImport, TsNotANumberNamesEventIndex) {
  auto t = parse(R"({"traceEvents":[{"ph":"X","pid":1,"tid":1,"ts":1,"dur":1},
                                    {"ph":"X","pid":1,"tid":1,"ts":"soon","dur":1}]})",
                 "trace.json");
  EXPECT_EQ(error_of(t), "trace.json: traceEvents[1]: ts is not a number");
}

TEST(TraceImport, SemanticErrorsNameEventAndReason) {
  EXPECT_EQ(error_of(parse(R"([{"ph":"X","pid":1,"tid":1,"dur":1}])")),
            "t.json: traceEvents[0]: \"X\" event has no ts");
  EXPECT_EQ(error_of(parse(R"([{"ph":"X","pid":1,"tid":1,"ts":5,"dur":-1}])")),
            "t.json: traceEvents[0]: dur is negative");
  EXPECT_EQ(error_of(parse(R"([{"ph":"X","pid":[1],"tid":1,"ts":5}])")),
            "t.json: traceEvents[0]: pid is neither a number nor a string");
  EXPECT_EQ(
      error_of(parse(R"([{"ph":"B","ts":5,"pid":1,"tid":1},{"ph":"E","ts":4,"pid":1,"tid":1}])")),
      "t.json: traceEvents[1]: \"E\" event ends before its \"B\" begins");
  EXPECT_EQ(error_of(parse(R"([{"ph":"X","ts":0}, 3])")), "t.json: traceEvents[1]: not an object");
}

TEST(TraceImport, NotATraceAndMissingFile) {
  EXPECT_EQ(error_of(parse(R"({"lanes":[]})", "x.json")),
            "x.json: not a Chrome trace: no \"traceEvents\" array");
  EXPECT_EQ(error_of(parse(R"({"traceEvents":{}})", "x.json")),
            "x.json: \"traceEvents\" is not an array");
  EXPECT_EQ(error_of(parse("42", "x.json")),
            "x.json: not a Chrome trace: the top level is neither an array nor an object");
  const std::string missing = ::testing::TempDir() + "traceimport_no_such_file.json";
  auto t = import_chrome_trace(missing);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().message.rfind(missing + ": cannot open: ", 0), 0u) << t.error().message;
  auto empty = parse("", "e.json");
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error().message.rfind("e.json: JSON error", 0), 0u) << empty.error().message;
}

TEST(TraceImport, EmptyTraceHasNoSpan) {
  auto t = parse(R"({"traceEvents":[],"otherData":{}})");
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->events, 0);
  EXPECT_TRUE(t->lanes.empty());
  EXPECT_EQ(t->span_us, 0.0);
}

std::string many_events(int n) {
  std::string s = "[";
  for (int i = 0; i < n; ++i) {
    if (i) s += ',';
    s += R"({"ph":"X","pid":1,"tid":)" + std::to_string(i % 4) + R"(,"ts":)" + std::to_string(i) +
         R"(,"dur":1})";
  }
  return s + "]";
}

class CancelOnReport final : public ProgressSink {
 public:
  explicit CancelOnReport(const CancelToken& token) : token_(token) {}
  void report(std::string_view, double fraction) override {
    fractions.push_back(fraction);
    token_.cancel();
  }
  std::vector<double> fractions;

 private:
  const CancelToken& token_;
};

class Recorder final : public ProgressSink {
 public:
  void report(std::string_view stage, double fraction) override {
    stages.emplace_back(stage);
    fractions.push_back(fraction);
  }
  std::vector<std::string> stages;
  std::vector<double> fractions;
};

TEST(TraceImport, CancelReturnsCancelled) {
  CancelToken pre;
  pre.cancel();
  auto t = import_chrome_trace(kSample, {}, pre);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().kind, ErrorKind::Cancelled);

  // Cancelled mid-parse: the first check comes after 65536 events.
  CancelToken token;
  CancelOnReport sink(token);
  auto mid = import_chrome_trace_text(many_events(70000), "big.json", {}, token, sink);
  ASSERT_FALSE(mid.ok());
  EXPECT_EQ(mid.error().kind, ErrorKind::Cancelled);
  ASSERT_EQ(sink.fractions.size(), 1u);
  EXPECT_GT(sink.fractions[0], 0.8);  // 65536 of 70000 similar events
  EXPECT_LT(sink.fractions[0], 1.0);
}

TEST(TraceImport, ProgressIsMonotoneAndEndsAtOne) {
  Recorder rec;
  auto t = import_chrome_trace_text(many_events(140000), "big.json", {}, CancelToken::none(), rec);
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->events, 140000);
  EXPECT_EQ(t->lanes.size(), 4u);
  EXPECT_DOUBLE_EQ(t->span_us, 140000.0);
  ASSERT_EQ(rec.fractions.size(), 3u);  // at 65536, 131072 and the end
  EXPECT_LT(rec.fractions[0], rec.fractions[1]);
  EXPECT_EQ(rec.fractions[2], 1.0);
}

TEST(TraceImport, RoundTripOfOwnExport) {
  // p = 2, M = 2, latency 0.5: 8 F/B and 4 send "X" events plus metadata.
  const Plan plan = test::uniform_plan(2, 2, 1.0, 2.0, ScheduleKind::OneFOneB, 0, 1, 0.5);
  auto res = simulate(plan, nullptr, {});
  ASSERT_TRUE(res.ok()) << res.error().message;
  const std::string path = ::testing::TempDir() + "traceimport_roundtrip.json";
  ASSERT_TRUE(write_chrome_trace(path, plan, *res).ok());
  const auto reference = nlohmann::json::parse(read_bytes(path));
  std::map<std::string, std::int64_t> phases;
  for (const auto& e : reference["traceEvents"]) ++phases[e["ph"].get<std::string>()];

  auto t = import_chrome_trace(path);
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->events, static_cast<std::int64_t>(reference["traceEvents"].size()));
  EXPECT_EQ(t->by_phase, phases);
  EXPECT_EQ(t->by_phase["X"], 12);
  ASSERT_EQ(t->lanes.size(), 4u);
  EXPECT_EQ(t->lanes[2].label, "replica 0 / stage 1");
  EXPECT_EQ(t->lanes[3].label, "replica 0 / stage 1 p2p");
  EXPECT_EQ(t->lanes[0].count + t->lanes[2].count, 8);
  // The export writes 1 time unit as 1000 us; span = makespan * 1000.
  EXPECT_NEAR(t->span_us, res->makespan * 1000.0, 1e-6);
}

}  // namespace
}  // namespace slimpack
