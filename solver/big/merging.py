"""What a beam's step saves by merging with the end of the path before it.

The beams (freebeam.JoinBeam, and through it the insert stage) rank a child
by the length of its path, in moves (OBTM), as moves.simplify leaves it.
Moves about one axis commute, so a step whose first move turns the same
layers as a move in the path's last run about that axis merges with it:
U then U is U2 (1 move saved), U then U' nothing (2 saved), also across a
D between them. `added` counts that exactly for one step after a path's last
TAIL moves (the centre and wing stages weigh each cycle so). For the join
beams, which weigh thousands of steps a parent, `by_first` groups the steps
by their first move once;
`savings` then gives, for one path, the steps that merge and what each saves
without looking at the others. Only the first move is looked at: when it
cancels, the next may merge too, and the child is cheaper still (its path,
simplified when it is kept, says by how much).
"""

from cubebot.solver.moves import AXIS_OF, is_simplified, simplify

TAIL = 4                       # moves of the path so far that `added` merges a step with


def by_first(steps):
    """{(face, first layer, last layer): [(step index, quarter turns)]} of the steps'
    first moves (steps: lists of Moves)."""
    grouped = {}
    for index, moves in enumerate(steps):
        m = moves[0]
        grouped.setdefault((m.face, m.first, m.last), []).append((index, m.turns))
    return grouped


def last_run(path):
    """{(face, first layer, last layer): quarter turns} of the moves at the end of
    `path` (simplified: no layers twice in a run) that turn about its last axis."""
    run = {}
    if path:
        axis = AXIS_OF[path[-1].face]
        for m in reversed(path):
            if AXIS_OF[m.face] != axis:
                break
            run[(m.face, m.first, m.last)] = m.turns
    return run


def savings(path, grouped):
    """[(step index, moves saved)] of the steps of `grouped` (by_first) whose first
    move merges with the last run of the simplified `path`: 2 where it cancels a
    move there, 1 where the two make one."""
    found = []
    for key, turns in last_run(path).items():
        for index, more in grouped.get(key, ()):
            found.append((index, 2 if (turns + more) % 4 == 0 else 1))
    return found


def added(path, moves):
    """How many moves `moves` adds after `path` once merged with its last TAIL moves."""
    tail = path[-TAIL:]
    if not tail or not moves or AXIS_OF[tail[-1].face] != AXIS_OF[moves[0].face]:
        # nothing merges where they meet, so simplify leaves two simplified parts
        # as they are (the centre stage asks this of about 265,000 cycles a 7x7x7)
        if is_simplified(tail) and is_simplified(moves):
            return len(moves)
    return len(simplify(tail + moves)) - len(tail)
