// Plain files are read whole with one fread. Gzip files are read whole and inflated in one call
// per member with libdeflate (several times faster than zlib's streaming inflate): the output
// buffer is sized from the gzip trailer's ISIZE and grown, within deflate's maximum ratio, when a
// member does not fit (ISIZE is the size mod 2^32 of the last member only).
#include "trace/trace_file_read.h"

#include <libdeflate.h>
#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <optional>

namespace slimpack {
namespace {

// A deflate stream inflates at most ~1032:1 (258-byte matches of 2-bit codes); a bigger claim is a
// corrupt or hostile stream, and the buffer never grows past it.
constexpr std::size_t kMaxDeflateRatio = 1032;
constexpr std::size_t kMinGzipCapacity = std::size_t{1} << 16;

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

struct DecompressorFree {
  void operator()(libdeflate_decompressor* d) const { libdeflate_free_decompressor(d); }
};

// Grows the buffer to `capacity`, keeping the text; new bytes are left uninitialized.
void reserve(TraceText& text, std::size_t capacity) {
  TraceTextBuffer bigger = trace_text_alloc(capacity);
  if (text.size > 0) std::memcpy(bigger.get(), text.buffer.get(), text.size);
  text.buffer = std::move(bigger);
  text.capacity = capacity;
}

Error too_large(const std::string& path, std::size_t max_text) {
  return Error::bad_input(path + ": trace text is larger than " + std::to_string(max_text) +
                          " bytes, which the parser cannot index");
}

Expected<TraceText> read_plain(const std::string& path, std::FILE* f, std::size_t file_size) {
  if (file_size > kMaxTraceTextBytes) return too_large(path, kMaxTraceTextBytes);
  TraceText text;
  reserve(text, file_size + kTracePadding);
  text.size = std::fread(text.buffer.get(), 1, file_size, f);
  if (text.size != file_size || std::ferror(f))
    return Error::bad_input(path + ": read failed after " + std::to_string(text.size) + " of " +
                            std::to_string(file_size) + " bytes");
  std::memset(text.buffer.get() + text.size, 0, kTracePadding);
  return text;
}

std::uint32_t read_le32(const unsigned char* p) {
  return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
         static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
}

}  // namespace

void TraceTextFree::operator()(char* p) const {
  std::free(p);
}

TraceTextBuffer trace_text_alloc(std::size_t bytes) {
  constexpr std::size_t kHuge = std::size_t{2} << 20;
  char* p = nullptr;
  if (bytes < kHuge) {
    p = static_cast<char*>(std::malloc(std::max<std::size_t>(bytes, 1)));
  } else {
    // aligned_alloc wants a multiple of the alignment; the tail is never touched.
    const std::size_t rounded = (bytes + kHuge - 1) / kHuge * kHuge;
    p = static_cast<char*>(std::aligned_alloc(kHuge, rounded));
#ifdef MADV_HUGEPAGE
    if (p) madvise(p, rounded, MADV_HUGEPAGE);  // advice only; failure is harmless
#endif
  }
  if (!p) throw std::bad_alloc();
  return TraceTextBuffer(p);
}

Expected<TraceText> inflate_gzip(const unsigned char* data, std::size_t size,
                                 const std::string& path, const CancelToken& cancel,
                                 std::size_t max_text, std::size_t front) {
  std::unique_ptr<libdeflate_decompressor, DecompressorFree> d(libdeflate_alloc_decompressor());
  if (!d) throw std::bad_alloc();
  TraceText text;
  // The last member's ISIZE: exact for the usual single-member file whose text fits the parser.
  const std::size_t hint = size >= 18 ? read_le32(data + size - 4) : 0;
  const std::size_t ratio_cap = std::min(max_text, size * kMaxDeflateRatio + kMinGzipCapacity);
  // (Not std::clamp: a cap below kMinGzipCapacity, as tests pass, would break its precondition.)
  reserve(text, front + std::min(std::max(hint, kMinGzipCapacity), ratio_cap) + kTracePadding);
  // The bytes before the text count as text while inflating (reserve() keeps them), and are
  // taken off its size at the end.
  text.size = front;
  if (front > 0) std::memset(text.buffer.get(), ' ', front);
  max_text += front;
  std::size_t pos = 0;
  while (pos < size) {
    if (cancel.cancelled()) return Error::cancelled();
    // After the first member, anything that is not another gzip member is ignored, as zlib's
    // gzread and gzip -d do (some writers pad files with zeros).
    if (pos > 0 && (size - pos < 2 || data[pos] != 0x1f || data[pos + 1] != 0x8b)) break;
    const std::size_t member_cap =
        std::min(max_text - text.size, (size - pos) * kMaxDeflateRatio + kMinGzipCapacity);
    std::size_t in_used = 0, out_used = 0;
    const std::size_t room = text.capacity - kTracePadding - text.size;
    const libdeflate_result r = libdeflate_gzip_decompress_ex(
        d.get(), data + pos, size - pos, text.buffer.get() + text.size, room, &in_used, &out_used);
    if (r == LIBDEFLATE_SUCCESS) {
      text.size += out_used;
      pos += in_used;
      continue;
    }
    if (r == LIBDEFLATE_INSUFFICIENT_SPACE) {
      // Retry the member with twice the room, up to what deflate can produce from what is left.
      if (room >= member_cap) {
        if (text.size + room >= max_text) return too_large(path, max_text - front);
        return Error::bad_input(path +
                                ": gzip error: the stream inflates beyond deflate's maximum "
                                "ratio (corrupt data)");
      }
      const std::size_t new_room = std::min(std::max(room * 2, kMinGzipCapacity), member_cap);
      reserve(text, text.size + new_room + kTracePadding);
      continue;
    }
    // libdeflate inflates a member whole or not at all: where in it the damage is, it cannot say.
    return Error::bad_input(
        path + ": gzip error: the compressed data is corrupt or truncated" +
        (pos > 0 ? " (in the gzip member at byte " + std::to_string(pos) + ")" : std::string()));
  }
  std::memset(text.buffer.get() + text.size, 0, kTracePadding);
  text.size -= front;
  return text;
}

std::optional<TraceText> inflate_small_gzip_file(const std::string& path, std::size_t max_text,
                                                 std::size_t front, const CancelToken& cancel) {
  FilePtr f(std::fopen(path.c_str(), "rb"));
  if (!f || std::fseek(f.get(), 0, SEEK_END) != 0) return std::nullopt;
  const long end = std::ftell(f.get());
  if (end < 18) return std::nullopt;  // no gzip member is shorter
  unsigned char head[2] = {0, 0}, trailer[4] = {0, 0, 0, 0};
  std::rewind(f.get());
  if (std::fread(head, 1, 2, f.get()) != 2 || head[0] != 0x1f || head[1] != 0x8b)
    return std::nullopt;
  if (std::fseek(f.get(), end - 4, SEEK_SET) != 0 || std::fread(trailer, 1, 4, f.get()) != 4)
    return std::nullopt;
  if (read_le32(trailer) > max_text) return std::nullopt;
  std::rewind(f.get());
  Expected<TraceText> packed = read_plain(path, f.get(), static_cast<std::size_t>(end));
  if (!packed) return std::nullopt;
  auto text = inflate_gzip(reinterpret_cast<const unsigned char*>(packed->data()), packed->size,
                           path, cancel, max_text, front);
  if (!text) return std::nullopt;
  return std::move(*text);
}

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
  std::rewind(f.get());
  if (!gzip) {
    auto text = read_plain(path, f.get(), file_size);
    if (text) progress.report("reading trace", 1.0);
    return text;
  }
  // The compressed bytes, read whole (padding-free: libdeflate reads only what it is given).
  Expected<TraceText> packed = read_plain(path, f.get(), file_size);
  if (!packed) return packed.error();
  f.reset();
  progress.report("reading trace", 0.1);
  auto text = inflate_gzip(reinterpret_cast<const unsigned char*>(packed->data()), packed->size,
                           path, cancel);
  if (text) progress.report("reading trace", 1.0);
  return text;
}

}  // namespace slimpack
