#include "plan_request.h"

#include "app/config_options.h"
#include "app/input_file.h"
#include "schedule_cli.h"
#include "setup.h"

namespace slimpack::cli {

Expected<PipelineRequest> plan_file_request(const Args& args, const std::string& path) {
  auto opened = open_plan_file(path);
  if (!opened) return opened.error();
  auto config = config_spec(args);
  if (!config) return config.error();
  PipelineRequest request;
  request.config = *config;
  request.plan = opened->plan;
  request.plan_file = path;
  request.plan_model_requested = args.has("model") || args.has("hf-config") || args.has("gpu");
  request.build_timeline = false;
  if (const auto& schedule = opened->schedule) {
    if (Status s = check_schedule_options(given_config_options(args), *config, schedule->config);
        !s)
      return s.error();
    request.config = schedule->config;
    request.plan_cost_fixed = true;
    request.plan_cost = schedule->cost;
  } else if (Status s = check_plan_options(config->given_options, *config, *opened->plan, path);
             !s) {
    return s.error();
  }
  return request;
}

}  // namespace slimpack::cli
