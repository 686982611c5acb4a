// Structure (segments in range, exact coverage, DP-merged groups), L1/L2 order and L6 placement.
#include <algorithm>
#include <cmath>
#include <span>

#include "plan/legality_detail.h"

namespace slimpack::legality_detail {
namespace {

struct Range {
  Tokens begin = 0;
  Tokens end = 0;
};

// A token range counted once: an unmerged segment, or one DP-merged group (all its shards).
struct Cover {
  Tokens begin = 0;
  Tokens end = 0;
  const SegRef* first = nullptr;
  std::span<const int> replicas;  // sorted; the replicas that hold this range's K/V
};

// Buffers reused from one sequence to the next, so that checking a large plan allocates a few
// times in total instead of a few times per segment.
struct Scratch {
  std::vector<SegRef> refs;
  std::vector<Cover> covers;
  std::vector<int> replicas;  // backing store of every Cover::replicas of the current sequence
  std::vector<int> shard_seen;
  std::vector<int> common, next;
};

bool is_subset(std::span<const int> a, std::span<const int> b) {
  return std::includes(b.begin(), b.end(), a.begin(), a.end());
}

std::string replica_list(std::span<const int> rs) {
  std::string s;
  for (std::size_t i = 0; i < rs.size(); ++i) s += (i ? "," : "") + std::to_string(rs[i]);
  return (rs.size() == 1 ? "replica " : "replicas ") + s;
}

bool check_pack_fields(Collector& out, int r, Pass pass, int p, const Pack& pack) {
  const Plan& plan = out.plan();
  bool ok = true;
  if (pack.time && (!std::isfinite(*pack.time) || *pack.time < 0.0)) {
    out.add(Rule::Structure, r, pass, p, -1,
            out.pack_label(r, pass, p) + " has a negative or non-finite time");
  }
  if (!pack.stage_times.empty() &&
      pack.stage_times.size() != static_cast<std::size_t>(plan.stages)) {
    out.add(Rule::Structure, r, pass, p, -1,
            out.pack_label(r, pass, p) + " has " + std::to_string(pack.stage_times.size()) +
                " stage_times for " + std::to_string(plan.stages) + " stages");
  }
  for (std::size_t i = 0; i < pack.segments.size(); ++i) {
    const Segment& s = pack.segments[i];
    // Built only for a message: formatting it for every segment dominated large plans.
    auto at = [&] {
      return out.pack_label(r, pass, p) + " segment " + std::to_string(i + 1) + " ";
    };
    if (s.seq < 0 || static_cast<std::size_t>(s.seq) >= plan.sequences.size()) {
      out.add(Rule::Structure, r, pass, p, s.seq,
              at() + "names sequence index " + std::to_string(s.seq) + " but the plan has " +
                  std::to_string(plan.sequences.size()) + " sequences");
      ok = false;
      continue;
    }
    const Tokens len = plan.sequences[static_cast<std::size_t>(s.seq)].length;
    if (s.begin < 0 || s.end <= s.begin || s.end > len) {
      out.add(Rule::Structure, r, pass, p, s.seq,
              at() + "covers " + Collector::range(s.begin, s.end) + " of sequence " +
                  out.seq_name(s.seq) + " of length " + std::to_string(len) +
                  " (need 0 <= begin < end <= length)");
      ok = false;
    }
    if (s.shards < 1 || s.shards > plan.dp() || s.shard < 0 || s.shard >= s.shards) {
      out.add(Rule::Structure, r, pass, p, s.seq,
              at() + "has shard " + std::to_string(s.shard) + " of " + std::to_string(s.shards) +
                  " (need 1 <= shards <= " + std::to_string(plan.dp()) +
                  " replicas and 0 <= shard < shards)");
      ok = false;
    }
  }
  return ok;
}

// Collapses one pass's segments of a sequence (sorted here, in scratch.refs) into scratch.covers;
// reports broken DP-merged groups (structure) and groups whose copies sit at different pack
// indices (L6).
void build_covers(Collector& out, Pass pass, SeqIndex q, Scratch& scratch) {
  std::vector<SegRef>& refs = scratch.refs;
  std::sort(refs.begin(), refs.end(), [](const SegRef& a, const SegRef& b) {
    const Segment& x = *a.seg;
    const Segment& y = *b.seg;
    if (x.begin != y.begin) return x.begin < y.begin;
    if (x.end != y.end) return x.end < y.end;
    if (x.shards != y.shards) return x.shards < y.shards;
    if (a.replica != b.replica) return a.replica < b.replica;
    return x.shard < y.shard;
  });
  scratch.covers.clear();
  // Every cover's replica list lives in scratch.replicas; reserve it whole so spans stay valid.
  scratch.replicas.clear();
  scratch.replicas.reserve(refs.size());
  for (std::size_t i = 0; i < refs.size();) {
    const Segment& s = *refs[i].seg;
    std::size_t j = i + 1;
    if (s.shards > 1) {
      while (j < refs.size() && refs[j].seg->begin == s.begin && refs[j].seg->end == s.end &&
             refs[j].seg->shards == s.shards)
        ++j;
    }
    scratch.shard_seen.assign(static_cast<std::size_t>(s.shards), 0);
    bool complete = (j - i) == static_cast<std::size_t>(s.shards);
    const std::size_t first_replica = scratch.replicas.size();
    for (std::size_t k = i; k < j; ++k) {
      scratch.replicas.push_back(refs[k].replica);
      if (++scratch.shard_seen[static_cast<std::size_t>(refs[k].seg->shard)] > 1) complete = false;
    }
    const auto rbegin = scratch.replicas.begin() + static_cast<std::ptrdiff_t>(first_replica);
    std::sort(rbegin, scratch.replicas.end());
    if (std::adjacent_find(rbegin, scratch.replicas.end()) != scratch.replicas.end())
      complete = false;
    if (s.shards > 1 && !complete) {
      out.add(Rule::Structure, refs[i].replica, pass, refs[i].pack, q,
              "DP-merged segment " + Collector::range(s.begin, s.end) + " of sequence " +
                  out.seq_name(q) + " with " + std::to_string(s.shards) + " shards appears " +
                  std::to_string(j - i) + " times in " + Collector::pass_name(pass) +
                  " packs; it needs exactly one copy of each shard 0.." +
                  std::to_string(s.shards - 1) + ", each on a different replica");
    }
    for (std::size_t k = i + 1; k < j; ++k) {
      if (refs[k].pack == refs[i].pack) continue;
      out.add(Rule::L6, refs[k].replica, pass, refs[k].pack, q,
              "DP-merged segment " + Collector::range(s.begin, s.end) + " of sequence " +
                  out.seq_name(q) + " is in " +
                  out.pack_label(refs[i].replica, pass, refs[i].pack) + " but in " +
                  out.pack_label(refs[k].replica, pass, refs[k].pack) +
                  " (a DP-merged segment must sit at the same pack index on every replica of "
                  "its group)");
      break;
    }
    scratch.covers.push_back(
        Cover{s.begin, s.end, &refs[i],
              std::span<const int>(scratch.replicas.data() + first_replica, j - i)});
    i = j;
  }
}

// Every token exactly once (covers are sorted by begin).
void check_exact_cover(Collector& out, Pass pass, SeqIndex q, const std::vector<Cover>& covers) {
  const Tokens length = out.plan().sequences[static_cast<std::size_t>(q)].length;
  auto seq = [&] { return out.seq_name(q); };
  Tokens pos = 0;
  const Cover* reach = nullptr;  // the cover that reaches furthest so far
  for (const Cover& c : covers) {
    if (c.begin > pos) {
      out.add(Rule::Structure, c.first->replica, pass, -1, q,
              "tokens " + Collector::range(pos, c.begin) + " of sequence " + seq() + " are in no " +
                  Collector::pass_name(pass) + " pack");
    } else if (c.begin < pos && reach != nullptr) {
      out.add(Rule::Structure, c.first->replica, pass, c.first->pack, q,
              "tokens " + Collector::range(c.begin, std::min(pos, c.end)) + " of sequence " +
                  seq() + " are in " +
                  out.pack_label(reach->first->replica, pass, reach->first->pack) + " and in " +
                  out.pack_label(c.first->replica, pass, c.first->pack) +
                  " (each token must be in exactly one " + Collector::pass_name(pass) + " pack)");
    }
    if (c.end > pos) {
      pos = c.end;
      reach = &c;
    }
  }
  if (pos < length) {
    out.add(Rule::Structure, 0, pass, -1, q,
            "tokens " + Collector::range(pos, length) + " of sequence " + seq() + " are in no " +
                Collector::pass_name(pass) + " pack");
  }
}

// L6 (placement): a replica computing tokens of a sequence attends to (forward) or accumulates
// dK/dV into (backward) the whole prefix, so it must take part in every lower segment of it.
// Splitting a sequence across replicas is therefore only legal through DP-merged segments.
void check_prefix_locality(Collector& out, Pass pass, SeqIndex q, Scratch& scratch) {
  const std::vector<Cover>& covers = scratch.covers;
  std::vector<int>& common = scratch.common;  // replicas that hold every cover seen so far
  common.clear();
  bool first = true;
  for (const Cover& c : covers) {
    if (!first && !is_subset(c.replicas, common)) {
      for (const Cover& e : covers) {
        if (&e == &c || is_subset(c.replicas, e.replicas)) continue;
        out.add(Rule::L6, c.first->replica, pass, c.first->pack, q,
                out.pack_label(c.first->replica, pass, c.first->pack) + " runs tokens " +
                    Collector::range(c.begin, c.end) + " of sequence " + out.seq_name(q) + " on " +
                    replica_list(c.replicas) + ", but its tokens " +
                    Collector::range(e.begin, e.end) + " run on " + replica_list(e.replicas) +
                    " (a sequence split across replicas must be DP-merged so that every "
                    "replica holds the prefix it attends to)");
        return;
      }
    }
    if (first) {
      common.assign(c.replicas.begin(), c.replicas.end());
      first = false;
    } else {
      scratch.next.clear();
      std::set_intersection(common.begin(), common.end(), c.replicas.begin(), c.replicas.end(),
                            std::back_inserter(scratch.next));
      common.swap(scratch.next);
    }
  }
}

// Sorted, merged ranges a replica holds in one pass.
std::vector<Range> replica_ranges(std::span<const SegRef> refs, int replica) {
  std::vector<Range> rs;
  for (const auto& ref : refs)
    if (ref.replica == replica) rs.push_back({ref.seg->begin, ref.seg->end});
  std::sort(rs.begin(), rs.end(), [](const Range& a, const Range& b) { return a.begin < b.begin; });
  std::vector<Range> merged;
  for (const Range& x : rs) {
    if (!merged.empty() && x.begin <= merged.back().end)
      merged.back().end = std::max(merged.back().end, x.end);
    else
      merged.push_back(x);
  }
  return merged;
}

// First range of `a` not covered by `b` (both sorted and merged); begin == end when none.
Range first_difference(const std::vector<Range>& a, const std::vector<Range>& b) {
  for (const Range& x : a) {
    Tokens pos = x.begin;
    for (const Range& y : b) {
      if (y.end <= pos || y.begin >= x.end) continue;
      if (y.begin > pos) return {pos, y.begin};
      pos = y.end;
    }
    if (pos < x.end) return {pos, x.end};
  }
  return {0, 0};
}

// Each replica runs backward exactly the tokens it ran forward (activations stay on the replica).
void check_same_tokens(Collector& out, SeqIndex q, std::span<const SegRef> fwd,
                       std::span<const SegRef> bwd) {
  std::vector<int> replicas;
  for (const auto list : {fwd, bwd})
    for (const auto& ref : list) replicas.push_back(ref.replica);
  std::sort(replicas.begin(), replicas.end());
  replicas.erase(std::unique(replicas.begin(), replicas.end()), replicas.end());
  for (int r : replicas) {
    const auto f = replica_ranges(fwd, r);
    const auto b = replica_ranges(bwd, r);
    for (int dir = 0; dir < 2; ++dir) {
      const Range d = dir == 0 ? first_difference(f, b) : first_difference(b, f);
      if (d.begin == d.end) continue;
      out.add(Rule::Structure, r, dir == 0 ? Pass::Backward : Pass::Forward, -1, q,
              "replica " + std::to_string(r) + " runs tokens " + Collector::range(d.begin, d.end) +
                  " of sequence " + out.seq_name(q) +
                  (dir == 0 ? " forward but not backward" : " backward but not forward") +
                  " (a replica runs the backward of exactly the tokens it ran forward)");
      return;
    }
  }
}

}  // namespace

bool check_segments(Collector& out) {
  const Plan& plan = out.plan();
  if (plan.stages < 1) {
    out.add(Rule::Structure, 0, Pass::Forward, -1, -1,
            "the plan has " + std::to_string(plan.stages) + " stages (need at least 1)");
    return false;
  }
  if (plan.replicas.empty()) {
    out.add(Rule::Structure, 0, Pass::Forward, -1, -1, "the plan has no replica");
    return false;
  }
  if (plan.vchunks < 1)
    out.add(Rule::Structure, 0, Pass::Forward, -1, -1, "vchunks must be at least 1");
  if (plan.warmup_extra < 0)
    out.add(Rule::Structure, 0, Pass::Forward, -1, -1, "warmup_extra must not be negative");
  for (std::size_t i = 0; i < plan.sequences.size(); ++i) {
    if (plan.sequences[i].length >= 1) continue;
    out.add(Rule::Structure, 0, Pass::Forward, -1, static_cast<SeqIndex>(i),
            "sequence " + plan.sequences[i].id + " has length " +
                std::to_string(plan.sequences[i].length) + " (need at least 1 token)");
  }
  bool ok = true;
  for (int r = 0; r < plan.dp(); ++r) {
    const ReplicaPlan& rp = plan.replicas[static_cast<std::size_t>(r)];
    for (Pass pass : {Pass::Forward, Pass::Backward}) {
      const auto& packs = pass == Pass::Forward ? rp.forward : rp.backward;
      for (std::size_t p = 0; p < packs.size(); ++p)
        ok = check_pack_fields(out, r, pass, static_cast<int>(p), packs[p]) && ok;
    }
  }
  return ok;
}

// The overwhelmingly common case: one whole, unmerged segment per pass, forward and backward on
// the same replica. No structure rule can fail for such a sequence.
bool trivially_covered(std::span<const SegRef> fwd, std::span<const SegRef> bwd, Tokens length) {
  if (fwd.size() != 1 || bwd.size() != 1) return false;
  const Segment& f = *fwd[0].seg;
  const Segment& b = *bwd[0].seg;
  return fwd[0].replica == bwd[0].replica && f.shards == 1 && b.shards == 1 && f.begin == 0 &&
         b.begin == 0 && f.end == length && b.end == length;
}

void check_coverage(Collector& out, const SegmentsBySeq& forward, const SegmentsBySeq& backward) {
  const Plan& plan = out.plan();
  Scratch scratch;
  for (std::size_t q = 0; q < plan.sequences.size() && !out.full(); ++q) {
    const auto seq = static_cast<SeqIndex>(q);
    if (trivially_covered(forward.of(q), backward.of(q), plan.sequences[q].length)) continue;
    for (Pass pass : {Pass::Forward, Pass::Backward}) {
      const auto refs = pass == Pass::Forward ? forward.of(q) : backward.of(q);
      scratch.refs.assign(refs.begin(), refs.end());
      build_covers(out, pass, seq, scratch);
      check_exact_cover(out, pass, seq, scratch.covers);
      if (plan.dp() > 1) check_prefix_locality(out, pass, seq, scratch);
    }
    if (plan.dp() > 1) check_same_tokens(out, seq, forward.of(q), backward.of(q));
  }
}

void check_order(Collector& out, const SegmentsBySeq& forward, const SegmentsBySeq& backward) {
  std::vector<SegRef> refs;
  for (Pass pass : {Pass::Forward, Pass::Backward}) {
    const SegmentsBySeq& by_seq = pass == Pass::Forward ? forward : backward;
    for (std::size_t q = 0; q < by_seq.size() && !out.full(); ++q) {
      const auto all = by_seq.of(q);
      if (all.size() < 2) continue;  // nothing to order
      refs.assign(all.begin(), all.end());
      std::sort(refs.begin(), refs.end(), [](const SegRef& a, const SegRef& b) {
        if (a.replica != b.replica) return a.replica < b.replica;
        return a.seg->begin < b.seg->begin;
      });
      const auto seq = static_cast<SeqIndex>(q);
      for (std::size_t i = 1; i < refs.size(); ++i) {
        const SegRef& lo = refs[i - 1];
        const SegRef& hi = refs[i];
        if (lo.replica != hi.replica) continue;
        if (pass == Pass::Forward && lo.pack > hi.pack) {
          out.add(Rule::L1, hi.replica, pass, hi.pack, seq,
                  out.pack_label(hi.replica, pass, hi.pack) + " runs tokens " +
                      Collector::range(hi.seg->begin, hi.seg->end) + " of sequence " +
                      out.seq_name(seq) + " before " +
                      Collector::range(lo.seg->begin, lo.seg->end) + " in " +
                      pack_name(pass, lo.pack) +
                      " (forward must run a sequence's slices in order)");
          break;
        }
        if (pass == Pass::Backward && lo.pack < hi.pack) {
          out.add(Rule::L2, lo.replica, pass, lo.pack, seq,
                  out.pack_label(lo.replica, pass, lo.pack) + " runs tokens " +
                      Collector::range(lo.seg->begin, lo.seg->end) + " of sequence " +
                      out.seq_name(seq) + " before " +
                      Collector::range(hi.seg->begin, hi.seg->end) + " in " +
                      pack_name(pass, hi.pack) +
                      " (backward must run a sequence's slices in reverse order)");
          break;
        }
      }
    }
  }
}

}  // namespace slimpack::legality_detail
