"""From colour-sensor readings of any sensor and scale to the most likely valid facelet string.

`resolve(readings, n, profile=None)` is the whole job (docs/colors.md):
1. several samples of a facelet are combined robustly (cubebot.robot.colour.space.combine)
   and a facelet with more samples than usual weighs more (`sample_weights`);
2. the learned model (cubebot.robot.colour.rawmodel) costs each facelet per colour class,
   everything estimated from the scan itself, from two starts (`_best_start`);
3. the cheapest *valid* cube is searched jointly (cubebot.robot.colour.assign: one
   best-first search over all labellings; real corners and edges, no piece
   twice, twist, flip and, on odd cubes, corner/edge parity; cubebot.robot.colour.balanced
   for the wings and centres of big cubes), the model refitted on it and the
   cube searched again until it stays the same (REFIT_ROUNDS at most);
4. the decision rules (`_decide`) report a scan whose best cube is not
   clearly the one (ScanUnresolved names the facelets to rescan); a learned
   cube must also stand MARGIN clear with each facelet judged by its colour
   fitted without it (`_check_held_out`), not only under the refit to it;
5. the EV3 count model (cubebot.robot.colour.countmodel) gives a second opinion, where it
   describes the scan (`_counts_apply`), on every cube but a clear 3x3x3: no facelet
   corrected, none doubtful, the next valid cube at least SEARCH_MARGIN further;
6. a report names what both models doubt, so that a rescan settles both.
"""

import math
from collections import namedtuple

from cubebot.solver.facelets import FACES, check_size, solved

from cubebot.robot.colour.assign import (DBL, PieceSearch, build_levels, fill, labellings,
                                         position_costs)
from cubebot.robot.colour.balanced import hungarian, swap_gaps
from cubebot.robot.colour.labmodel import COST_CAP, ColourModel
from cubebot.robot.colour.profile import check_profile, default_profile
from cubebot.robot.colour.space import combine, median
from cubebot.robot.errors import ScanUnresolved
from cubebot.robot.colour.rescan import outlying_samples
from cubebot.robot.colour.pieces import orbits, solved_pieces
from .countmodel import CountModel
from cubebot.robot.colour.rawmodel import RawModel, resolution
from cubebot.robot.colour.scanfile import check_readings

# Another valid cube within this cost of the best makes the scan ambiguous.
MARGIN = 7.0
# A facelet is "corrected" when its colour costs this much more than its nearest.
CORRECTION_COST = 4.0
# Reported doubtful (but resolved): a facelet whose colour is not its nearest by
# this much, or that costs this much (it reads unlike its colour).
NOT_NEAREST_COST = 1.0
UNLIKE_COST = 7.0
# On a noisy scan, an exchange of two wings or centres this close is ambiguous:
# one wild reading (it costs at most COST_CAP) plus one clear misfit.
NOISY_MARGIN = COST_CAP + CORRECTION_COST
# ... and no more wild samples (cubebot.robot.colour.rescan.outlying_samples) than this share of
# all samples, or this many.
WILD_SAMPLE_RATE = 0.01
MIN_WILD_SAMPLES = 3
# A 2x2x2 whose two closest learned colours lie closer than this (Mahalanobis,
# cubebot.robot.colour.rawmodel `separation`) is read again: with four facelets per
# colour and no centres, a wrong but self-consistent set of colours can form a
# valid cube (seen at high noise: two wild readings pulled two classes together).
MIN_SEPARATION_2X2 = 3.0
# More junk readings (cubebot.robot.colour.rawmodel) than this and the scan is read again.
MAX_JUNK = 1
# More corrections than this and the scan is not trusted.
MAX_CORRECTIONS = 2
# ... and on a noisy scan.
NOISY_CORRECTIONS = 1
# Each correction after the first needs the next valid cube this much further away.
MARGIN_PER_CORRECTION = 3.0
# ... and only on a quiet scan: the fitted noise scale (cubebot.robot.colour.rawmodel) at most this.
QUIET_SCALE = 1.0
# How far beyond the best cube the search looks for the next one.
SEARCH_MARGIN = MARGIN + MARGIN_PER_CORRECTION * (MAX_CORRECTIONS - 1)
# Search effort before giving up (node expansions).
MAX_NODES = 5000
# Views that must agree: "raw" (cubebot.robot.colour.rawmodel) or a key of cubebot.robot.colour.space.SPACES
# (cubebot.robot.colour.labmodel); the first one's costs are reported.
SPACES = ("raw",)
# The EV3 count model (cubebot.robot.colour.countmodel) describes a scan whose fitted noise
# scale is at most this (its nominal noise is 1).
COUNTS_APPLY_SCALE = 2.0
# ... and its readings lie on a count scale: the median brightest channel at least this.
COUNTS_MIN_LEVEL = 20.0
# Rounds of re-estimating the colours from the resolved cube and resolving again.
REFIT_ROUNDS = 2
# A clear 3x3x3 on a raw count scale (a reading above EIGHT_BIT) whose learned
# noise scale is above CONSENT_SCALE, or that has a junk reading, needs the
# count model's consent (`_marginal`).
CONSENT_SCALE = 0.5
EIGHT_BIT = 255.0

