#pragma once
// Small JSON text helpers of the trace import: where UTF-8 goes wrong, whether a value's text is
// well-formed (simdjson skips containers by bracket depth without looking inside), and minifying
// an "args" object for tooltips.
#include <cstddef>
#include <string_view>

namespace slimpack::trace_json {

// Offset of the first byte that is not valid UTF-8, or `size` when all is.
inline std::size_t first_invalid_utf8(const unsigned char* p, std::size_t size) {
  std::size_t i = 0;
  while (i < size) {
    const unsigned char c = p[i];
    const std::size_t n = c < 0x80           ? 1
                          : (c >> 5) == 0x6  ? 2
                          : (c >> 4) == 0xE  ? 3
                          : (c >> 3) == 0x1E ? 4
                                             : 0;
    if (n == 0 || i + n > size) return i;
    for (std::size_t k = 1; k < n; ++k)
      if ((p[i + k] & 0xC0) != 0x80) return i;
    i += n;
  }
  return size;
}

// Whether JSON text is one well-formed value. simdjson's
// raw_json() skips an object by bracket depth without checking what is inside, so a kept "args"
// text is checked here (the fuzzer found `"args": {0071, "k": 1}` accepted when args are kept
// and refused when they are skipped). Strings are taken as simdjson's stage 1 delimited them.
class JsonValueCheck {
 public:
  explicit JsonValueCheck(std::string_view s) : s_(s) {}
  bool ok() {
    if (!value(0)) return false;
    ws();
    return i_ == s_.size();
  }

 private:
  static constexpr int kMaxDepth = 1024;  // simdjson's own default
  static bool is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
  // The characters a scalar token runs over: letters, digits, '-', '+', '.'.
  static bool scalar_char(char ch) {
    const auto c = static_cast<unsigned char>(ch);
    const unsigned char l = c | 0x20;
    return (c >= '0' && c <= '9') || (l >= 'a' && l <= 'z') || c == '-' || c == '+' || c == '.';
  }
  void ws() {
    while (i_ < s_.size() && is_space(s_[i_])) ++i_;
  }
  bool eat(char c) {
    ws();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  bool string() {
    if (!eat('"')) return false;  // eat() skips the whitespace before
    const char* p = s_.data();
    const std::size_t n = s_.size();
    while (i_ < n) {
      const char c = p[i_++];
      if (c == '\\')
        ++i_;
      else if (c == '"')
        return true;
    }
    return false;
  }
  bool scalar() {
    const std::size_t b = i_;
    while (i_ < s_.size() && scalar_char(s_[i_])) ++i_;
    const std::string_view t = s_.substr(b, i_ - b);
    if (t.empty()) return false;
    if (t[0] == 't' || t[0] == 'f' || t[0] == 'n')
      return t == "true" || t == "false" || t == "null";
    if (!(t[0] == '-' || (t[0] >= '0' && t[0] <= '9'))) return false;
    // A leading zero is only a number's whole part on its own ("0.5", not "0071").
    const std::size_t d = t[0] == '-' ? 1 : 0;
    if (d >= t.size() || t[d] < '0' || t[d] > '9') return false;
    return !(t[d] == '0' && d + 1 < t.size() && t[d + 1] >= '0' && t[d + 1] <= '9');
  }
  bool value(int depth) {
    ws();
    if (depth > kMaxDepth || i_ >= s_.size()) return false;
    const char c = s_[i_];
    if (c == '"') return string();
    if (c == '{') {
      ++i_;
      if (eat('}')) return true;
      do {
        if (!string() || !eat(':') || !value(depth + 1)) return false;
      } while (eat(','));
      return eat('}');
    }
    if (c == '[') {
      ++i_;
      if (eat(']')) return true;
      do {
        if (!value(depth + 1)) return false;
      } while (eat(','));
      return eat(']');
    }
    return scalar();
  }
  std::string_view s_;
  std::size_t i_ = 0;
};

// Copies JSON text to `out` without the whitespace between tokens;
// returns the length. Args objects are small (~100 bytes): a plain loop beats simdjson::minify,
// whose SIMD setup cost 12% of an import.
inline std::size_t minify_json(std::string_view raw, char* out) {
  std::size_t n = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const char c = raw[i];
    if (in_string) {
      out[n++] = c;
      if (c == '\\' && i + 1 < raw.size()) {
        out[n++] = raw[++i];  // an escaped character, quotes included
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
      continue;
    } else {
      out[n++] = c;
      in_string = c == '"';
    }
  }
  return n;
}

}  // namespace slimpack::trace_json
