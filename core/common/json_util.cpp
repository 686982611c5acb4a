#include "common/json_util.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <vector>

#include "common/output_file.h"

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
  if (v.is_number_unsigned() &&
      v.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
    return Error::bad_input(at + ": integer " + v.dump() + " is too large");
  if (v.is_number_integer()) return v.get<std::int64_t>();
  if (v.is_number_float()) {
    double d = v.get<double>();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.0e15)
      return static_cast<std::int64_t>(d);
  }
  return Error::bad_input(at + ": expected an integer");
}

}  // namespace

Expected<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error::bad_input(path + ": cannot open file");
  const auto too_large = [&](std::uintmax_t bytes) {
    return Error::bad_input(path + ": file of " + std::to_string(bytes >> 20) +
                            " MiB or more is larger than the limit of " +
                            std::to_string(kMaxFileBytes >> 20) + " MiB");
  };
  // A regular file's size is known up front: refuse a huge one before allocating for it.
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (!ec && size > kMaxFileBytes) return too_large(size);
  // Read in chunks with the same cap, since a device or pipe has no size (and /dev/zero no end).
  std::string text;
  if (!ec) text.reserve(static_cast<std::size_t>(size));
  constexpr std::size_t kChunk = std::size_t{1} << 20;
  std::vector<char> chunk(kChunk);
  while (in) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    text.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxFileBytes) return too_large(text.size());
  }
  if (in.bad()) return Error::bad_input(path + ": read error");
  return text;
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
  return write_output_file(path, contents);
}

}  // namespace slimpack::json_util
