#pragma once
// Cost profiles (docs/design.md sections 3 and 9, `fit-costs`): measured per-layer times of packs,
// and the (kappa, alpha, beta) of each pass fitted to them by least squares.
//
// Profile JSON:
//   { "format": "slimpack-cost-profile", "version": 1, "device": "NVIDIA H100 80GB HBM3",
//     "provenance": "...", "samples": [ {"kind": "forward", "tokens": 8192, "pairs": 3.4e7,
//     "seconds": 0.0071}, ... ],
//     "fit": { "forward": {"kappa": .., "alpha": .., "beta": .., "r2": .., "samples": 10}, ... } }
// Measured CSV: header `kind,tokens,pairs,seconds` (any column order, extra columns ignored),
// `kind` = forward/backward, `seconds` = time of one layer for one pack; '#' lines are comments.
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "cost/cost_model.h"
#include "plan/plan.h"

namespace slimpack {

struct CostSample {
  Pass kind = Pass::Forward;
  double tokens = 0.0;
  double pairs = 0.0;
  double seconds = 0.0;  // one layer, one pack
};

struct PassFit {
  PassCoeffs coeffs;
  double r2 = 0.0;  // coefficient of determination of the fit on its samples
  int samples = 0;
};

struct CostProfile {
  std::string device;
  std::string provenance;
  std::vector<CostSample> samples;
  std::optional<PassFit> forward;
  std::optional<PassFit> backward;
};

inline constexpr const char* kCostProfileFormat = "slimpack-cost-profile";
inline constexpr int kCostProfileVersion = 1;
// Fewest samples of one pass that determine three coefficients.
inline constexpr int kMinFitSamples = 3;

const char* sample_kind_name(Pass p);  // "forward" / "backward"

// Reads a profile JSON, or a CSV when the file does not start with '{'. Errors name the file and
// the line (CSV) or JSON path.
Expected<CostProfile> read_cost_profile(const std::string& path);
Expected<CostProfile> parse_cost_profile_csv(const std::string& text, const std::string& source);
Expected<CostProfile> parse_cost_profile_json(const std::string& text, const std::string& source);

// The samples of one pass.
std::vector<CostSample> samples_of(const std::vector<CostSample>& samples, Pass kind);

// Least-squares fit of seconds = kappa + alpha tokens + beta pairs to the given samples (the caller
// passes the samples of one pass). Coefficients are non-negative: one that comes out negative is
// fixed at 0 and the rest refitted. Needs at least kMinFitSamples samples that vary enough to tell
// the coefficients apart.
Expected<PassFit> fit_pass(const std::vector<CostSample>& samples);
// Fits every pass that has samples (a pass without samples keeps the fit it had).
Expected<CostProfile> fit_profile(CostProfile profile);

std::string profile_to_json(const CostProfile& profile);
Status write_cost_profile(const std::string& path, const CostProfile& profile);

// Per-layer forward/backward coefficients from the profile's fits; passes without a fit and the
// LM-head terms keep `fallback`'s values.
CostCoeffs coeffs_from_profile(const CostProfile& profile, const CostCoeffs& fallback);

}  // namespace slimpack