Resolution = namedtuple("Resolution", ["state", "confidence", "doubtful", "references", "facelets"])
Resolution.__doc__ = """The resolved scan.

state: URFDLB facelet string; confidence: 0..1 for the whole cube (from the
cost gap to the next valid cube); doubtful: facelet indices whose colour is
not their nearest, or that read unlike it (worth a rescan); references: {face letter: [r, g, b]} the
reference raw reading of each face's colour in this scan's light; facelets:
per facelet, 0..1 confidence in its colour.
"""


def sample_weights(readings):
    """Per facelet, its sample count over the scan's median count (the weight of
    its evidence: a facelet read again outweighs a facelet read once)."""
    counts = [len(samples) for samples in readings]
    base = float(median(counts))
    return [k / base for k in counts]


def _misreads_often(readings):
    """More than WILD_SAMPLE_RATE of the samples (and at least MIN_WILD_SAMPLES)
    are outvoted within their facelet (cubebot.robot.colour.rescan.outlying_samples): a
    sensor that misreads that often can leave a facelet with a majority of
    wild samples, which no model of the readings can see."""
    wild = outlying_samples(readings)
    total = sum(len(samples) for samples in readings)
    return wild >= max(MIN_WILD_SAMPLES, WILD_SAMPLE_RATE * total)


def _is_quiet(model, readings):
    """A scan is quiet when its noise scale is at most QUIET_SCALE and few of
    its samples are wild (outvoted within their facelet): more than
    WILD_SAMPLE_RATE of them (and at least MIN_WILD_SAMPLES) means the sensor
    misreads often, so a facelet may hold a majority of wild samples."""
    return model.scale <= QUIET_SCALE and not _misreads_often(readings)


def _unresolved(model, message, doubtful):
    """ScanUnresolved naming `doubtful` and every junk reading (it tells nothing:
    a rescan is its only evidence); all facelets when that names none."""
    junk = [i for i, flag in enumerate(model.junk) if flag]
    named = sorted(set(doubtful) | set(junk))
    # Nothing singled out (e.g. a sensor reading black everywhere): every facelet is in doubt.
    return ScanUnresolved(message, named or list(range(len(model.cost))))


def _low_margin(cost, classes, limit):
    """Facelets whose best other class costs less than `limit` more than their own."""
    out = []
    for i, row in enumerate(cost):
        k = classes[i] if classes else min(range(6), key=row.__getitem__)
        if min(row[j] for j in range(6) if j != k) - row[k] < limit:
            out.append(i)
    return out


def _orbit_solve(cost, n, label, letters, margin=MARGIN):
    """Wings and centres of a big cube (cubebot.robot.colour.balanced); returns the facelets of
    exchanges that cost less than `margin` more (ambiguous)."""
    orb, home = orbits(n), solved(n)
    doubtful = set()
    for positions in orb.wings:
        pieces = solved_pieces(positions, home)
        matrix = [[sum(cost[i][label[c]] for i, c in zip(spot, piece)) for piece in pieces]
                  for spot in positions]
        _balanced(matrix, positions, pieces, letters, doubtful, margin)
    for facelets in orb.centres:
        per = len(facelets) // 6
        slots = [(face,) for face in FACES for _ in range(per)]
        matrix = [[cost[i][label[s[0]]] for s in slots] for i in facelets]
        _balanced(matrix, [(i,) for i in facelets], slots, letters, doubtful, margin)
    return doubtful


