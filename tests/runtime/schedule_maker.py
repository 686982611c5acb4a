"""Writes small slimpack-schedule v1 documents by hand, for unit tests of the atom engine.

The end-to-end tests use schedules that `slimpack solve --schedule-out` writes; these hand-made ones
cover shapes the solver may not produce for a tiny batch (a backward pack that regroups several
forward packs, several segments of one sequence in a pack, broken orders for the refusal tests).
"""

from __future__ import annotations

TINY = {"name": "tiny-test", "layers": 4, "hidden": 32, "ffn": 64, "heads": 4, "kv_heads": 2,
        "vocab": 64}


def make_schedule(sequences, forward, backward, stages=2, model=None, stage_layers=None,
                  recompute=None, order="1f1b", schedule="1f1b"):
    """sequences: [(id, length, replica)]; forward/backward: per replica a list of packs, a pack a
    list of (seq, begin, end). Returns the schedule as a dict."""
    model = dict(model or TINY)
    replicas = len(forward)
    if stage_layers is None:
        base = model["layers"] // stages
        stage_layers = [base] * stages
        stage_layers[-1] += model["layers"] - base * stages
    recompute = recompute or [0] * stages
    cuts = {sid: {0, length} for sid, length, _ in sequences}
    for packs in forward + backward:
        for pack in packs:
            for sid, b, e in pack:
                cuts[sid] |= {b, e}
    atoms = {sid: sorted(c) for sid, c in cuts.items()}

    def atom_range(sid, b, e):
        return [atoms[sid].index(b), atoms[sid].index(e)]

    def seg(sid, b, e):
        return {"seq": sid, "begin": b, "end": e, "atoms": atom_range(sid, b, e)}

    reps = []
    for r in range(replicas):
        fwd_of = {}
        for k, pack in enumerate(forward[r]):
            for sid, b, e in pack:
                lo, hi = atom_range(sid, b, e)
                for a in range(lo, hi):
                    fwd_of[(sid, a)] = k
        fpacks = [{"segments": [seg(*x) for x in pack], "tokens": sum(e - b for _, b, e in pack)}
                  for pack in forward[r]]
        # Free an atom after the last backward pack holding it or a later atom of its sequence.
        last_use = {}
        for k, pack in enumerate(backward[r]):
            for sid, b, e in pack:
                lo, hi = atom_range(sid, b, e)
                for a in range(0, hi):
                    last_use[(sid, a)] = k
        bpacks = []
        for k, pack in enumerate(backward[r]):
            consumes = []
            for sid, b, e in pack:
                lo, hi = atom_range(sid, b, e)
                for a in range(lo, hi):
                    fp = fwd_of[(sid, a)]
                    if consumes and consumes[-1]["seq"] == sid and consumes[-1]["forward_pack"] == fp \
                            and consumes[-1]["atoms"][1] == a:
                        consumes[-1]["atoms"][1] = a + 1
                    else:
                        consumes.append({"seq": sid, "atoms": [a, a + 1], "forward_pack": fp})
            frees = []
            for sid, _, _ in sequences:
                run = [a for a in range(len(atoms[sid]) - 1) if last_use.get((sid, a)) == k]
                if run:
                    frees.append({"seq": sid, "atoms": [run[0], run[-1] + 1]})
            bpacks.append({"segments": [seg(*x) for x in pack],
                           "tokens": sum(e - b for _, b, e in pack),
                           "consumes": consumes, "frees": frees})
        reps.append({"forward_packs": fpacks, "backward_packs": bpacks})

    ranks = []
    hidden = model["hidden"]
    for r in range(replicas):
        for s in range(stages):
            rank = r * stages + s
            acts = _actions(reps[r], s, stages, rank, hidden, order, atoms)
            if replicas > 1:
                acts.append({"op": "ALLREDUCE", "group": [q * stages + s for q in range(replicas)],
                             "bytes": 0})
            ranks.append({"rank": rank, "replica": r, "stage": s,
                          "first_layer": sum(stage_layers[:s]), "layers": stage_layers[s],
                          "recompute": recompute[s], "actions": acts})
    return {
        "format": "slimpack-schedule", "version": 1, "generator": "tests/runtime/schedule_maker.py",
        "setup": {"stages": stages, "replicas": replicas, "tp": 1, "cp": 1, "schedule": schedule,
                  "warmup_extra": 0, "strategy": "hand", "slice_size": 0, "model": model,
                  "stage_layers": stage_layers, "recompute_layers": recompute, "costs": None,
                  "p2p_latency": 0.0},
        "message_layout": "rows are tokens: the pack's segments in pack order, each segment's "
                          "tokens in sequence order; a row holds hidden values",
        "sequences": [{"id": sid, "length": length, "sample": i, "replica": rep,
                       "atoms": atoms[sid]} for i, (sid, length, rep) in enumerate(sequences)],
        "replicas": reps, "ranks": ranks}


def _actions(rep, s, p, rank, hidden, order, atoms):
    mf, mb = len(rep["forward_packs"]), len(rep["backward_packs"])
    first, last = s == 0, s == p - 1

    def f(k):
        t = rep["forward_packs"][k]["tokens"]
        out = []
        if not first:
            out.append({"op": "RECV_F", "pack": k, "peer": rank - 1, "tag": k, "tokens": t,
                        "bytes": t * hidden * 2})
        out.append({"op": "F", "pack": k})
        if not last:
            out.append({"op": "SEND_F", "pack": k, "peer": rank + 1, "tag": k, "tokens": t,
                        "bytes": t * hidden * 2})
        return out

    def b(k):
        t = rep["backward_packs"][k]["tokens"]
        out = []
        if not last:
            out.append({"op": "RECV_B", "pack": k, "peer": rank + 1, "tag": mf + k, "tokens": t,
                        "bytes": t * hidden * 2})
        out.append({"op": "B", "pack": k})
        if not first:
            out.append({"op": "SEND_B", "pack": k, "peer": rank - 1, "tag": mf + k, "tokens": t,
                        "bytes": t * hidden * 2})
        return out

    def needs(k):
        return {(sg["seq"], a) for sg in rep["backward_packs"][k]["segments"]
                for a in range(*sg["atoms"])}

    acts, done = [], set()
    nf = 0

    def do_f():
        nonlocal nf
        acts.extend(f(nf))
        for sg in rep["forward_packs"][nf]["segments"]:
            done.update((sg["seq"], a) for a in range(*sg["atoms"]))
        nf += 1

    if order == "gpipe":
        while nf < mf:
            do_f()
        for k in range(mb):
            acts.extend(b(k))
        return acts
    for _ in range(min(mf, p - s - 1)):
        do_f()
    for k in range(mb):
        if nf < mf:
            do_f()
        while not needs(k) <= done:
            do_f()
        acts.extend(b(k))
    while nf < mf:
        do_f()
    return acts
