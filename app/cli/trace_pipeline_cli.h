#pragma once
// slimpack trace pipeline RUN --plan PLAN: where a measured run's bubbles come from, per stage and
// cause, beside the simulated plan's (core/app/trace_pipeline.h).
namespace slimpack::cli {

int trace_pipeline(int argc, char** argv);

}  // namespace slimpack::cli
