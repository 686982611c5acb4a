"""The atom bookkeeping of one stage: which atoms are forwarded, backwarded and freed, and in what
order a pack's atoms run.

Slice-level causality makes the order matter: an atom's forward reads the keys and values of the
earlier atoms of its sequence, and its backward needs the key/value gradients of every later atom,
so the later atoms' backwards must come first. The same ledger drives the dry run that refuses a
schedule up front (`validate.py`) and the engine (`engine.py`), so the check and the execution
cannot disagree.
"""

from __future__ import annotations

from .errors import UserError
from .schedule import Pack, Schedule, Sequence


class AtomLedger:
    def __init__(self, schedule: Schedule, where: str):
        self.s = schedule
        self.where = where  # "$.ranks[3]", for messages
        self.forward_pack: dict[tuple[str, int], int] = {}
        self.backwarded: set[tuple[str, int]] = set()
        self.freed: set[tuple[str, int]] = set()

    def _fail(self, path: str, reason: str) -> UserError:
        return UserError(f"{self.s.path}: {path}: {reason}")

    def _present(self, seq: str, atom: int) -> bool:
        return (seq, atom) in self.forward_pack and (seq, atom) not in self.freed

    def forward_order(self, pack: Pack, k: int, path: str) -> list[tuple[int, str, int]]:
        """(segment index, sequence, atom) in execution order; records the atoms as forwarded."""
        order = []
        for j, seg in enumerate(pack.segments):
            for a in range(seg.first, seg.last):
                key = (seg.seq, a)
                if key in self.forward_pack:
                    raise self._fail(path, f'atom {a} of "{seg.seq}" is forwarded twice on this '
                                     f"stage (forward packs {self.forward_pack[key]} and {k})")
                for e in range(a):
                    if not self._present(seg.seq, e):
                        what = "freed" if (seg.seq, e) in self.freed else "not yet forwarded"
                        raise self._fail(path, f'atom {a} of "{seg.seq}" (forward pack {k}) '
                                         f"attends to atom {e}, which is {what} on this stage")
                self.forward_pack[key] = k
                order.append((j, seg.seq, a))
        return order

    def backward_order(self, pack: Pack, k: int, path: str) -> list[tuple[int, str, int]]:
        """(segment index, sequence, atom), later atoms of a sequence first; records them."""
        first_seen: dict[str, int] = {}
        items = []
        for j, seg in enumerate(pack.segments):
            first_seen.setdefault(seg.seq, j)
            for a in range(seg.first, seg.last):
                items.append((j, seg.seq, a))
        items.sort(key=lambda t: (first_seen[t[1]], -t[2]))
        for j, seq, a in items:
            key = (seq, a)
            if key not in self.forward_pack:
                raise self._fail(path, f'backward pack {k} needs atom {a} of "{seq}", which is '
                                 "not forwarded on this stage before it")
            if key in self.freed:
                raise self._fail(path, f'backward pack {k} needs atom {a} of "{seq}", which an '
                                 "earlier backward pack freed")
            if key in self.backwarded:
                raise self._fail(path, f'atom {a} of "{seq}" is backwarded twice on this stage')
            n = self.s.sequences[seq].atom_count()
            for later in range(a + 1, n):
                if (seq, later) not in self.backwarded:
                    raise self._fail(path, f'backward pack {k} runs atom {a} of "{seq}" before '
                                     f"atom {later}, whose backward produces its key/value "
                                     "gradients (slice-level causality)")
            for e in range(a):
                if not self._present(seq, e):
                    raise self._fail(path, f'backward pack {k} needs the keys and values of '
                                     f'atom {e} of "{seq}", which are freed')
            self.backwarded.add(key)
        self._check_consumes(pack, k, items)
        return items

    def _check_consumes(self, pack: Pack, k: int, items: list[tuple[int, str, int]]) -> None:
        want = {(seq, a) for _, seq, a in items}
        got: set[tuple[str, int]] = set()
        for i, c in enumerate(pack.consumes):
            cpath = f"{pack.path}.consumes[{i}]"
            for a in range(c.first, c.last):
                if (c.seq, a) not in want:
                    raise self._fail(cpath, f'atom {a} of "{c.seq}" is not in backward pack {k}')
                actual = self.forward_pack[(c.seq, a)]
                if actual != c.forward_pack:
                    raise self._fail(f"{cpath}.forward_pack", f'atom {a} of "{c.seq}" was '
                                     f"forwarded in forward pack {actual}, not {c.forward_pack}")
                got.add((c.seq, a))
        missing = sorted(want - got)
        if missing:
            seq, a = missing[0]
            raise self._fail(f"{pack.path}.consumes", f'does not list atom {a} of "{seq}", which '
                             f"backward pack {k} consumes")

    def frees(self, pack: Pack) -> list[tuple[str, int]]:
        """The atoms to free after `pack`'s backward; checks that none is still needed."""
        out = []
        for i, (seq, first, last) in enumerate(pack.frees):
            for a in range(first, last):
                key = (seq, a)
                if key not in self.backwarded:
                    raise self._fail(f"{pack.path}.frees[{i}]", f'frees atom {a} of "{seq}" '
                                     "before its backward")
                n = self.s.sequences[seq].atom_count()
                pending = [b for b in range(a + 1, n) if (seq, b) not in self.backwarded]
                if pending:
                    raise self._fail(f"{pack.path}.frees[{i}]", f'frees atom {a} of "{seq}" while '
                                     f"the backward of its atom {pending[0]} still reads its "
                                     "keys and values")
                self.freed.add(key)
                out.append(key)
        return out

    def finish(self, stage_path: str, sequences: list[Sequence]) -> list[tuple[str, int]]:
        """Checks that every atom ran both passes; returns the atoms never freed explicitly."""
        for seq in sequences:
            for a in range(seq.atom_count()):
                if (seq.id, a) not in self.forward_pack:
                    raise self._fail(stage_path, f'atom {a} of "{seq.id}" is never forwarded')
                if (seq.id, a) not in self.backwarded:
                    raise self._fail(stage_path, f'atom {a} of "{seq.id}" is never backwarded')
        return [k for k in self.forward_pack if k not in self.freed]
