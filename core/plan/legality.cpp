#include "plan/legality.h"

#include <algorithm>
#include <cstdio>

#include "common/format.h"

#include "plan/legality_detail.h"
#include "plan/schedule_order.h"

namespace slimpack {

using legality_detail::Collector;
using legality_detail::SegmentsBySeq;

const char* rule_name(Rule r) {
  switch (r) {
    case Rule::Structure:
      return "structure";
    case Rule::L1:
      return "L1";
    case Rule::L2:
      return "L2";
    case Rule::L3:
      return "L3";
    case Rule::L4:
      return "L4";
    case Rule::L5:
      return "L5";
    case Rule::L6:
      return "L6";
  }
  return "structure";
}

std::string LegalityReport::summary() const {
  return violations.empty() ? std::string() : violations.front().message;
}

namespace legality_detail {

void Collector::add(Rule rule, int replica, Pass pass, int pack, SeqIndex seq, std::string message,
                    int stage, double needed, double cap) {
  if (full()) return;
  Violation v;
  v.rule = rule;
  v.replica = replica;
  v.pass = pass;
  v.pack = pack;
  v.stage = stage;
  v.seq = seq;
  v.needed = needed;
  v.cap = cap;
  v.message = std::string(rule_name(rule)) + ": " + std::move(message);
  report_.violations.push_back(std::move(v));
}

std::string Collector::pack_label(int replica, Pass pass, int pack) const {
  std::string s = std::string(pass_name(pass)) + " pack " + pack_name(pass, pack);
  if (plan_.dp() > 1) s += " of replica " + std::to_string(replica);
  return s;
}

std::string Collector::seq_name(SeqIndex seq) const {
  if (seq >= 0 && static_cast<std::size_t>(seq) < plan_.sequences.size())
    return plan_.sequences[static_cast<std::size_t>(seq)].id;
  return "#" + std::to_string(seq);
}

std::string Collector::range(Tokens begin, Tokens end) {
  return "[" + std::to_string(begin) + "," + std::to_string(end) + ")";
}

void segments_by_sequence(const Plan& plan, Pass pass, SegmentsBySeq& by_seq) {
  // Two sweeps (count, then place) in the same (replica, pack, position) order. Segments are
  // in range here: check_segments() ran first.
  by_seq.offset.assign(plan.sequences.size() + 1, 0);
  for (const ReplicaPlan& rp : plan.replicas)
    for (const Pack& pack : pass == Pass::Forward ? rp.forward : rp.backward)
      for (const Segment& seg : pack.segments)
        ++by_seq.offset[static_cast<std::size_t>(seg.seq) + 1];
  for (std::size_t q = 0; q + 1 < by_seq.offset.size(); ++q)
    by_seq.offset[q + 1] += by_seq.offset[q];
  by_seq.refs.resize(static_cast<std::size_t>(by_seq.offset.back()));
  // offset[q] serves as q's write cursor, then everything shifts back by one sequence.
  for (int r = 0; r < plan.dp(); ++r) {
    const ReplicaPlan& rp = plan.replicas[static_cast<std::size_t>(r)];
    const auto& packs = pass == Pass::Forward ? rp.forward : rp.backward;
    for (std::size_t p = 0; p < packs.size(); ++p)
      for (const Segment& seg : packs[p].segments)
        by_seq.refs[static_cast<std::size_t>(by_seq.offset[static_cast<std::size_t>(seg.seq)]++)] =
            SegRef{r, static_cast<std::int32_t>(p), &seg};
  }
  for (std::size_t q = by_seq.offset.size() - 1; q > 0; --q)
    by_seq.offset[q] = by_seq.offset[q - 1];
  by_seq.offset[0] = 0;
}

}  // namespace legality_detail

namespace {

// L3: on the last stage, backward pack b starts after forwards_before_backward(...) forward packs;
// every sequence it touches must have had its last token forwarded by then.
void check_readiness(Collector& out, const SegmentsBySeq& forward) {
  const Plan& plan = out.plan();
  if (plan.schedule == ScheduleKind::GPipe) return;
  // Forward pack index holding each sequence's last token (DP-merged copies share it, by L6).
  std::vector<int> last_pack(plan.sequences.size(), -1);
  for (std::size_t q = 0; q < forward.size(); ++q)
    for (const auto& ref : forward.of(q))
      if (ref.seg->end == plan.sequences[q].length) last_pack[q] = std::max(last_pack[q], ref.pack);
  // seen[q] == stamp when sequence q was already looked at in the current backward pack.
  std::vector<int> seen(plan.sequences.size(), -1);
  int stamp = 0;
  for (int r = 0; r < plan.dp() && !out.full(); ++r) {
    const ReplicaPlan& rp = plan.replicas[static_cast<std::size_t>(r)];
    const int mf = static_cast<int>(rp.forward.size());
    for (std::size_t b = 0; b < rp.backward.size(); ++b, ++stamp) {
      const int ready =
          forwards_before_backward(plan.schedule, mf, static_cast<int>(b), plan.warmup_extra);
      for (const auto& seg : rp.backward[b].segments) {
        int& mark = seen[static_cast<std::size_t>(seg.seq)];
        if (mark == stamp) continue;
        mark = stamp;
        const int last = last_pack[static_cast<std::size_t>(seg.seq)];
        if (last < ready) continue;
        const int bi = static_cast<int>(b);
        out.add(Rule::L3, r, Pass::Backward, bi, seg.seq,
                out.pack_label(r, Pass::Backward, bi) + " runs sequence " + out.seq_name(seg.seq) +
                    ", whose last slice is in forward pack " + pack_name(Pass::Forward, last) +
                    ", but only F1..F" + std::to_string(ready) +
                    " have run on the last stage before " + pack_name(Pass::Backward, bi) +
                    " (warmup_extra " + std::to_string(plan.warmup_extra) + ")");
      }
    }
  }
}

// L5: token cap per pack (a DP-merged segment counts with this replica's shard of tokens).
void check_token_cap(Collector& out, Tokens cap) {
  const Plan& plan = out.plan();
  if (cap <= 0) return;
  for (int r = 0; r < plan.dp(); ++r) {
    const ReplicaPlan& rp = plan.replicas[static_cast<std::size_t>(r)];
    for (Pass pass : {Pass::Forward, Pass::Backward}) {
      const auto& packs = pass == Pass::Forward ? rp.forward : rp.backward;
      for (std::size_t p = 0; p < packs.size(); ++p) {
        const Tokens t = packs[p].tokens();
        if (t <= cap) continue;
        const int pi = static_cast<int>(p);
        out.add(Rule::L5, r, pass, pi, -1,
                out.pack_label(r, pass, pi) + " holds " + std::to_string(t) +
                    " tokens, over the token cap of " + std::to_string(cap),
                -1, static_cast<double>(t), static_cast<double>(cap));
      }
    }
  }
}

// L4: peak memory of every stage of every replica under the cap.
void check_memory(Collector& out, const MemoryModel& memory) {
  const Plan& plan = out.plan();
  if (memory.capacity_bytes <= 0.0) return;
  const auto stages = static_cast<std::size_t>(plan.stages);
  if (memory.static_bytes.size() != stages || memory.activation_per_token.size() != stages ||
      memory.dkdv_per_context_token.size() != stages) {
    out.add(Rule::Structure, 0, Pass::Forward, -1, -1,
            "the memory model describes " + std::to_string(memory.static_bytes.size()) +
                " stages but the plan has " + std::to_string(plan.stages));
    return;
  }
  for (int r = 0; r < plan.dp(); ++r) {
    const std::vector<double> peaks = peak_memory_per_stage(plan, r, memory);
    for (int s = 0; s < plan.stages; ++s) {
      const double peak = peaks[static_cast<std::size_t>(s)];
      if (peak <= memory.capacity_bytes) continue;
      std::string where = "stage " + std::to_string(s);
      if (plan.dp() > 1) where += " of replica " + std::to_string(r);
      out.add(Rule::L4, r, Pass::Forward, -1, -1,
              where + " needs " + format_bytes(peak) + " at its peak, " +
                  format_bytes(peak - memory.capacity_bytes) + " over the cap of " +
                  format_bytes(memory.capacity_bytes),
              s, peak, memory.capacity_bytes);
    }
  }
}

}  // namespace

LegalityReport check_legality(const Plan& plan, const LegalityOptions& options,
                              std::size_t max_violations) {
  Collector out(plan, max_violations == 0 ? 1 : max_violations);
  if (!legality_detail::check_segments(out)) return out.take();
  // Per-thread buffers: see segments_by_sequence().
  thread_local SegmentsBySeq forward, backward;
  legality_detail::segments_by_sequence(plan, Pass::Forward, forward);
  legality_detail::segments_by_sequence(plan, Pass::Backward, backward);
  legality_detail::check_coverage(out, forward, backward);
  legality_detail::check_order(out, forward, backward);
  check_readiness(out, forward);
  check_token_cap(out, options.token_cap);
  if (options.memory != nullptr) check_memory(out, *options.memory);
  return out.take();
}

}  // namespace slimpack
