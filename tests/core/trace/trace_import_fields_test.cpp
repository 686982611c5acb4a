// Hand-written traces for the import's per-event args text, the PyTorch profiler's rank, every
// "ph" kind, number and text forms of fields, unicode, a large "metadata" object before the events,
// multi-member gzip and malformed input that must fail naming the file and the event.
#include <gtest/gtest.h>
#include <zlib.h>

#include <fstream>
#include <string>

#include "trace/trace_file_read.h"
#include "trace/trace_import.h"

namespace slimpack {
namespace {

Expected<ImportedTrace> parse(const std::string& json, TraceImportOptions opt = {}) {
  return import_chrome_trace_text(json, "t.json", opt);
}

std::string error_of(const Expected<ImportedTrace>& r) {
  return r.ok() ? std::string("(no error)") : r.error().message;
}

const TraceEvent& only_event(const ImportedTrace& t, std::size_t lane = 0) {
  return t.lanes.at(lane).events.at(0);
}

std::string args_of(const ImportedTrace& t, const TraceEvent& e) {
  return e.args < 0 ? std::string("(none)") : t.args.at(static_cast<std::size_t>(e.args));
}

TEST(TraceImportFields, ArgsAreCompactJsonText) {
  auto t = parse(R"({"traceEvents": [
    {"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 2,
     "args": { "External id" : 7, "Input Dims" : [ [8, 4096] , [] ],
               "note": "x  y \" {z}", "nested": {"k": null, "t": true} }},
    {"ph": "X", "name": "b", "pid": 1, "tid": 2, "ts": 1, "dur": 2}]})");
  ASSERT_TRUE(t.ok()) << t.error().message;
  ASSERT_EQ(t->lanes.size(), 2u);
  EXPECT_EQ(args_of(*t, only_event(*t, 0)),
            R"({"External id":7,"Input Dims":[[8,4096],[]],"note":"x  y \" {z}",)"
            R"("nested":{"k":null,"t":true}})");
  EXPECT_EQ(only_event(*t, 1).args, -1);
  EXPECT_EQ(t->args.size(), 1u);
}

TEST(TraceImportFields, ArgsOfBeginEndPairsAndArgsBeforePh) {
  auto t = parse(R"([
    {"ph": "B", "name": "fwd", "pid": 1, "tid": 1, "ts": 0, "args": {"step": 1}},
    {"ph": "E", "pid": 1, "tid": 1, "ts": 5},
    {"ph": "B", "name": "bwd", "pid": 1, "tid": 1, "ts": 10},
    {"ph": "E", "pid": 1, "tid": 1, "ts": 15, "args": {"loss": 0.5}},
    {"args": {"late": "yes"}, "name": "k", "pid": 1, "tid": 1, "ts": 20, "dur": 1, "ph": "X"},
    {"args": {"name": "Worker 0"}, "name": "thread_name", "pid": 1, "tid": 1, "ph": "M"},
    {"ph": "i", "name": "mark", "pid": 1, "tid": 1, "ts": 3, "args": {"skipped": 1}},
    {"ph": "C", "name": "mem", "pid": 1, "ts": 3, "args": {"bytes": 10}}])");
  ASSERT_TRUE(t.ok()) << t.error().message;
  ASSERT_EQ(t->lanes.size(), 1u);
  const TraceLane& lane = t->lanes[0];
  EXPECT_EQ(lane.thread_name, "Worker 0");  // "M" args read after the fact
  ASSERT_EQ(lane.events.size(), 3u);
  EXPECT_EQ(args_of(*t, lane.events[0]), R"({"step":1})");    // from "B"
  EXPECT_EQ(args_of(*t, lane.events[1]), R"({"loss":0.5})");  // only "E" had args
  EXPECT_EQ(args_of(*t, lane.events[2]), R"({"late":"yes"})");
  // The instant keeps its args text (the explorer's details); counters keep none.
  EXPECT_EQ(t->args.size(), 4u);
  ASSERT_EQ(lane.instants.size(), 1u);
  EXPECT_EQ(args_of(*t, lane.instants[0]), R"({"skipped":1})");
}

