"""The colour model of one scan, learned from the scan itself: per facelet, the cost of each class.

Nothing is assumed about the sensor's scale, gains or the cube's six colours:
1. each reading becomes its per-channel logarithm after adding an offset
   (`log_features`), OFFSET_SHARE of the scan's typical level but at least
   OFFSET_QUANTA steps of the scan's own resolution (1 count, 1/1020, ...):
   a brightness change is then a shift along (1, 1, 1), a channel gain a
   shift along its axis, and a dim channel (a few counts) is compressed so
   that its quantisation noise does not dominate;
2. the six classes start as a balanced clustering of the body facelets
   (cubebot.robot.colour.clusters: every colour covers the same number of them), or from a
   calibration profile when one is given;
3. each class is a Gaussian in that log space, full covariance, shrunk
   towards the pooled one and floored (FEATURE_SD_MIN); the cost of class k
   is its negative log-likelihood minus the facelet's lowest, capped at
   COST_CAP, times the facelet's weight;
4. the middle centres of odd cubes are read from another spot on some robots
   and look unlike the body: their look is the body's class plus one shift
   (a per-channel gain) for all six, first the log-space grey world of the
   six (each colour is one centre) and after a resolve the median of each
   centre's offset from its class, with a wider spread (CENTRE_VAR_FACTOR);
5. `refit(classes)` re-estimates everything from a resolved cube, with each
   face's cast and each spot's gross cast (one grid position on every face)
   taken out of the readings (`_face_shifts`).

`scale` is the scan's noise against how far apart its colours are: the
squared ratio of QUIET_SEPARATION to the smallest Mahalanobis distance
between two class means; at most 1 means a quiet scan.
"""

import math

from .clusters import balanced_kmeans
from cubebot.robot.colour.labmodel import COST_CAP, OUTLIER_COST
from cubebot.robot.colour.space import combine, mean_rgb, median
from cubebot.robot.colour.pieces import orbits

# The log offset: this share of the scan's typical level (median brightest channel) ...
OFFSET_SHARE = 0.02
# ... and at least this many steps of the readings' resolution.
OFFSET_QUANTA = 3.0
# Smallest standard deviation of a class along any direction (log units: ~2%).
FEATURE_SD_MIN = 0.005
# Pseudo-members of the pooled covariance in each class's covariance.
COVARIANCE_PRIOR = 3.0
# The middle centres' spread against the body's, and an extra sd (log units).
CENTRE_VAR_FACTOR = 2.0
CENTRE_SD_EXTRA = 0.08
# A reading whose Mahalanobis misfit (half the squared distance) under every
# class is at least this is junk: no evidence (cost 0 for every class), left
# out of the refit.
JUNK_COST = 20.0
# Pseudo-facelets of no offset in each face's cast estimate (cubebot.robot.colour.rawmodel._face_shifts).
FACE_SHIFT_PRIOR = 2.0
FACE_SHIFTS = True
# Only the part of a spot's cast beyond this (log units, about 15%) is taken
# out, and the rounds of fitting the face and spot casts by turns
# (RawModel._face_shifts).
SPOT_SHIFT_MIN = 0.15
SPOT_SHIFTS = True
SHIFT_ROUNDS = 2
# Class means this many sd apart (Mahalanobis) make a quiet scan (scale 1).
QUIET_SEPARATION = 3.0
# The noise scale stays within these.
SCALE_MIN, SCALE_MAX = 0.05, 20.0


def resolution(values):
    """The smallest step between distinct channel values (the sensor's quantum)."""
    distinct = sorted(set(values))
    steps = [b - a for a, b in zip(distinct, distinct[1:]) if b - a > 0]
    if not steps:
        return 1.0
    return max(min(steps), 1e-9)


def log_offset(combined, quantum):
    """The offset added before the logarithm for this scan (see module doc).

    quantum: the resolution of the raw samples (`resolution` of all their
    channel values).
    """
    values = [c for x in combined for c in x]
    level = median([max(x) for x in combined]) or max(values) or 1.0
    return max(OFFSET_SHARE * level, OFFSET_QUANTA * quantum)


def log_features(rgb, offset):
    """(log r, log g, log b) of a reading with `offset` added to each channel."""
    return tuple(math.log(max(c, 0.0) + offset) for c in rgb)


