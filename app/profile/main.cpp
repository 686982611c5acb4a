// slimpack-profile: measures one layer's per-GPU forward/backward time for a sweep of pack shapes
// and writes the samples CSV (and optionally a fitted cost profile) for `slimpack fit-costs`.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "common/output_file.h"
#include "cost/model_config.h"
#include "cost/profile.h"
#include "cuda/attention.h"
#include "cuda/layer_bench.h"
#include "cuda/profile_options.h"

namespace sp = slimpack::profiling;

namespace {

int fail(const slimpack::Error& e) {
  std::fprintf(stderr, "slimpack-profile: %s\n", e.message.c_str());
  return e.kind == slimpack::ErrorKind::BadInput ? 2 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  auto opts = sp::parse_profile_args(std::vector<std::string>(argv + 1, argv + argc));
  if (!opts) {
    std::fprintf(stderr, "%s", sp::profile_usage().c_str());
    return fail(opts.error());
  }
  if (opts->help) {
    std::printf("%s", sp::profile_usage().c_str());
    return 0;
  }
  auto model = slimpack::model_preset(opts->model);
  if (!model) return fail(model.error());
  auto dims = sp::layer_dims(*model, opts->tp);
  if (!dims) return fail(dims.error());
  sp::SweepOptions sweep_opts;
  sweep_opts.max_tokens = opts->max_tokens;
  sweep_opts.max_offset = opts->max_offset;
  sweep_opts.quick = opts->quick;
  auto shapes = sp::make_sweep(sweep_opts);
  if (!shapes) return fail(shapes.error());

  const int devices = sp::cuda_device_count();
  if (devices == 0) return fail(slimpack::Error::internal("no CUDA device found"));
  if (opts->device >= devices)
    return fail(slimpack::Error::bad_input("--device: " + std::to_string(opts->device) +
                                           " but only " + std::to_string(devices) + " device(s)"));
  const std::string device = sp::cuda_device_name(opts->device);
  std::printf("device: %s\n", device.c_str());
  std::printf("model %s, tp %d: per GPU h=%d f/t=%d heads %d/%d (q/kv), %zu pack shapes\n",
              model->name.c_str(), opts->tp, dims->hidden, dims->ffn_rank, dims->q_heads,
              dims->kv_heads, shapes->size());

  sp::BenchLimits limits;
  for (const auto& s : *shapes) {
    limits.max_tokens = std::max(limits.max_tokens, sp::pack_tokens(s));
    limits.max_context = std::max(limits.max_context, sp::pack_context_tokens(s));
  }
  auto bench = sp::LayerBench::create(*dims, limits, opts->device);
  if (!bench) return fail(bench.error());

  std::vector<sp::PackMeasurement> rows;
  std::printf("%-28s %8s %12s %11s %11s %11s %11s\n", "shape", "tokens", "pairs", "fwd ms",
              "bwd ms", "attn fwd", "attn bwd");
  for (const auto& s : *shapes) {
    auto m = (*bench)->measure(s, opts->warmup, opts->repeats);
    if (!m) return fail(m.error());
    std::printf("%-28s %8lld %12.4g %11.4f %11.4f %11.4f %11.4f\n", sp::describe(s).c_str(),
                static_cast<long long>(sp::pack_tokens(s)), sp::pack_pairs(s), m->forward_s * 1e3,
                m->backward_s * 1e3, m->attn_forward_s * 1e3, m->attn_backward_s * 1e3);
    std::fflush(stdout);
    rows.push_back(*m);
  }

  const std::string provenance =
      "slimpack-profile: " + model->name + " tp=" + std::to_string(opts->tp) +
      ", one layer per GPU (cuBLAS bf16 GEMMs + WMMA causal varlen attention, no TP "
      "communication), median of " +
      std::to_string(opts->repeats) + " after " + std::to_string(opts->warmup) + " warm-up runs";
  if (!opts->out_csv.empty()) {
    const std::string comment = "device: " + device + "\n" + provenance +
                                "\nseconds = one layer, one pack; attention_seconds = its "
                                "attention part timed alone";
    if (auto st = slimpack::write_output_file(opts->out_csv, sp::samples_csv(rows, comment)); !st)
      return fail(st.error());
    std::printf("wrote %s\n", opts->out_csv.c_str());
  }
  auto fitted = slimpack::fit_profile(sp::to_cost_profile(rows, device, provenance));
  if (!fitted) return fail(fitted.error());
  for (const auto& [name, fit] :
       {std::pair{"forward", fitted->forward}, std::pair{"backward", fitted->backward}}) {
    if (!fit) continue;
    std::printf("fit %-8s kappa %.4g s  alpha %.4g s/token  beta %.4g s/pair  r2 %.5f\n", name,
                fit->coeffs.kappa, fit->coeffs.alpha, fit->coeffs.beta, fit->r2);
  }
  if (!opts->profile_json.empty()) {
    if (auto st = slimpack::write_cost_profile(opts->profile_json, *fitted); !st)
      return fail(st.error());
    std::printf("wrote %s\n", opts->profile_json.c_str());
  }
  return 0;
}
