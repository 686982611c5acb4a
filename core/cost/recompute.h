#pragma once
// Activation recomputation (docs/design.md section 3.1), as Megatron-LM offers it:
//   none       every layer keeps its activations from forward to backward;
//   selective  Megatron's `--recompute-granularity selective`: the attention core (already
//              recomputed by FlashAttention) and the SwiGLU activation are recomputed, so a layer
//              stores 2f/t bytes per token less and the backward pays no priced extra time (both
//              are element-wise or already part of the FlashAttention backward);
//   full       `--recompute-granularity full --recompute-method block` over all layers of a
//              stage: a recomputed layer stores its input only (2h/t bytes per token, / c with
//              context parallelism) and its backward runs the layer's forward once more;
//   N          the block method with `--recompute-num-layers N`: the first N layers of every
//              stage are recomputed (N is clamped to the stage's layers);
//   auto       per stage, the fewest recomputed layers whose peak memory fits the cap.
// A plan carries the resolved count per stage (Plan::recompute_layers).
#include <string>
#include <vector>

#include "common/status.h"

namespace slimpack {

enum class RecomputeMode { None, Selective, Full, Layers, Auto };

struct RecomputeSpec {
  RecomputeMode mode = RecomputeMode::None;
  int layers = 0;  // RecomputeMode::Layers only

  bool operator==(const RecomputeSpec&) const = default;
};

// "none", "selective", "full", "auto" or the layer count ("4").
std::string recompute_name(const RecomputeSpec& spec);
// Parses the names above; errors say what is accepted.
Expected<RecomputeSpec> parse_recompute(const std::string& text);

}  // namespace slimpack
