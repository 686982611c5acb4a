#pragma once
// Measured pack times -> the samples CSV that `slimpack fit-costs` reads (docs/design.md section 9)
// and the cost profile JSON (core/cost/profile.h).
#include <string>
#include <vector>

#include "common/status.h"
#include "cost/profile.h"
#include "cuda/pack_shapes.h"

namespace slimpack::profiling {

struct PackMeasurement {
  PackShape shape;
  double forward_s = 0.0;        // one layer: GEMMs + attention forward
  double backward_s = 0.0;       // one layer: gradient GEMMs + attention backward
  double attn_forward_s = 0.0;   // the attention part of forward_s, timed on its own
  double attn_backward_s = 0.0;  // the attention part of backward_s, timed on its own
};

// Median of the values (mean of the two middle ones for an even count); 0 for none.
double median(std::vector<double> values);

// `# comment` lines (each line of `comment`), then the header
// kind,tokens,pairs,seconds,attention_seconds,shape and two rows per measurement (forward first).
std::string samples_csv(const std::vector<PackMeasurement>& rows, const std::string& comment);

// A profile holding the forward and backward samples (not yet fitted).
CostProfile to_cost_profile(const std::vector<PackMeasurement>& rows, const std::string& device,
                            const std::string& provenance);

}  // namespace slimpack::profiling
