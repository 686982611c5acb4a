// Every accepted length-file format, from samples/lengths and from temporary files. Expected
// figures for the samples were computed independently (Python, numpy's percentile rule).
#include <gtest/gtest.h>

#include "temp_files.h"
#include "workload/lengths.h"

namespace slimpack {
namespace {

using testing_util::sample;
using testing_util::TempDir;

std::vector<Tokens> load_ok(const std::string& path, const std::string& column = "") {
  auto pool = read_length_file(path, LengthFileOptions{column});
  EXPECT_TRUE(pool.ok()) << (pool.ok() ? "" : pool.error().message);
  if (!pool.ok()) return {};
  EXPECT_EQ(pool->source, path);
  return pool->lengths;
}

TEST(LengthSamples, OneColumnCsv) {
  const auto v = load_ok(sample("chat_sft_lengths.csv"));
  const LengthStats s = compute_stats(v);
  EXPECT_EQ(s.count, 400);
  EXPECT_EQ(s.total_tokens, 375101);
  EXPECT_EQ(s.min, 105);
  EXPECT_EQ(s.max, 16917);
  EXPECT_DOUBLE_EQ(s.median, 605.5);
  EXPECT_NEAR(s.p99, 5683.92, 1e-6);
  EXPECT_EQ(v.front(), 1925);
  EXPECT_EQ(v.back(), 509);
}

TEST(LengthSamples, MultiColumnCsvUsesLengthColumn) {
  const auto v = load_ok(sample("longalign_mix.csv"));
  const LengthStats s = compute_stats(v);
  EXPECT_EQ(s.count, 240);
  EXPECT_EQ(s.total_tokens, 4159819);
  EXPECT_EQ(s.min, 76);
  EXPECT_EQ(s.max, 127776);
  EXPECT_DOUBLE_EQ(s.median, 1192.5);
  EXPECT_EQ(v.front(), 21739);
  EXPECT_EQ(load_ok(sample("longalign_mix.csv"), "length"), v);
}

TEST(LengthSamples, HistogramCsv) {
  const auto v = load_ok(sample("length_histogram.csv"));
  const LengthStats s = compute_stats(v);
  EXPECT_EQ(s.count, 14915);
  EXPECT_EQ(s.total_tokens, 48046080);
  EXPECT_EQ(s.min, 512);
  EXPECT_EQ(s.max, 131072);
  EXPECT_DOUBLE_EQ(s.median, 2560.0);
  EXPECT_DOUBLE_EQ(s.p99, 8192.0);
  // Bins expand in file order: 811 x 512 then 1785 x 1024.
  EXPECT_EQ(v[810], 512);
  EXPECT_EQ(v[811], 1024);
}

TEST(LengthSamples, JsonArray) {
  const auto v = load_ok(sample("chat_lengths.json"));
  const LengthStats s = compute_stats(v);
  EXPECT_EQ(s.count, 150);
  EXPECT_EQ(s.total_tokens, 125359);
  EXPECT_EQ(s.min, 90);
  EXPECT_EQ(s.max, 3835);
  EXPECT_DOUBLE_EQ(s.median, 654.0);
  EXPECT_EQ(v.front(), 1415);
}

TEST(LengthSamples, JsonHistogram) {
  const LengthStats s = compute_stats(load_ok(sample("long_context_histogram.json")));
  EXPECT_EQ(s.count, 1200);
  EXPECT_EQ(s.total_tokens, 5765120);
  EXPECT_EQ(s.min, 1024);
  EXPECT_EQ(s.max, 131072);
  EXPECT_DOUBLE_EQ(s.median, 2048.0);
  EXPECT_DOUBLE_EQ(s.p99, 32768.0);
}

TEST(LengthSamples, JsonlWithNumTokensField) {
  const auto v = load_ok(sample("sft_records.jsonl"));
  const LengthStats s = compute_stats(v);
  EXPECT_EQ(s.count, 200);
  EXPECT_EQ(s.total_tokens, 151812);
  EXPECT_EQ(s.min, 113);
  EXPECT_EQ(s.max, 3596);
  EXPECT_DOUBLE_EQ(s.median, 604.5);
  EXPECT_EQ(load_ok(sample("sft_records.jsonl"), "num_tokens"), v);
}

TEST(LengthCsv, HeaderDetectionAndColumns) {
  TempDir dir;
  EXPECT_EQ(load_ok(dir.write("plain.csv", "100\n200\n300\n")),
            (std::vector<Tokens>{100, 200, 300}));
  EXPECT_EQ(load_ok(dir.write("named.csv", "tokens\n100\n200\n")), (std::vector<Tokens>{100, 200}));
  EXPECT_EQ(load_ok(dir.write("pick.csv", "id,len,src\na,10,x\nb,20,y\n"), "len"),
            (std::vector<Tokens>{10, 20}));
  // A column literally named "length" (any case) is the default.
  EXPECT_EQ(load_ok(dir.write("dflt.csv", "id,Length\na,7\nb,9\n")), (std::vector<Tokens>{7, 9}));
  // pandas writes an unnamed index column: the header is still a header.
  EXPECT_EQ(load_ok(dir.write("pandas.csv", ",length\n0,11\n1,12\n")),
            (std::vector<Tokens>{11, 12}));
}

TEST(LengthCsv, HistogramWithAndWithoutHeader) {
  TempDir dir;
  const std::vector<Tokens> want = {100, 100, 300, 300, 300};
  EXPECT_EQ(load_ok(dir.write("h.csv", "length,count\n100,2\n200,0\n300,3\n")), want);
  EXPECT_EQ(load_ok(dir.write("n.csv", "100,2\n200,0\n300,3\n")), want);
  EXPECT_EQ(load_ok(dir.write("c.csv", "LENGTH , Count\n100,2\n300,3\n"), "length"), want);
}

TEST(LengthCsv, ToleratesCrlfBomBlankLinesQuotesAndIntegralDecimals) {
  TempDir dir;
  EXPECT_EQ(load_ok(dir.write("crlf.csv", "\xEF\xBB\xBFlength\r\n1024\r\n\r\n2048\r\n")),
            (std::vector<Tokens>{1024, 2048}));
  EXPECT_EQ(load_ok(dir.write("q.csv", "id,length,note\n\"a,b\",\"512\",\"say \"\"hi\"\"\"\n")),
            (std::vector<Tokens>{512}));
  EXPECT_EQ(load_ok(dir.write("d.txt", " 4096.0 \n1e3\n+5\n")),
            (std::vector<Tokens>{4096, 1000, 5}));
  EXPECT_EQ(load_ok(dir.write("max.csv", "16777216\n")), (std::vector<Tokens>{kMaxSequenceLength}));
}

TEST(LengthJson, AllShapes) {
  TempDir dir;
  const std::vector<Tokens> want = {8, 8, 16};
  EXPECT_EQ(load_ok(dir.write("a.json", "[8, 8, 16]")), want);
  EXPECT_EQ(load_ok(dir.write("o.json", R"({"name": "x", "lengths": [8, 8, 16.0]})")), want);
  EXPECT_EQ(load_ok(dir.write("h.json", R"({"histogram": [{"length": 8, "count": 2},
                                                        {"length": 16, "count": 1}]})")),
            want);
  EXPECT_EQ(load_ok(dir.write("b.json", R"({"bins": [[8, 2], [16, 1]]})")), want);
  EXPECT_EQ(load_ok(dir.write("m.json", R"({"histogram": {"8": 2, "16": 1}})")), want);
  EXPECT_EQ(load_ok(dir.write("r.json", R"([{"id": "a", "seq_len": 8}, {"id": "b", "seq_len": 8},
                                            {"id": "c", "seq_len": 16}])")),
            want);
  EXPECT_EQ(load_ok(dir.write("k.json", R"({"train": [8, 8, 16], "eval": [1]})"), "train"), want);
  EXPECT_EQ(load_ok(dir.write("f.json", R"([{"n": 8}, {"n": 8}, {"n": 16}])"), "n"), want);
}

TEST(LengthJsonl, DefaultFieldsInOrderAndColumn) {
  TempDir dir;
  // seq_len wins over num_tokens and length when several are present.
  EXPECT_EQ(load_ok(dir.write("a.jsonl",
                              "{\"seq_len\": 5, \"num_tokens\": 6, \"length\": 7}\n"
                              "{\"seq_len\": 9, \"num_tokens\": 6, \"length\": 7}\n")),
            (std::vector<Tokens>{5, 9}));
  EXPECT_EQ(load_ok(dir.write("b.jsonl", "{\"length\": 3}\r\n\n{\"length\": 4}")),
            (std::vector<Tokens>{3, 4}));
  EXPECT_EQ(load_ok(dir.write("c.ndjson", "{\"tok\": 30, \"length\": 1}\n{\"tok\": 40}\n"), "tok"),
            (std::vector<Tokens>{30, 40}));
  EXPECT_EQ(load_ok(dir.write("d.jsonl", "12\n13\n")), (std::vector<Tokens>{12, 13}));
}

}  // namespace
}  // namespace slimpack
