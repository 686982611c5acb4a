// Property test: random batches sliced with random S, random legal plans built the way a solver
// would (forward packs in slice order, backward packs in reverse order, readiness respected) are
// accepted by the legality checker; targeted mutations are rejected with the rule they break.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "plan/legality.h"
#include "plan/plan_json.h"
#include "plan/schedule_order.h"
#include "slicer/slicer.h"

namespace slimpack {
namespace {

struct Entry {
  std::size_t slice = 0;  // index into the slice list
  int pack = 0;
};

struct RandomPlan {
  Plan base;  // sequences, stages, schedule, w; no packs yet
  std::vector<Slice> slices;
  std::vector<Entry> forward, backward;
  int mf = 0, mb = 0;

  Plan build() const {
    Plan p = base;
    ReplicaPlan rp;
    rp.forward.resize(static_cast<std::size_t>(mf));
    rp.backward.resize(static_cast<std::size_t>(mb));
    for (const auto& e : forward)
      rp.forward[static_cast<std::size_t>(e.pack)].segments.push_back(slices[e.slice].segment());
    for (const auto& e : backward)
      rp.backward[static_cast<std::size_t>(e.pack)].segments.push_back(slices[e.slice].segment());
    for (auto* list : {&rp.forward, &rp.backward})
      for (auto& pk : *list) normalize_segments(pk.segments);
    p.replicas = {std::move(rp)};
    return p;
  }
  // Entries of one pass, per sequence, in slice order.
  std::vector<std::vector<std::size_t>> by_seq(const std::vector<Entry>& pass) const {
    std::vector<std::vector<std::size_t>> out(base.sequences.size());
    for (std::size_t i = 0; i < pass.size(); ++i)
      out[static_cast<std::size_t>(slices[pass[i].slice].seq)].push_back(i);
    return out;
  }
};

class Generator {
 public:
  explicit Generator(std::uint64_t seed) : rng_(seed) {}
  int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }

  RandomPlan next() {
    RandomPlan r;
    r.base.stages = uniform(1, 6);
    r.base.schedule = uniform(0, 9) < 7 ? ScheduleKind::OneFOneB : ScheduleKind::GPipe;
    r.base.warmup_extra = uniform(0, 2);
    const int n = uniform(1, 10);
    for (int i = 0; i < n; ++i) {
      const Tokens len = uniform(0, 9) < 3 ? uniform(4096, 40000) : uniform(1, 4096);
      r.base.sequences.push_back({"q" + std::to_string(i), len});
    }
    const Tokens choices[] = {0, 1000, 2048, 4096, 8192};
    r.base.slice_size = choices[uniform(0, 4)];
    r.slices = slice_batch(r.base.sequences, r.base.slice_size);
    r.mf = uniform(1, 8);
    // Forward: each sequence's slices at non-decreasing pack indices (L1).
    std::vector<int> last_forward(r.base.sequences.size());
    std::size_t at = 0;
    while (at < r.slices.size()) {
      const std::int32_t k = r.slices[at].count;
      std::vector<int> packs = draw(k, 0, r.mf - 1);
      std::sort(packs.begin(), packs.end());
      for (int j = 0; j < k; ++j) r.forward.push_back({at + static_cast<std::size_t>(j), packs[j]});
      last_forward[static_cast<std::size_t>(r.slices[at].seq)] = packs.back();
      at += static_cast<std::size_t>(k);
    }
    // Backward: the first backward pack of a sequence b must satisfy lastF < w + b + 1 (L3).
    std::vector<int> earliest(last_forward.size(), 0);
    int need = 1;
    for (std::size_t q = 0; q < earliest.size(); ++q) {
      if (r.base.schedule != ScheduleKind::GPipe)
        earliest[q] = std::max(0, last_forward[q] - r.base.warmup_extra);
      need = std::max(need, earliest[q] + 1);
    }
    r.mb = std::max(uniform(1, 8), need);
    at = 0;
    while (at < r.slices.size()) {
      const std::int32_t k = r.slices[at].count;
      const auto q = static_cast<std::size_t>(r.slices[at].seq);
      std::vector<int> packs = draw(k, earliest[q], r.mb - 1);
      std::sort(packs.rbegin(), packs.rend());  // lower slices in later packs (L2)
      for (int j = 0; j < k; ++j)
        r.backward.push_back({at + static_cast<std::size_t>(j), packs[j]});
      at += static_cast<std::size_t>(k);
    }
    return r;
  }

