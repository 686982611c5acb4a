#pragma once
// The byte-level scans of the trace import's JSON reading: byte classes, and scans over padded
// text (whitespace runs, string bodies, number and literal tokens) that compare 16 bytes at a time
// where SSE2 is there.
#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace slimpack::trace_json::detail {

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

// Scans over padded text: text followed by at least 16 readable bytes, the first of them zero
// (the trace window's padding), so that 16 bytes are compared at a time and the zero stops every
// scan without a bounds check. Real traces are pretty-printed and name kernels with 100-character
// templates: whitespace runs and strings are most of their bytes.

// The first byte at or after p that is not JSON whitespace.
inline const char* skip_space_padded(const char* p) {
  if (kByteClasses.of[static_cast<unsigned char>(*p)] != kSpace) return p;
#if defined(__SSE2__)
  const __m128i sp = _mm_set1_epi8(' '), nl = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r'),
                tab = _mm_set1_epi8('\t');
  for (;;) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i space = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, sp), _mm_cmpeq_epi8(v, nl)),
                                       _mm_or_si128(_mm_cmpeq_epi8(v, cr), _mm_cmpeq_epi8(v, tab)));
    const unsigned other = ~static_cast<unsigned>(_mm_movemask_epi8(space)) & 0xFFFFu;
    if (other != 0) return p + __builtin_ctz(other);
    p += 16;
  }
#else
  while (kByteClasses.of[static_cast<unsigned char>(*p)] == kSpace) ++p;
  return p;
#endif
}

// The first byte at or after p (inside a string) that ends the plain run of the string: '"',
// '\\' or a control byte (the padding's zero is one).
inline const char* string_stop_padded(const char* p) {
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'),
                control = _mm_set1_epi8(0x1F);
  for (;;) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    // v <= 0x1F (unsigned) exactly when max(v, 0x1F) == 0x1F.
    const __m128i stop =
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
                     _mm_cmpeq_epi8(_mm_max_epu8(v, control), control));
    const unsigned m = static_cast<unsigned>(_mm_movemask_epi8(stop));
    if (m != 0) return p + __builtin_ctz(m);
    p += 16;
  }
#else
  for (;; ++p) {
    const auto c = static_cast<unsigned char>(*p);
    if (c == '"' || c == '\\' || c < 0x20) return p;
  }
#endif
}

// A scalar token's text: true, false, null, or a number as JSON writes it:
// -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
inline bool scalar_ok(std::string_view t) {
  if (t[0] == 't' || t[0] == 'f' || t[0] == 'n') return t == "true" || t == "false" || t == "null";
  const auto digit = [&](std::size_t i) { return i < t.size() && t[i] >= '0' && t[i] <= '9'; };
  std::size_t i = t[0] == '-' ? 1 : 0;
  if (!digit(i)) return false;
  if (t[i] == '0') {
    ++i;  // a leading zero is only a number's whole part on its own ("0.5", not "0071")
  } else {
    while (digit(i)) ++i;
  }
  if (i < t.size() && t[i] == '.') {
    if (!digit(++i)) return false;
    while (digit(i)) ++i;
  }
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    if (!digit(i)) return false;
    while (digit(i)) ++i;
  }
  return i == t.size();
}

// A number token of padded text (the byte at the text's end is zero), lexed and checked in one
// pass: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? followed by a byte that cannot go on a token.
struct NumberLex {
  bool integer = true;         // no fraction, no exponent
  int digits = 0;              // significant digits read into `mantissa` (all of them up to 19)
  int fraction_digits = 0;     // of those, after the '.'
  std::uint64_t mantissa = 0;  // exact when digits <= 19
};
// The byte after the number at p ('-' or a digit), or nullptr when it is malformed there.
inline const char* lex_number_padded(const char* p, NumberLex& n) {
  const auto digit = [](char c) { return static_cast<unsigned>(c - '0') < 10u; };
  if (*p == '-') ++p;
  if (!digit(*p)) return nullptr;
  if (*p == '0') {
    ++p;
    n.digits = 1;
    if (digit(*p)) return nullptr;  // a leading zero only stands alone ("0.5", not "0071")
  } else {
    while (digit(*p)) {
      if (n.digits < 19) n.mantissa = n.mantissa * 10 + static_cast<unsigned>(*p - '0');
      ++n.digits;
      ++p;
    }
  }
  if (*p == '.') {
    ++p;
    n.integer = false;
    if (!digit(*p)) return nullptr;
    while (digit(*p)) {
      if (n.digits < 19) {
        n.mantissa = n.mantissa * 10 + static_cast<unsigned>(*p - '0');
        ++n.fraction_digits;
      }
      ++n.digits;
      ++p;
    }
  }
  if (*p == 'e' || *p == 'E') {
    ++p;
    n.integer = false;
    n.digits = 99;  // no fast conversion
    if (*p == '+' || *p == '-') ++p;
    if (!digit(*p)) return nullptr;
    while (digit(*p)) ++p;
  }
  if (kByteClasses.of[static_cast<unsigned char>(*p)] == kScalar) return nullptr;  // "12abc"
  return p;
}
// true, false or null at p, followed by a byte that cannot go on a token; nullptr otherwise.
inline const char* lex_atom_padded(const char* p) {
  std::size_t n = 0;
  if (std::memcmp(p, "true", 4) == 0 || std::memcmp(p, "null", 4) == 0)
    n = 4;
  else if (std::memcmp(p, "false", 5) == 0)
    n = 5;
  else
    return nullptr;
  if (kByteClasses.of[static_cast<unsigned char>(p[n])] == kScalar) return nullptr;
  return p + n;
}

}  // namespace slimpack::trace_json::detail
