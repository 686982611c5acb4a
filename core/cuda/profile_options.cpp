#include "cuda/profile_options.h"

#include <charconv>

namespace slimpack::profiling {

std::string profile_usage() {
  return "usage: slimpack-profile --model NAME --tp T (--out FILE.csv | --profile-json FILE.json)\n"
         "                        [--repeats N] [--warmup N] [--max-tokens N] [--max-offset N]\n"
         "                        [--quick] [--device I]\n"
         "Times one transformer layer's forward and backward work (cuBLAS GEMMs + causal varlen\n"
         "attention) per GPU for a sweep of pack shapes, and writes the per-layer samples\n"
         "(kind,tokens,pairs,seconds) for `slimpack fit-costs`, or a fitted cost profile.\n";
}

namespace {

Expected<std::int64_t> parse_int(const std::string& opt, const std::string& text, std::int64_t lo,
                                 std::int64_t hi) {
  std::int64_t v = 0;
  const auto* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc() || ptr != end)
    return Error::bad_input(opt + ": '" + text + "' is not an integer");
  if (v < lo || v > hi)
    return Error::bad_input(opt + ": " + text + " is outside [" + std::to_string(lo) + ", " +
                            std::to_string(hi) + "]");
  return v;
}

}  // namespace

Expected<ProfileOptions> parse_profile_args(const std::vector<std::string>& args) {
  ProfileOptions o;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      o.help = true;
      continue;
    }
    if (a == "--quick") {
      o.quick = true;
      continue;
    }
    if (a.rfind("--", 0) != 0) return Error::bad_input("unexpected argument '" + a + "'");
    if (i + 1 >= args.size()) return Error::bad_input(a + ": missing value");
    const std::string& v = args[++i];
    auto set_int = [&](auto& field, std::int64_t lo, std::int64_t hi) -> Status {
      auto n = parse_int(a, v, lo, hi);
      if (!n) return n.error();
      field = static_cast<std::remove_reference_t<decltype(field)>>(*n);
      return {};
    };
    Status st;
    if (a == "--model")
      o.model = v;
    else if (a == "--out")
      o.out_csv = v;
    else if (a == "--profile-json")
      o.profile_json = v;
    else if (a == "--tp")
      st = set_int(o.tp, 1, 64);
    else if (a == "--repeats")
      st = set_int(o.repeats, 1, 1000);
    else if (a == "--warmup")
      st = set_int(o.warmup, 0, 100);
    else if (a == "--max-tokens")
      st = set_int(o.max_tokens, 512, 1 << 20);
    else if (a == "--max-offset")
      st = set_int(o.max_offset, 0, 1 << 22);
    else if (a == "--device")
      st = set_int(o.device, 0, 1024);
    else
      return Error::bad_input("unknown option '" + a + "'");
    if (!st) return st.error();
  }
  if (!o.help && o.out_csv.empty() && o.profile_json.empty())
    return Error::bad_input("nothing to write: give --out FILE.csv and/or --profile-json FILE");
  return o;
}

}  // namespace slimpack::profiling
