// The allocator policy of the shipped programs: a freed large block stays in the process.
#include "common/memory_reuse.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <memory>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace slimpack {
namespace {

#if defined(__GLIBC__)
TEST(MemoryReuse, FreedLargeBlockStaysForTheNextAllocation) {
  if (!keep_freed_memory_for_reuse()) GTEST_SKIP() << "not glibc's allocator (a sanitizer's)";
  constexpr std::size_t kBytes = std::size_t{8} << 20;  // above glibc's default mmap threshold
  // With glibc's defaults the block is mmapped and goes back to the kernel on free; with the
  // policy it comes from the heap and, freed, stays there, mapped.
  const std::size_t mapped_before = mallinfo2().hblkhd;
  {
    auto block = std::make_unique<char[]>(kBytes);
    std::memset(block.get(), 1, kBytes);
    EXPECT_EQ(mallinfo2().hblkhd, mapped_before) << "a block below 32 MiB was mmapped";
  }
  EXPECT_GE(mallinfo2().fordblks, kBytes) << "the freed block went back to the kernel";
}
#endif

}  // namespace
}  // namespace slimpack
