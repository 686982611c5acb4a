#include "trace/trace_scan.h"

#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace slimpack::trace_scan {
namespace {

struct Masks {
  std::uint64_t quote = 0, backslash = 0, open = 0, close = 0;
};

// Bit i of each mask: byte i of the 64-byte block is '"', '\\', '{' or '[', '}' or ']'.
Masks classify(const char* p) {
  Masks m;
#if defined(__SSE2__)
  const __m128i q = _mm_set1_epi8('"'), bs = _mm_set1_epi8('\\');
  // '{' and '[' differ only in bit 0x20, as do '}' and ']'.
  const __m128i lower = _mm_set1_epi8(0x20), op = _mm_set1_epi8('{'), cl = _mm_set1_epi8('}');
  for (int k = 0; k < 4; ++k) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
    const __m128i l = _mm_or_si128(v, lower);
    const auto shift = static_cast<unsigned>(16 * k);
    m.quote |= static_cast<std::uint64_t>(
                   static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, q))))
               << shift;
    m.backslash |= static_cast<std::uint64_t>(
                       static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, bs))))
                   << shift;
    m.open |= static_cast<std::uint64_t>(
                  static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(l, op))))
              << shift;
    m.close |= static_cast<std::uint64_t>(
                   static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(l, cl))))
               << shift;
  }
#else
  for (int i = 0; i < 64; ++i) {
    const char c = p[i];
    const std::uint64_t bit = std::uint64_t{1} << i;
    if (c == '"') m.quote |= bit;
    if (c == '\\') m.backslash |= bit;
    if (c == '{' || c == '[') m.open |= bit;
    if (c == '}' || c == ']') m.close |= bit;
  }
#endif
  return m;
}

// Characters escaped by a backslash (simdjson's odd-length backslash run algorithm); `prev` carries
// whether the first byte of the next block is escaped.
std::uint64_t escaped(std::uint64_t backslash, std::uint64_t& prev) {
  backslash &= ~prev;
  const std::uint64_t follows_escape = backslash << 1 | prev;
  constexpr std::uint64_t even_bits = 0x5555555555555555ULL;
  const std::uint64_t odd_starts = backslash & ~even_bits & ~follows_escape;
  std::uint64_t even_starts = 0;
  prev = __builtin_add_overflow(odd_starts, backslash, &even_starts) ? 1 : 0;
  const std::uint64_t invert = even_starts << 1;
  return (even_bits ^ invert) & follows_escape;
}

std::uint64_t prefix_xor(std::uint64_t x) {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}

}  // namespace

ScanResult scan(const char* text, std::size_t size, bool stop_at_first_end) {
  ScanResult r;
  std::uint64_t prev_escaped = 0;
  std::uint64_t prev_in_string = 0;  // all ones when the block starts inside a string
  int depth = 0;
  for (std::size_t base = 0; base < size; base += 64) {
    const Masks m = classify(text + base);
    const std::uint64_t quotes = m.quote & ~escaped(m.backslash, prev_escaped);
    const std::uint64_t in_string = prefix_xor(quotes) ^ prev_in_string;
    prev_in_string = static_cast<std::uint64_t>(static_cast<std::int64_t>(in_string) >> 63);
    const std::size_t valid = size - base;
    const std::uint64_t keep = valid >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << valid) - 1;
    std::uint64_t brackets = (m.open | m.close) & ~in_string & keep;
    if (valid < 64) r.in_string = (in_string >> (valid - 1)) & 1;
    while (brackets != 0) {
      const int i = __builtin_ctzll(brackets);
      brackets &= brackets - 1;
      const std::size_t at = base + static_cast<std::size_t>(i);
      if ((m.open >> i) & 1) {
        if (++depth > kMaxDepth) {
          r.too_deep = at;
          return r;
        }
        continue;
      }
      if (--depth == 0) {
        r.last_end = at + 1;
        if (r.first_end == kNone) r.first_end = at + 1;
        if (stop_at_first_end) return r;
      } else if (depth < 0) {
        r.underflow = at;
        return r;
      }
    }
    if (valid >= 64) r.in_string = prev_in_string != 0;
  }
  return r;
}

}  // namespace slimpack::trace_scan