def _balanced(matrix, positions, pieces, letters, doubtful, margin):
    assignment = hungarian(matrix)
    for spot, col in zip(positions, assignment):
        for i, c in zip(spot, pieces[col]):
            letters[i] = c
    for a, b, _ in swap_gaps(matrix, assignment, margin, pieces):
        doubtful.update(positions[a])
        doubtful.update(positions[b])


def _letters(n, label, placements):
    orb = orbits(n)
    letters = [None] * (6 * n * n)
    for k, i in enumerate(orb.fixed):
        letters[i] = FACES[k]
    fill(letters, placements, orb.corners, orb.edges)
    return letters


def _check_noisy_orbits(model, n, label, letters, classes):
    """Raise ScanUnresolved when a noisy big cube's wings or centres are not sure.

    Wings and centres have no parity to check a reading against, and on a
    noisy scan two readings can each look like the other's colour (a red
    wing like orange and an orange one like red, a 4x4x4 at high noise): so
    no wing or centre may be off its nearest colour, and no exchange of two
    may come within NOISY_MARGIN.
    """
    cost, orb = model.cost, orbits(n)
    weak = [i for spot in orb.wings for pair in spot for i in pair]
    weak += [i for facelets in orb.centres for i in facelets]
    off = [i for i in weak if cost[i][classes[i]] - min(cost[i]) >= NOT_NEAREST_COST]
    close = _orbit_solve(cost, n, label, list(letters), NOISY_MARGIN)
    if off or close:
        raise _unresolved(model, "{} wing or centre facelets are unsure on a noisy scan".format(
            len(set(off) | close)), set(off) | close)


def _search(cost, n):
    """One joint assignment: (search, letters, label, ambiguous facelets of big cubes).

    letters is None when no valid cube was found.
    """
    orb = orbits(n)
    # The labelling's own facelets are costed in `base`; every other facelet
    # costs at least its cheapest class.
    own = set(orb.fixed) | (set() if orb.fixed else set(orb.corners[DBL]))
    searched = set(i for spot in orb.corners + orb.edges for i in spot)
    floor = sum(min(cost[i]) for i in searched - own)
    search = PieceSearch(SEARCH_MARGIN, MAX_NODES, check_parity=(n % 2 == 1))
    entries = [(base + floor, base if orb.fixed else 0.0, label)
               for base, label, _ in labellings(cost, n, orb.fixed, orb.corners)]
    tables = (position_costs(cost, orb.corners), position_costs(cost, orb.edges))
    search.run(entries, lambda label: build_levels(tables, label, fix_dbl=not orb.fixed))
    if not search.found:
        return search, None, None, set()
    _, label, placements = search.found[0]
    letters = _letters(n, label, placements)
    ambiguous = _orbit_solve(cost, n, label, letters) if n > 3 else set()
    return search, letters, label, ambiguous


def _resolve_view(combined, n, profile, space, weights=None, quantum=None, samples=None):
    """Resolve in one colour space: (model, search, letters, label, ambiguous).

    The class statistics are refitted on the resolved cube and the cube
    resolved again until it stays the same (at most REFIT_ROUNDS times).
    """
    if space == "raw":
        model = RawModel(combined, n, profile, weights, quantum, samples)
    elif space == "counts":
        model = CountModel(combined, n, profile, weights)
    else:
        model = ColourModel(combined, n, profile or default_profile(), space)
    previous = None
    for round_ in range(REFIT_ROUNDS + 1):
        search, letters, label, ambiguous = _search(model.cost, n)
        if letters is None:
            break
        classes = [label[c] for c in letters]
        if classes == previous or round_ == REFIT_ROUNDS:
            break
        previous = classes
        model.refit(classes)
    return model, search, letters, label, ambiguous


