// The read-ahead source the gzip import inflates through: the text comes out whole and in order
// whatever the read sizes, an inner error comes after the text before it, memory stays bounded,
// and dropping the source mid-text stops its thread. Also run under ThreadSanitizer.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "trace/trace_source.h"

namespace slimpack {
namespace {

// Text in reads of at most `step` bytes; fails with a read error at `fail_at` when set.
class FakeSource final : public TraceTextSource {
 public:
  FakeSource(std::string text, std::size_t step, std::size_t fail_at = std::string::npos,
             std::atomic<std::size_t>* served = nullptr)
      : text_(std::move(text)), step_(step), fail_at_(fail_at), served_(served) {}
  Expected<std::size_t> read(char* dst, std::size_t cap) override {
    if (pos_ >= fail_at_)
      return Error::bad_input("fake.json: read failed at " + std::to_string(pos_));
    std::size_t n = std::min({cap, step_, text_.size() - pos_, fail_at_ - pos_});
    text_.copy(dst, n, pos_);
    pos_ += n;
    if (served_) served_->store(pos_);
    return n;
  }
  double fraction() const override {
    return static_cast<double>(pos_) / static_cast<double>(text_.size());
  }

 private:
  std::string text_;
  std::size_t step_, pos_ = 0, fail_at_;
  std::atomic<std::size_t>* served_;
};

std::string pattern(std::size_t n) {
  std::string s(n, ' ');
  for (std::size_t i = 0; i < n; ++i) s[i] = static_cast<char>('a' + (i * 7 + i / 13) % 26);
  return s;
}

// Reads everything in reads of `cap` bytes; the error, if any, after the text.
std::string drain(TraceTextSource& src, std::size_t cap, std::string* error = nullptr) {
  std::string out, buf(cap, '\0');
  for (;;) {
    auto got = src.read(buf.data(), cap);
    if (!got) {
      if (error) *error = got.error().message;
      return out;
    }
    if (*got == 0) return out;
    out.append(buf.data(), *got);
  }
}

TEST(TracePrefetch, TheTextComesOutWholeAndInOrder) {
  const std::string text = pattern(300'007);
  for (std::size_t step : {3u, 999u, 4096u, 1u << 20})
    for (std::size_t chunk : {61u, 1000u, 65536u})
      for (std::size_t cap : {7u, 333u, 100'000u}) {
        auto src = prefetching_source(std::make_unique<FakeSource>(text, step), chunk, 3);
        EXPECT_EQ(drain(*src, cap), text) << step << " " << chunk << " " << cap;
        EXPECT_DOUBLE_EQ(src->fraction(), 1.0);
        // At the end it stays at the end.
        char c;
        auto again = src->read(&c, 1);
        ASSERT_TRUE(again.ok());
        EXPECT_EQ(*again, 0u);
      }
}

TEST(TracePrefetch, AnInnerErrorComesAfterTheTextBeforeIt) {
  const std::string text = pattern(50'000);
  auto src =
      prefetching_source(std::make_unique<FakeSource>(text, 1000, 12'345), std::size_t{4096}, 2);
  std::string error;
  EXPECT_EQ(drain(*src, 3000, &error), text.substr(0, 12'345));
  EXPECT_EQ(error, "fake.json: read failed at 12345");
}

TEST(TracePrefetch, ReadsAheadAtMostDepthChunks) {
  const std::string text = pattern(1'000'000);
  std::atomic<std::size_t> served{0};
  auto src = prefetching_source(
      std::make_unique<FakeSource>(text, 100'000, std::string::npos, &served), 10'000, 4);
  char buf[10];
  ASSERT_TRUE(src->read(buf, sizeof buf).ok());
  // The reader holds one chunk, the producer fills the other three and waits: never more.
  for (int i = 0; i < 200 && served.load() < 40'000; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_LE(served.load(), 40'000u);
  EXPECT_EQ(std::string(buf, sizeof buf), text.substr(0, 10));
}

TEST(TracePrefetch, DroppedMidTextItStopsItsThread) {
  const std::string text = pattern(5'000'000);
  for (int i = 0; i < 20; ++i) {
    auto src = prefetching_source(std::make_unique<FakeSource>(text, 4096), 8192, 2);
    char buf[100];
    ASSERT_TRUE(src->read(buf, sizeof buf).ok());
  }  // each destructor joins its producer, blocked on a full queue
}

}  // namespace
}  // namespace slimpack
