#include "trace/trace_event_reader.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "trace/trace_json_text.h"

namespace slimpack {
namespace {

using trace_json::detail::kByteClasses;
using trace_json::detail::kScalar;
using trace_json::detail::kSpace;

// simdjson's wording of the same errors, which the import reported before this reader and which
// users and tests know.
constexpr const char* kUnclosedString = "A string is opened, but never closed.";
constexpr const char* kIncomplete =
    "JSON document ended early in the middle of an object or array.";
constexpr const char* kStructure =
    "The JSON document has an improper structure: missing or superfluous commas, braces, missing "
    "keys, etc.";
constexpr const char* kNumber = "Problem while parsing a number";
constexpr const char* kString = "Problem while parsing a string";
constexpr const char* kControl =
    "Within strings, some characters must be escaped, we found unescaped characters";
constexpr const char* kDepth =
    "The JSON document was too deep (too many nested objects and arrays)";

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool starts_number(char c) {
  return c == '-' || is_digit(c);
}
using trace_json::detail::NumberLex;

// A lexed number token as a double; false when it is beyond double's range.
bool double_of(const NumberLex& n, std::string_view t, double& out) {
  // Clinger's fast path: at most 15 significant digits and no exponent, so that the digits are an
  // exact double and so is the power of ten, and one division rounds correctly; integers up to
  // 2^53 are exact too. Every Kineto timestamp and duration in µs takes it (integers, or 3
  // decimals on a timeline that starts near zero).
  static constexpr double kPow10[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                      1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
  const bool exact_integer = n.integer && n.digits <= 19 && n.mantissa <= (std::uint64_t{1} << 53);
  if (n.digits <= 15 || exact_integer) {
    double v = static_cast<double>(n.mantissa);
    if (n.fraction_digits > 0) v /= kPow10[n.fraction_digits];
    out = t[0] == '-' ? -v : v;
    return true;
  }
  const auto r = std::from_chars(t.data(), t.data() + t.size(), out);
  return r.ec == std::errc() && std::isfinite(out);
}
// An integer token in int64; false when it does not fit.
bool int64_of(const NumberLex& n, std::string_view t, std::int64_t& out) {
  if (!n.integer) return false;
  if (n.digits <= 18) {
    const auto v = static_cast<std::int64_t>(n.mantissa);
    out = t[0] == '-' ? -v : v;
    return true;
  }
  const auto r = std::from_chars(t.data(), t.data() + t.size(), out);
  return r.ec == std::errc() && r.ptr == t.data() + t.size();
}
// A byte count of a "[memory]" event: an integer in int64, or a finite double within int64
// (rounded); a uint64 past int64 is no count a profiler writes.
bool byte_count(const NumberLex& n, std::string_view t, std::int64_t& out) {
  if (n.integer) return int64_of(n, t, out);
  double d = 0.0;
  if (!double_of(n, t, d) || !(d > -9.2e18 && d < 9.2e18)) return false;
  out = std::llround(d);
  return true;
}
int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
// Four hex digits at p (the text has them: the string was delimited), or -1.
int hex4(const char* p) {
  int v = 0;
  for (int i = 0; i < 4; ++i) {
    const int d = hex_digit(p[i]);
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}
void put_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}
// The decoded text of a string's raw content (between its quotes) with escapes; the offset of a
// bad escape, or npos when all are good.
std::size_t unescape(std::string_view raw, std::string& out) {
  out.clear();
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] != '\\') {
      out += raw[i];
      continue;
    }
    const std::size_t at = i++;
    if (i >= raw.size()) return at;
    switch (raw[i]) {
      case '"':
        out += '"';
        break;
      case '\\':
        out += '\\';
        break;
      case '/':
        out += '/';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        if (i + 4 >= raw.size()) return at;  // four hex digits after the 'u'
        int cp = hex4(raw.data() + i + 1);
        if (cp < 0) return at;
        i += 4;
        if (cp >= 0xDC00 && cp <= 0xDFFF) return at;  // a low surrogate alone
        if (cp >= 0xD800 && cp <= 0xDBFF) {           // a high one: its low half must follow
          if (i + 6 >= raw.size() || raw[i + 1] != '\\' || raw[i + 2] != 'u') return at;
          const int low = hex4(raw.data() + i + 3);
          if (low < 0xDC00 || low > 0xDFFF) return at;
          cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          i += 6;
        }
        put_utf8(out, static_cast<std::uint32_t>(cp));
        break;
      }
      default:
        return at;
    }
  }
  return std::string_view::npos;
}

}  // namespace

