#include "trace/trace_sniff.h"

#include <algorithm>
#include <cctype>
#include <fstream>

namespace slimpack {
namespace {

constexpr std::size_t kSniffBytes = 64 * 1024;

bool ends_with(std::string_view s, std::string_view suffix) {
  if (s.size() < suffix.size()) return false;
  return std::equal(suffix.begin(), suffix.end(),
                    s.end() - static_cast<std::ptrdiff_t>(suffix.size()), [](char a, char b) {
                      return std::tolower(static_cast<unsigned char>(a)) ==
                             std::tolower(static_cast<unsigned char>(b));
                    });
}

std::string_view base_name(std::string_view path) {
  const auto slash = path.find_last_of("/\\");
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

}  // namespace

bool looks_like_trace_text(std::string_view head) {
  if (head.substr(0, 3) == "\xEF\xBB\xBF") head.remove_prefix(3);
  std::size_t i = 0;
  while (i < head.size() && std::isspace(static_cast<unsigned char>(head[i]))) ++i;
  if (i == head.size()) return false;
  if (head[i] == '[') return true;
  if (head[i] != '{') return false;
  // A key is a quoted string followed by ':'; a value merely containing the text does not count.
  constexpr std::string_view key = "\"traceEvents\"";
  for (auto pos = head.find(key, i); pos != std::string_view::npos; pos = head.find(key, pos + 1)) {
    std::size_t j = pos + key.size();
    while (j < head.size() && std::isspace(static_cast<unsigned char>(head[j]))) ++j;
    if (j < head.size() && head[j] == ':') return true;
  }
  return false;
}

bool looks_like_trace(const std::string& path) {
  const std::string_view name = base_name(path);
  if (ends_with(name, ".json.gz") || ends_with(name, ".pt.trace.json")) return true;
  if (!ends_with(name, ".json")) return false;
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::string head(kSniffBytes, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  return looks_like_trace_text(head);
}

int rank_from_file_name(const std::string& path) {
  std::string name(base_name(path));
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  auto parse = [&](std::size_t at) {
    std::size_t end = at;
    while (end < name.size() && is_digit(name[end]) && end - at < 6) ++end;
    return end > at ? std::stoi(name.substr(at, end - at)) : -1;
  };
  for (auto pos = name.rfind("rank"); pos != std::string::npos;
       pos = pos == 0 ? std::string::npos : name.rfind("rank", pos - 1)) {
    std::size_t at = pos + 4;
    if (at < name.size() && (name[at] == '_' || name[at] == '-')) ++at;
    if (const int r = parse(at); r >= 0) return r;
  }
  for (std::string_view suffix : {".pt.trace.json", ".json.gz", ".json"}) {
    if (!ends_with(name, suffix)) continue;
    const std::size_t end = name.size() - suffix.size();
    std::size_t begin = end;
    while (begin > 0 && is_digit(name[begin - 1]) && end - begin < 6) --begin;
    if (begin < end && begin > 0 && (name[begin - 1] == '_' || name[begin - 1] == '-'))
      return std::stoi(name.substr(begin, end - begin));
    return -1;
  }
  return -1;
}

}  // namespace slimpack
