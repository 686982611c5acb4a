#include "output.h"

#include <cmath>
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

std::string format_seconds(double s, const std::string& unit) {
  char buf[64];
  if (unit != "s") {
    std::snprintf(buf, sizeof buf, "%.4g %s", s, unit.c_str());
  } else if (std::fabs(s) >= 1.0) {
    std::snprintf(buf, sizeof buf, "%.3f s", s);
  } else if (std::fabs(s) >= 1e-3) {
    std::snprintf(buf, sizeof buf, "%.2f ms", s * 1e3);
  } else {
    std::snprintf(buf, sizeof buf, "%.1f us", s * 1e6);
  }
  return buf;
}

std::string format_bytes(double b) {
  char buf[64];
  if (b >= 1e9)
    std::snprintf(buf, sizeof buf, "%.2f GB", b / 1e9);
  else if (b >= 1e6)
    std::snprintf(buf, sizeof buf, "%.1f MB", b / 1e6);
  else
    std::snprintf(buf, sizeof buf, "%.0f B", b);
  return buf;
}

std::string format_percent(double ratio) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %%", ratio * 100.0);
  return buf;
}

std::string format_count(double n) {
  char buf[32];
  if (n >= 1e9)
    std::snprintf(buf, sizeof buf, "%.2f G", n / 1e9);
  else if (n >= 1e6)
    std::snprintf(buf, sizeof buf, "%.2f M", n / 1e6);
  else if (n >= 1e3)
    std::snprintf(buf, sizeof buf, "%.1f k", n / 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.0f", n);
  return buf;
}

}  // namespace slimpack::cli
