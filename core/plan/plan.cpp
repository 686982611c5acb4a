#include "plan/plan.h"

namespace slimpack {

const char* schedule_name(ScheduleKind k) {
  switch (k) {
    case ScheduleKind::OneFOneB:
      return "1f1b";
    case ScheduleKind::GPipe:
      return "gpipe";
    case ScheduleKind::Interleaved:
      return "interleaved";
  }
  return "1f1b";
}

bool parse_schedule(const std::string& name, ScheduleKind& out) {
  if (name == "1f1b")
    out = ScheduleKind::OneFOneB;
  else if (name == "gpipe")
    out = ScheduleKind::GPipe;
  else if (name == "interleaved")
    out = ScheduleKind::Interleaved;
  else
    return false;
  return true;
}

double Segment::attention_pairs() const {
  const double l = static_cast<double>(end - begin);
  const double o = static_cast<double>(begin);
  return (l * o + l * (l + 1.0) / 2.0) / static_cast<double>(shards);
}

Tokens Pack::tokens() const {
  Tokens t = 0;
  for (const auto& s : segments)
    t += s.tokens() / s.shards + (s.shard < s.tokens() % s.shards ? 1 : 0);
  return t;
}

double Pack::attention_pairs() const {
  double a = 0.0;
  for (const auto& s : segments) a += s.attention_pairs();
  return a;
}

Tokens Plan::total_tokens() const {
  Tokens t = 0;
  for (const auto& s : sequences) t += s.length;
  return t;
}

SeqIndex Plan::find_sequence(const std::string& id) const {
  for (std::size_t i = 0; i < sequences.size(); ++i)
    if (sequences[i].id == id) return static_cast<SeqIndex>(i);
  return -1;
}

bool Plan::has_explicit_times() const {
  for (const auto& r : replicas) {
    for (const auto* list : {&r.forward, &r.backward})
      for (const auto& p : *list)
        if (!p.time && p.stage_times.empty()) return false;
  }
  return true;
}

}  // namespace slimpack
