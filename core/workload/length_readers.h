#pragma once
// The per-format readers behind read_length_file. Each takes the file's text and its path (for
// messages) and returns the lengths in file order, a histogram expanded in bin order.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "common/status.h"
#include "workload/lengths.h"

namespace slimpack::workload {

Expected<std::vector<Tokens>> read_csv_lengths(const std::string& path, const std::string& text,
                                               const LengthFileOptions& opt);
Expected<std::vector<Tokens>> read_json_lengths(const std::string& path, const std::string& text,
                                                const LengthFileOptions& opt);
Expected<std::vector<Tokens>> read_jsonl_lengths(const std::string& path, const std::string& text,
                                                 const LengthFileOptions& opt);

// A CSV's header names when its first line is a header of two or more fields, else empty.
Expected<std::vector<std::string>> csv_header_columns(const std::string& text);
// The numeric fields of the first record of a JSONL text, else empty.
std::vector<std::string> jsonl_numeric_fields(const std::string& text);

// Default JSONL / JSON-record fields tried in this order when no --column is given.
inline const std::vector<std::string>& default_length_fields() {
  static const std::vector<std::string> fields = {"seq_len", "num_tokens", "length"};
  return fields;
}

// The field of a JSON record (JSON array element or JSONL line) that holds its length: --column,
// else the first default field present. The error lists the record's fields.
Expected<std::string> pick_record_field(const nlohmann::json& record, const LengthFileOptions& opt);

}  // namespace slimpack::workload