// --- stopping -------------------------------------------------------------------------------

void TraceEventReader::ran_out(const char* p, bool in_string) {
  (void)p;
  if (!eof_) {
    stopped_ = Result::NeedMore;
    throw Stop{};
  }
  failure_ = Failure{};
  failure_.at = static_cast<std::size_t>(end_ - begin_);
  failure_.at_end = true;
  failure_.json = in_string ? kUnclosedString : kIncomplete;
  stopped_ = Result::Failed;
  throw Stop{};
}

void TraceEventReader::syntax(const char* p, const char* what) {
  if (p >= end_) ran_out(p, false);
  failure_ = Failure{};
  failure_.at = static_cast<std::size_t>(p - begin_);
  failure_.json = what;
  stopped_ = Result::Failed;
  throw Stop{};
}

void TraceEventReader::wrong_type(const char* what, const char* is_not) {
  failure_ = Failure{};
  failure_.field_message = std::string(what) + " is " + is_not;
  stopped_ = Result::Failed;
  throw Stop{};
}

// --- tokens ---------------------------------------------------------------------------------

// The byte at end_ is zero (the window's padding), so scanning loops stop there unchecked.
const char* TraceEventReader::ws(const char* p) const {
  return trace_json::detail::skip_space_padded(p);
}

const char* TraceEventReader::expect(const char* p, char c) {
  p = ws(p);
  if (*p != c) syntax(p, kStructure);
  return p + 1;
}

const char* TraceEventReader::string_end(const char* p) {
  ++p;
  escaped_ = false;
  for (;;) {
    p = trace_json::detail::string_stop_padded(p);
    const auto c = static_cast<unsigned char>(*p);
    if (c == '"') return p + 1;
    if (c == '\\') {
      escaped_ = true;
      if (p + 1 >= end_) ran_out(end_, true);
      p += 2;
      continue;
    }
    if (p >= end_) ran_out(end_, true);  // the padding's zero
    syntax(p, kControl);
  }
}

const char* TraceEventReader::string_value(const char* p, std::string_view& out,
                                           std::string& scratch) {
  const char* e = string_end(p);
  const std::string_view raw(p + 1, static_cast<std::size_t>(e - p - 2));
  if (!escaped_) {
    out = raw;
    return e;
  }
  if (const std::size_t bad = unescape(raw, scratch); bad != std::string_view::npos)
    syntax(p + 1 + bad, kString);
  out = scratch;
  return e;
}

const char* TraceEventReader::skip_value(const char* p) {
  // Most values are scalars and strings: no container walk for them.
  if (*p == '"') return string_end(p);
  if (starts_number(*p)) {
    NumberLex n;
    return lex(p, n);
  }
  if (*p == 't' || *p == 'f' || *p == 'n') {
    const char* e = trace_json::detail::lex_atom_padded(p);
    if (!e || e >= end_) token_failed(p, kStructure);
    return e;
  }
  using trace_json::detail::ValueStop;
  ValueStop stop = ValueStop::None;
  const char* at = nullptr;
  char* unused = nullptr;
  const char* e = trace_json::detail::json_value_end<false, true>(p, end_, unused, stop, at);
  if (e) return e;
  switch (stop) {
    case ValueStop::RanOut:
      ran_out(end_, false);
    case ValueStop::RanOutInString:
      ran_out(end_, true);
    case ValueStop::TooDeep:
      syntax(at, kDepth);
    default:
      break;
  }
  if (static_cast<unsigned char>(*at) < 0x20) syntax(at, kControl);  // in a string, or a NUL
  syntax(at, starts_number(*at) ? kNumber : kStructure);
}

// A token at p that did not lex: cut by the window's end (more text may complete it) or bad.
void TraceEventReader::token_failed(const char* p, const char* what) {
  const char* e = p;
  while (kByteClasses.of[static_cast<unsigned char>(*e)] == kScalar) ++e;
  if (e >= end_) ran_out(end_, false);
  syntax(p, what);
}

const char* TraceEventReader::lex(const char* p, NumberLex& n) {
  const char* e = trace_json::detail::lex_number_padded(p, n);
  if (!e || e >= end_) token_failed(p, kNumber);
  return e;
}

const char* TraceEventReader::number(const char* p, const char* what, double& out) {
  if (!starts_number(*p)) {
    if (p >= end_) ran_out(p, false);
    wrong_type(what, "not a number");
  }
  NumberLex n;
  const char* e = lex(p, n);
  if (!double_of(n, std::string_view(p, static_cast<std::size_t>(e - p)), out)) syntax(p, kNumber);
  return e;
}

