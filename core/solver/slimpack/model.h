#pragma once
// Internal data of the two-phase SlimPack solver (docs/design.md section 5): phase-1 replica
// assignment, per-replica work items cut in slices, pack layouts and candidates.
#include <span>
#include <string>
#include <vector>

#include "common/cancel.h"
#include "common/sequence.h"
#include "common/status.h"
#include "cost/cost_model.h"
#include "plan/plan.h"
#include "solver/pack_builder.h"

namespace slimpack::solver_detail::sp {

// A sequence split across a group of replicas (DP-Merge, rule L6): replicas [first, first+shards).
struct MergedSeq {
  SeqIndex seq = 0;
  int first = 0;
  int shards = 2;
};

struct Phase1 {
  std::vector<std::vector<SeqIndex>> replicas;  // unmerged sequences of each replica
  std::vector<MergedSeq> merged;
  std::vector<SeqIndex>
      outliers;              // sequences whose work exceeds kOutlierShare of a replica's share
  std::vector<double> load;  // estimated fwd+bwd work per replica after assignment
  int swaps = 0;             // improving moves/swaps applied
};

// Share of the mean replica work above which a sequence is an outlier.
inline constexpr double kOutlierShare = 0.5;

struct Phase1Options {
  bool dp_aware = true;
  bool dp_merge = true;
  int max_shards = 8;
  int swap_ops = 256;  // bound on improving moves (deterministic)
};

// `work` is the estimated forward+backward work of each sequence of the batch.
Phase1 run_phase1(const Batch& batch, const std::vector<double>& work, const Limits& lim,
                  int replicas, const Phase1Options& opt);

// One sequence (or this replica's shard of a merged one) cut in slices.
struct Item {
  SeqIndex seq = 0;
  int shards = 1;
  int shard = 0;
  int merged = -1;           // index into Phase1::merged, -1 when not merged
  std::vector<Tokens> cut;   // slice j covers [cut[j], cut[j+1])
  std::vector<double> f, b;  // per-slice work of this replica (per shard, merge traffic included)
  std::vector<Tokens> tok;   // per-slice tokens of this replica's shard
  double f_total = 0.0, b_total = 0.0;
  int slices() const { return static_cast<int>(f.size()); }
  bool is_long() const { return f.size() > 1; }
};

std::vector<Item> make_items(const Batch& batch, const Phase1& p1, int replica, Tokens slice_size,
                             const CostModel& cost, const TimeLines& lines);

// A pack index per slice of every item of one replica, in one flat array: a candidate holds one
// per pass and replica and is copied per backward kind, and a vector per item made thousands of
// heap allocations per candidate at 4M tokens.
class SliceGrid {
 public:
  // One entry per slice of each item, all set to `fill`.
  void reset(const std::vector<Item>& items, int fill) {
    offset_.assign(items.size() + 1, 0);
    for (std::size_t i = 0; i < items.size(); ++i)
      offset_[i + 1] = offset_[i] + static_cast<std::size_t>(items[i].slices());
    data_.assign(offset_.back(), fill);
  }
  std::span<int> operator[](std::size_t item) {
    return {data_.data() + offset_[item], offset_[item + 1] - offset_[item]};
  }
  std::span<const int> operator[](std::size_t item) const {
    return {data_.data() + offset_[item], offset_[item + 1] - offset_[item]};
  }
  std::size_t size() const { return offset_.empty() ? 0 : offset_.size() - 1; }
  bool empty() const { return size() == 0; }
  bool operator==(const SliceGrid&) const = default;

 private:
  std::vector<int> data_;
  std::vector<std::size_t> offset_;  // item i's slices are data_[offset_[i], offset_[i + 1])
};

// Where every slice of every item of one replica runs.
struct Layout {
  int mf = 1, mb = 1;
  SliceGrid fpack, bpack;            // [item][slice]
  std::vector<double> fload, bload;  // work per pack (without the per-pack constant)
  std::vector<Tokens> ftok, btok;    // tokens per pack

