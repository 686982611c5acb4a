#include <gtest/gtest.h>

#include <random>

#include "cost/profile.h"

namespace slimpack {
namespace {

// Packs of whole sequences and slices at offsets, so tokens and pairs vary independently.
std::vector<CostSample> synthetic(Pass kind, PassCoeffs truth, double noise, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> jitter(-noise, noise);
  std::vector<CostSample> out;
  for (double tokens : {1024.0, 2048.0, 4096.0, 8192.0, 16384.0}) {
    for (double offset : {0.0, 16384.0, 65536.0}) {
      const double pairs = tokens * offset + tokens * (tokens + 1.0) / 2.0;
      const double exact = truth.kappa + truth.alpha * tokens + truth.beta * pairs;
      out.push_back({kind, tokens, pairs, exact * (1.0 + jitter(rng))});
    }
  }
  return out;
}

TEST(Fit, RecoversExactCoefficients) {
  const PassCoeffs truth{60e-6, 7.9e-7, 3.6e-11};
  auto fit = fit_pass(synthetic(Pass::Forward, truth, 0.0, 1));
  ASSERT_TRUE(fit.ok()) << fit.error().message;
  EXPECT_NEAR(fit->coeffs.kappa / truth.kappa, 1.0, 1e-6);
  EXPECT_NEAR(fit->coeffs.alpha / truth.alpha, 1.0, 1e-9);
  EXPECT_NEAR(fit->coeffs.beta / truth.beta, 1.0, 1e-9);
  EXPECT_NEAR(fit->r2, 1.0, 1e-12);
  EXPECT_EQ(fit->samples, 15);
}

TEST(Fit, NoisyDataWithinTolerance) {
  const PassCoeffs truth{110e-6, 1.6e-6, 9.5e-11};
  auto fit = fit_pass(synthetic(Pass::Backward, truth, 0.03, 7));
  ASSERT_TRUE(fit.ok()) << fit.error().message;
  EXPECT_NEAR(fit->coeffs.alpha / truth.alpha, 1.0, 0.05);
  EXPECT_NEAR(fit->coeffs.beta / truth.beta, 1.0, 0.05);
  EXPECT_GE(fit->coeffs.kappa, 0.0);
  EXPECT_LT(fit->coeffs.kappa, 5.0 * truth.kappa);
  EXPECT_GT(fit->r2, 0.99);
  EXPECT_LT(fit->r2, 1.0);
}

TEST(Fit, NegativeCoefficientIsFixedAtZero) {
  // A negative intercept in the data would give kappa < 0; it must come out as 0 with the other
  // two refitted.
  std::vector<CostSample> s;
  for (const auto& e : synthetic(Pass::Forward, {-2e-4, 8e-7, 3e-11}, 0.0, 1)) s.push_back(e);
  auto fit = fit_pass(s);
  ASSERT_TRUE(fit.ok()) << fit.error().message;
  EXPECT_EQ(fit->coeffs.kappa, 0.0);
  EXPECT_GT(fit->coeffs.alpha, 0.0);
  EXPECT_GT(fit->coeffs.beta, 0.0);
  EXPECT_LT(fit->r2, 1.0);
}

TEST(Fit, OneTokenCountFixesKappaAtZero) {
  // Every pack padded to 4096 rows (torch's runtime): the pairs vary, the tokens do not. kappa
  // cannot be separated from alpha; it is folded into alpha at that count and beta is exact.
  const PassCoeffs truth{60e-6, 7.9e-7, 3.6e-11};
  std::vector<CostSample> s;
  for (double pairs : {1.0e6, 3.0e6, 5.0e6, 8.4e6})
    s.push_back(
        {Pass::Forward, 4096, pairs, truth.kappa + truth.alpha * 4096 + truth.beta * pairs});
  auto fit = fit_pass(s);
  ASSERT_TRUE(fit.ok()) << fit.error().message;
  EXPECT_EQ(fit->coeffs.kappa, 0.0);
  EXPECT_NEAR(fit->coeffs.alpha, truth.alpha + truth.kappa / 4096, 1e-15);
  EXPECT_NEAR(fit->coeffs.beta / truth.beta, 1.0, 1e-9);
}

TEST(Fit, NeedsEnoughVariedSamples) {
  auto few = fit_pass({{Pass::Forward, 1024, 524800, 1e-3}, {Pass::Forward, 2048, 2e6, 2e-3}});
  ASSERT_FALSE(few.ok());
  EXPECT_NE(few.error().message.find("at least 3"), std::string::npos);
  const CostSample same{Pass::Forward, 1024, 524800, 1e-3};
  auto flat = fit_pass({same, same, same, same});
  ASSERT_FALSE(flat.ok());
  EXPECT_NE(flat.error().message.find("do not determine"), std::string::npos);
}

TEST(Profile, CsvRoundTripThroughJson) {
  const std::string csv =
      "# per-layer times\n"
      "kind,tokens,pairs,seconds\n"
      "forward,1024,524800,0.001\n"
      "backward, 1024, 524800, 0.0025\r\n"
      "\n"
      "forward,2048,2098176,0.0021\n";
  auto prof = parse_cost_profile_csv(csv, "m.csv");
  ASSERT_TRUE(prof.ok()) << prof.error().message;
  ASSERT_EQ(prof->samples.size(), 3u);
  EXPECT_EQ(prof->samples[1].kind, Pass::Backward);
  EXPECT_DOUBLE_EQ(prof->samples[1].seconds, 0.0025);
  EXPECT_EQ(samples_of(prof->samples, Pass::Forward).size(), 2u);

  prof->device = "test gpu";
  prof->forward = PassFit{{1e-5, 2e-7, 3e-11}, 0.999, 2};
  auto back = parse_cost_profile_json(profile_to_json(*prof), "p.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->device, "test gpu");
  EXPECT_EQ(back->samples.size(), 3u);
  ASSERT_TRUE(back->forward.has_value());
  EXPECT_DOUBLE_EQ(back->forward->coeffs.beta, 3e-11);
  EXPECT_FALSE(back->backward.has_value());
}

TEST(Profile, BadInputNamesFileAndLine) {
  auto bad = parse_cost_profile_csv(
      "kind,tokens,pairs,seconds\nforward,1,1,1\nforward,1024,abc,1\n", "m.csv");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("m.csv:3: pairs 'abc' is not a number"), std::string::npos)
      << bad.error().message;
  auto kind = parse_cost_profile_csv("kind,tokens,pairs,seconds\nsideways,1,1,1\n", "m.csv");
  ASSERT_FALSE(kind.ok());
  EXPECT_NE(kind.error().message.find("m.csv:2"), std::string::npos);
  auto header = parse_cost_profile_csv("tokens,seconds\n1,2\n", "m.csv");
  ASSERT_FALSE(header.ok());
  EXPECT_NE(header.error().message.find("m.csv:1: expected the header"), std::string::npos);
  auto neg = parse_cost_profile_csv("kind,tokens,pairs,seconds\nforward,10,10,-1\n", "m.csv");
  ASSERT_FALSE(neg.ok());
  EXPECT_NE(neg.error().message.find("m.csv:2: seconds"), std::string::npos);
  auto json = parse_cost_profile_json(
      R"({"format": "slimpack-cost-profile", "version": 1,
          "samples": [{"kind": "forward", "tokens": 1, "pairs": 1}]})",
      "p.json");
  ASSERT_FALSE(json.ok());
  EXPECT_NE(json.error().message.find("p.json: $.samples[0].seconds"), std::string::npos)
      << json.error().message;
  auto format = parse_cost_profile_json(R"({"format": "slimpack-plan", "version": 1})", "p.json");
  ASSERT_FALSE(format.ok());
  EXPECT_NE(format.error().message.find("$.format"), std::string::npos);
}

