// The option table (core/app/config_options.h) is the one description of the scenario's options:
// every option round-trips through its CLI text and the session file, a bad value gets the same
// reason from the `slimpack` program and the session reader, and --help lists exactly the table.
#include "app/config_options.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <set>
#include <sstream>
#include <string>

#include "app/session_file.h"

namespace slimpack {
namespace {

std::string run_cli(const std::string& args) {
  const std::string cmd =
      std::string("cd '") + SLIMPACK_SOURCE_DIR + "' && '" + SLIMPACK_CLI + "' " + args + " 2>&1";
  std::string out;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return out;
  std::array<char, 4096> buf{};
  std::size_t n = 0;
  while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) out.append(buf.data(), n);
  pclose(pipe);
  return out;
}

// A valid value of the option that differs from its default.
OptionValue other_value(const ConfigOption& o, const OptionValue& def) {
  switch (o.kind) {
    case OptionKind::Integer:
      return std::get<std::int64_t>(def) == o.min_int + 3 ? o.min_int + 5 : o.min_int + 3;
    case OptionKind::Number:
      return std::get<double>(def) == 7.5 ? 9.25 : 7.5;
    case OptionKind::Flag:
      return !std::get<bool>(def);
    case OptionKind::Choice: {
      for (const auto& name : o.choices())
        if (name != std::get<std::string>(def)) return name;
      return def;
    }
    case OptionKind::Text:
      if (o.flag == "recompute") return std::string("full");
      if (o.flag == "stage-layers") return std::string("even");
      if (o.flag == "trace-offsets") return std::string("12.5,-3,0");
      if (o.flag == "trace-rules") return std::string("megatron");
      return std::string("value-of-") + std::string(o.flag);
  }
  return def;
}

TEST(ConfigOptions, EachOptionIsNamedOnce) {
  std::set<std::string> flags;
  std::set<std::string> keys;
  for (const ConfigOption& o : scenario_options()) {
    EXPECT_TRUE(flags.insert(std::string(o.flag)).second) << o.flag;
    EXPECT_TRUE(keys.insert(session_name(o)).second) << o.key;
    EXPECT_NE(o.get, nullptr) << o.flag;
    EXPECT_NE(o.set, nullptr) << o.flag;
    EXPECT_FALSE(option_help(o).empty()) << o.flag;
    EXPECT_EQ(o.value_name.empty(), o.kind == OptionKind::Flag) << o.flag;
    if (o.kind == OptionKind::Choice) {
      EXPECT_NE(o.choices, nullptr) << o.flag;
    }
  }
  EXPECT_EQ(find_option("pp")->key, "pp");
  EXPECT_EQ(find_option("symmetric")->key, "asymmetric");
  EXPECT_EQ(find_option("no-such-option"), nullptr);
  // The lists come from the registries, not from the table's text.
  EXPECT_NE(option_help(*find_option("model")).find("llama-3-8b (default)"), std::string::npos);
  EXPECT_NE(option_help(*find_option("strategy")).find("slimpack (default)"), std::string::npos);
}

TEST(ConfigOptions, SweepableOptionsAreIntegers) {
  std::vector<std::string> sweepable;
  for (const ConfigOption& o : scenario_options())
    if (o.sweepable) {
      sweepable.emplace_back(o.flag);
      EXPECT_EQ(o.kind, OptionKind::Integer) << o.flag;
    }
  EXPECT_EQ(sweepable, (std::vector<std::string>{"seed", "batch-tokens", "pp", "dp", "tp", "slice",
                                                 "packs", "pack-tokens"}));
  // `slimpack sweep --help` names them from the table.
  const std::string help = run_cli("sweep --help");
  EXPECT_NE(help.find("--seed --batch-tokens --pp --dp --tp --slice --packs --pack-tokens"),
            std::string::npos)
      << help;
}

TEST(ConfigOptions, EveryOptionRoundTripsThroughCliTextAndSessionFile) {
  for (const ConfigOption& o : scenario_options()) {
    SCOPED_TRACE(std::string(o.flag));
    ScenarioSpec scenario;
    const OptionValue value = other_value(o, o.get(scenario));
    ASSERT_NE(value, o.get(scenario));
    // The CLI: the value's text, parsed and checked as `slimpack` does.
    auto parsed = o.kind == OptionKind::Flag
                      ? Expected<OptionValue>{OptionValue{true}}
                      : parse_option_text(o, option_text(o, value), cli_name(o));
    ASSERT_TRUE(parsed) << parsed.error().message;
    if (o.kind != OptionKind::Flag) {
      EXPECT_EQ(*parsed, value);
    }
    ASSERT_TRUE(set_option(o, scenario, value, cli_name(o)));
    EXPECT_EQ(o.get(scenario), value);
    // The session file keeps it.
    SessionFile session;
    session.workload = scenario.workload;
    session.config = scenario.config;
    session.trace_options = scenario.traces;
    auto back = session_from_json(session_to_json(session), "s.slimpack");
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(back->workload, session.workload);
    EXPECT_EQ(back->config, session.config);
    EXPECT_EQ(back->trace_options, session.trace_options);
  }
}

TEST(ConfigOptions, SessionStoresNegatedFlagsByTheirPositiveName) {
  SessionFile session;
  session.config.asymmetric = false;
  const auto j = nlohmann::json::parse(session_to_json(session));
  EXPECT_EQ(j["config"]["asymmetric"], false);
  EXPECT_EQ(j["config"]["dp_aware"], true);
  EXPECT_EQ(j["config"]["pp"], 4);
  EXPECT_EQ(j["config"]["stage_layers"], "auto");
}

// One bad value per kind of check: the CLI parser and the session reader give the same reason,
// each naming the option its own way.
TEST(ConfigOptions, BadValueGivesTheSameMessageFromCliAndSession) {
  struct Case {
    const char* flag;
    const char* cli_text;
    nlohmann::json session_value;
    const char* reason;
  };
  const Case cases[] = {
      {"pp", "0", 0, "must be at least 1, got 0"},
      {"vchunks", "5000", 5000, "5000 is more than the maximum 4096"},
      {"slice", "-1", -1, "must not be negative, got -1"},
      {"memory-cap", "-2", -2.0, "must not be negative, got -2"},
      {"time-limit", "0", 0.0, "must be positive, got 0"},
      {"model", "gpt-5", "gpt-5",
       "unknown model preset 'gpt-5' (known: llama-2-7b, llama-3-8b, llama-3-70b, qwen2.5-32b, "
       "qwen2.5-72b)"},
      {"schedule", "zigzag", "zigzag",
       "unknown schedule 'zigzag' (known: 1f1b, gpipe, interleaved)"},
      {"recompute", "most", "most",
       "'most' is not one of none, selective, full, auto or a layer count"},
      {"batch-count", "-3", -3, "must not be negative, got -3"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.flag);
    const ConfigOption& o = *find_option(c.flag);
    const std::string cli =
        run_cli(std::string("simulate --") + c.flag + "=" + c.cli_text +
                (std::string(c.flag) == "batch-count" ? "" : " --batch-count 8"));
    EXPECT_NE(cli.find("slimpack simulate: --" + std::string(c.flag) + ": " + c.reason),
              std::string::npos)
        << cli;
    nlohmann::json j = {{"format", kSessionFormat}, {"version", kSessionVersion}};
    j[o.section == OptionSection::Workload ? "workload" : "config"][std::string(o.key)] =
        c.session_value;
    auto session = session_from_json(j.dump(), "s.slimpack");
    ASSERT_FALSE(session);
    EXPECT_EQ(session.error().message, "s.slimpack: " + session_name(o) + ": " + c.reason);
    // The config panel checks typed fields with set_option and the CLI's name.
    ScenarioSpec scenario;
    auto value = parse_option_text(o, c.cli_text, cli_name(o));
    ASSERT_TRUE(value);
    Status panel = set_option(o, scenario, *value, cli_name(o));
    ASSERT_FALSE(panel);
    EXPECT_EQ(panel.error().message, cli_name(o) + ": " + c.reason);
  }
}

// `slimpack solve --help` (from which the man page is generated) lists every described option
// once, in table order, with the table's help; no scenario option is listed that the table lacks.
TEST(ConfigOptions, CliHelpListsExactlyTheDescribedOptions) {
  const std::string help = run_cli("solve --help");
  std::istringstream lines(help);
  std::vector<std::string> listed;
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("  --", 0) == 0) listed.push_back(line.substr(4, line.find(' ', 4) - 4));
  std::vector<std::string> described;
  for (const ConfigOption& o : scenario_options()) {
    // The trace options belong to the commands that read traces (checked below).
    if (o.section == OptionSection::Traces) continue;
    described.emplace_back(o.flag);
    EXPECT_NE(help.find(option_help(o)), std::string::npos) << o.flag;
  }
  // solve adds its own options (--out, --json, ...) after the scenario's.
  ASSERT_GE(listed.size(), described.size()) << help;
  EXPECT_EQ(std::vector<std::string>(listed.begin(),
                                     listed.begin() + static_cast<long>(described.size())),
            described);
  for (std::size_t i = described.size(); i < listed.size(); ++i)
    EXPECT_EQ(find_option(listed[i]), nullptr) << listed[i] << " is listed twice";
  // simulate (--check-trace) and fit-costs (--trace) list the table's trace options.
  for (const char* command : {"simulate --help", "fit-costs --help"}) {
    const std::string with_traces = run_cli(command);
    for (const ConfigOption& o : options_in(OptionSection::Traces))
      EXPECT_NE(with_traces.find(option_help(o)), std::string::npos) << command << " " << o.flag;
  }
}