def _mean(vectors):
    count = float(len(vectors))
    return tuple(sum(v[a] for v in vectors) / count for a in range(3))


def _scatter(vectors, mean):
    out = [[0.0] * 3 for _ in range(3)]
    for v in vectors:
        d = [v[a] - mean[a] for a in range(3)]
        for a in range(3):
            for b in range(3):
                out[a][b] += d[a] * d[b]
    return out


def _inverse(m):
    """(inverse, log determinant) of a symmetric positive definite 3x3 matrix."""
    a, b, c = m[0]
    d, e, f = m[1]
    g, h, i = m[2]
    co = [e * i - f * h, -(d * i - f * g), d * h - e * g]
    det = a * co[0] + b * co[1] + c * co[2]
    det = max(det, 1e-30)
    inv = [[co[0] / det, -(b * i - c * h) / det, (b * f - c * e) / det],
           [co[1] / det, (a * i - c * g) / det, -(a * f - c * d) / det],
           [co[2] / det, -(a * h - b * g) / det, (a * e - b * d) / det]]
    return inv, math.log(det)


def _maha(x, mean, inv):
    """(x - mean)' inv (x - mean), written out (the resolver's innermost sum;
    the terms added in the same order as the double sum over channels)."""
    d0, d1, d2 = x[0] - mean[0], x[1] - mean[1], x[2] - mean[2]
    i0, i1, i2 = inv
    return (d0 * i0[0] * d0 + d0 * i0[1] * d1 + d0 * i0[2] * d2
            + d1 * i1[0] * d0 + d1 * i1[1] * d1 + d1 * i1[2] * d2
            + d2 * i2[0] * d0 + d2 * i2[1] * d1 + d2 * i2[2] * d2)


def quantisation_var(mean, quantum):
    """Per channel, the variance (log units squared) that rounding to the
    sensor's steps adds to a reading whose log features are `mean`: a step of
    `quantum` counts is uniform rounding error of variance quantum**2 / 12,
    which the logarithm divides by the level (reading plus offset, exp(mean)).
    Negligible for bright readings; for a dim EV3 channel of a few counts it
    is most of the spread, which a class whose members share one count value
    would otherwise not show."""
    return tuple(quantum * quantum / 12.0 * math.exp(-2.0 * m) for m in mean)


def _shrunk_cov(scatter, count, pooled, trace, extra=(0.0, 0.0, 0.0)):
    """A class's covariance from its scatter over `count` members: the prior
    has the pooled shape at this class's own size (its variance summed over
    channels, shrunk towards the pooled size geometrically: a saturated
    webcam white, a hundred times tighter than a red, stays about that much
    tighter and a broad class stays broad; an arithmetic mean let the red's
    spread blur a white from a saturated yellow), plus the feature floor and
    `extra` per channel (the class's quantisation variance)."""
    floor = FEATURE_SD_MIN ** 2
    own = sum(scatter[a][a] for a in range(3)) / count if count >= 2 else trace
    size = math.exp(count * math.log(max(own, 1e-12) / trace) / (count + COVARIANCE_PRIOR))
    return [[(scatter[a][b] + COVARIANCE_PRIOR * size * pooled[a][b]) / (count + COVARIANCE_PRIOR)
             + (floor + extra[a] if a == b else 0.0) for b in range(3)] for a in range(3)]


def _members(offsets, indices):
    """(index, offset) of the facelets among `indices` that have an offset."""
    return [(i, offsets[i]) for i in indices if offsets[i] is not None]


def _shrunk_median(offsets, prior):
    """Per channel, the median of `offsets` times len / (len + prior): the
    median shrunk towards no offset by `prior` pseudo-members."""
    if not offsets:
        return [0.0, 0.0, 0.0]
    share = len(offsets) / (len(offsets) + prior)
    return [share * median([o[a] for o in offsets]) for a in range(3)]


def _beyond(shift, least):
    """Per channel, the part of `shift` beyond +-least (soft threshold)."""
    return [math.copysign(max(abs(v) - least, 0.0), v) for v in shift]