 private:
  std::vector<int> draw(int k, int lo, int hi) {
    std::vector<int> v(static_cast<std::size_t>(k));
    for (auto& x : v) x = uniform(lo, hi);
    return v;
  }
  std::mt19937_64 rng_;
};

bool only_rule(const LegalityReport& r, Rule rule) {
  return !r.legal() && std::all_of(r.violations.begin(), r.violations.end(),
                                   [&](const Violation& v) { return v.rule == rule; });
}

bool has_structure(const LegalityReport& r, const std::string& text) {
  return std::any_of(r.violations.begin(), r.violations.end(), [&](const Violation& v) {
    return v.rule == Rule::Structure && v.message.find(text) != std::string::npos;
  });
}

TEST(RandomPlans, LegalByConstructionAndMutationsAreCaught) {
  Generator gen(20250926);
  int l1 = 0, l2 = 0, l3 = 0, drops = 0, dups = 0;
  for (int trial = 0; trial < 400; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    const RandomPlan r = gen.next();
    const Plan plan = r.build();
    const auto report = check_legality(plan);
    ASSERT_TRUE(report.legal()) << report.summary();
    // The JSON form of a legal plan reads back to the same (legal) plan.
    auto back = plan_from_json(plan_to_json(plan));
    ASSERT_TRUE(back.ok()) << back.error().message;
    ASSERT_EQ(plan_to_json(*back), plan_to_json(plan));

    const auto fwd_seq = r.by_seq(r.forward);
    const auto bwd_seq = r.by_seq(r.backward);
    for (std::size_t q = 0; q < fwd_seq.size(); ++q) {
      const auto& f = fwd_seq[q];
      const auto& b = bwd_seq[q];
      // L1: swap the forward packs of a lower and a higher slice that sit in different packs.
      for (std::size_t i = 0; i + 1 < f.size(); ++i) {
        if (r.forward[f[i]].pack == r.forward[f.back()].pack) continue;
        RandomPlan m = r;
        std::swap(m.forward[f[i]].pack, m.forward[f.back()].pack);
        EXPECT_TRUE(only_rule(check_legality(m.build()), Rule::L1))
            << check_legality(m.build()).summary();
        ++l1;
        break;
      }
      // L2: the same in backward.
      for (std::size_t i = 0; i + 1 < b.size(); ++i) {
        if (r.backward[b[i]].pack == r.backward[b.back()].pack) continue;
        RandomPlan m = r;
        std::swap(m.backward[b[i]].pack, m.backward[b.back()].pack);
        EXPECT_TRUE(only_rule(check_legality(m.build()), Rule::L2))
            << check_legality(m.build()).summary();
        ++l2;
        break;
      }
      // L3: move the last forward slice to the last forward pack when that is after the point
      // where the sequence's first backward pack may start.
      if (plan.schedule == ScheduleKind::OneFOneB) {
        const int first_b = r.backward[b.back()].pack;
        if (r.mf - 1 >= forwards_before_backward(plan.schedule, r.mf, first_b, plan.warmup_extra)) {
          RandomPlan m = r;
          m.forward[f.back()].pack = r.mf - 1;
          EXPECT_TRUE(only_rule(check_legality(m.build()), Rule::L3))
              << check_legality(m.build()).summary();
          ++l3;
        }
      }
    }
    // Drop one slice from one pass: its tokens are in no pack of that pass.
    {
      RandomPlan m = r;
      auto& pass = gen.uniform(0, 1) == 0 ? m.forward : m.backward;
      pass.erase(pass.begin() + gen.uniform(0, static_cast<int>(pass.size()) - 1));
      const auto rep = check_legality(m.build());
      EXPECT_TRUE(has_structure(rep, "are in no")) << rep.summary();
      ++drops;
    }
    // Duplicate one slice into a random pack of the same pass: its tokens are in two packs.
    {
      RandomPlan m = r;
      const bool forward = gen.uniform(0, 1) == 0;
      auto& pass = forward ? m.forward : m.backward;
      Entry e = pass[static_cast<std::size_t>(gen.uniform(0, static_cast<int>(pass.size()) - 1))];
      e.pack = gen.uniform(0, (forward ? m.mf : m.mb) - 1);
      pass.push_back(e);
      const auto rep = check_legality(m.build());
      EXPECT_TRUE(has_structure(rep, "each token must be in exactly one")) << rep.summary();
      ++dups;
    }
  }
  // The mutations really ran (the generator produces enough sliced sequences).
  EXPECT_GT(l1, 50);
  EXPECT_GT(l2, 50);
  EXPECT_GT(l3, 20);
  EXPECT_EQ(drops, 400);
  EXPECT_EQ(dups, 400);
}

}  // namespace
}  // namespace slimpack
