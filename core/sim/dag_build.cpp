// Builds one replica's DAG: compute nodes F/B(stage, pack, chunk), P2P send nodes, DP sync and
// optimizer nodes, each with its predecessors (data flow and per-stage stream order, which also
// carries last-stage readiness) in the fixed slots of NodePreds.
//
// Modelling choices (documented here because results depend on them):
// - P2P sends run on a comm stream, not the compute stream. Each stage has one send channel per
//   direction (activations forward, gradients backward); a channel is FIFO in the order the stage
//   issues its ops, so a send starts when its op ends and the previous send on the channel ended.
// - Interleaved plans are p*v virtual stages: chunk c of stage s is virtual stage c*p + s; the last
//   stage's chunk c sends activations to stage 0's chunk c+1 (and gradients the other way).
// - A backward op needs the forward op (same stage and chunk) of every forward pack holding its
//   tokens (their activations live there); on the last virtual stage it also needs the pack holding
//   the last slice of each of its sequences. Because forwards run in pack order on a stream, one
//   edge from the highest such pack suffices.
// - The optimizer step is a zero-duration node after the stage's last op and its DP sync.
#include <algorithm>
#include <string>
#include <vector>

#include "plan/pack_name.h"
#include "plan/schedule_order.h"
#include "sim/dag.h"