  double zf() const;
  double zb() const;
};

// Pack positions of merged items, identical on every replica of their group (L6).
struct Pins {
  std::vector<std::vector<int>> fpack, bpack;  // [merged][slice]
};

struct Shape {
  Tokens slice = 0;
  int mf = 1, mb = 1, w = 0;
  double long_share = 1.0;  // cap of long slices per forward pack as a fraction of the budget
  ScheduleKind schedule = ScheduleKind::OneFOneB;
  int stages = 1;
};

// Token headroom of each stage for activations (capacity - static - dK/dV margin) / bytes per
// token, or a huge value without a cap.
std::vector<double> stage_token_room(const Limits& lim, Tokens dkdv_context);

// For each stage s and backward pack b: forward packs issued on s before B_b (section 4 order).
std::vector<std::vector<int>> forwards_before(const Shape& shape);

Pins make_pins(const std::vector<std::vector<Item>>& items, const Phase1& p1, const Shape& shape,
               Tokens token_cap);

// The unmerged items of one replica in the order build_forward() places them: long ones and
// short ones, each heaviest first (ties by index). It depends on the items only, so a slice size's
// shapes share it (sorting thousands of items per shape and replica was a few % of a solve).
struct ForwardOrder {
  std::vector<std::size_t> longs, shorts;
};
ForwardOrder forward_order(const std::vector<Item>& items);

// Forward packs of one replica: pinned merged slices first, then long sequences' slices early
// (first fit, nondecreasing packs, up to long_share of the budget), then short sequences by LPT.
// `order` is forward_order(items), or null to compute it here.
void build_forward(const std::vector<Item>& items, const Pins& pins, const Shape& shape,
                   Tokens token_cap, Layout& out, const ForwardOrder* order = nullptr);

// True when build_forward() with `shape` gives `built`'s forward packs, `built` having been built
// with the same items, pins, Mf and token cap but another long share: only the long sequences'
// slices read the share, so when those land in the same packs (checked by placing them again,
// a small part of the work), the short ones do too.
bool places_longs_alike(const std::vector<Item>& items, const Pins& pins, const Shape& shape,
                        Tokens token_cap, const Layout& built, const ForwardOrder* order = nullptr);

// Why build_backward gave up: the caller's next step depends on it (more warm-up makes more
// work ready but holds more activations, so it cannot help when memory is what failed).
enum class BackwardFailure {
  None,
  MemoryRoom,    // the forwards issued before some backward pack do not fit a stage's room
  NothingReady,  // some backward pack has no ready piece (w too small)
  LateSequences  // sequences still not ready by the last backward pack (w too small)
};

struct BackwardBuild {
  BackwardFailure failure = BackwardFailure::None;
  std::string why;  // for the user (notes, error messages); never parsed
  explicit operator bool() const { return failure == BackwardFailure::None; }
};

// Backward packs built independently from the ready pool; fails (with a reason) when some pack
// would stay empty or memory cannot be kept under the room (the caller raises w).
BackwardBuild build_backward(const std::vector<Item>& items, const Pins& pins, const Shape& shape,
                             Tokens token_cap, const std::vector<double>& room,
                             const std::vector<std::vector<int>>& fb, Layout& out);

// The smallest warm-up w for which every backward pack of `shape` can hold at least one ready
// slice (B_b needs b + 1 slices of sequences whose last forward is in F_0..F_(w+b)) and every
// sequence is ready by the last backward pack: a necessary condition, computed from the forward
// layout instead of found by trial. Merged (pinned) items are left out.
int min_ready_warmup(const std::vector<Item>& items, const Layout& forward, const Shape& shape);

// Peak activation tokens per stage minus the room: <= 0 everywhere when memory fits.
bool memory_fits(const Layout& lay, const std::vector<double>& room,
                 const std::vector<std::vector<int>>& fb);

// Bounded improving moves and swaps of short sequences, and moves of long sequences' boundary
// slices between adjacent packs, on zF + zB (op count, not wall time).
int local_search(const std::vector<Item>& items, const Shape& shape, Tokens token_cap,
                 const std::vector<double>& room, const std::vector<std::vector<int>>& fb,
                 int max_ops, Layout& lay);

// One improving move of a long sequence's boundary slice out of the heaviest pack of `pass`
// (0 forward, 1 backward) into the neighbouring pack holding its adjacent slice, keeping L1/L2/L3,
// the token cap and the memory room. The move taken lowers max(load[heaviest], load[target]) the
// most; false when none does.
bool move_boundary_slice(const std::vector<Item>& items, const Shape& shape, Tokens token_cap,
                         const std::vector<double>& room, const std::vector<std::vector<int>>& fb,
                         int pass, Layout& lay);

// The replica's packs as plan segments.
ReplicaPlan to_replica_plan(const std::vector<Item>& items, const Layout& lay);

}  // namespace slimpack::solver_detail::sp
