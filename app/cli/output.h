#pragma once
// Shared output helpers of the CLI: exit codes and JSON / text destinations.
#include <nlohmann/json.hpp>

#include <initializer_list>
#include <optional>
#include <string>

#include "args.h"
#include "common/format.h"
#include "common/status.h"

namespace slimpack::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitInternal = 1;
inline constexpr int kExitBadInput = 2;

// Prints "slimpack <command>: <message>" to stderr and returns the exit code for the error kind.
int report_error(const std::string& command, const Error& error);

// Writes `j` to the --json destination by the output-file rule (common/output_file.h): "-" is
// stdout, regular files are replaced atomically, pipes and devices are written in place.
Status write_json_output(const std::string& destination, const nlohmann::json& j);

// Writes text to a destination by the same rule.
Status write_text_output(const std::string& destination, const std::string& text);

// The output options of a command (e.g. {"json", "png"}) that name "-": their output goes to
// stdout, so the command prints no summary around it. Two of them on "-" would run together: an
// error naming both.
Expected<bool> stdout_output(const Args& args, std::initializer_list<const char*> keys);

// The binding limit of an infeasible row as values, or null: {"kind": "stage memory", "stage": 0,
// "replica": null, "needed": 8.33e10, "cap": 6.8e10, "unit": "bytes", "sequence": "s16"}.
nlohmann::json limit_json(const std::optional<InfeasibleDetail>& limit);

// Numbers for people come from core/common/format.h (format_time, format_bytes, format_percent,
// format_count, format_rate), as in the explorer. format_seconds is the older name of format_time.
inline std::string format_seconds(double s, const std::string& unit = "s") {
  return format_time(s, unit);
}

}  // namespace slimpack::cli
