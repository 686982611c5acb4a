#include "sim/dag_arena.h"

#include <algorithm>
#include <cstdlib>
#include <new>

#include "common/memory_reuse.h"

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace slimpack::sim_detail {

void Arena::Free::operator()(void* p) const {
  std::free(p);
}

namespace {

// This thread's kept block (see Arena): its address and size, or null.
struct KeptBlock {
  void* ptr = nullptr;
  std::size_t bytes = 0;
  ~KeptBlock() { std::free(ptr); }
};
thread_local KeptBlock kept;

}  // namespace

Arena::~Arena() {
  release();
}

// Hands a large block to the thread's keep slot (the larger of the two stays), or frees it.
void Arena::release() {
  if (capacity_ > 0 && capacity_ <= kKeepBytes && capacity_ > kept.bytes) {
    std::free(kept.ptr);
    kept.ptr = block_.release();
    kept.bytes = capacity_;
  }
  block_.reset();
  capacity_ = 0;
}

void Arena::reserve(std::size_t bytes) {
  constexpr std::size_t kHuge = std::size_t{2} << 20;
  release();
  used_ = 0;
  if (bytes < kHuge) {
    block_.reset(std::malloc(std::max<std::size_t>(bytes, 1)));
  } else {
    // aligned_alloc wants a multiple of the alignment; the tail is never touched.
    const std::size_t rounded = (bytes + kHuge - 1) / kHuge * kHuge;
    if (kept.ptr && kept.bytes >= rounded) {
      block_.reset(kept.ptr);
      capacity_ = kept.bytes;
      kept.ptr = nullptr;
      kept.bytes = 0;
      return;
    }
    block_.reset(std::aligned_alloc(kHuge, rounded));
    capacity_ = rounded;
#ifdef MADV_HUGEPAGE
    if (block_) madvise(block_.get(), rounded, MADV_HUGEPAGE);  // advice only; failure is harmless
#endif
  }
  if (!block_) throw std::bad_alloc();
}

void prefault_for_write(const void* p, std::size_t bytes) {
#ifdef MADV_POPULATE_WRITE
  constexpr std::size_t kPage = 4096;
  constexpr std::size_t kWorthIt = std::size_t{256} << 10;  // below this, faults are cheap enough
  if (bytes < kWorthIt || freed_memory_is_kept()) return;
  const auto first = (reinterpret_cast<std::uintptr_t>(p) + kPage - 1) / kPage * kPage;
  const auto last = (reinterpret_cast<std::uintptr_t>(p) + bytes) / kPage * kPage;
  // Failure (an old kernel) is harmless: the pages then fault in one by one as before.
  if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_POPULATE_WRITE);
#else
  (void)p;
  (void)bytes;
#endif
}

}  // namespace slimpack::sim_detail
