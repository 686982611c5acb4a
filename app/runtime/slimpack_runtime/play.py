"""Plays every rank's action list together, in one process, with the runtime's semantics: a send
never blocks, a receive waits for its send, an all-reduce completes when every member of its group
has reached it. The dry-run validator (nothing computed) and the in-process runner (`local.py`,
`--units-only`) both play a schedule through this one function, so the order the validator accepts
is exactly the order the runner executes.
"""

from __future__ import annotations

from typing import Callable

from .schedule import Action, ActionKind, Rank, Schedule

Step = Callable[[Rank, Action], None]
Collective = Callable[[Action], None]


def play_ranks(s: Schedule, step: Step, collective: Collective) -> list[tuple[Rank, Action]]:
    """Runs every action: `step(rank, action)` for F, B, sends and receives (a receive only after
    its send has been stepped), `collective(action)` once per completed all-reduce, for its group.
    Returns the ranks that could not finish and the action each waits at ([] when all finished)."""
    pos = [0] * s.world_size()
    sent: set[tuple[int, int, int]] = set()
    reduces = [0] * s.world_size()  # all-reduces each rank has completed
    progress = True
    while progress:
        progress = False
        for rk in s.ranks:
            r = rk.rank
            while pos[r] < len(rk.actions):
                a = rk.actions[pos[r]]
                if a.op in (ActionKind.RECV_F, ActionKind.RECV_B) and (a.peer, r, a.tag) not in sent:
                    break
                if a.op == ActionKind.ALLREDUCE:
                    mine = reduces[r]
                    if not all(_at_allreduce(s, g, pos[g], mine, reduces) for g in a.group):
                        break
                    collective(a)
                    for g in a.group:  # the collective completes for the whole group at once
                        reduces[g] += 1
                        pos[g] += 1
                    progress = True
                    continue
                step(rk, a)
                if a.op in (ActionKind.SEND_F, ActionKind.SEND_B):
                    sent.add((r, a.peer, a.tag))
                pos[r] += 1
                progress = True
    return [(rk, rk.actions[pos[rk.rank]]) for rk in s.ranks if pos[rk.rank] < len(rk.actions)]


def _at_allreduce(s: Schedule, g: int, p: int, count: int, reduces: list[int]) -> bool:
    if not 0 <= g < s.world_size():
        return False
    acts = s.ranks[g].actions
    return p < len(acts) and acts[p].op == ActionKind.ALLREDUCE and reduces[g] == count
