#pragma once
// Process-wide allocator policy for programs that simulate over and over (the explorer on every
// slider move, `slimpack search` and `sweep` thousands of times, the benchmarks).
#include <cstddef>

namespace slimpack {

// Keeps freed memory in the process for the next allocation instead of handing it back to the
// kernel. glibc by default serves blocks above a (moving) threshold with mmap and returns the top
// of the heap with sbrk when more than twice that is free, so every simulation's result vectors
// (tens of MiB at a million ops) arrive as fresh pages: each 4 KiB page is a fault, a zeroing
// and a cgroup charge, and on the development VM that is a fifth of a 131k-op simulation.
// With this, blocks up to 32 MiB come from the heap and up to `keep_bytes` of free heap stay
// mapped. Call once, first thing in main(), before any thread starts. Returns false where the
// allocator is not glibc's (musl, sanitizer runtimes) and nothing changed.
bool keep_freed_memory_for_reuse(std::size_t keep_bytes = std::size_t{256} << 20);

// Whether keep_freed_memory_for_reuse() took effect: then a large block is most likely warm heap,
// and asking the kernel to populate its pages ahead (sim_detail::prefault_for_write) only walks
// page tables that are populated already.
bool freed_memory_is_kept();

}  // namespace slimpack
