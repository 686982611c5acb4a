// Parametric length presets. Each is a mixture drawn with the portable generator of rng.h and
// rounded and clamped to [1, max], so a (preset, seed, count) triple names one pool everywhere.
#include <algorithm>
#include <cmath>
#include <utility>

#include "workload/length_values.h"
#include "workload/lengths.h"
#include "workload/rng.h"

namespace slimpack {
namespace {

using workload::Rng;

struct Preset {
  const char* name;
  const char* description;
  Tokens max;
  double (*draw)(Rng&);
};

// Chat SFT (ShareGPT-like): log-normal body with median 640 and sigma 0.7 (about 0.4% above 4K),
// plus 0.5% long conversations log-uniform in 4K-32K: about 99.1% of samples are under 4K.
double draw_chat_sft(Rng& rng) {
  if (rng.uniform() < 0.005) return rng.log_uniform(4096, 32768);
  return rng.log_normal(640, 0.7);
}

// LongAlign-like long-context SFT: 65% short chat (log-normal, median 1.8K, kept under 8K by
// redrawing), 28% a flat band 8K-64K of long documents, 7% log-uniform tail 64K-128K.
double draw_long_sft_128k(Rng& rng) {
  const double u = rng.uniform();
  if (u < 0.65) {
    // P(draw > 8K) is about 5%, so 64 redraws fail with probability ~1e-84; the clamp after it
    // only keeps the loop bounded.
    double x = 0;
    for (int i = 0; i < 64; ++i) {
      x = rng.log_normal(1800, 0.9);
      if (x <= 8192) return x;
    }
    return 8192;
  }
  if (u < 0.93) return rng.uniform(8192, 65536);
  return rng.log_uniform(65536, 131072);
}

// Mostly short with a heavy tail: log-normal body (median 768, sigma 0.6, about 0.3% above 4K) and
// 0.6% truncated Pareto (alpha 1) from 4K to 256K: about 99.1% under 4K, rare samples near 256K.
double draw_long_tail_256k(Rng& rng) {
  if (rng.uniform() < 0.006) return rng.truncated_pareto(4096, 262144, 1.0);
  return rng.log_normal(768, 0.6);
}

// Long-context pretraining/SFT mix with a real 256K tail (the paper's 256K setting): log-normal
// body (median 1.5K, sigma 1.0, redrawn above 32K) and 2% log-uniform on [32K, 256K]. About half
// of all tokens sit in samples over 32K, and a 1M-token batch holds samples close to 256K.
double draw_long_256k(Rng& rng) {
  if (rng.uniform() < 0.02) return rng.log_uniform(32768, 262144);
  // P(draw > 32K) is about 0.1%, so 64 redraws fail with probability ~1e-190.
  double x = 0;
  for (int i = 0; i < 64; ++i) {
    x = rng.log_normal(1536, 1.0);
    if (x <= 32768) return x;
  }
  return 32768;
}

double draw_uniform(Rng&) {
  return 4096;
}

constexpr Preset kPresets[] = {
    {"chat-sft", "chat SFT: log-normal body (median 640), 99% under 4K, rare long tail to 32K",
     32768, draw_chat_sft},
    {"long-sft-128k", "LongAlign-like mix: 65% under 8K, 28% flat 8K-64K, 7% tail to 128K", 131072,
     draw_long_sft_128k},
    {"short-heavy-tail",
     "99% under 4K (log-normal, median 768), rare Pareto tail 4K-256K: a 1M-token batch seldom "
     "holds a sample over 100K",
     262144, draw_long_tail_256k},
    {"long-256k", "log-normal body (median 1.5K) + 2% log-uniform tail 32K-256K", 262144,
     draw_long_256k},
    {"uniform", "every sequence 4096 tokens", 4096, draw_uniform},
};

// Old names still accepted (sessions, scripts): `long-tail-256k` promised 256K-token samples that
// its batches seldom hold, so it was renamed after its content.
constexpr std::pair<const char*, const char*> kAliases[] = {{"long-tail-256k", "short-heavy-tail"}};

const Preset* find_preset(const std::string& name) {
  for (const Preset& p : kPresets)
    if (name == p.name) return &p;
  for (const auto& [alias, target] : kAliases)
    if (name == alias) return find_preset(target);
  return nullptr;
}

std::string known_names() {
  std::string out;
  for (const Preset& p : kPresets) out += (out.empty() ? "" : ", ") + std::string(p.name);
  return out;
}

}  // namespace

std::vector<std::string> length_preset_names() {
  std::vector<std::string> names;
  for (const Preset& p : kPresets) names.emplace_back(p.name);
  return names;
}

std::string length_preset_description(const std::string& name) {
  const Preset* p = find_preset(name);
  return p ? p->description : std::string();
}

Expected<LengthPool> preset_pool(const std::string& name, std::uint64_t seed, std::int64_t count) {
  const Preset* p = find_preset(name);
  if (!p)
    return Error::bad_input("unknown length preset \"" + name +
                            "\"; known presets: " + known_names());
  if (count <= 0)
    return Error::bad_input("preset " + name + ": sample count " + std::to_string(count) +
                            " must be positive");
  if (count > workload::kMaxPoolSequences)
    return Error::bad_input("preset " + name + ": sample count " + std::to_string(count) +
                            " exceeds the maximum " + std::to_string(workload::kMaxPoolSequences));
  Rng rng(seed);
  LengthPool pool{"preset:" + name, {}};  // an alias keeps the name it was asked by
  pool.lengths.reserve(static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < count; ++i) {
    const double x = std::round(p->draw(rng));
    pool.lengths.push_back(
        std::clamp(static_cast<Tokens>(std::min(x, double(p->max))), Tokens{1}, p->max));
  }
  return pool;
}

}  // namespace slimpack
