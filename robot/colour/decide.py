"""The decision rules: whether one colour model's cheapest valid cube is clearly the one.

`decide(view, readings, n)` takes one model's resolved view (its costs, the
joint search and the cube found: cubebot.robot.colour.joint) and returns
(Resolution, corrected facelets, cost gap to the next valid cube), or raises
ScanUnresolved naming the facelets to rescan (docs/colors.md, "Two models
judge a scan"). Costs are the model's (dimensionless, capped at COST_CAP).
"""

import math
from collections import namedtuple

from cubebot.solver.facelets import FACES

from cubebot.robot.colour.joint import (MARGIN, MARGIN_PER_CORRECTION, MAX_CORRECTIONS,
                                        SEARCH_MARGIN, cheapest, letters_of, low_margin,
                                        orbit_solve)
from cubebot.robot.colour.labmodel import COST_CAP
from cubebot.robot.colour.pieces import orbits
from cubebot.robot.colour.rescan import outlying_samples
from cubebot.robot.errors import ScanUnresolved

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
# At most this many corrections on a noisy scan (MAX_CORRECTIONS on a quiet one).
NOISY_CORRECTIONS = 1
# A quiet scan (a second correction is trusted only there): the fitted noise
# scale (cubebot.robot.colour.rawmodel) at most this.
QUIET_SCALE = 1.0


class JunkReadings(ScanUnresolved):
    """A report for readings that fit no colour (`count` of them): too many, or
    one on a noisy scan."""

    def __init__(self, message, doubtful, count):
        ScanUnresolved.__init__(self, message, doubtful)
        self.count = count


Resolution = namedtuple("Resolution", ["state", "confidence", "doubtful", "references", "facelets"])
Resolution.__doc__ = """The resolved scan.

state: URFDLB facelet string; confidence: 0..1 for the whole cube (from the
cost gap to the next valid cube); doubtful: facelet indices whose colour is
not their nearest, or that read unlike it (worth a rescan); references: {face letter: [r, g, b]} the
reference raw reading of each face's colour in this scan's light; facelets:
per facelet, 0..1 confidence in its colour.
"""


def misreads_often(readings):
    """More than WILD_SAMPLE_RATE of the samples (and at least MIN_WILD_SAMPLES)
    are outvoted within their facelet (cubebot.robot.colour.rescan.outlying_samples): a
    sensor that misreads that often can leave a facelet with a majority of
    wild samples, which no model of the readings can see."""
    wild = outlying_samples(readings)
    total = sum(len(samples) for samples in readings)
    return wild >= max(MIN_WILD_SAMPLES, WILD_SAMPLE_RATE * total)


def is_quiet(model, readings):
    """A scan is quiet when its noise scale is at most QUIET_SCALE and few of
    its samples are wild (outvoted within their facelet): more than
    WILD_SAMPLE_RATE of them (and at least MIN_WILD_SAMPLES) means the sensor
    misreads often, so a facelet may hold a majority of wild samples."""
    return model.scale <= QUIET_SCALE and not misreads_often(readings)


def unresolved(model, message, doubtful):
    """ScanUnresolved naming `doubtful` and every junk reading (it tells nothing:
    a rescan is its only evidence); all facelets when that names none."""
    junk = [i for i, flag in enumerate(model.junk) if flag]
    named = sorted(set(doubtful) | set(junk))
    # Nothing singled out (e.g. a sensor reading black everywhere): every facelet is in doubt.
    return ScanUnresolved(message, named or list(range(len(model.cost))))


def check_noisy_orbits(model, n, label, letters, classes):
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
    close = orbit_solve(cost, n, label, list(letters), NOISY_MARGIN)
    if off or close:
        raise unresolved(model, "{} wing or centre facelets are unsure on a noisy scan".format(
            len(set(off) | close)), set(off) | close)


def corrected_facelets(cost, classes):
    """Facelets whose colour costs CORRECTION_COST or more above their nearest."""
    return [i for i, row in enumerate(cost) if row[classes[i]] - min(row) >= CORRECTION_COST]


