#include "trace/trace_lanes.h"

#include <charconv>
#include <optional>

#include "common/json_util.h"

namespace slimpack {
namespace {

using json_util::Json;

// A plan has at most 4096 stages; data-parallel replicas are capped like the cost model's dp.
constexpr std::int64_t kMaxMappedStages = 4096;
constexpr std::int64_t kMaxMappedReplicas = 65536;

// Parses "<prefix><integer>" optionally followed by `suffix` (e.g. "stage 3 p2p").
std::optional<int> labelled_number(const std::string& text, std::string_view prefix,
                                   std::string_view suffix = {}) {
  if (text.size() <= prefix.size() || text.compare(0, prefix.size(), prefix) != 0) return {};
  int v = 0;
  const char* first = text.data() + prefix.size();
  const char* last = text.data() + text.size();
  const auto res = std::from_chars(first, last, v);
  if (res.ec != std::errc() || v < 0) return {};
  const std::string_view rest(res.ptr, static_cast<std::size_t>(last - res.ptr));
  if (!rest.empty() && rest != suffix) return {};
  return v;
}

// pid/tid as the importer prints them: strings as is, integers in decimal.
Expected<std::string> id_field(const Json& obj, const std::string& key, const std::string& path) {
  const auto it = obj.find(key);
  if (it == obj.end()) return Error::bad_input(path + "." + key + ": missing required field");
  if (it->is_string()) return it->get<std::string>();
  if (it->is_number_unsigned()) return std::to_string(it->get<std::uint64_t>());
  if (it->is_number_integer()) return std::to_string(it->get<std::int64_t>());
  return Error::bad_input(path + "." + key + ": expected a string or an integer");
}

int lookup(const std::map<std::string, int>& m, const TraceLane& lane, int missing) {
  const auto it = m.find(lane_key(lane.pid, lane.tid));
  return it == m.end() ? missing : it->second;
}

}  // namespace

std::string lane_key(const std::string& pid, const std::string& tid) {
  return pid + "/" + tid;
}

int stage_of(const LaneMapping& mapping, const TraceLane& lane) {
  return lookup(mapping.stage_of_lane, lane, -1);
}

int replica_of(const LaneMapping& mapping, const TraceLane& lane) {
  return lookup(mapping.replica_of_lane, lane, 0);
}

Expected<LaneMapping> parse_lane_mapping(const std::string& json_text, const std::string& source) {
  auto doc = json_util::parse(json_text);
  if (!doc) return doc.error().with_context(source);
  const Json& root = *doc;
  const auto lanes = root.is_object() ? root.find("lanes") : root.end();
  if (!root.is_object() || lanes == root.end() || !lanes->is_array())
    return Error::bad_input(source + ": $.lanes: expected an array of {pid, tid, stage}");
  LaneMapping m;
  for (std::size_t i = 0; i < lanes->size(); ++i) {
    const Json& entry = (*lanes)[i];
    const std::string path = "$.lanes[" + std::to_string(i) + "]";
    if (!entry.is_object()) return Error::bad_input(source + ": " + path + ": expected an object");
    auto pid = id_field(entry, "pid", path);
    if (!pid) return pid.error().with_context(source);
    auto tid = id_field(entry, "tid", path);
    if (!tid) return tid.error().with_context(source);
    auto stage = json_util::get_int(entry, "stage", path);
    if (!stage) return stage.error().with_context(source);
    auto replica = json_util::opt_int(entry, "replica", path);
    if (!replica) return replica.error().with_context(source);
    if (*stage < 0 || (replica->has_value() && **replica < 0))
      return Error::bad_input(source + ": " + path + ": stage and replica must be >= 0");
    // Checked before the cast to int: 922337203685477583 used to become a negative stage.
    if (*stage >= kMaxMappedStages)
      return Error::bad_input(source + ": " + path + ".stage: " + std::to_string(*stage) +
                              " is out of range [0, " + std::to_string(kMaxMappedStages - 1) + "]");
    if (replica->has_value() && **replica >= kMaxMappedReplicas)
      return Error::bad_input(source + ": " + path + ".replica: " + std::to_string(**replica) +
                              " is out of range [0, " + std::to_string(kMaxMappedReplicas - 1) +
                              "]");
    const std::string key = lane_key(*pid, *tid);
    if (m.stage_of_lane.count(key))
      return Error::bad_input(source + ": " + path + ": lane " + key + " is mapped twice");
    m.stage_of_lane[key] = static_cast<int>(*stage);
    m.replica_of_lane[key] = static_cast<int>(replica->value_or(0));
  }
  return m;
}

Expected<LaneMapping> read_lane_mapping(const std::string& path) {
  auto text = json_util::read_file(path);
  if (!text) return text.error();
  return parse_lane_mapping(*text, path);
}

LaneMapping export_lane_mapping(const ImportedTrace& trace) {
  LaneMapping m;
  for (const TraceLane& lane : trace.lanes) {
    auto stage = labelled_number(lane.thread_name, "stage ", " p2p");
    if (!stage) continue;
    const std::string key = lane_key(lane.pid, lane.tid);
    m.stage_of_lane[key] = *stage;
    m.replica_of_lane[key] = labelled_number(lane.process_name, "replica ").value_or(0);
  }
  return m;
}

LaneMapping rank_lane_mapping(const ImportedTrace& trace, int replica, int stage) {
  LaneMapping m;
  for (const TraceLane& lane : trace.lanes) {
    const std::string key = lane_key(lane.pid, lane.tid);
    m.stage_of_lane[key] = stage;
    m.replica_of_lane[key] = replica;
  }
  return m;
}

LaneMapping default_lane_mapping(const ImportedTrace& trace) {
  LaneMapping m = export_lane_mapping(trace);
  if (!m.stage_of_lane.empty()) return m;
  // Lanes are sorted by pid, so a change of pid starts the next rank.
  int rank = -1;
  const std::string* prev_pid = nullptr;
  for (const TraceLane& lane : trace.lanes) {
    if (!prev_pid || *prev_pid != lane.pid) ++rank;
    prev_pid = &lane.pid;
    const std::string key = lane_key(lane.pid, lane.tid);
    m.stage_of_lane[key] = rank;
    m.replica_of_lane[key] = 0;
  }
  return m;
}

}  // namespace slimpack

namespace slimpack {

std::string process_label(const TraceLane& lane) {
  if (lane.process_labels.empty() || lane.process_labels == lane.process_name)
    return lane.process_name;
  if (lane.process_name.empty()) return lane.process_labels;
  return lane.process_name + " (" + lane.process_labels + ")";
}

}  // namespace slimpack
