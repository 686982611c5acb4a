#pragma once
// A plan or schedule file given on the command line, turned into the pipeline request that
// simulates it: `simulate --plan` and `trace pipeline --plan` take a plan the same way, so they
// price it the same way.
#include <string>

#include "app/pipeline.h"
#include "args.h"
#include "common/status.h"

namespace slimpack::cli {

// The file opened (a plan, or a schedule whose setup fixes the model and costs: configuration
// options that contradict it are refused), the configuration options checked against it, and the
// model named when --model, --hf-config or --gpu is given. The request builds no timeline.
Expected<PipelineRequest> plan_file_request(const Args& args, const std::string& path);

}  // namespace slimpack::cli