def _best_start(combined, n, profile, weights, quantum=None, samples=None):
    """_resolve_view from each start of the learned model (cubebot.robot.colour.rawmodel: the
    scan's own clustering, and `profile` or the built-in references); the
    start whose cube explains the readings best (RawModel.fit_cost) wins.

    A learned model can settle on a wrong but self-consistent reading of a
    noisy scan (a red and an orange class mixed); a second start that ends
    at another cube explaining the readings about as well (within MARGIN)
    exposes that: ScanUnresolved names the facelets where they differ.
    """
    views = []
    for start in (None, profile or default_profile()):
        view = _resolve_view(combined, n, start, "raw", weights, quantum, samples)
        if view[2] is not None:
            classes = [view[3][c] for c in view[2]]
            if not views and _settled(view[0], classes):
                return view
            views.append((view[0].fit_cost(classes), view))
    if not views:
        return _resolve_view(combined, n, profile, "raw", weights, quantum, samples)
    views.sort(key=lambda item: item[0])
    best_fit, best = views[0]
    for fit, other in views[1:]:
        differ = _differ(best[2], other[2])
        if differ and fit - best_fit < MARGIN:
            raise _unresolved(best[0], "the colours can be read as two different cubes "
                              "about equally well: {} facelets differ".format(len(differ)), differ)
    return best


def _settled(model, classes):
    """A first start needs no second opinion: a quiet scan (its closest two
    colours at least QUIET_SEPARATION sd apart, so no class mixes two colours)
    whose cube takes every reading as it is (no facelet corrected, no junk).
    A wrong but self-consistent reading needs a class spread over two
    colours, which is not quiet, or readings bent to it, which are corrected."""
    return model.scale <= QUIET_SCALE and not any(model.junk) and not _corrected(model.cost, classes)


def _corrected(cost, classes):
    """Facelets whose colour costs CORRECTION_COST or more above their nearest."""
    return [i for i, row in enumerate(cost) if row[classes[i]] - min(row) >= CORRECTION_COST]


def _differ(a, b):
    """Facelets where two facelet strings differ, up to the renaming of the
    colours that most facelets agree on."""
    mapping = _renaming(a, b)
    return [i for i, (x, y) in enumerate(zip(a, b)) if mapping.get(x) != y]


def _renaming(a, b):
    """{letter of a: letter of b}: the renaming of the colours that most
    facelets of two facelet strings agree on."""
    votes = {}
    for x, y in zip(a, b):
        votes[(x, y)] = votes.get((x, y), 0) + 1
    mapping = {}
    for (x, y), _ in sorted(votes.items(), key=lambda item: (-item[1], item[0])):
        if x not in mapping and y not in mapping.values():
            mapping[x] = y
    return mapping


def resolve(readings, n, profile=None):
    """The most likely valid cube for `readings`; see the module docstring.

    readings: 6*N*N lists (URFDLB facelet order) of one or more (r, g, b)
    samples. profile: a colour profile (cubebot.robot.colour.profile) or None. Returns
    a Resolution; raises ScanUnresolved (with the facelets to rescan) when no
    valid cube is clearly the most likely, MalformedScan (a ValueError) for
    readings of the wrong shape.

    Two models judge the scan: the model learned from the scan (cubebot.robot.colour.rawmodel,
    any sensor) and the EV3 count model (cubebot.robot.colour.countmodel: the EV3 sensor's
    noise in raw counts). The count model speaks only where it describes the
    scan (`_counts_apply`); then a cube is returned only if no model that
    applies reports the scan or reads another cube.
    """
    check_size(n)
    readings = check_readings(readings, n)
    profile = check_profile(profile) if profile is not None else None
    combined = [combine(samples) for samples in readings]
    weights = sample_weights(readings)
    quantum = resolution([c for samples in readings for s in samples for c in s])
    start = _attempt(lambda: _best_start(combined, n, profile, weights, quantum, readings))
    learned = start if isinstance(start, ScanUnresolved) else \
        _attempt(lambda: _decide(start, readings, n, junk_erases=True))
    # A cube the readings give as they are (no facelet corrected, and a sensor
    # that does not misread often) stands on the learned model alone;
    # corrections need the count model's consent
    # where it applies (at high noise the learned model alone returned a few
    # wrong corrected cubes in the synthetic bench).
    plain = not isinstance(learned, ScanUnresolved) and not learned[1] \
        and not _misreads_often(readings)
    # ... and needs no second opinion when it is also clear: a 3x3x3 with no
    # doubtful facelet and the next valid cube at least SEARCH_MARGIN
    # further. A 2x2x2 is never clear (its colour has four facelets: a wrong
    # reading can bend its class so that the learned model sees nothing
    # amiss), nor a bigger cube (its wings and centres are assigned orbit by
    # orbit, which the gap does not cover: in the full synthetic run two
    # quiet 4x4x4 scans resolved wrong by exchanging two wings, each to
    # explain a wild reading, and the count model read both right).
    if plain and n == 3 and not learned[0].doubtful and learned[2] >= SEARCH_MARGIN \
            and not _marginal(start[0], combined):
        return learned[0]
    consent = plain and n == 3 and _marginal(start[0], combined)
    view = counted = None
    if _count_scale(combined):
        view = _resolve_view(combined, n, profile or default_profile(), "counts", weights)
        counted = _attempt(lambda: _decide(view, readings, n))
    try:
        if consent and view is not None and _counts_apply(view[0]) and \
                isinstance(counted, ScanUnresolved):
            # A marginal 3x3x3 needs the count model's consent.
            raise counted
        return _judge(learned, plain, view, counted, n)
    except ScanUnresolved as report:
        # A report names what both models doubt: the cube that comes out of
        # the rescan may rest on either of them (the count model's cube where
        # the learned model reports, and the other way round), so a rescan of
        # one model's doubts alone can leave the other's standing for ever.
        named = set(report.doubtful) | set(_named(learned))
        if view is not None and _counts_apply(view[0]):
            named |= set(_named(counted))
        raise ScanUnresolved(str(report), sorted(named))


