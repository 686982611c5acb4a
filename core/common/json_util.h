#pragma once
// Explicit JSON reading helpers (JSON_USE_IMPLICIT_CONVERSIONS=0): every getter names the JSON path
// of a missing or mistyped field in its error.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"

namespace slimpack::json_util {

using Json = nlohmann::json;

// Limits on hostile input (the formats read with nlohmann need a handful of levels and a few MB):
// deeper nesting or larger text is refused with a message, not a stack or memory exhaustion.
inline constexpr std::size_t kMaxJsonDepth = 256;
inline constexpr std::size_t kMaxJsonBytes = std::size_t{256} << 20;
// Files read whole (length files, plans, profiles, sessions) may be at most this large.
inline constexpr std::uintmax_t kMaxFileBytes = std::uintmax_t{1} << 30;

// Refuses text that is not UTF-8 (or ASCII) before a reader guesses at it: a UTF-16 or UTF-32
// byte-order mark, or a NUL byte (binary data, UTF-16 without a mark). The message names the line
// and column of the NUL byte.
Status check_text_encoding(std::string_view text);

// Parses text. Never throws; errors read "invalid JSON at line L, column C ($.path): reason"
// (line only for multi-line text), or name the limit that was exceeded or a duplicate key.
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

// The older name of write_output_file (common/output_file.h), kept for callers not yet renamed:
// it follows the output-file rule (atomic for regular files and new paths, in place for devices,
// FIFOs and descriptors, "-" = stdout), despite its name.
Status write_file_atomic(const std::string& path, const std::string& contents);
// Reads a whole file (at most kMaxFileBytes); the error names the file.
Expected<std::string> read_file(const std::string& path);

}  // namespace slimpack::json_util
