#pragma once
// Explicit JSON reading helpers (JSON_USE_IMPLICIT_CONVERSIONS=0): every getter names the JSON path
// of a missing or mistyped field in its error.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

#include "common/status.h"

namespace slimpack::json_util {

using Json = nlohmann::json;

// Parses text; errors carry nlohmann's byte position.
Expected<Json> parse(const std::string& text);
// Reads and parses a file; errors name the file.
Expected<Json> parse_file(const std::string& path);

// Required fields. `path` is the JSON path of `obj` (e.g. "$.forward_packs[3]").
Expected<double> get_number(const Json& obj, const std::string& key, const std::string& path);
Expected<std::int64_t> get_int(const Json& obj, const std::string& key, const std::string& path);
Expected<std::string> get_string(const Json& obj, const std::string& key, const std::string& path);
// Optional fields: std::nullopt when absent, an error when present with the wrong type.
Expected<std::optional<double>> opt_number(const Json& obj, const std::string& key,
                                           const std::string& path);
Expected<std::optional<std::int64_t>> opt_int(const Json& obj, const std::string& key,
                                              const std::string& path);
Expected<std::optional<std::string>> opt_string(const Json& obj, const std::string& key,
                                                const std::string& path);
Expected<std::optional<bool>> opt_bool(const Json& obj, const std::string& key,
                                       const std::string& path);

// Writes a file atomically (temp file + rename) so a crash never leaves a half-written file.
Status write_file_atomic(const std::string& path, const std::string& contents);
// Reads a whole file; the error names the file.
Expected<std::string> read_file(const std::string& path);

}  // namespace slimpack::json_util