TEST(ConfigOptions, ScenarioErrorsAreNamedByTheTable) {
  const Error e =
      Error::bad_field("parallel.stage_layers", "the layers sum to 31, the model has 32");
  EXPECT_EQ(name_option_in(e, cli_name).message,
            "--stage-layers: the layers sum to 31, the model has 32");
  EXPECT_EQ(name_option_in(e, cli_name).field, "--stage-layers");
  EXPECT_EQ(name_option_in(e, cli_name).field_reason, "the layers sum to 31, the model has 32");
  EXPECT_EQ(name_option_in(e, session_name).message,
            "$.config.stage_layers: the layers sum to 31, the model has 32");
  EXPECT_EQ(
      name_option_in(Error::bad_field("memory cap", "must not be negative"), cli_name).message,
      "--memory-cap: must not be negative");
  EXPECT_EQ(name_option_in(Error::bad_input("something else"), cli_name).message, "something else");
  // The naming reads the typed field, never the text: a message that merely starts like a field
  // stays as it is, and a field no option claims passes unchanged.
  EXPECT_EQ(name_option_in(Error::bad_input("memory cap: must not be negative"), cli_name).message,
            "memory cap: must not be negative");
  EXPECT_EQ(name_option_in(Error::bad_field("model.hidden", "must be positive"), cli_name).message,
            "model.hidden: must be positive");
}