def decide(view, readings, n, junk_erases=False):
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
        raise unresolved(model, "no valid cube is close to the readings",
                          low_margin(cost, None, MARGIN))
    if n == 2 and getattr(model, "separation", MIN_SEPARATION_2X2) < MIN_SEPARATION_2X2:
        raise unresolved(model, "the colours are not clearly apart ({:.1f} sd): a 2x2x2 has too "
                          "few facelets per colour to settle them".format(model.separation),
                          low_margin(cost, [label[c] for c in letters], MARGIN))
    best_cost = search.found[0][0]
    if len(search.found) > 1 and search.found[1][0] - best_cost < MARGIN:
        _, label2, placements2 = search.found[1]
        other = letters_of(n, label2, placements2)
        differ = [i for i, (a, b) in enumerate(zip(letters, other))
                  if b is not None and label[a] != label2[b]]
        raise unresolved(model, "two valid cubes fit the readings almost equally well: "
                          "{} facelets differ".format(len(differ)), differ)
    if search.exhausted:
        raise unresolved(model, "the search ran out of effort: the readings are too unclear",
                          low_margin(cost, None, MARGIN))
    if ambiguous:
        raise unresolved(model, "some wings or centres could be swapped: {} facelets are "
                          "doubtful".format(len(ambiguous)), sorted(ambiguous))
    classes = [label[c] for c in letters]
    # A junk reading (it fits no colour) is no evidence. One on a quiet scan is
    # settled by the cube's constraints; on a noisy scan, or with more than
    # MAX_JUNK of them, the sensor is misbehaving and the colour the
    # constraints give rests on readings that may be wild too (a 3x3x3 at high
    # noise went wrong with two junk readings, an orange-looking red and a
    # red-looking blue): they are read again.
    quiet = is_quiet(model, readings)
    junk = sum(model.junk)
    if junk > MAX_JUNK or (junk and not quiet):
        report = unresolved(model, "{} readings fit no colour (at most {} on a quiet scan)".format(
            junk, MAX_JUNK), [])
        raise JunkReadings(str(report), report.doubtful, junk)
    if (not quiet or junk and junk_erases) and n > 3:
        # A junk reading is an erasure: its wing or centre takes whatever
        # colour balances its orbit, so one wild reading elsewhere in the orbit
        # can be explained by exchanging it at no cost (the full synthetic run:
        # quiet 4x4x4 scans with one junk and one wild reading resolved wrong
        # by two centres exchanged). The orbits are then held to the noisy
        # scan's standard.
        check_noisy_orbits(model, n, label, letters, classes)
    corrected = corrected_facelets(cost, classes)
    doubtful = [i for i, row in enumerate(cost) if row[classes[i]] - min(row) >= NOT_NEAREST_COST
                or row[classes[i]] >= UNLIKE_COST]
    gap = search.found[1][0] - best_cost if len(search.found) > 1 else SEARCH_MARGIN
    # (On a noisy big cube no wing or centre is corrected: check_noisy_orbits.)
    allowed = MAX_CORRECTIONS if quiet else NOISY_CORRECTIONS
    if len(corrected) > allowed or gap < MARGIN + MARGIN_PER_CORRECTION * (len(corrected) - 1):
        raise unresolved(model, "{} facelets read unlike the colour the cube needs there "
                          "(at most {} are corrected, a second one only on a quiet scan with no "
                          "other valid cube close)".format(len(corrected), allowed),
                          corrected)
    if junk_erases:
        check_held_out(model, n, letters, label, classes)
    return Resolution(
        state="".join(letters),
        confidence=round(1.0 - math.exp(-gap), 4),
        doubtful=doubtful,
        references=dict((face, [round(v, 1) for v in model.references[label[face]]])
                        for face in FACES),
        facelets=[softmax(row, k) for row, k in zip(cost, classes)],
    ), corrected, gap


def check_held_out(model, n, letters, label, classes):
    """Raise ScanUnresolved when the cube does not stand MARGIN clear of every
    other valid cube once each facelet is judged by its colour fitted without
    it (RawModel.held_out_cost): the learned classes were refitted to this
    very cube, so a few readings that bent a class towards a wrong cube make
    that cube look clear; left out one at a time, they no longer fit it.
    The corners and edges are searched again on the held-out costs, and
    the wings and centres of big cubes (assigned orbit by orbit) must then
    have no exchange of two within MARGIN either (`orbit_solve`): a wild or
    borderline reading can be explained by two wings or centres exchanged,
    clear under the refitted classes but not held out."""
    cost = model.held_out_cost(classes)
    search, other, _, _ = cheapest(cost, n)
    if other is None:
        raise unresolved(model, "no valid cube is clearly the most likely once each reading "
                          "is judged apart from its colour", low_margin(cost, classes, MARGIN))
    differ = differing(letters, other)
    if not differ and len(search.found) > 1 and search.found[1][0] - search.found[0][0] < MARGIN:
        _, label2, placements2 = search.found[1]
        second = letters_of(n, label2, placements2)
        differ = [i for i in differing(letters, second) if second[i] is not None]
    if not differ and n > 3:
        differ = sorted(orbit_solve(cost, n, label, list(letters)))
    if differ:
        raise unresolved(model, "another valid cube is about as likely once each reading is "
                          "judged apart from its colour: {} facelets differ".format(len(differ)),
                          differ)


def softmax(row, k):
    """Probability of class k among the six under costs `row`."""
    low = min(row)
    weights = [math.exp(low - c) for c in row]
    return round(weights[k] / sum(weights), 4)


def differing(a, b):
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
