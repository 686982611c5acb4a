// The streaming import: unterminated event arrays (what a process that stopped while writing
// leaves), files larger than the import's window (events cut by the window's end, gzip inflated
// piece by piece, a pipe), the same result as the whole text in memory, and the scanner that finds
// where events end.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "trace/trace_import.h"
#include "trace/trace_scan.h"

namespace slimpack {
namespace {

Expected<ImportedTrace> parse(const std::string& json, TraceImportOptions opt = {}) {
  return import_chrome_trace_text(json, "t.json", opt);
}

std::string error_of(const Expected<ImportedTrace>& r) {
  return r.ok() ? std::string("(no error)") : r.error().message;
}

const std::string kTwo =
    R"({"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 2},
       {"ph": "X", "name": "b", "pid": 1, "tid": 1, "ts": 5, "dur": 1, "args": {"k": [1, "]"]}})";

TEST(TraceStream, UnterminatedArraysAreReadUpToTheLastWholeEvent) {
  for (const std::string& text :
       {R"({"traceEvents": [)" + kTwo + ",\n", R"({"traceEvents": [)" + kTwo, "[" + kTwo + ",  ",
        "[" + kTwo + "\n", R"({"distributedInfo": {"rank": 3}, "traceEvents": [)" + kTwo + ","}) {
    SCOPED_TRACE(text);
    auto t = parse(text);
    ASSERT_TRUE(t.ok()) << t.error().message;
    EXPECT_TRUE(t->unterminated);
    EXPECT_EQ(t->events, 2);
    ASSERT_EQ(t->lanes.size(), 1u);
    EXPECT_EQ(t->lanes[0].events.size(), 2u);
    EXPECT_DOUBLE_EQ(t->span_us, 5.0);
    EXPECT_EQ(t->bytes, static_cast<std::int64_t>(text.size()));
  }
  auto closed = parse("[" + kTwo + "]");
  ASSERT_TRUE(closed.ok()) << closed.error().message;
  EXPECT_FALSE(closed->unterminated);
  auto empty = parse(R"({"traceEvents": [ )");
  ASSERT_TRUE(empty.ok()) << empty.error().message;
  EXPECT_TRUE(empty->unterminated);
  EXPECT_EQ(empty->events, 0);
}

TEST(TraceStream, AnEventCutMidWriteIsStillAnError) {
  const std::string cut = "[" + kTwo + R"(, {"ph": "X", "name": "c)";
  EXPECT_EQ(error_of(parse(cut)), "t.json: JSON error at byte " + std::to_string(cut.size()) +
                                      " (the end of the text): A string is opened, but never "
                                      "closed.");
  const std::string open = "[" + kTwo + R"(, {"ph": "X", "ts": 4)";
  EXPECT_EQ(error_of(parse(open))
                .rfind("t.json: JSON error at byte " + std::to_string(open.size()) +
                           " (the end of the text)",
                       0),
            0u)
      << error_of(parse(open));
  // A trailing comma before the array's end, and events with no comma between them: as before
  // the streaming import, simdjson's errors at the element after the last good one.
  EXPECT_EQ(error_of(parse("[" + kTwo + ",]")), "t.json: traceEvents[2]: not an object");
  EXPECT_EQ(error_of(parse(R"({"traceEvents": [{"ph": "i", "ts": 1} {"ph": "i", "ts": 2}]})"))
                .rfind("t.json: traceEvents[1]: JSON error at byte 38: ", 0),
            0u);
}

// Kineto-like events, about 150 bytes each, with strings holding brackets, quotes and escapes.
std::string many_events(int n) {
  std::string s =
      "{\"schemaVersion\": 1, \"deviceProperties\": [{\"name\": \"H100 [80GB]\"}],\n"
      "\"traceEvents\": [\n";
  for (int i = 0; i < n; ++i) {
    if (i) s += ",\n";
    s += R"(  {"ph": "X", "cat": "cpu_op", "name": "aten::mm{)" + std::to_string(i % 7) +
         R"(}", "pid": 1, "tid": )" + std::to_string(i % 3) + R"(, "ts": )" + std::to_string(i) +
         R"(.5, "dur": 0.25, "args": {"Input Dims": [[8, 4096], []], "s": "a\"]}\\"}})";
  }
  return s + "\n], \"distributedInfo\": {\"rank\": 2}}\n";
}

void expect_same(const ImportedTrace& a, const ImportedTrace& b) {
  EXPECT_EQ(a.events, b.events);
  EXPECT_EQ(a.by_phase, b.by_phase);
  EXPECT_EQ(a.names, b.names);
  EXPECT_EQ(a.args, b.args);
  EXPECT_EQ(a.rank, b.rank);
  EXPECT_EQ(a.bytes, b.bytes);
  EXPECT_EQ(a.span_us, b.span_us);
  ASSERT_EQ(a.lanes.size(), b.lanes.size());
  for (std::size_t i = 0; i < a.lanes.size(); ++i) {
    ASSERT_EQ(a.lanes[i].events.size(), b.lanes[i].events.size());
    for (std::size_t k = 0; k < a.lanes[i].events.size(); ++k) {
      const TraceEvent& x = a.lanes[i].events[k];
      const TraceEvent& y = b.lanes[i].events[k];
      ASSERT_EQ(x.start_us, y.start_us);
      ASSERT_EQ(x.name, y.name);
      ASSERT_EQ(x.args, y.args);
      ASSERT_EQ(x.index, y.index);
    }
  }
}

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "tracestream_" + name;
}