// The scenario functions give their errors a field, which the table knows: the producers and the
// table's `fields` agree (a renamed field in a producer fails here, not silently in a front end).
TEST(ConfigOptions, ProducersGiveFieldsTheTableKnows) {
  ConfigSpec config;
  config.stage_split.is_auto = false;
  config.stage_split.explicit_layers = {8, 8, 8, 7};
  auto cost = make_cost_model(config, std::nullopt, nullptr);
  ASSERT_FALSE(cost.ok());
  EXPECT_EQ(cost.error().field, "parallel.stage_layers");
  EXPECT_EQ(name_option_in(cost.error(), cli_name).message,
            "--stage-layers: the layers sum to 31, the model has 32");

  ConfigSpec negative;
  negative.memory_cap_gb = -1;
  auto capped = make_cost_model(negative, std::nullopt, nullptr);
  ASSERT_FALSE(capped.ok());
  EXPECT_EQ(name_option_in(capped.error(), cli_name).message, "--memory-cap: must not be negative");

  ConfigSpec unknown;
  unknown.model = "llama-9";
  auto model = make_cost_model(unknown, std::nullopt, nullptr);
  ASSERT_FALSE(model.ok());
  EXPECT_EQ(model.error().field, "model");
  EXPECT_EQ(name_option_in(model.error(), cli_name).field, "--model");
}

}  // namespace
}  // namespace slimpack