def _nll(x, means, models):
    """(negative log-likelihood per class, smallest misfit) of log features x
    under classes (means, (inverse, log determinant))."""
    misfit = [0.5 * _maha(x, m, inv) for m, (inv, _) in zip(means, models)]
    return [f + 0.5 * logdet for f, (_, logdet) in zip(misfit, models)], min(misfit)


def _parts(samples, offset):
    """{facelet: [(weight, log features)]} for the facelets read more often
    than the scan's usual count (its median): their samples in parts of the
    usual count (the remainder joins the last part), each part combined
    (cubebot.robot.colour.space.combine) and weighted by its size over the usual
    count. A rescanned facelet's samples are separate evidence, each part
    judged like any facelet's reading: combining them all first let two
    channels of different samples mix (a rescanned orange read as red)."""
    base = max(1, int(median([len(s) for s in samples])))
    out = {}
    for i, facelet in enumerate(samples):
        if len(facelet) <= base:
            continue
        chunks = [facelet[j:j + base] for j in range(0, len(facelet) - len(facelet) % base, base)]
        if len(facelet) % base:
            chunks[-1] = chunks[-1] + facelet[len(facelet) - len(facelet) % base:]
        out[i] = [(len(chunk) / float(base), log_features(combine(chunk), offset))
                  for chunk in chunks]
    return out