TEST(TraceStream, FilesLargerThanTheWindowReadLikeTheWholeText) {
  const std::string text = many_events(40000);  // ~6 MB: events cut at several window ends
  ASSERT_GT(text.size(), 4u << 20);
  auto whole = parse(text);
  ASSERT_TRUE(whole.ok()) << whole.error().message;
  EXPECT_EQ(whole->events, 40000);
  EXPECT_EQ(whole->rank, 2);
  const std::string plain = temp_path("big.json");
  std::ofstream(plain, std::ios::binary) << text;
  auto read = import_chrome_trace(plain);
  ASSERT_TRUE(read.ok()) << read.error().message;
  expect_same(*whole, *read);

  const std::string gz = temp_path("big.json.gz");
  gzFile f = gzopen(gz.c_str(), "wb6");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(gzwrite(f, text.data(), static_cast<unsigned>(text.size())),
            static_cast<int>(text.size()));
  ASSERT_EQ(gzclose(f), Z_OK);
  auto inflated = import_chrome_trace(gz);  // inflated whole (libdeflate)
  ASSERT_TRUE(inflated.ok()) << inflated.error().message;
  expect_same(*whole, *inflated);
  TraceImportOptions streamed;
  streamed.whole_gzip_text_bytes = 0;  // inflated piece by piece (zlib), as a large file is
  auto pieces = import_chrome_trace(gz, streamed);
  ASSERT_TRUE(pieces.ok()) << pieces.error().message;
  expect_same(*whole, *pieces);
  TraceImportOptions too_small;
  too_small.whole_gzip_text_bytes = static_cast<std::int64_t>(text.size()) - 1;
  auto over = import_chrome_trace(gz, too_small);  // its trailer says larger: streamed
  ASSERT_TRUE(over.ok()) << over.error().message;
  expect_same(*whole, *over);

  // Cut the file after an event in the middle: the events before the cut, unterminated.
  const std::size_t cut = text.find("},\n", text.size() / 2) + 2;
  std::ofstream(plain, std::ios::binary) << text.substr(0, cut);
  auto part = import_chrome_trace(plain);
  ASSERT_TRUE(part.ok()) << part.error().message;
  EXPECT_TRUE(part->unterminated);
  EXPECT_EQ(part->rank, -1);  // distributedInfo came after the events: never written
  EXPECT_GT(part->events, 15000);
  EXPECT_LT(part->events, 25000);
}

TEST(TraceStream, APipeIsReadToItsEnd) {
  const std::string text = many_events(20000);
  const std::string fifo = temp_path("fifo.json");
  ::unlink(fifo.c_str());
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] { std::ofstream(fifo, std::ios::binary) << text; });
  auto t = import_chrome_trace(fifo);
  writer.join();
  ::unlink(fifo.c_str());
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->events, 20000);
  EXPECT_EQ(t->bytes, static_cast<std::int64_t>(text.size()));
}

class TwoThreads final : public TaskPool {
 public:
  int workers() const override { return 2; }
  void run_on_workers(const std::function<void(int)>& body) override {
    std::thread other(body, 1);
    body(0);
    other.join();
  }
};

TEST(TraceStream, SeveralFilesImportOnTheWorkersInOrder) {
  std::vector<std::string> paths;
  for (int f = 0; f < 5; ++f) {
    paths.push_back(temp_path("rank" + std::to_string(f) + ".json"));
    std::ofstream(paths.back(), std::ios::binary) << many_events(1000 * (f + 1));
  }
  paths.push_back(temp_path("missing.json"));
  TwoThreads pool;
  auto traces = import_chrome_traces(paths, {}, pool);
  ASSERT_EQ(traces.size(), paths.size());
  for (int f = 0; f < 5; ++f) {
    ASSERT_TRUE(traces[f].ok()) << traces[f].error().message;
    EXPECT_EQ(traces[f]->events, 1000 * (f + 1));
    EXPECT_EQ(traces[f]->source, paths[f]);
  }
  ASSERT_FALSE(traces[5].ok());
  EXPECT_EQ(traces[5].error().message.rfind(paths[5] + ": cannot open", 0), 0u);
}

TEST(TraceScan, FindsValueEndsOutsideStrings) {
  std::string s = R"({"a": "}]\"\\", "b": [1, {"c": "{"}]}, {"x": 1}, 2)";
  s.append(64, '\0');  // the scanner's padding
  const std::size_t n = s.size() - 64;
  const auto first = trace_scan::scan(s.data(), n, true);
  EXPECT_EQ(first.first_end, s.find("}, {") + 1);
  const auto all = trace_scan::scan(s.data(), n, false);
  EXPECT_EQ(all.last_end, s.find("}, 2") + 1);
  EXPECT_EQ(all.underflow, trace_scan::kNone);
  std::string deep(2000, '[');
  deep.append(64, '\0');
  EXPECT_EQ(trace_scan::scan(deep.data(), 2000, false).too_deep,
            static_cast<std::size_t>(trace_scan::kMaxDepth));
  std::string under = R"(1, "]", ] ,)";
  under.append(64, '\0');
  EXPECT_EQ(trace_scan::scan(under.data(), 11, false).underflow, 8u);
  std::string open = R"({"k": "ab)";
  open.append(64, '\0');
  EXPECT_TRUE(trace_scan::scan(open.data(), 9, false).in_string);
}

TEST(TraceScan, EscapeRunsAcrossBlocksOf64Bytes) {
  // A string whose backslash run straddles the 64-byte block boundary: "\\\"" then a real ']'.
  for (std::size_t pad = 50; pad < 70; ++pad) {
    std::string s = "[\"" + std::string(pad, 'x') + "\\\\\\\"]\"]";
    const std::size_t n = s.size();
    s.append(64, '\0');
    const auto r = trace_scan::scan(s.data(), n, false);
    EXPECT_EQ(r.last_end, n) << pad;
  }
}

}  // namespace
}  // namespace slimpack
