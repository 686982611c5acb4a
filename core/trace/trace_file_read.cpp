// Plain files are read whole with one fread; gzip files are inflated with gzread into a buffer
// that doubles when nearly full, since the decompressed size is not known up front.
#include "trace/trace_file_read.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

namespace slimpack {
namespace {

// simdjson On-Demand indexes documents up to 4 GiB.
constexpr std::size_t kMaxTextBytes = 0xFFFFFFFFull;
constexpr unsigned kGzChunk = 1u << 24;  // at most 16 MiB per gzread: a cancel/progress check each
constexpr std::size_t kGzMinRoom = 1u << 16;  // grow the buffer when less than this is left

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

// Grows the buffer to `capacity`, keeping the text; new bytes are left uninitialized.
void reserve(TraceText& text, std::size_t capacity) {
  auto bigger = std::make_unique_for_overwrite<char[]>(capacity);
  if (text.size > 0) std::memcpy(bigger.get(), text.buffer.get(), text.size);
  text.buffer = std::move(bigger);
  text.capacity = capacity;
}

// zlib prefixes its messages with the path it was given; ours already names the file.
std::string zlib_reason(const char* msg, const std::string& path) {
  std::string reason = msg ? msg : "unknown";
  if (reason.rfind(path + ": ", 0) == 0) reason.erase(0, path.size() + 2);
  return reason;
}

Error too_large(const std::string& path) {
  return Error::bad_input(path +
                          ": trace text is larger than 4 GiB, which the parser cannot index");
}

Expected<TraceText> read_plain(const std::string& path, std::FILE* f, std::size_t file_size) {
  if (file_size > kMaxTextBytes) return too_large(path);
  TraceText text;
  reserve(text, file_size + kTracePadding);
  text.size = std::fread(text.buffer.get(), 1, file_size, f);
  if (text.size != file_size || std::ferror(f))
    return Error::bad_input(path + ": read failed after " + std::to_string(text.size) + " of " +
                            std::to_string(file_size) + " bytes");
  std::memset(text.buffer.get() + text.size, 0, kTracePadding);
  return text;
}

Expected<TraceText> read_gzip(const std::string& path, std::size_t file_size,
                              const CancelToken& cancel, ProgressSink& progress) {
  gzFile gz = gzopen(path.c_str(), "rb");
  if (!gz) return Error::bad_input(path + ": cannot open gzip stream: " + std::strerror(errno));
  std::unique_ptr<gzFile_s, int (*)(gzFile)> guard(gz, gzclose);
  gzbuffer(gz, 1u << 18);
  TraceText text;
  // Traces compress about 5-15x: start at 8x (at most 256 MiB up front) and double when full.
  reserve(text, std::clamp<std::size_t>(file_size * 8, 1u << 16, 1u << 28));
  for (;;) {
    if (cancel.cancelled()) return Error::cancelled();
    // Double when less than kGzMinRoom is left, and never ask gzread for more than fits: a
    // stream that inflates more than ~16x (real traces do), or a small first guess, used to need
    // several doublings per 16 MiB read, and gzread wrote past the buffer.
    // At the largest capacity, size <= kMaxTextBytes (checked after each read) leaves kGzMinRoom.
    constexpr std::size_t kLargest = kMaxTextBytes + kGzMinRoom + kTracePadding;
    if (text.capacity - text.size < kGzMinRoom + kTracePadding && text.capacity < kLargest)
      reserve(text, std::min(text.capacity * 2, kLargest));
    const auto room = text.capacity - text.size - kTracePadding;
    const int n = gzread(gz, text.buffer.get() + text.size,
                         static_cast<unsigned>(std::min<std::size_t>(room, kGzChunk)));
    if (n < 0) {
      int code = 0;
      const char* msg = gzerror(gz, &code);
      return Error::bad_input(path + ": gzip error after " + std::to_string(text.size) +
                              " decompressed bytes: " + zlib_reason(msg, path));
    }
    if (n == 0) {
      // gzread returns 0 both at a clean end and for a stream cut short; gzerror tells them apart.
      int code = Z_OK;
      const char* msg = gzerror(gz, &code);
      if (code != Z_OK && code != Z_STREAM_END)
        return Error::bad_input(path + ": gzip error: " + zlib_reason(msg, path));
      break;
    }
    text.size += static_cast<std::size_t>(n);
    if (text.size > kMaxTextBytes) return too_large(path);
    if (file_size > 0) {
      const auto at = static_cast<double>(gzoffset(gz));
      progress.report("reading trace", std::min(1.0, at / static_cast<double>(file_size)));
    }
  }
  std::memset(text.buffer.get() + text.size, 0, kTracePadding);
  return text;
}

}  // namespace

Expected<TraceText> read_trace_text(const std::string& path, const CancelToken& cancel,
                                    ProgressSink& progress) {
  FilePtr f(std::fopen(path.c_str(), "rb"));
  if (!f) return Error::bad_input(path + ": cannot open: " + std::strerror(errno));
  if (std::fseek(f.get(), 0, SEEK_END) != 0)
    return Error::bad_input(path + ": cannot seek: " + std::strerror(errno));
  const long end = std::ftell(f.get());
  if (end < 0) return Error::bad_input(path + ": cannot size: " + std::strerror(errno));
  std::rewind(f.get());
  const auto file_size = static_cast<std::size_t>(end);
  unsigned char magic[2] = {0, 0};
  const bool gzip = std::fread(magic, 1, 2, f.get()) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
  if (!gzip) {
    std::rewind(f.get());
    auto text = read_plain(path, f.get(), file_size);
    if (text) progress.report("reading trace", 1.0);
    return text;
  }
  f.reset();
  return read_gzip(path, file_size, cancel, progress);
}

}  // namespace slimpack