def _marginal(model, combined):
    """Whether a clear 3x3x3 of the learned `model` still needs the count
    model's consent: its readings exceed the 8-bit range (EIGHT_BIT), so they
    come from a raw count sensor, which the count model describes (a webcam's
    sRGB, which it does not, stays within it), and the learned model is not
    sure of its classes: a junk reading, or a noise scale above
    CONSENT_SCALE (the two closest colours less than about 4.2 sd apart).
    In the synthetic bench (3x3x3 high noise, seed 1008) scans 280 (scale
    0.89: two reds read as orange and two oranges as red form another valid
    cube) and 296 (a junk reading and two wild readings) were read wrong,
    clear to the learned model; the count model reported both."""
    return (any(model.junk) or model.scale > CONSENT_SCALE) and \
        max(c for x in combined for c in x) > EIGHT_BIT


def _judge(learned, plain, view, counted, n):
    """The decision of the two models' decisions (see `resolve`): a Resolution,
    or raises ScanUnresolved."""
    if plain:
        # Otherwise the count model, where it applies and reads another cube,
        # vetoes it (a moderate-noise 3x3x3 of the synthetic bench: a wild
        # reading explained by two pieces exchanged, one facelet between red
        # and orange; the next valid cube, the right one, 9.5 further);
        # where it reads the same cube its doubts are added.
        if view is not None and _counts_apply(view[0]) and \
                not isinstance(counted, ScanUnresolved):
            differ = _differ(learned[0].state, counted[0].state)
            if differ:
                raise _unresolved(view[0], "the two colour models read different cubes: {} "
                                  "facelets differ".format(len(differ)), differ)
        return learned[0] if view is None else _with_doubts(learned[0], counted)
    if view is None or not _counts_apply(view[0]):
        result = _outcome(learned)
        if n == 2 and learned[1]:
            # A 2x2x2 has the weakest constraints (no centres, no edges): a
            # correction no second model confirms is read again (a dim pastel
            # 2x2x2 in the robot bench resolved wrong with one correction).
            raise ScanUnresolved("{} facelets of a 2x2x2 read unlike the colour the cube needs "
                                 "there".format(len(learned[1])), sorted(learned[1]))
        return result
    if not isinstance(learned, ScanUnresolved) and not isinstance(counted, ScanUnresolved):
        differ = _differ(learned[0].state, counted[0].state)
        if differ:
            raise _unresolved(view[0], "the two colour models read different cubes: {} facelets "
                              "differ".format(len(differ)), differ)
        return _with_doubts(learned[0], counted)
    if not isinstance(learned, ScanUnresolved) and learned[1] \
            and len(counted.doubtful) > len(learned[1]):
        # The count model found the scan unclear; the learned model's
        # corrections are what a rescan should settle.
        raise ScanUnresolved("{}; the learned model needed {} corrections".format(
            counted, len(learned[1])), sorted(learned[1]))
    if isinstance(learned, ScanUnresolved) and isinstance(counted, ScanUnresolved):
        raise learned
    return _outcome(counted)


