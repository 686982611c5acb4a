#include "plan/plan_json.h"

#include <limits>
#include <unordered_map>

#include "common/json_util.h"

namespace slimpack {
namespace {

using Json = nlohmann::json;
using IdIndex = std::unordered_map<std::string, SeqIndex>;
namespace ju = json_util;

const Json* field(const Json& obj, const char* key) {
  auto it = obj.find(key);
  return it == obj.end() || it->is_null() ? nullptr : &*it;
}

std::string in_quotes(const std::string& s) {
  return "\"" + s + "\"";
}

// An optional integer field with a default, checked against [lo, hi].
Expected<std::int64_t> int_in(const Json& obj, const char* key, const std::string& path,
                              std::int64_t fallback, std::int64_t lo,
                              std::int64_t hi = std::numeric_limits<std::int32_t>::max()) {
  auto v = ju::opt_int(obj, key, path);
  if (!v) return v.error();
  const std::int64_t x = v->value_or(fallback);
  if (x < lo || x > hi) {
    return Error::bad_input(path + "." + key + ": " + std::to_string(x) + " is out of range [" +
                            std::to_string(lo) + ", " + std::to_string(hi) + "]");
  }
  return x;
}

// Caps on values that size work or memory, so that a hostile plan gets a message naming the field
// instead of an overflow or an allocation without bound. vchunks: what the simulator's node ids
// hold; warm-up: far beyond any pack count a plan file can list; a sequence: 2^31 tokens, so that
// sums of lengths and segment arithmetic stay far inside 64 bits.
constexpr std::int64_t kMaxVchunks = 127;
constexpr std::int64_t kMaxWarmupExtra = 1 << 16;
constexpr std::int64_t kMaxSequenceTokens = std::int64_t{1} << 31;

struct Reader {
  const Plan& plan;
  const IdIndex& ids;

  Expected<Segment> segment(const Json& j, const std::string& at) const {
    if (!j.is_object()) return Error::bad_input(at + ": expected an object");
    auto id = ju::get_string(j, "seq", at);
    if (!id) return id.error();
    auto found = ids.find(*id);
    if (found == ids.end())
      return Error::bad_input(at + ".seq: unknown sequence " + in_quotes(*id));
    Segment s;
    s.seq = found->second;
    const Tokens length = plan.sequences[static_cast<std::size_t>(s.seq)].length;
    auto begin = ju::opt_int(j, "begin", at);
    if (!begin) return begin.error();
    auto end = ju::opt_int(j, "end", at);
    if (!end) return end.error();
    s.begin = begin->value_or(0);
    s.end = end->value_or(length);
    if (s.begin < 0) return Error::bad_input(at + ".begin: must not be negative");
    if (s.end > length) {
      return Error::bad_input(at + ".end: " + std::to_string(s.end) +
                              " is past the end of sequence " + in_quotes(*id) + " (length " +
                              std::to_string(length) + ")");
    }
    if (s.begin >= s.end) {
      return Error::bad_input(at + ": begin " + std::to_string(s.begin) +
                              " must be less than end " + std::to_string(s.end));
    }
    auto shards = int_in(j, "shards", at, 1, 1);
    if (!shards) return shards.error();
    auto shard = int_in(j, "shard", at, 0, 0, *shards - 1);
    if (!shard) return shard.error();
    s.shards = static_cast<std::int32_t>(*shards);
    s.shard = static_cast<std::int32_t>(*shard);
    return s;
  }

  Expected<Pack> pack(const Json& j, const std::string& at) const {
    if (!j.is_object()) return Error::bad_input(at + ": expected an object");
    const Json* segs = field(j, "segments");
    if (segs == nullptr) return Error::bad_input(at + ".segments: missing required field");
    if (!segs->is_array()) return Error::bad_input(at + ".segments: expected an array");
    Pack p;
    p.segments.reserve(segs->size());
    for (std::size_t i = 0; i < segs->size(); ++i) {
      auto s = segment((*segs)[i], at + ".segments[" + std::to_string(i) + "]");
      if (!s) return s.error();
      p.segments.push_back(*s);
    }
    auto time = ju::opt_number(j, "time", at);
    if (!time) return time.error();
    if (*time && **time < 0.0) return Error::bad_input(at + ".time: must not be negative");
    p.time = *time;
    if (const Json* st = field(j, "stage_times")) {
      const std::string sat = at + ".stage_times";
      if (!st->is_array() || st->size() != static_cast<std::size_t>(plan.stages)) {
        return Error::bad_input(sat + ": expected an array of " + std::to_string(plan.stages) +
                                " numbers (one per stage)");
      }
      for (std::size_t i = 0; i < st->size(); ++i) {
        const Json& v = (*st)[i];
        if (!v.is_number() || v.get<double>() < 0.0) {
          return Error::bad_input(sat + "[" + std::to_string(i) +
                                  "]: expected a non-negative number");
        }
        p.stage_times.push_back(v.get<double>());
      }
    }
    return p;
  }

