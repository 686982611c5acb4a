#include "workload/length_values.h"

#include <algorithm>
#include <cfloat>
#include <charconv>
#include <cmath>

namespace slimpack::workload {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::string show(std::string_view s) {
  constexpr std::size_t kShown = 40;
  std::string out = "\"" + std::string(s.substr(0, kShown));
  if (s.size() > kShown) out += "...";
  return out + "\"";
}

const std::string& max_text() {
  static const std::string s = std::to_string(kMaxSequenceLength);
  return s;
}

// Range checks on an integral value held as a double, so that 1e30 is reported, not overflowed.
Expected<Tokens> length_from_double(double d, const std::string& shown) {
  if (std::isnan(d)) return Error::bad_input("length " + shown + " is NaN");
  if (std::isinf(d)) return Error::bad_input("length " + shown + " is not finite");
  if (d != std::floor(d)) return Error::bad_input("length " + shown + " is not an integer");
  if (d <= 0) return Error::bad_input("length " + shown + " must be positive");
  if (d > static_cast<double>(kMaxSequenceLength))
    return Error::bad_input("length " + shown + " exceeds the maximum " + max_text());
  return static_cast<Tokens>(d);
}

Expected<std::int64_t> count_from_double(double d, const std::string& shown) {
  if (std::isnan(d) || std::isinf(d) || d != std::floor(d))
    return Error::bad_input("count " + shown + " is not an integer");
  if (d < 0) return Error::bad_input("count " + shown + " is negative");
  if (d > static_cast<double>(kMaxPoolSequences))
    return Error::bad_input("count " + shown + " exceeds the maximum " +
                            std::to_string(kMaxPoolSequences));
  return static_cast<std::int64_t>(d);
}

// Parses the whole text as a double (from_chars is locale-independent); false on junk.
bool parse_double(std::string_view s, double& out) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  if (s.empty()) return false;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  if (r.ec == std::errc::result_out_of_range) {
    // Out of double range: "1e999" must read as too large and "-1e999" as negative, while an
    // underflow such as "1e-999" is a tiny fraction (reported as not an integer).
    const std::size_t e = s.find_first_of("eE");
    const bool underflow = e != std::string_view::npos && e + 1 < s.size() && s[e + 1] == '-';
    const double magnitude = underflow ? 0.5 : DBL_MAX;
    out = (s.front() == '-') ? -magnitude : magnitude;
    return r.ptr == s.data() + s.size();
  }
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

}  // namespace

bool looks_numeric(std::string_view text) {
  double d = 0;
  return parse_double(trim(text), d);
}

Expected<Tokens> parse_length_text(std::string_view text) {
  const std::string_view s = trim(text);
  if (s.empty()) return Error::bad_input("empty length field");
  double d = 0;
  if (!parse_double(s, d)) return Error::bad_input("length " + show(s) + " is not a number");
  // Integers of up to 15 digits are exact as doubles; longer ones are far out of range anyway.
  return length_from_double(d, show(s));
}

Expected<std::int64_t> parse_count_text(std::string_view text) {
  const std::string_view s = trim(text);
  if (s.empty()) return Error::bad_input("empty count field");
  double d = 0;
  if (!parse_double(s, d)) return Error::bad_input("count " + show(s) + " is not a number");
  return count_from_double(d, show(s));
}

Expected<Tokens> length_from_json(const nlohmann::json& v) {
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(kMaxSequenceLength))
      return Error::bad_input("length " + v.dump() + " exceeds the maximum " + max_text());
    return length_from_double(static_cast<double>(u), v.dump());
  }
  if (v.is_number_integer()) {
    const auto i = v.get<std::int64_t>();
    if (i <= 0) return Error::bad_input("length " + v.dump() + " must be positive");
    return length_from_double(static_cast<double>(i), v.dump());
  }
  if (v.is_number_float()) return length_from_double(v.get<double>(), v.dump());
  if (v.is_string())
    return Error::bad_input("length " + show(v.get<std::string>()) +
                            " is a string; write it as a JSON number");
  return Error::bad_input(std::string("expected a length (a number), found ") + v.type_name());
}

Expected<std::int64_t> count_from_json(const nlohmann::json& v) {
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(kMaxPoolSequences))
      return Error::bad_input("count " + v.dump() + " exceeds the maximum " +
                              std::to_string(kMaxPoolSequences));
    return static_cast<std::int64_t>(u);
  }
  if (v.is_number_integer())
    return count_from_double(static_cast<double>(v.get<std::int64_t>()), v.dump());
  if (v.is_number_float()) return count_from_double(v.get<double>(), v.dump());
  return Error::bad_input(std::string("expected a count (a number), found ") + v.type_name());
}

Status HistogramBuilder::add(Tokens length, std::int64_t count) {
  if (count > kMaxPoolSequences - total_)
    return Error::bad_input("more than " + std::to_string(kMaxPoolSequences) +
                            " sequences in total");
  total_ += count;
  if (count > 0) bins_.emplace_back(length, count);
  return Status::success();
}

std::vector<Tokens> HistogramBuilder::expand(bool sort_by_length) const {
  auto bins = bins_;
  if (sort_by_length)
    std::stable_sort(bins.begin(), bins.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<Tokens> out;
  out.reserve(static_cast<std::size_t>(total_));
  for (const auto& [len, count] : bins) out.insert(out.end(), static_cast<std::size_t>(count), len);
  return out;
}

Status append_repeated(std::vector<Tokens>& out, Tokens length, std::int64_t count) {
  if (count > kMaxPoolSequences - static_cast<std::int64_t>(out.size()))
    return Error::bad_input("more than " + std::to_string(kMaxPoolSequences) +
                            " sequences in total");
  out.insert(out.end(), static_cast<std::size_t>(count), length);
  return Status::success();
}

Error error_at_line(const std::string& path, std::int64_t line, const std::string& reason) {
  return Error::bad_input(path + ": line " + std::to_string(line) + ": " + reason);
}

Error error_at_json(const std::string& path, const std::string& json_path,
                    const std::string& reason) {
  return Error::bad_input(path + ": " + json_path + ": " + reason);
}

}  // namespace slimpack::workload
