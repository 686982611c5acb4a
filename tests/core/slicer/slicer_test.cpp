#include "slicer/slicer.h"

#include <gtest/gtest.h>

namespace slimpack {
namespace {

TEST(Slicer, SliceCountIsCeilOfLengthOverS) {
  EXPECT_EQ(slice_count(10000, 4096), 3);
  EXPECT_EQ(slice_count(8192, 4096), 2);
  EXPECT_EQ(slice_count(8193, 4096), 3);
  EXPECT_EQ(slice_count(4096, 4096), 1);  // n <= S is one slice
  EXPECT_EQ(slice_count(100, 4096), 1);
  EXPECT_EQ(slice_count(1000000, 0), 1);  // S = 0: no slicing
  EXPECT_EQ(slice_count(7, -1), 1);
}

TEST(Slicer, SlicesCoverTheSequenceInOrder) {
  const auto slices = slice_sequence(5, 10000, 4096);
  ASSERT_EQ(slices.size(), 3u);
  EXPECT_EQ(slices[0].begin, 0);
  EXPECT_EQ(slices[0].end, 4096);
  EXPECT_EQ(slices[1].begin, 4096);
  EXPECT_EQ(slices[1].end, 8192);
  EXPECT_EQ(slices[2].begin, 8192);
  EXPECT_EQ(slices[2].end, 10000);
  EXPECT_EQ(slices[2].tokens(), 1808);
  for (int j = 0; j < 3; ++j) {
    EXPECT_EQ(slices[j].seq, 5);
    EXPECT_EQ(slices[j].index, j);
    EXPECT_EQ(slices[j].count, 3);
    EXPECT_EQ(slices[j].last(), j == 2);
  }
  EXPECT_EQ(slices[1].segment(), (Segment{5, 4096, 8192}));
}

TEST(Slicer, NoSlicingAndShortSequencesGiveOneWholeSlice) {
  for (Tokens s : {Tokens{0}, Tokens{4096}, Tokens{1 << 20}}) {
    const auto slices = slice_sequence(0, 4096, s);
    ASSERT_EQ(slices.size(), 1u);
    EXPECT_EQ(slices[0].begin, 0);
    EXPECT_EQ(slices[0].end, 4096);
    EXPECT_TRUE(slices[0].last());
  }
}

TEST(Slicer, BatchGroupsBySequenceAndKeepsEveryToken) {
  const std::vector<Sequence> seqs = {{"a", 5}, {"b", 2}, {"c", 9}};
  const auto slices = slice_batch(seqs, 4);
  ASSERT_EQ(slices.size(), 2u + 1u + 3u);
  const std::vector<std::pair<SeqIndex, std::pair<Tokens, Tokens>>> expect = {
      {0, {0, 4}}, {0, {4, 5}}, {1, {0, 2}}, {2, {0, 4}}, {2, {4, 8}}, {2, {8, 9}}};
  Tokens total = 0;
  for (std::size_t i = 0; i < slices.size(); ++i) {
    EXPECT_EQ(slices[i].seq, expect[i].first);
    EXPECT_EQ(slices[i].begin, expect[i].second.first);
    EXPECT_EQ(slices[i].end, expect[i].second.second);
    total += slices[i].tokens();
  }
  EXPECT_EQ(total, 16);
  // The batch slices equal the per-sequence slices.
  const auto c = slice_sequence(2, 9, 4);
  for (std::size_t j = 0; j < c.size(); ++j) EXPECT_EQ(slices[3 + j].segment(), c[j].segment());
}

TEST(Slicer, SlicedAttentionPairsSumToTheWholeSequence) {
  // Sum over slices of causal pairs equals n(n+1)/2 (docs/design.md section 3: attention over
  // slices = 2hn(n+1)).
  const Tokens n = 10000;
  double pairs = 0.0;
  for (const auto& s : slice_sequence(0, n, 3000)) pairs += s.segment().attention_pairs();
  EXPECT_DOUBLE_EQ(pairs, static_cast<double>(n) * (n + 1) / 2.0);
}

TEST(Slicer, NormalizeMergesAdjacentSlicesOfOneSequence) {
  std::vector<Segment> segs = {{1, 8, 12}, {0, 4, 8}, {1, 0, 4}, {0, 0, 4}, {1, 4, 8}};
  normalize_segments(segs);
  EXPECT_EQ(segs, (std::vector<Segment>{{0, 0, 8}, {1, 0, 12}}));
}

TEST(Slicer, NormalizeKeepsGapsAndShardsApart) {
  std::vector<Segment> segs = {{0, 8, 12}, {0, 0, 4}};
  normalize_segments(segs);
  EXPECT_EQ(segs, (std::vector<Segment>{{0, 0, 4}, {0, 8, 12}}));
  // A DP-merged segment does not join an unmerged neighbour; two merged ones of one shard do.
  std::vector<Segment> mixed = {{0, 4, 8, 1, 0}, {0, 0, 4, 2, 0}};
  normalize_segments(mixed);
  EXPECT_EQ(mixed, (std::vector<Segment>{{0, 0, 4, 2, 0}, {0, 4, 8, 1, 0}}));
  std::vector<Segment> sharded = {{0, 4, 8, 2, 1}, {0, 0, 4, 2, 1}};
  normalize_segments(sharded);
  EXPECT_EQ(sharded, (std::vector<Segment>{{0, 0, 8, 2, 1}}));
  std::vector<Segment> empty;
  normalize_segments(empty);
  EXPECT_TRUE(empty.empty());
}

}  // namespace
}  // namespace slimpack