  Expected<std::vector<Pack>> packs(const Json& obj, const char* key,
                                    const std::string& path) const {
    const std::string at = path + "." + key;
    const Json* list = field(obj, key);
    if (list == nullptr) return Error::bad_input(at + ": missing required field");
    if (!list->is_array()) return Error::bad_input(at + ": expected an array");
    std::vector<Pack> out;
    out.reserve(list->size());
    for (std::size_t i = 0; i < list->size(); ++i) {
      auto p = pack((*list)[i], at + "[" + std::to_string(i) + "]");
      if (!p) return p.error();
      out.push_back(std::move(*p));
    }
    return out;
  }

  Expected<ReplicaPlan> replica(const Json& obj, const std::string& path) const {
    if (!obj.is_object()) return Error::bad_input(path + ": expected an object");
    auto f = packs(obj, "forward_packs", path);
    if (!f) return f.error();
    auto b = packs(obj, "backward_packs", path);
    if (!b) return b.error();
    return ReplicaPlan{std::move(*f), std::move(*b)};
  }
};

Status read_header(const Json& j, Plan& plan) {
  auto format = ju::get_string(j, "format", "$");
  if (!format) return format.error();
  if (*format != kPlanFormat)
    return Error::bad_input("$.format: expected \"slimpack-plan\", got " + in_quotes(*format));
  auto version = ju::get_int(j, "version", "$");
  if (!version) return version.error();
  if (*version != kPlanVersion) {
    return Error::bad_input("$.version: unsupported version " + std::to_string(*version) +
                            " (this program reads version " + std::to_string(kPlanVersion) + ")");
  }
  auto stages = ju::get_int(j, "stages", "$");
  if (!stages) return stages.error();
  if (*stages < 1 || *stages > 4096)
    return Error::bad_input("$.stages: " + std::to_string(*stages) + " is out of range [1, 4096]");
  plan.stages = static_cast<int>(*stages);
  auto schedule = ju::get_string(j, "schedule", "$");
  if (!schedule) return schedule.error();
  if (!parse_schedule(*schedule, plan.schedule)) {
    return Error::bad_input("$.schedule: unknown schedule " + in_quotes(*schedule) +
                            " (expected \"1f1b\", \"gpipe\" or \"interleaved\")");
  }
  auto w = int_in(j, "warmup_extra", "$", 0, 0, kMaxWarmupExtra);
  if (!w) return w.error();
  plan.warmup_extra = static_cast<int>(*w);
  auto v = int_in(j, "vchunks", "$", 1, 1, kMaxVchunks);
  if (!v) return v.error();
  plan.vchunks = static_cast<int>(*v);
  auto latency = ju::opt_number(j, "p2p_latency", "$");
  if (!latency) return latency.error();
  plan.p2p_latency = latency->value_or(0.0);
  if (plan.p2p_latency < 0.0) return Error::bad_input("$.p2p_latency: must not be negative");
  auto slice = int_in(j, "slice_size", "$", 0, 0, std::numeric_limits<std::int64_t>::max());
  if (!slice) return slice.error();
  plan.slice_size = *slice;
  auto strategy = ju::opt_string(j, "strategy", "$");
  if (!strategy) return strategy.error();
  plan.strategy = strategy->value_or("");
  // Optional: layers recomputed in backward per stage (one non-negative count per stage).
  if (const Json* rec = field(j, "recompute_layers"); rec != nullptr && !rec->is_null()) {
    if (!rec->is_array() || static_cast<int>(rec->size()) != plan.stages)
      return Error::bad_input("$.recompute_layers: expected an array of " +
                              std::to_string(plan.stages) + " layer counts, one per stage");
    for (std::size_t s = 0; s < rec->size(); ++s) {
      const Json& count = (*rec)[s];
      if (!count.is_number_integer() || count.get<std::int64_t>() < 0 ||
          count.get<std::int64_t>() > 100000)
        return Error::bad_input("$.recompute_layers[" + std::to_string(s) +
                                "]: expected a non-negative layer count");
      plan.recompute_layers.push_back(static_cast<int>(count.get<std::int64_t>()));
    }
  }
  return Status::success();
}

Status read_sequences(const Json& j, Plan& plan, IdIndex& ids) {
  const Json* seqs = field(j, "sequences");
  if (seqs == nullptr) return Error::bad_input("$.sequences: missing required field");
  if (!seqs->is_array()) return Error::bad_input("$.sequences: expected an array");
  plan.sequences.reserve(seqs->size());
  for (std::size_t i = 0; i < seqs->size(); ++i) {
    const std::string at = "$.sequences[" + std::to_string(i) + "]";
    const Json& s = (*seqs)[i];
    if (!s.is_object()) return Error::bad_input(at + ": expected an object");
    auto id = ju::get_string(s, "id", at);
    if (!id) return id.error();
    if (id->empty()) return Error::bad_input(at + ".id: must not be empty");
    auto length = ju::get_int(s, "length", at);
    if (!length) return length.error();
    if (*length < 1) {
      return Error::bad_input(at + ".length: " + std::to_string(*length) +
                              " (a sequence has at least 1 token)");
    }
    if (*length > kMaxSequenceTokens) {
      return Error::bad_input(at + ".length: " + std::to_string(*length) +
                              " is more than the maximum " + std::to_string(kMaxSequenceTokens));
    }
    if (!ids.emplace(*id, static_cast<SeqIndex>(i)).second)
      return Error::bad_input(at + ".id: duplicate sequence id " + in_quotes(*id));
    auto sample = int_in(s, "sample", at, -1, -1, std::numeric_limits<std::int64_t>::max());
    if (!sample) return sample.error();
    plan.sequences.push_back(Sequence{*id, *length, *sample});
  }
  return Status::success();
}

template <class J>
J segment_to_json(const Plan& plan, const Segment& s) {
  J j;
  const bool known = s.seq >= 0 && static_cast<std::size_t>(s.seq) < plan.sequences.size();
  j["seq"] = known ? plan.sequences[static_cast<std::size_t>(s.seq)].id : std::string();
  j["begin"] = s.begin;
  j["end"] = s.end;
  if (s.shards > 1) {
    j["shards"] = s.shards;
    j["shard"] = s.shard;
  }
  return j;
}

template <class J>
J packs_to_json(const Plan& plan, const std::vector<Pack>& packs) {
  J list = J::array();
  for (const auto& p : packs) {
    J pj;
    J segs = J::array();
    for (const auto& s : p.segments) segs.push_back(segment_to_json<J>(plan, s));
    pj["segments"] = std::move(segs);
    if (p.time) pj["time"] = *p.time;
    if (!p.stage_times.empty()) pj["stage_times"] = p.stage_times;
    list.push_back(std::move(pj));
  }
  return list;
}

template <class J>
J plan_to_json_as(const Plan& plan) {
  J j;
  j["format"] = kPlanFormat;
  j["version"] = kPlanVersion;
  j["stages"] = plan.stages;
  j["schedule"] = schedule_name(plan.schedule);
  j["warmup_extra"] = plan.warmup_extra;
  j["vchunks"] = plan.vchunks;
  j["p2p_latency"] = plan.p2p_latency;
  if (plan.slice_size > 0) j["slice_size"] = plan.slice_size;
  if (!plan.strategy.empty()) j["strategy"] = plan.strategy;
  if (!plan.recompute_layers.empty()) j["recompute_layers"] = plan.recompute_layers;
  J seqs = J::array();
  for (const auto& s : plan.sequences) {
    J sj;
    sj["id"] = s.id;
    sj["length"] = s.length;
    if (s.sample >= 0) sj["sample"] = s.sample;
    seqs.push_back(std::move(sj));
  }
  j["sequences"] = std::move(seqs);
  if (plan.replicas.size() == 1) {
    j["forward_packs"] = packs_to_json<J>(plan, plan.replicas.front().forward);
    j["backward_packs"] = packs_to_json<J>(plan, plan.replicas.front().backward);
  } else {
    J reps = J::array();
    for (const auto& r : plan.replicas) {
      J rj;
      rj["forward_packs"] = packs_to_json<J>(plan, r.forward);
      rj["backward_packs"] = packs_to_json<J>(plan, r.backward);
      reps.push_back(std::move(rj));
    }
    j["replicas"] = std::move(reps);
  }
  return j;
}

}  // namespace

Expected<Plan> plan_from_json(const nlohmann::json& j) {
  if (!j.is_object()) return Error::bad_input("$: expected a JSON object");
  Plan plan;
  if (Status st = read_header(j, plan); !st) return st.error();
  IdIndex ids;
  if (Status st = read_sequences(j, plan, ids); !st) return st.error();
  const Reader reader{plan, ids};
  std::vector<ReplicaPlan> replicas;
  if (const Json* reps = field(j, "replicas")) {
    for (const char* key : {"forward_packs", "backward_packs"}) {
      if (field(j, key) != nullptr)
        return Error::bad_input(std::string("$.") + key + ": not allowed together with $.replicas");
    }
    if (!reps->is_array() || reps->empty())
      return Error::bad_input("$.replicas: expected a non-empty array");
    for (std::size_t r = 0; r < reps->size(); ++r) {
      auto rp = reader.replica((*reps)[r], "$.replicas[" + std::to_string(r) + "]");
      if (!rp) return rp.error();
      replicas.push_back(std::move(*rp));
    }
  } else {
    auto rp = reader.replica(j, "$");
    if (!rp) return rp.error();
    replicas.push_back(std::move(*rp));
  }
  plan.replicas = std::move(replicas);
  return plan;
}

Expected<Plan> read_plan_file(const std::string& path) {
  auto j = ju::parse_file(path);
  if (!j) return j.error();
  auto plan = plan_from_json(*j);
  if (!plan) return plan.error().with_context(path);
  return plan;
}

nlohmann::json plan_to_json(const Plan& plan) {
  return plan_to_json_as<nlohmann::json>(plan);
}

std::string plan_to_string(const Plan& plan) {
  return plan_to_json_as<nlohmann::ordered_json>(plan).dump(2) + "\n";
}

}  // namespace slimpack
