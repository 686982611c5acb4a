"""Dry run of a schedule's action lists before any process starts.

A schedule that would hang (a receive whose send never comes), compute the wrong thing (a backward
before its forward, an atom freed while still needed) or address the wrong peer is refused here
with the JSON path of the first offending action, so that a run either executes exactly or does
not start. Sends are asynchronous and receives block, as in the runtime and the simulator.
"""

from __future__ import annotations

from .errors import UserError
from .ledger import AtomLedger
from .play import play_ranks
from .schedule import Action, Schedule


def validate_schedule(s: Schedule) -> None:
    for rk in s.ranks:
        _check_rank(s, rk.rank)
    _check_messages(s)
    _check_progress(s)


def _check_rank(s: Schedule, r: int) -> None:
    rk = s.ranks[r]
    rep = s.replicas[rk.replica]
    p = s.setup.stages
    first, last = rk.stage == 0, rk.stage == p - 1
    ledger = AtomLedger(s, f"$.ranks[{r}]")
    received_f: set[int] = set()
    received_b: set[int] = set()
    done_f: set[int] = set()
    done_b: set[int] = set()
    mf, mb = len(rep.forward_packs), len(rep.backward_packs)
    for a in rk.actions:
        if a.op == "ALLREDUCE":
            if r not in a.group:
                raise s.error(f"{a.path}.group", f"does not contain the rank itself ({r})")
            for g in a.group:
                if not (0 <= g < s.world_size()) or s.ranks[g].stage != rk.stage:
                    raise s.error(f"{a.path}.group", f"rank {g} does not hold stage {rk.stage}")
            continue
        count = mf if a.op in ("F", "SEND_F", "RECV_F") else mb
        if a.pack >= count:
            raise s.error(f"{a.path}.pack", f"replica {rk.replica} has {count} "
                          f"{'forward' if count == mf else 'backward'} packs, no pack {a.pack}")
        if a.op in ("SEND_F", "RECV_F", "SEND_B", "RECV_B"):
            _check_p2p(s, rk.rank, a, first, last)
        if a.op == "RECV_F":
            received_f.add(a.pack)
        elif a.op == "RECV_B":
            received_b.add(a.pack)
        elif a.op == "F":
            if a.pack in done_f:
                raise s.error(a.path, f"forward pack {a.pack} runs twice")
            if not first and a.pack not in received_f:
                raise s.error(a.path, f"F {a.pack} comes before its RECV_F")
            ledger.forward_order(rep.forward_packs[a.pack], a.pack, a.path)
            done_f.add(a.pack)
        elif a.op == "B":
            if a.pack in done_b:
                raise s.error(a.path, f"backward pack {a.pack} runs twice")
            if not last and a.pack not in received_b:
                raise s.error(a.path, f"B {a.pack} comes before its RECV_B")
            ledger.backward_order(rep.backward_packs[a.pack], a.pack, a.path)
            ledger.frees(rep.backward_packs[a.pack])
            done_b.add(a.pack)
        elif a.op == "SEND_F" and a.pack not in done_f:
            raise s.error(a.path, f"SEND_F {a.pack} comes before F {a.pack}")
        elif a.op == "SEND_B" and a.pack not in done_b:
            raise s.error(a.path, f"SEND_B {a.pack} comes before B {a.pack}")
    for k in range(mf):
        if k not in done_f:
            raise s.error(f"$.ranks[{r}].actions", f"forward pack {k} never runs")
    for k in range(mb):
        if k not in done_b:
            raise s.error(f"$.ranks[{r}].actions", f"backward pack {k} never runs")
    ledger.finish(f"$.ranks[{r}]", [q for q in s.sequences.values() if q.replica == rk.replica])


def _check_p2p(s: Schedule, r: int, a: Action, first: bool, last: bool) -> None:
    rk = s.ranks[r]
    forward = a.op.endswith("_F")
    sending = a.op.startswith("SEND")
    downstream = forward == sending  # SEND_F and RECV_B talk to the next stage
    if downstream and last:
        raise s.error(f"{a.path}.op", f"the last stage has no next stage for {a.op}")
    if not downstream and first:
        raise s.error(f"{a.path}.op", f"the first stage has no previous stage for {a.op}")
    want_peer = r + 1 if downstream else r - 1
    if a.peer != want_peer:
        raise s.error(f"{a.path}.peer", f"{a.op} of stage {rk.stage} goes to rank {want_peer}, "
                      f"not {a.peer}")
    rep = s.replicas[rk.replica]
    pack = rep.forward_packs[a.pack] if forward else rep.backward_packs[a.pack]
    if a.tokens != pack.tokens:
        raise s.error(f"{a.path}.tokens", f"{a.tokens} differs from the pack's {pack.tokens} "
                      "tokens")


def _check_messages(s: Schedule) -> None:
    """Every send has exactly one receive with the same (source, destination, tag) and layout."""
    sends: dict[tuple[int, int, int], Action] = {}
    recvs: dict[tuple[int, int, int], Action] = {}
    for rk in s.ranks:
        for a in rk.actions:
            if a.op.startswith("SEND"):
                key = (rk.rank, a.peer, a.tag)
                table = sends
            elif a.op.startswith("RECV"):
                key = (a.peer, rk.rank, a.tag)
                table = recvs
            else:
                continue
            if key in table:
                raise s.error(f"{a.path}.tag", f"tag {a.tag} between ranks {key[0]} and {key[1]} "
                              f"is used twice (also {table[key].path})")
            table[key] = a
    for key, a in sends.items():
        b = recvs.get(key)
        if b is None:
            raise s.error(a.path, f"rank {key[1]} never receives this {a.op} (tag {a.tag})")
        if b.op[-1] != a.op[-1] or b.pack != a.pack or b.tokens != a.tokens:
            raise s.error(b.path, f"{b.op} {b.pack} ({b.tokens} tokens) does not match the "
                          f"sender's {a.op} {a.pack} ({a.tokens} tokens) at {a.path}")
    for key, b in recvs.items():
        if key not in sends:
            raise s.error(b.path, f"rank {key[0]} never sends this {b.op} (tag {b.tag})")


def _check_progress(s: Schedule) -> None:
    """Plays all ranks together (play.py: asynchronous sends, blocking receives, collective
    all-reduce) and refuses a schedule that would deadlock, naming the action every stuck rank
    waits at."""
    stuck = play_ranks(s, lambda rk, a: None, lambda a: None)
    if stuck:
        rk, a = stuck[0]
        raise UserError(f"{s.path}: {a.path}: the schedule deadlocks: rank {rk.rank} waits "
                        f"at {a.op}" + (f" {a.pack}" if a.pack >= 0 else "") +
                        f" and {len(stuck) - 1} other rank(s) are stuck too")
