#pragma once
// Reads a trace file's JSON text into memory with the zeroed tail padding that simdjson needs,
// decompressing gzip (detected by its magic bytes, not the file name) in chunks.
#include <cstddef>
#include <memory>
#include <string>

#include "common/cancel.h"
#include "common/progress.h"
#include "common/status.h"

namespace slimpack {

// simdjson reads up to 64 bytes past the end of the text (SIMDJSON_PADDING).
inline constexpr std::size_t kTracePadding = 64;

struct TraceText {
  // The text followed by kTracePadding zero bytes. Not a std::string: zero-filling a buffer that
  // is overwritten right away costs as much as parsing it.
  std::unique_ptr<char[]> buffer;
  std::size_t capacity = 0;  // allocated bytes
  std::size_t size = 0;      // length of the text

  const char* data() const { return buffer.get(); }
};

// Errors name the file and the OS or zlib reason. Progress: stage "reading trace", fraction of
// the (compressed) file read.
Expected<TraceText> read_trace_text(const std::string& path, const CancelToken& cancel,
                                    ProgressSink& progress);

}  // namespace slimpack
