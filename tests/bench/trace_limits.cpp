// The speed limit of trace import on this machine: what the libraries alone reach on the same
// files that scripts/bench-trace.sh times `slimpack trace info` on, so that the gap is known.
//   slimpack_trace_limits FILE.json FILE.json.gz [RUNS]
// Prints MB/s of JSON text (best of RUNS, CPU time of this process) for: libdeflate inflating the
// .gz whole into one buffer; zlib inflating it in 256 KiB pieces (the streaming import's reader);
// simdjson's DOM parse of the whole text (validation and tape); simdjson On-Demand walking every
// event's fields once (iterate plus a visit of each key and value, no work per field).
#include <libdeflate.h>
#include <simdjson.h>
#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

std::string read_file(const char* path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

template <class F>
double best_of(int runs, F&& f) {
  double best = 1e30;
  for (int i = 0; i < runs; ++i) {
    const double t0 = cpu_seconds();
    f();
    best = std::min(best, cpu_seconds() - t0);
  }
  return best;
}

std::size_t inflate_libdeflate(const std::string& gz, std::vector<char>& out) {
  libdeflate_decompressor* d = libdeflate_alloc_decompressor();
  std::size_t done = 0;
  libdeflate_gzip_decompress(d, gz.data(), gz.size(), out.data(), out.size(), &done);
  libdeflate_free_decompressor(d);
  return done;
}

std::size_t inflate_zlib(const std::string& gz) {
  z_stream z{};
  inflateInit2(&z, 16 + MAX_WBITS);
  std::vector<unsigned char> out(256 << 10);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.data()));
  z.avail_in = static_cast<uInt>(gz.size());
  std::size_t total = 0;
  for (;;) {
    z.next_out = out.data();
    z.avail_out = static_cast<uInt>(out.size());
    const int r = inflate(&z, Z_NO_FLUSH);
    total += out.size() - z.avail_out;
    if (r != Z_OK) break;
  }
  inflateEnd(&z);
  return total;
}

std::size_t walk_on_demand(simdjson::ondemand::parser& parser, const simdjson::padded_string& s) {
  namespace od = simdjson::ondemand;
  std::size_t fields = 0;
  od::document doc = parser.iterate(s);
  od::object top = doc.get_object();
  for (auto field : top) {
    if (field.unescaped_key().value() != "traceEvents") continue;
    for (auto ev : field.value().get_array()) {
      for (auto f : ev.get_object()) {
        (void)f.key();
        (void)f.value().raw_json_token();  // an object or array value is skipped by depth
        ++fields;
      }
    }
  }
  return fields;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: slimpack_trace_limits FILE.json FILE.json.gz [RUNS]\n");
    return 2;
  }
  const int runs = argc > 3 ? std::max(1, std::atoi(argv[3])) : 3;
  const std::string text = read_file(argv[1]);
  const std::string gz = read_file(argv[2]);
  const double mb = static_cast<double>(text.size()) / 1e6;
  std::vector<char> out(text.size() + 64);
  std::size_t n = 0;
  const double t_deflate = best_of(runs, [&] { n = inflate_libdeflate(gz, out); });
  if (n != text.size()) std::fprintf(stderr, "libdeflate: %zu of %zu bytes\n", n, text.size());
  const double t_zlib = best_of(runs, [&] { n = inflate_zlib(gz); });
  if (n != text.size()) std::fprintf(stderr, "zlib: %zu of %zu bytes\n", n, text.size());
  const simdjson::padded_string padded(text);
  simdjson::dom::parser dom;
  const double t_dom = best_of(runs, [&] {
    if (dom.parse(padded).error()) std::fprintf(stderr, "simdjson DOM: parse error\n");
  });
  simdjson::ondemand::parser od;
  std::size_t fields = 0;
  const double t_od = best_of(runs, [&] { fields = walk_on_demand(od, padded); });
  std::printf("limit  libdeflate inflate (whole)     %7.1f MB/s\n", mb / t_deflate);
  std::printf("limit  zlib inflate (256 KiB pieces)  %7.1f MB/s\n", mb / t_zlib);
  std::printf("limit  simdjson DOM parse             %7.1f MB/s\n", mb / t_dom);
  std::printf("limit  simdjson On-Demand field walk  %7.1f MB/s (%zu fields)\n", mb / t_od, fields);
  return 0;
}
