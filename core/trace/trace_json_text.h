#pragma once
// Small JSON text helpers of the trace import: where UTF-8 goes wrong, whether a value's text is
// well-formed (simdjson skips containers by bracket depth without looking inside), and minifying
// an "args" object for tooltips.
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>
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

namespace detail {

// Byte classes of the check: whitespace between tokens, and the bytes a scalar token runs over
// (letters, digits, '-', '+', '.').
enum : unsigned char { kSpace = 1, kScalar = 2 };
struct ByteClasses {
  unsigned char of[256] = {};
  constexpr ByteClasses() {
    for (char c : {' ', '\n', '\r', '\t'}) of[static_cast<unsigned char>(c)] = kSpace;
    for (int c = '0'; c <= '9'; ++c) of[c] = kScalar;
    for (int c = 'a'; c <= 'z'; ++c) of[c] = of[c - 'a' + 'A'] = kScalar;
    for (char c : {'-', '+', '.'}) of[static_cast<unsigned char>(c)] = kScalar;
  }
};
inline constexpr ByteClasses kByteClasses{};

// A scalar token's text: true, false, null, or a number whose whole part has no leading zero.
inline bool scalar_ok(std::string_view t) {
  if (t[0] == 't' || t[0] == 'f' || t[0] == 'n') return t == "true" || t == "false" || t == "null";
  if (!(t[0] == '-' || (t[0] >= '0' && t[0] <= '9'))) return false;
  // A leading zero is only a number's whole part on its own ("0.5", not "0071").
  const std::size_t d = t[0] == '-' ? 1 : 0;
  if (d >= t.size() || t[d] < '0' || t[d] > '9') return false;
  return !(t[d] == '0' && d + 1 < t.size() && t[d + 1] >= '0' && t[d + 1] <= '9');
}

// The check, one pass with no recursion; with kWrite, the text outside whitespace is copied to
// `out` as it is read. Pointers are locals so that they stay in registers.
template <bool kWrite>
bool check_json_value(const char* p, const char* const end, char*& out) {
  constexpr int kMaxDepth = 1024;  // simdjson's own default: a value may sit this deep
  std::uint64_t objects[(kMaxDepth + 64) / 64];  // per open container: an object (1) or an array
  int depth = 0;
  const auto put = [&](const char* from, const char* to) {
    if constexpr (kWrite) {
      std::memcpy(out, from, static_cast<std::size_t>(to - from));
      out += to - from;
    }
  };
  const auto in_object = [&] { return (objects[(depth - 1) / 64] >> ((depth - 1) % 64)) & 1u; };
  // A string from its opening quote; leaves p after the closing one.
  const auto string = [&] {
    const char* b = p++;
    while (p < end) {
      const char c = *p++;
      if (c == '\\') {
        ++p;
      } else if (c == '"') {
        put(b, p);
        return true;
      }
    }
    return false;
  };
  // What the next token may be: a value, a key, ':' or, after a value, ',' or the closing
  // bracket. The "first" states also take the closing bracket of an empty container.
  enum class Next { Value, FirstValue, Key, FirstKey, Colon, AfterValue };
  Next next = Next::Value;
  for (;;) {
    while (p < end && kByteClasses.of[static_cast<unsigned char>(*p)] == kSpace) ++p;
    if (p == end) return false;
    const char c = *p;
    bool closed = false;  // c closes a container
    switch (next) {
      case Next::FirstKey:
        if (c == '}') {
          closed = true;
          break;
        }
        [[fallthrough]];
      case Next::Key:
        if (c != '"' || !string()) return false;
        next = Next::Colon;
        continue;
      case Next::Colon:
        if (c != ':') return false;
        put(p, p + 1);
        ++p;
        next = Next::Value;
        continue;
      case Next::FirstValue:
        if (c == ']') {
          closed = true;
          break;
        }
        [[fallthrough]];
      case Next::Value:
        if (depth > kMaxDepth) return false;
        if (c == '{' || c == '[') {
          put(p, p + 1);
          ++p;
          const auto bit = std::uint64_t{1} << (depth % 64);
          if (c == '{')
            objects[depth / 64] |= bit;
          else
            objects[depth / 64] &= ~bit;
          ++depth;
          next = c == '{' ? Next::FirstKey : Next::FirstValue;
          continue;
        }
        if (c == '"') {
          if (!string()) return false;
        } else {
          const char* b = p;
          while (p < end && kByteClasses.of[static_cast<unsigned char>(*p)] == kScalar) ++p;
          if (p == b || !scalar_ok(std::string_view(b, static_cast<std::size_t>(p - b))))
            return false;
          put(b, p);
        }
        break;
      case Next::AfterValue:
        if (c == ',') {
          put(p, p + 1);
          ++p;
          next = in_object() ? Next::Key : Next::Value;
          continue;
        }
        if (c != (in_object() ? '}' : ']')) return false;
        closed = true;
        break;
    }
    if (closed) {
      put(p, p + 1);
      ++p;
      --depth;
    }
    if (depth == 0) {
      while (p < end && kByteClasses.of[static_cast<unsigned char>(*p)] == kSpace) ++p;
      return p == end;
    }
    next = Next::AfterValue;
  }
}

}  // namespace detail

// Whether JSON text is one well-formed value, and (with minify_into) the same text without the
// whitespace between tokens. simdjson's raw_json() skips an object by bracket depth without
// checking what is inside, so a kept "args" text is checked here (the fuzzer found
// `"args": {0071, "k": 1}` accepted when args are kept and refused when they are skipped).
// Strings are taken as simdjson's stage 1 delimited them. One pass, no recursion: this runs on
// every event's args, and the recursive descent it replaces was a quarter of `trace info`.
class JsonValueCheck {
 public:
  explicit JsonValueCheck(std::string_view s) : s_(s) {}
  bool ok() const {
    char* unused = nullptr;
    return detail::check_json_value<false>(s_.data(), s_.data() + s_.size(), unused);
  }
  // Checks and writes the minified text to `out` (at least as large as the input); returns the
  // written length, or npos when the text is not one well-formed value.
  std::size_t minify_into(char* out) const {
    char* end = out;
    if (!detail::check_json_value<true>(s_.data(), s_.data() + s_.size(), end))
      return std::string_view::npos;
    return static_cast<std::size_t>(end - out);
  }

 private:
  std::string_view s_;
};

// The integer value of `key` (given with its quotes and colon: "\"correlation\":") among the
// top-level fields of a minified, well-formed JSON object (JsonValueCheck::minify_into's output);
// false when the object has no such field or its value is not an integer. A match inside a
// string (after an escaped quote) or in a nested object is skipped. Found by a search first: most
// events' args have no such key, and those that do have it among their first fields.
inline bool top_level_integer(std::string_view object, std::string_view key, std::int64_t& out) {
  for (std::size_t at = object.find(key); at != std::string_view::npos;
       at = object.find(key, at + 1)) {
    int depth = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < at; ++i) {
      const char c = object[i];
      if (in_string) {
        if (c == '\\')
          ++i;
        else if (c == '"')
          in_string = false;
      } else if (c == '"') {
        in_string = true;
      } else if (c == '{' || c == '[') {
        ++depth;
      } else if (c == '}' || c == ']') {
        --depth;
      }
    }
    if (in_string || depth != 1) continue;
    const char* p = object.data() + at + key.size();
    const char* end = object.data() + object.size();
    const auto res = std::from_chars(p, end, out);
    return res.ec == std::errc() && res.ptr < end && (*res.ptr == ',' || *res.ptr == '}');
  }
  return false;
}

}  // namespace slimpack::trace_json