TEST(TraceImportFields, ArgsOffOrCountOnlyKeepNoText) {
  const std::string json =
      R"([{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 2, "args": {"x": 1}},
          {"args": {"y": 2}, "ph": "X", "name": "b", "pid": 1, "tid": 1, "ts": 4, "dur": 1}])";
  TraceImportOptions no_args;
  no_args.keep_args = false;
  auto t = parse(json, no_args);
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_TRUE(t->args.empty());
  ASSERT_EQ(t->lanes.at(0).events.size(), 2u);
  for (const TraceEvent& e : t->lanes[0].events) EXPECT_EQ(e.args, -1);
  TraceImportOptions count_only;
  count_only.keep_events = false;
  auto c = parse(json, count_only);
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_TRUE(c->args.empty());
  EXPECT_EQ(c->lanes.at(0).count, 2);
}

TEST(TraceImportFields, ArgsPastTheMemoryBudgetAreDroppedAndCounted) {
  // Three events with 20-character args: each costs a string header plus 21 heap bytes.
  const std::string json =
      R"([{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 1, "args": {"k": "abcdefghijkl"}},
          {"ph": "X", "name": "b", "pid": 1, "tid": 1, "ts": 2, "dur": 1, "args": {"k": "abcdefghijkl"}},
          {"ph": "X", "name": "c", "pid": 1, "tid": 1, "ts": 3, "dur": 1, "args": {"k": "abcdefghijkl"}}])";
  const auto per_event = static_cast<std::int64_t>(sizeof(std::string) + 21);
  TraceImportOptions two;
  two.args_budget_bytes = 2 * per_event;
  auto t = parse(json, two);
  ASSERT_TRUE(t.ok()) << t.error().message;
  const auto& ev = t->lanes.at(0).events;
  ASSERT_EQ(ev.size(), 3u);
  EXPECT_EQ(args_of(*t, ev[0]), R"({"k":"abcdefghijkl"})");
  EXPECT_EQ(args_of(*t, ev[1]), R"({"k":"abcdefghijkl"})");
  EXPECT_EQ(ev[2].args, -1);  // over the budget: the event stays, its args text does not
  EXPECT_EQ(t->args.size(), 2u);
  EXPECT_EQ(t->args_dropped, 1);
  auto all = parse(json);  // the default budget (256 MiB) keeps everything here
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->args.size(), 3u);
  EXPECT_EQ(all->args_dropped, 0);
}

TEST(TraceImportFields, MalformedArgsFailWhetherArgsAreKeptOrSkipped) {
  // Found by the trace fuzzer: simdjson's raw_json() skipped this balanced but invalid object, so
  // the import that keeps args accepted a file that the count-only import refused.
  const std::string bad =
      R"([{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 2, "args": {0071, "k": 1}}])";
  TraceImportOptions count_only;
  count_only.keep_events = false;
  TraceImportOptions no_args;
  no_args.keep_args = false;
  for (const TraceImportOptions& opt : {TraceImportOptions{}, no_args, count_only}) {
    auto t = parse(bad, opt);
    ASSERT_FALSE(t.ok()) << "keep_events " << opt.keep_events << " keep_args " << opt.keep_args;
    EXPECT_NE(t.error().message.find("traceEvents[0]"), std::string::npos) << t.error().message;
  }
  for (const char* args : {R"({"k": [0, -0.5, 1e-3, true, null, "x\"y", {}, []]})", R"([])",
                           R"({"a": {"b": {"c": [1, [2, [3]]]}}})"}) {
    auto ok = parse(std::string(R"([{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 2,
                                     "args": )") +
                    args + "}]");
    EXPECT_TRUE(ok.ok()) << args << ": " << (ok ? "" : ok.error().message);
  }
  for (const char* args :
       {R"({"k": 01})", R"({"k" 1})", R"({"k": 1,})", R"([1 2])", R"({"k": tru})", R"({"k": -})"}) {
    auto t = parse(std::string(R"([{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 2,
                                    "args": )") +
                   args + "}]");
    EXPECT_FALSE(t.ok()) << args;
  }
}

