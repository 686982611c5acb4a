#include "workload/rng.h"

#include <cmath>
#include <numbers>

namespace slimpack::workload {
namespace {

std::uint64_t rotl(std::uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}

}  // namespace

std::uint64_t SplitMix64::next() {
  std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

Rng::Rng(std::uint64_t seed) {
  SplitMix64 sm(seed);
  for (auto& s : s_) s = sm.next();
}

std::uint64_t Rng::next() {
  const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const std::uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

double Rng::uniform() {
  return static_cast<double>(next() >> 11) * 0x1.0p-53;
}

double Rng::uniform_open() {
  return (static_cast<double>(next() >> 11) + 0.5) * 0x1.0p-53;
}

std::uint64_t Rng::below(std::uint64_t n) {
  // Reject the low values that would make some residues one draw more likely than others.
  const std::uint64_t threshold = (0 - n) % n;
  for (;;) {
    const std::uint64_t r = next();
    if (r >= threshold) return r % n;
  }
}

double Rng::normal() {
  const double u1 = uniform_open();
  const double u2 = uniform();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

double Rng::log_normal(double median, double sigma) {
  return median * std::exp(sigma * normal());
}

double Rng::log_uniform(double lo, double hi) {
  return lo * std::exp(uniform() * std::log(hi / lo));
}

double Rng::truncated_pareto(double lo, double hi, double alpha) {
  // CDF F(x) = (1 - (lo/x)^a) / (1 - (lo/hi)^a) on [lo, hi]; solved for x.
  const double tail = 1.0 - std::pow(lo / hi, alpha);
  return lo / std::pow(1.0 - uniform() * tail, 1.0 / alpha);
}

}  // namespace slimpack::workload