// A pid, tid or flow id: a string as it is, a number as text ("-0" as "0", a fraction as the
// shortest text of its double).
const char* TraceEventReader::id_text(const char* p, const char* what, char* buf,
                                      std::string& scratch, std::string_view& out) {
  if (*p == '"') return string_value(p, out, scratch);
  if (!starts_number(*p)) {
    if (p >= end_) ran_out(p, false);
    wrong_type(what, "neither a number nor a string");
  }
  NumberLex n;
  const char* e = lex(p, n);
  const std::string_view t(p, static_cast<std::size_t>(e - p));
  if (n.integer) {
    std::int64_t i = 0;
    std::uint64_t u = 0;
    const bool fits =
        int64_of(n, t, i) ||
        (t[0] != '-' && std::from_chars(t.data(), t.data() + t.size(), u).ec == std::errc());
    if (!fits) syntax(p, kNumber);  // beyond 64 bits
    out = t == "-0" ? std::string_view("0") : t;
    return e;
  }
  double d = 0.0;
  if (!double_of(n, t, d)) syntax(p, kNumber);
  const auto r = std::to_chars(buf, buf + 32, d);
  out = std::string_view(buf, static_cast<std::size_t>(r.ptr - buf));
  return e;
}

// --- objects --------------------------------------------------------------------------------

// The fields of the object at p ('{'): on_field(raw key, value) reads the value and returns the
// byte after it. Keys are compared as written (escapes not decoded), as simdjson's keys were.
template <class OnField>
const char* TraceEventReader::fields(const char* p, OnField&& on_field) {
  p = ws(p + 1);
  if (*p == '}') return p + 1;
  for (;;) {
    if (*p != '"') syntax(p, kStructure);
    const char* key_end = string_end(p);
    const std::string_view key(p + 1, static_cast<std::size_t>(key_end - p - 2));
    p = ws(expect(key_end, ':'));
    if (p >= end_) ran_out(p, false);
    p = ws(on_field(key, p));
    if (*p == ',') {
      p = ws(p + 1);
      continue;
    }
    if (*p == '}') return p + 1;
    syntax(p, kStructure);
  }
}

TraceEventReader::Result TraceEventReader::read(const char* begin, const char* end, bool eof,
                                                RawTraceEvent& ev) {
  begin_ = begin;
  end_ = end;
  eof_ = eof;
  ev = RawTraceEvent{};
  try {
    const char* late_args = nullptr;  // "args" before "ph": read once the phase is known
    next_ = fields(begin, [&](std::string_view key, const char* v) -> const char* {
      switch (key.size()) {
        case 2:
          if (key == "ph") {
            if (*v != '"') wrong_type("ph", "not a string");
            return string_value(v, ev.ph, ph_buf_);
          }
          if (key == "ts") {
            ev.has_ts = true;
            return number(v, "ts", ev.ts);
          }
          if (key == "id") {
            if (*v == '"' || starts_number(*v)) return id_text(v, "id", id_num_, id_buf_, ev.id);
            return skip_value(v);  // async "id2"-style objects are not ours
          }
          break;
        case 3:
          if (key == "dur") {
            ev.has_dur = true;
            return number(v, "dur", ev.dur);
          }
          if (key == "pid") return id_text(v, "pid", pid_num_, pid_buf_, ev.pid);
          if (key == "tid") return id_text(v, "tid", tid_num_, tid_buf_, ev.tid);
          if (key == "cat") {
            if (*v != '"') wrong_type("cat", "not a string");
            return string_value(v, ev.cat, cat_buf_);
          }
          break;
        case 4:
          if (key == "name") {
            if (*v != '"') wrong_type("name", "not a string");
            return string_value(v, ev.name, name_buf_);
          }
          if (key == "args") {
            if (ev.ph.empty()) {
              late_args = v;
              return skip_value(v);
            }
            return args(v, ev);
          }
          break;
        default:
          break;
      }
      return skip_value(v);
    });
    if (late_args) args(late_args, ev);  // checked already: this pass only reads
  } catch (const Stop&) {
    return stopped_;
  }
  return Result::Done;
}

// --- args -----------------------------------------------------------------------------------

