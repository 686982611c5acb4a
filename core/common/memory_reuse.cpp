#include "common/memory_reuse.h"

#include <atomic>
#include <climits>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace slimpack {
namespace {
std::atomic<bool> kept{false};
}  // namespace

bool freed_memory_is_kept() {
  return kept.load(std::memory_order_relaxed);
}

bool keep_freed_memory_for_reuse(std::size_t keep_bytes) {
#if defined(__GLIBC__)
  // 32 MiB is the largest mmap threshold glibc accepts on 64-bit (half its arena heap size).
  // Setting either value also turns off glibc's own moving thresholds, so they stay as set.
  constexpr int kMmapThreshold = 32 << 20;
  const int keep =
      keep_bytes > static_cast<std::size_t>(INT_MAX) ? INT_MAX : static_cast<int>(keep_bytes);
  const bool ok =
      mallopt(M_MMAP_THRESHOLD, kMmapThreshold) == 1 && mallopt(M_TRIM_THRESHOLD, keep) == 1;
  kept.store(ok, std::memory_order_relaxed);
  return ok;
#else
  (void)keep_bytes;
  return false;
#endif
}

}  // namespace slimpack
