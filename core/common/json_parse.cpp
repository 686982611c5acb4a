// json_util::parse: nlohmann's SAX parser driving a DOM builder of our own, so that every failure
// is a value, never an exception (a number too large for a double used to escape as an uncaught
// out_of_range), names the line, column and JSON path, and hostile input is refused early: nesting
// deeper than kMaxJsonDepth, text larger than kMaxJsonBytes and duplicate keys (which nlohmann
// would silently resolve to the last one).
#include <algorithm>
#include <string_view>
#include <vector>

#include "common/json_util.h"

namespace slimpack::json_util {
namespace {

// "$.key" for plain keys, "$[\"odd key\"]" otherwise; the same style as the readers' paths.
void append_key(std::string& path, const std::string& key) {
  constexpr std::size_t kShown = 60;
  const bool plain = !key.empty() && key.size() <= kShown &&
                     key.find_first_of(".[]\"' \t\r\n") == std::string::npos;
  if (plain) {
    path += "." + key;
  } else {
    path += "[\"" + key.substr(0, kShown) + (key.size() > kShown ? "...\"]" : "\"]");
  }
}

class DomBuilder {
 public:
  explicit DomBuilder(Json& root) : root_(root) {}

  bool null() { return put(Json(nullptr)); }
  bool boolean(bool b) { return put(Json(b)); }
  bool number_integer(Json::number_integer_t v) { return put(Json(v)); }
  bool number_unsigned(Json::number_unsigned_t v) { return put(Json(v)); }
  bool number_float(Json::number_float_t v, const Json::string_t& /*text*/) { return put(Json(v)); }
  bool string(Json::string_t& s) { return put(Json(std::move(s))); }
  bool binary(Json::binary_t& b) { return put(Json::binary(std::move(b))); }
  bool start_object(std::size_t /*size*/) { return open(Json::object()); }
  bool start_array(std::size_t /*size*/) { return open(Json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(Json::string_t& k) {
    Frame& f = frames_.back();
    auto& members = f.node->get_ref<Json::object_t&>();
    auto [it, inserted] = members.try_emplace(k, nullptr);
    if (!inserted) {
      error_ = current_path() + ": duplicate key \"" + k.substr(0, 60) + "\"";
      return false;
    }
    f.key = k;
    f.slot = &it->second;
    return true;
  }

  bool parse_error(std::size_t position, const std::string& last_token, const Json::exception& ex) {
    position_ = position;
    std::string reason = ex.what();
    // nlohmann's text: "[json.exception.parse_error.101] parse error at line 1, column 6: why".
    if (const auto close = reason.find("] "); close != std::string::npos)
      reason.erase(0, close + 2);
    if (reason.rfind("parse error", 0) == 0) {
      if (const auto colon = reason.find(": "); colon != std::string::npos)
        reason.erase(0, colon + 2);
    }
    if (ex.id == 406) {  // out_of_range.406: a number beyond the range of a double
      reason = "number " + last_token.substr(0, 40) + " is too large for a double";
      // Point at the number's first character, not past its last.
      position_ = position >= last_token.size() ? position - last_token.size() + 1 : position;
    }
    error_ = reason;
    at_position_ = true;
    return false;
  }

  // The message when parsing stopped; empty when it did not.
  std::string message(std::string_view text) const {
    if (!at_position_) return "invalid JSON: " + error_;
    // nlohmann counts the byte that failed as read: the error is at position - 1.
    const std::size_t at = std::min(position_ > 0 ? position_ - 1 : 0, text.size());
    const std::string_view before = text.substr(0, at);
    const std::size_t line_start = before.rfind('\n');
    const std::size_t column = line_start == std::string_view::npos ? at + 1 : at - line_start;
    const auto line = static_cast<std::size_t>(std::count(before.begin(), before.end(), '\n')) + 1;
    std::string where = "invalid JSON at ";
    if (text.find('\n') != std::string_view::npos) where += "line " + std::to_string(line) + ", ";
    where += "column " + std::to_string(column);
    const std::string path = current_path();
    if (path != "$") where += " (" + path + ")";
    return where + ": " + error_;
  }

 private:
  struct Frame {
    Json* node = nullptr;
    std::string key;       // the member being read (objects)
    Json* slot = nullptr;  // its value (objects)
  };

  Json* put(Json&& v) {
    if (frames_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    Frame& f = frames_.back();
    if (f.node->is_array()) {
      f.node->push_back(std::move(v));
      return &f.node->back();
    }
    *f.slot = std::move(v);
    return f.slot;
  }

  bool open(Json&& container) {
    if (frames_.size() >= kMaxJsonDepth) {
      error_ = "nested deeper than " + std::to_string(kMaxJsonDepth) + " levels at " +
               abbreviated(current_path());
      return false;
    }
    // Parents only grow after this child closes, so the pointer stays valid while it is open.
    frames_.push_back({put(std::move(container)), {}, nullptr});
    return true;
  }

  bool close() {
    frames_.pop_back();
    return true;
  }

  // The path of the value being read: the last element of open arrays, the current key of
  // objects, and in the innermost array the element about to be added.
  std::string current_path() const {
    std::string path = "$";
    for (std::size_t i = 0; i < frames_.size(); ++i) {
      const Frame& f = frames_[i];
      const bool innermost = i + 1 == frames_.size();
      if (f.node->is_array()) {
        const std::size_t n = f.node->size();
        const std::size_t index = innermost ? n : (n > 0 ? n - 1 : 0);
        path += "[" + std::to_string(index) + "]";
      } else if (f.slot) {
        append_key(path, f.key);
      }
    }
    return path;
  }

  static std::string abbreviated(const std::string& path) {
    constexpr std::size_t kShown = 80;
    return path.size() <= kShown ? path : path.substr(0, kShown) + "...";
  }

  Json& root_;
  std::vector<Frame> frames_;
  std::string error_;
  std::size_t position_ = 0;
  bool at_position_ = false;
};

}  // namespace

Status check_text_encoding(std::string_view text) {
  const auto starts = [&](std::string_view mark) { return text.substr(0, mark.size()) == mark; };
  if (starts(std::string_view("\xFF\xFE\0\0", 4)) || starts(std::string_view("\0\0\xFE\xFF", 4)))
    return Error::bad_input("UTF-32 text (it starts with a byte-order mark); save it as UTF-8");
  if (starts("\xFF\xFE") || starts("\xFE\xFF"))
    return Error::bad_input("UTF-16 text (it starts with a byte-order mark); save it as UTF-8");
  const std::size_t nul = text.find('\0');
  if (nul == std::string_view::npos) return Status::success();
  const std::string_view before = text.substr(0, nul);
  const std::size_t line_start = before.rfind('\n');
  const std::size_t column = line_start == std::string_view::npos ? nul + 1 : nul - line_start;
  const auto line = std::count(before.begin(), before.end(), '\n') + 1;
  return Error::bad_input("line " + std::to_string(line) + ", column " + std::to_string(column) +
                          ": NUL byte, so not a text file (binary data, or UTF-16 without a "
                          "byte-order mark); expected UTF-8 text");
}

Expected<Json> parse(const std::string& text) {
  if (Status st = check_text_encoding(text); !st) return st.error();
  if (text.size() > kMaxJsonBytes)
    return Error::bad_input("JSON text of " + std::to_string(text.size()) +
                            " bytes is larger than the limit of " +
                            std::to_string(kMaxJsonBytes >> 20) + " MiB");
  Json root;
  DomBuilder builder(root);
  // strict: nothing but whitespace may follow the value; comments are not JSON.
  const bool ok = Json::sax_parse(text, &builder, Json::input_format_t::json, /*strict=*/true,
                                  /*ignore_comments=*/false);
  if (!ok) return Error::bad_input(builder.message(text));
  return root;
}

}  // namespace slimpack::json_util
