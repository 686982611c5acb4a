#pragma once
// Reads a trace file's JSON text into memory with the zeroed tail padding that simdjson needs,
// inflating gzip (detected by its magic bytes, not the file name) in one go with libdeflate.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "common/cancel.h"
#include "common/progress.h"
#include "common/status.h"

namespace slimpack {

// simdjson reads up to 64 bytes past the end of the text (SIMDJSON_PADDING).
inline constexpr std::size_t kTracePadding = 64;

// Buffers from trace_text_alloc() are malloc'd (2 MiB-aligned when large, for huge pages).
struct TraceTextFree {
  void operator()(char* p) const;
};
using TraceTextBuffer = std::unique_ptr<char, TraceTextFree>;

// `bytes` uninitialised bytes; large buffers are advised for transparent huge pages, since this
// VM-like hosts charge ~12 us per freshly touched 4 KiB page (150 ms for a 50 MB trace).
TraceTextBuffer trace_text_alloc(std::size_t bytes);

struct TraceText {
  // The text followed by kTracePadding zero bytes. Not a std::string: zero-filling a buffer that
  // is overwritten right away costs as much as parsing it.
  TraceTextBuffer buffer;
  std::size_t capacity = 0;  // allocated bytes
  std::size_t size = 0;      // length of the text

  const char* data() const { return buffer.get(); }
};

// Errors name the file and the OS or gzip reason. Progress: stage "reading trace".
// The text may be at most kMaxTraceTextBytes (simdjson On-Demand indexes documents up to 4 GiB).
inline constexpr std::size_t kMaxTraceTextBytes = 0xFFFFFFFFull;
Expected<TraceText> read_trace_text(const std::string& path, const CancelToken& cancel,
                                    ProgressSink& progress);

// The gzip part on bytes already in memory (all members of a multi-member stream, as gzip -d
// does); `path` prefixes errors. `max_text` caps the inflated size (tests pass small caps).
// `front` bytes (spaces) are left before the text: it is at buffer + front, `size` long.
Expected<TraceText> inflate_gzip(const unsigned char* data, std::size_t size,
                                 const std::string& path, const CancelToken& cancel,
                                 std::size_t max_text = kMaxTraceTextBytes, std::size_t front = 0);

// A gzip file whose text its trailer says is at most `max_text` bytes, read and inflated whole
// (with `front` spare bytes, as inflate_gzip). nullopt when the file is not gzip, says it is
// larger, or does not inflate within `max_text`: the streaming reader (trace_source.h) then reads
// it in bounded memory, and names what is wrong with it.
std::optional<TraceText> inflate_small_gzip_file(const std::string& path, std::size_t max_text,
                                                 std::size_t front, const CancelToken& cancel);

}  // namespace slimpack
