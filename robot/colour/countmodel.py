"""The EV3 count model of one scan: the EV3 colour sensor's own noise model, in raw counts.

A facelet of class k reads x = b * mu_k + noise, where mu_k is the class's
reading in this scan's light, b the facelet's brightness (the arm's distance,
log-normal around 1) and the noise per channel has a part proportional to
the reading (JITTER) and a constant part (FLOOR counts). A dark channel (the
blue of red and orange: a few counts) is thereby trusted little. The cost of
class k is the negative log-likelihood at the best b, minus the facelet's
lowest, capped at COST_CAP. Same interface as cubebot.robot.colour.rawmodel.RawModel; cubebot.robot.colour.resolve
uses it as a second opinion where it describes the scan (an EV3 in RGB-RAW).
"""

import math

from cubebot.robot.colour.space import MIN_COUNT, channel_gain, mean_rgb, median, unscale
from cubebot.robot.colour.labmodel import COST_CAP, OUTLIER_COST
from cubebot.robot.colour.pieces import orbits

# Noise per channel: sd = JITTER * reading + FLOOR counts.
JITTER = 0.05
FLOOR = 4.0
# Spread of log brightness from facelet to facelet; centres spread more.
BRIGHTNESS_SD = 0.2
CENTRE_BRIGHTNESS_SD = 0.3
# The noise scale (variance against the nominal model) stays within these.
SCALE_MIN, SCALE_MAX = 0.2, 4.0
# Median misfit of a facelet under its class when the nominal model is right:
# half the median of a chi-square with 2 degrees of freedom (3 channels, 1 brightness).
MEDIAN_MISFIT = math.log(2.0)
# A reading that fits no class better than this (negative log-likelihood, noise
# scale applied) is junk: its nearest colour is no evidence (`junk[i]`), so it
# costs the same for every class and is left out of the refit.
JUNK_COST = 20.0
# Brightness is searched within these factors.
BRIGHTNESS_MIN, BRIGHTNESS_MAX = 0.3, 3.0


def _nll(x, mu, bright_sd):
    """(fit, prior): the negative log-likelihood of reading x for class reading mu
    at the best brightness, split into the channels' misfit and the brightness prior."""
    var = [(JITTER * c) ** 2 + FLOOR * FLOOR for c in x]
    num = sum(c * m / v for c, m, v in zip(x, mu, var))
    den = sum(m * m / v for m, v in zip(mu, var))
    b = min(BRIGHTNESS_MAX, max(BRIGHTNESS_MIN, num / den if den > 0 else 1.0))
    fit = sum((c - b * m) ** 2 / (2.0 * v) for c, m, v in zip(x, mu, var))
    return fit, math.log(b) ** 2 / (2.0 * bright_sd * bright_sd)


class CountModel(object):
    """Costs `cost[i][k]` of facelet i being class k, for one scan (see module doc).

    `weights[i]` (default 1) multiplies facelet i's costs: the evidence of its
    samples against that of a typical facelet of the scan (cubebot.robot.colour.resolve
    passes the sample count over the scan's median count, so a facelet read
    again five times outweighs the one reading of its neighbour).

    `scale` is the scan's noise variance against the nominal JITTER/FLOOR
    model, re-estimated at every refit from the facelets' misfit under their
    classes (robust: a median), so that a quiet sensor gets sharp costs and a
    noisy one soft costs.
    """

    def __init__(self, combined, n, profile, weights=None):
        refs = profile["facelets"]
        self.combined = combined
        self.weights = weights or [1.0] * len(combined)
        self.fixed = orbits(n).fixed
        fixed = set(self.fixed)
        self.body = [i for i in range(len(combined)) if i not in fixed]
        gain = channel_gain([combined[i] for i in self.body], refs)
        self.references = [unscale(r, gain) for r in refs]
        self.centre_refs = None
        if self.fixed:
            crefs = profile.get("centres") or refs
            cgain = channel_gain([combined[i] for i in self.fixed], crefs)
            self.centre_refs = [unscale(r, cgain) for r in crefs]
        self.scale = 1.0
        self.centre_scale = 1.0
        self._costs(self.references)
        # First refinement: each class from the facelets nearest to it.
        self.refit([min(range(6), key=row.__getitem__) for row in self.cost])

    def refit(self, classes):
        """Class readings and noise scale from a resolved cube (class per facelet).

        Facelets that read clearly unlike their class (OUTLIER_COST) are left out.
        """
        groups = [[] for _ in range(6)]
        body = [i for i in self.body if not self.junk[i]]
        for i in body:
            row = self.cost[i]
            if row[classes[i]] - min(row) < OUTLIER_COST:
                groups[classes[i]].append(self.combined[i])
        mus = [mean_rgb(g) if len(g) >= 2 else mu for g, mu in zip(groups, self.mus)]
        misfit = [_nll(self.combined[i], mus[classes[i]], BRIGHTNESS_SD)[0] for i in body]
        if misfit:          # else every reading is junk (a dead sensor): keep the scale
            self.scale = min(SCALE_MAX, max(SCALE_MIN, median(misfit) / MEDIAN_MISFIT))
        centre_classes = [classes[i] for i in self.fixed]
        if self.fixed and len(set(centre_classes)) == len(centre_classes):
            self.centre_refs = self._centre_refs(centre_classes, mus)
            self.centre_scale = self.scale
        self._costs(mus)

    def _centre_refs(self, centre_classes, mus):
        """The class readings as the middle centres see them, from a resolved cube.

        The centres are read from another arm position: one gain per channel
        for all six (the reading over the class reading, each centre's own
        brightness divided out, the median over the centres, so that one
        wild centre does not move it).
        """
        shapes, levels = [], []
        for i, k in zip(self.fixed, centre_classes):
            ratio = [max(c, MIN_COUNT) / max(m, MIN_COUNT) for c, m in zip(self.combined[i], mus[k])]
            level = (ratio[0] * ratio[1] * ratio[2]) ** (1.0 / 3.0)
            levels.append(level)
            shapes.append([r / level for r in ratio])
        level = median(levels)
        gain = [level * median([s[ch] for s in shapes]) for ch in range(3)]
        return [unscale(mu, gain) for mu in mus]

    def _costs(self, mus):
        self.mus = mus
        cost, junk = [], []
        fixed = set(self.fixed)
        for i, x in enumerate(self.combined):
            if i in fixed:
                refs, bright_sd, scale = self.centre_refs, CENTRE_BRIGHTNESS_SD, self.centre_scale
            else:
                refs, bright_sd, scale = mus, BRIGHTNESS_SD, self.scale
            row = []
            for mu in refs:
                fit, prior = _nll(x, mu, bright_sd)
                row.append(fit / scale + prior)
            low = min(row)
            # A middle centre is never junk: its look varies more from robot to
            # robot, and the six centres settle each other (cubebot.robot.colour.assign).
            is_junk = low >= JUNK_COST and i not in fixed
            if is_junk:
                cost.append([0.0] * len(row))     # no evidence for any class
            else:
                cost.append([self.weights[i] * min(c - low, COST_CAP) for c in row])
            junk.append(is_junk)
        self.cost = cost
        self.junk = junk