namespace slimpack::sim_detail {
namespace {

// Validates and prices every pack on every stage, calling write(pack, stage, time).
template <typename Write>
Status pack_durations(const Plan& plan, int replica, Pass pass, const std::vector<Pack>& packs,
                      const CostModel* cost, Write&& write) {
  const int p = plan.stages;
  for (std::size_t m = 0; m < packs.size(); ++m) {
    const Pack& pack = packs[m];
    auto where = [&] {
      return "replica " + std::to_string(replica) + " " +
             (pass == Pass::Forward ? "forward" : "backward") + " pack " +
             pack_name(pass, static_cast<std::int32_t>(m));
    };
    if (!pack.stage_times.empty() && static_cast<int>(pack.stage_times.size()) != p)
      return Error::bad_input(where() + ": stage_times has " +
                              std::to_string(pack.stage_times.size()) + " entries, expected " +
                              std::to_string(p));
    if (pack.stage_times.empty() && !pack.time && cost == nullptr)
      return Error::bad_input(where() + ": no explicit time and no cost model to price it");
    // CostModel::pack_time() term by term: the pack's tokens and attention pairs are the same on
    // every stage, so they are summed once instead of once per stage (same values, same bits).
    const bool priced = pack.stage_times.empty() && !pack.time;
    const double tokens = priced ? static_cast<double>(pack.tokens()) : 0.0;
    const double pairs = priced ? cost->effective_pairs(pack) : 0.0;
    // merge_comm_time() is a sum over DP-merged segments only: +0.0 (which adds nothing) without.
    const bool merged = std::any_of(pack.segments.begin(), pack.segments.end(),
                                    [](const Segment& seg) { return seg.shards > 1; });
    for (int s = 0; s < p; ++s) {
      double t = 0.0;
      if (!pack.stage_times.empty())
        t = pack.stage_times[static_cast<std::size_t>(s)];
      else if (pack.time)
        t = *pack.time;
      else
        t = cost->time(pass, s, tokens, pairs, plan.recompute_at(s)) +
            (merged ? cost->merge_comm_time(pack, s) : 0.0);
      if (!(t >= 0.0))
        return Error::bad_input(where() + ": negative or invalid time on stage " +
                                std::to_string(s));
      write(static_cast<int>(m), s, t);
    }
  }
  return Status::success();
}

struct ForwardSpan {
  SeqIndex seq;
  Tokens begin;
  Tokens end;
  std::int32_t pack;
};

// For every backward pack: the highest forward pack holding any of its tokens (`any`), and that
// or the pack holding the last slice of one of its sequences, whichever is higher (`last`).
struct BackwardNeeds {
  std::vector<std::int32_t> any;
  std::vector<std::int32_t> last;
};

Expected<BackwardNeeds> backward_needs(const Plan& plan, int replica) {
  const ReplicaPlan& rp = plan.replicas[static_cast<std::size_t>(replica)];
  const auto nseq = static_cast<SeqIndex>(plan.sequences.size());
  std::vector<ForwardSpan> spans;
  for (std::size_t m = 0; m < rp.forward.size(); ++m)
    for (const Segment& seg : rp.forward[m].segments) {
      if (seg.seq < 0 || seg.seq >= nseq)
        return Error::bad_input("replica " + std::to_string(replica) + " forward pack " +
                                pack_name(Pass::Forward, static_cast<std::int32_t>(m)) +
                                ": sequence index " + std::to_string(seg.seq) + " out of range");
      spans.push_back({seg.seq, seg.begin, seg.end, static_cast<std::int32_t>(m)});
    }
  // Forward packs usually hold sequences in order already; sorting costs only when they do not.
  const auto by_sequence = [](const ForwardSpan& a, const ForwardSpan& b) {
    return a.seq != b.seq ? a.seq < b.seq : a.begin < b.begin;
  };
  if (!std::is_sorted(spans.begin(), spans.end(), by_sequence))
    std::sort(spans.begin(), spans.end(), by_sequence);
  std::vector<std::int32_t> last_pack(static_cast<std::size_t>(nseq), -1);
  std::vector<Tokens> last_end(static_cast<std::size_t>(nseq), -1);
  for (const ForwardSpan& f : spans) {
    const auto i = static_cast<std::size_t>(f.seq);
    if (f.end > last_end[i] || (f.end == last_end[i] && f.pack > last_pack[i])) {
      last_end[i] = f.end;
      last_pack[i] = f.pack;
    }
  }
  BackwardNeeds needs;
  needs.any.assign(rp.backward.size(), -1);
  needs.last.assign(rp.backward.size(), -1);
  for (std::size_t b = 0; b < rp.backward.size(); ++b) {
    std::int32_t any = -1, last = -1;
    for (const Segment& seg : rp.backward[b].segments) {
      if (seg.seq < 0 || seg.seq >= nseq)
        return Error::bad_input("replica " + std::to_string(replica) + " backward pack " +
                                pack_name(Pass::Backward, static_cast<std::int32_t>(b)) +
                                ": sequence index " + std::to_string(seg.seq) + " out of range");
      // Spans of this sequence that overlap [begin, end): spans of one sequence may overlap only
      // in illegal plans, so scan from the first span that could reach `begin`.
      auto it = std::lower_bound(spans.begin(), spans.end(), seg.seq,
                                 [](const ForwardSpan& f, SeqIndex s) { return f.seq < s; });
      for (; it != spans.end() && it->seq == seg.seq && it->begin < seg.end; ++it)
        if (it->end > seg.begin) any = std::max(any, it->pack);
      last = std::max(last, last_pack[static_cast<std::size_t>(seg.seq)]);
    }
    needs.any[b] = any;
    needs.last[b] = std::max(any, last);
  }
  return needs;
}

// The sizes of one replica's DAG: compute node ids are fixed (forwards, then backwards, by stage,
// chunk and pack); P2P, DP sync and optimizer nodes follow as they are created.
struct DagShape {
  int p = 1;   // stages
  int v = 1;   // virtual chunks per stage
  int mf = 0;  // forward packs
  int mb = 0;  // backward packs
  int nf = 0;  // forward compute nodes (p * v * mf)
  int virtual_stages = 1;
  bool model_dp_sync = false;
  std::size_t compute = 0;  // forward + backward compute nodes
  std::size_t sends = 0;    // P2P send nodes
  std::size_t max_nodes = 0;
  std::int32_t fid(int s, int c, int m) const { return (s * v + c) * mf + m; }
  std::int32_t bid(int s, int c, int b) const { return nf + (s * v + c) * mb + b; }
};

DagShape dag_shape(const Plan& plan, int replica, const CostModel* cost) {
  const ReplicaPlan& rp = plan.replicas[static_cast<std::size_t>(replica)];
  DagShape d;
  d.p = plan.stages;
  d.mf = static_cast<int>(rp.forward.size());
  d.mb = static_cast<int>(rp.backward.size());
  // Stage orders are produced one stage at a time (here for the chunk count, then again while
  // emitting) so that only one stage's order is ever alive. Only an interleaved order has chunks
  // (and it may fall back to one chunk), so the others skip this pass.
  if (plan.schedule == ScheduleKind::Interleaved && plan.vchunks > 1)
    for (int s = 0; s < d.p; ++s)
      for (const OrderedOp& op :
           stage_order(plan.schedule, d.p, s, d.mf, d.mb, plan.warmup_extra, plan.vchunks))
        d.v = std::max(d.v, op.chunk + 1);
  d.nf = d.p * d.v * d.mf;
  d.virtual_stages = d.p * d.v;
  d.model_dp_sync = plan.dp() > 1 && cost != nullptr && cost->options().include_dp_sync;
  d.compute = static_cast<std::size_t>(d.nf + d.p * d.v * d.mb);
  d.sends = static_cast<std::size_t>(std::max(0, d.virtual_stages - 1)) *
            static_cast<std::size_t>(d.mf + d.mb);
  d.max_nodes = d.compute + d.sends + (d.model_dp_sync ? 2 : 1) * static_cast<std::size_t>(d.p);
  return d;
}

// Times of every pack of one pass on every stage, pack by pack.
std::size_t pack_table_size(const DagShape& d) {
  return static_cast<std::size_t>(std::max(d.mf, d.mb)) * static_cast<std::size_t>(d.p);
}

// One arena block for the DAG, the schedule evaluate() computes on it and the pack-time table.
void carve_arena(const DagShape& d, ReplicaDag& dag, Array<double>& pack_times) {
  using I = std::int32_t;
  const std::size_t bytes =
      Arena::bytes_for(d.max_nodes, sizeof(DagNode)) +
      Arena::bytes_for(d.max_nodes, sizeof(NodeTime)) + Arena::bytes_for(d.max_nodes, sizeof(I)) +
      Arena::bytes_for(d.compute, sizeof(I)) + Arena::bytes_for(d.sends, sizeof(I)) +
      Arena::bytes_for(pack_table_size(d), sizeof(double));
  dag.arena->reserve(bytes);
  dag.nodes.take(*dag.arena, d.max_nodes);
  dag.times.take(*dag.arena, d.max_nodes);
  dag.scratch.take(*dag.arena, d.max_nodes);
  dag.stage_ops.take(*dag.arena, d.compute);
  dag.stage_comm.take(*dag.arena, d.sends);
  pack_times.take(*dag.arena, pack_table_size(d));
}

// A compute node as priced: a source (start 0, cause -1) until a stage's stream lists it, which
// makes it pending. Its slots are filled as the stages are walked (the message slot of a
// forward by the stage before it, of a backward by the stage after it).
NodeTime fresh_time(double duration) {
  return {0.0, duration, -1, {{-1, -1, -1}}};
}

// Prices every F and B pack on every stage into its compute node (a chunk takes 1/v of it). The
// prices go pack by pack into a table (so that errors name the first bad pack, as a reader
// expects), and the nodes are then written stage by stage: each stage's nodes are one run, so
// the writes stream instead of striding across every stage's run at once.
Status add_compute_nodes(const Plan& plan, int replica, const CostModel* cost, const DagShape& d,
                         Array<double>& table, ReplicaDag& dag) {
  const ReplicaPlan& rp = plan.replicas[static_cast<std::size_t>(replica)];
  const double inv_v = 1.0 / d.v;
  const auto p = static_cast<std::size_t>(d.p);
  auto pass_nodes = [&](Pass pass, const std::vector<Pack>& packs) -> Status {
    Status priced = pack_durations(plan, replica, pass, packs, cost, [&](int m, int s, double t) {
      table[static_cast<std::size_t>(m) * p + static_cast<std::size_t>(s)] = t * inv_v;
    });
    if (!priced) return priced;
    const bool fwd = pass == Pass::Forward;
    const OpKind kind = fwd ? OpKind::Forward : OpKind::Backward;
    const int n = static_cast<int>(packs.size());
    for (int s = 0; s < d.p; ++s)
      for (int c = 0; c < d.v; ++c) {
        const auto first = static_cast<std::size_t>(fwd ? d.fid(s, c, 0) : d.bid(s, c, 0));
        DagNode* nodes = dag.nodes.data() + first;
        NodeTime* times = dag.times.data() + first;
        const double* t = table.data() + s;
        for (int m = 0; m < n; ++m) {
          nodes[m] = {m, static_cast<std::int16_t>(s), static_cast<std::int8_t>(c), kind, pass};
          times[m] = fresh_time(t[static_cast<std::size_t>(m) * p]);
        }
      }
    return Status::success();
  };
  if (Status st = pass_nodes(Pass::Forward, rp.forward); !st) return st;
  return pass_nodes(Pass::Backward, rp.backward);
}

// Fills one replica's predecessor slots (and creates its P2P, DP sync and optimizer nodes) in one
// pass, stage by stage, taking each stage's stream order from stage_order() and recording it in
// stage_ops, so that only one stage's order is alive at a time.
class PredEmitter {
 public:
  PredEmitter(const Plan& plan, int replica, const CostModel* cost, const DagShape& shape,
              const BackwardNeeds& needs, ReplicaDag& dag)
      : plan_(plan), d_(shape), needs_(needs), dag_(dag) {
    const ReplicaPlan& rp = plan.replicas[static_cast<std::size_t>(replica)];
    fsend_time_.resize(static_cast<std::size_t>(d_.mf));
    bsend_time_.resize(static_cast<std::size_t>(d_.mb));
    if (d_.virtual_stages > 1) {
      const auto p2p_time = [&](const Pack& pack) {
        return cost ? cost->p2p_time(static_cast<double>(pack.tokens())) : plan.p2p_latency;
      };
      for (std::size_t m = 0; m < fsend_time_.size(); ++m) fsend_time_[m] = p2p_time(rp.forward[m]);
      for (std::size_t b = 0; b < bsend_time_.size(); ++b)
        bsend_time_[b] = p2p_time(rp.backward[b]);
    }
    sync_time_.assign(static_cast<std::size_t>(d_.p), 0.0);
    if (d_.model_dp_sync)
      for (int s = 0; s < d_.p; ++s)
        sync_time_[static_cast<std::size_t>(s)] = cost->dp_sync_time(s);
  }

