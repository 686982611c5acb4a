#include "cuda/profile_csv.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace slimpack::profiling {

double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

namespace {

std::string num(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", x);
  return buf;
}

}  // namespace

std::string samples_csv(const std::vector<PackMeasurement>& rows, const std::string& comment) {
  std::ostringstream out;
  std::istringstream lines(comment);
  std::string line;
  while (std::getline(lines, line)) out << "# " << line << "\n";
  out << "kind,tokens,pairs,seconds,attention_seconds,shape\n";
  for (const auto& r : rows) {
    const std::string tokens = std::to_string(pack_tokens(r.shape));
    const std::string pairs = num(pack_pairs(r.shape));
    const std::string label = describe(r.shape);
    out << "forward," << tokens << "," << pairs << "," << num(r.forward_s) << ","
        << num(r.attn_forward_s) << "," << label << "\n";
    out << "backward," << tokens << "," << pairs << "," << num(r.backward_s) << ","
        << num(r.attn_backward_s) << "," << label << "\n";
  }
  return out.str();
}

CostProfile to_cost_profile(const std::vector<PackMeasurement>& rows, const std::string& device,
                            const std::string& provenance) {
  CostProfile p;
  p.device = device;
  p.provenance = provenance;
  for (Pass kind : {Pass::Forward, Pass::Backward})
    for (const auto& r : rows) {
      CostSample s;
      s.kind = kind;
      s.tokens = static_cast<double>(pack_tokens(r.shape));
      s.pairs = pack_pairs(r.shape);
      s.seconds = kind == Pass::Forward ? r.forward_s : r.backward_s;
      p.samples.push_back(s);
    }
  return p;
}

}  // namespace slimpack::profiling
