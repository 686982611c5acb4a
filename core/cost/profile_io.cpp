// Reading and writing cost profiles (JSON) and measured samples (CSV).
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "common/json_util.h"
#include "common/output_file.h"
#include "cost/profile.h"

namespace slimpack {
namespace {

using Json = nlohmann::json;

std::string trim(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  std::string cell;
  while (std::getline(ss, cell, ',')) out.push_back(trim(cell));
  if (!line.empty() && line.back() == ',') out.emplace_back();
  return out;
}

bool parse_kind(const std::string& s, Pass& out) {
  const std::string k = lower(s);
  if (k == "forward")
    out = Pass::Forward;
  else if (k == "backward")
    out = Pass::Backward;
  else
    return false;
  return true;
}

bool parse_double(const std::string& s, double& out) {
  if (s.empty()) return false;
  char* end = nullptr;
  out = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size() && std::isfinite(out);
}

// A measured pack has tokens, a non-negative pair count and a positive duration.
Status check_sample(const CostSample& s, const std::string& where) {
  if (!(s.tokens > 0.0)) return Error::bad_input(where + ": tokens must be positive");
  if (!(s.pairs >= 0.0)) return Error::bad_input(where + ": pairs must not be negative");
  if (!(s.seconds > 0.0)) return Error::bad_input(where + ": seconds must be positive");
  return {};
}

Expected<PassFit> read_fit(const Json& j, const std::string& path) {
  if (!j.is_object()) return Error::bad_input(path + ": expected an object");
  PassFit f;
  const std::pair<const char*, double*> fields[] = {{"kappa", &f.coeffs.kappa},
                                                    {"alpha", &f.coeffs.alpha},
                                                    {"beta", &f.coeffs.beta},
                                                    {"r2", &f.r2}};
  for (const auto& [key, target] : fields) {
    auto v = json_util::get_number(j, key, path);
    if (!v) return v.error();
    *target = *v;
  }
  auto n = json_util::opt_int(j, "samples", path);
  if (!n) return n.error();
  f.samples = *n ? static_cast<int>(**n) : 0;
  return f;
}

Json fit_json(const PassFit& f) {
  return {{"kappa", f.coeffs.kappa},
          {"alpha", f.coeffs.alpha},
          {"beta", f.coeffs.beta},
          {"r2", f.r2},
          {"samples", f.samples}};
}

}  // namespace

const char* sample_kind_name(Pass p) {
  return p == Pass::Forward ? "forward" : "backward";
}

Expected<CostProfile> parse_cost_profile_csv(const std::string& text, const std::string& source) {
  if (Status st = json_util::check_text_encoding(text); !st) return st.error().with_context(source);
  CostProfile prof;
  prof.provenance = source;
  std::stringstream in(text);
  std::string line;
  int line_no = 0;
  int col_kind = -1, col_tokens = -1, col_pairs = -1, col_seconds = -1;
  std::size_t columns = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    const std::string where = source + ":" + std::to_string(line_no);
    auto cells = split_csv(t);
    if (col_kind < 0) {
      for (std::size_t i = 0; i < cells.size(); ++i) {
        const std::string c = lower(cells[i]);
        int* slot = c == "kind"      ? &col_kind
                    : c == "tokens"  ? &col_tokens
                    : c == "pairs"   ? &col_pairs
                    : c == "seconds" ? &col_seconds
                                     : nullptr;
        if (slot) *slot = static_cast<int>(i);
      }
      if (col_kind < 0 || col_tokens < 0 || col_pairs < 0 || col_seconds < 0)
        return Error::bad_input(where + ": expected the header kind,tokens,pairs,seconds, got '" +
                                t + "'");
      columns = cells.size();
      continue;
    }
    if (cells.size() != columns)
      return Error::bad_input(where + ": expected " + std::to_string(columns) + " fields, got " +
                              std::to_string(cells.size()));
    CostSample s;
    if (!parse_kind(cells[static_cast<std::size_t>(col_kind)], s.kind))
      return Error::bad_input(where + ": kind '" + cells[static_cast<std::size_t>(col_kind)] +
                              "' is not forward or backward");
    const std::pair<int, double*> nums[] = {
        {col_tokens, &s.tokens}, {col_pairs, &s.pairs}, {col_seconds, &s.seconds}};
    const char* names[] = {"tokens", "pairs", "seconds"};
    for (std::size_t k = 0; k < 3; ++k) {
      const std::string& cell = cells[static_cast<std::size_t>(nums[k].first)];
      if (!parse_double(cell, *nums[k].second))
        return Error::bad_input(where + ": " + names[k] + " '" + cell + "' is not a number");
    }
    if (auto st = check_sample(s, where); !st) return st.error();
    prof.samples.push_back(s);
  }
  if (col_kind < 0) return Error::bad_input(source + ": empty file (no header)");
  if (prof.samples.empty()) return Error::bad_input(source + ": no samples after the header");
  return prof;
}

