#pragma once
// PyTorch's pipeline action syntax (torch.distributed.pipelining.schedules: `_Action`,
// `_ComputationType`), as `_PipelineScheduleRuntime._load_csv` reads it and as its runtime names
// each action's profiler range (`PP:<action>`). An action is `<stage><type>[<micro-batch>]`:
// `0F3` (forward of micro-batch 3 on stage 0), `1B3` (full backward), `1I3` / `1W3` (input and
// weight backward), `0SEND_F3`, `1RECV_F3`, `1SEND_B3`, `0RECV_B3`, `0WAIT_SEND_F3`,
// `0UNSHARD`, `0REDUCE_GRAD`; `(0F1;1B0)OVERLAP_F_B` overlaps its sub-actions. A schedule CSV
// holds one row per pipeline rank, one action per cell (an empty cell is no action).
//
// The syntax is the one of the PyTorch releases where `B` is a full backward and `I` / `W` the
// split one (older releases spelled these differently); reading is strict where torch's own regex
// is not (`0BW3` would read as `0B` there): a cell that is not exactly an action of this syntax is
// an error naming the file, the row and the cell.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace slimpack {

enum class TorchPPType : std::uint8_t {
  Forward,         // F
  BackwardInput,   // I
  BackwardWeight,  // W
  FullBackward,    // B
  SendF,           // SEND_F
  RecvF,           // RECV_F
  SendB,           // SEND_B
  RecvB,           // RECV_B
  WaitSendF,       // WAIT_SEND_F
  WaitSendB,       // WAIT_SEND_B
  Unshard,         // UNSHARD
  Reshard,         // RESHARD
  ReduceGrad,      // REDUCE_GRAD
  WaitReduceGrad,  // WAIT_REDUCE_GRAD
  OverlapFB,       // OVERLAP_F_B (sub-actions only)
};

const char* torch_pp_type_name(TorchPPType type);  // "F", "SEND_F", ...
// F, I, W, B and OVERLAP_F_B: what torch's `is_compute_op` calls compute.
bool torch_pp_is_compute(TorchPPType type);
// The types that carry a micro-batch (every one but UNSHARD, RESHARD, REDUCE_GRAD and its wait).
bool torch_pp_has_microbatch(TorchPPType type);

struct TorchPPAction {
  int stage = 0;
  TorchPPType type = TorchPPType::Forward;
  int microbatch = -1;               // -1: none (UNSHARD, RESHARD, REDUCE_GRAD, ...)
  std::vector<TorchPPAction> parts;  // OVERLAP_F_B's sub-actions
  bool operator==(const TorchPPAction&) const = default;
};

// "0F3", "1SEND_F3", "0REDUCE_GRAD", "(0F1;1B0)OVERLAP_F_B": torch's `str(action)`.
std::string torch_pp_action_text(const TorchPPAction& action);

// One cell, exactly; the error is a phrase about the text ("'0BW3' is not an action of ...").
Expected<TorchPPAction> parse_torch_pp_action(std::string_view text);

using TorchPPRows = std::vector<std::vector<TorchPPAction>>;  // per pipeline rank, in order

struct TorchPPTable {
  std::string file;
  TorchPPRows rows;
};

// The CSV text of `rows` (one line per rank, cells joined by commas, "\n" line ends), as torch's
// `_dump_csv` writes them.
std::string torch_pp_csv_text(const TorchPPRows& rows);
// Reads a schedule CSV; errors name the file, the row (rank) and the cell.
Expected<TorchPPTable> parse_torch_pp_csv(const std::string& text, const std::string& file);
Expected<TorchPPTable> read_torch_pp_csv(const std::string& path);
// Whether a CSV's first line looks like actions rather than data with a header: its first cell
// holds only digits, capitals, '_', '(', ')' and ';'. A run folder's other CSVs are not read.
bool looks_like_torch_pp_csv(std::string_view first_line);

// Which stage each row (pipeline rank) runs and how many micro-batches the schedule has, checked
// as torch's `_validate_schedule` checks a schedule (each stage on one rank, every micro-batch's
// forward once, one full backward or an I and a W per micro-batch, backward after forward), and
// one stage per rank, as SlimPack's plans have. Errors name the file and the row.
struct TorchPPStages {
  std::vector<int> stage_of_rank;  // per row
  int microbatches = 0;
};
Expected<TorchPPStages> torch_pp_stages(const TorchPPTable& table);

}  // namespace slimpack