TEST(Profile, FitProfileAndCoefficients) {
  CostProfile prof;
  prof.device = "synthetic";
  prof.samples = synthetic(Pass::Forward, {50e-6, 8e-7, 3.5e-11}, 0.0, 3);
  for (const auto& s : synthetic(Pass::Backward, {100e-6, 1.6e-6, 9e-11}, 0.0, 4))
    prof.samples.push_back(s);
  auto fitted = fit_profile(prof);
  ASSERT_TRUE(fitted.ok()) << fitted.error().message;
  ASSERT_TRUE(fitted->forward && fitted->backward);
  EXPECT_NEAR(fitted->backward->coeffs.beta / 9e-11, 1.0, 1e-9);

  CostCoeffs fallback;
  fallback.forward = {1, 1, 1};
  fallback.backward = {2, 2, 2};
  fallback.head_forward_per_token = 4e-9;
  fallback.head_backward_per_token = 8e-9;
  const CostCoeffs c = coeffs_from_profile(*fitted, fallback);
  EXPECT_NEAR(c.forward.alpha / 8e-7, 1.0, 1e-9);
  EXPECT_NEAR(c.backward.kappa / 100e-6, 1.0, 1e-6);
  EXPECT_DOUBLE_EQ(c.head_forward_per_token, 4e-9);
  EXPECT_DOUBLE_EQ(c.head_backward_per_token, 8e-9);
  EXPECT_EQ(c.provenance, "profile: synthetic");

  CostProfile only_two;
  only_two.samples = {{Pass::Backward, 1, 1, 1}, {Pass::Backward, 2, 3, 2}};
  auto err = fit_profile(only_two);
  ASSERT_FALSE(err.ok());
  EXPECT_NE(err.error().message.find("backward samples"), std::string::npos);
}

TEST(Profile, SampleFilesAgree) {
  const std::string dir = std::string(SLIMPACK_SAMPLES_DIR) + "/costs/";
  auto measured = read_cost_profile(dir + "h100-llama-3-8b-layer.csv");
  ASSERT_TRUE(measured.ok()) << measured.error().message;
  EXPECT_GE(measured->samples.size(), 20u);
  auto fitted = fit_profile(*measured);
  ASSERT_TRUE(fitted.ok()) << fitted.error().message;
  auto stored = read_cost_profile(dir + "h100-llama-3-8b.profile.json");
  ASSERT_TRUE(stored.ok()) << stored.error().message;
  ASSERT_TRUE(stored->forward && stored->backward);
  for (auto [mine, theirs] : {std::pair{*fitted->forward, *stored->forward},
                              std::pair{*fitted->backward, *stored->backward}}) {
    EXPECT_GT(mine.r2, 0.99);
    EXPECT_NEAR(mine.coeffs.alpha / theirs.coeffs.alpha, 1.0, 1e-6);
    EXPECT_NEAR(mine.coeffs.beta / theirs.coeffs.beta, 1.0, 1e-6);
    EXPECT_NEAR(mine.coeffs.kappa, theirs.coeffs.kappa, 1e-9);
  }
  // The measured backward/forward attention cost ratio lies in the 2.1x-3.0x band of docs/design.md
  // section 3.
  const double ratio = stored->backward->coeffs.beta / stored->forward->coeffs.beta;
  EXPECT_GT(ratio, 2.1);
  EXPECT_LT(ratio, 3.0);
}

}  // namespace
}  // namespace slimpack