Expected<CostProfile> parse_cost_profile_json(const std::string& text, const std::string& source) {
  auto parsed = json_util::parse(text);
  if (!parsed) return parsed.error().with_context(source);
  const Json& j = *parsed;
  auto fail = [&](const Error& e) { return e.with_context(source); };
  if (!j.is_object()) return fail(Error::bad_input("$: expected an object"));
  auto format = json_util::get_string(j, "format", "$");
  if (!format) return fail(format.error());
  if (*format != kCostProfileFormat)
    return fail(Error::bad_input("$.format: expected '" + std::string(kCostProfileFormat) +
                                 "', got '" + *format + "'"));
  auto version = json_util::get_int(j, "version", "$");
  if (!version) return fail(version.error());
  if (*version != kCostProfileVersion)
    return fail(Error::bad_input("$.version: unsupported version " + std::to_string(*version)));
  CostProfile prof;
  auto device = json_util::opt_string(j, "device", "$");
  if (!device) return fail(device.error());
  prof.device = device->value_or("");
  auto provenance = json_util::opt_string(j, "provenance", "$");
  if (!provenance) return fail(provenance.error());
  prof.provenance = provenance->value_or(source);
  if (auto it = j.find("samples"); it != j.end()) {
    if (!it->is_array()) return fail(Error::bad_input("$.samples: expected an array"));
    for (std::size_t i = 0; i < it->size(); ++i) {
      const std::string path = "$.samples[" + std::to_string(i) + "]";
      const Json& e = (*it)[i];
      auto kind = json_util::get_string(e, "kind", path);
      if (!kind) return fail(kind.error());
      CostSample s;
      if (!parse_kind(*kind, s.kind))
        return fail(Error::bad_input(path + ".kind: '" + *kind + "' is not forward or backward"));
      const std::pair<const char*, double*> nums[] = {
          {"tokens", &s.tokens}, {"pairs", &s.pairs}, {"seconds", &s.seconds}};
      for (const auto& [key, target] : nums) {
        auto v = json_util::get_number(e, key, path);
        if (!v) return fail(v.error());
        *target = *v;
      }
      if (auto st = check_sample(s, path); !st) return fail(st.error());
      prof.samples.push_back(s);
    }
  }
  if (auto it = j.find("fit"); it != j.end()) {
    if (!it->is_object()) return fail(Error::bad_input("$.fit: expected an object"));
    for (Pass p : {Pass::Forward, Pass::Backward}) {
      auto f = it->find(sample_kind_name(p));
      if (f == it->end()) continue;
      auto fit = read_fit(*f, std::string("$.fit.") + sample_kind_name(p));
      if (!fit) return fail(fit.error());
      (p == Pass::Forward ? prof.forward : prof.backward) = *fit;
    }
  }
  if (prof.samples.empty() && !prof.forward && !prof.backward)
    return fail(Error::bad_input("$: the profile has neither samples nor a fit"));
  return prof;
}

Expected<CostProfile> read_cost_profile(const std::string& path) {
  auto text = json_util::read_file(path);
  if (!text) return text.error();
  const std::string head = trim(text->substr(0, 64));
  if (!head.empty() && head[0] == '{') return parse_cost_profile_json(*text, path);
  return parse_cost_profile_csv(*text, path);
}

std::string profile_to_json(const CostProfile& prof) {
  Json samples = Json::array();
  for (const auto& s : prof.samples)
    samples.push_back({{"kind", sample_kind_name(s.kind)},
                       {"tokens", s.tokens},
                       {"pairs", s.pairs},
                       {"seconds", s.seconds}});
  Json fit = Json::object();
  if (prof.forward) fit["forward"] = fit_json(*prof.forward);
  if (prof.backward) fit["backward"] = fit_json(*prof.backward);
  Json j = {{"format", kCostProfileFormat}, {"version", kCostProfileVersion},
            {"device", prof.device},        {"provenance", prof.provenance},
            {"samples", samples},           {"fit", fit}};
  return j.dump(2) + "\n";
}

Status write_cost_profile(const std::string& path, const CostProfile& profile) {
  return write_output_file(path, profile_to_json(profile));
}

}  // namespace slimpack
