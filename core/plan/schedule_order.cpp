#include "plan/schedule_order.h"

#include <algorithm>

namespace slimpack {
namespace {

std::vector<OrderedOp> one_f_one_b(int stages, int stage, int mf, int mb, int w) {
  std::vector<OrderedOp> ops;
  ops.reserve(static_cast<std::size_t>(mf + mb));
  const int warm = std::min(mf, stages - stage - 1 + w);
  int issued = 0;
  for (int b = 0; b < mb; ++b) {
    const int target = std::min(mf, warm + b + 1);
    while (issued < target) ops.push_back({Pass::Forward, issued++, 0});
    ops.push_back({Pass::Backward, b, 0});
  }
  while (issued < mf) ops.push_back({Pass::Forward, issued++, 0});
  return ops;
}

std::vector<OrderedOp> gpipe(int mf, int mb) {
  std::vector<OrderedOp> ops;
  ops.reserve(static_cast<std::size_t>(mf + mb));
  for (int f = 0; f < mf; ++f) ops.push_back({Pass::Forward, f, 0});
  for (int b = 0; b < mb; ++b) ops.push_back({Pass::Backward, b, 0});
  return ops;
}

// Megatron's interleaved schedule: micro-batches go through the v chunks in groups of p; virtual
// step k maps to (chunk, micro-batch). Warm-up (p - s - 1) * 2 + (v - 1) * p forward steps, then
// 1F1B steady state, then cool-down backwards.
std::vector<OrderedOp> interleaved(int stages, int stage, int m, int v) {
  const int total = m * v;
  auto fwd_at = [&](int k) {
    const int group = k / (stages * v);
    const int in_group = k % (stages * v);
    const int chunk = in_group / stages;
    const int mb = group * stages + in_group % stages;
    return OrderedOp{Pass::Forward, mb, static_cast<std::int32_t>(chunk)};
  };
  auto bwd_at = [&](int k) {
    OrderedOp op = fwd_at(k);
    op.pass = Pass::Backward;
    op.chunk = static_cast<std::int32_t>(v - 1 - op.chunk);
    return op;
  };
  int warm = (m == stages) ? total : std::min(total, (stages - stage - 1) * 2 + (v - 1) * stages);
  std::vector<OrderedOp> ops;
  ops.reserve(static_cast<std::size_t>(2 * total));
  int f = 0, b = 0;
  for (; f < warm; ++f) ops.push_back(fwd_at(f));
  while (f < total) {
    ops.push_back(fwd_at(f++));
    ops.push_back(bwd_at(b++));
  }
  while (b < total) ops.push_back(bwd_at(b++));
  return ops;
}

}  // namespace

std::vector<OrderedOp> stage_order(ScheduleKind kind, int stages, int stage, int mf, int mb,
                                   int warmup_extra, int vchunks) {
  switch (kind) {
    case ScheduleKind::GPipe:
      return gpipe(mf, mb);
    case ScheduleKind::Interleaved:
      if (interleaved_fallback(stages, mf, mb, vchunks) == InterleavedFallback::None)
        return interleaved(stages, stage, mf, vchunks);
      return one_f_one_b(stages, stage, mf, mb, warmup_extra);
    case ScheduleKind::OneFOneB:
      break;
  }
  return one_f_one_b(stages, stage, mf, mb, warmup_extra);
}

InterleavedFallback interleaved_fallback(int stages, int mf, int mb, int vchunks) {
  if (vchunks <= 1) return InterleavedFallback::OneChunk;
  if (mf != mb) return InterleavedFallback::UnequalPacks;
  if (stages <= 0 || mf % stages != 0) return InterleavedFallback::NotMultipleOfStages;
  return InterleavedFallback::None;
}

const char* interleaved_fallback_rule(InterleavedFallback why) {
  switch (why) {
    case InterleavedFallback::None:
      break;
    case InterleavedFallback::OneChunk:
      return "interleaved needs at least 2 virtual chunks per stage";
    case InterleavedFallback::UnequalPacks:
      return "interleaved needs as many backward packs as forward packs";
    case InterleavedFallback::NotMultipleOfStages:
      return "interleaved needs a pack count that is a multiple of pp";
  }
  return "";
}

int forwards_before_backward(ScheduleKind kind, int mf, int b, int warmup_extra) {
  if (kind == ScheduleKind::GPipe) return mf;
  return std::min(mf, warmup_extra + b + 1);
}

}  // namespace slimpack
