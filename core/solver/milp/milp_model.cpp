// Rows of the phase-2 MILP. Order and readiness use the cumulative (prefix-sum) form: with
// X[i][<=m] = sum_{q<=m} x[i][q], "slice j is in a pack no later than slice j+1" is the linear
// family X[j][<=m] >= X[j+1][<=m] for all m, whose LP relaxation is much tighter than comparing
// pack indices sum_m m*x[i][m].
#include <cmath>
#include <utility>

#include "solver/milp/milp_layout.h"
#include "solver/milp/milp_model.h"

namespace slimpack::milp_detail {

namespace {

constexpr double kInf = 1e30;  // CBC's "no bound"

class RowBuilder {
 public:
  RowBuilder& add(int col, double coef) {
    if (coef != 0.0) {
      row_.cols.push_back(col);
      row_.coefs.push_back(coef);
    }
    return *this;
  }
  ModelRow done(double lo, double hi) {
    row_.lo = lo;
    row_.hi = hi;
    return std::move(row_);
  }

 private:
  ModelRow row_;
};

// Per-item quantity of one pass, for the balance, token and memory rows.
struct PassItems {
  std::vector<double> slice_q;
  std::vector<double> bucket_q;
};

// sum over items in pack m of q, as a row (x/nf for forward, y/nb for backward).
void add_pack_terms(RowBuilder& r, const Phase2Model& md, bool forward, int pack,
                    const PassItems& q, double scale) {
  for (int i = 0; i < md.slices; ++i) {
    r.add(forward ? md.x(i, pack) : md.y(i, pack), q.slice_q[i] * scale);
  }
  for (int k = 0; k < md.buckets; ++k) {
    r.add(forward ? md.nf(k, pack) : md.nb(k, pack), q.bucket_q[k] * scale);
  }
}

void add_columns(Phase2Model& md, const MilpPhase2Input& in) {
  const int n = md.zb() + 1;
  md.col_lo.assign(n, 0.0);
  md.col_hi.assign(n, 1.0);
  md.obj.assign(n, 0.0);
  md.is_int.assign(n, 1);
  for (int k = 0; k < md.buckets; ++k) {
    for (int m = 0; m < md.mf; ++m) md.col_hi[md.nf(k, m)] = in.buckets[k].count;
    for (int b = 0; b < md.mb; ++b) md.col_hi[md.nb(k, b)] = in.buckets[k].count;
  }
  // zF, zB: continuous, at least the largest single item and the average pack load. The LP
  // relaxation implies the average but not the largest item, which tightens the root bound.
  double max_f = 0, max_b = 0, sum_f = 0, sum_b = 0;
  for (const auto& s : in.slices) {
    max_f = std::max(max_f, s.fwd_time);
    max_b = std::max(max_b, s.bwd_time);
    sum_f += s.fwd_time;
    sum_b += s.bwd_time;
  }
  for (const auto& b : in.buckets) {
    if (b.count == 0) continue;
    max_f = std::max(max_f, b.fwd_time);
    max_b = std::max(max_b, b.bwd_time);
    sum_f += b.count * b.fwd_time;
    sum_b += b.count * b.bwd_time;
  }
  const double lo_f = std::max(max_f, sum_f / md.mf);
  const double lo_b = std::max(max_b, sum_b / md.mb);
  md.objective_floor = lo_f + lo_b;
  for (int c : {md.zf(), md.zb()}) {
    md.is_int[c] = 0;
    md.col_hi[c] = kInf;
    md.obj[c] = 1.0;
  }
  md.col_lo[md.zf()] = lo_f * md.time_scale;
  md.col_lo[md.zb()] = lo_b * md.time_scale;
}

void add_assignment_rows(Phase2Model& md, const MilpPhase2Input& in) {
  for (int i = 0; i < md.slices; ++i) {
    RowBuilder f, b;
    for (int m = 0; m < md.mf; ++m) f.add(md.x(i, m), 1.0);
    for (int q = 0; q < md.mb; ++q) b.add(md.y(i, q), 1.0);
    md.rows.push_back(f.done(1.0, 1.0));
    md.rows.push_back(b.done(1.0, 1.0));
  }
  for (int k = 0; k < md.buckets; ++k) {
    RowBuilder f, b;
    for (int m = 0; m < md.mf; ++m) f.add(md.nf(k, m), 1.0);
    for (int q = 0; q < md.mb; ++q) b.add(md.nb(k, q), 1.0);
    const double c = in.buckets[k].count;
    md.rows.push_back(f.done(c, c));
    md.rows.push_back(b.done(c, c));
  }
}

void add_order_rows(Phase2Model& md, const MilpPhase2Input& in) {
  for (const auto& g : group_slices(in)) {
    const auto& ids = g.slice_ids;
    for (size_t j = 0; j + 1 < ids.size(); ++j) {
      const int a = ids[j], c = ids[j + 1];
      for (int m = 0; m + 1 < md.mf; ++m) {  // L1: X[a][<=m] - X[c][<=m] >= 0
        RowBuilder r;
        for (int q = 0; q <= m; ++q) r.add(md.x(a, q), 1.0).add(md.x(c, q), -1.0);
        md.rows.push_back(r.done(0.0, kInf));
      }
      for (int b = 0; b + 1 < md.mb; ++b) {  // L2: Y[c][<=b] - Y[a][<=b] >= 0
        RowBuilder r;
        for (int q = 0; q <= b; ++q) r.add(md.y(c, q), 1.0).add(md.y(a, q), -1.0);
        md.rows.push_back(r.done(0.0, kInf));
      }
    }
    // L3 on the last slice, which is the sequence's first backward: Y[last][<=b] <= X[last][<=r].
    const int last = ids.back();
    for (int b = 0; b < md.mb; ++b) {
      const int lim = ready_limit(in, b);
      if (lim >= md.mf - 1) break;  // X[last][<=Mf-1] = 1: no restriction from here on
      RowBuilder r;
      for (int q = 0; q <= b; ++q) r.add(md.y(last, q), 1.0);
      for (int m = 0; m <= lim; ++m) r.add(md.x(last, m), -1.0);
      md.rows.push_back(r.done(-kInf, 0.0));
    }
  }
  // L3 for buckets: backward count up to b <= forward count up to the ready limit of b.
  for (int k = 0; k < md.buckets; ++k) {
    for (int b = 0; b < md.mb; ++b) {
      const int lim = ready_limit(in, b);
      if (lim >= md.mf - 1) break;
      RowBuilder r;
      for (int q = 0; q <= b; ++q) r.add(md.nb(k, q), 1.0);
      for (int m = 0; m <= lim; ++m) r.add(md.nf(k, m), -1.0);
      md.rows.push_back(r.done(-kInf, 0.0));
    }
  }
}

void add_capacity_rows(Phase2Model& md, const MilpPhase2Input& in) {
  PassItems tf, tb, tok, act;
  for (const auto& s : in.slices) {
    tf.slice_q.push_back(s.fwd_time);
    tb.slice_q.push_back(s.bwd_time);
    tok.slice_q.push_back(s.tokens);
    act.slice_q.push_back(s.act_bytes);
  }
  for (const auto& b : in.buckets) {
    tf.bucket_q.push_back(b.fwd_time);
    tb.bucket_q.push_back(b.bwd_time);
    tok.bucket_q.push_back(b.length);
    act.bucket_q.push_back(b.act_bytes);
  }
  for (int pass = 0; pass < 2; ++pass) {
    const bool fwd = pass == 0;
    for (int m = 0; m < (fwd ? md.mf : md.mb); ++m) {
      RowBuilder r;  // balance: load(m) - z <= 0
      add_pack_terms(r, md, fwd, m, fwd ? tf : tb, md.time_scale);
      r.add(fwd ? md.zf() : md.zb(), -1.0);
      md.rows.push_back(r.done(-kInf, 0.0));
      if (in.token_cap > 0) {  // L5, scaled by the cap
        RowBuilder t;
        add_pack_terms(t, md, fwd, m, tok, 1.0 / in.token_cap);
        md.rows.push_back(t.done(-kInf, 1.0));
      }
    }
  }
  if (in.memory_cap_bytes <= 0) return;
  // L4 on stage 0, scaled by the cap. Once every forward is issued the held bytes only fall, so
  // the first such backward pack's row dominates the rest.
  const double s = 1.0 / in.memory_cap_bytes;
  for (int b = 0; b < md.mb; ++b) {
    const int issued = stage0_forwards_before(in, b);
    RowBuilder r;
    for (int m = 0; m < issued; ++m) add_pack_terms(r, md, true, m, act, s);
    for (int q = 0; q < b; ++q) add_pack_terms(r, md, false, q, act, -s);
    md.rows.push_back(r.done(-kInf, (in.memory_cap_bytes - in.static_bytes) * s));
    if (issued == md.mf) break;
  }
}

}  // namespace

Phase2Model build_phase2_model(const MilpPhase2Input& in) {
  Phase2Model md;
  md.slices = static_cast<int>(in.slices.size());
  md.buckets = static_cast<int>(in.buckets.size());
  md.mf = in.mf;
  md.mb = in.mb;
  double max_t = 0.0;
  for (const auto& s : in.slices) max_t = std::max({max_t, s.fwd_time, s.bwd_time});
  for (const auto& b : in.buckets) max_t = std::max({max_t, b.fwd_time, b.bwd_time});
  md.time_scale = max_t > 0 ? 1.0 / max_t : 1.0;
  add_columns(md, in);
  add_assignment_rows(md, in);
  add_order_rows(md, in);
  add_capacity_rows(md, in);
  return md;
}

std::vector<double> model_point(const Phase2Model& md, const MilpPhase2Input& in,
                                const MilpPhase2Solution& sol) {
  std::vector<double> v(md.cols(), 0.0);
  for (int i = 0; i < md.slices; ++i) {
    v[md.x(i, sol.slice_fwd_pack[i])] = 1.0;
    v[md.y(i, sol.slice_bwd_pack[i])] = 1.0;
  }
  for (int k = 0; k < md.buckets; ++k) {
    for (int m = 0; m < md.mf; ++m) v[md.nf(k, m)] = sol.bucket_fwd_count[k][m];
    for (int b = 0; b < md.mb; ++b) v[md.nb(k, b)] = sol.bucket_bwd_count[k][b];
  }
  MilpPhase2Solution loads = sol;
  compute_phase2_loads(in, loads);
  // z may not sit below its column bound even where the bound is looser than the loads' maximum.
  v[md.zf()] = std::max(loads.z_f * md.time_scale, md.col_lo[md.zf()]);
  v[md.zb()] = std::max(loads.z_b * md.time_scale, md.col_lo[md.zb()]);
  return v;
}

MilpPhase2Solution solution_from_point(const Phase2Model& md, const MilpPhase2Input& in,
                                       const double* values) {
  MilpPhase2Solution sol;
  sol.slice_fwd_pack.assign(md.slices, 0);
  sol.slice_bwd_pack.assign(md.slices, 0);
  for (int i = 0; i < md.slices; ++i) {
    // The pack with the largest value: robust to integrality tolerance (0.9999995 vs 5e-7).
    for (int m = 1; m < md.mf; ++m) {
      if (values[md.x(i, m)] > values[md.x(i, sol.slice_fwd_pack[i])]) sol.slice_fwd_pack[i] = m;
    }
    for (int b = 1; b < md.mb; ++b) {
      if (values[md.y(i, b)] > values[md.y(i, sol.slice_bwd_pack[i])]) sol.slice_bwd_pack[i] = b;
    }
  }
  sol.bucket_fwd_count.assign(md.buckets, std::vector<int>(md.mf, 0));
  sol.bucket_bwd_count.assign(md.buckets, std::vector<int>(md.mb, 0));
  for (int k = 0; k < md.buckets; ++k) {
    for (int m = 0; m < md.mf; ++m) {
      sol.bucket_fwd_count[k][m] = static_cast<int>(std::lround(values[md.nf(k, m)]));
    }
    for (int b = 0; b < md.mb; ++b) {
      sol.bucket_bwd_count[k][b] = static_cast<int>(std::lround(values[md.nb(k, b)]));
    }
  }
  compute_phase2_loads(in, sol);
  return sol;
}

}  // namespace slimpack::milp_detail
