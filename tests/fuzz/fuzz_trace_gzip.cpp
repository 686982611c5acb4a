// Gzip-compressed traces: the bytes go to a file (the gzip reader works on paths) and through
// import_chrome_trace, which inflates every member piece by piece (zlib) through the import's
// window of bounded size.
#include <unistd.h>

#include <cstdio>

#include "fuzz_util.h"
#include "trace/trace_import.h"

namespace {

const std::string& temp_path() {
  static const std::string path = [] {
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir && *dir ? dir : "/tmp") + "/slimpack_fuzz_" + std::to_string(getpid()) +
           ".json.gz";
  }();
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace slimpack;
  // Always gzip: the target is the inflate path (plain text has its own target).
  std::string bytes = "\x1f\x8b";
  if (size >= 2 && data[0] == 0x1f && data[1] == 0x8b) bytes.clear();
  bytes += fuzz::as_text(data, size);
  std::FILE* f = std::fopen(temp_path().c_str(), "wb");
  fuzz::require(f != nullptr, "gzip: cannot write the temp file");
  fuzz::require(std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size(), "gzip: write");
  std::fclose(f);
  auto trace = import_chrome_trace(temp_path());
  fuzz::require_message(trace, "gzip: error without message");
  if (!trace) fuzz::require(trace.error().message.rfind(temp_path(), 0) == 0, "gzip: unnamed file");
  return 0;
}
