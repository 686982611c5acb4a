#pragma once
// Command line of slimpack-profile, parsed without touching the GPU so that it is unit-tested.
#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"

namespace slimpack::profiling {

struct ProfileOptions {
  std::string model = "llama-3-8b";
  int tp = 1;
  std::string out_csv;       // --out: samples CSV (kind,tokens,pairs,seconds,...)
  std::string profile_json;  // --profile-json: fitted cost profile
  int repeats = 5;           // timed runs per pack and pass; the median is kept
  int warmup = 2;
  std::int64_t max_tokens = 32768;
  std::int64_t max_offset = 65536;
  bool quick = false;
  int device = 0;
  bool help = false;
};

std::string profile_usage();

// Parses argv[1..]. Needs --out or --profile-json (unless --help). Errors name the option.
Expected<ProfileOptions> parse_profile_args(const std::vector<std::string>& args);

}  // namespace slimpack::profiling
