// CSV / plain-text length files: one length a line, a `length,count` histogram, or a column of a
// multi-column table. Only the first line may be a header, and it is one exactly when none of its
// fields reads as a number (docs/design.md section 9).
#include <algorithm>
#include <cctype>
#include <string_view>

#include "common/json_util.h"
#include "workload/length_readers.h"
#include "workload/length_values.h"

namespace slimpack::workload {
namespace {

struct Line {
  std::int64_t number = 0;  // 1-based line number in the file
  std::string_view text;
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Non-blank lines with their numbers; a UTF-8 byte-order mark and CR of CRLF are dropped.
std::vector<Line> split_lines(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  std::vector<Line> lines;
  std::int64_t number = 0;
  while (!text.empty()) {
    ++number;
    const std::size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    if (!trim(line).empty()) lines.push_back({number, line});
  }
  return lines;
}

// Splits one CSV record on commas; double-quoted fields may hold commas and "" for a quote.
Expected<std::vector<std::string>> split_fields(std::string_view line) {
  std::vector<std::string> fields;
  std::string cur;
  bool in_quotes = false;
  bool was_quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (in_quotes) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cur += '"';
        ++i;
      } else if (c == '"') {
        in_quotes = false;
      } else {
        cur += c;
      }
    } else if (c == '"' && trim(cur).empty()) {
      in_quotes = true;
      was_quoted = true;
      cur.clear();
    } else if (c == ',') {
      fields.push_back(was_quoted ? cur : std::string(trim(cur)));
      cur.clear();
      was_quoted = false;
    } else {
      cur += c;
    }
  }
  if (in_quotes) return Error::bad_input("unterminated quoted field");
  fields.push_back(was_quoted ? cur : std::string(trim(cur)));
  return fields;
}

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + (n.empty() ? "(unnamed)" : n);
  return out;
}

// Which part of each row holds the lengths.
struct Layout {
  bool histogram = false;  // rows are (length, count)
  std::size_t column = 0;  // otherwise the column index
  std::string label;       // column name for messages ("" for a lone unnamed column)
};

Expected<Layout> layout_with_header(const std::vector<std::string>& names,
                                    const LengthFileOptions& opt) {
  const bool is_hist =
      names.size() == 2 && lower(names[0]) == "length" && lower(names[1]) == "count";
  auto find = [&](const std::string& want) -> std::ptrdiff_t {
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == want) return static_cast<std::ptrdiff_t>(i);
    for (std::size_t i = 0; i < names.size(); ++i)
      if (lower(names[i]) == lower(want)) return static_cast<std::ptrdiff_t>(i);
    return -1;
  };
  if (!opt.column.empty()) {
    if (is_hist && lower(opt.column) == "length") return Layout{true, 0, ""};
    const auto i = find(opt.column);
    if (i < 0)
      return Error::bad_input("no column \"" + opt.column +
                              "\" in the header; columns: " + join(names));
    return Layout{false, static_cast<std::size_t>(i), names.size() > 1 ? names[i] : ""};
  }
  if (names.size() == 1) return Layout{false, 0, ""};
  if (is_hist) return Layout{true, 0, ""};
  const auto i = find("length");
  if (i < 0)
    return Error::bad_input(std::to_string(names.size()) + " columns (" + join(names) +
                            ") and none is named \"length\"; pick one with --column NAME");
  return Layout{false, static_cast<std::size_t>(i), names[i]};
}

Expected<Layout> layout_without_header(std::size_t ncols, const LengthFileOptions& opt) {
  if (!opt.column.empty() && lower(opt.column) != "length")
    return Error::bad_input("--column \"" + opt.column +
                            "\" was given but the file has no header line (its first line is "
                            "numeric)");
  if (ncols == 1) return Layout{false, 0, ""};
  if (ncols == 2) return Layout{true, 0, ""};
  return Error::bad_input(std::to_string(ncols) +
                          " columns and no header line; add a header naming the columns and "
                          "pick one with --column NAME");
}

}  // namespace

Expected<std::vector<Tokens>> read_csv_lengths(const std::string& path, const std::string& text,
                                               const LengthFileOptions& opt) {
  if (Status st = json_util::check_text_encoding(text); !st) return st.error().with_context(path);
  const std::vector<Line> lines = split_lines(text);
  if (lines.empty()) return Error::bad_input(path + ": empty file, no lengths");

  auto first = split_fields(lines[0].text);
  if (!first) return error_at_line(path, lines[0].number, first.error().message);
  const bool header = std::none_of(first->begin(), first->end(),
                                   [](const std::string& f) { return looks_numeric(f); });
  auto layout =
      header ? layout_with_header(*first, opt) : layout_without_header(first->size(), opt);
  if (!layout) return error_at_line(path, lines[0].number, layout.error().message);
  const std::size_t ncols = first->size();
  const std::string prefix = layout->label.empty() ? "" : "column \"" + layout->label + "\": ";

  // A text that is no length file at all (a README saved as .txt, prose) has a first line read as
  // a one-column header and fails on the next line: say so rather than only what that line lacks.
  const bool lone_header = header && ncols == 1;
  auto fail = [&](std::size_t i, const std::string& reason) {
    std::string msg = reason;
    if (lone_header && i == 1)
      msg += "; the first line \"" + std::string(trim(lines[0].text).substr(0, 40)) +
             "\" was read as a column header and the next is no length: is this a length file? "
             "(one length a line, a length,count histogram or a CSV table with a header: "
             "docs/file-formats-lengths.md)";
    return error_at_line(path, lines[i].number, msg);
  };

  std::vector<Tokens> out;
  HistogramBuilder hist;
  for (std::size_t i = header ? 1 : 0; i < lines.size(); ++i) {
    const Line& line = lines[i];
    auto fields = split_fields(line.text);
    if (!fields) return fail(i, fields.error().message);
    if (fields->size() != ncols)
      return fail(i, "expected " + std::to_string(ncols) + (ncols == 1 ? " field" : " fields") +
                         ", found " + std::to_string(fields->size()));
    if (layout->histogram) {
      auto len = parse_length_text((*fields)[0]);
      if (!len) return error_at_line(path, line.number, len.error().message);
      auto count = parse_count_text((*fields)[1]);
      if (!count) return error_at_line(path, line.number, count.error().message);
      if (auto st = hist.add(*len, *count); !st)
        return error_at_line(path, line.number, st.error().message);
    } else {
      auto len = parse_length_text((*fields)[layout->column]);
      if (!len) return fail(i, prefix + len.error().message);
      if (auto st = append_repeated(out, *len, 1); !st)
        return error_at_line(path, line.number, st.error().message);
    }
  }
  if (layout->histogram) out = hist.expand(/*sort_by_length=*/false);
  if (header && lines.size() == 1)
    return Error::bad_input(path + ": only a header line, no lengths");
  if (out.empty()) return Error::bad_input(path + ": the histogram counts sum to zero, no lengths");
  return out;
}

Expected<std::vector<std::string>> csv_header_columns(const std::string& text) {
  if (Status st = json_util::check_text_encoding(text); !st) return st.error();
  const std::vector<Line> lines = split_lines(text);
  if (lines.empty()) return std::vector<std::string>{};
  auto first = split_fields(lines[0].text);
  if (!first) return first.error();
  const bool header = std::none_of(first->begin(), first->end(),
                                   [](const std::string& f) { return looks_numeric(f); });
  if (!header || first->size() < 2) return std::vector<std::string>{};
  return *first;
}

}  // namespace slimpack::workload