def resolve_counts(readings, n, profile=None):
    """The previous version's resolver, the EV3 count model alone
    (cubebot.robot.colour.countmodel; benchmarks compare against it): a
    Resolution, or ScanUnresolved."""
    check_size(n)
    readings = check_readings(readings, n)
    profile = check_profile(profile) if profile is not None else None
    combined = [combine(samples) for samples in readings]
    view = _resolve_view(combined, n, profile or default_profile(), "counts",
                         sample_weights(readings))
    return _decide(view, readings, n)[0]


def _named(decision):
    """The facelets one model's decision doubts: a report's, or a resolved
    cube's doubtful and corrected facelets."""
    if isinstance(decision, ScanUnresolved):
        return decision.doubtful
    return list(decision[0].doubtful) + list(decision[1])


def _with_doubts(result, other):
    """`result` with the doubtful facelets of the other model's decision added
    when that model read the same cube."""
    if isinstance(other, ScanUnresolved) or _differ(result.state, other[0].state):
        return result
    return result._replace(doubtful=sorted(set(result.doubtful) | set(other[0].doubtful)))


def _attempt(decide):
    """The Resolution, or the ScanUnresolved, of one model's decision."""
    try:
        return decide()
    except ScanUnresolved as exc:
        return exc


def _outcome(result):
    """The Resolution of a (Resolution, corrected) decision; raises a ScanUnresolved."""
    if isinstance(result, ScanUnresolved):
        raise result
    return result[0]


def _count_scale(combined):
    """Readings on a count scale: the median brightest channel at least
    COUNTS_MIN_LEVEL (the count model's noise floor is 4 counts)."""
    return median([max(x) for x in combined]) >= COUNTS_MIN_LEVEL


def _counts_apply(model):
    """Whether the EV3 count model describes this scan: readings on a count
    scale (`_count_scale`) and a fitted noise scale at most COUNTS_APPLY_SCALE
    (a scan from another sensor ends far above, or at its upper bound)."""
    from .countmodel import SCALE_MAX
    return _count_scale(model.combined) and model.scale <= min(SCALE_MAX, COUNTS_APPLY_SCALE) * 0.999


