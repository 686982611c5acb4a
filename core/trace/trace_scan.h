#pragma once
// Finds where JSON values end without parsing them: the streaming import (trace_import.cpp) cuts
// the text into batches of whole events at the positions this returns, and parses each batch with
// simdjson. Strings (with their escapes) are tracked so that brackets inside them do not count;
// 64 bytes at a time with SSE2 where the target has it (every x86-64), byte by byte elsewhere.
#include <cstddef>

namespace slimpack::trace_scan {

// Nesting beyond this is refused (simdjson's own default maximum depth).
inline constexpr int kMaxDepth = 1024;

inline constexpr std::size_t kNone = static_cast<std::size_t>(-1);

struct ScanResult {
  // Offsets into the scanned text (kNone when not found):
  std::size_t first_end = kNone;  // just past the first '}' or ']' that closes to depth 0
  std::size_t last_end = kNone;   // just past the last one before the scan stopped
  std::size_t underflow = kNone;  // a '}' or ']' closing a bracket opened before the text
  std::size_t too_deep = kNone;   // the bracket that opened level kMaxDepth + 1
  bool in_string = false;         // the text ends inside a string
};

// Scans text[0, size) starting outside any string at depth 0. Stops at the first underflow or
// excess depth, or (when `stop_at_first_end`) at the first value end. Reads up to 63 bytes past
// `size` (the caller's padding); what they hold does not matter.
ScanResult scan(const char* text, std::size_t size, bool stop_at_first_end);

}  // namespace slimpack::trace_scan
