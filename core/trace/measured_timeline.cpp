#include "trace/measured_timeline.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

namespace slimpack {
namespace {

using Key = std::pair<int, UnitId>;  // replica, unit

UnitRule message_rule(const char* name, Pass pass, const char* category = "") {
  UnitRule r;
  r.name_pattern = name;
  r.category_pattern = category;
  r.pass = pass;
  r.pack_group = 1;
  r.pack_base = 1;
  return r;
}

// Measured units grouped by (replica, stage, pass, pack), each group split into the plan's
// chunks in run order.
std::map<Key, std::vector<const MeasuredUnit*>> by_chunk(const MappedTrace& mapped, int vchunks) {
  std::map<std::tuple<int, int, int, int>, std::vector<const MeasuredUnit*>> packs;
  for (const MeasuredUnit& u : mapped.units)
    packs[{u.replica, u.stage, static_cast<int>(u.pass), u.pack}].push_back(&u);
  std::map<Key, std::vector<const MeasuredUnit*>> out;
  for (auto& [key, list] : packs) {
    std::stable_sort(list.begin(), list.end(), [](const MeasuredUnit* a, const MeasuredUnit* b) {
      return a->start_us < b->start_us;
    });
    const auto n = list.size();
    for (std::size_t k = 0; k < n; ++k) {
      const MeasuredUnit& u = *list[k];
      int chunk = static_cast<int>(k * static_cast<std::size_t>(vchunks) / n);
      if (u.pass == Pass::Backward) chunk = vchunks - 1 - chunk;
      out[{u.replica, UnitId{u.stage, chunk, u.pass, u.pack}}].push_back(&u);
    }
  }
  return out;
}

// The last end of each message group.
std::map<Key, double> message_ends(const MappedTrace* mapped, int vchunks) {
  std::map<Key, double> out;
  if (!mapped) return out;
  for (const auto& [key, list] : by_chunk(*mapped, vchunks))
    for (const MeasuredUnit* u : list) {
      const double end = u->start_us + u->dur_us;
      auto [it, fresh] = out.try_emplace(key, end);
      if (!fresh) it->second = std::max(it->second, end);
    }
  return out;
}

}  // namespace

UnitRuleSet receive_rules() {
  return {"receives",
          {message_rule("wait RECV_F([0-9]+)", Pass::Forward),
           message_rule("wait RECV_B([0-9]+)", Pass::Backward)}};
}

UnitRuleSet send_rules() {
  return {"sends",
          {message_rule("send F([0-9]+)", Pass::Forward, "p2p"),
           message_rule("send B([0-9]+)", Pass::Backward, "p2p")}};
}

PipelineTimeline measured_timeline(const MappedTrace& units, const std::vector<UnitGraph>& graphs,
                                   int stages, const MappedTrace* receives,
                                   const MappedTrace* sends) {
  PipelineTimeline t;
  t.replicas = std::max(1, static_cast<int>(graphs.size()));
  t.stages = stages;
  const int vchunks = graphs.empty() ? 1 : graphs.front().vchunks;
  std::map<Key, std::int32_t> index;
  bool any = false;
  for (const auto& [key, events] : by_chunk(units, vchunks)) {
    TimelineUnit u;
    u.replica = key.first;
    u.id = key.second;
    const auto i = static_cast<std::int32_t>(t.units.size());
    for (std::size_t k = 0; k < events.size(); ++k) {
      const MeasuredUnit& e = *events[k];
      const double end = e.start_us + e.dur_us;
      u.start_us = k == 0 ? e.start_us : std::min(u.start_us, e.start_us);
      u.end_us = k == 0 ? end : std::max(u.end_us, end);
      t.busy.push_back({e.replica, e.stage, e.start_us, end, i});
    }
    t.origin_us = any ? std::min(t.origin_us, u.start_us) : u.start_us;
    t.end_us = any ? std::max(t.end_us, u.end_us) : u.end_us;
    any = true;
    index[key] = i;
    t.units.push_back(u);
  }
  const std::map<Key, double> received = message_ends(receives, vchunks);
  const std::map<Key, double> sent = message_ends(sends, vchunks);
  for (auto& [key, i] : index) {
    const auto r = static_cast<std::size_t>(key.first);
    if (r >= graphs.size()) continue;
    const auto p = graphs[r].producer.find(key.second);
    if (p == graphs[r].producer.end()) continue;
    TimelineUnit& u = t.units[static_cast<std::size_t>(i)];
    const Key from{key.first, p->second};
    if (const auto f = index.find(from); f != index.end()) u.producer = f->second;
    if (const auto e = received.find(key); e != received.end())
      u.received_us = e->second;
    else if (const auto s = sent.find(from); s != sent.end())
      u.received_us = s->second;
  }
  return t;
}

}  // namespace slimpack
