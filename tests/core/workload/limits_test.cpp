// Hostile input to the length readers and batch sampling: non-UTF-8 text is refused by name with
// its line, and sizes that would overflow or exhaust memory are refused before any allocation.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "workload/length_readers.h"
#include "workload/lengths.h"

namespace slimpack {
namespace {

using namespace std::string_literals;  // "..."s keeps embedded NUL bytes

std::string csv_error(const std::string& text) {
  auto r = workload::read_csv_lengths("f.csv", text, {});
  return r.ok() ? "(read)" : r.error().message;
}

std::string jsonl_error(const std::string& text) {
  auto r = workload::read_jsonl_lengths("f.jsonl", text, {});
  return r.ok() ? "(read)" : r.error().message;
}

TEST(LengthLimits, Utf16AndNulBytesAreNamed) {
  const std::string utf16("\xFF\xFEl\0e\0n\0\n\0", 10);
  EXPECT_EQ(csv_error(utf16),
            "f.csv: UTF-16 text (it starts with a byte-order mark); save it as UTF-8");
  EXPECT_EQ(jsonl_error("\xFE\xFF\0{"s),
            "f.jsonl: UTF-16 text (it starts with a byte-order mark); save it as UTF-8");
  EXPECT_EQ(csv_error("1024\n20\0"
                      "48\n"s),
            "f.csv: line 2, column 3: NUL byte, so not a text file (binary data, or UTF-16 "
            "without a byte-order mark); expected UTF-8 text");
  // Counted over the whole file, not from the start of the JSONL line.
  EXPECT_NE(jsonl_error("{\"length\": 1}\n\n{\"length\": \0}\n"s)
                .find("f.jsonl: line 3, column 12: NUL byte"),
            std::string::npos);
  auto r = workload::read_json_lengths("f.json", "[1,\0 2]"s, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message.rfind("f.json: line 1, column 4: NUL byte", 0), 0u)
      << r.error().message;
}

TEST(LengthLimits, Utf8ByteOrderMarkIsFine) {
  auto r = workload::read_csv_lengths("f.csv", "\xEF\xBB\xBFlength\r\n1024\r\n", {});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(*r, std::vector<Tokens>{1024});
}

TEST(BatchLimits, TokenBudgetNearInt64MaxIsRefusedWithoutOverflow) {
  // ceil(budget / shortest) used to be computed as (budget + shortest - 1) / shortest: signed
  // overflow (UBSan) for a budget near INT64_MAX.
  LengthPool pool{"p", {1024, 2048}};
  BatchSpec spec;
  spec.token_budget = std::numeric_limits<std::int64_t>::max();
  auto batch = sample_batch(pool, spec);
  ASSERT_FALSE(batch.ok());
  EXPECT_NE(batch.error().message.find("more than the maximum 16777216"), std::string::npos)
      << batch.error().message;
}

}  // namespace
}  // namespace slimpack
