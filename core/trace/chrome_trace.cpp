// Writes the trace text directly (no JSON DOM): a million-op trace stays a single string build.
#include "trace/chrome_trace.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <set>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "common/json_util.h"
#include "common/output_file.h"
#include "plan/pack_name.h"

namespace slimpack {
namespace {

constexpr std::size_t kMaxSegmentsListed = 64;

class TraceWriter {
 public:
  explicit TraceWriter(std::string& out) : out_(out) {}

  void number(double v) {
    char buf[32];
    const auto res = std::to_chars(buf, buf + sizeof buf, v);
    out_.append(buf, res.ptr);
  }
  void integer(long long v) { out_ += std::to_string(v); }
  void string(const std::string& s) {
    out_ += '"';
    for (const char ch : s) {
      const auto c = static_cast<unsigned char>(ch);
      if (c == '"' || c == '\\') {
        out_ += '\\';
        out_ += ch;
      } else if (c < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        out_ += buf;
      } else {
        out_ += ch;
      }
    }
    out_ += '"';
  }
  // Starts one event object; the caller appends fields with a leading comma and closes it.
  void begin_event() {
    if (!first_) out_ += ",\n";
    first_ = false;
    out_ += '{';
  }
  std::string& raw() { return out_; }

 private:
  std::string& out_;
  bool first_ = true;
};

void metadata(TraceWriter& w, const char* name, int pid, int tid, const char* key,
              const std::string& value, bool numeric) {
  w.begin_event();
  w.raw() += "\"name\":\"";
  w.raw() += name;
  w.raw() += "\",\"ph\":\"M\",\"pid\":";
  w.integer(pid);
  w.raw() += ",\"tid\":";
  w.integer(tid);
  w.raw() += ",\"args\":{\"";
  w.raw() += key;
  w.raw() += "\":";
  if (numeric)
    w.raw() += value;
  else
    w.string(value);
  w.raw() += "}}";
}

void complete_event(TraceWriter& w, const std::string& name, const char* cat, int pid, int tid,
                    const TimedOp& op, double scale) {
  w.begin_event();
  w.raw() += "\"name\":";
  w.string(name);
  w.raw() += ",\"cat\":\"";
  w.raw() += cat;
  // chrome://tracing's reserved colours: forward blue, backward orange, as in the explorer's
  // Gantt (Perfetto colours by name; the category tells the two apart there).
  const std::string_view c = cat;
  if (c == "forward") w.raw() += "\",\"cname\":\"rail_response";
  if (c == "backward") w.raw() += "\",\"cname\":\"thread_state_iowait";
  w.raw() += "\",\"ph\":\"X\",\"pid\":";
  w.integer(pid);
  w.raw() += ",\"tid\":";
  w.integer(tid);
  w.raw() += ",\"ts\":";
  w.number(op.start * scale);
  w.raw() += ",\"dur\":";
  w.number(op.duration() * scale);
}

std::string segment_label(const Plan& plan, const Segment& seg) {
  std::string id = seg.seq >= 0 && static_cast<std::size_t>(seg.seq) < plan.sequences.size()
                       ? plan.sequences[static_cast<std::size_t>(seg.seq)].id
                       : "#" + std::to_string(seg.seq);
  id += "[" + std::to_string(seg.begin) + ":" + std::to_string(seg.end) + ")";
  if (seg.shards > 1) id += "#" + std::to_string(seg.shard) + "/" + std::to_string(seg.shards);
  return id;
}

void pack_args(TraceWriter& w, const Plan& plan, const Pack* pack, const TimedOp& op) {
  w.raw() += ",\"args\":{\"pack\":";
  w.integer(op.pack);
  if (op.chunk != 0 || plan.vchunks > 1) {
    w.raw() += ",\"chunk\":";
    w.integer(op.chunk);
  }
  if (pack) {
    w.raw() += ",\"tokens\":";
    w.integer(pack->tokens());
    w.raw() += ",\"attention_pairs\":";
    w.number(pack->attention_pairs());
    w.raw() += ",\"segments\":[";
    const std::size_t n = std::min(pack->segments.size(), kMaxSegmentsListed);
    for (std::size_t i = 0; i < n; ++i) {
      if (i > 0) w.raw() += ',';
      w.string(segment_label(plan, pack->segments[i]));
    }
    w.raw() += ']';
    if (pack->segments.size() > kMaxSegmentsListed) {
      w.raw() += ",\"segments_total\":";
      w.integer(static_cast<long long>(pack->segments.size()));
    }
  }
  w.raw() += "}}";
}

const Pack* find_pack(const Plan& plan, std::size_t replica, Pass pass, std::int32_t index) {
  if (replica >= plan.replicas.size() || index < 0) return nullptr;
  const auto& list =
      pass == Pass::Forward ? plan.replicas[replica].forward : plan.replicas[replica].backward;
  return static_cast<std::size_t>(index) < list.size() ? &list[static_cast<std::size_t>(index)]
                                                       : nullptr;
}

// (forward pack, backward pack) pairs that share tokens of a sequence: the slices whose activations
// the forward pack leaves for that backward pack. Asymmetric plans pair one forward pack with
// several backward packs and the other way round.
std::set<std::pair<std::int32_t, std::int32_t>> forward_backward_pairs(const ReplicaPlan& rp) {
  struct Range {
    Tokens begin, end;
    std::int32_t pack;
  };
  std::unordered_map<SeqIndex, std::vector<Range>> backward_ranges;
  for (std::size_t b = 0; b < rp.backward.size(); ++b)
    for (const Segment& seg : rp.backward[b].segments)
      backward_ranges[seg.seq].push_back({seg.begin, seg.end, static_cast<std::int32_t>(b)});
  std::set<std::pair<std::int32_t, std::int32_t>> pairs;
  for (std::size_t f = 0; f < rp.forward.size(); ++f) {
    for (const Segment& seg : rp.forward[f].segments) {
      auto it = backward_ranges.find(seg.seq);
      if (it == backward_ranges.end()) continue;
      for (const Range& r : it->second)
        if (std::max(r.begin, seg.begin) < std::min(r.end, seg.end))
          pairs.emplace(static_cast<std::int32_t>(f), r.pack);
    }
  }
  return pairs;
}

void flow_event(TraceWriter& w, const char* ph, long long id, int pid, int tid, double ts,
                const std::string& name) {
  w.begin_event();
  w.raw() += "\"name\":";
  w.string(name);
  w.raw() += ",\"cat\":\"slice\",\"ph\":\"";
  w.raw() += ph;
  w.raw() += "\",\"id\":";
  w.integer(id);
  w.raw() += ",\"pid\":";
  w.integer(pid);
  w.raw() += ",\"tid\":";
  w.integer(tid);
  w.raw() += ",\"ts\":";
  w.number(ts);
  // The arrow ends on the backward pack that starts at ts ("enclosing slice").
  if (ph[0] == 'f') w.raw() += ",\"bp\":\"e\"";
  w.raw() += '}';
}

// Per stage, an arrow from each forward pack to every backward pack that consumes its slices: in
// Perfetto, selecting a pack shows where its activations are used (and so how long they are held).
void slice_flows(TraceWriter& w, const ReplicaPlan& rp, const StageResult& stage, int pid, int tid,
                 double scale, long long& next_id) {
  const auto pairs = forward_backward_pairs(rp);
  if (pairs.empty()) return;
  std::vector<double> f_start(rp.forward.size(), -1.0), b_start(rp.backward.size(), -1.0);
  for (const TimedOp& op : stage.ops) {
    if (op.pack < 0) continue;
    const auto i = static_cast<std::size_t>(op.pack);
    // Interleaved plans run a pack once per virtual chunk: the arrow joins the first of each.
    if (op.kind == OpKind::Forward && i < f_start.size() && f_start[i] < 0.0) f_start[i] = op.start;
    if (op.kind == OpKind::Backward && i < b_start.size() && b_start[i] < 0.0)
      b_start[i] = op.start;
  }
  for (const auto& [f, b] : pairs) {
    const double fs = f_start[static_cast<std::size_t>(f)],
                 bs = b_start[static_cast<std::size_t>(b)];
    if (fs < 0.0 || bs < 0.0) continue;
    const std::string name = pack_name(Pass::Forward, f) + " -> " + pack_name(Pass::Backward, b);
    flow_event(w, "s", next_id, pid, tid, fs * scale, name);
    flow_event(w, "f", next_id, pid, tid, bs * scale, name);
    ++next_id;
  }
}

// A counter track per stage ("memory stage s", in GB) from the simulated memory timeline.
void memory_counters(TraceWriter& w, const StageResult& stage, std::size_t s, int pid,
                     double scale) {
  const std::string name = "memory stage " + std::to_string(s);
  for (const MemoryPoint& m : stage.memory) {
    w.begin_event();
    w.raw() += "\"name\":";
    w.string(name);
    w.raw() += ",\"ph\":\"C\",\"pid\":";
    w.integer(pid);
    w.raw() += ",\"ts\":";
    w.number(m.time * scale);
    w.raw() += ",\"args\":{\"GB\":";
    w.number(m.bytes / 1e9);
    w.raw() += "}}";
  }
}

}  // namespace

double trace_us_per_unit(const SimResult& result) {
  return result.time_unit == "s" ? 1e6 : 1000.0;
}

std::string chrome_trace_json(const Plan& plan, const SimResult& result) {
  const double scale = trace_us_per_unit(result);
  std::string out;
  std::size_t ops = 0;
  for (const ReplicaResult& r : result.replicas)
    for (const StageResult& st : r.stages) ops += st.ops.size() + st.comm.size();
  out.reserve(256 * ops + 4096);
  out += "{\"traceEvents\":[\n";
  TraceWriter w(out);
  for (std::size_t r = 0; r < result.replicas.size(); ++r) {
    const int pid = static_cast<int>(r);
    metadata(w, "process_name", pid, 0, "name", "replica " + std::to_string(r), false);
    metadata(w, "process_sort_index", pid, 0, "sort_index", std::to_string(r), true);
    const ReplicaResult& rr = result.replicas[r];
    long long next_flow_id = static_cast<long long>(r) << 40;  // ids unique across replicas
    for (std::size_t s = 0; s < rr.stages.size(); ++s) {
      const int compute_tid = 2 * static_cast<int>(s), comm_tid = compute_tid + 1;
      metadata(w, "thread_name", pid, compute_tid, "name", "stage " + std::to_string(s), false);
      metadata(w, "thread_sort_index", pid, compute_tid, "sort_index", std::to_string(compute_tid),
               true);
      metadata(w, "thread_name", pid, comm_tid, "name", "stage " + std::to_string(s) + " p2p",
               false);
      metadata(w, "thread_sort_index", pid, comm_tid, "sort_index", std::to_string(comm_tid), true);
      for (const TimedOp& op : rr.stages[s].ops) {
        switch (op.kind) {
          case OpKind::Forward:
          case OpKind::Backward: {
            const Pass pass = op.kind == OpKind::Forward ? Pass::Forward : Pass::Backward;
            complete_event(w, pack_name(pass, op.pack),
                           pass == Pass::Forward ? "forward" : "backward", pid, compute_tid, op,
                           scale);
            pack_args(w, plan, find_pack(plan, r, pass, op.pack), op);
            break;
          }
          case OpKind::DpSync:
            complete_event(w, "DP sync", "dp_sync", pid, comm_tid, op, scale);
            w.raw() += ",\"args\":{\"stage\":" + std::to_string(op.stage) + "}}";
            break;
          case OpKind::Optimizer:
            // The optimizer step is modelled with zero duration; only a real one is drawn.
            if (op.duration() <= 0.0) break;
            complete_event(w, "optimizer", "optimizer", pid, compute_tid, op, scale);
            w.raw() += '}';
            break;
          case OpKind::P2P:
            break;
        }
      }
      if (r < plan.replicas.size())
        slice_flows(w, plan.replicas[r], rr.stages[s], pid, compute_tid, scale, next_flow_id);
      memory_counters(w, rr.stages[s], s, pid, scale);
      for (const TimedOp& op : rr.stages[s].comm) {
        complete_event(w, "send " + pack_name(op.pass, op.pack), "p2p", pid, comm_tid, op, scale);
        const Pack* pack = find_pack(plan, r, op.pass, op.pack);
        w.raw() += ",\"args\":{\"pack\":" + std::to_string(op.pack) + ",\"direction\":\"";
        w.raw() += op.pass == Pass::Forward ? "activations\"" : "gradients\"";
        if (pack) w.raw() += ",\"tokens\":" + std::to_string(pack->tokens());
        w.raw() += "}}";
      }
    }
  }
  out += "\n],\"displayTimeUnit\":\"ms\",\"otherData\":{\"generator\":\"SlimPack Explorer\"";
  out += ",\"time_unit\":";
  w.string(result.time_unit);
  out += ",\"us_per_unit\":";
  w.number(scale);
  out += ",\"note\":";
  w.string(result.time_unit == "s"
               ? "simulated seconds, written as microseconds"
               : "explicit-time plan: 1 time unit is written as 1 ms (1000 us)");
  out += "}}\n";
  return out;
}

Status write_chrome_trace(const std::string& path, const Plan& plan, const SimResult& result) {
  return write_output_file(path, chrome_trace_json(plan, result));
}

}  // namespace slimpack
