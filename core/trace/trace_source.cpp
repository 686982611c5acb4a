#include "trace/trace_source.h"

#include <sys/stat.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace slimpack {
namespace {

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

constexpr std::size_t kInputBytes = std::size_t{256} << 10;  // compressed bytes read at a time

class PlainSource final : public TraceTextSource {
 public:
  PlainSource(FilePtr f, std::string path, long long size, std::string head)
      : f_(std::move(f)), path_(std::move(path)), size_(size), head_(std::move(head)) {}

  Expected<std::size_t> read(char* dst, std::size_t cap) override {
    std::size_t n = 0;
    if (head_used_ < head_.size()) {
      n = std::min(cap, head_.size() - head_used_);
      std::memcpy(dst, head_.data() + head_used_, n);
      head_used_ += n;
    }
    if (n < cap) {
      const std::size_t got = std::fread(dst + n, 1, cap - n, f_.get());
      if (got < cap - n && std::ferror(f_.get()))
        return Error::bad_input(path_ + ": read failed after " + std::to_string(done_ + n + got) +
                                " bytes: " + std::strerror(errno));
      n += got;
    }
    done_ += n;
    return n;
  }
  double fraction() const override {
    return size_ > 0 ? static_cast<double>(done_) / static_cast<double>(size_) : -1.0;
  }

 private:
  FilePtr f_;
  std::string path_;
  long long size_;
  std::string head_;  // the bytes read to tell gzip from plain text
  std::size_t head_used_ = 0;
  long long done_ = 0;
};

// Every member of a multi-member stream, as gzip -d does; after the first member anything that is
// not another member is ignored, as zlib's gzread and gzip -d do (some writers pad with zeros).
class GzipSource final : public TraceTextSource {
 public:
  GzipSource(FilePtr f, std::string path, long long size, std::string head)
      : f_(std::move(f)), path_(std::move(path)), size_(size), in_(kInputBytes) {
    std::memcpy(in_.data(), head.data(), head.size());
    z_.next_in = in_.data();
    z_.avail_in = static_cast<uInt>(head.size());
    read_ = static_cast<long long>(head.size());
    if (inflateInit2(&z_, 16 + MAX_WBITS) != Z_OK) throw std::bad_alloc();
  }
  ~GzipSource() override { inflateEnd(&z_); }
  GzipSource(const GzipSource&) = delete;
  GzipSource& operator=(const GzipSource&) = delete;

  Expected<std::size_t> read(char* dst, std::size_t cap) override {
    if (done_) return std::size_t{0};
    z_.next_out = reinterpret_cast<Bytef*>(dst);
    z_.avail_out = static_cast<uInt>(std::min<std::size_t>(cap, 1u << 30));
    const uInt want = z_.avail_out;
    while (z_.avail_out > 0) {
      if (z_.avail_in == 0) {
        if (Status s = refill(); !s) return s.error();
        if (z_.avail_in == 0) return corrupt();  // the stream ends inside a member
      }
      const int r = inflate(&z_, Z_NO_FLUSH);
      if (r == Z_STREAM_END) {
        if (Status s = refill(2); !s) return s.error();
        if (z_.avail_in >= 2 && z_.next_in[0] == 0x1f && z_.next_in[1] == 0x8b) {
          member_ = offset();
          inflateReset(&z_);
          continue;
        }
        done_ = true;
        break;
      }
      if (r != Z_OK && !(r == Z_BUF_ERROR && z_.avail_in == 0)) return corrupt();
    }
    return static_cast<std::size_t>(want - z_.avail_out);
  }
  double fraction() const override {
    return size_ > 0 ? static_cast<double>(offset()) / static_cast<double>(size_) : -1.0;
  }

 private:
  long long offset() const { return read_ - static_cast<long long>(z_.avail_in); }
  Error corrupt() const {
    // zlib stops at the first bad block; where in the member the damage is, it does not tell.
    return Error::bad_input(path_ + ": gzip error: the compressed data is corrupt or truncated" +
                            (member_ > 0
                                 ? " (in the gzip member at byte " + std::to_string(member_) + ")"
                                 : std::string()));
  }
  // Reads more compressed bytes until at least `want` are buffered or the file ends.
  Status refill(std::size_t want = 1) {
    while (z_.avail_in < want && !eof_) {
      std::memmove(in_.data(), z_.next_in, z_.avail_in);
      const std::size_t got =
          std::fread(in_.data() + z_.avail_in, 1, in_.size() - z_.avail_in, f_.get());
      if (got == 0) {
        if (std::ferror(f_.get()))
          return Error::bad_input(path_ + ": read failed: " + std::strerror(errno));
        eof_ = true;
      }
      z_.next_in = in_.data();
      z_.avail_in += static_cast<uInt>(got);
      read_ += static_cast<long long>(got);
    }
    return {};
  }