TEST(TraceImportFields, RankFromDistributedInfoBeforeOrAfterEvents) {
  auto before = parse(R"({"distributedInfo": {"backend": "nccl", "rank": 3, "world_size": 8},
                          "traceEvents": []})");
  ASSERT_TRUE(before.ok()) << before.error().message;
  EXPECT_EQ(before->rank, 3);
  auto after = parse(R"({"traceEvents": [{"ph": "X", "pid": 1, "tid": 1, "ts": 0, "dur": 1}],
                         "deviceProperties": [{"id": 0}], "distributedInfo": {"rank": 12}})");
  ASSERT_TRUE(after.ok()) << after.error().message;
  EXPECT_EQ(after->rank, 12);
  auto absent = parse(R"({"traceEvents": [], "distributedInfo": {"backend": "gloo"}})");
  ASSERT_TRUE(absent.ok()) << absent.error().message;
  EXPECT_EQ(absent->rank, -1);
  auto plain_array = parse(R"([])");
  ASSERT_TRUE(plain_array.ok()) << plain_array.error().message;
  EXPECT_EQ(plain_array->rank, -1);
}

TEST(TraceImportFields, BadRankNamesTheField) {
  EXPECT_EQ(error_of(parse(R"({"distributedInfo": {"rank": "3"}, "traceEvents": []})")),
            "t.json: distributedInfo.rank is not an integer");
  EXPECT_EQ(error_of(parse(R"({"distributedInfo": {"rank": 1.5}, "traceEvents": []})")),
            "t.json: distributedInfo.rank is not an integer");
  EXPECT_EQ(error_of(parse(R"({"distributedInfo": {"rank": -1}, "traceEvents": []})")),
            "t.json: distributedInfo.rank -1 is out of range");
  EXPECT_EQ(error_of(parse(R"({"traceEvents": [], "distributedInfo": 3})")),
            "t.json: \"distributedInfo\" is not an object");
}

