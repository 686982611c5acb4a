// json_diff EXPECTED ACTUAL [--ignore k1,k2] : compares two JSON documents structurally, numbers
// with a relative tolerance (1e-6), skipping the named keys anywhere (e.g. wall-clock solver
// timings).
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>

using nlohmann::json;

namespace {

std::set<std::string> g_ignore;
int g_diffs = 0;

void report(const std::string& path, const std::string& what) {
  if (g_diffs++ < 20) std::cerr << path << ": " << what << "\n";
}

void compare(const json& e, const json& a, const std::string& path) {
  if (e.is_number() && a.is_number()) {
    const double x = e.get<double>(), y = a.get<double>();
    const double tol = 1e-6 * std::max({1.0, std::fabs(x), std::fabs(y)});
    if (std::fabs(x - y) > tol) report(path, "expected " + e.dump() + ", got " + a.dump());
    return;
  }
  if (e.type() != a.type()) {
    report(path, "expected " + e.dump() + ", got " + a.dump());
    return;
  }
  if (e.is_object()) {
    for (auto it = e.begin(); it != e.end(); ++it) {
      if (g_ignore.count(it.key())) continue;
      if (!a.contains(it.key()))
        report(path + "." + it.key(), "missing");
      else
        compare(it.value(), a.at(it.key()), path + "." + it.key());
    }
    for (auto it = a.begin(); it != a.end(); ++it)
      if (!g_ignore.count(it.key()) && !e.contains(it.key()))
        report(path + "." + it.key(), "unexpected key");
  } else if (e.is_array()) {
    if (e.size() != a.size()) {
      report(path, "array size " + std::to_string(e.size()) + " vs " + std::to_string(a.size()));
      return;
    }
    for (std::size_t i = 0; i < e.size(); ++i)
      compare(e[i], a[i], path + "[" + std::to_string(i) + "]");
  } else if (e != a) {
    report(path, "expected " + e.dump() + ", got " + a.dump());
  }
}

bool load(const std::string& path, json& out) {
  std::ifstream in(path);
  if (!in) {
    std::cerr << path << ": cannot open\n";
    return false;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  out = json::parse(ss.str(), nullptr, false);
  if (out.is_discarded()) {
    std::cerr << path << ": invalid JSON\n";
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: json_diff EXPECTED ACTUAL [--ignore k1,k2]\n";
    return 2;
  }
  for (int i = 3; i + 1 < argc; i += 2) {
    if (std::string(argv[i]) == "--ignore") {
      std::stringstream ss(argv[i + 1]);
      std::string k;
      while (std::getline(ss, k, ',')) g_ignore.insert(k);
    }
  }
  json e, a;
  if (!load(argv[1], e) || !load(argv[2], a)) return 2;
  compare(e, a, "$");
  if (g_diffs) {
    std::cerr << g_diffs << " difference(s)\n";
    return 1;
  }
  return 0;
}
