#pragma once
// The simulator's memory: one uninitialised block per replica DAG, carved into flat arrays. Kept
// apart from the DAG's construction (dag_build.cpp) because its concerns are the allocator's:
// alignment, huge pages and page-fault avoidance.
#include <cstddef>
#include <cstdint>
#include <memory>

namespace slimpack::sim_detail {

// One uninitialised block per replica for the DAG and its schedule. Large blocks are 2 MiB aligned
// and, on Linux, advised as transparent huge pages: a fresh 4 KiB page fault costs microseconds,
// and at a million ops the faults cost more than the sweep itself.
//
// A simulation frees its blocks when it returns, and a search or a sweep simulates thousands of
// plans in a row on each worker thread: every thread keeps its last large block (up to
// kKeepBytes) for the next simulation, whose pages are then already mapped and warm.
class Arena {
 public:
  Arena() = default;
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  ~Arena();
  void reserve(std::size_t bytes);
  // `n` uninitialised elements of a trivial type; reserve() must have sized the arena.
  template <typename T>
  T* take(std::size_t n) {
    used_ = (used_ + kAlign - 1) / kAlign * kAlign;
    T* out = reinterpret_cast<T*>(static_cast<char*>(block_.get()) + used_);
    used_ += n * sizeof(T);
    return out;
  }
  static std::size_t bytes_for(std::size_t n, std::size_t size) { return n * size + kAlign; }

 private:
  static constexpr std::size_t kAlign = 64;
  static constexpr std::size_t kKeepBytes = std::size_t{512} << 20;
  void release();
  struct Free {
    void operator()(void* p) const;
  };
  std::unique_ptr<void, Free> block_;
  std::size_t capacity_ = 0;  // bytes of block_ (0 for a small, malloc'ed block)
  std::size_t used_ = 0;
};

// Asks the kernel to back [p, p + bytes) with writable pages in one call before a large result
// vector is filled: a page fault per 4 KiB costs microseconds (far more in a VM), and the result
// vectors of a million-op simulation span tens of MiB. Advice only; does nothing for small ranges,
// nor where the process keeps freed memory (common/memory_reuse.h): the pages are warm there.
void prefault_for_write(const void* p, std::size_t bytes);

// A view of `size` elements in an Arena (the owner keeps the arena alive).
template <typename T>
struct Array {
  T* ptr = nullptr;
  std::size_t count = 0;
  void take(Arena& arena, std::size_t n) {
    ptr = arena.take<T>(n);
    count = n;
  }
  T& operator[](std::size_t i) { return ptr[i]; }
  const T& operator[](std::size_t i) const { return ptr[i]; }
  std::size_t size() const { return count; }
  T* data() { return ptr; }
  const T* data() const { return ptr; }
  T* begin() { return ptr; }
  T* end() { return ptr + count; }
  const T* begin() const { return ptr; }
  const T* end() const { return ptr + count; }
};

}  // namespace slimpack::sim_detail
