#pragma once
// One event object of a Chrome trace's "traceEvents" array, read from its JSON text in one pass:
// the fields the import keeps (trace_builder.h's RawTraceEvent) taken out, every other byte of
// the event checked as JSON (a malformed file fails the same in every import mode) and passed
// over. Hand-written rather than simdjson On-Demand over a batch of events: on real, pretty-
// printed Kineto traces the index simdjson builds, the scan that finds where a batch may end and
// the per-value dispatch of On-Demand were two thirds of `trace info` (docs/performance.md).
//
// The text is a window that may end inside the event: the reader then says so (NeedMore) and the
// caller reads on and starts the event again. Views it leaves in the event point into the window
// or into the reader's own buffers; they live until the next read().
#include <cstddef>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "trace/trace_builder.h"
#include "trace/trace_json_text.h"
#include "trace/trace_memory_events.h"

namespace slimpack {

struct EventReadOptions {
  bool keep_events = true;  // read flow ids, correlation, memory and counter args
  bool keep_args = false;   // keep X/B/E/i/I args as compact JSON text (with keep_events)
};

class TraceEventReader {
 public:
  enum class Result { Done, NeedMore, Failed };
  // Why read() failed: where (an offset from `begin`), and either a JSON syntax problem (`json`,
  // described as simdjson describes it) or a field of the wrong type (`field_message`).
  struct Failure {
    std::size_t at = 0;
    bool at_end = false;        // the text ended inside the event (at == end - begin)
    std::string json;           // e.g. "Problem while parsing a number"
    std::string field_message;  // e.g. "ts is not a number"
  };

  explicit TraceEventReader(EventReadOptions options) : options_(options) {}

  // Reads the event whose '{' is at `begin`; the text runs to `end`, and the byte at `end` must
  // be readable (the window's padding: it is zero). `eof`: no text follows `end`. Done: `next()`
  // is the byte after the event's '}'.
  Result read(const char* begin, const char* end, bool eof, RawTraceEvent& ev);
  const char* next() const { return next_; }
  const Failure& failure() const { return failure_; }

 private:
  struct Stop {};  // thrown inside read(): the event ran out of text or failed (failure_ says)

  [[noreturn]] void ran_out(const char* p, bool in_string);
  [[noreturn]] void syntax(const char* p, const char* what);
  [[noreturn]] void wrong_type(const char* what, const char* is_not);

  const char* ws(const char* p) const;
  const char* expect(const char* p, char c);
  const char* string_end(const char* p);  // p at '"'; past the closing quote
  const char* string_value(const char* p, std::string_view& out, std::string& scratch);
  const char* skip_value(const char* p);  // any value, checked
  [[noreturn]] void token_failed(const char* p, const char* what);
  const char* lex(const char* p, trace_json::detail::NumberLex& n);  // a number token, checked
  const char* number(const char* p, const char* what, double& out);
  const char* id_text(const char* p, const char* what, char* buf, std::string& scratch,
                      std::string_view& out);
  template <class OnField>
  const char* fields(const char* p, OnField&& on_field);  // p at '{'; past the '}'
  const char* args(const char* p, RawTraceEvent& ev);
  const char* meta_args(const char* p, RawTraceEvent& ev);
  const char* correlation_args(const char* p, RawTraceEvent& ev);
  const char* memory_args(const char* p, RawTraceEvent& ev);
  const char* counter_args(const char* p, RawTraceEvent& ev);
  const char* kept_args(const char* p, RawTraceEvent& ev);

  EventReadOptions options_;
  const char* begin_ = nullptr;
  const char* end_ = nullptr;
  bool eof_ = false;
  const char* next_ = nullptr;
  bool escaped_ = false;  // the last string string_end() passed had an escape in it
  Failure failure_;
  Result stopped_ = Result::Done;
  // Text the event's views may point to: unescaped strings, printed numbers, minified args.
  std::string ph_buf_, name_buf_, cat_buf_, pid_buf_, tid_buf_, id_buf_, meta_buf_, key_buf_;
  char pid_num_[32] = {}, tid_num_[32] = {}, id_num_[32] = {};
  std::string args_buf_;
  std::vector<CounterValue> counters_;
  std::deque<std::string> counter_keys_;  // decoded series names (stable addresses)
};

}  // namespace slimpack
