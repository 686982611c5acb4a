// Chrome trace JSON front end, streaming: the text comes through a window of bounded size (read or
// inflated piece by piece, trace_source.h), never whole. Each event of "traceEvents" is read by
// TraceEventReader (trace_event_reader.h) straight from the window in one pass that checks its
// JSON and takes out the fields kept; an event that runs past the window's end is read again once
// the window holds it. UTF-8 is checked per window as the text arrives. What is kept is the
// compact events (trace_builder.h) and the args text within its budget: the peak is that plus the
// window. The top level around the events (distributedInfo, metadata) is walked by hand;
// distributedInfo is parsed by simdjson, other values are skipped unread (checked for UTF-8 and
// nesting only).
#include "trace/trace_import.h"

#include <simdjson.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <string_view>
#include <utility>

#include "common/json_util.h"
#include "common/parts_progress.h"
#include "trace/trace_builder.h"
#include "trace/trace_event_reader.h"
#include "trace/trace_file_read.h"
#include "trace/trace_json_text.h"
#include "trace/trace_scan.h"
#include "trace/trace_source.h"

namespace slimpack {
namespace {

namespace od = simdjson::ondemand;

constexpr std::int64_t kCheckEvery = 1 << 16;  // events between cancel checks / progress reports
// Text read at a time: about 3000 Kineto events. simdjson's index of a batch (about 5 bytes per
// byte of text) stays in the caches; a window grows only for one value larger than it.
constexpr std::size_t kWindowBytes = std::size_t{1} << 20;

bool is_ws(char c) {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

class ChromeTraceParser {
 public:
  ChromeTraceParser(const std::string& source, const TraceImportOptions& options,
                    const CancelToken& cancel, ProgressSink& progress)
      : source_(source),
        builder_(options.keep_events, options.keep_events && options.keep_args,
                 options.args_budget_bytes, options.memory_budget_bytes),
        cancel_(cancel),
        progress_(progress),
        reader_(EventReadOptions{options.keep_events, options.keep_events && options.keep_args}) {}

  // The whole text already in memory (copied once into the window).
  void set_text(std::string_view text) {
    allocate(text.size());
    std::memcpy(buf_.get() + 1, text.data(), text.size());
    end_ = 1 + text.size();
    std::memset(buf_.get() + end_, 0, kTracePadding);
    eof_ = true;
    known_size_ = static_cast<std::int64_t>(text.size());
  }
  // A whole text already in a window-shaped buffer: one spare byte, the text, zero padding.
  void set_window(TraceText text) {
    cap_ = text.capacity - 1 - 1 - kTracePadding;
    buf_ = std::move(text.buffer);
    end_ = 1 + text.size;
    eof_ = true;
    known_size_ = static_cast<std::int64_t>(text.size);
  }
  void set_source(std::unique_ptr<TraceTextSource> input) {
    input_ = std::move(input);
    allocate(kWindowBytes);
  }

  Expected<ImportedTrace> run() {
    if (Status s = top(); !s) return s.error();
    progress_.report("parsing trace", 1.0);
    ImportedTrace out = builder_.finish(source_, total());
    out.unterminated = unterminated_;
    return out;
  }

 private:
  // --- the window: buf_[0] is spare (a batch's '[' is written there), text in [1, end_) -------
  // The spare byte, the text, one byte for a batch's closing ']' and simdjson's padding.
  static std::size_t buffer_bytes(std::size_t cap) { return 1 + cap + 1 + kTracePadding; }
  void allocate(std::size_t cap) {
    cap_ = cap;
    buf_ = trace_text_alloc(buffer_bytes(cap_));
    buf_.get()[0] = ' ';
  }
  std::int64_t offset_of(std::size_t index) const {
    return base_ + static_cast<std::int64_t>(index) - 1;
  }
  std::int64_t total() const { return offset_of(end_); }
  // Moves [pos_, end_) to the front and reads until the window is full or the text ends.
  Status fill() {
    if (eof_) return {};
    if (pos_ > 1) {
      std::memmove(buf_.get() + 1, buf_.get() + pos_, end_ - pos_);
      base_ += static_cast<std::int64_t>(pos_ - 1);
      end_ -= pos_ - 1;
      utf8_checked_ = utf8_checked_ > pos_ ? utf8_checked_ - (pos_ - 1) : 1;
      pos_ = 1;
    }
    while (end_ < 1 + cap_ && !eof_) {
      auto got = input_->read(buf_.get() + end_, 1 + cap_ - end_);
      if (!got) return got.error();
      if (*got == 0) eof_ = true;
      end_ += *got;
    }
    std::memset(buf_.get() + end_, 0, kTracePadding);
    if (cancel_.cancelled()) return Error::cancelled();
    return {};
  }
  // More text after what the window holds: reads, or doubles the window when it is full.
  Status more() {
    if (!eof_ && pos_ == 1 && end_ == 1 + cap_) {
      TraceTextBuffer bigger = trace_text_alloc(buffer_bytes(2 * cap_));
      std::memcpy(bigger.get(), buf_.get(), end_);
      buf_ = std::move(bigger);
      cap_ *= 2;
    }
    return fill();
  }
  // The next character that is not white space (consumed up to it), or '\0' at the end.
  Expected<char> next_char() {
    for (;;) {
      while (pos_ < end_ && is_ws(buf_.get()[pos_])) ++pos_;
      if (pos_ < end_) return buf_.get()[pos_];
      if (eof_) return '\0';
      if (Status s = fill(); !s) return s.error();
    }
  }
  double fraction() const {
    if (input_) return std::max(0.0, input_->fraction());
    return known_size_ > 0 ? static_cast<double>(offset_of(pos_)) / known_size_ : 0.0;
  }

  // --- errors -------------------------------------------------------------------------------
  Error fail(const std::string& reason) const { return Error::bad_input(source_ + ": " + reason); }
  Error event_fail(const std::string& reason) const {
    return fail("traceEvents[" + std::to_string(index_) + "]: " + reason);
  }
  Error syntax_at(simdjson::error_code e, std::int64_t at) const {
    return fail("JSON error at byte " + std::to_string(at) + ": " + simdjson::error_message(e));
  }
  Error syntax_at_end(simdjson::error_code e) const {
    return fail("JSON error at byte " + std::to_string(total()) +
                " (the end of the text): " + simdjson::error_message(e));
  }
  // Syntax errors of a parsed document (a batch of events, distributedInfo) carry the byte offset
  // in the file where the parser stopped, when it can tell.
  Error json_error(simdjson::error_code e, bool in_event) {
    std::string where;
    const char* at = nullptr;
    // Offset 0 means the error was found before the walk began (e.g. unbalanced brackets).
    if (doc_ready_ && doc_.current_location().get(at) == simdjson::SUCCESS && at > doc_base_)
      where = " at byte " + std::to_string(doc_offset_ + (at - doc_base_));
    if (where.empty()) where = stage1_location(e);
    const std::string reason =
        std::string("JSON error") + where + ": " + simdjson::error_message(e);
    return in_event ? event_fail(reason) : fail(reason);
  }
  // Errors found while indexing a document carry no location: find the byte they are about.
  std::string stage1_location(simdjson::error_code e) const {
    const auto* bytes = reinterpret_cast<const unsigned char*>(doc_base_);
    std::size_t at = doc_size_;
    if (e == simdjson::UNESCAPED_CHARS) {
      at = static_cast<std::size_t>(
          std::find_if(bytes, bytes + doc_size_,
                       [](unsigned char c) { return c < 0x20 && !is_ws(static_cast<char>(c)); }) -
          bytes);
    } else if (e == simdjson::UTF8_ERROR) {
      at = trace_json::first_invalid_utf8(bytes, doc_size_);
    } else if (e != simdjson::INCOMPLETE_ARRAY_OR_OBJECT && e != simdjson::EMPTY) {
      return {};
    }
    return " at byte " + std::to_string(doc_offset_ + static_cast<std::int64_t>(at));
  }
  Status check_utf8(std::size_t begin, std::size_t end) const {
    const char* p = buf_.get() + begin;
    if (simdjson::validate_utf8(p, end - begin)) return {};
    const auto at =
        trace_json::first_invalid_utf8(reinterpret_cast<const unsigned char*>(p), end - begin);
    return syntax_at(simdjson::UTF8_ERROR, offset_of(begin + at));
  }

  // --- the top level ------------------------------------------------------------------------
  Status top() {
    while (end_ - pos_ < 4 && !eof_)
      if (Status s = more(); !s) return s;
    // A UTF-16/32 byte-order mark gets its own message (simdjson would report escaping errors).
    if (Status st = json_util::check_text_encoding(
            std::string_view(buf_.get() + pos_, std::min<std::size_t>(end_ - pos_, 4)));
        !st)
      return fail(st.error().message);
    auto c = next_char();
    if (!c) return c.error();
    if (*c == '\0') return syntax_at_end(simdjson::EMPTY);
    if (*c == '[') {
      ++pos_;
      if (Status s = events(); !s) return s;
    } else if (*c == '{') {
      ++pos_;
      if (Status s = top_object(); !s) return s;
    } else {
      return fail("not a Chrome trace: the top level is neither an array nor an object");
    }
    if (unterminated_) return {};
    auto rest = next_char();
    if (!rest) return rest.error();
    if (*rest != '\0') return syntax_at(simdjson::TRAILING_CONTENT, offset_of(pos_));
    return {};
  }

  Status top_object() {
    bool found = false;
    auto c = next_char();
    if (!c) return c.error();
    if (*c == '}') {
      ++pos_;
      return fail("not a Chrome trace: no \"traceEvents\" array");
    }
    for (;;) {
      if (*c == '\0') return syntax_at_end(simdjson::INCOMPLETE_ARRAY_OR_OBJECT);
      if (*c != '"') return syntax_at(simdjson::TAPE_ERROR, offset_of(pos_));
      std::size_t key_end = 0;
      if (Status s = extent(key_end); !s) return s;
      if (Status s = check_utf8(pos_, key_end); !s) return s;
      const std::string key(buf_.get() + pos_, key_end - pos_);
      pos_ = key_end;
      c = next_char();
      if (!c) return c.error();
      if (*c != ':') return syntax_at(simdjson::TAPE_ERROR, offset_of(pos_));
      ++pos_;
      c = next_char();
      if (!c) return c.error();
      if (*c == '\0') return syntax_at_end(simdjson::INCOMPLETE_ARRAY_OR_OBJECT);
      if (key == "\"traceEvents\"") {
        if (*c != '[') {
          if (*c == ']' || *c == '}' || *c == ',' || *c == ':')
            return syntax_at(simdjson::TAPE_ERROR, offset_of(pos_));
          return fail("\"traceEvents\" is not an array");
        }
        ++pos_;
        if (Status s = events(); !s) return s;
        found = true;
        if (unterminated_) return {};  // a writer that stopped: what follows was never written
      } else if (key == "\"distributedInfo\"") {
        if (Status s = distributed_info_value(*c); !s) return s;
      } else {
        std::size_t value_end = 0;  // otherData, deviceProperties, ...: skipped unread
        if (Status s = extent(value_end); !s) return s;
        if (Status s = check_utf8(pos_, value_end); !s) return s;
        pos_ = value_end;
      }
      c = next_char();
      if (!c) return c.error();
      if (*c == '}') {
        ++pos_;
        break;
      }
      if (*c == '\0') return syntax_at_end(simdjson::INCOMPLETE_ARRAY_OR_OBJECT);
      if (*c != ',') return syntax_at(simdjson::TAPE_ERROR, offset_of(pos_));
      ++pos_;
      c = next_char();
      if (!c) return c.error();
    }
    if (!found) return fail("not a Chrome trace: no \"traceEvents\" array");
    return {};
  }

  // The end (an index into the window) of the value at pos_, reading (and growing the window)
  // until it is all there. Strings end at their closing quote, other scalars at a delimiter.
  Status extent(std::size_t& value_end) {
    for (;;) {
      const char* p = buf_.get() + pos_;
      const std::size_t n = end_ - pos_;
      if (*p == '{' || *p == '[') {
        const trace_scan::ScanResult r = trace_scan::scan(p, n, true);
        if (r.too_deep != trace_scan::kNone)
          return syntax_at(simdjson::DEPTH_ERROR, offset_of(pos_ + r.too_deep));
        if (r.first_end != trace_scan::kNone) {
          value_end = pos_ + r.first_end;
          return {};
        }
        if (eof_)
          return syntax_at_end(r.in_string ? simdjson::UNCLOSED_STRING
                                           : simdjson::INCOMPLETE_ARRAY_OR_OBJECT);
      } else if (*p == '"') {
        std::size_t i = 1;
        while (i < n && p[i] != '"') i += p[i] == '\\' ? 2 : 1;
        if (i < n) {
          value_end = pos_ + i + 1;
          return {};
        }
        if (eof_) return syntax_at_end(simdjson::UNCLOSED_STRING);
      } else {
        std::size_t i = 0;
        while (i < n && !is_ws(p[i]) && p[i] != ',' && p[i] != '}' && p[i] != ']') ++i;
        if (i < n || eof_) {
          value_end = pos_ + i;
          return {};
        }
      }
      if (Status s = more(); !s) return s;
    }
  }

  // Parses one whole value of the window [begin, end) as its own document.
  Status parse_document(std::size_t begin, std::size_t end) {
    doc_base_ = buf_.get() + begin;
    doc_size_ = end - begin;
    doc_offset_ = offset_of(begin);
    doc_ready_ = false;
    const std::size_t capacity = buffer_bytes(cap_) - begin;
    if (auto e = parser_.iterate(doc_base_, doc_size_, capacity).get(doc_))
      return json_error(e, false);
    doc_ready_ = true;
    return {};
  }

  Status distributed_info_value(char first) {
    std::size_t value_end = 0;
    if (Status s = extent(value_end); !s) return s;
    if (first != '{') return fail("\"distributedInfo\" is not an object");
    if (Status s = parse_document(pos_, value_end); !s) return s;
    od::object info;
    if (auto e = doc_.get_object().get(info)) return json_error(e, false);
    if (Status s = distributed_info(info); !s) return s;
    pos_ = value_end;
    return {};
  }

  // PyTorch profiler traces name their rank: "distributedInfo": {"rank": N, ...}.
  Status distributed_info(od::object& info) {
    for (auto field_result : info) {
      od::field field;
      if (auto e = std::move(field_result).get(field)) return json_error(e, false);
      if (field.key() != "rank") continue;
      std::int64_t rank = 0;
      if (auto e = field.value().get_int64().get(rank)) {
        if (e == simdjson::INCORRECT_TYPE || e == simdjson::NUMBER_ERROR ||
            e == simdjson::NUMBER_OUT_OF_RANGE)
          return fail("distributedInfo.rank is not an integer");
        return json_error(e, false);
      }
      if (rank < 0 || rank > std::numeric_limits<int>::max())
        return fail("distributedInfo.rank " + std::to_string(rank) + " is out of range");
      builder_.set_rank(static_cast<int>(rank));
    }
    return {};
  }

  // --- the event array: pos_ is just past its '[' -------------------------------------------
  Status events() {
    bool after_comma = false;
    RawTraceEvent ev;
    for (;;) {
      auto c = next_char();
      if (!c) return c.error();
      if (*c == '\0') {
        if (pos_ < end_) return event_syntax(kNotJson, pos_);  // a NUL byte between events
        unterminated_ = true;  // the text ends inside the array: a writer that stopped (valid)
        return {};
      }
      if (*c == ']') {
        if (after_comma) return event_fail("not an object");  // "[{...},]"
        ++pos_;
        return {};
      }
      if (*c != '{') {
        if (*c == '"' || *c == '[' || *c == '-' || (*c >= '0' && *c <= '9') || *c == 't' ||
            *c == 'f' || *c == 'n')
          return event_fail("not an object");
        return event_syntax(kNotJson, pos_);
      }
      if (Status s = read_event(ev); !s) return s;
      ev.index = index_ <= std::numeric_limits<std::int32_t>::max()
                     ? static_cast<std::int32_t>(index_)
                     : -1;
      if (std::string err = builder_.add(ev); !err.empty()) return event_fail(err);
      ++index_;
      if (index_ % kCheckEvery == 0) {
        progress_.report("parsing trace", fraction());
        if (cancel_.cancelled()) return Error::cancelled();
      }
      c = next_char();
      if (!c) return c.error();
      after_comma = *c == ',';
      if (after_comma) {
        ++pos_;
      } else if (*c == ']') {
        ++pos_;
        return {};
      } else if (*c != '\0' || pos_ < end_) {
        return event_syntax(kNotJson, pos_);  // two events with no comma between them
      }
    }
  }

  // The event whose '{' is at pos_, read whole (the window grows or moves on when the event runs
  // past its end); pos_ is left after it.
  Status read_event(RawTraceEvent& ev) {
    for (;;) {
      if (Status s = check_window_utf8(); !s) return s;
      const char* b = buf_.get();
      switch (reader_.read(b + pos_, b + end_, eof_, ev)) {
        case TraceEventReader::Result::Done:
          pos_ = static_cast<std::size_t>(reader_.next() - b);
          return {};
        case TraceEventReader::Result::Failed: {
          const TraceEventReader::Failure& f = reader_.failure();
          if (!f.field_message.empty()) return event_fail(f.field_message);
          if (f.at_end)
            return fail("JSON error at byte " + std::to_string(total()) +
                        " (the end of the text): " + f.json);
          return event_fail("JSON error at byte " + std::to_string(offset_of(pos_ + f.at)) + ": " +
                            f.json);
        }
        case TraceEventReader::Result::NeedMore:
          if (Status s = more(); !s) return s;
          break;
      }
    }
  }

  // UTF-8 is checked for the window's text once, as it arrives, before any event in it is read
  // (a character cut by the window's end waits for the rest of it).
  Status check_window_utf8() {
    if (utf8_checked_ < pos_) utf8_checked_ = pos_;
    std::size_t upto = end_;
    if (!eof_) {
      std::size_t i = end_;
      while (i > utf8_checked_ && end_ - i < 4 &&
             (static_cast<unsigned char>(buf_.get()[i - 1]) & 0xC0) == 0x80)
        --i;
      if (i > utf8_checked_ && static_cast<unsigned char>(buf_.get()[i - 1]) >= 0xC0) upto = i - 1;
    }
    if (upto <= utf8_checked_) return {};
    if (Status s = check_utf8(utf8_checked_, upto); !s) return s;
    utf8_checked_ = upto;
    return {};
  }

  Error event_syntax(const char* reason, std::size_t at) const {
    return event_fail("JSON error at byte " + std::to_string(offset_of(at)) + ": " + reason);
  }
  static constexpr const char* kNotJson =
      "The JSON document has an improper structure: missing or superfluous commas, braces, "
      "missing keys, etc.";

  const std::string& source_;
  TraceBuilder builder_;
  const CancelToken& cancel_;
  ProgressSink& progress_;
  // The window.
  std::unique_ptr<TraceTextSource> input_;  // null: the text was given whole (set_text)
  TraceTextBuffer buf_;
  std::size_t cap_ = 0;            // text bytes the window holds
  std::size_t pos_ = 1, end_ = 1;  // the cursor and the end of the text in the window
  std::int64_t base_ = 0;          // file offset of buf_[1]
  std::int64_t known_size_ = 0;    // the text's size when given whole
  bool eof_ = false;
  bool unterminated_ = false;  // the text ended inside the event array
  // The document being read: a batch of events or distributedInfo.
  od::parser parser_;
  od::document doc_;
  bool doc_ready_ = false;  // a document whose iterate() failed must not be asked its location
  const char* doc_base_ = nullptr;
  std::size_t doc_size_ = 0;
  std::int64_t doc_offset_ = 0;  // file offset of doc_base_
  std::int64_t index_ = 0;
  TraceEventReader reader_;
  std::size_t utf8_checked_ = 1;  // the window's text before this index is valid UTF-8
};

}  // namespace

std::vector<Expected<ImportedTrace>> import_chrome_traces(const std::vector<std::string>& paths,
                                                          const TraceImportOptions& options,
                                                          TaskPool& pool, const CancelToken& cancel,
                                                          ProgressSink& progress) {
  std::vector<Expected<ImportedTrace>> out(paths.size(),
                                           Expected<ImportedTrace>(Error::cancelled()));
  PartsProgress shared(progress, "parsing traces", paths.size());
  for_each_index(pool, paths.size(), [&](std::size_t i) {
    PartProgress sink(shared, i);
    // An exception (out of memory) must not leave the worker: it becomes this file's error.
    try {
      out[i] = import_chrome_trace(paths[i], options, cancel, sink);
    } catch (const std::bad_alloc&) {
      out[i] = Error::bad_input(paths[i] + ": out of memory while importing the trace");
    }
  });
  return out;
}

Expected<ImportedTrace> import_chrome_trace_text(const std::string& json,
                                                 const std::string& source_name,
                                                 const TraceImportOptions& options,
                                                 const CancelToken& cancel,
                                                 ProgressSink& progress) {
  if (cancel.cancelled()) return Error::cancelled();
  ChromeTraceParser parser(source_name, options, cancel, progress);
  parser.set_text(json);
  return parser.run();
}

Expected<ImportedTrace> import_chrome_trace(const std::string& path,
                                            const TraceImportOptions& options,
                                            const CancelToken& cancel, ProgressSink& progress) {
  if (cancel.cancelled()) return Error::cancelled();
  ChromeTraceParser parser(path, options, cancel, progress);
  // A gzip text of moderate size is inflated whole by libdeflate (2-3x the speed of zlib's
  // streaming inflate, the larger part of importing a .json.gz); a larger one streams.
  const auto whole_limit =
      static_cast<std::size_t>(std::max<std::int64_t>(0, options.whole_gzip_text_bytes));
  if (auto whole =
          whole_limit > 0 ? inflate_small_gzip_file(path, whole_limit, 1, cancel) : std::nullopt) {
    parser.set_window(std::move(*whole));
    return parser.run();
  }
  auto input = open_trace_text_source(path);
  if (!input) return input.error();
  parser.set_source(std::move(*input));
  return parser.run();
}

}  // namespace slimpack
