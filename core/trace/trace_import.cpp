// Chrome trace JSON front end, streaming: the text comes through a window of bounded size (read or
// inflated piece by piece, trace_source.h), never whole. A small scanner (trace_scan.h) finds where
// the events of "traceEvents" (or a top-level array) end; each run of whole events in the window is
// parsed as one batch by simdjson On-Demand, one event at a time without a DOM, each event's fields
// read in one pass in any order. What is kept is the compact events (trace_builder.h) and the args
// text within its budget: the peak is that plus the window and the parser's index of one batch.
// The top level around the events (distributedInfo, metadata) is walked by hand; values other than
// distributedInfo are skipped unread (checked for UTF-8 and nesting only).
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
        keep_events_(options.keep_events),
        keep_args_(options.keep_events && options.keep_args) {}

  // The whole text already in memory (copied once into the window).
  void set_text(std::string_view text) {
    allocate(text.size());
    std::memcpy(buf_.get() + 1, text.data(), text.size());
    end_ = 1 + text.size();
    std::memset(buf_.get() + end_, 0, kTracePadding);
    eof_ = true;
    known_size_ = static_cast<std::int64_t>(text.size());
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
    if (pos_ == 1 && end_ == 1 + cap_) {
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
  bool failed(Error e) {
    error_ = std::move(e);
    return false;
  }
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

  // --- the event array: pos_ is just past its '[' -------------------------------------------
  Status events() {
    bool after_comma = false;
    for (;;) {
      auto c = next_char();
      if (!c) return c.error();
      if (*c == '\0') {  // the text ends inside the array: a writer that stopped (valid)
        unterminated_ = true;
        return {};
      }
      if (*c == ']') {
        if (after_comma) return syntax_at(simdjson::TAPE_ERROR, offset_of(pos_));  // "[{...},]"
        ++pos_;
        return {};
      }
      const trace_scan::ScanResult r = trace_scan::scan(buf_.get() + pos_, end_ - pos_, false);
      if (r.too_deep != trace_scan::kNone)
        return syntax_at(simdjson::DEPTH_ERROR, offset_of(pos_ + r.too_deep));
      if (r.underflow != trace_scan::kNone) {
        // The array's own ']' is in the window: everything before it is the last batch (with
        // the ']' as the batch's own end, so a trailing comma or a stray value fails there).
        const std::size_t close = pos_ + r.underflow;
        if (buf_.get()[close] != ']') return syntax_at(simdjson::TAPE_ERROR, offset_of(close));
        if (Status s = batch(pos_, close + 1, true); !s) return s;
        pos_ = close + 1;
        return {};
      }
      if (r.last_end == trace_scan::kNone) {
        if (eof_) return partial_event(r.in_string);
        if (Status s = more(); !s) return s;  // one event larger than the rest of the window
        continue;
      }
      const std::size_t cut = pos_ + r.last_end;
      if (Status s = batch(pos_, cut, false); !s) return s;
      pos_ = cut;
      c = next_char();
      if (!c) return c.error();
      after_comma = *c == ',';
      if (after_comma) {
        ++pos_;
      } else if (*c == ']') {
        ++pos_;
        return {};
      } else if (*c != '\0') {
        return syntax_at(simdjson::TAPE_ERROR, offset_of(pos_));  // two events with no comma
      }
    }
  }

  // The text ends inside an event (a file cut mid-write): nothing of that event can be read.
  Status partial_event(bool in_string) const {
    return syntax_at_end(in_string ? simdjson::UNCLOSED_STRING
                                   : simdjson::INCOMPLETE_ARRAY_OR_OBJECT);
  }

  // Parses the events in [begin, end) of the window: whole array elements and the separators
  // between them; with `array_close`, buf[end - 1] is the array's own ']'. The byte before `begin`
  // (consumed text, or the spare byte) becomes the batch's '['; otherwise a ']' is written at
  // `end` and the byte there put back afterwards.
  Status batch(std::size_t begin, std::size_t end, bool array_close) {
    char* b = buf_.get();
    b[begin - 1] = '[';
    const char saved = b[end];
    if (!array_close) b[end] = ']';
    Status s = parse_document(begin - 1, array_close ? end : end + 1);
    if (s) {
      od::array arr;
      if (auto e = doc_.get_array().get(arr))
        s = json_error(e, false);
      else
        s = events_of(arr);
    }
    b[end] = saved;
    return s;
  }

  Status events_of(od::array& arr) {
    RawTraceEvent ev;
    for (auto elem : arr) {
      od::object obj;
      if (auto e = elem.get_object().get(obj)) {
        if (e == simdjson::INCORRECT_TYPE) return event_fail("not an object");
        return json_error(e, true);
      }
      ev = RawTraceEvent{};
      ev.index = index_ <= std::numeric_limits<std::int32_t>::max()
                     ? static_cast<std::int32_t>(index_)
                     : -1;
      if (Status s = event(obj, ev); !s) return s;
      if (std::string err = builder_.add(ev); !err.empty()) return event_fail(err);
      ++index_;
      if (index_ % kCheckEvery == 0) {
        const char* at = nullptr;
        double f = fraction();
        if (!input_ && known_size_ > 0 && doc_.current_location().get(at) == simdjson::SUCCESS)
          f = static_cast<double>(doc_offset_ + (at - doc_base_)) /
              static_cast<double>(known_size_);
        progress_.report("parsing trace", f);
        if (cancel_.cancelled()) return Error::cancelled();
      }
    }
    return {};
  }

  bool id_text(od::value& v, const char* what, char* buf, std::size_t cap, std::string_view& out) {
    od::json_type type{};
    if (auto e = v.type().get(type)) return failed(json_error(e, true));
    if (type == od::json_type::string) {
      if (auto e = v.get_string().get(out)) return failed(json_error(e, true));
      return true;
    }
    if (type != od::json_type::number)
      return failed(event_fail(std::string(what) + " is neither a number nor a string"));
    od::number num;
    if (auto e = v.get_number().get(num)) return failed(json_error(e, true));
    std::to_chars_result res{};
    if (num.is_int64())
      res = std::to_chars(buf, buf + cap, num.get_int64());
    else if (num.is_uint64())
      res = std::to_chars(buf, buf + cap, num.get_uint64());
    else
      res = std::to_chars(buf, buf + cap, num.get_double());
    out = std::string_view(buf, static_cast<std::size_t>(res.ptr - buf));
    return true;
  }

  bool number(od::value& v, const char* what, double& out) {
    if (auto e = v.get_double().get(out)) {
      if (e == simdjson::INCORRECT_TYPE)
        return failed(event_fail(std::string(what) + " is not a number"));
      return failed(json_error(e, true));
    }
    return true;
  }

  bool text(od::value& v, const char* what, std::string_view& out) {
    if (auto e = v.get_string().get(out)) {
      if (e == simdjson::INCORRECT_TYPE)
        return failed(event_fail(std::string(what) + " is not a string"));
      return failed(json_error(e, true));
    }
    return true;
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

  // Only "M" events need args fields: their "name" is the process or thread label ("labels" for
  // process_labels).
  Status meta_args(od::object& args, std::string_view& out) {
    for (auto field_result : args) {
      od::field field;
      if (auto e = std::move(field_result).get(field)) return json_error(e, true);
      if (field.key() != "name" && field.key() != "labels") continue;  // process_labels
      if (field.value().get_string().get(out) != simdjson::SUCCESS) out = {};
    }
    return {};
  }

  // The raw text of a value (a view into the document), not yet checked: simdjson skips an object
  // or array by bracket depth without looking inside.
  bool raw_text(od::value& v, std::string_view& raw) {
    od::json_type type{};
    if (auto e = v.type().get(type)) return failed(json_error(e, true));
    if (type == od::json_type::object) {
      od::object obj;
      if (auto e = v.get_object().get(obj)) return failed(json_error(e, true));
      if (auto e = obj.raw_json().get(raw)) return failed(json_error(e, true));
    } else if (type == od::json_type::array) {
      od::array arr;
      if (auto e = v.get_array().get(arr)) return failed(json_error(e, true));
      if (auto e = arr.raw_json().get(raw)) return failed(json_error(e, true));
    } else {
      raw = v.raw_json_token();
    }
    return true;
  }

  // A value checked to be well-formed, and not kept: walked through simdjson's own index (which
  // checks every bracket, comma and colon it passes), each scalar token checked by hand. Faster
  // than reading the raw text byte by byte, which `trace info` did for every event's args.
  bool walked_value(od::value& v) {
    od::json_type type{};
    if (auto e = v.type().get(type)) return failed(json_error(e, true));
    if (type == od::json_type::object) {
      od::object obj;
      if (auto e = v.get_object().get(obj)) return failed(json_error(e, true));
      for (auto field_result : obj) {
        od::field field;
        if (auto e = std::move(field_result).get(field)) return failed(json_error(e, true));
        if (!walked_value(field.value())) return false;
      }
      return true;
    }
    if (type == od::json_type::array) {
      od::array arr;
      if (auto e = v.get_array().get(arr)) return failed(json_error(e, true));
      for (auto item_result : arr) {
        od::value item;
        if (auto e = std::move(item_result).get(item)) return failed(json_error(e, true));
        if (!walked_value(item)) return false;
      }
      return true;
    }
    if (type == od::json_type::string) return true;  // stage 1 delimited it
    std::string_view token = v.raw_json_token();
    while (!token.empty() && (token.back() == ' ' || token.back() == '\n' || token.back() == '\r' ||
                              token.back() == '\t'))
      token.remove_suffix(1);
    if (!trace_json::JsonValueCheck(token).ok())
      return failed(json_error(simdjson::TAPE_ERROR, true));
    return true;
  }

  // The args value, checked, as compact JSON text in args_buf_ (for tooltips): one pass checks it
  // and drops the writer's spaces.
  bool args_text(od::value& v, std::string_view& out) {
    std::string_view raw;
    if (!raw_text(v, raw)) return false;
    if (args_buf_.size() < raw.size()) args_buf_.resize(std::max(raw.size(), 2 * args_buf_.size()));
    const std::size_t n = trace_json::JsonValueCheck(raw).minify_into(args_buf_.data());
    if (n == std::string_view::npos) return failed(json_error(simdjson::TAPE_ERROR, true));
    out = std::string_view(args_buf_.data(), n);
    return true;
  }

  // Whether an event of this phase may carry args.correlation worth keeping: complete events.
  bool wants_correlation(std::string_view ph) const {
    return keep_events_ && (ph == "X" || ph == "B");
  }
  // args.correlation from a kept args text (compact JSON).
  static void correlation_of_text(RawTraceEvent& ev) {
    ev.has_correlation = trace_json::top_level_integer(ev.args, "\"correlation\":", ev.correlation);
  }
  // An args value that is not kept, checked like walked_value, with its top-level
  // "correlation" read on the way.
  bool walked_args(od::value& v, RawTraceEvent& ev) {
    od::json_type type{};
    if (auto e = v.type().get(type)) return failed(json_error(e, true));
    if (type != od::json_type::object) return walked_value(v);
    od::object obj;
    if (auto e = v.get_object().get(obj)) return failed(json_error(e, true));
    for (auto field_result : obj) {
      od::field field;
      if (auto e = std::move(field_result).get(field)) return failed(json_error(e, true));
      // get_int64 moves on only when it succeeds: anything else is walked as any value.
      if (field.key() == "correlation" &&
          field.value().get_int64().get(ev.correlation) == simdjson::SUCCESS) {
        ev.has_correlation = true;
        continue;
      }
      if (!walked_value(field.value())) return false;
    }
    return true;
  }

  // Whether an event's args feed the memory figures (events kept only): an instant event (a
  // "[memory]" one: its name may come after its args) or a counter.
  bool wants_memory(std::string_view ph) const {
    return keep_events_ && (ph == "i" || ph == "I" || ph == "C");
  }
  // A value of an args object: a number read into `out` (and `has` set), anything else walked.
  bool numeric_value(od::value& v, od::number& out, bool& has) {
    od::json_type type{};
    if (auto e = v.type().get(type)) return failed(json_error(e, true));
    if (type != od::json_type::number) return walked_value(v);
    if (auto e = v.get_number().get(out)) return failed(json_error(e, true));
    has = true;
    return true;
  }
  // A byte count: an integer, or a finite double within int64 (rounded); a uint64 past int64 is
  // no count a profiler writes.
  static bool int64_of(const od::number& n, std::int64_t& out) {
    if (n.is_int64()) {
      out = n.get_int64();
      return true;
    }
    if (!n.is_double()) return false;
    const double d = n.get_double();
    if (!(d > -9.2e18 && d < 9.2e18)) return false;  // NaN fails too
    out = std::llround(d);
    return true;
  }
  // The fields of a "[memory]" event's args (RawMemoryArgs); the others walked.
  bool memory_args(od::object& obj, RawTraceEvent& ev) {
    for (auto field_result : obj) {
      od::field field;
      if (auto e = std::move(field_result).get(field)) return failed(json_error(e, true));
      const od::raw_json_string key = field.key();
      od::number n;
      bool has = false;
      if (!numeric_value(field.value(), n, has)) return false;
      if (!has) continue;
      RawMemoryArgs& m = ev.memory;
      if (key == "Total Allocated")
        m.has_allocated = int64_of(n, m.allocated);
      else if (key == "Total Reserved")
        m.has_reserved = int64_of(n, m.reserved);
      else if (key == "Device Type")
        m.has_device_type = int64_of(n, m.device_type);
      else if (key == "Device Id")
        m.has_device_id = int64_of(n, m.device_id);
    }
    return true;
  }
  // The numeric series of a counter event's args into counter_buf_; the others walked.
  bool counter_args(od::object& obj, RawTraceEvent& ev) {
    counter_buf_.clear();
    for (auto field_result : obj) {
      od::field field;
      if (auto e = std::move(field_result).get(field)) return failed(json_error(e, true));
      std::string_view key;
      if (auto e = field.unescaped_key().get(key)) return failed(json_error(e, true));
      od::number n;
      bool has = false;
      if (!numeric_value(field.value(), n, has)) return false;
      if (has) counter_buf_.push_back({key, n.as_double()});
    }
    ev.counters = counter_buf_;
    return true;
  }
  bool memory_or_counter_args(od::object& obj, RawTraceEvent& ev) {
    return ev.ph == "C" ? counter_args(obj, ev) : memory_args(obj, ev);
  }
  bool memory_or_counter_args(od::value& v, RawTraceEvent& ev) {
    od::json_type type{};
    if (auto e = v.type().get(type)) return failed(json_error(e, true));
    if (type != od::json_type::object) return walked_value(v);
    od::object obj;
    if (auto e = v.get_object().get(obj)) return failed(json_error(e, true));
    return memory_or_counter_args(obj, ev);
  }
  // The same from an instant's or counter's args kept as text (they came before its "ph").
  Status late_memory_or_counter_args(RawTraceEvent& ev) {
    late_doc_ = simdjson::padded_string(ev.args);
    od::document doc;
    od::object obj;
    if (late_parser_.iterate(late_doc_).get(doc) == simdjson::SUCCESS &&
        doc.get_object().get(obj) == simdjson::SUCCESS && !memory_or_counter_args(obj, ev))
      return error_;
    return {};
  }

  // "args" of an "M" event (its label), or of a timed event (kept as text when events are).
  bool args(od::value& v, RawTraceEvent& ev) {
    if (ev.ph == "M") {
      od::object obj;
      if (v.get_object().get(obj) != simdjson::SUCCESS) return true;
      if (Status s = meta_args(obj, ev.meta_name); !s) return failed(s.error());
      return true;
    }
    if (ev.ph.empty()) {
      // "ph" not seen yet (writers put it first; some do not): keep the raw text and decide later.
      if (!args_text(v, ev.args)) return false;
      ev.has_args = true;
      late_args_ = true;
      return true;
    }
    if (!keep_args_ || ev.ph.size() != 1 ||
        (ev.ph[0] != 'X' && ev.ph[0] != 'B' && ev.ph[0] != 'E')) {
      if (wants_correlation(ev.ph)) return walked_args(v, ev);
      if (wants_memory(ev.ph)) return memory_or_counter_args(v, ev);
      return walked_value(v);  // not kept, but a malformed file fails the same in every mode
    }
    if (!args_text(v, ev.args)) return false;
    ev.has_args = true;
    if (wants_correlation(ev.ph)) correlation_of_text(ev);
    return true;
  }

  // An "M" event whose "args" came before its "ph": its label from the kept text.
  Status late_meta_name(RawTraceEvent& ev) {
    late_doc_ = simdjson::padded_string(ev.args);
    od::document doc;
    od::object obj;
    if (late_parser_.iterate(late_doc_).get(doc) == simdjson::SUCCESS &&
        doc.get_object().get(obj) == simdjson::SUCCESS)
      return meta_args(obj, ev.meta_name);
    return {};
  }

  Status event(od::object& obj, RawTraceEvent& ev) {
    for (auto field_result : obj) {
      od::field field;
      if (auto e = std::move(field_result).get(field)) return json_error(e, true);
      const od::raw_json_string key = field.key();
      od::value& v = field.value();
      // The field readers return false with error_ set: a Status (four strings) made and destroyed
      // per field cost 10% of an import.
      if (key == "ph") {
        if (!text(v, "ph", ev.ph)) return error_;
      } else if (key == "ts") {
        if (!number(v, "ts", ev.ts)) return error_;
        ev.has_ts = true;
      } else if (key == "dur") {
        if (!number(v, "dur", ev.dur)) return error_;
        ev.has_dur = true;
      } else if (key == "pid") {
        if (!id_text(v, "pid", pid_buf_, sizeof pid_buf_, ev.pid)) return error_;
      } else if (key == "tid") {
        if (!id_text(v, "tid", tid_buf_, sizeof tid_buf_, ev.tid)) return error_;
      } else if (key == "id") {
        // Flow ids are numbers or strings; other shapes (async "id2"-style objects) are not ours.
        od::json_type type{};
        if (v.type().get(type) == simdjson::SUCCESS &&
            (type == od::json_type::number || type == od::json_type::string))
          if (!id_text(v, "id", id_buf_, sizeof id_buf_, ev.id)) return error_;
      } else if (key == "name") {
        if (!text(v, "name", ev.name)) return error_;
      } else if (key == "cat") {
        if (!text(v, "cat", ev.cat)) return error_;
      } else if (key == "args") {
        if (!args(v, ev)) return error_;
      }
    }
    if (late_args_) {
      late_args_ = false;
      if (ev.ph == "M") return late_meta_name(ev);
      if (wants_correlation(ev.ph)) correlation_of_text(ev);
      if (wants_memory(ev.ph))
        if (Status s = late_memory_or_counter_args(ev); !s) return s;
      if (!keep_args_) ev.has_args = false;
    }
    return {};
  }

  const std::string& source_;
  TraceBuilder builder_;
  const CancelToken& cancel_;
  ProgressSink& progress_;
  bool keep_events_;
  bool keep_args_;
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
  Error error_;             // why a field reader returned false
  bool late_args_ = false;  // this event's args were read before its "ph"
  std::string args_buf_ = std::string(256, '\0');
  std::vector<CounterValue> counter_buf_;  // this counter event's series
  simdjson::padded_string late_doc_;
  od::parser late_parser_;
  char pid_buf_[32] = {};
  char tid_buf_[32] = {};
  char id_buf_[32] = {};
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
  auto input = open_trace_text_source(path);
  if (!input) return input.error();
  ChromeTraceParser parser(path, options, cancel, progress);
  parser.set_source(std::move(*input));
  return parser.run();
}

}  // namespace slimpack
