// JSONL length files (one record or number a line), with and without --column.
#include "fuzz_util.h"
#include "workload/length_readers.h"
#include "workload/lengths.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace slimpack;
  const std::string text = fuzz::as_text(data, size);
  for (const char* column : {"", "length", "num_tokens"}) {
    auto lengths = workload::read_jsonl_lengths("fuzz.jsonl", text, LengthFileOptions{column});
    fuzz::require_message(lengths, "jsonl error without message");
    if (!lengths) continue;
    fuzz::require(!lengths->empty(), "jsonl read succeeded with no lengths");
    for (Tokens t : *lengths)
      fuzz::require(t >= 1 && t <= kMaxSequenceLength, "jsonl length range");
    // A few bytes of histogram legitimately expand to the 16M-sequence cap; sorting that many
    // for the statistics takes seconds under ASan and would read as a fuzzer timeout.
    if (lengths->size() > (std::size_t{1} << 20)) continue;
    const LengthStats stats = compute_stats(*lengths);
    fuzz::require(stats.min >= 1 && stats.max <= kMaxSequenceLength, "jsonl stats range");
  }
  return 0;
}
