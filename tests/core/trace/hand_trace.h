#pragma once
// Small Kineto-like traces written in the tests, with their figures worked out by hand: events
// are added one by one and the JSON text is imported like a file.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "trace/trace_import.h"

namespace slimpack {

inline std::string num(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// How op() ties a GPU operation to its launch: a flow of Kineto's category "ac2g", of the older
// "async_cpu_to_gpu", or only the same args.correlation on the runtime call and the operation.
enum class HandLink { Ac2g, AsyncCpuToGpu, Correlation };

// Kineto-like events: CPU thread pid 1 / tid 1, GPU pid 0 with streams as tids.
struct HandTrace {
  std::vector<std::string> events;
  int next_flow = 1;
  HandLink link = HandLink::Ac2g;

  // `args`: the text of an args object ("{...}"), or none.
  void x(const std::string& cat, const std::string& name, const std::string& pid,
         const std::string& tid, double ts, double dur, const std::string& args = "") {
    events.push_back("{\"ph\": \"X\", \"cat\": \"" + cat + "\", \"name\": \"" + name +
                     "\", \"pid\": " + pid + ", \"tid\": " + tid + ", \"ts\": " + num(ts) +
                     ", \"dur\": " + num(dur) + (args.empty() ? "" : ", \"args\": " + args) + "}");
  }
  void step(int n, double ts, double dur) {
    x("user_annotation", "ProfilerStep#" + std::to_string(n), "1", "1", ts, dur);
  }
  // A GPU operation on `stream` launched by a runtime call [launch, launch + call) on the CPU
  // thread, joined as `link` says: a flow as Kineto writes it (its id also the correlation of
  // both events, as in Kineto), or the correlation alone.
  void op(const std::string& cat, const std::string& name, int stream, double ts, double dur,
          double launch, double call, const std::string& runtime = "cudaLaunchKernel") {
    const std::string id = std::to_string(next_flow++);
    const std::string args = "{\"correlation\": " + id + "}";
    x("cuda_runtime", runtime, "1", "1", launch, call, args);
    x(cat, name, "0", std::to_string(stream), ts, dur, args);
    if (link == HandLink::Correlation) return;
    const std::string flow = link == HandLink::Ac2g ? "ac2g" : "async_cpu_to_gpu";
    events.push_back("{\"ph\": \"s\", \"cat\": \"" + flow + "\", \"name\": \"" + flow +
                     "\", \"id\": " + id + ", \"pid\": 1, \"tid\": 1, \"ts\": " + num(launch) +
                     "}");
    events.push_back("{\"ph\": \"f\", \"cat\": \"" + flow + "\", \"name\": \"" + flow +
                     "\", \"id\": " + id + ", \"bp\": \"e\", \"pid\": 0, \"tid\": " +
                     std::to_string(stream) + ", \"ts\": " + num(ts) + "}");
  }
  // A GPU operation without a flow (launch unknown).
  void bare(const std::string& cat, const std::string& name, int stream, double ts, double dur) {
    x(cat, name, "0", std::to_string(stream), ts, dur);
  }
  std::string json() const {
    std::string s = "{\"traceEvents\": [";
    for (std::size_t i = 0; i < events.size(); ++i) s += (i ? ",\n" : "\n") + events[i];
    return s + "]}";
  }
};

inline ImportedTrace import(const HandTrace& t, const std::string& source = "hand.json",
                            const TraceImportOptions& options = {}) {
  auto r = import_chrome_trace_text(t.json(), source, options);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? *r : ImportedTrace{};
}

}  // namespace slimpack
