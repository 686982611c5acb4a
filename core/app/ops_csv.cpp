#include "app/ops_csv.h"

#include <cstdio>

#include "plan/pack_name.h"

namespace slimpack {

std::string ops_csv(const Plan& plan, const SimResult& result) {
  std::string out = "replica,stage,kind,pack,name,start,end,duration,tokens\n";
  char buf[256];
  for (std::size_t r = 0; r < result.replicas.size(); ++r) {
    const ReplicaPlan* rp = r < plan.replicas.size() ? &plan.replicas[r] : nullptr;
    const auto& stages = result.replicas[r].stages;
    for (std::size_t s = 0; s < stages.size(); ++s) {
      for (const TimedOp& op : stages[s].ops) {
        std::string pack, name, tokens;
        if (op.pack >= 0 && rp && (op.kind == OpKind::Forward || op.kind == OpKind::Backward)) {
          const auto& packs = op.kind == OpKind::Forward ? rp->forward : rp->backward;
          const Pass pass = op.kind == OpKind::Forward ? Pass::Forward : Pass::Backward;
          pack = std::to_string(op.pack);
          name = pack_name(pass, op.pack);
          if (static_cast<std::size_t>(op.pack) < packs.size())
            tokens = std::to_string(packs[static_cast<std::size_t>(op.pack)].tokens());
        }
        std::snprintf(buf, sizeof buf, "%zu,%zu,%s,%s,%s,%.9g,%.9g,%.9g,%s\n", r, s,
                      op_kind_name(op.kind), pack.c_str(), name.c_str(), op.start, op.end,
                      op.duration(), tokens.c_str());
        out += buf;
      }
    }
  }
  return out;
}

}  // namespace slimpack
