// JSONL length files: one JSON object a line with a numeric length field (--column, else the first
// of seq_len, num_tokens, length found in the first record), or one bare number a line.
#include <string_view>

#include "common/json_util.h"
#include "workload/length_readers.h"
#include "workload/length_values.h"

namespace slimpack::workload {

Expected<std::vector<Tokens>> read_jsonl_lengths(const std::string& path, const std::string& text,
                                                 const LengthFileOptions& opt) {
  // Checked on the whole text: a per-line check would count lines from each line's start.
  if (Status st = json_util::check_text_encoding(text); !st) return st.error().with_context(path);
  std::vector<Tokens> out;
  std::string field;  // fixed by the first record so that every line is read the same way
  std::string_view rest(text);
  if (rest.substr(0, 3) == "\xEF\xBB\xBF") rest.remove_prefix(3);
  std::int64_t number = 0;
  while (!rest.empty()) {
    ++number;
    const std::size_t nl = rest.find('\n');
    const std::string line(rest.substr(0, nl));
    rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;

    auto parsed = json_util::parse(line);
    if (!parsed) return error_at_line(path, number, parsed.error().message);
    const nlohmann::json& rec = *parsed;
    const nlohmann::json* value = &rec;
    std::string what;
    if (rec.is_object()) {
      if (field.empty()) {
        auto f = pick_record_field(rec, opt);
        if (!f) return error_at_line(path, number, f.error().message);
        field = *f;
      }
      auto it = rec.find(field);
      if (it == rec.end()) return error_at_line(path, number, "missing field \"" + field + "\"");
      value = &*it;
      what = "field \"" + field + "\": ";
    } else if (!rec.is_number()) {
      return error_at_line(
          path, number,
          std::string("expected a JSON object or a number, found ") + rec.type_name());
    } else if (!opt.column.empty()) {
      return error_at_line(
          path, number, "--column \"" + opt.column + "\" was given but the line is a bare number");
    }
    auto len = length_from_json(*value);
    if (!len) return error_at_line(path, number, what + len.error().message);
    if (auto st = append_repeated(out, *len, 1); !st)
      return error_at_line(path, number, st.error().message);
  }
  if (out.empty()) return Error::bad_input(path + ": empty file, no lengths");
  return out;
}

std::vector<std::string> jsonl_numeric_fields(const std::string& text) {
  std::string_view rest(text);
  if (rest.substr(0, 3) == "\xEF\xBB\xBF") rest.remove_prefix(3);
  while (!rest.empty()) {
    const std::size_t nl = rest.find('\n');
    const std::string line(rest.substr(0, nl));
    rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    auto parsed = json_util::parse(line);
    std::vector<std::string> fields;
    if (parsed && parsed->is_object())
      for (auto it = parsed->begin(); it != parsed->end(); ++it)
        if (it->is_number()) fields.push_back(it.key());
    return fields;  // the first record decides, as it does for the reader
  }
  return {};
}

}  // namespace slimpack::workload
