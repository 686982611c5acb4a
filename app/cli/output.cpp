#include "output.h"

#include <cstdio>

#include "common/output_file.h"

namespace slimpack::cli {

int report_error(const std::string& command, const Error& error) {
  std::fprintf(stderr, "slimpack %s: %s\n", command.c_str(), error.message.c_str());
  switch (error.kind) {
    case ErrorKind::BadInput:
    case ErrorKind::Infeasible:
      return kExitBadInput;
    case ErrorKind::Cancelled:
    case ErrorKind::Internal:
      return kExitInternal;
  }
  return kExitInternal;
}

Status write_json_output(const std::string& destination, const nlohmann::json& j) {
  return write_text_output(destination, j.dump(2) + "\n");
}

Status write_text_output(const std::string& destination, const std::string& text) {
  return write_output_file(destination, text);
}

Expected<bool> stdout_output(const Args& args, std::initializer_list<const char*> keys) {
  const char* first = nullptr;
  for (const char* key : keys) {
    if (args.get_or(key, "") != "-") continue;
    if (first)
      return Error::bad_input(std::string("--") + first + " and --" + key +
                              " cannot both be '-' (standard output)");
    first = key;
  }
  return first != nullptr;
}

nlohmann::json limit_json(const std::optional<InfeasibleDetail>& limit) {
  if (!limit) return nullptr;
  const auto or_null = [](int v) { return v >= 0 ? nlohmann::json(v) : nlohmann::json(nullptr); };
  const bool tokens = limit->limit == Limit::TokenCap;
  const bool numbers = limit->limit != Limit::Solver;
  return {{"kind", limit_name(limit->limit)},
          {"stage", or_null(limit->stage)},
          {"replica", or_null(limit->replica)},
          {"needed", numbers ? nlohmann::json(limit->needed) : nlohmann::json(nullptr)},
          {"cap", numbers ? nlohmann::json(limit->cap) : nlohmann::json(nullptr)},
          {"unit", !numbers ? nlohmann::json(nullptr)
                   : tokens ? "tokens"
                            : "bytes"},
          {"sequence",
           limit->sequence.empty() ? nlohmann::json(nullptr) : nlohmann::json(limit->sequence)}};
}

}  // namespace slimpack::cli