def _decide(view, readings, n, junk_erases=False):
    """(Resolution, corrected facelets, cost gap to the next valid cube) from
    one model's resolved view, or ScanUnresolved (the decision rules).

    junk_erases: a junk reading on a big cube holds its orbits to the noisy
    scan's standard (the learned model: its classes are fitted tight, so a
    wild reading of another colour fits one of them and only the junk one is
    left free; the count model's junk is judged against the EV3's absolute
    noise, and it is kept as the previous resolver was, the benchmarks' anchor).
    """
    model, search, letters, label, ambiguous = view
    cost = model.cost
    if letters is None:
        raise _unresolved(model, "no valid cube is close to the readings",
                          _low_margin(cost, None, MARGIN))
    if n == 2 and getattr(model, "separation", MIN_SEPARATION_2X2) < MIN_SEPARATION_2X2:
        raise _unresolved(model, "the colours are not clearly apart ({:.1f} sd): a 2x2x2 has too "
                          "few facelets per colour to settle them".format(model.separation),
                          _low_margin(cost, [label[c] for c in letters], MARGIN))
    best_cost = search.found[0][0]
    if len(search.found) > 1 and search.found[1][0] - best_cost < MARGIN:
        _, label2, placements2 = search.found[1]
        other = _letters(n, label2, placements2)
        differ = [i for i, (a, b) in enumerate(zip(letters, other))
                  if b is not None and label[a] != label2[b]]
        raise _unresolved(model, "two valid cubes fit the readings almost equally well: "
                          "{} facelets differ".format(len(differ)), differ)
    if search.exhausted:
        raise _unresolved(model, "the search ran out of effort: the readings are too unclear",
                          _low_margin(cost, None, MARGIN))
    if ambiguous:
        raise _unresolved(model, "some wings or centres could be swapped: {} facelets are "
                          "doubtful".format(len(ambiguous)), sorted(ambiguous))
    classes = [label[c] for c in letters]
    # A junk reading (it fits no colour) is no evidence. One on a quiet scan is
    # settled by the cube's constraints; on a noisy scan, or with more than
    # MAX_JUNK of them, the sensor is misbehaving and the colour the
    # constraints give rests on readings that may be wild too (a 3x3x3 at high
    # noise went wrong with two junk readings, an orange-looking red and a
    # red-looking blue): they are read again.
    quiet = _is_quiet(model, readings)
    junk = sum(model.junk)
    if junk > MAX_JUNK or (junk and not quiet):
        raise _unresolved(model, "{} readings fit no colour (at most {} on a quiet scan)".format(
            junk, MAX_JUNK), [])
    if (not quiet or junk and junk_erases) and n > 3:
        # A junk reading is an erasure: its wing or centre takes whatever
        # colour balances its orbit, so one wild reading elsewhere in the orbit
        # can be explained by exchanging it at no cost (the full synthetic run:
        # quiet 4x4x4 scans with one junk and one wild reading resolved wrong
        # by two centres exchanged). The orbits are then held to the noisy
        # scan's standard.
        _check_noisy_orbits(model, n, label, letters, classes)
    corrected = _corrected(cost, classes)
    doubtful = [i for i, row in enumerate(cost) if row[classes[i]] - min(row) >= NOT_NEAREST_COST
                or row[classes[i]] >= UNLIKE_COST]
    gap = search.found[1][0] - best_cost if len(search.found) > 1 else SEARCH_MARGIN
    # (On a noisy big cube no wing or centre is corrected: _check_noisy_orbits.)
    allowed = MAX_CORRECTIONS if quiet else NOISY_CORRECTIONS
    if len(corrected) > allowed or gap < MARGIN + MARGIN_PER_CORRECTION * (len(corrected) - 1):
        raise _unresolved(model, "{} facelets read unlike the colour the cube needs there "
                          "(at most {} are corrected, a second one only on a quiet scan with no "
                          "other valid cube close)".format(len(corrected), allowed),
                          corrected)
    if junk_erases:
        _check_held_out(model, n, letters, label, classes)
    return Resolution(
        state="".join(letters),
        confidence=round(1.0 - math.exp(-gap), 4),
        doubtful=doubtful,
        references=dict((face, [round(v, 1) for v in model.references[label[face]]])
                        for face in FACES),
        facelets=[_softmax(row, k) for row, k in zip(cost, classes)],
    ), corrected, gap


def _check_held_out(model, n, letters, label, classes):
    """Raise ScanUnresolved when the cube does not stand MARGIN clear of every
    other valid cube once each facelet is judged by its colour fitted without
    it (RawModel.held_out_cost): the learned classes were refitted to this
    very cube, so a few readings that bent a class towards a wrong cube make
    that cube look clear; left out one at a time, they no longer fit it.
    The corners and edges are searched again on the held-out costs, and
    the wings and centres of big cubes (assigned orbit by orbit) must then
    have no exchange of two within MARGIN either (`_orbit_solve`): in the
    4x4x4 high-noise synthetic row (seed 1014, scans 431 and 984) a wild or
    borderline reading was explained by two wings or centres exchanged, 7.4
    and 8.2 clear under the refitted classes but 4.2 and 6.2 held out."""
    cost = model.held_out_cost(classes)
    search, other, _, _ = _search(cost, n)
    if other is None:
        raise _unresolved(model, "no valid cube is clearly the most likely once each reading "
                          "is judged apart from its colour", _low_margin(cost, classes, MARGIN))
    differ = _differ(letters, other)
    if not differ and len(search.found) > 1 and search.found[1][0] - search.found[0][0] < MARGIN:
        _, label2, placements2 = search.found[1]
        second = _letters(n, label2, placements2)
        differ = [i for i in _differ(letters, second) if second[i] is not None]
    if not differ and n > 3:
        differ = sorted(_orbit_solve(cost, n, label, list(letters)))
    if differ:
        raise _unresolved(model, "another valid cube is about as likely once each reading is "
                          "judged apart from its colour: {} facelets differ".format(len(differ)),
                          differ)


def _softmax(row, k):
    """Probability of class k among the six under costs `row`."""
    low = min(row)
    weights = [math.exp(low - c) for c in row]
    return round(weights[k] / sum(weights), 4)
