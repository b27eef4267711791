"""The first centre step: a beam search that puts many centre pieces home cheaply.

Before the centre 3-cycles (about 13 moves for three pieces), single outer
and wide turns are tried: a beam of the BEAM_WIDTH best cubes (fewest X- and
T-centre facelets off their face), one move deeper per round, for at most
BEAM_DEPTH rounds. The cube kept is the one seen with the least estimated
total, moves so far plus MOVES_PER_PIECE per centre facelet still wrong, and
an even wing permutation (so that the wings can be paired by 3-cycles later;
a wide quarter turn flips the parity). Bounded: BEAM_DEPTH x BEAM_WIDTH x 36
cubes at most.
"""

from cubebot.solver.moves import permutation
from cubebot.solver.solve4.model import permutation_parity
from .model import ALL_MOVES, N, T_CENTRES, X_CENTRES, wing_map
from cubebot.solver.facelets import FACES

BEAM_WIDTH = 60
BEAM_DEPTH = 14
MOVES_PER_PIECE = 4.3           # 3-cycle moves per centre facelet put home (measured)
CENTRES = X_CENTRES + T_CENTRES


class CentreBeam(object):
    """The beam search over the 48 X- and T-centre facelets."""

    def __init__(self):
        where = dict((f, k) for k, f in enumerate(CENTRES))
        self.perms = [tuple(where[permutation(m, N)[f]] for f in CENTRES) for m in ALL_MOVES]
        self.flips = [permutation_parity(wing_map(m)) for m in ALL_MOVES]
        self.home = tuple(FACES[f // (N * N)] for f in CENTRES)

    def wrong(self, shown):
        return sum(1 for a, b in zip(shown, self.home) if a != b)

    def solve(self, lettered, parity):
        """Moves to start the centres with; the wing parity after them is even."""
        start = tuple(lettered[f] for f in CENTRES)
        best = (self.wrong(start) * MOVES_PER_PIECE, []) if not parity else None
        layer = [(start, parity, [])]
        seen = set([(start, parity)])
        for depth in range(1, BEAM_DEPTH + 1):
            scored = []
            for shown, par, path in layer:
                last = path[-1].face if path else None
                for i, m in enumerate(ALL_MOVES):
                    if m.face == last:
                        continue
                    p = self.perms[i]
                    after = tuple([shown[j] for j in p])
                    key = (after, par ^ self.flips[i])
                    if key in seen:
                        continue
                    seen.add(key)
                    scored.append((self.wrong(after), i, key, path))
            scored.sort(key=lambda s: (s[0], s[1]))
            layer = []
            for wrong, i, (after, par), path in scored[:BEAM_WIDTH]:
                path = path + [ALL_MOVES[i]]
                layer.append((after, par, path))
                estimate = depth + wrong * MOVES_PER_PIECE
                if not par and (best is None or estimate < best[0]):
                    best = (estimate, path)
        return best[1] if best is not None else []
