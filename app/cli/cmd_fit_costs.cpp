// slimpack fit-costs INPUT --out FILE: least-squares fit of (kappa, alpha, beta) per pass, from a
// cost profile / measured CSV, or (--trace FILE --plan PLAN) from a profiler trace of a plan run.
#include <algorithm>
#include <cstdio>

#include "app/input_file.h"
#include "app/pipeline.h"
#include "app/run_calibration.h"
#include "app/schedule_input.h"
#include "app/trace_run.h"
#include "args.h"
#include "commands.h"
#include "common/format.h"
#include "cost/profile.h"
#include "output.h"
#include "schedule_cli.h"
#include "setup.h"
#include "thread_pool.h"
#include "trace_check_cli.h"

namespace slimpack::cli {
namespace {

std::vector<OptionSpec> fit_costs_specs() {
  std::vector<OptionSpec> specs = {
      {"out", "FILE", "write the fitted cost profile JSON ('-' = stdout)"},
      {"trace", "FILE[,FILE...]",
       "fit to the forward/backward units of this run's profiler traces, one file per rank "
       "(comma-separated, or a folder; needs --plan)"},
      {"plan", "FILE",
       "the plan or schedule JSON that ran when the trace was taken (a schedule fixes the model)"},
      {"force", "",
       "with --trace: write the profile even when the review refuses it (not a run of the plan, "
       "refit error above 25 %, or an MFU above 100 %); the exit status is 0"}};
  for (auto& s : trace_options()) specs.push_back(s);
  // With --trace: the model, GPU and parallel options the plan ran with (as for simulate --plan).
  for (auto& s : config_options()) specs.push_back(s);
  specs.push_back({"help", "", "show this help"});
  return specs;
}

struct Fitted {
  CostProfile profile;
  std::string summary;   // first line of the text output
  std::string refit;     // the trace fit's error on its units and its review, or empty
  bool written = false;  // the profile is already where --out says (a trace's calibrate_run)
  std::string refused;   // why the review refused the calibration ("" when acceptable)
};

// The review's lines: what priced the plan, and the plan's figures with the fitted coefficients.
std::string review_text(const RunCalibration& r) {
  std::string out = "  priced by " + r.pricing.label + "\n";
  if (r.review.acceptable) {
    out += "  with it the plan runs in " + format_time(r.review.makespan_s) + " at an MFU of " +
           format_percent(r.review.mfu) + ", peak memory " +
           format_bytes(r.review.peak_memory_bytes) + "\n";
  } else {
    out += "  refused: " + r.review.problem + "\n";
  }
  if (!r.not_applicable.empty())
    out += "  note: it prices a re-plan, not this schedule (" + r.not_applicable + ")\n";
  return out;
}

Expected<Fitted> fit_from_trace(const Args& args) {
  const auto plan_path = args.get("plan");
  if (!plan_path) return Error::bad_input("--trace needs --plan FILE (the plan that was run)");
  auto request = trace_run_request(args, "trace");
  if (!request) return request.error();
  auto rules = trace_rule_set(*request);
  if (!rules) return rules.error();
  // The same plan-file rule and cost model as `simulate --plan` (core/app): a plan, or a schedule
  // whose setup fixes the cost model (options that contradict it are an error).
  auto opened = open_plan_file(*plan_path);
  if (!opened) return opened.error();
  const Plan& plan = *opened->plan;
  auto config = config_spec(args);
  if (!config) return config.error();
  if (const auto& schedule = opened->schedule) {
    if (Status s = check_schedule_options(given_config_options(args), *config, schedule->config);
        !s)
      return s.error();
  } else if (Status s = check_plan_options(config->given_options, *config, plan, *plan_path); !s) {
    return s.error();
  }
  // The explorer's Calibrate from Trace is this call too: same pricing, same review.
  auto pricing = run_pricing(plan, *plan_path, *config);
  if (!pricing) return pricing.error();
  ThreadPool pool(0);  // the rank files are imported in parallel
  auto run = load_trace_run(*request, false, CancelToken::none(), ProgressSink::none(), pool);
  if (!run) return run.error();
  RunCalibrationOptions options;
  options.profile_out = args.get_or("out", "");
  options.write_refused = args.has("force");
  auto cal = calibrate_run(*run, *request, plan, *pricing, options);
  if (!cal) return cal.error();
  Fitted out;
  out.profile = cal->calibration.profile;
  out.written = true;
  if (!cal->review.acceptable) out.refused = cal->review.problem;
  const std::string files = run->ranks.size() == 1
                                ? run->ranks.front().path
                                : std::to_string(run->ranks.size()) + " rank files";
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "fitted trace %s against plan %s (rules %s): %lld units used, %lld skipped\n",
                files.c_str(), plan_path->c_str(), rules->name.c_str(),
                static_cast<long long>(cal->calibration.units_used),
                static_cast<long long>(cal->calibration.units_skipped));
  out.summary = buf;
  if (!run->layout_note.empty()) out.summary += "  traces: " + run->layout_note + "\n";
  if (run->table) out.summary += "  ranks: as " + run->table->file + " says\n";
  std::snprintf(buf, sizeof buf, "  refit on the units: MAPE %s, worst %s\n",
                format_percent(cal->calibration.mape).c_str(),
                format_percent(cal->calibration.max_error).c_str());
  out.refit = buf + review_text(*cal);
  return out;
}

Expected<Fitted> fit_from_file(const std::string& input) {
  auto profile = read_cost_profile(input);
  if (!profile) return profile.error();
  auto fitted = fit_profile(*profile);
  if (!fitted) return fitted.error().with_context(input);
  Fitted out;
  out.profile = std::move(*fitted);
  out.summary =
      "fitted " + input + " (" + std::to_string(out.profile.samples.size()) + " samples)\n";
  return out;
}

}  // namespace

