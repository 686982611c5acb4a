#pragma once
// A trace file's JSON text, piece by piece, for the streaming import: plain files are read, gzip
// files (told by their magic bytes, not the name) inflated as they are read, so that the text is
// never held whole. Pipes and FIFOs work too (`zcat t.json.gz | slimpack trace info /dev/stdin`).
//
// Gzip is inflated with zlib's streaming inflate (Debian's zlib1g: maintained, in every Debian
// system, the reference implementation of the format). libdeflate, which the import used before,
// inflates a whole member into one buffer and has no streaming interface, so the peak memory was
// the whole text; on Kineto traces zlib inflates at about 70% of libdeflate's speed
// (docs/performance.md), well above the parser's.
#include <cstddef>
#include <memory>
#include <string>

#include "common/status.h"

namespace slimpack {

class TraceTextSource {
 public:
  virtual ~TraceTextSource() = default;
  // Writes up to `cap` bytes of text to `dst`; 0 at the end of the text. Errors name the file.
  virtual Expected<std::size_t> read(char* dst, std::size_t cap) = 0;
  // The share of the input consumed so far (compressed bytes for gzip); -1 when the size is not
  // known (a pipe).
  virtual double fraction() const = 0;
};

// Opens `path`; errors name it and the OS reason. A gzip file is inflated ahead on a thread of its
// own (prefetching_source): inflating takes about a third of a gzip import's time, and the parser
// need not wait for it.
Expected<std::unique_ptr<TraceTextSource>> open_trace_text_source(const std::string& path);

// `inner` read ahead on a thread of its own into `depth` buffers of `chunk` bytes (bounded memory:
// depth * chunk), handed out by read() in order. An error of `inner` comes after the text before
// it, as from `inner` itself. The destructor stops the thread after the read it is in.
std::unique_ptr<TraceTextSource> prefetching_source(std::unique_ptr<TraceTextSource> inner,
                                                    std::size_t chunk = std::size_t{1} << 20,
                                                    int depth = 4);

}  // namespace slimpack
