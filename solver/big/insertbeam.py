"""The insert stage: more centre facelets joined by short inserts, the wings let go.

After the free stage single turns no longer pay, but a turn, a face turn and
the turn back (the way a speedcuber builds a big cube's centres, `Rw U Rw'`)
carries a bar of centre facelets from one face to another and puts back most
of what the first turn moved. Until the pairing stage nothing needs the wings
outside the view: that stage pairs them from wherever they are, keeping the
centres. So this beam (freebeam.JoinBeam) scores centre facelets only.

Steps (`insert_steps`; each costs its written moves, a slice two, less what
its first move merges with the path before it: X Y X' then X Z X' is X Y Z X'):
  - every free turn (freebeam.free_turns);
  - X Y X': X an inner slice or a wide turn, Y an outer turn of another face;
  - W S W': W an outer or wide turn, S an inner slice of another axis;
the shortest writing of each distinct permutation (6x6x6: 1,926 steps,
7x7x7: 2,673). They are built for each solve and dropped after the stage,
so the later stages do not carry them.
"""

from collections import OrderedDict

from cubebot.solver.facelets import OPPOSITE
from cubebot.solver.moves import invert
from .freebeam import JoinBeam, free_turns
from .views import permutation_key, written

WIDTH = 16                     # cubes kept per step
CENTRE_WEIGHT = 4.0            # moves charged per centre facelet not joined
WING_WEIGHT = 0.0              # the wings are paired afterwards, from anywhere
MAX_STEPS = 60                 # bound on the beam's steps
STALL = 8                      # steps without a better best score before it stops


def insert_steps(n):
    """The insert stage's steps: lists of written moves, one per distinct permutation."""
    turns = [move for move, _ in free_turns(n)]
    inner = [m for m in turns if m.last > 1]
    outer = [m for m in turns if m.last == 1]
    slices = [m for m in turns if m.first > 1]
    from_face = [m for m in turns if m.first == 1]
    sequences = [[m] for m in turns]
    sequences += [[x, y] + invert([x]) for x in inner for y in outer if y.face != x.face]
    sequences += [[w, s] + invert([w]) for w in from_face for s in slices
                  if s.face not in (w.face, OPPOSITE[w.face])]
    found = OrderedDict()          # first-found order among equal lengths: no dict order
    for seq in sequences:
        moves = written(seq, n)
        key = permutation_key(moves, n)
        if key not in found or len(moves) < len(found[key]):
            found[key] = moves
    return sorted(found.values(), key=len)


class InsertStage(object):
    """The insert stage for one cube size (its steps made for each solve: `beam`)."""

    def __init__(self, n):
        self.n = n

    def beam(self):
        """The stage's JoinBeam over its steps (made anew: hold it for one solve only)."""
        return JoinBeam(self.n, insert_steps(self.n), wings=bool(WING_WEIGHT))

    def solve(self, cube, beam=None):
        """Moves (outer and wide turns) after which more centre facelets are joined
        (beam: the stage's beam, if made already)."""
        beam = beam or self.beam()
        return beam.search(cube, WIDTH, CENTRE_WEIGHT, WING_WEIGHT, MAX_STEPS, STALL)