int cmd_fit_costs(int argc, char** argv) {
  const auto specs = fit_costs_specs();
  auto args = Args::parse(argc, argv, 2, specs);
  if (!args) return report_error("fit-costs", args.error());
  if (args->has("help")) {
    std::fputs(
        format_help("slimpack fit-costs (INPUT | --trace FILE[,FILE...] --plan PLAN [options]) "
                    "--out FILE",
                    "INPUT is a cost profile JSON or a CSV with header kind,tokens,pairs,seconds "
                    "(per-layer time of one pack; kind = forward/backward). Fits seconds = kappa "
                    "+ alpha*tokens + beta*pairs per pass by least squares. With --trace, the "
                    "samples are the forward/backward units of a profiler trace of PLAN, mapped "
                    "by --trace-rules and inverted through the cost model the plan ran with (the "
                    "model, GPU and parallel options below, as for simulate --plan).",
                    specs)
            .c_str(),
        stdout);
    return 0;
  }
  Expected<Fitted> fitted = Error::bad_input("");
  if (args->has("trace")) {
    if (!args->positional().empty())
      return report_error("fit-costs", Error::bad_input("give either INPUT or --trace, not both"));
    fitted = fit_from_trace(*args);
  } else {
    for (const auto& s : specs) {
      if (s.name != "out" && s.name != "help" && args->has(s.name))
        // --force too: only a trace's calibration has a review to override.
        return report_error("fit-costs", Error::bad_input("--" + s.name + " needs --trace FILE"));
    }
    if (args->positional().size() != 1)
      return report_error("fit-costs",
                          Error::bad_input("expected exactly one INPUT file (or --trace FILE)"));
    fitted = fit_from_file(args->positional()[0]);
  }
  if (!fitted) return report_error("fit-costs", fitted.error());
  const std::string out = args->get_or("out", "");
  // A calibration the review refuses is not written (the explorer does not apply it either),
  // unless --force asks for it.
  if (!fitted->refused.empty() && !args->has("force")) {
    return report_error(
        "fit-costs",
        Error::bad_input("calibration refused: " + fitted->refused +
                         (out.empty() ? "" : "; " + out + " was not written (--force writes it)")));
  }
  if (out == "-") {
    if (!fitted->written) std::fputs(profile_to_json(fitted->profile).c_str(), stdout);
    return kExitOk;
  }
  if (!out.empty() && !fitted->written) {
    if (Status s = write_text_output(out, profile_to_json(fitted->profile)); !s)
      return report_error("fit-costs", s.error());
  }
  std::fputs(fitted->summary.c_str(), stdout);
  for (const auto* which : {"forward", "backward"}) {
    const auto& fit =
        std::string(which) == "forward" ? fitted->profile.forward : fitted->profile.backward;
    if (!fit) continue;
    std::printf(
        "  %-8s kappa %.4g s  alpha %.4g s/token  beta %.4g s/pair  r2 %.5f  (%d samples)\n", which,
        fit->coeffs.kappa, fit->coeffs.alpha, fit->coeffs.beta, fit->r2, fit->samples);
  }
  std::fputs(fitted->refit.c_str(), stdout);
  if (out.empty()) std::printf("(no --out given: the profile was not written)\n");
  return kExitOk;
}

}  // namespace slimpack::cli
