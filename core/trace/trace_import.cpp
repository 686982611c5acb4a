// Chrome trace JSON front end: simdjson On-Demand walks "traceEvents" (or a top-level array) one
// event at a time without building a DOM; each event's fields are read in one pass in any order.
#include "trace/trace_import.h"

#include <simdjson.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>
#include <string_view>
#include <utility>

#include "common/json_util.h"
#include "trace/trace_builder.h"
#include "trace/trace_file_read.h"

namespace slimpack {
namespace {

namespace od = simdjson::ondemand;

constexpr std::int64_t kCheckEvery = 1 << 16;  // events between cancel checks / progress reports

// Offset of the first byte that is not valid UTF-8, or `size` when all is.
std::size_t first_invalid_utf8(const unsigned char* p, std::size_t size) {
  std::size_t i = 0;
  while (i < size) {
    const unsigned char c = p[i];
    const std::size_t n = c < 0x80           ? 1
                          : (c >> 5) == 0x6  ? 2
                          : (c >> 4) == 0xE  ? 3
                          : (c >> 3) == 0x1E ? 4
                                             : 0;
    if (n == 0 || i + n > size) return i;
    for (std::size_t k = 1; k < n; ++k)
      if ((p[i + k] & 0xC0) != 0x80) return i;
    i += n;
  }
  return size;
}

// Whether JSON text is one well-formed value. simdjson's
// raw_json() skips an object by bracket depth without checking what is inside, so a kept "args"
// text is checked here (the fuzzer found `"args": {0071, "k": 1}` accepted when args are kept
// and refused when they are skipped). Strings are taken as simdjson's stage 1 delimited them.
class JsonValueCheck {
 public:
  explicit JsonValueCheck(std::string_view s) : s_(s) {}
  bool ok() {
    if (!value(0)) return false;
    ws();
    return i_ == s_.size();
  }

 private:
  static constexpr int kMaxDepth = 1024;  // simdjson's own default
  void ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\r' || s_[i_] == '\t'))
      ++i_;
  }
  bool eat(char c) {
    ws();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  bool string() {
    if (!eat('"')) return false;  // eat() skips the whitespace before
    while (i_ < s_.size()) {
      const char c = s_[i_++];
      if (c == '\\')
        ++i_;
      else if (c == '"')
        return true;
    }
    return false;
  }
  bool scalar() {
    const std::size_t b = i_;
    while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '-' ||
                              s_[i_] == '+' || s_[i_] == '.'))
      ++i_;
    const std::string_view t = s_.substr(b, i_ - b);
    if (t == "true" || t == "false" || t == "null") return true;
    if (t.empty() || !(t[0] == '-' || (t[0] >= '0' && t[0] <= '9'))) return false;
    // A leading zero is only a number's whole part on its own ("0.5", not "0071").
    const std::size_t d = t[0] == '-' ? 1 : 0;
    if (d >= t.size() || t[d] < '0' || t[d] > '9') return false;
    return !(t[d] == '0' && d + 1 < t.size() && t[d + 1] >= '0' && t[d + 1] <= '9');
  }
  bool value(int depth) {
    ws();
    if (depth > kMaxDepth || i_ >= s_.size()) return false;
    const char c = s_[i_];
    if (c == '"') return string();
    if (c == '{') {
      ++i_;
      if (eat('}')) return true;
      do {
        if (!string() || !eat(':') || !value(depth + 1)) return false;
      } while (eat(','));
      return eat('}');
    }
    if (c == '[') {
      ++i_;
      if (eat(']')) return true;
      do {
        if (!value(depth + 1)) return false;
      } while (eat(','));
      return eat(']');
    }
    return scalar();
  }
  std::string_view s_;
  std::size_t i_ = 0;
};

// Copies JSON text to `out` without the whitespace between tokens;
// returns the length. Args objects are small (~100 bytes): a plain loop beats simdjson::minify,
// whose SIMD setup cost 12% of an import.
std::size_t minify_json(std::string_view raw, char* out) {
  std::size_t n = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const char c = raw[i];
    if (in_string) {
      out[n++] = c;
      if (c == '\\' && i + 1 < raw.size()) {
        out[n++] = raw[++i];  // an escaped character, quotes included
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
      continue;
    } else {
      out[n++] = c;
      in_string = c == '"';
    }
  }
  return n;
}

