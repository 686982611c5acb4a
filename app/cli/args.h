#pragma once
// A small declarative option parser for the slimpack subcommands: every command lists its options
// with help text; unknown options, missing values and malformed numbers are usage errors (exit 2).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"

namespace slimpack::cli {

struct OptionSpec {
  std::string name;   // without leading dashes, e.g. "plan"
  std::string value;  // the value's name in --help ("FILE", "N"); empty for flags
  std::string help;
};

class Args {
 public:
  // Parses argv[first..] against specs. Positional arguments are collected in order.
  static Expected<Args> parse(int argc, char** argv, int first,
                              const std::vector<OptionSpec>& specs);

  bool has(const std::string& name) const { return values_.count(name) > 0; }
  std::optional<std::string> get(const std::string& name) const;
  std::string get_or(const std::string& name, const std::string& fallback) const;
  // Numeric getters: errors name the option and the bad value.
  Expected<std::int64_t> get_int(const std::string& name, std::int64_t fallback) const;
  Expected<double> get_double(const std::string& name, double fallback) const;
  // Comma-separated list ("a,b,c").
  std::vector<std::string> get_list(const std::string& name) const;
  const std::vector<std::string>& positional() const { return positional_; }
  // A copy with one option set to another value (used by sweeps).
  Args with(const std::string& name, const std::string& value) const {
    Args copy = *this;
    copy.values_[name] = value;
    return copy;
  }
  // A copy without one option (a command that reads it itself, e.g. search's lists).
  Args without(const std::string& name) const {
    Args copy = *this;
    copy.values_.erase(name);
    return copy;
  }

 private:
  std::map<std::string, std::string> values_;
  std::vector<std::string> positional_;
};

std::string format_help(const std::string& usage, const std::string& summary,
                        const std::vector<OptionSpec>& specs);

Expected<std::int64_t> parse_int(const std::string& text, const std::string& what);
Expected<double> parse_double(const std::string& text, const std::string& what);
std::vector<std::string> split_list(const std::string& text);

}  // namespace slimpack::cli
