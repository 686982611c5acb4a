#include "trace/trace_calibrate.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <vector>

namespace slimpack {
namespace {

using UnitKey = std::tuple<int, int, int, int>;  // replica, stage, pass, pack

// One measured unit with what the model needs to invert it.
struct UnitSample {
  Pass pass = Pass::Forward;
  double measured_s = 0.0;
  double layers = 0.0;      // L_s
  double recomputed = 0.0;  // forward layers re-run inside this backward
  double tokens = 0.0;      // per context-parallel rank
  double pairs = 0.0;
  double other_s = 0.0;  // the model's time that does not scale with this pass's coefficients
};

double linear(const PassCoeffs& k, double tokens, double pairs) {
  return k.kappa + k.alpha * tokens + k.beta * pairs;
}

// Model time of a unit under coefficients `f` (forward) and `b` (backward).
double predicted(const UnitSample& u, const PassCoeffs& f, const PassCoeffs& b) {
  if (u.pass == Pass::Forward) return u.other_s + u.layers * linear(f, u.tokens, u.pairs);
  return u.other_s + u.layers * linear(b, u.tokens, u.pairs) +
         u.recomputed * linear(f, u.tokens, u.pairs);
}

}  // namespace

Expected<TraceCalibration> calibrate_from_units(const MappedTrace& units, const Plan& plan,
                                                const CostModel& cost,
                                                const std::string& provenance) {
  // Virtual chunks of one pack on one stage are parts of one unit of the model.
  std::map<UnitKey, double> measured_us;
  for (const MeasuredUnit& u : units.units)
    measured_us[{u.replica, u.stage, static_cast<int>(u.pass), u.pack}] += u.dur_us;

  TraceCalibration out;
  const double c = cost.parallel().cp;
  const CostCoeffs& now = cost.coeffs();
  std::vector<UnitSample> samples;
  for (const auto& [key, us] : measured_us) {
    const auto [replica, stage, pass_index, pack_index] = key;
    const Pass pass = static_cast<Pass>(pass_index);
    if (replica < 0 || replica >= plan.dp() || stage < 0 || stage >= plan.stages ||
        stage >= cost.stages()) {
      ++out.units_skipped;
      continue;
    }
    const ReplicaPlan& rp = plan.replicas[static_cast<std::size_t>(replica)];
    const auto& packs = pass == Pass::Forward ? rp.forward : rp.backward;
    if (pack_index < 0 || static_cast<std::size_t>(pack_index) >= packs.size()) {
      ++out.units_skipped;
      continue;
    }
    const Pack& pack = packs[static_cast<std::size_t>(pack_index)];
    if (pack.time || !pack.stage_times.empty()) {
      ++out.units_skipped;
      continue;
    }
    UnitSample u;
    u.pass = pass;
    u.measured_s = us * 1e-6;
    u.layers = cost.layers_on_stage(stage);
    const int recompute = plan.recompute_at(stage);
    u.recomputed = pass == Pass::Backward ? std::min(recompute, cost.layers_on_stage(stage)) : 0;
    u.tokens = static_cast<double>(pack.tokens()) / c;
    u.pairs = cost.effective_pairs(pack) / c;
    // Everything the model adds to the linear per-layer terms: the LM head, exposed CP ring and TP
    // communication, DP-merged K/V exchange (the CP ring's overlap uses the current beta).
    const double total = cost.pack_time(pass, stage, pack, recompute);
    u.other_s =
        total -
        u.layers * linear(pass == Pass::Forward ? now.forward : now.backward, u.tokens, u.pairs) -
        u.recomputed * linear(now.forward, u.tokens, u.pairs);
    samples.push_back(u);
  }
  if (samples.empty())
    return Error::bad_input("no measured unit of rule set '" + units.rule_set +
                            "' is a model-priced pack of the plan (" +
                            std::to_string(out.units_skipped) +
                            " units skipped: wrong plan, or packs with explicit times?)");

  // Forward first: a backward with recomputed layers contains forward work.
  PassCoeffs fitted[2] = {now.forward, now.backward};
  for (Pass pass : {Pass::Forward, Pass::Backward}) {
    std::vector<CostSample> pass_samples;
    for (const UnitSample& u : samples) {
      if (u.pass != pass) continue;
      const double recomputed_s = u.recomputed * linear(fitted[0], u.tokens, u.pairs);
      const double per_layer = (u.measured_s - u.other_s - recomputed_s) / u.layers;
      if (!(per_layer > 0.0)) {
        ++out.units_skipped;
        continue;
      }
      pass_samples.push_back({pass, u.tokens, u.pairs, per_layer});
      out.profile.samples.push_back(pass_samples.back());
    }
    if (pass_samples.empty()) continue;  // e.g. a forward-only trace: that pass keeps the model's
    auto fit = fit_pass(pass_samples);
    if (!fit)
      return fit.error().with_context(std::string(sample_kind_name(pass)) + " units of '" +
                                      units.rule_set + "'");
    fitted[pass == Pass::Forward ? 0 : 1] = fit->coeffs;
    (pass == Pass::Forward ? out.profile.forward : out.profile.backward) = *fit;
  }
  if (!out.profile.forward && !out.profile.backward)
    return Error::bad_input("no measured unit of '" + units.rule_set +
                            "' takes longer than the model's communication and LM-head time");

  double sum = 0.0;
  std::int64_t n = 0;
  for (const UnitSample& u : samples) {
    const double err = std::abs(predicted(u, fitted[0], fitted[1]) - u.measured_s) / u.measured_s;
    if (!std::isfinite(err)) continue;
    sum += err;
    ++n;
    out.max_error = std::max(out.max_error, err);
  }
  out.mape = n > 0 ? sum / static_cast<double>(n) : 0.0;
  out.units_used = static_cast<std::int64_t>(out.profile.samples.size());
  out.profile.device = cost.gpu().name;
  out.profile.provenance = provenance;
  return out;
}

Expected<TraceCalibration> calibrate_from_trace(const ImportedTrace& trace,
                                                const LaneMapping& lanes, const UnitRuleSet& rules,
                                                const Plan& plan, const CostModel& cost) {
  auto mapped = map_trace_units(trace, lanes, rules);
  if (!mapped) return mapped.error();
  auto cal = calibrate_from_units(*mapped, plan, cost,
                                  "trace " + trace.source + " (rules " + rules.name + ")");
  if (!cal) return cal.error().with_context(trace.source);
  return cal;
}

}  // namespace slimpack