  void emit() {
    for (int s = 0; s < d_.p; ++s) {
      StageCursor cur;
      cur.s = s;
      for (const OrderedOp& op :
           stage_order(plan_.schedule, d_.p, s, d_.mf, d_.mb, plan_.warmup_extra, plan_.vchunks))
        add_op(cur, op);
      close_stage(cur);
    }
  }
  std::size_t nodes_created() const { return static_cast<std::size_t>(next_id_); }
  std::size_t ops_recorded() const { return n_ops_; }
  std::size_t sends_recorded() const { return n_comm_; }

 private:
  // What one stage's walk remembers: the previous op on the compute stream, the last send on
  // each channel and the last backward op.
  struct StageCursor {
    int s = 0;
    std::int32_t prev = -1, last_fsend = -1, last_bsend = -1, last_b = -1;
  };

  std::int32_t new_node(const DagNode& node, double duration, const NodePreds& preds) {
    const auto id = static_cast<std::size_t>(next_id_);
    dag_.nodes[id] = node;
    dag_.times[id] = {0.0, duration, kPending, preds};
    return next_id_++;
  }

  void set(std::int32_t v, Slot slot, std::int32_t u) {
    dag_.times[static_cast<std::size_t>(v)].preds.slot[slot] = u;
  }

  // One compute op: its place in the stream, then its data flow and sends.
  void add_op(StageCursor& cur, const OrderedOp& op) {
    const bool fwd = op.pass == Pass::Forward;
    const std::int32_t id =
        fwd ? d_.fid(cur.s, op.chunk, op.pack) : d_.bid(cur.s, op.chunk, op.pack);
    dag_.stage_ops[n_ops_++] = id;
    dag_.times[static_cast<std::size_t>(id)].cause = kPending;
    set(id, kStream, cur.prev);
    cur.prev = id;
    if (fwd) {
      add_forward_send(cur, op, id);
      return;
    }
    cur.last_b = id;
    add_backward_needs(cur, op, id);
    add_backward_send(cur, op, id);
  }

