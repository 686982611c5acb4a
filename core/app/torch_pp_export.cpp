#include "app/torch_pp_export.h"

#include "common/format.h"
#include "schedule/torch_pp_lowering.h"

namespace slimpack {

const char* torch_pp_format_name(TorchPPFormat format) {
  return format == TorchPPFormat::ComputeComms ? "compute_comms" : "compute_only";
}

bool parse_torch_pp_format(const std::string& name, TorchPPFormat& out) {
  if (name == "compute_only") {
    out = TorchPPFormat::ComputeOnly;
  } else if (name == "compute_comms") {
    out = TorchPPFormat::ComputeComms;
  } else {
    return false;
  }
  return true;
}

Expected<TorchPPExport> export_torch_pp(const Plan& plan, const CostModel* cost,
                                        TorchPPFormat format) {
  auto layout = torch_pp_layout(plan);
  if (!layout) return layout.error();
  TorchPPExport out;
  out.format = format;
  out.rows = layout->rows;
  if (format == TorchPPFormat::ComputeComms) {
    std::vector<int> stage_of_rank;
    for (int s = 0; s < layout->stages; ++s) stage_of_rank.push_back(s);
    auto lowered = lower_torch_pp(layout->rows, stage_of_rank, layout->microbatches);
    if (!lowered) return Error::internal("torch-pp compute_comms: " + lowered.error().message);
    out.rows = std::move(*lowered);
  }
  out.csv = torch_pp_csv_text(out.rows);
  out.padding = torch_pp_padding(plan, *layout, cost);
  std::string recomputed;
  for (int s = 0; s < plan.stages; ++s)
    if (plan.recompute_at(s) > 0)
      recomputed += (recomputed.empty() ? "" : ", ") + std::to_string(plan.recompute_at(s)) +
                    " on stage " + std::to_string(s);
  if (!recomputed.empty())
    out.notes.push_back("the CSV carries no recomputation: the plan recomputes " + recomputed +
                        " layers; torch runs whatever the stage modules do");
  out.layout = std::move(*layout);
  return out;
}

nlohmann::json torch_pp_export_json(const TorchPPExport& out) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& row : out.rows) {
    nlohmann::json cells = nlohmann::json::array();
    for (const TorchPPAction& a : row) cells.push_back(torch_pp_action_text(a));
    rows.push_back(std::move(cells));
  }
  const TorchPPPadding& p = out.padding;
  nlohmann::json padding = {{"pack_tokens", p.pack_tokens},
                            {"tokens", p.tokens},
                            {"padded_tokens", p.padded_tokens},
                            {"pad_tokens", p.pad_tokens},
                            {"padding_fraction", p.fraction},
                            {"pack_real_tokens", p.pack_real_tokens},
                            {"priced", p.priced}};
  if (p.priced) {
    padding["makespan_s"] = p.makespan;
    padding["padded_makespan_s"] = p.padded_makespan;
    padding["makespan_increase"] = p.makespan > 0.0 ? p.padded_makespan / p.makespan - 1.0 : 0.0;
  } else {
    padding["not_priced"] = p.not_priced;
  }
  return {{"format", torch_pp_format_name(out.format)},
          {"stages", out.layout.stages},
          {"pipeline_ranks", out.layout.stages},
          {"replicas", out.layout.replicas},
          {"microbatches", out.layout.microbatches},
          {"backward_of", out.layout.backward_of},
          {"rows", std::move(rows)},
          {"padding", std::move(padding)},
          {"notes", out.notes}};
}

std::string torch_pp_export_text(const TorchPPExport& out, const std::string& file) {
  const TorchPPLayout& l = out.layout;
  const TorchPPPadding& p = out.padding;
  std::string text = "wrote " + file + ": torch-pp " + torch_pp_format_name(out.format) + ", " +
                     std::to_string(l.stages) + " pipeline ranks (rank s runs stage s), " +
                     std::to_string(l.microbatches) + " micro-batches\n";
  if (l.replicas > 1)
    text += "replicas: the " + std::to_string(l.replicas) +
            " replicas are data-parallel copies of this one pipeline: each runs this CSV on its "
            "own packs\n";
  text += "padding: every micro-batch padded to " +
          format_count(static_cast<double>(p.pack_tokens)) +
          " tokens: " + format_count(static_cast<double>(p.pad_tokens)) + " tokens added, " +
          format_percent(p.fraction) + " of the " +
          format_count(static_cast<double>(p.padded_tokens)) + " computed\n";
  if (p.priced) {
    text += "padding cost: simulated makespan " + format_time(p.padded_makespan) + " padded, " +
            format_time(p.makespan) + " without padding";
    if (p.makespan > 0.0)
      text += " (+" + format_percent(p.padded_makespan / p.makespan - 1.0) + ")";
    text += "\n";
  } else {
    text += "padding cost: not priced: " + p.not_priced + "\n";
  }
  for (const std::string& n : out.notes) text += "note: " + n + "\n";
  return text;
}

}  // namespace slimpack