const char* TraceEventReader::args(const char* p, RawTraceEvent& ev) {
  const std::string_view ph = ev.ph;
  if (ph == "M") return meta_args(p, ev);
  const bool keep_events = options_.keep_events;
  const bool complete = ph == "X" || ph == "B";
  // Kept as text: X/B/E events' args, and those of an event with no "ph" at all.
  if (keep_events && options_.keep_args && (ph.empty() || complete || ph == "E"))
    return kept_args(p, ev);
  if (keep_events && complete) return correlation_args(p, ev);
  if (keep_events && ph == "C") return counter_args(p, ev);
  if (keep_events && (ph == "i" || ph == "I")) {
    // An instant's args are kept as text too (the explorer's details and tooltips), and read for
    // the "[memory]" fields: two passes over instants' args, only when args are kept.
    if (options_.keep_args) kept_args(p, ev);
    return memory_args(p, ev);
  }
  return skip_value(p);
}

// An "M" event's label: args.name ("labels" for process_labels).
const char* TraceEventReader::meta_args(const char* p, RawTraceEvent& ev) {
  if (*p != '{') return skip_value(p);
  return fields(p, [&](std::string_view key, const char* v) -> const char* {
    if (key != "name" && key != "labels") return skip_value(v);
    if (*v == '"') return string_value(v, ev.meta_name, meta_buf_);
    ev.meta_name = {};
    return skip_value(v);
  });
}

// The args as compact JSON text (tooltips), with args.correlation of a complete event.
const char* TraceEventReader::kept_args(const char* p, RawTraceEvent& ev) {
  const auto room = static_cast<std::size_t>(end_ - p) + 1;
  if (args_buf_.size() < room) args_buf_.resize(std::max(room, 2 * args_buf_.size()));
  using trace_json::detail::ValueStop;
  ValueStop stop = ValueStop::None;
  const char* at = nullptr;
  char* out = args_buf_.data();
  const char* e = trace_json::detail::json_value_end<true, true>(p, end_, out, stop, at);
  if (!e) return skip_value(p);  // fails, with the reason
  ev.args = std::string_view(args_buf_.data(), static_cast<std::size_t>(out - args_buf_.data()));
  ev.has_args = true;
  if (ev.ph == "X" || ev.ph == "B")
    ev.has_correlation = trace_json::top_level_integer(ev.args, "\"correlation\":", ev.correlation);
  return e;
}

// args.correlation of a complete event (the launch a GPU operation belongs to).
const char* TraceEventReader::correlation_args(const char* p, RawTraceEvent& ev) {
  if (*p != '{') return skip_value(p);
  return fields(p, [&](std::string_view key, const char* v) -> const char* {
    if (key != "correlation" || !starts_number(*v)) return skip_value(v);
    NumberLex n;
    const char* e = lex(v, n);
    if (int64_of(n, std::string_view(v, static_cast<std::size_t>(e - v)), ev.correlation))
      ev.has_correlation = true;
    return e;
  });
}

// The fields of a "[memory]" instant's args (RawMemoryArgs).
const char* TraceEventReader::memory_args(const char* p, RawTraceEvent& ev) {
  if (*p != '{') return skip_value(p);
  return fields(p, [&](std::string_view key, const char* v) -> const char* {
    if (!starts_number(*v)) return skip_value(v);
    NumberLex n;
    const char* e = lex(v, n);
    const std::string_view t(v, static_cast<std::size_t>(e - v));
    RawMemoryArgs& m = ev.memory;
    if (key == "Total Allocated")
      m.has_allocated = byte_count(n, t, m.allocated);
    else if (key == "Total Reserved")
      m.has_reserved = byte_count(n, t, m.reserved);
    else if (key == "Device Type")
      m.has_device_type = byte_count(n, t, m.device_type);
    else if (key == "Device Id")
      m.has_device_id = byte_count(n, t, m.device_id);
    return e;
  });
}

// The numeric series of a counter event, by their decoded names.
const char* TraceEventReader::counter_args(const char* p, RawTraceEvent& ev) {
  counters_.clear();
  counter_keys_.clear();
  if (*p != '{') return skip_value(p);
  const char* e = fields(p, [&](std::string_view key, const char* v) -> const char* {
    if (!starts_number(*v)) return skip_value(v);
    NumberLex n;
    const char* end = lex(v, n);
    double value = 0.0;
    if (!double_of(n, std::string_view(v, static_cast<std::size_t>(end - v)), value))
      syntax(v, kNumber);
    std::string_view series = key;
    if (key.find('\\') != std::string_view::npos) {
      counter_keys_.emplace_back();
      if (const std::size_t bad = unescape(key, counter_keys_.back());
          bad != std::string_view::npos)
        syntax(key.data() + bad, kString);
      series = counter_keys_.back();
    }
    counters_.push_back({series, value});
    return end;
  });
  ev.counters = counters_;
  return e;
}

}  // namespace slimpack
