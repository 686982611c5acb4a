#include "solver/milp/milp_loader.h"

#include <atomic>
#include <cstdlib>
#include <string>
#include <vector>

#if defined(SLIMPACK_HAVE_MILP)
#include <dlfcn.h>
#include <unistd.h>

#include <climits>
#endif

namespace slimpack::milp_detail {
namespace {

std::atomic<bool> g_loaded{false};

#if defined(SLIMPACK_HAVE_MILP)

// The directory of the running executable ("" when /proc is not there).
std::string executable_dir() {
  char buf[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return {};
  const std::string exe(buf, static_cast<std::size_t>(n));
  const auto slash = exe.rfind('/');
  return slash == std::string::npos ? std::string() : exe.substr(0, slash);
}

std::vector<std::string> candidates() {
  if (const char* env = std::getenv("SLIMPACK_MILP_MODULE"); env != nullptr && *env != '\0')
    return {env};
  std::vector<std::string> out;
  if (std::string dir = executable_dir(); !dir.empty())
    out.push_back(dir + "/" + SLIMPACK_MILP_MODULE_REL);
  out.emplace_back(SLIMPACK_MILP_MODULE_BUILD);
  return out;
}

struct LoadResult {
  MilpModule module;
  bool ok = false;
  std::string why;
};

LoadResult load() {
  LoadResult r;
  for (const std::string& path : candidates()) {
    // RTLD_LOCAL: CBC's symbols stay inside the module; it is never unloaded.
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      const char* err = dlerror();
      r.why += (r.why.empty() ? "" : "; ") + std::string(err != nullptr ? err : path.c_str());
      continue;
    }
    auto version =
        reinterpret_cast<SlimpackMilpAbiVersionFn>(dlsym(handle, SLIMPACK_MILP_ABI_SYMBOL));
    auto solve = reinterpret_cast<SlimpackMilpSolveFn>(dlsym(handle, SLIMPACK_MILP_SOLVE_SYMBOL));
    if (version == nullptr || solve == nullptr || version() != SLIMPACK_MILP_ABI_VERSION) {
      r.why += (r.why.empty() ? "" : "; ") + path +
               ": not a slimpack MILP module of this version (ABI " +
               std::to_string(SLIMPACK_MILP_ABI_VERSION) + ")";
      continue;  // left loaded: unloading a library whose constructors ran is not worth the risk
    }
    r.module.solve = solve;
    r.module.path = path;
    r.ok = true;
    g_loaded.store(true);
    return r;
  }
  return r;
}

#endif  // SLIMPACK_HAVE_MILP

}  // namespace

const MilpModule* milp_module(std::string* why) {
#if defined(SLIMPACK_HAVE_MILP)
  static const LoadResult loaded = load();  // once per process, thread-safe
  if (loaded.ok) return &loaded.module;
  if (why != nullptr) *why = "cannot load the CBC module: " + loaded.why;
  return nullptr;
#else
  if (why != nullptr) *why = "this build has no CBC (SLIMPACK_ENABLE_MILP=OFF)";
  return nullptr;
#endif
}

bool milp_module_loaded() {
  return g_loaded.load();
}

}  // namespace slimpack::milp_detail