  // Activations to the next virtual stage (stage s+1, or stage 0 of the next chunk).
  void add_forward_send(StageCursor& cur, const OrderedOp& op, std::int32_t id) {
    const int s = cur.s, c = op.chunk;
    if (c * d_.p + s + 1 >= d_.virtual_stages) return;
    const int rs = s + 1 < d_.p ? s + 1 : 0;
    const int rc = s + 1 < d_.p ? c : c + 1;
    add_send(op, s, Pass::Forward, fsend_time_[static_cast<std::size_t>(op.pack)], id,
             cur.last_fsend, d_.fid(rs, rc, op.pack));
  }

  // A backward op waits for the forward packs whose activations it uses. On the last stage it also
  // waits for the forwards the schedule runs before it (readiness, docs/design.md section 6): the
  // stream order already holds those (see NodePreds).
  void add_backward_needs(const StageCursor& cur, const OrderedOp& op, std::int32_t id) {
    const int s = cur.s, c = op.chunk;
    const auto b = static_cast<std::size_t>(op.pack);
    const std::int32_t need =
        c * d_.p + s + 1 == d_.virtual_stages ? needs_.last[b] : needs_.any[b];
    if (need >= 0) set(id, kActivations, d_.fid(s, c, need));
  }

  // Gradients to the previous virtual stage (stage s-1, or the last stage of the previous chunk).
  void add_backward_send(StageCursor& cur, const OrderedOp& op, std::int32_t id) {
    const int s = cur.s, c = op.chunk;
    if (c * d_.p + s == 0) return;
    const int rs = s > 0 ? s - 1 : d_.p - 1;
    const int rc = s > 0 ? c : c - 1;
    add_send(op, s, Pass::Backward, bsend_time_[static_cast<std::size_t>(op.pack)], id,
             cur.last_bsend, d_.bid(rs, rc, op.pack));
  }

