#include "args.h"

#include <charconv>
#include <cmath>
#include <sstream>

namespace slimpack::cli {

Expected<std::int64_t> parse_int(const std::string& text, const std::string& what) {
  std::int64_t v = 0;
  const char* b = text.data();
  const char* e = b + text.size();
  auto [p, ec] = std::from_chars(b, e, v);
  if (ec != std::errc() || p != e || text.empty())
    return Error::bad_input(what + ": expected an integer, got '" + text + "'");
  return v;
}

Expected<double> parse_double(const std::string& text, const std::string& what) {
  try {
    std::size_t used = 0;
    double v = std::stod(text, &used);
    if (used != text.size() || !std::isfinite(v)) throw std::invalid_argument(text);
    return v;
  } catch (const std::exception&) {
    return Error::bad_input(what + ": expected a number, got '" + text + "'");
  }
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

Expected<Args> Args::parse(int argc, char** argv, int first, const std::vector<OptionSpec>& specs) {
  Args args;
  for (int i = first; i < argc; ++i) {
    std::string a = argv[i];
    if (a.size() > 2 && a.rfind("--", 0) == 0) {
      std::string name = a.substr(2);
      std::optional<std::string> inline_value;
      if (auto eq = name.find('='); eq != std::string::npos) {
        inline_value = name.substr(eq + 1);
        name = name.substr(0, eq);
      }
      const OptionSpec* spec = nullptr;
      for (const auto& s : specs)
        if (s.name == name) spec = &s;
      if (!spec) return Error::bad_input("unknown option --" + name + " (see --help)");
      // Given twice, the last one used to win silently (two --check-trace files: one was read).
      if (args.values_.count(name))
        return Error::bad_input("option --" + name +
                                " is given twice (give it once; lists are comma-separated)");
      if (spec->value.empty()) {
        if (inline_value) return Error::bad_input("option --" + name + " takes no value");
        args.values_[name] = "1";
      } else if (inline_value) {
        args.values_[name] = *inline_value;
      } else {
        if (i + 1 >= argc)
          return Error::bad_input("option --" + name + " needs a value " + spec->value);
        args.values_[name] = argv[++i];
      }
    } else {
      args.positional_.push_back(a);
    }
  }
  return args;
}

std::optional<std::string> Args::get(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::string Args::get_or(const std::string& name, const std::string& fallback) const {
  auto v = get(name);
  return v ? *v : fallback;
}

Expected<std::int64_t> Args::get_int(const std::string& name, std::int64_t fallback) const {
  auto v = get(name);
  if (!v) return fallback;
  return parse_int(*v, "--" + name);
}

Expected<double> Args::get_double(const std::string& name, double fallback) const {
  auto v = get(name);
  if (!v) return fallback;
  return parse_double(*v, "--" + name);
}

std::vector<std::string> Args::get_list(const std::string& name) const {
  auto v = get(name);
  if (!v) return {};
  return split_list(*v);
}

std::string format_help(const std::string& usage, const std::string& summary,
                        const std::vector<OptionSpec>& specs) {
  std::ostringstream out;
  out << "usage: " << usage << "\n\n" << summary << "\n\noptions:\n";
  for (const auto& s : specs) {
    std::string left = "  --" + s.name + (s.value.empty() ? "" : " " + s.value);
    out << left;
    if (left.size() < 28)
      out << std::string(28 - left.size(), ' ');
    else
      out << "\n" << std::string(28, ' ');
    out << s.help << "\n";
  }
  return out.str();
}

}  // namespace slimpack::cli