TEST(TraceImportFields, EveryPhaseKindIsCountedAndOnlyCompleteOnesAreEvents) {
  // The phases of the Chrome Trace Event format; "X" and matched "B"/"E" become events.
  auto t = parse(R"j([
    {"ph": "X", "pid": 1, "tid": 1, "ts": 0, "dur": 4, "name": "x"},
    {"ph": "B", "pid": 1, "tid": 1, "ts": 1, "name": "be"},
    {"ph": "E", "pid": 1, "tid": 1, "ts": 2},
    {"ph": "i", "pid": 1, "tid": 1, "ts": 1, "s": "t"}, {"ph": "I", "pid": 1, "tid": 1, "ts": 1},
    {"ph": "C", "pid": 1, "ts": 1, "name": "c", "args": {"v": 1}},
    {"ph": "b", "pid": 1, "ts": 1, "id": 1, "cat": "a", "name": "as"},
    {"ph": "n", "pid": 1, "ts": 1, "id": 1, "cat": "a", "name": "as"},
    {"ph": "e", "pid": 1, "ts": 2, "id": 1, "cat": "a", "name": "as"},
    {"ph": "S", "pid": 1, "ts": 1, "id": 2}, {"ph": "T", "pid": 1, "ts": 1, "id": 2},
    {"ph": "p", "pid": 1, "ts": 1, "id": 2}, {"ph": "F", "pid": 1, "ts": 2, "id": 2},
    {"ph": "s", "pid": 1, "tid": 1, "ts": 1, "id": 3}, {"ph": "t", "pid": 1, "tid": 1, "ts": 1, "id": 3},
    {"ph": "f", "pid": 1, "tid": 1, "ts": 2, "id": 3, "bp": "e"},
    {"ph": "P", "pid": 1, "tid": 1, "ts": 1}, {"ph": "N", "pid": 1, "ts": 1, "id": 4},
    {"ph": "O", "pid": 1, "ts": 1, "id": 4}, {"ph": "D", "pid": 1, "ts": 1, "id": 4},
    {"ph": "M", "pid": 1, "name": "process_name", "args": {"name": "P"}},
    {"ph": "V", "pid": 1}, {"ph": "v", "pid": 1}, {"ph": "R", "pid": 1, "ts": 1, "name": "mark"},
    {"ph": "c", "pid": 1, "ts": 1}, {"ph": "(", "pid": 1, "ts": 1}, {"ph": ")", "pid": 1, "ts": 1},
    {"pid": 1, "ts": 1}, {"ph": "XX", "pid": 1, "ts": 1}])j");
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->events, 29);
  for (const char* ph : {"X", "B", "E", "i", "I", "C", "b", "n", "e", "S", "T", "p", "F", "s", "t",
                         "f", "P", "N", "O", "D", "M", "V", "v", "R", "c", "(", ")", "?", "XX"})
    EXPECT_EQ(t->by_phase.count(ph), 1u) << ph;
  ASSERT_EQ(t->lanes.size(), 1u);
  EXPECT_EQ(t->lanes[0].process_name, "P");
  ASSERT_EQ(t->lanes[0].events.size(), 2u);
  EXPECT_EQ(t->names.at(static_cast<std::size_t>(t->lanes[0].events[0].name)), "x");
  EXPECT_EQ(t->names.at(static_cast<std::size_t>(t->lanes[0].events[1].name)), "be");
  EXPECT_EQ(t->unmatched, 0);
}

TEST(TraceImportFields, IntegerFloatAndExponentTimes) {
  auto t = parse(R"([{"ph": "X", "pid": 1, "tid": 1, "ts": 1000, "dur": 2},
                     {"ph": "X", "pid": 1, "tid": 1, "ts": 1002.125, "dur": 0.5},
                     {"ph": "X", "pid": 1, "tid": 1, "ts": 1.0035e3, "dur": 1e0},
                     {"ph": "X", "pid": 1, "tid": 1, "ts": 1005}])");
  ASSERT_TRUE(t.ok()) << t.error().message;
  const auto& ev = t->lanes.at(0).events;
  ASSERT_EQ(ev.size(), 4u);
  EXPECT_EQ(ev[0].start_us, 1000.0);
  EXPECT_EQ(ev[1].start_us, 1002.125);
  EXPECT_EQ(ev[1].dur_us, 0.5);
  EXPECT_EQ(ev[2].start_us, 1003.5);
  EXPECT_EQ(ev[2].dur_us, 1.0);
  EXPECT_EQ(ev[3].dur_us, 0.0);  // "X" without dur: a zero-length event
  EXPECT_DOUBLE_EQ(t->span_us, 5.0);
}

TEST(TraceImportFields, StringPidsAndTidsNameLanes) {
  auto t = parse(R"([{"ph": "X", "pid": "rank 1", "tid": "stream 7", "ts": 0, "dur": 1},
                     {"ph": "X", "pid": "rank 0", "tid": 3, "ts": 0, "dur": 1},
                     {"ph": "X", "pid": 2, "tid": "3", "ts": 0, "dur": 1}])");
  ASSERT_TRUE(t.ok()) << t.error().message;
  ASSERT_EQ(t->lanes.size(), 3u);
  EXPECT_EQ(t->lanes[0].pid, "2");  // numeric ids first, then text in order
  EXPECT_EQ(t->lanes[1].pid, "rank 0");
  EXPECT_EQ(t->lanes[1].tid, "3");
  EXPECT_EQ(t->lanes[2].pid, "rank 1");
  EXPECT_EQ(t->lanes[2].tid, "stream 7");
}