class ChromeTraceParser {
 public:
  ChromeTraceParser(const char* data, std::size_t size, const std::string& source,
                    const TraceImportOptions& options, const CancelToken& cancel,
                    ProgressSink& progress)
      : data_(data),
        size_(size),
        source_(source),
        builder_(options.keep_events, options.keep_events && options.keep_args,
                 options.args_budget_bytes),
        cancel_(cancel),
        progress_(progress),
        keep_args_(options.keep_events && options.keep_args) {}

  Expected<ImportedTrace> run() {
    // A UTF-16/32 byte-order mark gets its own message (simdjson would report escaping errors).
    if (Status st = json_util::check_text_encoding(
            std::string_view(data_, std::min<std::size_t>(size_, 4)));
        !st)
      return fail(st.error().message);
    od::parser parser;
    if (auto e = parser.iterate(data_, size_, size_ + kTracePadding).get(doc_))
      return json_error(e, false);
    doc_ready_ = true;
    od::json_type type{};
    if (auto e = doc_.type().get(type)) return json_error(e, false);
    Status s;
    if (type == od::json_type::array) {
      od::array arr;
      if (auto e = doc_.get_array().get(arr)) return json_error(e, false);
      s = events(arr);
    } else if (type == od::json_type::object) {
      s = top_object();
    } else {
      return fail("not a Chrome trace: the top level is neither an array nor an object");
    }
    if (!s) return s.error();
    progress_.report("parsing trace", 1.0);
    return builder_.finish(source_, static_cast<std::int64_t>(size_));
  }

 private:
  Error fail(const std::string& reason) const { return Error::bad_input(source_ + ": " + reason); }
  Error event_fail(const std::string& reason) const {
    return fail("traceEvents[" + std::to_string(index_) + "]: " + reason);
  }
  // Syntax errors carry the byte offset where the parser stopped, when it can tell.
  Error json_error(simdjson::error_code e, bool in_event) {
    std::string where;
    const char* at = nullptr;
    // Offset 0 means the error was found before the walk began (e.g. unbalanced brackets).
    if (doc_ready_ && doc_.current_location().get(at) == simdjson::SUCCESS && at > data_)
      where = " at byte " + std::to_string(at - data_);
    if (where.empty()) where = stage1_location(e);
    const std::string reason =
        std::string("JSON error") + where + ": " + simdjson::error_message(e);
    return in_event ? event_fail(reason) : fail(reason);
  }

  // Errors found while indexing the text carry no location: find the byte they are about.
  std::string stage1_location(simdjson::error_code e) const {
    const auto* bytes = reinterpret_cast<const unsigned char*>(data_);
    std::size_t at = size_;
    if (e == simdjson::UNESCAPED_CHARS) {
      at = static_cast<std::size_t>(std::find_if(bytes, bytes + size_,
                                                 [](unsigned char c) {
                                                   return c < 0x20 && c != '\t' && c != '\n' &&
                                                          c != '\r';
                                                 }) -
                                    bytes);
    } else if (e == simdjson::UTF8_ERROR) {
      at = first_invalid_utf8(bytes, size_);
    } else if (e != simdjson::INCOMPLETE_ARRAY_OR_OBJECT && e != simdjson::EMPTY) {
      return {};
    }
    if (at >= size_) return " at byte " + std::to_string(size_) + " (the end of the text)";
    return " at byte " + std::to_string(at);
  }

