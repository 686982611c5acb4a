"""The atom engine: forward and backward of asymmetric packs on one stage.

Every atom (docs/file-formats-schedule.md, "Sequences and atoms") is its own autograd graph. Its
forward reads the keys and values of the earlier atoms of its sequence through detached leaves, so
a backward pack can consume any run of atoms, whichever forward pack made them. A backward segment
runs its atoms last to first: a later atom's backward leaves the key/value gradients of the earlier
atoms in those leaves' `.grad`, and an atom's own backward feeds them into its graph together with
the gradient of its output. Recomputed layers (the stage's first `recompute` layers) keep only the
atom's input and run their forward again inside the backward.
"""

from __future__ import annotations

from typing import Optional

import torch

from .ledger import AtomLedger
from .schedule import Pack, Rank, Schedule
from .data import TokenSource


class AtomState:
    """What one atom keeps between its forward and its backward on this stage."""

    __slots__ = ("begin", "end", "inp", "x_leaf", "mid", "out", "kv_graph", "kv_leaf")

    def __init__(self, begin: int, end: int, layers: int):
        self.begin, self.end = begin, end
        self.inp: Optional[torch.Tensor] = None  # kept input of the recomputed block
        self.x_leaf: Optional[torch.Tensor] = None  # the received rows, as a leaf
        self.mid: Optional[torch.Tensor] = None  # leaf after the recomputed block
        self.out: Optional[torch.Tensor] = None  # stage output (or loss on the last stage)
        self.kv_graph: list[Optional[tuple[torch.Tensor, torch.Tensor]]] = [None] * layers
        self.kv_leaf: list[Optional[tuple[torch.Tensor, torch.Tensor]]] = [None] * layers


def _leaf(t: torch.Tensor) -> torch.Tensor:
    return t.detach().requires_grad_(True)


