// slimpack fit-costs INPUT --out FILE: least-squares fit of (kappa, alpha, beta) per pass.
#include <cstdio>

#include "args.h"
#include "commands.h"
#include "common/json_util.h"
#include "cost/profile.h"
#include "output.h"

namespace slimpack::cli {

int cmd_fit_costs(int argc, char** argv) {
  const std::vector<OptionSpec> specs = {
      {"out", "FILE", "write the fitted cost profile JSON ('-' = stdout)"},
      {"help", "", "show this help"}};
  auto args = Args::parse(argc, argv, 2, specs);
  if (!args) return report_error("fit-costs", args.error());
  if (args->has("help")) {
    std::fputs(
        format_help("slimpack fit-costs INPUT --out FILE",
                    "INPUT is a cost profile JSON or a CSV with header kind,tokens,pairs,seconds "
                    "(per-layer time of one pack; kind = forward/backward). Fits seconds = kappa "
                    "+ alpha*tokens + beta*pairs per pass by least squares.",
                    specs)
            .c_str(),
        stdout);
    return 0;
  }
  if (args->positional().size() != 1)
    return report_error("fit-costs", Error::bad_input("expected exactly one INPUT file"));
  const std::string input = args->positional()[0];
  auto profile = read_cost_profile(input);
  if (!profile) return report_error("fit-costs", profile.error());
  auto fitted = fit_profile(*profile);
  if (!fitted) return report_error("fit-costs", fitted.error().with_context(input));
  const std::string text = profile_to_json(*fitted);
  const std::string out = args->get_or("out", "");
  if (out == "-") {
    std::fputs(text.c_str(), stdout);
    return kExitOk;
  }
  if (!out.empty()) {
    if (Status s = json_util::write_file_atomic(out, text); !s)
      return report_error("fit-costs", s.error());
  }
  std::printf("fitted %s (%zu samples)\n", input.c_str(), fitted->samples.size());
  for (const auto* which : {"forward", "backward"}) {
    const auto& fit = std::string(which) == "forward" ? fitted->forward : fitted->backward;
    if (!fit) continue;
    std::printf(
        "  %-8s kappa %.4g s  alpha %.4g s/token  beta %.4g s/pair  r2 %.5f  (%d samples)\n", which,
        fit->coeffs.kappa, fit->coeffs.alpha, fit->coeffs.beta, fit->r2, fit->samples);
  }
  if (out.empty()) std::printf("(no --out given: the profile was not written)\n");
  return kExitOk;
}

}  // namespace slimpack::cli