  FilePtr f_;
  std::string path_;
  long long size_;
  std::vector<unsigned char> in_;
  z_stream z_{};
  long long read_ = 0;    // compressed bytes read from the file
  long long member_ = 0;  // where the current member starts
  bool eof_ = false, done_ = false;
};

// A producer thread fills chunks from the inner source; read() drains them in order. Full chunks
// wait in `ready`, emptied ones go back to `spare`, so at most `depth` chunks ever exist.
class PrefetchSource final : public TraceTextSource {
 public:
  PrefetchSource(std::unique_ptr<TraceTextSource> inner, std::size_t chunk, int depth)
      : inner_(std::move(inner)), chunk_(std::max<std::size_t>(chunk, 1)) {
    for (int i = 0; i < std::max(depth, 2); ++i) spare_.emplace_back();
    producer_ = std::thread([this] { produce(); });
  }
  ~PrefetchSource() override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    changed_.notify_all();
    producer_.join();
  }
  PrefetchSource(const PrefetchSource&) = delete;
  PrefetchSource& operator=(const PrefetchSource&) = delete;

  Expected<std::size_t> read(char* dst, std::size_t cap) override {
    std::size_t n = 0;
    while (n < cap) {
      if (current_.data.size() == current_.used) {
        std::unique_lock<std::mutex> lock(mutex_);
        if (!current_.data.empty()) {
          current_.data.clear();
          current_.used = 0;
          spare_.push_back(std::move(current_));
          changed_.notify_all();
        }
        changed_.wait(lock, [this] { return !ready_.empty() || finished_; });
        if (ready_.empty()) {  // the inner source ended, or failed
          if (n > 0 || !error_) return n;
          return *error_;
        }
        current_ = std::move(ready_.front());
        ready_.pop_front();
      }
      const std::size_t take = std::min(cap - n, current_.data.size() - current_.used);
      std::memcpy(dst + n, current_.data.data() + current_.used, take);
      current_.used += take;
      n += take;
      // Hand out what there is rather than wait: the parser works while the next chunk inflates.
      if (current_.used == current_.data.size()) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (ready_.empty()) break;
      }
    }
    return n;
  }
  double fraction() const override { return fraction_.load(std::memory_order_relaxed); }

 private:
  struct Chunk {
    std::vector<char> data;
    std::size_t used = 0;
  };

  void produce() {
    for (;;) {
      Chunk c;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        changed_.wait(lock, [this] { return stop_ || !spare_.empty(); });
        if (stop_) return;
        c = std::move(spare_.front());
        spare_.pop_front();
      }
      c.data.resize(chunk_);
      std::size_t filled = 0;
      Status failure;
      while (filled < chunk_) {
        auto got = inner_->read(c.data.data() + filled, chunk_ - filled);
        if (!got) {
          failure = got.error();
          break;
        }
        if (*got == 0) break;
        filled += *got;
      }
      c.data.resize(filled);
      fraction_.store(inner_->fraction(), std::memory_order_relaxed);
      std::lock_guard<std::mutex> lock(mutex_);
      if (filled > 0) ready_.push_back(std::move(c));
      if (!failure) error_ = failure.error();
      if (!failure || filled < chunk_) {
        finished_ = true;
        changed_.notify_all();
        return;
      }
      changed_.notify_all();
    }
  }

  std::unique_ptr<TraceTextSource> inner_;  // read by the producer thread only
  const std::size_t chunk_;
  std::thread producer_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Chunk> ready_;  // filled chunks, in text order
  std::deque<Chunk> spare_;  // empty chunks for the producer
  std::optional<Error> error_;
  bool finished_ = false, stop_ = false;
  Chunk current_;  // the chunk read() hands out from (reader's side only)
  std::atomic<double> fraction_{0.0};
};

}  // namespace

std::unique_ptr<TraceTextSource> prefetching_source(std::unique_ptr<TraceTextSource> inner,
                                                    std::size_t chunk, int depth) {
  return std::make_unique<PrefetchSource>(std::move(inner), chunk, depth);
}

Expected<std::unique_ptr<TraceTextSource>> open_trace_text_source(const std::string& path) {
  FilePtr f(std::fopen(path.c_str(), "rb"));
  if (!f) return Error::bad_input(path + ": cannot open: " + std::strerror(errno));
  struct stat st {};
  long long size = -1;
  if (fstat(fileno(f.get()), &st) == 0 && S_ISREG(st.st_mode)) size = st.st_size;
  char magic[2] = {0, 0};
  const std::size_t got = std::fread(magic, 1, 2, f.get());
  if (got < 2 && std::ferror(f.get()))
    return Error::bad_input(path + ": read failed: " + std::strerror(errno));
  std::string head(magic, got);
  if (got == 2 && static_cast<unsigned char>(magic[0]) == 0x1f &&
      static_cast<unsigned char>(magic[1]) == 0x8b)
    return prefetching_source(
        std::make_unique<GzipSource>(std::move(f), path, size, std::move(head)));
  // Plain text is not read ahead: the read's copy is about 7 % of the import, and read-ahead's
  // own copy and handoffs cost as much (measured: the same wall time, 8 % more CPU).
  return std::unique_ptr<TraceTextSource>(
      std::make_unique<PlainSource>(std::move(f), path, size, std::move(head)));
}

}  // namespace slimpack
