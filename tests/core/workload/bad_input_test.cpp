// Each malformed input gives one BadInput error naming the file, the line or JSON path and the
// reason; none crashes, hangs or falls back to a default.
#include <gtest/gtest.h>

#include "temp_files.h"
#include "workload/lengths.h"

namespace slimpack {
namespace {

using testing_util::TempDir;

struct BadCase {
  const char* file;
  const char* contents;
  const char* column;
  std::vector<const char*> expect;  // substrings the message must contain besides the path
};

void expect_bad(const TempDir& dir, const BadCase& c) {
  const std::string path = dir.write(c.file, c.contents);
  auto pool = read_length_file(path, LengthFileOptions{c.column});
  ASSERT_FALSE(pool.ok()) << c.file << " was accepted";
  EXPECT_EQ(pool.error().kind, ErrorKind::BadInput);
  const std::string& msg = pool.error().message;
  EXPECT_NE(msg.find(path), std::string::npos) << msg;
  for (const char* want : c.expect) EXPECT_NE(msg.find(want), std::string::npos) << msg;
}

TEST(LengthBadInput, CsvValues) {
  TempDir dir;
  const std::vector<BadCase> cases = {
      {"neg.csv", "100\n-5\n", "", {"line 2", "-5", "must be positive"}},
      {"zero.csv", "100\n200\n0\n", "", {"line 3", "must be positive"}},
      {"huge.csv", "16777217\n", "", {"line 1", "exceeds the maximum 16777216"}},
      {"vhuge.csv", "length\n99999999999999999999999\n", "", {"line 2", "exceeds the maximum"}},
      {"inf.csv", "length\n1e999\n", "", {"line 2", "exceeds the maximum"}},
      {"nan.csv", "100\nNaN\n", "", {"line 2", "is NaN"}},
      {"nanfirst.csv", "nan\n", "", {"line 1", "is NaN"}},
      {"infw.csv", "100\ninf\n", "", {"line 2", "not finite"}},
      {"frac.csv", "100\n12.5\n", "", {"line 2", "\"12.5\"", "not an integer"}},
      {"junk.csv", "length\n100\n12abc\n", "", {"line 3", "\"12abc\"", "not a number"}},
      {"hdr2.csv", "length\n100\nlength\n", "", {"line 3", "not a number"}},
      {"blank.csv", "id,length\na,\n", "", {"line 2", "column \"length\"", "empty length field"}},
      {"ragged.csv", "id,length,src\na,1,x\nb,2\n", "", {"line 3", "expected 3 fields, found 2"}},
      // Prose is no length file: its first line is read as a header and the next one fails.
      {"notes.txt",
       "Lengths of my dataset\nmostly short, some long\n",
       "",
       {"line 2", "expected 1 field, found 2",
        "\"Lengths of my dataset\" was read as a column header", "is this a length file?"}},
      {"words.txt",
       "hello world\nfoo bar\n",
       "",
       {"line 2", "is not a number", "is this a length file?"}},
      {"quote.csv", "id,length\n\"a,1\n", "", {"line 2", "unterminated quoted field"}},
      {"hneg.csv", "length,count\n100,-1\n", "", {"line 2", "count \"-1\" is negative"}},
      {"hfrac.csv", "100,1.5\n", "", {"line 1", "count \"1.5\" is not an integer"}},
      {"hbig.csv", "100,99999999999\n", "", {"line 1", "count", "exceeds the maximum"}},
      {"htotal.csv", "100,16777216\n200,1\n", "", {"line 2", "more than 16777216 sequences"}},
      {"hzero.csv", "length,count\n100,0\n", "", {"counts sum to zero"}},
  };
  for (const auto& c : cases) expect_bad(dir, c);
}

TEST(LengthBadInput, CsvStructure) {
  TempDir dir;
  const std::vector<BadCase> cases = {
      {"empty.csv", "", "", {"empty file"}},
      {"spaces.csv", "  \n\n \r\n", "", {"empty file"}},
      {"onlyhdr.csv", "length\n", "", {"only a header line"}},
      {"multi.csv",
       "id,tokens,source\na,1,x\n",
       "",
       {"line 1", "3 columns (id, tokens, source)", "--column"}},
      {"nocol.csv",
       "id,tokens,source\na,1,x\n",
       "len",
       {"line 1", "no column \"len\"", "columns: id, tokens, source"}},
      {"nohdr.csv", "1,2,3\n", "", {"line 1", "3 columns and no header line"}},
      {"nohdrcol.csv", "100\n200\n", "tokens", {"line 1", "--column \"tokens\"", "no header"}},
      {"textcol.csv",
       "id,length,source\na,1,x\n",
       "source",
       {"line 2", "column \"source\"", "\"x\" is not a number"}},
  };
  for (const auto& c : cases) expect_bad(dir, c);
}

TEST(LengthBadInput, Json) {
  TempDir dir;
  const std::vector<BadCase> cases = {
      {"empty.json", "", "", {"empty file"}},
      {"syntax.json", "[1, 2,", "", {"invalid JSON"}},
      {"nan.json", "[1, NaN]", "", {"invalid JSON"}},
      {"scalar.json", "42", "", {"$:", "found number"}},
      {"emptyarr.json", "[]", "", {"$:", "empty array"}},
      {"emptylen.json", R"({"lengths": []})", "", {"$.lengths:", "empty array"}},
      {"neg.json", "[1, 2, -3]", "", {"$[2]:", "must be positive"}},
      {"zero.json", R"({"lengths": [4, 0]})", "", {"$.lengths[1]:", "must be positive"}},
      {"frac.json", "[2.5]", "", {"$[0]:", "not an integer"}},
      {"huge.json", "[1e300]", "", {"$[0]:", "exceeds the maximum"}},
      {"big.json", "[18446744073709551615]", "", {"$[0]:", "exceeds the maximum"}},
      {"str.json", R"(["4096"])", "", {"$[0]:", "is a string"}},
      {"bool.json", "[true]", "", {"$[0]:", "found boolean"}},
      {"keys.json", R"({"sizes": [1]})", "", {"$:", "\"lengths\"", "found keys: sizes"}},
      {"both.json", R"({"lengths": [1], "bins": []})", "", {"$:", "ambiguous"}},
      {"hmiss.json", R"({"histogram": [{"length": 8}]})", "", {"$.histogram[0].count:", "missing"}},
      {"hneg.json",
       R"({"histogram": [{"length": 8, "count": -2}]})",
       "",
       {"$.histogram[0]:", "negative"}},
      {"hbad.json", R"({"bins": [3]})", "", {"$.bins[0]:", "expected a bin"}},
      {"hkey.json",
       R"({"histogram": {"8": 1, "big": 2}})",
       "",
       {"$.histogram.big:", "not a number"}},
      {"hzero.json", R"({"histogram": {"8": 0}})", "", {"$.histogram:", "sum to zero"}},
      {"hempty.json", R"({"histogram": []})", "", {"$.histogram:", "empty histogram"}},
      {"rec.json",
       R"([{"id": 1, "tokens": 5}])",
       "",
       {"$[0]:", "\"seq_len\", \"num_tokens\" or \"length\"", "fields: id, tokens"}},
      {"recmiss.json", R"([{"length": 5}, {"len": 6}])", "", {"$[1]:", "missing field \"length\""}},
      {"recneg.json",
       R"([{"length": 5}, {"length": -6}])",
       "",
       {"$[1].length:", "must be positive"}},
  };
  for (const auto& c : cases) expect_bad(dir, c);
}

TEST(LengthBadInput, Jsonl) {
  TempDir dir;
  const std::vector<BadCase> cases = {
      {"empty.jsonl", "\n\n", "", {"empty file"}},
      {"syntax.jsonl", "{\"length\": 1}\n{\"length\": \n", "", {"line 2", "invalid JSON"}},
      {"nofield.jsonl",
       "{\"id\": 1, \"text\": \"hi\"}\n",
       "",
       {"line 1", "\"seq_len\", \"num_tokens\" or \"length\"", "fields: id, text", "--column"}},
      {"nocol.jsonl", "{\"length\": 1}\n", "tok", {"line 1", "no field \"tok\""}},
      {"missing.jsonl",
       "{\"length\": 1}\n\n{\"other\": 2}\n",
       "",
       {"line 3", "missing field \"length\""}},
      {"neg.jsonl",
       "{\"num_tokens\": 1}\n{\"num_tokens\": -1}\n",
       "",
       {"line 2", "field \"num_tokens\"", "must be positive"}},
      {"str.jsonl", "{\"length\": \"12\"}\n", "", {"line 1", "is a string"}},
      {"arr.jsonl", "[1, 2]\n", "", {"line 1", "found array"}},
      {"barecol.jsonl", "12\n", "length", {"line 1", "bare number"}},
      {"huge.jsonl", "{\"length\": 16777217}\n", "", {"line 1", "exceeds the maximum"}},
  };
  for (const auto& c : cases) expect_bad(dir, c);
}

TEST(LengthBadInput, PathProblems) {
  TempDir dir;
  auto missing = read_length_file(dir.path("nope.csv"));
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("nope.csv: file not found"), std::string::npos);

  auto directory = read_length_file(dir.path(""));
  ASSERT_FALSE(directory.ok());
  EXPECT_NE(directory.error().message.find("is a directory"), std::string::npos);

  const std::string parquet = dir.write("data.parquet", "PAR1");
  auto ext = read_length_file(parquet);
  ASSERT_FALSE(ext.ok());
  EXPECT_NE(ext.error().message.find(parquet), std::string::npos);
  EXPECT_NE(ext.error().message.find("unknown length file extension \".parquet\""),
            std::string::npos);
}

}  // namespace
}  // namespace slimpack
