// The schedule file (docs/file-formats-schedule.md). Writing is a projection of the Schedule;
// reading takes the plan and the cost setup from the file, rebuilds the schedule with
// make_schedule() and requires the file's atoms, uses and actions to be exactly those, so a
// hand-edited action list can never make a runtime execute something the simulator did not time.
#include <algorithm>
#include <cmath>
#include <string>

#include "common/json_util.h"
#include "plan/legality.h"
#include "plan/plan_json.h"
#include "schedule/schedule.h"

namespace slimpack {
namespace {

using Json = nlohmann::json;
namespace ju = json_util;

constexpr const char* kMessageLayout =
    "rows are tokens: the pack's segments in pack order, each segment's tokens in sequence order; "
    "a row holds hidden values";

template <class J>
J atom_pair(std::int32_t first, std::int32_t last) {
  J a = J::array();
  a.push_back(first);
  a.push_back(last);
  return a;
}

template <class J>
J action_json(const ScheduleAction& a) {
  J j;
  j["op"] = action_op_name(a.op);
  if (a.op == ActionOp::AllReduce) {
    j["group"] = a.group;
    j["bytes"] = a.bytes;
    return j;
  }
  j["pack"] = a.pack;
  if (a.op == ActionOp::Forward || a.op == ActionOp::Backward) return j;
  j["peer"] = a.peer;
  j["tag"] = a.tag;
  j["tokens"] = a.tokens;
  j["bytes"] = a.bytes;
  return j;
}

template <class J>
J runs_json(const Schedule& s, const std::vector<AtomRun>& runs, bool with_pack) {
  J list = J::array();
  for (const AtomRun& r : runs) {
    J j;
    j["seq"] = s.plan.sequences[static_cast<std::size_t>(r.seq)].id;
    j["atoms"] = atom_pair<J>(r.first, r.last);
    if (with_pack) j["forward_pack"] = r.forward_pack;
    list.push_back(std::move(j));
  }
  return list;
}

template <class J>
J packs_json(const Schedule& s, int replica, Pass pass) {
  const ReplicaPlan& rp = s.plan.replicas[static_cast<std::size_t>(replica)];
  const auto& packs = pass == Pass::Forward ? rp.forward : rp.backward;
  J list = J::array();
  for (std::size_t m = 0; m < packs.size(); ++m) {
    const Pack& pack = packs[m];
    J segs = J::array();
    for (const Segment& seg : pack.segments) {
      const auto& cuts = s.atoms[static_cast<std::size_t>(seg.seq)];
      const auto at = [&](Tokens t) {
        return static_cast<std::int32_t>(std::lower_bound(cuts.begin(), cuts.end(), t) -
                                         cuts.begin());
      };
      J sj;
      sj["seq"] = s.plan.sequences[static_cast<std::size_t>(seg.seq)].id;
      sj["begin"] = seg.begin;
      sj["end"] = seg.end;
      sj["atoms"] = atom_pair<J>(at(seg.begin), at(seg.end));
      segs.push_back(std::move(sj));
    }
    J pj;
    pj["segments"] = std::move(segs);
    pj["tokens"] = pack.tokens();
    if (pack.time) pj["time"] = *pack.time;
    if (!pack.stage_times.empty()) pj["stage_times"] = pack.stage_times;
    if (pass == Pass::Backward) {
      const BackwardPackUse& use = s.uses[static_cast<std::size_t>(replica)][m];
      pj["consumes"] = runs_json<J>(s, use.consumes, true);
      pj["frees"] = runs_json<J>(s, use.frees, false);
    }
    list.push_back(std::move(pj));
  }
  return list;
}

template <class J>
J setup_json(const Schedule& s) {
  const Plan& plan = s.plan;
  J j;
  j["stages"] = plan.stages;
  j["replicas"] = plan.dp();
  j["tp"] = s.costs ? s.costs->par.tp : 1;
  j["cp"] = s.costs ? s.costs->par.cp : 1;
  j["schedule"] = schedule_name(plan.schedule);
  j["warmup_extra"] = plan.warmup_extra;
  j["vchunks"] = plan.vchunks;
  if (!plan.strategy.empty()) j["strategy"] = plan.strategy;
  if (plan.slice_size > 0) j["slice_size"] = plan.slice_size;
  if (s.costs) {
    const ModelConfig& m = s.costs->model;
    J model;
    model["name"] = m.name;
    model["source"] = m.source;
    model["layers"] = m.layers;
    model["hidden"] = m.hidden;
    model["ffn"] = m.ffn;
    model["heads"] = m.heads;
    model["kv_heads"] = m.kv_heads;
    model["vocab"] = m.vocab;
    model["head_dim"] = m.head_dim();
    model["tied_embeddings"] = m.tied_embeddings;
    model["attention_bias"] = attention_bias_name(m.attention_bias);
    j["model"] = std::move(model);
    j["stage_layers"] = s.stage_layers;
  } else {
    j["model"] = nullptr;
  }
  std::vector<int> recompute;
  for (int st = 0; st < plan.stages; ++st) recompute.push_back(plan.recompute_at(st));
  j["recompute_layers"] = recompute;
  if (s.costs) {
    // to_json gives a plain json; keep the documented key order of the rest.
    j["costs"] = J::parse(to_json(*s.costs).dump());
  } else {
    j["costs"] = nullptr;
  }
  j["p2p_latency"] = plan.p2p_latency;
  return j;
}

template <class J>
J schedule_json_as(const Schedule& s) {
  J j;
  j["format"] = kScheduleFormat;
  j["version"] = kScheduleVersion;
  j["setup"] = setup_json<J>(s);
  j["message_layout"] = kMessageLayout;
  J seqs = J::array();
  for (std::size_t i = 0; i < s.plan.sequences.size(); ++i) {
    const Sequence& seq = s.plan.sequences[i];
    J sj;
    sj["id"] = seq.id;
    sj["length"] = seq.length;
    if (seq.sample >= 0) sj["sample"] = seq.sample;
    sj["replica"] = s.sequence_replica[i];
    sj["atoms"] = s.atoms[i];
    seqs.push_back(std::move(sj));
  }
  j["sequences"] = std::move(seqs);
  J reps = J::array();
  for (int r = 0; r < s.plan.dp(); ++r) {
    J rj;
    rj["forward_packs"] = packs_json<J>(s, r, Pass::Forward);
    rj["backward_packs"] = packs_json<J>(s, r, Pass::Backward);
    reps.push_back(std::move(rj));
  }
  j["replicas"] = std::move(reps);
  J ranks = J::array();
  for (const ScheduleRank& r : s.ranks) {
    J rj;
    rj["rank"] = r.rank;
    rj["replica"] = r.replica;
    rj["stage"] = r.stage;
    rj["first_layer"] = r.first_layer;
    rj["layers"] = r.layers;
    rj["recompute"] = r.recompute;
    J acts = J::array();
    for (const ScheduleAction& a : r.actions) acts.push_back(action_json<J>(a));
    rj["actions"] = std::move(acts);
    ranks.push_back(std::move(rj));
  }
  j["ranks"] = std::move(ranks);
  return j;
}

std::string short_text(const Json& j) {
  std::string t = j.dump();
  return t.size() > 120 ? t.substr(0, 117) + "..." : t;
}

std::string first_difference(const Json& expected, const Json& found, const std::string& path);

// An action as the runtime's messages name it (app/runtime/slimpack_runtime/validate.py): "F 3",
// "RECV_F 0", "ALLREDUCE"; what a file's action holds of that when it is malformed.
std::string action_name(const Json& a) {
  if (!a.is_object()) return short_text(a);
  auto op = a.find("op");
  std::string out = op != a.end() && op->is_string() ? op->get<std::string>() : "an action";
  auto pack = a.find("pack");
  if (pack != a.end() && pack->is_number_integer() && out != "ALLREDUCE")
    out += " " + std::to_string(pack->get<std::int64_t>());
  return out;
}

bool same_action(const Json& expected, const Json& found) {
  if (!found.is_object()) return false;
  const auto op = [](const Json& a) {
    auto it = a.find("op");
    return it != a.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  if (op(expected) != op(found)) return false;
  // A pack of the wrong type is the pack field's error, not another action.
  auto pack = found.find("pack");
  return pack == found.end() || !pack->is_number_integer() ||
         action_name(expected) == action_name(found);
}

std::string rank_field(const Json& rank, const char* key) {
  auto it = rank.find(key);
  return it != rank.end() && it->is_number_integer() ? std::to_string(it->get<std::int64_t>())
                                                     : std::string("?");
}

// The first place where a rank's action list differs from the plan's, named as a user needs it:
// the rank, the action's index, its op and pack, and whether an action is missing, extra or out of
// place ("$.ranks[1].actions[0]: rank 1 (stage 1, replica 0) lacks RECV_F 0 before F 0").
std::string actions_difference(const Json& expected, const Json& found, const Json& rank,
                               const std::string& path) {
  const std::string r = rank_field(rank, "rank");
  const std::string who = "rank " + r + " (stage " + rank_field(rank, "stage") + ", replica " +
                          rank_field(rank, "replica") + ")";
  if (!found.is_array()) return path + ": expected an array (the actions of " + who + ")";
  const std::size_t n = std::min(expected.size(), found.size());
  for (std::size_t i = 0; i < n; ++i) {
    const Json& e = expected[i];
    const Json& f = found[i];
    const std::string at = path + "[" + std::to_string(i) + "]";
    const std::string index = "rank " + r + " action " + std::to_string(i);
    if (!f.is_object()) return at + ": expected an object (" + index + ": " + action_name(e) + ")";
    auto op = f.find("op");
    if (op == f.end() || op->is_null())
      return at + ".op: missing required field (" + index + ": " + action_name(e) + ")";
    if (!op->is_string())
      return at + ".op: expected a string (" + index + ": " + action_name(e) + ")";
    ActionOp parsed{};
    if (!parse_action_op(op->get<std::string>(), parsed))
      return at + ".op: unknown action \"" + op->get<std::string>() + "\" (" + index +
             ": the plan gives " + action_name(e) + ")";
    if (!same_action(e, f)) {
      // One action left out: the file goes on with the plan's next; one added: the plan's comes
      // next in the file. The longer run of agreeing actions after it decides between the two.
      const auto agreeing = [&](std::size_t e0, std::size_t f0) {
        int run = 0;
        while (run < 4 && e0 + run < expected.size() && f0 + run < found.size() &&
               same_action(expected[e0 + run], found[f0 + run]))
          ++run;
        return run;
      };
      const int if_missing = agreeing(i + 1, i), if_extra = agreeing(i, i + 1);
      if (if_missing > 0 && if_missing >= if_extra)
        return at + ": " + who + " lacks " + action_name(e) + " before " + action_name(f) +
               " (action " + std::to_string(i) + ")";
      if (if_extra > 0)
        return at + ": " + who + " has an extra " + action_name(f) + " before " + action_name(e) +
               " (action " + std::to_string(i) + ")";
      return at + ": " + index + " is " + action_name(f) + ", the plan gives " + action_name(e) +
             " (actions out of order)";
    }
    if (std::string d = first_difference(e, f, at); !d.empty())
      return d + " (" + index + ": " + action_name(e) + ")";
  }
  if (found.size() < expected.size())
    return path + ": " + who + " has " + std::to_string(found.size()) +
           " actions, the plan gives " + std::to_string(expected.size()) +
           " (the first missing is " + action_name(expected[n]) + ", action " + std::to_string(n) +
           ")";
  if (found.size() > expected.size())
    return path + "[" + std::to_string(n) + "]: " + who + " has " + std::to_string(found.size()) +
           " actions, the plan gives " + std::to_string(expected.size()) + " (" +
           action_name(found[n]) + " is extra)";
  return {};
}

// The path of the first place where `found` does not hold what `expected` holds (keys of
// `found` that `expected` lacks are ignored, as unknown fields are), or empty when none.
std::string first_difference(const Json& expected, const Json& found, const std::string& path) {
  if (expected.is_object()) {
    if (!found.is_object()) return path + ": expected an object";
    // A rank's actions are told apart before its other fields: a missing RECV_F is named as one.
    if (auto acts = expected.find("actions"); acts != expected.end() && expected.contains("rank")) {
      auto f = found.find("actions");
      if (f == found.end())
        return path + ".actions: missing required field (the actions of rank " +
               rank_field(expected, "rank") + ")";
      if (std::string d = actions_difference(*acts, *f, expected, path + ".actions"); !d.empty())
        return d;
    }
    for (auto it = expected.begin(); it != expected.end(); ++it) {
      const std::string at = path + "." + it.key();
      auto f = found.find(it.key());
      if (f == found.end()) return at + ": missing required field";
      if (it.key() == "actions" && expected.contains("rank")) continue;  // compared above
      if (it.key() == "op" && f->is_string()) {
        ActionOp op{};
        if (!parse_action_op(f->get<std::string>(), op))
          return at + ": unknown action \"" + f->get<std::string>() + "\"";
      }
      if (std::string d = first_difference(*it, *f, at); !d.empty()) return d;
    }
    return {};
  }
  if (expected.is_array()) {
    if (!found.is_array()) return path + ": expected an array";
    for (std::size_t i = 0; i < expected.size() && i < found.size(); ++i)
      if (std::string d =
              first_difference(expected[i], found[i], path + "[" + std::to_string(i) + "]");
          !d.empty())
        return d;
    if (expected.size() != found.size()) {
      std::string d = path + ": has " + std::to_string(found.size()) + " entries, the plan gives " +
                      std::to_string(expected.size());
      // A rank left out is named as the rank it is.
      if (found.size() < expected.size() && expected[found.size()].is_object() &&
          expected[found.size()].contains("actions")) {
        const Json& rank = expected[found.size()];
        d += " (the first missing is rank " + rank_field(rank, "rank") + ": stage " +
             rank_field(rank, "stage") + ", replica " + rank_field(rank, "replica") + ")";
      }
      return d;
    }
    return {};
  }
  if (expected.is_number() && found.is_number()) {
    const double e = expected.get<double>(), f = found.get<double>();
    if (e == f || std::abs(e - f) <= 1e-12 * std::max(std::abs(e), std::abs(f))) return {};
  } else if (expected == found) {
    return {};
  }
  return path + ": the plan gives " + short_text(expected) + ", the file has " + short_text(found);
}

const Json* field(const Json& obj, const char* key) {
  auto it = obj.find(key);
  return it == obj.end() || it->is_null() ? nullptr : &*it;
}

// The plan part of the schedule as a plan file's JSON (unknown keys are ignored by its reader,
// and the pack lists sit under $.replicas in both formats, so its error paths are the file's).
Expected<Json> plan_view(const Json& j) {
  const Json* setup = field(j, "setup");
  if (setup == nullptr) return Error::bad_input("$.setup: missing required field");
  if (!setup->is_object()) return Error::bad_input("$.setup: expected an object");
  Json plan = {{"format", kPlanFormat}, {"version", kPlanVersion}};
  for (const char* key : {"stages", "schedule", "warmup_extra", "vchunks", "p2p_latency",
                          "slice_size", "strategy", "recompute_layers"})
    if (const Json* v = field(*setup, key)) plan[key] = *v;
  if (!plan.contains("stages")) return Error::bad_input("$.setup.stages: missing required field");
  if (!plan.contains("schedule"))
    return Error::bad_input("$.setup.schedule: missing required field");
  for (const char* key : {"sequences", "replicas"}) {
    const Json* v = field(j, key);
    if (v == nullptr) return Error::bad_input(std::string("$.") + key + ": missing required field");
    plan[key] = *v;
  }
  return plan;
}

// Plan-reader messages name "$.stages" where the schedule has "$.setup.stages".
Error in_setup(Error e) {
  for (const char* key : {"stages", "schedule", "warmup_extra", "vchunks", "p2p_latency",
                          "slice_size", "strategy", "recompute_layers"}) {
    const std::string from = std::string("$.") + key;
    if (e.message.rfind(from, 0) == 0) {
      e.message = "$.setup." + e.message.substr(2);
      break;
    }
  }
  return e;
}

}  // namespace

const char* action_op_name(ActionOp op) {
  switch (op) {
    case ActionOp::Forward:
      return "F";
    case ActionOp::Backward:
      return "B";
    case ActionOp::SendF:
      return "SEND_F";
    case ActionOp::RecvF:
      return "RECV_F";
    case ActionOp::SendB:
      return "SEND_B";
    case ActionOp::RecvB:
      return "RECV_B";
    case ActionOp::AllReduce:
      return "ALLREDUCE";
  }
  return "?";
}

bool parse_action_op(const std::string& name, ActionOp& out) {
  for (ActionOp op : {ActionOp::Forward, ActionOp::Backward, ActionOp::SendF, ActionOp::RecvF,
                      ActionOp::SendB, ActionOp::RecvB, ActionOp::AllReduce})
    if (name == action_op_name(op)) {
      out = op;
      return true;
    }
  return false;
}

bool is_schedule_json(const Json& j) {
  if (!j.is_object()) return false;
  auto it = j.find("format");
  return it != j.end() && it->is_string() && it->get<std::string>() == kScheduleFormat;
}

nlohmann::json schedule_to_json(const Schedule& schedule) {
  return schedule_json_as<Json>(schedule);
}

namespace {

// Pretty-printing that keeps a value on one line when it fits in `width` characters: an action,
// a sequence or a small pack reads as one line, so a file of thousands of actions stays readable
// and diffable (nlohmann's dump puts every number of every array on a line of its own).
void dump_compact(const nlohmann::ordered_json& j, int indent, std::string& out) {
  constexpr std::size_t width = 120;
  std::string flat = j.dump();
  if (flat.size() + static_cast<std::size_t>(indent) <= width || !j.is_structured() || j.empty()) {
    out += flat;
    return;
  }
  const std::string pad(static_cast<std::size_t>(indent) + 1, ' ');
  out += j.is_object() ? "{\n" : "[\n";
  bool first = true;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (!first) out += ",\n";
    first = false;
    out += pad;
    if (j.is_object()) out += nlohmann::ordered_json(it.key()).dump() + ": ";
    dump_compact(*it, indent + 1, out);
  }
  out += "\n" + std::string(static_cast<std::size_t>(indent), ' ') + (j.is_object() ? "}" : "]");
}

}  // namespace

std::string schedule_to_string(const Schedule& schedule) {
  std::string out;
  dump_compact(schedule_json_as<nlohmann::ordered_json>(schedule), 0, out);
  return out + "\n";
}

Expected<std::shared_ptr<const CostModel>> schedule_cost_model(const Schedule& schedule) {
  if (!schedule.costs) return std::shared_ptr<const CostModel>();
  auto cost = cost_model_from_setup(*schedule.costs);
  if (!cost) return cost.error().with_context("$.setup.costs");
  return std::make_shared<const CostModel>(std::move(*cost));
}

Expected<Schedule> schedule_from_json(const Json& j) {
  if (!j.is_object()) return Error::bad_input("$: expected a JSON object");
  auto format = ju::get_string(j, "format", "$");
  if (!format) return format.error();
  if (*format != kScheduleFormat)
    return Error::bad_input("$.format: \"" + *format + "\" is not \"" + kScheduleFormat + "\"");
  auto version = ju::get_int(j, "version", "$");
  if (!version) return version.error();
  if (*version != kScheduleVersion)
    return Error::bad_input("$.version: unsupported version " + std::to_string(*version) +
                            " (this program reads version " + std::to_string(kScheduleVersion) +
                            ")");
  auto view = plan_view(j);
  if (!view) return view.error();
  auto plan = plan_from_json(*view);
  if (!plan) return in_setup(plan.error());
  const Json& setup = j.at("setup");
  auto replicas = ju::get_int(setup, "replicas", "$.setup");
  if (!replicas) return replicas.error();
  if (*replicas != plan->dp())
    return Error::bad_input("$.setup.replicas: " + std::to_string(*replicas) +
                            ", but $.replicas has " + std::to_string(plan->dp()) + " entries");
  const LegalityReport legality = check_legality(*plan);
  if (!legality.legal()) return Error::bad_input("illegal plan: " + legality.summary());

  Schedule probe;
  if (const Json* costs = field(setup, "costs")) {
    CostSetup cs;
    // The overrides reader names paths from its own root: "$.model" is "$.setup.costs.model".
    if (Status s = apply_cost_overrides(*costs, cs, ""); !s) {
      Error e = s.error();
      if (e.message.rfind("$", 0) == 0) e.message = "$.setup.costs" + e.message.substr(1);
      return e;
    }
    probe.costs = cs;
  }
  auto cost = schedule_cost_model(probe);
  if (!cost) return cost.error();
  if (*cost && ((*cost)->stages() != plan->stages || (*cost)->parallel().dp != plan->dp()))
    return Error::bad_input("$.setup.costs.parallel: pp " + std::to_string((*cost)->stages()) +
                            " and dp " + std::to_string((*cost)->parallel().dp) +
                            " differ from the schedule's " + std::to_string(plan->stages) +
                            " stages and " + std::to_string(plan->dp()) + " replicas");
  if (!*cost && !plan->has_explicit_times())
    return Error::bad_input(
        "$.setup.costs: null, but some pack has no explicit time: the schedule needs its cost "
        "setup");
  auto built = make_schedule(*plan, cost->get());
  if (!built) return built.error();
  // Everything the file states beyond the plan and the costs must be what they imply.
  Json expected = schedule_to_json(*built);
  expected["setup"].erase("costs");
  expected.erase("message_layout");
  // A file written before setup.model said where the model came from and gave its head
  // dimension, tied embeddings and attention bias reads as before: its costs fix them.
  Json& model = expected["setup"]["model"];
  const Json* written = field(setup, "model");
  if (model.is_object() && written != nullptr && written->is_object())
    for (const char* key : {"source", "head_dim", "tied_embeddings", "attention_bias"})
      if (!written->contains(key)) model.erase(key);
  if (std::string d = first_difference(expected, j, "$"); !d.empty()) return Error::bad_input(d);
  return built;
}

Expected<Schedule> read_schedule_file(const std::string& path) {
  auto j = ju::parse_file(path);
  if (!j) return j.error();
  auto s = schedule_from_json(*j);
  if (!s) return s.error().with_context(path);
  return s;
}

}  // namespace slimpack
