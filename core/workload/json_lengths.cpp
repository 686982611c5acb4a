// JSON length files: an array of lengths (or of records with a length field), {"lengths": [...]},
// or a histogram {"histogram"|"bins": [{"length": L, "count": C}, ...] or {"L": C, ...}}.
#include <string_view>

#include "common/json_util.h"
#include "workload/length_readers.h"
#include "workload/length_values.h"

namespace slimpack::workload {
namespace {

using Json = nlohmann::json;

std::string key_list(const Json& obj) {
  std::string out;
  for (auto it = obj.begin(); it != obj.end(); ++it) out += (out.empty() ? "" : ", ") + it.key();
  return out.empty() ? "none" : out;
}

std::string member(const std::string& path, const std::string& key) {
  const bool plain = !key.empty() && key.find_first_of(".[]\" ") == std::string::npos;
  return plain ? path + "." + key : path + "[\"" + key + "\"]";
}

Expected<std::vector<Tokens>> from_array(const std::string& file, const Json& arr,
                                         const std::string& path, const LengthFileOptions& opt) {
  if (arr.empty()) return error_at_json(file, path, "empty array, no lengths");
  if (static_cast<std::int64_t>(arr.size()) > kMaxPoolSequences)
    return error_at_json(file, path, "more than " + std::to_string(kMaxPoolSequences) + " lengths");
  std::vector<Tokens> out;
  out.reserve(arr.size());
  std::string field;  // chosen from the first record so every record is read the same way
  for (std::size_t i = 0; i < arr.size(); ++i) {
    const Json& v = arr[i];
    std::string at = path + "[" + std::to_string(i) + "]";
    const Json* value = &v;
    if (v.is_object()) {
      if (field.empty()) {
        auto f = pick_record_field(v, opt);
        if (!f) return error_at_json(file, at, f.error().message);
        field = *f;
      }
      auto it = v.find(field);
      if (it == v.end()) return error_at_json(file, at, "missing field \"" + field + "\"");
      at = member(at, field);
      value = &*it;
    }
    auto len = length_from_json(*value);
    if (!len) return error_at_json(file, at, len.error().message);
    out.push_back(*len);
  }
  return out;
}

Expected<std::vector<Tokens>> from_histogram(const std::string& file, const Json& h,
                                             const std::string& path) {
  HistogramBuilder hist;
  auto add = [&](const std::string& at, Expected<Tokens> len,
                 Expected<std::int64_t> count) -> Status {
    if (!len) return error_at_json(file, at, len.error().message);
    if (!count) return error_at_json(file, at, count.error().message);
    if (auto st = hist.add(*len, *count); !st) return error_at_json(file, at, st.error().message);
    return Status::success();
  };
  if (h.is_array()) {
    for (std::size_t i = 0; i < h.size(); ++i) {
      const Json& bin = h[i];
      const std::string at = path + "[" + std::to_string(i) + "]";
      Status st;
      if (bin.is_object()) {
        for (const char* key : {"length", "count"})
          if (!bin.contains(key)) return error_at_json(file, member(at, key), "missing field");
        st = add(at, length_from_json(bin["length"]), count_from_json(bin["count"]));
      } else if (bin.is_array() && bin.size() == 2) {
        st = add(at, length_from_json(bin[0]), count_from_json(bin[1]));
      } else {
        return error_at_json(file, at,
                             "expected a bin {\"length\": L, \"count\": C} or a pair [L, C]");
      }
      if (!st) return st.error();
    }
  } else if (h.is_object()) {
    for (auto it = h.begin(); it != h.end(); ++it) {
      if (auto st =
              add(member(path, it.key()), parse_length_text(it.key()), count_from_json(it.value()));
          !st)
        return st.error();
    }
  } else {
    return error_at_json(file, path,
                         std::string("expected an array of bins or an object {\"length\": count}, "
                                     "found ") +
                             h.type_name());
  }
  if (h.empty()) return error_at_json(file, path, "empty histogram, no lengths");
  if (hist.total() == 0) return error_at_json(file, path, "the histogram counts sum to zero");
  // An object's keys come back in string order ("16" before "8"), so its bins go by length.
  return hist.expand(/*sort_by_length=*/h.is_object());
}

}  // namespace

Expected<std::string> pick_record_field(const Json& record, const LengthFileOptions& opt) {
  if (!opt.column.empty()) {
    if (record.contains(opt.column)) return opt.column;
    return Error::bad_input("no field \"" + opt.column + "\" (fields: " + key_list(record) + ")");
  }
  for (const auto& f : default_length_fields())
    if (record.contains(f)) return f;
  return Error::bad_input("no field \"seq_len\", \"num_tokens\" or \"length\" (fields: " +
                          key_list(record) + "); pick one with --column NAME");
}

Expected<std::vector<Tokens>> read_json_lengths(const std::string& path, const std::string& text,
                                                const LengthFileOptions& opt) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    return Error::bad_input(path + ": empty file, no lengths");
  auto parsed = json_util::parse(text);
  if (!parsed) return parsed.error().with_context(path);
  const Json& j = *parsed;
  if (j.is_array()) return from_array(path, j, "$", opt);
  if (!j.is_object())
    return error_at_json(
        path, "$",
        std::string("expected an array of lengths or an object, found ") + j.type_name());
  if (!opt.column.empty() && j.contains(opt.column)) {
    const Json& v = j[opt.column];
    if (!v.is_array())
      return error_at_json(path, member("$", opt.column),
                           std::string("expected an array of lengths, found ") + v.type_name());
    return from_array(path, v, member("$", opt.column), opt);
  }
  std::vector<std::string> found;
  for (const char* key : {"lengths", "histogram", "bins"})
    if (j.contains(key)) found.emplace_back(key);
  if (found.size() > 1)
    return error_at_json(
        path, "$", "ambiguous: both \"" + found[0] + "\" and \"" + found[1] + "\" are present");
  if (found.empty())
    return error_at_json(path, "$",
                         "expected an array of lengths or an object with \"lengths\", "
                         "\"histogram\" or \"bins\" (found keys: " +
                             key_list(j) + ")");
  const std::string at = "$." + found[0];
  const Json& v = j[found[0]];
  if (found[0] != "lengths") return from_histogram(path, v, at);
  if (!v.is_array())
    return error_at_json(path, at,
                         std::string("expected an array of lengths, found ") + v.type_name());
  return from_array(path, v, at, opt);
}

}  // namespace slimpack::workload
