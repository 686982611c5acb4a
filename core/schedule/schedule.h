#pragma once
// The executable schedule (docs/file-formats-schedule.md): a plan with everything a runtime needs
// to run it: the model and its split over stages, the recompute per stage, the sequences cut into
// atoms, the packs as atom ranges, and per rank the ordered actions with peers, tags and sizes.
// Built from the same stage_order() and DAG rules the simulator uses; replay_schedule()
// interprets the action lists alone and must agree with simulate() op for op.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "cost/cost_json.h"
#include "cost/cost_model.h"
#include "plan/plan.h"

namespace slimpack {

inline constexpr const char* kScheduleFormat = "slimpack-schedule";
inline constexpr int kScheduleVersion = 1;

enum class ActionOp : std::uint8_t { Forward, Backward, SendF, RecvF, SendB, RecvB, AllReduce };
const char* action_op_name(ActionOp op);  // "F", "B", "SEND_F", "RECV_F", "SEND_B", "RECV_B", ...
bool parse_action_op(const std::string& name, ActionOp& out);

struct ScheduleAction {
  ActionOp op = ActionOp::Forward;
  std::int32_t pack = -1;  // F/B/SEND/RECV: the pack; -1 for ALLREDUCE
  std::int32_t peer = -1;  // SEND/RECV: the other rank
  std::int32_t tag = -1;   // SEND/RECV: Mf + pack for gradients, pack for activations
  Tokens tokens = 0;       // SEND/RECV: rows of the message
  double bytes = 0.0;      // SEND/RECV/ALLREDUCE: the cost model's size (0 without a model)
  std::vector<std::int32_t> group;  // ALLREDUCE: the ranks of the stage, every replica

  bool operator==(const ScheduleAction&) const = default;
};

struct ScheduleRank {
  int rank = 0;
  int replica = 0;
  int stage = 0;
  int first_layer = 0;
  int layers = 0;
  int recompute = 0;
  std::vector<ScheduleAction> actions;
};

// Atoms [first, last) of one sequence, with the forward pack that computed them (consumes) or
// -1 (frees).
struct AtomRun {
  SeqIndex seq = 0;
  std::int32_t first = 0;
  std::int32_t last = 0;
  std::int32_t forward_pack = -1;
  bool operator==(const AtomRun&) const = default;
};

struct BackwardPackUse {
  std::vector<AtomRun> consumes;
  std::vector<AtomRun> frees;
};

struct Schedule {
  Plan plan;  // sequences (with sample indices), packs, stages, schedule, recompute per stage
  // The cost setup the plan was priced with, with the stage split made explicit; empty for a plan
  // whose packs carry explicit times.
  std::optional<CostSetup> costs;
  std::vector<int> stage_layers;  // explicit, one per stage (empty without costs)
  // Per sequence: cut points 0 = a0 < ... < an = length (every begin/end of its segments).
  std::vector<std::vector<Tokens>> atoms;
  std::vector<int> sequence_replica;               // per sequence: the replica training it
  std::vector<std::vector<BackwardPackUse>> uses;  // [replica][backward pack]
  std::vector<ScheduleRank> ranks;                 // rank = replica * stages + stage

  int rank_of(int replica, int stage) const { return replica * plan.stages + stage; }
};

// Builds the schedule of `plan` priced by `cost` (null for an explicit-time plan). Refuses, with a
// message naming the part, what the format cannot express: interleaved schedules and DP-Merge
// shards. The plan must be legal (the simulator's legality check).
Expected<Schedule> make_schedule(const Plan& plan, const CostModel* cost);

// The cost setup that rebuilds `cost` exactly: its model, GPU, parallel configuration with the
// stage split explicit, options and coefficients.
CostSetup cost_setup_of(const CostModel& cost);

// JSON I/O. Reading checks the structure (naming the JSON path), rebuilds the plan and the cost
// model from the setup alone, and checks that the atoms, consumes/frees and every rank's actions
// are exactly what make_schedule() gives for that plan (naming the first difference).
nlohmann::json schedule_to_json(const Schedule& schedule);
std::string schedule_to_string(const Schedule& schedule);
Expected<Schedule> schedule_from_json(const nlohmann::json& j);
Expected<Schedule> read_schedule_file(const std::string& path);
// True when the JSON document says "format": "slimpack-schedule".
bool is_schedule_json(const nlohmann::json& j);

// The cost model of a schedule's setup; null for an explicit-time schedule.
Expected<std::shared_ptr<const CostModel>> schedule_cost_model(const Schedule& schedule);

// One compute or send action timed by the replay.
struct ReplayedOp {
  int rank = 0;
  ScheduleAction action;
  double start = 0.0;
  double end = 0.0;
};

struct Replay {
  std::vector<ReplayedOp> ops;  // per rank, in action order
  double iteration_time = 0.0;  // every rank finished (DP sync included)
};

// Interprets the ranks' action lists alone with the timing semantics of
// docs/file-formats-schedule.md (compute in order, asynchronous sends FIFO per direction, receives
// wait for the message, ALLREDUCE a collective after each member's last backward). A schedule
// whose actions can never all run (a receive without its send) is an Internal error naming it.
Expected<Replay> replay_schedule(const Schedule& schedule, const CostModel* cost);

}  // namespace slimpack