TEST(TraceImportFields, UnicodeNamesAndEscapes) {
  auto t = parse(R"j([{"ph": "X", "pid": 1, "tid": 1, "ts": 0, "dur": 1, "name": "注意力 ✓ (F)",
                      "args": {"μ": "é"}},
                     {"ph": "X", "pid": 1, "tid": 1, "ts": 1, "dur": 1, "name": "caf\u00e9 \ud83d\ude80"},
                     {"ph": "M", "pid": 1, "tid": 1, "name": "thread_name",
                      "args": {"name": "流 7"}}])j");
  ASSERT_TRUE(t.ok()) << t.error().message;
  const auto& ev = t->lanes.at(0).events;
  ASSERT_EQ(ev.size(), 2u);
  EXPECT_EQ(t->names.at(static_cast<std::size_t>(ev[0].name)), "注意力 ✓ (F)");
  EXPECT_EQ(t->names.at(static_cast<std::size_t>(ev[1].name)), "café \xF0\x9F\x9A\x80");
  EXPECT_EQ(args_of(*t, ev[0]), R"({"μ":"é"})");
  EXPECT_EQ(t->lanes[0].thread_name, "流 7");
}

TEST(TraceImportFields, LargeNestedMetadataBeforeEventsIsSkipped) {
  // Like a profiler's device and config dump: wide and deep, before "traceEvents".
  std::string meta = R"({"devices": [)";
  for (int i = 0; i < 20000; ++i)
    meta += (i ? "," : "") + std::string(R"({"id": )") + std::to_string(i) +
            R"(, "name": "traceEvents", "props": {"a": [1, 2, {"b": "c"}]}})";
  meta += "], \"deep\": ";
  for (int i = 0; i < 200; ++i) meta += "{\"d\": [";
  meta += "0";
  for (int i = 0; i < 200; ++i) meta += "]}";
  meta += "}";
  auto t = parse("{\"metadata\": " + meta +
                 R"(, "traceEvents": [{"ph": "X", "pid": 1, "tid": 1, "ts": 5, "dur": 2}],)"
                 R"( "distributedInfo": {"rank": 2}})");
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->events, 1);
  EXPECT_EQ(t->rank, 2);
  EXPECT_DOUBLE_EQ(t->span_us, 2.0);
}

TEST(TraceImportFields, MalformedEventsNameTheIndex) {
  const std::string ok = R"({"ph": "X", "pid": 1, "tid": 1, "ts": 0, "dur": 1}, )";
  EXPECT_EQ(error_of(parse("[" + ok + ok + R"({"ph": "X", "name": 5, "ts": 1}])")),
            "t.json: traceEvents[2]: name is not a string");
  EXPECT_EQ(error_of(parse("[" + ok + R"({"ph": "X", "cat": [], "ts": 1}])")),
            "t.json: traceEvents[1]: cat is not a string");
  EXPECT_EQ(error_of(parse("[" + ok + R"({"ph": 88, "ts": 1}])")),
            "t.json: traceEvents[1]: ph is not a string");
  EXPECT_EQ(error_of(parse("[" + ok + R"({"ph": "X", "ts": 1, "dur": "long"}])")),
            "t.json: traceEvents[1]: dur is not a number");
  // Numbers beyond double and pids beyond 64 bits.
  const std::string huge_ts = error_of(parse("[" + ok + R"({"ph": "X", "ts": 1e400}])"));
  EXPECT_EQ(huge_ts.rfind("t.json: traceEvents[1]: JSON error", 0), 0u) << huge_ts;
  const std::string huge_pid =
      error_of(parse("[" + ok + R"({"ph": "X", "ts": 1, "pid": 123456789012345678901234567890}])"));
  EXPECT_EQ(huge_pid.rfind("t.json: traceEvents[1]: JSON error", 0), 0u) << huge_pid;
}

