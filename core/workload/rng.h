#pragma once
// A small seeded random generator with its own distributions, so that presets and sampled batches
// are the same on every platform and standard library (std::*_distribution output is
// implementation-defined). Only IEEE-754 arithmetic plus std::log/std::exp/std::cos/std::sqrt
// is used, and every draw is rounded to whole tokens.
#include <cstdint>

namespace slimpack::workload {

// SplitMix64 (Steele, Lea, Flood 2014): expands a 64-bit seed into a well-mixed state.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();

 private:
  std::uint64_t state_;
};

// xoshiro256** (Blackman, Vigna 2018) seeded through SplitMix64 as its authors recommend.
class Rng {
 public:
  explicit Rng(std::uint64_t seed);

  std::uint64_t next();
  // Uniform in [0, 1) with 53 random bits.
  double uniform();
  // Uniform in (0, 1): never 0, so it is safe to take its logarithm.
  double uniform_open();
  // Uniform in [lo, hi).
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  // Uniform integer in [0, n) without modulo bias; n must be > 0.
  std::uint64_t below(std::uint64_t n);
  // Standard normal by Box-Muller (one value per two uniforms; no cached state).
  double normal();
  // exp(N(log(median), sigma^2)).
  double log_normal(double median, double sigma);
  // Log-uniform in [lo, hi): equal mass per octave.
  double log_uniform(double lo, double hi);
  // Pareto with shape alpha on [lo, hi], truncated at hi, by inverse CDF.
  double truncated_pareto(double lo, double hi, double alpha);

 private:
  std::uint64_t s_[4];
};

}  // namespace slimpack::workload