  // One P2P send of `op` from stage s: after the op itself and the stage's previous send of the
  // same direction (one link, in order), before the receiving op `to`.
  void add_send(const OrderedOp& op, int s, Pass pass, double time, std::int32_t from,
                std::int32_t& last_send, std::int32_t to) {
    const std::int32_t send = new_node({op.pack, static_cast<std::int16_t>(s),
                                        static_cast<std::int8_t>(op.chunk), OpKind::P2P, pass},
                                       time, {{from, last_send, -1}});
    last_send = send;
    set(to, kMessage, send);
    dag_.stage_comm[n_comm_++] = send;
  }

  // The stage's DP gradient sync (after its last backward) and optimizer step (after everything).
  void close_stage(const StageCursor& cur) {
    const auto s = static_cast<std::size_t>(cur.s);
    const auto s16 = static_cast<std::int16_t>(cur.s);
    std::int32_t sync = -1;
    if (d_.model_dp_sync && cur.last_b >= 0)
      sync = new_node({-1, s16, 0, OpKind::DpSync, Pass::Backward}, sync_time_[s],
                      {{cur.last_b, -1, -1}});
    const std::int32_t opt =
        new_node({-1, s16, 0, OpKind::Optimizer, Pass::Backward}, 0.0, {{cur.prev, sync, -1}});
    dag_.dp_sync[s] = sync;
    dag_.optimizer[s] = opt;
    dag_.stage_ops_begin[s + 1] = static_cast<std::int32_t>(n_ops_);
    dag_.stage_comm_begin[s + 1] = static_cast<std::int32_t>(n_comm_);
  }

  const Plan& plan_;
  const DagShape& d_;
  const BackwardNeeds& needs_;
  ReplicaDag& dag_;
  std::int32_t next_id_ = static_cast<std::int32_t>(d_.compute);  // P2P/sync/optimizer ids follow
  std::vector<double> fsend_time_;
  std::vector<double> bsend_time_;
  std::vector<double> sync_time_;
  std::size_t n_ops_ = 0;
  std::size_t n_comm_ = 0;
};

}  // namespace

Expected<ReplicaDag> build_replica_dag(const Plan& plan, int replica, const CostModel* cost) {
  const DagShape shape = dag_shape(plan, replica, cost);
  ReplicaDag dag;
  dag.replica = replica;
  dag.stages = shape.p;
  dag.vchunks = shape.v;
  dag.mf = shape.mf;
  dag.mb = shape.mb;
  Array<double> pack_times;
  carve_arena(shape, dag, pack_times);
  if (Status priced = add_compute_nodes(plan, replica, cost, shape, pack_times, dag); !priced)
    return priced.error();
  auto needs = backward_needs(plan, replica);
  if (!needs) return needs.error();

  const auto stages = static_cast<std::size_t>(shape.p);
  dag.stage_ops_begin.assign(stages + 1, 0);
  dag.stage_comm_begin.assign(stages + 1, 0);
  dag.dp_sync.assign(stages, -1);
  dag.optimizer.assign(stages, -1);

  PredEmitter emitter(plan, replica, cost, shape, *needs, dag);
  emitter.emit();
  dag.nodes.count = emitter.nodes_created();
  dag.times.count = emitter.nodes_created();
  dag.scratch.count = emitter.nodes_created();
  dag.stage_ops.count = emitter.ops_recorded();
  dag.stage_comm.count = emitter.sends_recorded();
  return dag;
}

}  // namespace slimpack::sim_detail
