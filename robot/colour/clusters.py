"""Balanced k-means: k groups of equal size, for the first guess at a scan's colours.

Every colour of a cube covers the same number of body facelets, so the
first classes of a scan (cubebot.robot.colour.rawmodel) are the k equal-size groups of
facelets with the smallest spread. Points are log-RGB features
(cubebot.robot.colour.rawmodel.log_features); the distance is the chromaticity (the
features minus their mean) plus BRIGHTNESS_WEIGHT times the brightness
(their mean), since brightness varies from facelet to facelet more than hue.

Each round assigns every point under the capacity (most decided points
first, then improving pairwise swaps) and moves the centres to the means.
Several deterministic starts (farthest-point and seeded k-means++) are
tried; the tightest grouping wins.
"""

import random

# Weight of brightness against chromaticity in the clustering distance.
BRIGHTNESS_WEIGHT = 0.5
# Lloyd rounds per start.
ROUNDS = 12
# Seeded k-means++ starts in addition to the farthest-point one.
RANDOM_STARTS = 4
# Swap passes after a capacity assignment.
SWAP_PASSES = 2


def _embed(x):
    mean = sum(x) / 3.0
    return (x[0] - mean, x[1] - mean, BRIGHTNESS_WEIGHT * mean)


def _d2(a, b):
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2


def _means(points, groups, old):
    out = []
    for g, m in zip(groups, old):
        if g:
            out.append(tuple(sum(points[i][a] for i in g) / len(g) for a in range(3)))
        else:
            out.append(m)
    return out


def capacity_assign(dist, k, cap):
    """Groups (lists of point indices) of at most `cap` points, cheap total distance.

    dist[i][c]: point i's distance to centre c. Points with the clearest
    choice go first; then pairs of points in different groups swap while that
    lowers the total.
    """
    n = len(dist)
    order = []
    for i, row in enumerate(dist):
        ranked = sorted(row)
        order.append((ranked[0] - ranked[1], i))
    order.sort()
    owner = [0] * n
    size = [0] * k
    for _, i in order:
        row = dist[i]
        c = min((c for c in range(k) if size[c] < cap), key=row.__getitem__)
        owner[i] = c
        size[c] += 1
    for _ in range(SWAP_PASSES):
        changed = False
        members = [[] for _ in range(k)]
        for i in range(n):
            members[owner[i]].append(i)
        for i in range(n):
            a = owner[i]
            row = dist[i]
            for b in range(k):
                if b == a or row[b] >= row[a]:
                    continue
                best, best_j = 0.0, None
                for j in members[b]:
                    gain = row[a] + dist[j][b] - row[b] - dist[j][a]
                    if gain > best + 1e-12:
                        best, best_j = gain, j
                if best_j is not None:
                    members[a].remove(i)
                    members[b].remove(best_j)
                    members[a].append(best_j)
                    members[b].append(i)
                    owner[i], owner[best_j] = b, a
                    changed = True
                    break
        if not changed:
            break
    groups = [[] for _ in range(k)]
    for i in range(n):
        groups[owner[i]].append(i)
    return groups


def _distances(points, centres):
    """dist[i][c] = _d2(points[i], centres[c]), written out (no call a pair)."""
    return [[(p0 - c0) ** 2 + (p1 - c1) ** 2 + (p2 - c2) ** 2 for c0, c1, c2 in centres]
            for p0, p1, p2 in points]


def _lloyd(points, centres, k, cap):
    groups = None
    for _ in range(ROUNDS):
        dist = _distances(points, centres)
        new = capacity_assign(dist, k, cap)
        if new == groups:
            break
        groups = new
        centres = _means(points, groups, centres)
    spread = sum(_d2(points[i], centres[c]) for c, g in enumerate(groups) for i in g)
    return spread, groups


def _nearer(nearest, points, centre):
    """Each point's squared distance to its nearest centre once `centre` is added
    to the centres; `nearest` holds those distances before it (inf for none)."""
    c0, c1, c2 = centre
    return [min(d, (p0 - c0) ** 2 + (p1 - c1) ** 2 + (p2 - c2) ** 2)
            for d, (p0, p1, p2) in zip(nearest, points)]


def _farthest(points, k, first):
    centres = [points[first]]
    nearest = _nearer([float("inf")] * len(points), points, centres[0])
    while len(centres) < k:
        far = max(range(len(points)), key=nearest.__getitem__)
        centres.append(points[far])
        nearest = _nearer(nearest, points, points[far])
    return centres


def _plus_plus(points, k, rng):
    centres = [points[rng.randrange(len(points))]]
    weights = [float("inf")] * len(points)
    while len(centres) < k:
        weights = _nearer(weights, points, centres[-1])
        total = sum(weights)
        if total <= 0:
            centres.append(points[rng.randrange(len(points))])
            continue
        pick = rng.random() * total
        chosen = len(points) - 1
        for index, w in enumerate(weights):
            pick -= w
            if pick <= 0:
                chosen = index
                break
        centres.append(points[chosen])
    return centres


def balanced_kmeans(features, k, starts=None):
    """k groups of len(features) / k point indices (rounded up) with the least spread.

    features: log-RGB points; starts: optional k starting centres (features),
    else deterministic starts are tried (module doc).
    """
    points = [_embed(x) for x in features]
    cap = -(-len(points) // k)
    if starts is not None:
        return _lloyd(points, [_embed(s) for s in starts], k, cap)[1]
    mid = tuple(sum(p[a] for p in points) / len(points) for a in range(3))
    first = max(range(len(points)), key=lambda i: _d2(points[i], mid))
    inits = [_farthest(points, k, first)]
    rng = random.Random(1)
    inits.extend(_plus_plus(points, k, rng) for _ in range(RANDOM_STARTS))
    return min(_lloyd(points, c, k, cap) for c in inits)[1]
