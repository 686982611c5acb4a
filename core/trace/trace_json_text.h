#pragma once
// Small JSON text helpers of the trace import: where UTF-8 goes wrong, whether a value's text is
// well-formed (simdjson skips containers by bracket depth without looking inside), and minifying
// an "args" object for tooltips.
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "trace/trace_json_scan.h"

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

// Why json_value_end stopped without a value.
enum class ValueStop {
  None,
  RanOut,          // the text ended inside the value (a scalar may go on after `end`)
  RanOutInString,  // the text ended inside one of its strings
  Invalid,         // malformed at `at`
  TooDeep,         // nested deeper than kMaxJsonDepth at `at`
};
inline constexpr int kMaxJsonDepth = 1024;  // simdjson's own default: a value may sit this deep

// One JSON value from `p` (whitespace before it skipped), checked, in one pass with no recursion:
// returns the byte after it, or nullptr with `stop` and `at` set. With kWrite, the text outside
// whitespace is copied to `out` as it is read. Strings are delimited and refused with a raw
// control character in them (what simdjson's stage 1 refuses); their escapes are not decoded.
// Pointers are locals so that they stay in registers.
// kPadded: the text is padded (trace_json_scan.h): the byte at `end` is zero and 16 more follow.
template <bool kWrite, bool kPadded = false>
const char* json_value_end(const char* p, const char* const end, char*& out, ValueStop& stop,
                           const char*& at) {
  std::uint64_t objects[(kMaxJsonDepth + 64) / 64];  // per open container: an object (1) or array
  int depth = 0;
  const auto put = [&](const char* from, const char* to) {
    if constexpr (kWrite) {
      std::memcpy(out, from, static_cast<std::size_t>(to - from));
      out += to - from;
    }
  };
  const auto fail = [&](ValueStop why, const char* where) -> const char* {
    stop = why;
    at = where;
    return nullptr;
  };
  const auto in_object = [&] { return (objects[(depth - 1) / 64] >> ((depth - 1) % 64)) & 1u; };
  // A string from its opening quote; leaves p after the closing one. Returns the stop, or None.
  const auto string = [&]() -> ValueStop {
    const char* b = p++;
    if constexpr (kPadded) {
      for (;;) {
        p = string_stop_padded(p);
        const auto c = static_cast<unsigned char>(*p);
        if (c == '"') {
          ++p;
          put(b, p);
          return ValueStop::None;
        }
        if (c == '\\') {
          if (p + 1 >= end) break;
          p += 2;
          continue;
        }
        if (p >= end) break;
        at = p;
        return ValueStop::Invalid;
      }
      at = end;
      return ValueStop::RanOutInString;
    }
    while (p < end) {
      const auto c = static_cast<unsigned char>(*p++);
      if (c == '\\') {
        ++p;
      } else if (c == '"') {
        put(b, p);
        return ValueStop::None;
      } else if (c < 0x20) {
        at = p - 1;
        return ValueStop::Invalid;
      }
    }
    at = end;
    return ValueStop::RanOutInString;
  };
  // What the next token may be: a value, a key, ':' or, after a value, ',' or the closing
  // bracket. The "first" states also take the closing bracket of an empty container.
  enum class Next { Value, FirstValue, Key, FirstKey, Colon, AfterValue };
  Next next = Next::Value;
  for (;;) {
    if constexpr (kPadded) {
      p = skip_space_padded(p);
    } else {
      while (p < end && kByteClasses.of[static_cast<unsigned char>(*p)] == kSpace) ++p;
    }
    if (p >= end) return fail(ValueStop::RanOut, end);
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
        if (c != '"') return fail(ValueStop::Invalid, p);
        if (ValueStop s = string(); s != ValueStop::None) return fail(s, at);
        next = Next::Colon;
        continue;
      case Next::Colon:
        if (c != ':') return fail(ValueStop::Invalid, p);
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
        if (c == '{' || c == '[') {
          if (depth >= kMaxJsonDepth) return fail(ValueStop::TooDeep, p);
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
          if (ValueStop s = string(); s != ValueStop::None) return fail(s, at);
        } else if constexpr (kPadded) {
          const char* b = p;
          NumberLex n;
          p = c == '-' || (c >= '0' && c <= '9') ? lex_number_padded(b, n) : lex_atom_padded(b);
          if (!p) {
            // Malformed, or a token the window's end cut: the text may go on.
            const char* e = b;
            while (kByteClasses.of[static_cast<unsigned char>(*e)] == kScalar) ++e;
            return fail(e >= end ? ValueStop::RanOut : ValueStop::Invalid, e >= end ? end : b);
          }
          if (p >= end) return fail(ValueStop::RanOut, end);
          put(b, p);
        } else {
          const char* b = p;
          while (p < end && kByteClasses.of[static_cast<unsigned char>(*p)] == kScalar) ++p;
          if (p == end) return fail(ValueStop::RanOut, end);  // the token may go on
          if (p == b || !scalar_ok(std::string_view(b, static_cast<std::size_t>(p - b))))
            return fail(ValueStop::Invalid, b);
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
        if (c != (in_object() ? '}' : ']')) return fail(ValueStop::Invalid, p);
        closed = true;
        break;
    }
    if (closed) {
      put(p, p + 1);
      ++p;
      --depth;
    }
    if (depth == 0) return p;
    next = Next::AfterValue;
  }
}

// Whether [p, end) is exactly one well-formed value (whitespace around it allowed).
template <bool kWrite>
bool check_json_value(const char* p, const char* const end, char*& out) {
  ValueStop stop = ValueStop::None;
  const char* at = nullptr;
  // A scalar at the very end "runs out" (it might go on): the text ends there, so it is whole.
  std::string_view rest(p, static_cast<std::size_t>(end - p));
  while (!rest.empty() && kByteClasses.of[static_cast<unsigned char>(rest.back())] == kSpace)
    rest.remove_suffix(1);
  if (!rest.empty() && kByteClasses.of[static_cast<unsigned char>(rest.back())] == kScalar) {
    std::size_t b = rest.size();
    while (b > 0 && kByteClasses.of[static_cast<unsigned char>(rest[b - 1])] == kScalar) --b;
    // Only a lone scalar can end in a scalar byte: in a container the last byte is a bracket.
    std::string_view head = rest.substr(0, b);
    while (!head.empty() && kByteClasses.of[static_cast<unsigned char>(head.front())] == kSpace)
      head.remove_prefix(1);
    if (!head.empty()) return false;
    const std::string_view token = rest.substr(b);
    if (!scalar_ok(token)) return false;
    if constexpr (kWrite) {
      std::memcpy(out, token.data(), token.size());
      out += token.size();
    }
    return true;
  }
  const char* q = json_value_end<kWrite>(p, end, out, stop, at);
  if (!q) return false;
  while (q < end && kByteClasses.of[static_cast<unsigned char>(*q)] == kSpace) ++q;
  return q == end;
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
