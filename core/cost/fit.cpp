// Least-squares fit of per-layer pass times: seconds = kappa + alpha tokens + beta pairs.
#include <Eigen/Dense>

#include <array>
#include <cmath>

#include "cost/profile.h"

namespace slimpack {
namespace {

constexpr std::array<const char*, 3> kCoeffNames = {"kappa", "alpha", "beta"};

double feature(const CostSample& s, int k) {
  return k == 0 ? 1.0 : k == 1 ? s.tokens : s.pairs;
}

}  // namespace

std::vector<CostSample> samples_of(const std::vector<CostSample>& samples, Pass kind) {
  std::vector<CostSample> out;
  for (const auto& s : samples)
    if (s.kind == kind) out.push_back(s);
  return out;
}

Expected<PassFit> fit_pass(const std::vector<CostSample>& samples) {
  const int n = static_cast<int>(samples.size());
  if (n < kMinFitSamples)
    return Error::bad_input("fitting needs at least " + std::to_string(kMinFitSamples) +
                            " samples of a pass, got " + std::to_string(n));
  for (const auto& s : samples)
    if (!(s.seconds > 0.0) || !(s.tokens >= 0.0) || !(s.pairs >= 0.0))
      return Error::bad_input("fitting needs positive seconds and non-negative tokens and pairs");

  // Rows are weighted by 1/seconds, so the fit minimises relative error: packs span three orders of
  // magnitude and the small ones are the only ones that pin down kappa.
  std::array<bool, 3> active = {true, true, true};
  Eigen::Vector3d coef = Eigen::Vector3d::Zero();
  bool one_token_count = true;
  for (const auto& s : samples) one_token_count = one_token_count && s.tokens == samples[0].tokens;
  for (int round = 0; round < 4; ++round) {
    std::array<int, 3> cols{};
    int m = 0;
    for (int k = 0; k < 3; ++k)
      if (active[static_cast<std::size_t>(k)]) cols[static_cast<std::size_t>(m++)] = k;
    Eigen::MatrixXd x(n, m);
    Eigen::VectorXd y(n);
    for (int i = 0; i < n; ++i) {
      const CostSample& s = samples[static_cast<std::size_t>(i)];
      const double w = 1.0 / s.seconds;
      y(i) = 1.0;  // seconds * w
      for (int c = 0; c < m; ++c) x(i, c) = w * feature(s, cols[static_cast<std::size_t>(c)]);
    }
    // Unit-norm columns: tokens (~1e4) and pairs (~1e8) differ by orders of magnitude, which would
    // otherwise make the pivoting and the rank decision meaningless.
    Eigen::VectorXd scale = x.colwise().norm().transpose();
    for (int c = 0; c < m; ++c) {
      if (scale(c) == 0.0)
        return Error::bad_input(
            std::string("the samples do not determine ") +
            kCoeffNames[static_cast<std::size_t>(cols[static_cast<std::size_t>(c)])] +
            ": its feature is zero in every sample");
      x.col(c) /= scale(c);
    }
    Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(x);
    qr.setThreshold(1e-10);
    // Samples of one token count (a run of torch's pipeline runtime pads every micro-batch to one
    // shape) cannot tell the per-layer constant from the per-token term: kappa is fixed at zero,
    // folded into alpha at that count, and alpha and beta are fitted.
    if (qr.rank() < m && active[0] && one_token_count && m == 3) {
      active[0] = false;
      continue;
    }
    if (qr.rank() < m)
      return Error::bad_input(
          "the samples do not determine kappa, alpha and beta separately: vary the pack token "
          "counts and their attention pairs independently");
    const Eigen::VectorXd sol = qr.solve(y);
    coef.setZero();
    int worst = -1;
    double worst_value = 0.0;
    for (int c = 0; c < m; ++c) {
      const int k = cols[static_cast<std::size_t>(c)];
      coef(k) = sol(c) / scale(c);
      // Compare in the scaled space, where every coefficient contributes on the same footing.
      if (sol(c) < worst_value) {
        worst_value = sol(c);
        worst = k;
      }
    }
    if (worst < 0) break;
    // A negative time coefficient has no physical meaning: fix it at zero and refit the rest.
    active[static_cast<std::size_t>(worst)] = false;
    coef(worst) = 0.0;
  }

  PassFit fit;
  fit.coeffs = {coef(0), coef(1), coef(2)};
  fit.samples = n;
  double mean = 0.0;
  for (const auto& s : samples) mean += s.seconds;
  mean /= n;
  double ss_res = 0.0, ss_tot = 0.0;
  for (const auto& s : samples) {
    const double pred = coef(0) + coef(1) * s.tokens + coef(2) * s.pairs;
    ss_res += (s.seconds - pred) * (s.seconds - pred);
    ss_tot += (s.seconds - mean) * (s.seconds - mean);
  }
  fit.r2 = ss_tot > 0.0 ? 1.0 - ss_res / ss_tot : (ss_res == 0.0 ? 1.0 : 0.0);
  return fit;
}

Expected<CostProfile> fit_profile(CostProfile profile) {
  bool fitted_any = false;
  for (Pass p : {Pass::Forward, Pass::Backward}) {
    const auto mine = samples_of(profile.samples, p);
    if (mine.empty()) continue;
    auto fit = fit_pass(mine);
    if (!fit) return fit.error().with_context(std::string(sample_kind_name(p)) + " samples");
    (p == Pass::Forward ? profile.forward : profile.backward) = *fit;
    fitted_any = true;
  }
  if (!fitted_any && !profile.forward && !profile.backward)
    return Error::bad_input("the profile has no samples to fit");
  return profile;
}

CostCoeffs coeffs_from_profile(const CostProfile& profile, const CostCoeffs& fallback) {
  CostCoeffs c = fallback;
  if (profile.forward) c.forward = profile.forward->coeffs;
  if (profile.backward) c.backward = profile.backward->coeffs;
  if (profile.forward || profile.backward) {
    const std::string& name = profile.device.empty() ? profile.provenance : profile.device;
    c.provenance = "profile: " + name;
  }
  return c;
}

}  // namespace slimpack
