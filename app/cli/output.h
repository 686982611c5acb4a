#pragma once
// Shared output helpers of the CLI: exit codes, JSON destinations and human-readable units.
#include <nlohmann/json.hpp>

#include <string>

#include "args.h"
#include "common/status.h"

namespace slimpack::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitInternal = 1;
inline constexpr int kExitBadInput = 2;

// Prints "slimpack <command>: <message>" to stderr and returns the exit code for the error kind.
int report_error(const std::string& command, const Error& error);

// Writes `j` to the --json destination ("-" = stdout), atomically for files.
Status write_json_output(const std::string& destination, const nlohmann::json& j);

// Writes text to a destination ("-" = stdout), atomically for files.
Status write_text_output(const std::string& destination, const std::string& text);

std::string format_seconds(double s, const std::string& unit = "s");  // "1.234 s", "12.3 ms"
std::string format_bytes(double b);                                   // "12.3 GB"
std::string format_percent(double ratio);                             // "27.3 %"
std::string format_count(double n);                                   // "1.05 M"

}  // namespace slimpack::cli
