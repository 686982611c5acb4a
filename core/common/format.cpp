#include "common/format.h"

#include <cmath>
#include <cstdio>

namespace slimpack {
namespace {

// Decimals that give `digits` (>= 3) significant digits for a value in [0, 1000).
int significant(double v, int digits = 3) {
  const double a = std::fabs(v);
  return (a >= 100.0 ? 0 : a >= 10.0 ? 1 : 2) + (digits - 3);
}

int three_significant(double v) {
  return significant(v, 3);
}

struct Scaled {
  double value;
  const char* suffix;
};

// Divides by 1000 until the value is below 1000 (or the suffixes run out).
template <std::size_t N>
Scaled scale_decimal(double v, const char* const (&suffixes)[N]) {
  std::size_t u = 0;
  while (std::fabs(v) >= 1000.0 && u + 1 < N) {
    v /= 1000.0;
    ++u;
  }
  // 999.6 rounds to "1000" with zero decimals: show it as "1.00" of the next unit.
  if (std::fabs(v) >= 999.5 && u + 1 < N) {
    v /= 1000.0;
    ++u;
  }
  return {v, suffixes[u]};
}

}  // namespace

std::string format_fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  std::string s = buf;
  if (!s.empty() && s[0] == '-' && s.find_first_not_of("0.", 1) == std::string::npos) s.erase(0, 1);
  return s;
}

std::string format_time(double t, const std::string& unit) {
  return format_time_digits(t, 3, unit);
}

std::string format_time_digits(double t, int digits, const std::string& unit) {
  digits = digits < 3 ? 3 : digits;
  if (!std::isfinite(t)) return "-";
  if (unit != "s") return format_fixed(t, significant(t, digits)) + " " + unit;
  const double a = std::fabs(t);
  if (a == 0.0) return "0 s";
  double factor = 1.0;
  const char* name = "s";
  if (a < 1e-6) {
    factor = 1e9;
    name = "ns";
  } else if (a < 1e-3) {
    factor = 1e6;
    name = "us";
  } else if (a < 1.0) {
    factor = 1e3;
    name = "ms";
  }
  double v = t * factor;
  // 999.7 ms must not read "1000 ms" (999.97 with four digits): the next unit up.
  if (std::fabs(v) >= 1000.0 - 0.5 * std::pow(10.0, 3 - digits) && factor > 1.0) {
    v /= 1000.0;
    name = factor == 1e3 ? "s" : factor == 1e6 ? "ms" : "us";
  }
  return format_fixed(v, significant(v, digits)) + " " + name;
}

std::string format_bytes(double bytes) {
  if (!std::isfinite(bytes)) return "-";
  static const char* const kUnits[] = {"B", "kB", "MB", "GB", "TB", "PB"};
  const Scaled s = scale_decimal(bytes, kUnits);
  const int decimals = s.suffix == kUnits[0] ? 0 : three_significant(s.value);
  return format_fixed(s.value, decimals) + " " + s.suffix;
}

std::string format_percent(double fraction) {
  if (!std::isfinite(fraction)) return "-";
  return format_fixed(fraction * 100.0, 1) + " %";
}

std::string format_count(double n) {
  if (!std::isfinite(n)) return "-";
  static const char* const kSuffixes[] = {"", "k", "M", "G", "T"};
  const Scaled s = scale_decimal(n, kSuffixes);
  if (s.suffix[0] == '\0') return format_fixed(s.value, 0);
  return format_fixed(s.value, three_significant(s.value)) + " " + s.suffix;
}

std::string format_ratio(double ratio) {
  if (!std::isfinite(ratio)) return "-";
  return format_fixed(ratio, 2) + "x";
}

std::string format_rate(double tokens_per_second) {
  return format_count(tokens_per_second) + " tok/s";
}

}  // namespace slimpack
