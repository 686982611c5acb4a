#pragma once
// Per-stage execution order (docs/design.md section 4). Shared by the legality checker, the
// simulator and the solvers so that everybody agrees on what "modified 1F1B" means.
#include <cstdint>
#include <vector>

#include "plan/plan.h"

namespace slimpack {

struct OrderedOp {
  Pass pass = Pass::Forward;
  std::int32_t pack = 0;   // 0-based index into forward or backward packs
  std::int32_t chunk = 0;  // virtual chunk (interleaved only), 0 otherwise
};

// Whether Megatron's interleaved order can run for one replica's pack counts, and if not, the rule
// it breaks: stage_order() then issues 1F1B. The explorer and the solvers' notes name this reason
// rather than re-deriving the rule.
enum class InterleavedFallback {
  None,                 // runs interleaved
  OneChunk,             // v < 2 virtual chunks per stage
  UnequalPacks,         // Mf != Mb (asymmetric packing)
  NotMultipleOfStages,  // Mf is not a multiple of p
};
InterleavedFallback interleaved_fallback(int stages, int mf, int mb, int vchunks);
// The rule in words: "interleaved needs a pack count that is a multiple of pp", ...
const char* interleaved_fallback_rule(InterleavedFallback why);

// Ops of one stage in issue order.
// 1F1B: W_s = min(Mf, p - s - 1 + w); for b = 1..Mb issue forwards until min(Mf, W_s + b) have
// been issued, then B_b; then any remaining forwards. GPipe: all forwards then all backwards.
// Interleaved: Megatron's interleaved 1F1B order over `vchunks` virtual chunks (requires Mf == Mb).
std::vector<OrderedOp> stage_order(ScheduleKind kind, int stages, int stage, int mf, int mb,
                                   int warmup_extra, int vchunks);

// For 1F1B: the number of forward packs issued on the last stage before backward pack b (0-based b)
// may start, i.e. min(Mf, w + b + 1). Sequences in B_b must have their last slice in a forward
// pack with index < this value (rule L3).
int forwards_before_backward(ScheduleKind kind, int mf, int b, int warmup_extra);

}  // namespace slimpack
