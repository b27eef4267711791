"""Reading a 4x4x4 state: its colour scheme, piece checks and the wing pieces.

A 4x4x4 has no fixed centres, so the colours are named from the corners:
the corner at DLB names D, L and B; the colour never seen on a corner with
a colour is its opposite. `label` relabels any six symbols to URFDLB this
way and checks, before any search, that:
  - there are 96 facelets and each symbol appears 16 times;
  - every corner is a real piece of one consistent colour scheme (no mirror
    scheme, no piece twice, no twisted corner);
  - every wing is a real piece and each of the 24 wings appears once (so
    each colour pair appears on exactly two wings);
  - each colour appears on exactly four centre facelets.

Wing pieces: piece w is the wing whose home is slot w (model.WINGS). A wing
has one orientation per slot, so the pair of colours a slot shows names
the piece: `wing_positions` returns pos[w] = the slot of piece w.
"""

from cubebot.solver.cubies import from_facelets, parity
from cubebot.solver.errors import InvalidCube
from cubebot.solver.facelets import FACES, OPPOSITE, check_counts, relabel, solved
from cubebot.solver.moves import permutation
from cubebot.solver.solve4.model import CENTRES, CORNERS, GENERATORS, N, N_WINGS, WINGS

CORNER_SIZE = 2                 # corners are checked as a 2x2x2
CENTRES_PER_COLOUR = 4


def _shown_colours():
    """shown[(first, second, slot)] = the wing piece showing those colours there.

    Found by following each wing's two facelets through the generators
    (breadth first from the solved cube), so it holds for every reachable
    slot of every piece.
    """
    home = solved(N)
    perms = [permutation(m, N) for m in GENERATORS]
    inverse = [dict((p[i], i) for i in range(len(p))) for p in perms]
    slot_of = dict((pair, s) for s, pair in enumerate(WINGS))
    shown = {}
    for w, (a, b) in enumerate(WINGS):
        seen = set([(a, b)])
        frontier = [(a, b)]
        while frontier:
            nxt = []
            for fa, fb in frontier:
                s = slot_of.get((fa, fb))
                if s is not None:
                    shown[(home[a], home[b], s)] = w
                else:
                    shown[(home[b], home[a], slot_of[(fb, fa)])] = w
                for inv in inverse:
                    pair = (inv[fa], inv[fb])
                    if pair not in seen:
                        seen.add(pair)
                        nxt.append(pair)
            frontier = nxt
    return shown


_SHOWN = []


def shown_table():
    """The (cached) table of _shown_colours."""
    if not _SHOWN:
        _SHOWN.append(_shown_colours())
    return _SHOWN[0]


def _scheme(state):
    """symbol -> face letter, from the corners; InvalidCube if impossible."""
    corners = [tuple(state[i] for i in facelets) for facelets in CORNERS]
    symbols = sorted(set(state))
    together = dict((s, set()) for s in symbols)
    for corner in corners:
        if len(set(corner)) != 3:
            raise InvalidCube("a corner shows colours {}: a corner has three different colours".format(
                ",".join(corner)))
        for s in corner:
            together[s].update(corner)
    opposite = {}
    for s in symbols:
        apart = [t for t in symbols if t not in together[s]]
        if len(apart) != 1:
            raise InvalidCube("colour {!r} shares corners with {} colours: each colour must have "
                              "exactly one opposite colour".format(s, len(together[s]) - 1))
        opposite[s] = apart[0]
    for s in symbols:
        if opposite[opposite[s]] != s:
            raise InvalidCube("colours {!r} and {!r} disagree about their opposites".format(
                s, opposite[s]))
    dlb = corners[6]            # DBL corner: facelets D, B, L in that order
    mapping = {dlb[0]: "D", dlb[1]: "B", dlb[2]: "L"}
    for s, face in list(mapping.items()):
        other = opposite[s]
        if other in mapping:
            raise InvalidCube("colours {!r} and {!r} meet on the DLB corner but are opposites".format(
                s, other))
        mapping[other] = OPPOSITE[face]
    return mapping


def label(state):
    """The state relabelled to URFDLB (DLB corner at home), fully checked.

    Returns (lettered state, mapping symbol -> face letter).
    """
    check_counts(state, N)
    mapping = _scheme(state)
    lettered = relabel(state, mapping)
    corners = "".join(lettered[i] for facelets in CORNERS for i in facelets)
    small = list(solved(CORNER_SIZE))
    for facelets2, k in zip(_corner_facelets2(), range(len(CORNERS))):
        for j, idx in enumerate(facelets2):
            small[idx] = corners[3 * k + j]
    from_facelets("".join(small), CORNER_SIZE)
    wing_positions(lettered)
    for face in FACES:
        count = sum(1 for f in CENTRES if lettered[f] == face)
        if count != CENTRES_PER_COLOUR:
            symbol = [s for s, f in mapping.items() if f == face][0]
            raise InvalidCube("colour {!r} is on {} centre facelets: each colour needs {}".format(
                symbol, count, CENTRES_PER_COLOUR))
    return lettered, mapping


def _corner_facelets2():
    from cubebot.solver.cubies import corner_facelets
    return corner_facelets(CORNER_SIZE)


def wing_positions(lettered):
    """pos[w] = slot of wing piece w; InvalidCube naming a wing that cannot exist."""
    shown = shown_table()
    pos = [None] * N_WINGS
    for s, (a, b) in enumerate(WINGS):
        key = (lettered[a], lettered[b], s)
        w = shown.get(key)
        if w is None:
            raise InvalidCube("wing at slot {} ({}{} edge) shows colours {},{}: no such wing".format(
                s, FACES[a // (N * N)], FACES[b // (N * N)], key[0], key[1]))
        if pos[w] is not None:
            raise InvalidCube("wing {}{} appears twice: each colour pair must be on exactly two "
                              "wings, one of each hand".format(key[0], key[1]))
        pos[w] = s
    return tuple(pos)


def wing_parity(pos):
    """0 if the wings form an even permutation (no OLL parity once paired)."""
    return parity(pos)