  Status top_object() {
    od::object obj;
    if (auto e = doc_.get_object().get(obj)) return json_error(e, false);
    bool found = false;
    for (auto field_result : obj) {
      od::field field;
      if (auto e = std::move(field_result).get(field)) return json_error(e, false);
      if (field.key() == "distributedInfo") {
        if (Status s = distributed_info(field.value()); !s) return s;
        continue;
      }
      if (field.key() != "traceEvents") continue;  // otherData, metadata, ...: skipped unread
      od::array arr;
      if (auto e = field.value().get_array().get(arr)) {
        if (e == simdjson::INCORRECT_TYPE) return fail("\"traceEvents\" is not an array");
        return json_error(e, false);
      }
      if (Status s = events(arr); !s) return s;
      found = true;
    }
    if (!found) return fail("not a Chrome trace: no \"traceEvents\" array");
    return {};
  }

  Status events(od::array& arr) {
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
        if (doc_.current_location().get(at) == simdjson::SUCCESS && size_ > 0)
          progress_.report("parsing trace",
                           static_cast<double>(at - data_) / static_cast<double>(size_));
        if (cancel_.cancelled()) return Error::cancelled();
      }
    }
    return {};
  }

  // Reads pid/tid: numbers are printed as text into `buf` so that 3 and "3" name the same lane.
  Status id_text(od::value& v, const char* what, char* buf, std::size_t cap,
                 std::string_view& out) {
    od::json_type type{};
    if (auto e = v.type().get(type)) return json_error(e, true);
    if (type == od::json_type::string) {
      if (auto e = v.get_string().get(out)) return json_error(e, true);
      return {};
    }
    if (type != od::json_type::number)
      return event_fail(std::string(what) + " is neither a number nor a string");
    od::number num;
    if (auto e = v.get_number().get(num)) return json_error(e, true);
    std::to_chars_result res{};
    if (num.is_int64())
      res = std::to_chars(buf, buf + cap, num.get_int64());
    else if (num.is_uint64())
      res = std::to_chars(buf, buf + cap, num.get_uint64());
    else
      res = std::to_chars(buf, buf + cap, num.get_double());
    out = std::string_view(buf, static_cast<std::size_t>(res.ptr - buf));
    return {};
  }

  Status number(od::value& v, const char* what, double& out) {
    if (auto e = v.get_double().get(out)) {
      if (e == simdjson::INCORRECT_TYPE) return event_fail(std::string(what) + " is not a number");
      return json_error(e, true);
    }
    return {};
  }

  Status text(od::value& v, const char* what, std::string_view& out) {
    if (auto e = v.get_string().get(out)) {
      if (e == simdjson::INCORRECT_TYPE) return event_fail(std::string(what) + " is not a string");
      return json_error(e, true);
    }
    return {};
  }

  // PyTorch profiler traces name their rank: "distributedInfo": {"rank": N, ...}.
  Status distributed_info(od::value v) {
    od::object info;
    if (auto e = v.get_object().get(info)) {
      if (e == simdjson::INCORRECT_TYPE) return fail("\"distributedInfo\" is not an object");
      return json_error(e, false);
    }
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

  // The raw text of a value (a view into the document), checked to be well-formed: simdjson skips
  // an object or array by bracket depth without looking inside.
  Status checked_raw(od::value& v, std::string_view& raw) {
    od::json_type type{};
    if (auto e = v.type().get(type)) return json_error(e, true);
    if (type == od::json_type::object) {
      od::object obj;
      if (auto e = v.get_object().get(obj)) return json_error(e, true);
      if (auto e = obj.raw_json().get(raw)) return json_error(e, true);
    } else if (type == od::json_type::array) {
      od::array arr;
      if (auto e = v.get_array().get(arr)) return json_error(e, true);
      if (auto e = arr.raw_json().get(raw)) return json_error(e, true);
    } else {
      raw = v.raw_json_token();
    }
    if (!JsonValueCheck(raw).ok()) return json_error(simdjson::TAPE_ERROR, true);
    return {};
  }

  // The args value as compact JSON text in args_buf_ (for tooltips). Minifying drops the
  // writer's spaces.
  Status args_text(od::value& v, std::string_view& out) {
    std::string_view raw;
    if (Status s = checked_raw(v, raw); !s) return s;
    if (args_buf_.size() < raw.size()) args_buf_.resize(std::max(raw.size(), 2 * args_buf_.size()));
    out = std::string_view(args_buf_.data(), minify_json(raw, args_buf_.data()));
    return {};
  }

  // "args" of an "M" event (its label), or of a timed event (kept as text when events are).
  Status args(od::value& v, RawTraceEvent& ev) {
    if (ev.ph == "M") {
      od::object obj;
      if (v.get_object().get(obj) != simdjson::SUCCESS) return {};
      return meta_args(obj, ev.meta_name);
    }
    if (ev.ph.empty()) {
      // "ph" not seen yet (writers put it first; some do not): keep the raw text and decide later.
      if (Status s = args_text(v, ev.args); !s) return s;
      ev.has_args = true;
      late_args_ = true;
      return {};
    }
    if (!keep_args_ || ev.ph.size() != 1 ||
        (ev.ph[0] != 'X' && ev.ph[0] != 'B' && ev.ph[0] != 'E')) {
      std::string_view unused;  // not kept, but a malformed file fails the same in every mode
      return checked_raw(v, unused);
    }
    if (Status s = args_text(v, ev.args); !s) return s;
    ev.has_args = true;
    return {};
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
      Status s;
      if (key == "ph") {
        s = text(v, "ph", ev.ph);
      } else if (key == "ts") {
        s = number(v, "ts", ev.ts);
        ev.has_ts = true;
      } else if (key == "dur") {
        s = number(v, "dur", ev.dur);
        ev.has_dur = true;
      } else if (key == "pid") {
        s = id_text(v, "pid", pid_buf_, sizeof pid_buf_, ev.pid);
      } else if (key == "tid") {
        s = id_text(v, "tid", tid_buf_, sizeof tid_buf_, ev.tid);
      } else if (key == "id") {
        // Flow ids are numbers or strings; other shapes (async "id2"-style objects) are not ours.
        od::json_type type{};
        if (v.type().get(type) == simdjson::SUCCESS &&
            (type == od::json_type::number || type == od::json_type::string))
          s = id_text(v, "id", id_buf_, sizeof id_buf_, ev.id);
      } else if (key == "name") {
        s = text(v, "name", ev.name);
      } else if (key == "cat") {
        s = text(v, "cat", ev.cat);
      } else if (key == "args") {
        s = args(v, ev);
      }
      if (!s) return s;
    }
    if (late_args_) {
      late_args_ = false;
      if (ev.ph == "M") return late_meta_name(ev);
      if (!keep_args_) ev.has_args = false;
    }
    return {};
  }

  const char* data_;
  std::size_t size_;
  const std::string& source_;
  TraceBuilder builder_;
  const CancelToken& cancel_;
  ProgressSink& progress_;
  od::document doc_;
  bool doc_ready_ = false;  // a document whose iterate() failed must not be asked its location
  std::int64_t index_ = 0;
  bool keep_args_;
  bool late_args_ = false;  // this event's args were read before its "ph"
  std::string args_buf_ = std::string(256, '\0');
  simdjson::padded_string late_doc_;
  od::parser late_parser_;
  char pid_buf_[32] = {};
  char tid_buf_[32] = {};
  char id_buf_[32] = {};
};

}  // namespace

Expected<ImportedTrace> import_chrome_trace_text(const std::string& json,
                                                 const std::string& source_name,
                                                 const TraceImportOptions& options,
                                                 const CancelToken& cancel,
                                                 ProgressSink& progress) {
  if (cancel.cancelled()) return Error::cancelled();
  // simdjson reads past the end of the text: copy into a padded buffer.
  const simdjson::padded_string padded(json);
  return ChromeTraceParser(padded.data(), padded.size(), source_name, options, cancel, progress)
      .run();
}

Expected<ImportedTrace> import_chrome_trace(const std::string& path,
                                            const TraceImportOptions& options,
                                            const CancelToken& cancel, ProgressSink& progress) {
  if (cancel.cancelled()) return Error::cancelled();
  auto text = read_trace_text(path, cancel, progress);
  if (!text) return text.error();
  return ChromeTraceParser(text->data(), text->size, path, options, cancel, progress).run();
}

}  // namespace slimpack
