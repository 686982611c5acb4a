#include "output.h"

#include <cstdio>
#include <iostream>

#include "common/json_util.h"

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
  if (destination == "-") {
    std::cout << text;
    std::cout.flush();
    return Status::success();
  }
  return json_util::write_file_atomic(destination, text);
}

}  // namespace slimpack::cli
