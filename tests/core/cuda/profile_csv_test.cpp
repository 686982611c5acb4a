#include <gtest/gtest.h>

#include "cuda/profile_csv.h"
#include "cuda/profile_options.h"

namespace slimpack::profiling {
namespace {

TEST(ProfileCsv, MedianOfOddAndEvenCounts) {
  EXPECT_DOUBLE_EQ(median({3.0, 1.0, 2.0}), 2.0);
  EXPECT_DOUBLE_EQ(median({4.0, 1.0, 3.0, 2.0}), 2.5);
  EXPECT_DOUBLE_EQ(median({}), 0.0);
}

std::vector<PackMeasurement> synthetic_rows() {
  // Exact linear times: forward 1e-4 + 2e-7 N + 3e-11 A, backward 2e-4 + 4e-7 N + 8e-11 A.
  std::vector<PackMeasurement> rows;
  auto sweep = make_sweep({});
  for (const auto& s : *sweep) {
    const double n = static_cast<double>(pack_tokens(s)), a = pack_pairs(s);
    PackMeasurement m;
    m.shape = s;
    m.forward_s = 1e-4 + 2e-7 * n + 3e-11 * a;
    m.backward_s = 2e-4 + 4e-7 * n + 8e-11 * a;
    m.attn_forward_s = 3e-11 * a;
    m.attn_backward_s = 8e-11 * a;
    rows.push_back(m);
  }
  return rows;
}

TEST(ProfileCsv, CsvIsReadBackByFitCostsParser) {
  PackMeasurement m;
  m.shape = PackShape{"short", {{0, 512}, {0, 512}}};
  m.forward_s = 0.001;
  m.backward_s = 0.0025;
  const std::string csv = samples_csv({m}, "device: Test GPU\nline two");
  EXPECT_EQ(csv.rfind("# device: Test GPU\n# line two\nkind,tokens,pairs,seconds,", 0), 0u);
  EXPECT_NE(csv.find("forward,1024,262656,0.001,0,short:2x512@0\n"), std::string::npos);
  EXPECT_NE(csv.find("backward,1024,262656,0.0025,0,short:2x512@0\n"), std::string::npos);
  auto parsed = parse_cost_profile_csv(csv, "mem.csv");
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  ASSERT_EQ(parsed->samples.size(), 2u);
  EXPECT_EQ(parsed->samples[1].kind, Pass::Backward);
  EXPECT_DOUBLE_EQ(parsed->samples[1].pairs, 262656.0);  // 2 * 512 * 513 / 2
  EXPECT_DOUBLE_EQ(parsed->samples[1].seconds, 0.0025);
}

TEST(ProfileCsv, FitOfTheSweepRecoversExactCoefficients) {
  auto fitted = fit_profile(to_cost_profile(synthetic_rows(), "Test GPU", "unit test"));
  ASSERT_TRUE(fitted.ok()) << fitted.error().message;
  EXPECT_EQ(fitted->device, "Test GPU");
  ASSERT_TRUE(fitted->forward && fitted->backward);
  EXPECT_NEAR(fitted->forward->coeffs.kappa, 1e-4, 1e-9);
  EXPECT_NEAR(fitted->forward->coeffs.alpha, 2e-7, 1e-12);
  EXPECT_NEAR(fitted->forward->coeffs.beta, 3e-11, 1e-16);
  EXPECT_NEAR(fitted->backward->coeffs.beta, 8e-11, 1e-16);
  EXPECT_GT(fitted->backward->r2, 0.999999);
}

TEST(ProfileOptions, ParsesTheDocumentedCommandLine) {
  auto o =
      parse_profile_args({"--model", "llama-3-70b", "--tp", "8", "--out", "s.csv", "--profile-json",
                          "p.json", "--repeats", "7", "--max-tokens", "8192", "--quick"});
  ASSERT_TRUE(o.ok()) << o.error().message;
  EXPECT_EQ(o->model, "llama-3-70b");
  EXPECT_EQ(o->tp, 8);
  EXPECT_EQ(o->out_csv, "s.csv");
  EXPECT_EQ(o->profile_json, "p.json");
  EXPECT_EQ(o->repeats, 7);
  EXPECT_EQ(o->max_tokens, 8192);
  EXPECT_TRUE(o->quick);
}

TEST(ProfileOptions, ErrorsNameTheOption) {
  auto missing = parse_profile_args({"--tp", "2"});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("--out"), std::string::npos);
  auto bad = parse_profile_args({"--out", "x.csv", "--repeats", "abc"});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("--repeats"), std::string::npos);
  auto range = parse_profile_args({"--out", "x.csv", "--max-tokens", "100"});
  ASSERT_FALSE(range.ok());
  EXPECT_NE(range.error().message.find("--max-tokens"), std::string::npos);
  EXPECT_FALSE(parse_profile_args({"--out", "x.csv", "--bogus", "1"}).ok());
  EXPECT_TRUE(parse_profile_args({"--help"}).ok());
}

}  // namespace
}  // namespace slimpack::profiling