class StageEngine:
    def __init__(self, schedule: Schedule, rank: Rank, model, tokens: TokenSource,
                 device: torch.device):
        self.s = schedule
        self.rank = rank
        self.model = model
        self.layers = model.layer_list()
        self.recompute = rank.recompute
        self.is_first = rank.stage == 0
        self.is_last = rank.stage == schedule.setup.stages - 1
        self.rep = schedule.replicas[rank.replica]
        self.device = device
        self.divisor = schedule.total_tokens()
        self.ledger = AtomLedger(schedule, f"$.ranks[{rank.rank}]")
        self.atoms: dict[tuple[str, int], AtomState] = {}
        self.ids: dict[str, torch.Tensor] = {}
        if self.is_first or self.is_last:
            assert schedule.setup.model is not None
            for q in schedule.sequences.values():
                if q.replica == rank.replica:
                    self.ids[q.id] = tokens.ids(q).to(device)
        self.loss_sum = 0.0

    # ----- helpers -------------------------------------------------------------------------

    def _past(self, seq: str, atom: int, li: int) -> tuple[Optional[torch.Tensor], Optional[torch.Tensor]]:
        if atom == 0:
            return None, None
        ks, vs = [], []
        for e in range(atom):
            kv = self.atoms[(seq, e)].kv_leaf[li]
            assert kv is not None
            ks.append(kv[0])
            vs.append(kv[1])
        if len(ks) == 1:
            return ks[0], vs[0]
        return torch.cat(ks, dim=0), torch.cat(vs, dim=0)

    def _run_layers(self, h: torch.Tensor, seq: str, atom: int, st: AtomState, lo: int, hi: int,
                    keep_graph: bool) -> tuple[torch.Tensor, list[tuple[int, torch.Tensor, torch.Tensor]]]:
        """Layers lo..hi-1 of the stage on the atom; returns the output and (layer, k, v)."""
        made = []
        for li in range(lo, hi):
            pk, pv = self._past(seq, atom, li)
            h, k, v = self.layers[li](h, st.begin, pk, pv)
            if st.kv_leaf[li] is None:
                st.kv_leaf[li] = (_leaf(k), _leaf(v))
            if keep_graph:
                made.append((li, k, v))
        return h, made

    @staticmethod
    def _kv_roots(st: AtomState, made, roots: list, grads: list) -> None:
        """Adds the atom's own keys/values with the gradients the later atoms left in its leaves."""
        for li, k, v in made:
            leaf = st.kv_leaf[li]
            assert leaf is not None
            for t, lt in ((k, leaf[0]), (v, leaf[1])):
                if lt.grad is not None:
                    roots.append(t)
                    grads.append(lt.grad)

    # ----- forward -------------------------------------------------------------------------

    def forward_pack(self, k: int, rows: Optional[torch.Tensor], path: str = "") -> Optional[torch.Tensor]:
        """Forward pack k; rows is the received message (None on the first stage). Returns the
        message to send (None on the last stage)."""
        pack = self.rep.forward_packs[k]
        order = self.ledger.forward_order(pack, k, path)
        seg_off = _segment_offsets(pack)
        outs = []
        for j, seq, a in order:
            q = self.s.sequences[seq]
            begin, end = q.atoms[a], q.atoms[a + 1]
            x = None
            if rows is not None:
                r0 = seg_off[j] + begin - pack.segments[j].begin
                x = rows[r0:r0 + end - begin]
            out = self._forward_atom(seq, a, begin, end, x)
            if out is not None:
                outs.append(out)
        if self.is_last:
            return None
        return torch.cat(outs, dim=0).contiguous()

    def _forward_atom(self, seq: str, a: int, begin: int, end: int,
                      x: Optional[torch.Tensor]) -> Optional[torch.Tensor]:
        st = AtomState(begin, end, len(self.layers))
        self.atoms[(seq, a)] = st
        inp = self.ids[seq][begin:end] if self.is_first else x
        assert inp is not None
        r = self.recompute
        if r > 0:
            st.inp = inp.detach()
            with torch.no_grad():
                h = self.model.embed_tokens(inp) if self.is_first else inp
                h, _ = self._run_layers(h, seq, a, st, 0, r, keep_graph=False)
            st.mid = _leaf(h)
            h = st.mid
        elif self.is_first:
            h = self.model.embed_tokens(inp)
        else:
            st.x_leaf = _leaf(inp)
            h = st.x_leaf
        h, made = self._run_layers(h, seq, a, st, r, len(self.layers), keep_graph=True)
        st.kv_graph = [None] * len(self.layers)
        for li, kk, vv in made:
            st.kv_graph[li] = (kk, vv)
        if self.is_last:
            st.out = self.model.loss(h, self.ids[seq][begin + 1:end + 1], self.divisor)
            self.loss_sum += float(st.out.detach())
            return None
        st.out = h
        return h.detach()

    # ----- backward ------------------------------------------------------------------------

    def backward_pack(self, k: int, grad_rows: Optional[torch.Tensor],
                      path: str = "") -> Optional[torch.Tensor]:
        """Backward pack k; grad_rows is the received message (None on the last stage). Returns
        the input gradients to send (None on the first stage). Frees what the pack's `frees` says."""
        pack = self.rep.backward_packs[k]
        order = self.ledger.backward_order(pack, k, path)
        seg_off = _segment_offsets(pack)
        out = None
        if not self.is_first:
            out = torch.empty((pack.tokens, self.s.setup.model.hidden),  # type: ignore[union-attr]
                              dtype=self.model.dtype,
                              device=self.device)
        for j, seq, a in order:
            st = self.atoms[(seq, a)]
            r0 = seg_off[j] + st.begin - pack.segments[j].begin
            g = None if grad_rows is None else grad_rows[r0:r0 + st.end - st.begin]
            dx = self._backward_atom(st, seq, a, g)
            if out is not None:
                assert dx is not None
                out[r0:r0 + st.end - st.begin] = dx
        for key in self.ledger.frees(pack):
            del self.atoms[key]
        return out

    def _backward_atom(self, st: AtomState, seq: str, a: int,
                       g: Optional[torch.Tensor]) -> Optional[torch.Tensor]:
        assert st.out is not None
        roots = [st.out]
        grads = [torch.ones_like(st.out) if g is None else g]
        made = [(li, kv[0], kv[1]) for li, kv in enumerate(st.kv_graph) if kv is not None]
        self._kv_roots(st, made, roots, grads)
        torch.autograd.backward(roots, grads)
        st.out = None
        st.kv_graph = [None] * len(self.layers)
        dx = None if st.x_leaf is None else st.x_leaf.grad
        r = self.recompute
        if r > 0:
            assert st.mid is not None and st.inp is not None
            if self.is_first:
                h = self.model.embed_tokens(st.inp)
            else:
                st.x_leaf = _leaf(st.inp)
                h = st.x_leaf
            h, made = self._run_layers(h, seq, a, st, 0, r, keep_graph=True)
            roots, grads = [h], [st.mid.grad if st.mid.grad is not None else torch.zeros_like(h)]
            self._kv_roots(st, made, roots, grads)
            torch.autograd.backward(roots, grads)
            dx = None if st.x_leaf is None else st.x_leaf.grad
            st.mid = None
            st.inp = None
        st.x_leaf = None
        return dx

    def finish(self) -> None:
        """End of the iteration: checks every atom ran, drops what `frees` did not."""
        seqs = [q for q in self.s.sequences.values() if q.replica == self.rank.replica]
        for key in self.ledger.finish(f"$.ranks[{self.rank.rank}]", seqs):
            self.atoms.pop(key, None)


def _segment_offsets(pack: Pack) -> list[int]:
    """Row of each segment's first token in the pack's message (segments in pack order)."""
    offs, n = [], 0
    for seg in pack.segments:
        offs.append(n)
        n += seg.end - seg.begin
    return offs
