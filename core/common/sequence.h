#pragma once
// A training sample: an id and its length in tokens. Shared by workloads, batches and plans.
#include <cstdint>
#include <string>
#include <vector>

namespace slimpack {

using Tokens = std::int64_t;

struct Sequence {
  std::string id;
  Tokens length = 0;
  // Index of the sample in the dataset it was drawn from (the pool's order: a length file's values
  // in file order, a histogram expanded bin by bin); -1 when unknown. Lets a runtime fetch the
  // sample a plan's sequence stands for (docs/file-formats-schedule.md).
  std::int64_t sample = -1;
};

// The sequences of one training iteration.
struct Batch {
  std::vector<Sequence> sequences;

  Tokens total_tokens() const {
    Tokens t = 0;
    for (const auto& s : sequences) t += s.length;
    return t;
  }
};

}  // namespace slimpack
