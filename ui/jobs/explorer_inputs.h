#pragma once
// What the user asked for, as plain values: the workload and the configuration. The GUI thread
// snapshots these from its panels and copies them into a job, so workers never read widgets.
// They are the core's scenario types (core/app/scenario.h), shared with the CLI, so that the
// explorer and `slimpack simulate` see the same batch and costs for the same inputs.
#include "app/scenario.h"

namespace slimpack::ui {

using slimpack::ConfigSpec;
using slimpack::WorkloadSpec;

}  // namespace slimpack::ui
