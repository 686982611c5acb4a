#include "trace/trace_sniff.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace slimpack {
namespace {

std::string write_temp(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("sniff_" + name);
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

TEST(TraceSniff, TextStartingWithAnArrayIsATrace) {
  EXPECT_TRUE(looks_like_trace_text("  \n[{\"ph\":\"X\"}]"));
  EXPECT_TRUE(looks_like_trace_text("\xEF\xBB\xBF[]"));
}

TEST(TraceSniff, ObjectNeedsATraceEventsKey) {
  EXPECT_TRUE(looks_like_trace_text(R"({"schemaVersion": 1, "traceEvents" : []})"));
  // A plan or a length file is an object without that key; the text as a value does not count.
  EXPECT_FALSE(looks_like_trace_text(R"({"strategy": "slimpack", "stages": 4})"));
  EXPECT_FALSE(looks_like_trace_text(R"({"note": "traceEvents"})"));
  EXPECT_FALSE(looks_like_trace_text("seq,length\n0,100\n"));
  EXPECT_FALSE(looks_like_trace_text(""));
}

TEST(TraceSniff, NamesDecideForGzipAndProfilerFiles) {
  EXPECT_TRUE(looks_like_trace("/nonexistent/worker_0.pt.trace.json"));
  EXPECT_TRUE(looks_like_trace("/nonexistent/run.JSON.GZ"));
  EXPECT_FALSE(looks_like_trace("/nonexistent/lengths.csv"));
  // A .json that cannot be read is left to the ordinary loader, which says why.
  EXPECT_FALSE(looks_like_trace("/nonexistent/plan.json"));
}

TEST(TraceSniff, ReadsTheHeadOfAJsonFile) {
  EXPECT_TRUE(looks_like_trace(write_temp("t.json", R"({"traceEvents": [{"ph": "X"}]})")));
  EXPECT_FALSE(looks_like_trace(write_temp("p.json", R"({"stages": 2, "replicas": []})")));
  // A large metadata object before traceEvents, still within the first 64 KiB.
  const std::string big =
      "{\"metadata\": {\"x\": \"" + std::string(30000, 'a') + "\"}, \"traceEvents\": []}";
  EXPECT_TRUE(looks_like_trace(write_temp("m.json", big)));
}

TEST(TraceSniff, RankFromFileName) {
  EXPECT_EQ(rank_from_file_name("/x/run_rank3.json"), 3);
  EXPECT_EQ(rank_from_file_name("/x/Rank_12.pt.trace.json"), 12);
  EXPECT_EQ(rank_from_file_name("/x/host-rank-7.json.gz"), 7);
  EXPECT_EQ(rank_from_file_name("/x/worker_3.pt.trace.json"), 3);
  EXPECT_EQ(rank_from_file_name("/x/trace-1.json"), 1);
  EXPECT_EQ(rank_from_file_name("/x/step_before.json"), -1);
  EXPECT_EQ(rank_from_file_name("/x/trace2.json"), -1);     // no separator: part of the name
  EXPECT_EQ(rank_from_file_name("/rank5/trace.json"), -1);  // folders do not count
}

}  // namespace
}  // namespace slimpack
