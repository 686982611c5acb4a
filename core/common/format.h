#pragma once
// The one formatter for numbers shown to people: every time, byte count, rate and percentage the
// CLI prints, the explorer shows (tables, tooltips, axis, status bar) and the image exports write
// goes through these, so the same value always reads the same ("7.50 GB" everywhere).
// Rule: three significant digits in a unit chosen by magnitude; decimal byte units as GPU
// datasheets and memory caps use them.
#include <string>

namespace slimpack {

// A duration or instant in seconds with a fitting unit: "2.35 ms", "17.0 s", "812 us", "0 s".
// `unit` other than "s" (explicit-time plans) prints the plain number with that unit:
// "4.50 units".
std::string format_time(double t, const std::string& unit = "s");

// The same with `digits` (3 or more) significant digits, where tables compare times that differ
// by a few per cent ("124.4 s" against "125.0 s"): format_time_digits(55.702, 4) = "55.70 s".
std::string format_time_digits(double t, int digits, const std::string& unit = "s");

// Bytes in decimal units: "7.50 GB", "77.0 GB", "512 MB", "812 B".
std::string format_bytes(double bytes);

// A fraction as a percentage with one decimal: 0.125 -> "12.5 %".
std::string format_percent(double fraction);

// A large count with a decimal suffix: "1.05 M", "412 k", "950".
std::string format_count(double n);

// Tokens per second: format_count + " tok/s" ("412 k tok/s").
std::string format_rate(double tokens_per_second);

// A ratio such as a speed-up, with two decimals: 1.4237 -> "1.42x".
std::string format_ratio(double ratio);

// A number with `decimals` decimals and no "-0" ("-0.00" reads "0.00").
std::string format_fixed(double v, int decimals);

}  // namespace slimpack
