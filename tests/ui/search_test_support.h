#pragma once
// Shared by the Search tab's tests: a workload small enough to search in a test.
#include "app/scenario.h"

namespace slimpack::ui {

// The default preset in 256K-token batches: a few sequences a batch, solved in milliseconds.
inline WorkloadSpec smallSearchWorkload() {
  WorkloadSpec w;
  w.batch_tokens = 256 * 1024;
  return w;
}

}  // namespace slimpack::ui
