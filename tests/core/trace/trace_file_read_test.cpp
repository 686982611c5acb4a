// read_trace_text on gzip streams that inflate far more than the first buffer guess. Before the
// fix, read_gzip grew its buffer by one doubling per 16 MiB gzread and wrote past it (a heap
// overflow that ASan reports and that usually crashes a plain build too).
#include "trace/trace_file_read.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <fstream>
#include <iterator>
#include <string>

#include "trace/trace_import.h"

namespace slimpack {
namespace {

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "tracefileread_" + name;
}

// Writes `text` gzip-compressed at the best ratio.
void write_gzip(const std::string& path, const std::string& text) {
  gzFile gz = gzopen(path.c_str(), "wb9");
  ASSERT_NE(gz, nullptr);
  ASSERT_EQ(gzwrite(gz, text.data(), static_cast<unsigned>(text.size())),
            static_cast<int>(text.size()));
  ASSERT_EQ(gzclose(gz), Z_OK);
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A valid trace of 20 MiB that gzip shrinks about 1000x: whitespace between two events.
std::string compressible_trace() {
  std::string text = R"({"traceEvents":[{"ph":"X","pid":1,"tid":1,"ts":0,"dur":5},)";
  text.append(20u << 20, ' ');
  text += R"({"ph":"X","pid":1,"tid":1,"ts":10,"dur":2}]})";
  return text;
}

TEST(TraceFileRead, HighlyCompressibleGzipIsReadWhole) {
  const std::string text = compressible_trace();
  const std::string path = temp_path("compressible.json.gz");
  write_gzip(path, text);
  ASSERT_LT(read_bytes(path).size() * 100, text.size());  // the first guess (8x) is far too small

  auto read = read_trace_text(path, CancelToken::none(), ProgressSink::none());
  ASSERT_TRUE(read.ok()) << read.error().message;
  ASSERT_EQ(read->size, text.size());
  ASSERT_GE(read->capacity, read->size + kTracePadding);
  EXPECT_EQ(std::string(read->data(), read->size), text);
  for (std::size_t i = 0; i < kTracePadding; ++i) ASSERT_EQ(read->data()[read->size + i], '\0');

  auto trace = import_chrome_trace(path);
  ASSERT_TRUE(trace.ok()) << trace.error().message;
  EXPECT_EQ(trace->events, 2);
  EXPECT_DOUBLE_EQ(trace->span_us, 12.0);
  EXPECT_EQ(trace->bytes, static_cast<std::int64_t>(text.size()));
}

TEST(TraceFileRead, TruncatedCompressibleGzipIsAnErrorNamingTheFile) {
  const std::string full = temp_path("full.json.gz");
  write_gzip(full, compressible_trace());
  const std::string gz = read_bytes(full);
  const std::string path = temp_path("truncated.json.gz");
  // Cut in the middle of the whitespace run: megabytes inflate before the stream ends early.
  std::ofstream(path, std::ios::binary) << gz.substr(0, gz.size() / 2);

  auto read = read_trace_text(path, CancelToken::none(), ProgressSink::none());
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().kind, ErrorKind::BadInput);
  EXPECT_EQ(read.error().message.rfind(path + ": ", 0), 0u) << read.error().message;
  EXPECT_NE(read.error().message.find("gzip"), std::string::npos) << read.error().message;
}

// The import's whole-file path: the text after `front` spare bytes, padded; a file whose trailer
// claims more than the limit, or that is not gzip, is left to the streaming reader.
TEST(TraceFileRead, SmallGzipFilesInflateWholeAfterTheSpareBytes) {
  const std::string text = R"({"traceEvents":[{"ph":"X","pid":1,"tid":1,"ts":0,"dur":5}]})";
  const std::string gz = temp_path("small.json.gz");
  write_gzip(gz, text);
  auto whole = inflate_small_gzip_file(gz, 1 << 20, 1, CancelToken::none());
  ASSERT_TRUE(whole.has_value());
  EXPECT_EQ(whole->size, text.size());
  EXPECT_EQ(whole->data()[0], ' ');
  EXPECT_EQ(std::string(whole->data() + 1, whole->size), text);
  for (std::size_t i = 0; i < kTracePadding; ++i) ASSERT_EQ(whole->data()[1 + text.size() + i], 0);
  EXPECT_FALSE(inflate_small_gzip_file(gz, text.size() - 1, 1, CancelToken::none()).has_value());
  const std::string plain = temp_path("small.json");
  std::ofstream(plain, std::ios::binary) << text;
  EXPECT_FALSE(inflate_small_gzip_file(plain, 1 << 20, 1, CancelToken::none()).has_value());
  std::string cut = read_bytes(gz);
  cut.erase(cut.size() / 2, 4);  // corrupt: the streaming reader names the damage
  std::ofstream(gz, std::ios::binary) << cut;
  EXPECT_FALSE(inflate_small_gzip_file(gz, 1 << 20, 1, CancelToken::none()).has_value());
  auto imported = import_chrome_trace(gz);
  ASSERT_FALSE(imported.ok());
  EXPECT_EQ(imported.error().message.rfind(gz + ": gzip error", 0), 0u) << imported.error().message;
}

}  // namespace
}  // namespace slimpack
