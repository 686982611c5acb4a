#pragma once
// Layers per pipeline stage (docs/design.md section 3.1). Megatron-LM splits evenly unless told
// otherwise
// (`--decoder-first-pipeline-num-layers`, `--decoder-last-pipeline-num-layers`, or
// `--account-for-embedding-in-pipeline-split` / `--account-for-loss-in-pipeline-split`, which count
// the embedding and the loss as one layer each). `auto` goes one step further and weighs the
// stages' real extra work: the LM head and loss on the last stage (in units of a layer's work).
#include <string>
#include <vector>

#include "common/status.h"

namespace slimpack {

// L / p each; the remainder (when p does not divide L) goes to the middle-to-last stages.
std::vector<int> even_stage_layers(int layers, int stages);

// The split that minimises the busiest stage, stage s costing n_s * layer_work + extra[s] (extra
// has one entry per stage). Every stage gets at least one layer; among the splits with the
// smallest maximum, surplus layers are taken from the busiest stages first (stage 0 first on
// ties: it holds the most activations under 1F1B).
std::vector<int> balanced_stage_layers(int layers, double layer_work,
                                       const std::vector<double>& extra);

// "even", "auto" or a comma-separated list "7,8,8,9". `explicit_layers` is filled for a list.
struct StageSplitSpec {
  bool is_auto = true;
  std::vector<int> explicit_layers;  // non-empty for a list
  bool operator==(const StageSplitSpec&) const = default;
};
Expected<StageSplitSpec> parse_stage_split(const std::string& text);
std::string stage_split_name(const StageSplitSpec& spec);

}  // namespace slimpack
