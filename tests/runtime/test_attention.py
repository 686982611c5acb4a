"""The fused attention path (scaled_dot_product_attention with a lower-right causal mask and
grouped K/V heads) against the reference path (materialised scores), alone and inside whole
asymmetric, regrouping schedules, in float64."""

import pytest
import torch

from schedule_maker import make_schedule
from slimpack_runtime.local import gradients, run_local
from slimpack_runtime.model import causal_attention, sdpa_attention
from slimpack_runtime.reference import compare_gradients
from slimpack_runtime.schedule import parse_schedule
from slimpack_runtime.validate import validate_schedule

SEED = 11


@pytest.mark.parametrize("begin,n,heads,kv_heads", [(0, 7, 4, 2), (9, 5, 4, 2), (16, 1, 4, 4),
                                                    (3, 12, 8, 1)])
def test_sdpa_equals_the_reference_for_an_atom_with_a_cached_prefix(begin, n, heads, kv_heads):
    g = torch.Generator().manual_seed(begin * 31 + n)
    q = torch.randn(n, heads, 16, generator=g, dtype=torch.float64, requires_grad=True)
    k = torch.randn(begin + n, kv_heads, 16, generator=g, dtype=torch.float64, requires_grad=True)
    v = torch.randn(begin + n, kv_heads, 16, generator=g, dtype=torch.float64, requires_grad=True)
    out = {}
    for name, f in (("sdpa", sdpa_attention), ("reference", causal_attention)):
        y = f(q, k, v, begin)
        grads = torch.autograd.grad((y * torch.arange(y.numel()).view_as(y)).sum(), (q, k, v))
        out[name] = (y, *grads)
    for a, b in zip(out["sdpa"], out["reference"]):  # output, dq, dk, dv
        rel = float((a - b).abs().max() / b.abs().max())
        assert rel < 1e-12, rel


def test_the_prefix_is_visible_and_the_future_is_not():
    # A query at the end of a 3-token prefix sees exactly keys 0..3: changing key 4 of a longer
    # cache would be a bug, so the atom's keys end where its queries end.
    q = torch.randn(1, 2, 4, dtype=torch.float64)
    k = torch.randn(4, 2, 4, dtype=torch.float64)
    v = torch.zeros(4, 2, 4, dtype=torch.float64)
    v[3] = 1.0  # only the atom's own key carries a value
    y = sdpa_attention(q, k, v, 3)
    w = torch.softmax((q[0] * k).sum(-1).t() / 2.0, dim=-1)[:, 3]  # weight of key 3 per head
    assert torch.allclose(y[0, :, 0], w, atol=1e-14)


# Forward cuts s0 at 16; backward at 8 and 24: every backward pack regroups forward work.
SEQS = [("s0", 40, 0), ("s1", 12, 0), ("s2", 20, 0)]
FWD = [[[("s0", 0, 16)], [("s0", 16, 40), ("s1", 0, 12)], [("s2", 0, 20)]]]
BWD = [[[("s2", 0, 20), ("s0", 24, 40)], [("s0", 8, 24), ("s1", 0, 12)], [("s0", 0, 8)]]]


@pytest.mark.parametrize("stages,recompute", [(2, None), (3, [1, 0, 0]), (1, [2])])
def test_whole_schedules_agree_to_1e12(stages, recompute):
    doc = make_schedule(SEQS, FWD, BWD, stages=stages, recompute=recompute,
                        stage_layers=None if stages != 3 else [2, 1, 1])
    s = parse_schedule(doc, "hand.json")
    validate_schedule(s)
    fused = run_local(s, SEED, attention="sdpa")
    ref = run_local(s, SEED, attention="reference")
    err, name = compare_gradients(gradients(fused), gradients(ref))
    assert err < 1e-12, f"{name} differs by {err}"
    lf = sum(e.loss_sum for e in fused if e.is_last)
    lr = sum(e.loss_sum for e in ref if e.is_last)
    assert lf == pytest.approx(lr, rel=1e-13)
