#pragma once
// The one staleness rule every result view follows (docs/architecture.md, "Stale results"): the
// Gantt, metrics, memory chart and workload statistics, the sweep, the comparison, the search, and
// the exports of what they show. A view keeps the inputs its result was computed for (its basis)
// and compares them with the inputs now in force; whether they match, whether a job runs and
// whether the last job failed decide how the view shows its result:
//
//   no result                                   Current     nothing to grey (Computing while
//                                                           the first one is computed)
//   basis = now, nothing runs                   Current     in colour
//   basis = now, a job runs again               Refreshing  a "computing" tag; still in colour
//   basis != now, a job for the new inputs runs Computing   a tag, and greyed once the job takes
//                                                           longer than a moment (slider drags
//                                                           solve within it and do not flicker)
//   basis != now, the job failed                Failed      greyed under the reason
//   basis != now, nothing runs (cancelled, or   Stale       greyed under a banner that says what
//   not asked yet)                                          it shows and how to update it
//
// Greyed means all of it: the picture and the numbers in it are drawn without colour and lighter
// (black values turn grey), markers included, and a greyed result is not exported as current.
namespace slimpack::ui {

enum class Freshness { Current, Refreshing, Computing, Failed, Stale };

// The rule itself. `has_result`: the view shows a result; `basis_matches`: it was computed for the
// inputs now in force; `running`: a job that will replace it runs; `failed`: the newest job for
// the current inputs failed.
constexpr Freshness freshnessOf(bool has_result, bool basis_matches, bool running,
                                bool failed = false) {
  if (!has_result)
    return running ? Freshness::Computing : failed ? Freshness::Failed : Freshness::Current;
  if (basis_matches) return running ? Freshness::Refreshing : Freshness::Current;
  if (running) return Freshness::Computing;
  return failed ? Freshness::Failed : Freshness::Stale;
}

// Whether the view is greyed now (Computing greys after StateFrame::kComputingDelayMs).
constexpr bool greyedAtOnce(Freshness f) {
  return f == Freshness::Failed || f == Freshness::Stale;
}

// Whether the result describes the current inputs, so that an export of it may go out as such.
constexpr bool exportable(Freshness f) {
  return f == Freshness::Current || f == Freshness::Refreshing;
}

}  // namespace slimpack::ui
