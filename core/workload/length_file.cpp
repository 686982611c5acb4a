// read_length_file: checks the path, picks the reader by extension and wraps the result in a pool.
#include <algorithm>
#include <cctype>
#include <filesystem>

#include "common/json_util.h"
#include "workload/length_readers.h"
#include "workload/lengths.h"

namespace slimpack {

Expected<LengthPool> read_length_file(const std::string& path, const LengthFileOptions& opt) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) return Error::bad_input(path + ": file not found");
  if (fs::is_directory(st)) return Error::bad_input(path + ": is a directory, not a length file");

  std::string ext = fs::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  using Reader = Expected<std::vector<Tokens>> (*)(const std::string&, const std::string&,
                                                   const LengthFileOptions&);
  Reader reader = nullptr;
  if (ext == ".csv" || ext == ".txt") reader = workload::read_csv_lengths;
  if (ext == ".json") reader = workload::read_json_lengths;
  if (ext == ".jsonl" || ext == ".ndjson") reader = workload::read_jsonl_lengths;
  if (!reader)
    return Error::bad_input(path + ": unknown length file extension \"" + ext +
                            "\"; expected .csv, .txt, .json or .jsonl");

  auto text = json_util::read_file(path);
  if (!text) return text.error();
  auto lengths = reader(path, *text, opt);
  if (!lengths) return lengths.error();
  return LengthPool{path, std::move(*lengths)};
}

Expected<std::vector<std::string>> length_file_columns(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (ext != ".csv" && ext != ".txt" && ext != ".jsonl" && ext != ".ndjson")
    return std::vector<std::string>{};
  auto text = json_util::read_file(path);
  if (!text) return text.error();
  if (ext == ".jsonl" || ext == ".ndjson") return workload::jsonl_numeric_fields(*text);
  auto columns = workload::csv_header_columns(*text);
  if (!columns) return columns.error().with_context(path);
  return columns;
}

}  // namespace slimpack