class RawModel(object):
    """Costs `cost[i][k]` of facelet i being class k, for one scan (see module doc).

    combined: one (r, g, b) per facelet (URFDLB), any scale; n: the size;
    profile: a colour profile (cubebot.robot.colour.profile) to start the classes from,
    or None to start from the scan alone; weights[i] (default 1) multiplies
    facelet i's costs (its evidence against a typical facelet's); quantum:
    the raw samples' resolution (`resolution`), if several were combined (by
    default that of `combined`, right for one sample per facelet: combined
    samples are no longer on the sensor's steps).
    `references[k]` is class k's mean reading (the scan's own units);
    `junk[i]` flags readings that fit no class.

    samples: the readings themselves (per facelet, its samples), if a
    facelet may hold more samples than the scan's usual count (a rescan):
    such a facelet is then costed as the sum of its parts (`_parts`), each
    part the usual count of samples, capped and judged junk on its own.
    """

    def __init__(self, combined, n, profile=None, weights=None, quantum=None, samples=None):
        self.combined = combined
        self.weights = weights or [1.0] * len(combined)
        self.fixed = orbits(n).fixed
        fixed = set(self.fixed)
        self.body = [i for i in range(len(combined)) if i not in fixed]
        self.quantum = resolution([c for x in combined for c in x]) if quantum is None else quantum
        self.offset = log_offset(combined, self.quantum)
        self.raw_feats = [log_features(x, self.offset) for x in combined]
        self.parts = _parts(samples, self.offset) if samples is not None else {}
        self.feats = list(self.raw_feats)
        self.nn = n * n
        self.junk = [False] * len(combined)
        self.scale = 1.0
        body_feats = [self.feats[i] for i in self.body]
        if profile is not None:
            starts = [log_features(r, self.offset) for r in profile["facelets"]]
            shift = [a - b for a, b in zip(_mean(body_feats), _mean(starts))]
            starts = [tuple(s + d for s, d in zip(start, shift)) for start in starts]
            groups = balanced_kmeans(body_feats, 6, starts)
        else:
            groups = balanced_kmeans(body_feats, 6)
        classes = [None] * len(combined)
        for k, group in enumerate(groups):
            for j in group:
                classes[self.body[j]] = k
        self.shift = None
        self._fit(classes, [True] * len(combined))
        if self.fixed:
            # Log-space grey world of the six centres: one of each colour.
            centre_mean = _mean([self.feats[i] for i in self.fixed])
            self.shift = [a - b for a, b in zip(centre_mean, _mean(self.means))]
        self._costs()

    def refit(self, classes):
        """Class statistics and the centres' shift from a resolved cube (class per facelet).

        Facelets that read clearly unlike their class (OUTLIER_COST) are left out.
        """
        keep = [not self.junk[i] and self.cost[i][classes[i]] - min(self.cost[i]) < OUTLIER_COST
                for i in range(len(classes))]
        self._fit(classes, keep)
        if FACE_SHIFTS:
            self._face_shifts(classes, keep)
            self._fit(classes, keep)
        centre_classes = [classes[i] for i in self.fixed]
        if self.fixed and len(set(centre_classes)) == len(centre_classes):
            offsets = [[self.feats[i][a] - self.means[k][a] for a in range(3)]
                       for i, k in zip(self.fixed, centre_classes)]
            self.shift = [median([o[a] for o in offsets]) for a in range(3)]
        self._costs()

    def _face_shifts(self, classes, keep):
        """Take out each face's own cast and each spot's gross cast.

        A webcam photographs each face in its own light; a robot reads a
        spot of every face (one position of the face's grid) from the same
        arm position, and a misplaced arm reads that spot dimmer on every face
        (a leJOS robot's scans read its top edges at a quarter to half the
        brightness). The two casts are additive in log space and fitted by
        turns (SHIFT_ROUNDS): a face's cast is the median offset of its body
        facelets from their classes once their spots' casts are out, shrunk
        by FACE_SHIFT_PRIOR pseudo-facelets of no offset; a spot's cast the
        median over the six faces, of which only what exceeds SPOT_SHIFT_MIN
        is taken (six readings give a noisy median: small spot casts, a
        lens's vignetting, are left to the classes' spread)."""
        fixed = set(self.fixed)
        nn = self.nn
        offsets = [None] * len(self.raw_feats)
        for i in self.body:
            if keep[i]:
                offsets[i] = [self.raw_feats[i][a] - self.means[classes[i]][a] for a in range(3)]
        faces = [[0.0, 0.0, 0.0] for _ in range(6)]
        spots = [[0.0, 0.0, 0.0] for _ in range(nn)]
        for _ in range(SHIFT_ROUNDS if SPOT_SHIFTS else 1):
            faces = [_shrunk_median([[o[a] - spots[i % nn][a] for a in range(3)]
                                     for i, o in _members(offsets, range(f * nn, (f + 1) * nn))],
                                    FACE_SHIFT_PRIOR) for f in range(6)]
            if SPOT_SHIFTS:
                spots = [_beyond(_shrunk_median([[o[a] - faces[i // nn][a] for a in range(3)]
                                                 for i, o in _members(offsets, range(p, 6 * nn, nn))],
                                                0.0), SPOT_SHIFT_MIN) for p in range(nn)]
        mean = [sum(s[a] for s in faces) / 6.0 for a in range(3)]
        self.feats = [tuple(x[a] - faces[i // nn][a] + mean[a]
                            - (spots[i % nn][a] if i not in fixed else 0.0) for a in range(3))
                      for i, x in enumerate(self.raw_feats)]

    def _fit(self, classes, keep):
        groups = [[] for _ in range(6)]
        for i in self.body:
            if keep[i] and classes[i] is not None:
                groups[classes[i]].append(i)
        old = getattr(self, "means", None)
        means, scatters, counts = [], [], []
        for k, group in enumerate(groups):
            if len(group) >= 2 or old is None and group:
                mean = _mean([self.feats[i] for i in group])
            else:
                mean = old[k] if old is not None else (0.0, 0.0, 0.0)
            means.append(mean)
            scatters.append(_scatter([self.feats[i] for i in group], mean))
            counts.append(len(group))
        total = max(1, sum(counts))
        floor = FEATURE_SD_MIN ** 2
        pooled = [[sum(s[a][b] for s in scatters) / total + (floor if a == b else 0.0)
                   for b in range(3)] for a in range(3)]
        covs = []
        trace = sum(pooled[a][a] for a in range(3))
        for s, count, mean in zip(scatters, counts, means):
            covs.append(_shrunk_cov(s, count, pooled, trace, quantisation_var(mean, self.quantum)))
        self.means = means
        self.covs = covs
        self._kept = [bool(keep[i]) and classes[i] is not None for i in range(len(classes))]
        self._pooled, self._trace = pooled, trace
        self.references = [mean_rgb([self.combined[i] for i in group]) if group else
                           tuple(math.exp(v) - self.offset for v in mean)
                           for group, mean in zip(groups, means)]
        self._set_scale()

    def _set_scale(self):
        inverses = [_inverse(c)[0] for c in self.covs]
        closest = None
        for k in range(6):
            for j in range(k + 1, 6):
                d = min(_maha(self.means[k], self.means[j], inverses[k]),
                        _maha(self.means[j], self.means[k], inverses[j]))
                closest = d if closest is None else min(closest, d)
        sep = math.sqrt(max(closest, 1e-12))
        self.separation = sep
        self.scale = min(SCALE_MAX, max(SCALE_MIN, (QUIET_SEPARATION / sep) ** 2))

    def _costs(self):
        body = [_inverse(c) for c in self.covs]
        self._models = body
        centre = None
        if self.fixed and self.shift is not None:
            extra = CENTRE_SD_EXTRA ** 2
            centre = [_inverse([[CENTRE_VAR_FACTOR * c[a][b] + (extra if a == b else 0.0)
                                 for b in range(3)] for a in range(3)]) for c in self.covs]
            centre_means = [tuple(m[a] + self.shift[a] for a in range(3)) for m in self.means]
        fixed = set(self.fixed)
        cost, junk, nll = [], [], []
        for i, x in enumerate(self.feats):
            if i in fixed and centre is not None:
                models, means = centre, centre_means
            else:
                models, means = body, self.means
            nll.append(_nll(x, means, models)[0])
            # A middle centre is never junk: the six centres settle each other.
            row, is_junk = self._row(i, means, models, i not in fixed)
            cost.append(row)
            junk.append(is_junk)
        self.cost = cost
        self.junk = junk
        self.nll = nll

    def _row(self, i, means, models, may_be_junk):
        """(cost row, junk) of facelet i under classes (means, (inverse, log
        determinant)): its reading's capped cost times its weight, or, for a
        facelet read more often than usual, the sum of its parts' capped costs
        (each part weighted by its share of the usual count; a junk part adds
        nothing); junk when every part is."""
        parts = self.parts.get(i)
        if parts is None:
            parts = [(self.weights[i], self.raw_feats[i])]
        # The face's cast, taken out of the facelet's reading, is taken out of each part.
        shift = [self.feats[i][a] - self.raw_feats[i][a] for a in range(3)]
        total, junk = [0.0] * 6, True
        for weight, x in parts:
            row, misfit = _nll(tuple(x[a] + shift[a] for a in range(3)), means, models)
            if may_be_junk and misfit >= JUNK_COST:
                continue
            junk = False
            low = min(row)
            total = [t + weight * min(c - low, COST_CAP) for t, c in zip(total, row)]
        return total, junk

    def held_out_cost(self, classes):
        """Per facelet, the cost of each class with the facelet's own class
        fitted *without it* (leave-one-out; `refit(classes)` must have run):
        a test of the cube `classes` that does not trust the refit to it. A
        class bent towards a few wrong members no longer explains them once
        each is left out of it; the other classes' costs are unchanged."""
        fixed = set(self.fixed)
        groups = [[] for _ in range(6)]
        for i in self.body:
            if self._kept[i]:
                groups[classes[i]].append(i)
        out = [list(row) for row in self.cost]
        for k, group in enumerate(groups):
            count = len(group)
            if count < 3:
                continue
            mean = self.means[k]
            scatter = _scatter([self.feats[i] for i in group], mean)
            for i in group:
                x = self.feats[i]
                d = [x[a] - mean[a] for a in range(3)]
                m = count - 1
                loo_mean = tuple(mean[a] - d[a] / m for a in range(3))
                s = [[scatter[a][b] - d[a] * d[b] * count / float(m) for b in range(3)]
                     for a in range(3)]
                if i in fixed or self.junk[i]:
                    continue
                means = list(self.means)
                models = list(self._models)
                means[k] = loo_mean
                models[k] = _inverse(_shrunk_cov(s, m, self._pooled, self._trace,
                                                 quantisation_var(loo_mean, self.quantum)))
                out[i] = self._row(i, means, models, True)[0]
        return out

    def fit_cost(self, classes):
        """How well this model explains the scan as the cube `classes`: the summed
        negative log-likelihood (each facelet at most COST_CAP above its
        nearest class, junk left out), comparable between models of one scan."""
        total = 0.0
        for i, k in enumerate(classes):
            if not self.junk[i]:
                row = self.nll[i]
                total += self.weights[i] * min(row[k], min(row) + COST_CAP)
        return total
