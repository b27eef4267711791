"""From colour-sensor readings of any sensor and scale to the most likely valid facelet string.

`resolve(readings, n, profile=None)` is the whole job (docs/colors.md):
1. several samples of a facelet are combined robustly (cubebot.robot.colour.space.combine)
   and a facelet with more samples than usual weighs more (`sample_weights`);
2. the learned model (cubebot.robot.colour.rawmodel) costs each facelet per colour class,
   everything estimated from the scan itself, from two starts (`_best_start`);
3. the cheapest *valid* cube is searched jointly (cubebot.robot.colour.joint over
   cubebot.robot.colour.assign: one
   best-first search over all labellings; real corners and edges, no piece
   twice, twist, flip and, on odd cubes, corner/edge parity; cubebot.robot.colour.balanced
   for the wings and centres of big cubes), the model refitted on it and the
   cube searched again until it stays the same (REFIT_ROUNDS at most);
4. the decision rules (cubebot.robot.colour.decide) report a scan whose best cube is not
   clearly the one (ScanUnresolved names the facelets to rescan); a learned
   cube must also stand MARGIN clear with each facelet judged by its colour
   fitted without it (`decide.check_held_out`), not only under the refit to it;
5. the EV3 count model (cubebot.robot.colour.countmodel) gives a second opinion, where it
   describes the scan (`_counts_apply`), on every cube but a clear 3x3x3: no facelet
   corrected, none doubtful, the next valid cube at least SEARCH_MARGIN further;
6. a report names what both models doubt, so that a rescan settles both.
"""

from cubebot.solver.facelets import check_size

from cubebot.robot.colour.decide import (MARGIN, QUIET_SCALE, SEARCH_MARGIN, JunkReadings,
                                         Resolution, corrected_facelets, decide, differing,
                                         misreads_often, unresolved)
from cubebot.robot.colour.joint import cheapest
from cubebot.robot.colour.labmodel import ColourModel
from cubebot.robot.colour.profile import check_profile, default_profile
from cubebot.robot.colour.space import combine, median
from cubebot.robot.errors import ScanUnresolved
from .countmodel import CountModel
from cubebot.robot.colour.rawmodel import RawModel, resolution
from cubebot.robot.colour.scanfile import check_readings

# The EV3 count model (cubebot.robot.colour.countmodel) describes a scan whose fitted noise
# scale is at most this (its nominal noise is 1).
COUNTS_APPLY_SCALE = 2.0
# ... and its readings lie on a count scale: the median brightest channel at least this.
COUNTS_MIN_LEVEL = 20.0
# Rounds of re-estimating the colours from the resolved cube and resolving again.
REFIT_ROUNDS = 2
# A plain 3x3x3 on a raw count scale (a reading above EIGHT_BIT) whose learned
# noise scale is above CONSENT_SCALE, or that has a junk reading, needs the
# count model's consent (`_marginal`).
CONSENT_SCALE = 0.5
EIGHT_BIT = 255.0

__all__ = ["resolve", "resolve_counts", "sample_weights", "Resolution"]


def sample_weights(readings):
    """Per facelet, its sample count over the scan's median count (the weight of
    its evidence: a facelet read again outweighs a facelet read once)."""
    counts = [len(samples) for samples in readings]
    base = float(median(counts))
    return [k / base for k in counts]


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
        search, letters, label, ambiguous = cheapest(model.cost, n)
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
    views, tried = [], []
    for start in (None, profile or default_profile()):
        view = _resolve_view(combined, n, start, "raw", weights, quantum, samples)
        tried.append((start, view))
        if view[2] is not None:
            classes = [view[3][c] for c in view[2]]
            if not views and _settled(view[0], classes):
                return view
            views.append((view[0].fit_cost(classes), view))
    if not views:
        # no start found a valid cube: the one from `profile` itself (the scan's own
        # clustering when there is none) goes on to be reported; it was resolved above
        return next(view for start, view in tried if start is profile)
    views.sort(key=lambda item: item[0])
    best_fit, best = views[0]
    for fit, other in views[1:]:
        differ = differing(best[2], other[2])
        if differ and fit - best_fit < MARGIN:
            raise unresolved(best[0], "the colours can be read as two different cubes "
                              "about equally well: {} facelets differ".format(len(differ)), differ)
    return best


