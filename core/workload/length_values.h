#pragma once
// Validation of single length and count values shared by the CSV, JSON and JSONL readers. Errors
// carry only the reason; the reader adds the file and the line or JSON path.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"
#include "workload/lengths.h"

namespace slimpack::workload {

// Upper bound on the sequences one pool or batch may hold (16M, 128 MiB of lengths): a histogram
// with absurd counts or a huge token budget is an input error, not an out-of-memory crash.
inline constexpr std::int64_t kMaxPoolSequences = std::int64_t{1} << 24;

// Parses a length written as text: an integer (or an integral decimal such as "4096.0") in
// [1, kMaxSequenceLength]. NaN, infinities, fractions, signs and junk are rejected by name.
Expected<Tokens> parse_length_text(std::string_view text);
// Parses a histogram count: an integer in [0, kMaxPoolSequences].
Expected<std::int64_t> parse_count_text(std::string_view text);
// True when the text reads as a number (including "nan"/"inf"), used to tell a header line from
// data.
bool looks_numeric(std::string_view text);

// The same checks for JSON values (numbers only: a quoted "4096" is an error, not a guess).
Expected<Tokens> length_from_json(const nlohmann::json& v);
Expected<std::int64_t> count_from_json(const nlohmann::json& v);

// Collects histogram bins and checks the running total before anything is expanded, so that
// counts summing past kMaxPoolSequences are refused without allocating them.
class HistogramBuilder {
 public:
  Status add(Tokens length, std::int64_t count);
  // The lengths, each repeated by its count, in the order added (or by length when sorted).
  std::vector<Tokens> expand(bool sort_by_length) const;
  std::int64_t total() const { return total_; }

 private:
  std::vector<std::pair<Tokens, std::int64_t>> bins_;
  std::int64_t total_ = 0;
};

// Appends `count` copies of `length`, failing when the pool would exceed kMaxPoolSequences.
Status append_repeated(std::vector<Tokens>& out, Tokens length, std::int64_t count);

// "path: line 12: reason" and "path: $.lengths[3]: reason".
Error error_at_line(const std::string& path, std::int64_t line, const std::string& reason);
Error error_at_json(const std::string& path, const std::string& json_path,
                    const std::string& reason);

}  // namespace slimpack::workload
