#pragma once
// A plan as PyTorch's own pipeline runtime runs it (`torch.distributed.pipelining`,
// `_PipelineScheduleRuntime._load_csv`): `slimpack export torch-pp` and, through
// torch_pp_layout, the trace check of a run of it. What torch can run, read in its source:
// one micro-batch count for every stage and one CSV for the whole pipeline; one forward and one
// backward per micro-batch, the backward being that of the forward's autograd graph (no backward
// pack regrouping several forward packs, no sequence sliced across packs); every micro-batch of
// the shapes of micro-batch 0 (so every pack is padded to the largest one's tokens).
//
// Our forward pack k is torch's micro-batch k; stage s is torch's stage s on pipeline rank s; the
// replicas are data-parallel copies of one pipeline, each running the same CSV on its own packs.
// A backward pack that is exactly the backward of forward pack j runs as torch's `B j`.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "common/sequence.h"
#include "common/status.h"
#include "cost/cost_model.h"
#include "plan/plan.h"
#include "schedule/torch_pp_actions.h"

namespace slimpack {

enum class TorchPPFormat { ComputeOnly, ComputeComms };
const char* torch_pp_format_name(TorchPPFormat format);  // "compute_only", "compute_comms"
bool parse_torch_pp_format(const std::string& name, TorchPPFormat& out);

// The nearest plans that torch runs, said after every refusal.
inline constexpr const char* kTorchPPNearest =
    "solve it with --strategy balanced or --strategy fixed (whole sequences, one backward pack "
    "per forward pack), which export";

struct TorchPPLayout {
  int stages = 0;
  int replicas = 0;
  int microbatches = 0;
  std::vector<int> backward_of;  // backward pack k runs as torch's backward of this micro-batch
  TorchPPRows rows;              // compute_only: pipeline rank s = stage s, its actions in order
};

// How `plan` runs on torch, or the first reason it cannot and the nearest plan that can (one
// line, BadInput): "backward pack 3 regroups forward packs 2 and 3; solve it with ...".
Expected<TorchPPLayout> torch_pp_layout(const Plan& plan);

struct TorchPPPadding {
  Tokens pack_tokens = 0;    // every micro-batch's rows: the largest pack's tokens
  Tokens tokens = 0;         // real tokens of the iteration, every replica
  Tokens padded_tokens = 0;  // rows computed: replicas x micro-batches x pack_tokens
  Tokens pad_tokens = 0;
  double fraction = 0.0;                              // pad_tokens / padded_tokens
  std::vector<std::vector<Tokens>> pack_real_tokens;  // [replica][micro-batch]
  // The padding's cost in the simulator's time: the padded plan (each pack's padding one more
  // sequence of its own, as the runtime runs it) against the plan. Unpriced without a cost model.
  bool priced = false;
  double makespan = 0.0;         // the plan, seconds
  double padded_makespan = 0.0;  // the padded plan
  std::string not_priced;        // why not, when not priced
};

// The plan as torch runs it: every pack padded to the largest pack's tokens, the padding one more
// sequence of its own in the forward pack and in the backward pack that runs its backward (the
// packs keep their indices). A plan torch cannot run is BadInput, as torch_pp_layout says.
Expected<Plan> torch_pp_padded_plan(const Plan& plan);

// The padding of `plan` laid out as `layout`, priced by `cost` when there is one.
TorchPPPadding torch_pp_padding(const Plan& plan, const TorchPPLayout& layout,
                                const CostModel* cost);

struct TorchPPExport {
  TorchPPLayout layout;
  TorchPPFormat format = TorchPPFormat::ComputeOnly;
  TorchPPRows rows;  // as written: the layout's rows, lowered for compute_comms
  std::string csv;
  TorchPPPadding padding;
  std::vector<std::string> notes;  // what the CSV leaves out (recomputation)
};

// `cost` prices the padding (null: not priced).
Expected<TorchPPExport> export_torch_pp(const Plan& plan, const CostModel* cost,
                                        TorchPPFormat format);

// {"format", "stages", "pipeline_ranks", "replicas", "microbatches", "backward_of", "rows",
//  "padding": {...}, "notes"}
nlohmann::json torch_pp_export_json(const TorchPPExport& out);
// The lines said on stderr: what was written, the padding and its cost, the replicas.
std::string torch_pp_export_text(const TorchPPExport& out, const std::string& file);

}  // namespace slimpack
