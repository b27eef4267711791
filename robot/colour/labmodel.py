"""The colour model of one scan: per facelet, the cost of each colour class.

Steps (see docs/colors.md):
1. white balance: the scan's mean reading per channel against the
   references' (grey-world: a cube shows every colour equally often); the
   six middle centres of odd cubes get their own balance, since they are read
   from another arm position and look darker and yellower;
2. CIE Lab, relative to the white reference;
3. class statistics: each class's mean and per-axis variance, first from the
   facelets nearest to each reference, later (`refit`) from a resolved cube;
4. cost = the negative log-likelihood of a diagonal Gaussian per class, the
   variances shrunk towards the pooled one, capped at COST_CAP (a wild
   reading is about equally unlike every colour).
"""

import math

from cubebot.robot.colour.space import SPACES, channel_gain, scale, unscale
from cubebot.robot.colour.pieces import orbits

# Highest cost of one facelet for one class.
COST_CAP = 10.0
# Highest cost along one axis: one wild channel cannot outvote the other two.
AXIS_CAP = 4.0
# A facelet whose class costs this much more than its nearest does not count in refit.
OUTLIER_COST = 4.0
# Per-class variances: pseudo-members of the pooled variance, and its floor (feature units^2).
VARIANCE_PRIOR = 4.0
VARIANCE_FLOOR = 1e-4
# Centres are trusted less than other facelets: their sd is this much larger.
CENTRE_SIGMA_FACTOR = 1.5
# A class's first statistics need this share of N*N nearest facelets, else the reference is kept.
REFINE_SHARE = 0.5


class ColourModel(object):
    """Costs `cost[i][k]` of facelet i being class k, for one scan.

    combined: one (r, g, b) per facelet (URFDLB order); profile: a colour
    profile (cubebot.robot.colour.profile); space: a key of colorspace.SPACES. `references[k]` is class k's reference
    reading in this scan's light (raw counts).
    """

    def __init__(self, combined, n, profile, space="lab"):
        lab = SPACES[space]
        refs = profile["facelets"]
        self.n = n
        self.fixed = orbits(n).fixed
        fixed = set(self.fixed)
        self.body = [i for i in range(len(combined)) if i not in fixed]
        gain = channel_gain([combined[i] for i in self.body], refs)
        self.references = [unscale(r, gain) for r in refs]
        white = max(range(6), key=lambda k: sum(refs[k]))
        self.labs = [lab(scale(x, gain), refs[white]) for x in combined]
        means = [lab(r, refs[white]) for r in refs]
        groups = [[] for _ in means]
        for i in self.body:
            groups[min(range(6), key=lambda k: _d2(self.labs[i], means[k]))].append(i)
        for k, group in enumerate(groups):
            if len(group) >= max(2, REFINE_SHARE * n * n):
                means[k] = self._mean(group)
        self.centres = None
        if self.fixed:
            crefs = profile.get("centres") or refs
            cgain = channel_gain([combined[i] for i in self.fixed], crefs)
            self.centre_labs = [lab(scale(combined[i], cgain), crefs[white]) for i in self.fixed]
            if profile.get("centres"):
                self.centres = [lab(r, crefs[white]) for r in crefs]
        self._costs(means, groups)

    def refit(self, classes):
        """Recompute the class statistics from a resolved cube (class per facelet).

        Facelets that read clearly unlike their class (OUTLIER_COST) are left out.
        """
        groups = [[] for _ in range(6)]
        for i in self.body:
            row = self.cost[i]
            if row[classes[i]] - min(row) < OUTLIER_COST:
                groups[classes[i]].append(i)
        means = [self._mean(g) if g else (0.0, 0.0, 0.0) for g in groups]
        self._costs(means, groups)

    def _mean(self, group):
        return tuple(sum(self.labs[i][a] for i in group) / len(group) for a in range(3))

    def _costs(self, means, groups):
        labs = self.labs
        ssd = [[sum((labs[i][a] - m[a]) ** 2 for i in g) for a in range(3)]
               for m, g in zip(means, groups)]
        total = max(1, sum(len(g) for g in groups))
        pooled = [max(VARIANCE_FLOOR, sum(row[a] for row in ssd) / total) for a in range(3)]
        var = [[(row[a] + VARIANCE_PRIOR * pooled[a]) / (len(g) + VARIANCE_PRIOR) for a in range(3)]
               for row, g in zip(ssd, groups)]
        bias = [0.5 * sum(math.log(v[a] / pooled[a]) for a in range(3)) for v in var]
        cost = []
        for x in labs:
            row = []
            for m, v, b in zip(means, var, bias):
                c = b + sum(min((x[a] - m[a]) ** 2 / (2.0 * v[a]), AXIS_CAP) for a in range(3))
                row.append(min(max(c, 0.0), COST_CAP))
            cost.append(row)
        if self.fixed:
            refs = self.centres or means
            scale2 = [2.0 * CENTRE_SIGMA_FACTOR ** 2 * p for p in pooled]
            for i, c in zip(self.fixed, self.centre_labs):
                cost[i] = [min(sum((c[a] - r[a]) ** 2 / scale2[a] for a in range(3)), COST_CAP)
                           for r in refs]
        self.cost = cost
        self.scale = 1.0                  # interface of cubebot.robot.colour.rawmodel.RawModel
        self.junk = [False] * len(cost)


def _d2(a, b):
    """Squared Euclidean distance of two feature vectors."""
    return sum((x - y) ** 2 for x, y in zip(a, b))
