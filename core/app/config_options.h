#pragma once
// The one description of the scenario's options: every option of the workload and the
// configuration is named here once, with its CLI flag, its session-file key, its type, its range or
// choices, its help text and how it reads and writes the scenario. The CLI's options and their
// checks (app/cli/setup.cpp), the session file (core/app/session_file.cpp) and the config panel's
// rows and field checks (ui/panels/config_panel.cpp) are generated from this table, so an option
// is added here plus its place in the panel, and a bad value reads the same in every front end:
//   CLI       "--pp: must be at least 1, got 0"
//   session   "s.slimpack: $.config.pp: must be at least 1, got 0"
//   panel     the CLI's message (the flag is the name the docs and the man page use)
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "app/scenario.h"
#include "common/status.h"

namespace slimpack {

// Everything the options describe: the workload and the configuration.
struct ScenarioSpec {
  WorkloadSpec workload;
  ConfigSpec config;
  TraceSpec traces;
  bool operator==(const ScenarioSpec&) const = default;
};

enum class OptionKind {
  Integer,  // a whole number in [min_int, max_int]; JSON integer
  Number,   // a finite number >= min_number (> when number_exclusive); JSON number
  Text,     // a string (file names, typed values parsed by `set`); JSON string
  Choice,   // one of choices(); JSON string
  Flag,     // CLI: present or not; JSON boolean
};

// The session file's "workload" / "config" / "traces" object. Trace options are taken by the
// commands that read traces (simulate --check-trace, fit-costs --trace), not by solve or sweep.
enum class OptionSection { Workload, Config, Traces };

// A value as the table passes it around: bool (Flag), int64 (Integer), double (Number) or text.
using OptionValue = std::variant<bool, std::int64_t, double, std::string>;

struct ConfigOption {
  std::string_view flag{};  // CLI option without dashes: "pp"
  OptionSection section{};
  std::string_view key{};  // session-file key: "pp"
  OptionKind kind{};
  std::string_view value_name{};  // the value's name in --help ("N", "FILE"); empty for flags
  std::string_view help{};        // --help text; a Choice appends its choices and default
  std::string_view help_after{};  // --help text after the choices (old names still accepted)
  std::int64_t min_int = 0;
  std::int64_t max_int = std::numeric_limits<std::int64_t>::max();
  double min_number = 0.0;
  bool number_exclusive = false;                    // Number: must be > min_number
  std::vector<std::string> (*choices)() = nullptr;  // Choice (and a Text's listed names)
  std::string_view noun{};                          // Choice: "unknown <noun> 'x' (known: ...)"
  bool session_negated = false;  // Flag stored as its opposite in the session (--symmetric)
  bool sweepable = false;        // `slimpack sweep` may give it a list of values
  // Field names the scenario functions give their errors about this option ("memory cap",
  // "parallel.stage_layers"; Error::field): such an error is about this option.
  std::vector<std::string_view> fields{};
  // The option's value in a scenario, and storing an already checked value (a Text's parser may
  // still refuse it: the reason, without a name).
  OptionValue (*get)(const ScenarioSpec&) = nullptr;
  Status (*set)(ScenarioSpec&, const OptionValue&) = nullptr;
};

// Every option, workload first, in the order --help lists them.
const std::vector<ConfigOption>& scenario_options();
const std::vector<ConfigOption>& options_in(OptionSection section);
const ConfigOption* find_option(std::string_view flag);

// The option's name in each front end: "--pp"; "$.config.pp"; "$.traces.rules".
std::string cli_name(const ConfigOption& option);
std::string session_name(const ConfigOption& option);
// The --help line: the help text and, for a Choice or a listed Text, the names with the default.
std::string option_help(const ConfigOption& option);

// CLI text to the option's value type ("four" -> "expected an integer, got 'four'"); errors are
// prefixed with `name`.
Expected<OptionValue> parse_option_text(const ConfigOption& option, const std::string& text,
                                        const std::string& name);
// A value as the CLI spells it (the inverse of parse_option_text; "" for a Flag).
std::string option_text(const ConfigOption& option, const OptionValue& value);

// Checks the value against the option's type, range and choices, then stores it. The error is
// "<name>: <reason>", with the same reason whichever front end names it.
Status set_option(const ConfigOption& option, ScenarioSpec& scenario, const OptionValue& value,
                  const std::string& name);

// An error of the scenario functions about one field (Error::field "memory cap", reason "must not
// be negative") named by the option it is about in one front end's spelling ("--memory-cap: must
// not be negative"), its field now that name; errors about no option's field pass unchanged.
Error name_option_in(const Error& error, std::string (*naming)(const ConfigOption&));

}  // namespace slimpack
