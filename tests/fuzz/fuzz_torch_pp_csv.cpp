// PyTorch's pipeline schedule CSV, as `slimpack export torch-pp` writes it and a run folder's
// table is read (core/schedule/torch_pp_actions.h): what reads must write back to itself, and a
// schedule torch would validate must lower to communication actions or say why not.
#include "fuzz_util.h"
#include "schedule/torch_pp_actions.h"
#include "schedule/torch_pp_lowering.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace slimpack;
  auto table = parse_torch_pp_csv(fuzz::as_text(data, size), "fuzz.csv");
  fuzz::require_message(table, "torch-pp csv: error without message");
  if (!table) return 0;
  auto again = parse_torch_pp_csv(torch_pp_csv_text(table->rows), "again.csv");
  fuzz::require(again.ok(), "torch-pp csv: its own text does not read back");
  fuzz::require(again->rows == table->rows, "torch-pp csv: round trip changed it");
  auto stages = torch_pp_stages(*table);
  fuzz::require_message(stages, "torch-pp csv: stage error without message");
  if (!stages) return 0;
  // Lower compute-only schedules of bounded size, as the export does.
  std::size_t actions = 0;
  for (const auto& row : table->rows)
    for (const TorchPPAction& a : row) {
      ++actions;
      if (a.type != TorchPPType::Forward && a.type != TorchPPType::FullBackward &&
          a.type != TorchPPType::BackwardInput && a.type != TorchPPType::BackwardWeight)
        return 0;
    }
  if (actions > 5000) return 0;
  auto lowered = lower_torch_pp(table->rows, stages->stage_of_rank, stages->microbatches);
  fuzz::require_message(lowered, "torch-pp csv: lowering error without message");
  return 0;
}
