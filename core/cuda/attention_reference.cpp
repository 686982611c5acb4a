#include <algorithm>
#include <cmath>
#include <numeric>

#include "cuda/attention.h"

namespace slimpack::profiling {

AttnLayout make_attn_layout(const PackShape& shape, int q_heads, int kv_heads) {
  AttnLayout l;
  l.q_heads = q_heads;
  l.kv_heads = kv_heads;
  for (const auto& s : shape.segments) {
    AttnSegment seg;
    seg.q_start = l.total_q;
    seg.q_len = static_cast<int>(s.length);
    seg.offset = static_cast<int>(s.offset);
    seg.kv_start = l.total_kv;
    l.total_q += seg.q_len;
    l.total_kv += seg.offset + seg.q_len;
    l.segments.push_back(seg);
  }
  return l;
}

AttnWorkItems make_work_items(const AttnLayout& layout) {
  AttnWorkItems w;
  struct Item {
    int seg, tile;
    long long work;
  };
  std::vector<Item> fwd, bwd;
  for (int s = 0; s < static_cast<int>(layout.segments.size()); ++s) {
    const auto& g = layout.segments[static_cast<std::size_t>(s)];
    w.segments.insert(w.segments.end(), {g.q_start, g.q_len, g.offset, g.kv_start});
    for (int t = 0; t * kAttnTile < g.q_len; ++t)
      fwd.push_back({s, t, static_cast<long long>(g.offset) + (t + 1) * kAttnTile});
    const int kv_len = g.offset + g.q_len;
    for (int t = 0; t * kAttnTile < kv_len; ++t)
      bwd.push_back({s, t, static_cast<long long>(kv_len) - t * kAttnTile});
  }
  auto flatten = [](std::vector<Item>& items, std::vector<int>& out) {
    std::stable_sort(items.begin(), items.end(),
                     [](const Item& a, const Item& b) { return a.work > b.work; });
    for (const auto& it : items) out.insert(out.end(), {it.seg, it.tile});
  };
  flatten(fwd, w.forward);
  flatten(bwd, w.backward);
  return w;
}

namespace {

struct Indexer {
  const AttnLayout& l;
  std::size_t q(int row, int h, int d) const {
    return (static_cast<std::size_t>(row) * l.q_heads + h) * kHeadDim + d;
  }
  std::size_t kv(int row, int h, int d) const {
    return (static_cast<std::size_t>(row) * l.kv_heads + h) * kHeadDim + d;
  }
};

// Probabilities of query i of segment g, head h, over its visible keys 0..offset + i.
std::vector<double> probabilities(const AttnLayout& l, const AttnSegment& g, int i, int h,
                                  const std::vector<float>& q, const std::vector<float>& k,
                                  double* lse) {
  const Indexer ix{l};
  const int hk = h / (l.q_heads / l.kv_heads);
  const double scale = 1.0 / std::sqrt(static_cast<double>(kHeadDim));
  const int keys = g.offset + i + 1;
  std::vector<double> p(static_cast<std::size_t>(keys));
  double mx = -INFINITY;
  for (int j = 0; j < keys; ++j) {
    double s = 0.0;
    for (int d = 0; d < kHeadDim; ++d)
      s += static_cast<double>(q[ix.q(g.q_start + i, h, d)]) * k[ix.kv(g.kv_start + j, hk, d)];
    p[static_cast<std::size_t>(j)] = s * scale;
    mx = std::max(mx, s * scale);
  }
  double sum = 0.0;
  for (double& x : p) sum += (x = std::exp(x - mx));
  for (double& x : p) x /= sum;
  if (lse) *lse = mx + std::log(sum);
  return p;
}

}  // namespace

AttnForward attention_forward_reference(const AttnLayout& l, const std::vector<float>& q,
                                        const std::vector<float>& k, const std::vector<float>& v) {
  const Indexer ix{l};
  AttnForward r;
  r.out.assign(static_cast<std::size_t>(l.total_q) * l.q_heads * kHeadDim, 0.0f);
  r.lse.assign(static_cast<std::size_t>(l.total_q) * l.q_heads, 0.0f);
  for (const auto& g : l.segments)
    for (int i = 0; i < g.q_len; ++i)
      for (int h = 0; h < l.q_heads; ++h) {
        const int hk = h / (l.q_heads / l.kv_heads);
        double lse = 0.0;
        const auto p = probabilities(l, g, i, h, q, k, &lse);
        r.lse[static_cast<std::size_t>(g.q_start + i) * l.q_heads + h] = static_cast<float>(lse);
        for (int d = 0; d < kHeadDim; ++d) {
          double acc = 0.0;
          for (std::size_t j = 0; j < p.size(); ++j)
            acc += p[j] * v[ix.kv(g.kv_start + static_cast<int>(j), hk, d)];
          r.out[ix.q(g.q_start + i, h, d)] = static_cast<float>(acc);
        }
      }
  return r;
}

AttnGrads attention_backward_reference(const AttnLayout& l, const std::vector<float>& q,
                                       const std::vector<float>& k, const std::vector<float>& v,
                                       const std::vector<float>& dout) {
  const Indexer ix{l};
  const double scale = 1.0 / std::sqrt(static_cast<double>(kHeadDim));
  std::vector<double> dq(q.size(), 0.0), dk(k.size(), 0.0), dv(v.size(), 0.0);
  for (const auto& g : l.segments)
    for (int i = 0; i < g.q_len; ++i)
      for (int h = 0; h < l.q_heads; ++h) {
        const int hk = h / (l.q_heads / l.kv_heads);
        const auto p = probabilities(l, g, i, h, q, k, nullptr);
        const int qi = g.q_start + i;
        // dP_j = dO . V_j ; dS_j = P_j (dP_j - sum_k P_k dP_k)
        std::vector<double> dp(p.size());
        double dot = 0.0;
        for (std::size_t j = 0; j < p.size(); ++j) {
          double s = 0.0;
          for (int d = 0; d < kHeadDim; ++d)
            s += static_cast<double>(dout[ix.q(qi, h, d)]) *
                 v[ix.kv(g.kv_start + static_cast<int>(j), hk, d)];
          dp[j] = s;
          dot += p[j] * s;
        }
        for (std::size_t j = 0; j < p.size(); ++j) {
          const int kj = g.kv_start + static_cast<int>(j);
          const double ds = p[j] * (dp[j] - dot) * scale;
          for (int d = 0; d < kHeadDim; ++d) {
            dv[ix.kv(kj, hk, d)] += p[j] * dout[ix.q(qi, h, d)];
            dq[ix.q(qi, h, d)] += ds * k[ix.kv(kj, hk, d)];
            dk[ix.kv(kj, hk, d)] += ds * q[ix.q(qi, h, d)];
          }
        }
      }
  auto to_float = [](const std::vector<double>& x) {
    return std::vector<float>(x.begin(), x.end());
  };
  return {to_float(dq), to_float(dk), to_float(dv)};
}

}  // namespace slimpack::profiling
