#include "window/session_check.h"

#include <optional>

#include "app/input_file.h"
#include "app/scenario.h"

namespace slimpack::ui {

Status check_session_inputs(const SessionFile& session, const std::string& source) {
  const auto fail = [&](const char* where, const Error& e) {
    return Error{e.kind, source + ": " + where + ": " + e.message};
  };
  std::optional<PlanShape> shape;
  if (!session.plan_file.empty()) {
    auto loaded = load_input_file(session.plan_file);
    if (!loaded) return fail("$.plan_file", loaded.error());
    if (loaded->kind != InputKind::Plan || !loaded->plan)
      return fail("$.plan_file", Error::bad_input(session.plan_file + ": not a plan"));
    shape = PlanShape{loaded->plan->stages, loaded->plan->dp()};
  }
  auto cost = make_cost_model(session.config, shape);
  if (!cost) return fail("$.config", cost.error());
  auto pool = load_pool(session.workload);
  if (!pool) return fail("$.workload", pool.error());
  auto batch = make_batch(**pool, session.workload);
  if (!batch) return fail("$.workload", batch.error());
  return Status::success();
}

}  // namespace slimpack::ui