def _settled(model, classes):
    """A first start needs no second opinion: a quiet scan (its closest two
    colours at least QUIET_SEPARATION sd apart, so no class mixes two colours)
    whose cube takes every reading as it is (no facelet corrected, no junk).
    A wrong but self-consistent reading needs a class spread over two
    colours, which is not quiet, or readings bent to it, which are corrected."""
    return model.scale <= QUIET_SCALE and not any(model.junk) and not corrected_facelets(model.cost, classes)


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
        _attempt(lambda: decide(start, readings, n, junk_erases=True))
    # A cube the readings give as they are (no facelet corrected, and a sensor
    # that does not misread often) stands on the learned model alone;
    # corrections need the count model's consent
    # where it applies (at high noise the learned model alone returned a few
    # wrong corrected cubes in the synthetic bench).
    plain = not isinstance(learned, ScanUnresolved) and not learned[1] \
        and not misreads_often(readings)
    # ... and needs no second opinion when it is also clear: a 3x3x3 with no
    # doubtful facelet and the next valid cube at least SEARCH_MARGIN
    # further. A 2x2x2 is never clear (its colour has four facelets: a wrong
    # reading can bend its class so that the learned model sees nothing
    # amiss), nor a bigger cube (its wings and centres are assigned orbit by
    # orbit, which the gap does not cover: in the full synthetic run two
    # quiet 4x4x4 scans resolved wrong by exchanging two wings, each to
    # explain a wild reading, and the count model read both right).
    # A marginal one (`_marginal`) needs the count model's consent instead.
    consent = plain and n == 3 and _marginal(start[0], combined)
    if plain and n == 3 and not consent and not learned[0].doubtful and \
            learned[2] >= SEARCH_MARGIN:
        return learned[0]
    view = counted = None
    if _count_scale(combined):
        view = _resolve_view(combined, n, profile or default_profile(), "counts", weights)
        counted = _attempt(lambda: decide(view, readings, n))
    try:
        if consent and view is not None and _counts_apply(view[0]) and \
                isinstance(counted, ScanUnresolved) and not _one_junk(counted):
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
    """Whether a plain 3x3x3 of the learned `model` needs the count
    model's consent: its readings exceed the 8-bit range (EIGHT_BIT), so they
    come from a raw count sensor, which the count model describes (a webcam's
    sRGB, which it does not, stays within it), and the learned model is not
    sure of its classes: a junk reading, or a noise scale above
    CONSENT_SCALE (the two closest colours less than about 4.2 sd apart):
    there a self-consistent wrong cube can look clear to the learned model."""
    return (any(model.junk) or model.scale > CONSENT_SCALE) and \
        max(c for x in combined for c in x) > EIGHT_BIT


def _one_junk(report):
    """Whether a count-model report says only that one reading fits none of
    the EV3's colours on a noisy scan: that withholds no consent, since the
    learned model, whose colours are this scan's, placed that reading with no
    correction."""
    return isinstance(report, JunkReadings) and report.count == 1


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
            differ = differing(learned[0].state, counted[0].state)
            if differ:
                raise unresolved(view[0], "the two colour models read different cubes: {} "
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
        differ = differing(learned[0].state, counted[0].state)
        if differ:
            raise unresolved(view[0], "the two colour models read different cubes: {} facelets "
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
    return decide(view, readings, n)[0]


def _named(decision):
    """The facelets one model's decision doubts: a report's, or a resolved
    cube's doubtful and corrected facelets."""
    if isinstance(decision, ScanUnresolved):
        return decision.doubtful
    return list(decision[0].doubtful) + list(decision[1])


def _with_doubts(result, other):
    """`result` with the doubtful facelets of the other model's decision added
    when that model read the same cube."""
    if isinstance(other, ScanUnresolved) or differing(result.state, other[0].state):
        return result
    return result._replace(doubtful=sorted(set(result.doubtful) | set(other[0].doubtful)))


def _attempt(decision):
    """The Resolution, or the ScanUnresolved, of one model's decision (a
    callable that makes it)."""
    try:
        return decision()
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