TEST(TraceImportFields, InvalidJsonNamesTheByte) {
  // The stray '}' where the value of "x" should be is byte 43 of the text, and the message names
  // that byte (simdjson On-Demand named the token after it, 44).
  const std::string text = R"({"traceEvents": [{"ph": "X", "ts": 1, "x": }]})";
  ASSERT_EQ(text[43], '}');
  const std::string e = error_of(parse(text));
  EXPECT_EQ(e.rfind("t.json: traceEvents[0]: JSON error at byte 43: The JSON document has an "
                    "improper structure",
                    0),
            0u)
      << e;
}

// --- gzip -----------------------------------------------------------------------------------

std::string gzip_member(const std::string& text) {
  z_stream z{};
  EXPECT_EQ(deflateInit2(&z, 9, Z_DEFLATED, 16 + 15, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(deflateBound(&z, text.size()), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

std::string temp_file(const std::string& name, const std::string& bytes) {
  const std::string path = ::testing::TempDir() + "traceimportfields_" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

TEST(TraceImportFields, MultiMemberGzipIsReadWhole) {
  // `cat a.gz b.gz` is a valid gzip file; the trailer's ISIZE is only the last member's size.
  std::string first = R"({"traceEvents": [)";
  for (int i = 0; i < 5000; ++i)
    first += R"({"ph": "X", "pid": 1, "tid": 1, "ts": )" + std::to_string(i) + R"(, "dur": 1},)";
  const std::string second = R"({"ph": "X", "pid": 1, "tid": 2, "ts": 9000, "dur": 1}]})";
  const std::string path = temp_file("multi.json.gz", gzip_member(first) + gzip_member(second));
  auto t = import_chrome_trace(path);
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->events, 5001);
  EXPECT_EQ(t->bytes, static_cast<std::int64_t>(first.size() + second.size()));
}

TEST(TraceImportFields, GzipWithWrongTrailerOrTooLargeIsAnError) {
  const std::string text = R"({"traceEvents": [{"ph": "X", "pid": 1, "tid": 1, "ts": 0}]})";
  std::string gz = gzip_member(text);
  gz[gz.size() - 4] = static_cast<char>(gz[gz.size() - 4] ^ 0x01);  // ISIZE off by one
  const std::string path = temp_file("badsize.json.gz", gz);
  auto t = import_chrome_trace(path);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().message.rfind(path + ": gzip error", 0), 0u) << t.error().message;

  const std::string good = gzip_member(text);
  const auto* bytes = reinterpret_cast<const unsigned char*>(good.data());
  auto capped = inflate_gzip(bytes, good.size(), "c.json.gz", CancelToken::none(), 10);
  ASSERT_FALSE(capped.ok());
  EXPECT_EQ(capped.error().message,
            "c.json.gz: trace text is larger than 10 bytes, which the parser cannot index");
  auto whole = inflate_gzip(bytes, good.size(), "c.json.gz", CancelToken::none());
  ASSERT_TRUE(whole.ok()) << whole.error().message;
  EXPECT_EQ(std::string(whole->data(), whole->size), text);
}

TEST(TraceImportFields, GzipTrailerClaimingHugeSizeAllocatesWithinTheDeflateRatio) {
  // ISIZE forged to ~4 GiB on a tiny stream: the first buffer is bounded by what deflate could
  // produce from the compressed bytes, not by the claim; the stream then fails its own check.
  std::string gz = gzip_member(R"([{"ph": "X", "pid": 1, "tid": 1, "ts": 0}])");
  for (std::size_t i = gz.size() - 4; i < gz.size(); ++i) gz[i] = static_cast<char>(0xff);
  const auto* bytes = reinterpret_cast<const unsigned char*>(gz.data());
  auto t = inflate_gzip(bytes, gz.size(), "h.json.gz", CancelToken::none());
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().message.rfind("h.json.gz: gzip error", 0), 0u) << t.error().message;
}

}  // namespace
}  // namespace slimpack
