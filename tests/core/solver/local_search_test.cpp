// Phase-2 local search on hand-built layouts: a long sequence's boundary slice moves out of the
// heaviest pack into the adjacent pack holding its neighbouring slice, only when that lowers the
// pass's largest load, and never past the token cap.
#include <gtest/gtest.h>

#include "solver/slimpack/model.h"

namespace slimpack::solver_detail::sp {
namespace {

// One long sequence of three 100-token slices with the given per-slice forward/backward work.
Item long_item(std::vector<double> f, std::vector<double> b) {
  Item it;
  it.seq = 0;
  it.cut = {0, 100, 200, 300};
  it.tok = {100, 100, 100};
  it.f = std::move(f);
  it.b = std::move(b);
  for (double x : it.f) it.f_total += x;
  for (double x : it.b) it.b_total += x;
  return it;
}

Shape two_packs() {
  Shape s;
  s.slice = 100;
  s.mf = 2;
  s.mb = 2;
  s.w = 1;  // F1 and F2 both run before B1 on the last stage: every placement is ready (L3)
  s.stages = 1;
  return s;
}

void set_packs(std::span<int> slices, const std::vector<int>& packs) {
  std::copy(packs.begin(), packs.end(), slices.begin());
}

std::vector<int> packs_of(std::span<const int> slices) {
  return {slices.begin(), slices.end()};
}

// Forward slices in F1, F1, F2 and backward slices (reverse order) in B2, B1, B1.
Layout layout_for(const Item& it) {
  Layout lay;
  lay.mf = 2;
  lay.mb = 2;
  lay.fpack.reset({it}, 0);
  lay.bpack.reset({it}, 0);
  set_packs(lay.fpack[0], {0, 0, 1});
  set_packs(lay.bpack[0], {1, 0, 0});
  lay.fload = {it.f[0] + it.f[1], it.f[2]};
  lay.bload = {it.b[1] + it.b[2], it.b[0]};
  lay.ftok = {200, 100};
  lay.btok = {200, 100};
  return lay;
}

const std::vector<double> kRoom{1e300};

TEST(LocalSearch, MovesABoundarySliceOutOfTheHeaviestPack) {
  const std::vector<Item> items{long_item({1.0, 1.0, 0.5}, {0.5, 1.0, 1.0})};
  const Shape shape = two_packs();
  Layout lay = layout_for(items[0]);
  const int ops = local_search(items, shape, 0, kRoom, forwards_before(shape), 16, lay);
  // Forward: loads (2, 0.5); slice 2 of F1 joins slice 3 in F2 -> (1, 1.5). Moving it back would
  // give (2, 0.5) again, so the search stops. Backward: loads (2, 0.5); slice 2 of B1 joins
  // slice 1 in B2 -> (1, 1.5).
  EXPECT_EQ(ops, 2);
  EXPECT_EQ(packs_of(lay.fpack[0]), (std::vector<int>{0, 1, 1}));
  EXPECT_EQ(packs_of(lay.bpack[0]), (std::vector<int>{1, 1, 0}));
  EXPECT_DOUBLE_EQ(lay.fload[0], 1.0);
  EXPECT_DOUBLE_EQ(lay.fload[1], 1.5);
  EXPECT_DOUBLE_EQ(lay.bload[0], 1.0);
  EXPECT_DOUBLE_EQ(lay.bload[1], 1.5);
  EXPECT_EQ(lay.ftok, (std::vector<Tokens>{100, 200}));
  EXPECT_EQ(lay.btok, (std::vector<Tokens>{100, 200}));
  // Slice order is kept: forward packs nondecreasing (L1), backward packs nonincreasing (L2).
  EXPECT_TRUE(std::is_sorted(lay.fpack[0].begin(), lay.fpack[0].end()));
  EXPECT_TRUE(std::is_sorted(lay.bpack[0].rbegin(), lay.bpack[0].rend()));
}

TEST(LocalSearch, KeepsTheLayoutWhenNoMoveLowersTheMaximum) {
  // Forward loads (2, 1): moving a 1.0 slice gives (1, 2), no better; same for backward.
  const std::vector<Item> items{long_item({1.0, 1.0, 1.0}, {1.0, 1.0, 1.0})};
  const Shape shape = two_packs();
  Layout lay = layout_for(items[0]);
  EXPECT_EQ(local_search(items, shape, 0, kRoom, forwards_before(shape), 16, lay), 0);
  EXPECT_EQ(packs_of(lay.fpack[0]), (std::vector<int>{0, 0, 1}));
  EXPECT_EQ(packs_of(lay.bpack[0]), (std::vector<int>{1, 0, 0}));
}

TEST(LocalSearch, BoundaryMoveRespectsTheTokenCap) {
  const std::vector<Item> items{long_item({1.0, 1.0, 0.5}, {0.5, 1.0, 1.0})};
  const Shape shape = two_packs();
  Layout lay = layout_for(items[0]);
  // F2/B2 hold 100 tokens; a cap of 150 leaves no room for another 100-token slice.
  EXPECT_EQ(local_search(items, shape, 150, kRoom, forwards_before(shape), 16, lay), 0);
  EXPECT_EQ(packs_of(lay.fpack[0]), (std::vector<int>{0, 0, 1}));
  EXPECT_EQ(packs_of(lay.bpack[0]), (std::vector<int>{1, 0, 0}));
}

TEST(LocalSearch, BoundaryMoveRespectsTheMemoryRoom) {
  const std::vector<Item> items{long_item({1.0, 1.0, 0.5}, {0.5, 1.0, 1.0})};
  const Shape shape = two_packs();
  Layout lay = layout_for(items[0]);
  // Room for exactly the 300 tokens in flight before B1: unchanged by moves that keep both
  // forward packs ahead of B1, so the forward move stays; the backward move changes nothing
  // before B1's sample either (fb = 2 for both backward packs).
  const std::vector<double> room{300.0};
  EXPECT_EQ(local_search(items, shape, 0, room, forwards_before(shape), 16, lay), 2);
  const std::vector<double> tight{299.0};  // even the starting layout does not fit: no move
  Layout lay2 = layout_for(items[0]);
  EXPECT_EQ(local_search(items, shape, 0, tight, forwards_before(shape), 16, lay2), 0);
  EXPECT_EQ(packs_of(lay2.fpack[0]), (std::vector<int>{0, 0, 1}));
}

}  // namespace
}  // namespace slimpack::solver_detail::sp
