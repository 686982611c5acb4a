#include "common/json_util.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace slimpack::json_util {
namespace {

std::string where(const std::string& path, const std::string& key) {
  return path + "." + key;
}

const Json* find(const Json& obj, const std::string& key) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

Expected<double> as_number(const Json& v, const std::string& at) {
  if (!v.is_number()) return Error::bad_input(at + ": expected a number");
  double d = v.get<double>();
  if (!std::isfinite(d)) return Error::bad_input(at + ": number is not finite");
  return d;
}

Expected<std::int64_t> as_int(const Json& v, const std::string& at) {
  if (v.is_number_integer()) return v.get<std::int64_t>();
  if (v.is_number_float()) {
    double d = v.get<double>();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.0e15)
      return static_cast<std::int64_t>(d);
  }
  return Error::bad_input(at + ": expected an integer");
}

}  // namespace

Expected<Json> parse(const std::string& text) {
  Json j = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) {
    // Re-parse with exceptions only to obtain nlohmann's position message.
    try {
      Json again = Json::parse(text);
      (void)again;
    } catch (const Json::parse_error& e) {
      return Error::bad_input(std::string("invalid JSON (") + e.what() + ")");
    }
    return Error::bad_input("invalid JSON");
  }
  return j;
}

Expected<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error::bad_input(path + ": cannot open file");
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return Error::bad_input(path + ": read error");
  return ss.str();
}

Expected<Json> parse_file(const std::string& path) {
  auto text = read_file(path);
  if (!text) return text.error();
  auto j = parse(*text);
  if (!j) return j.error().with_context(path);
  return j;
}

Expected<double> get_number(const Json& obj, const std::string& key, const std::string& path) {
  const Json* v = find(obj, key);
  if (!v) return Error::bad_input(where(path, key) + ": missing required field");
  return as_number(*v, where(path, key));
}

Expected<std::int64_t> get_int(const Json& obj, const std::string& key, const std::string& path) {
  const Json* v = find(obj, key);
  if (!v) return Error::bad_input(where(path, key) + ": missing required field");
  return as_int(*v, where(path, key));
}

Expected<std::string> get_string(const Json& obj, const std::string& key, const std::string& path) {
  const Json* v = find(obj, key);
  if (!v) return Error::bad_input(where(path, key) + ": missing required field");
  if (!v->is_string()) return Error::bad_input(where(path, key) + ": expected a string");
  return v->get<std::string>();
}

Expected<std::optional<double>> opt_number(const Json& obj, const std::string& key,
                                           const std::string& path) {
  const Json* v = find(obj, key);
  if (!v || v->is_null()) return std::optional<double>{};
  auto d = as_number(*v, where(path, key));
  if (!d) return d.error();
  return std::optional<double>{*d};
}

Expected<std::optional<std::int64_t>> opt_int(const Json& obj, const std::string& key,
                                              const std::string& path) {
  const Json* v = find(obj, key);
  if (!v || v->is_null()) return std::optional<std::int64_t>{};
  auto d = as_int(*v, where(path, key));
  if (!d) return d.error();
  return std::optional<std::int64_t>{*d};
}

Expected<std::optional<std::string>> opt_string(const Json& obj, const std::string& key,
                                                const std::string& path) {
  const Json* v = find(obj, key);
  if (!v || v->is_null()) return std::optional<std::string>{};
  if (!v->is_string()) return Error::bad_input(where(path, key) + ": expected a string");
  return std::optional<std::string>{v->get<std::string>()};
}

Expected<std::optional<bool>> opt_bool(const Json& obj, const std::string& key,
                                       const std::string& path) {
  const Json* v = find(obj, key);
  if (!v || v->is_null()) return std::optional<bool>{};
  if (!v->is_boolean()) return Error::bad_input(where(path, key) + ": expected true or false");
  return std::optional<bool>{v->get<bool>()};
}

Status write_file_atomic(const std::string& path, const std::string& contents) {
  namespace fs = std::filesystem;
  const std::string tmp = path + ".tmp-slimpack";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return Error::bad_input(path + ": cannot write file");
    out << contents;
    out.flush();
    if (!out) {
      std::error_code ec;
      fs::remove(tmp, ec);
      return Error::bad_input(path + ": write failed");
    }
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    return Error::bad_input(path + ": cannot replace file (" + ec.message() + ")");
  }
  return Status::success();
}

}  // namespace slimpack::json_util
