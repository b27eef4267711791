"""Centre cells of the grouped NxNxN and the colour each cell is given (the centre goal).

A cell is the block of centre facelets of one face that one view centre
facelet stands for (views.representative): a 2x2 block around an X-centre,
a 2x1 block of a T-centre's group (7x7x7: (1, 3) and (2, 3)), the fixed
centre alone. Cells of one shape form a class: the 24 X-cells, the 24
T-cells (odd N), the 6 fixed centres. Every cell of a class holds exactly
one facelet of each centre orbit of the class (the orbits are rotation
classes), and centre facelets of one colour are alike, so any colour can be
given to any cell as long as every colour is given to 4 cells of a 24-cell
class (an orbit holds 4 facelets of each colour).

`centre_goal` gives each cell the colour that makes the most of the
cube's centre facelets already right: an assignment problem per class
(cells x colour places, 4 places a colour), solved exactly by the
Hungarian method (`assign`: O(24^3) steps). The blown-up rule of the first
design gave each cell the colour of its view facelet; letting the view's
own centres move too (their 3-cycles are in the table) leaves fewer
facelets to cycle.
"""

from cubebot.solver.facelets import FACES, face_index
from .views import representative, view_rows

PLACES_PER_COLOUR = 4          # facelets of one colour in a 24-facelet centre orbit


def cell_classes(n):
    """[[cell, ...] per class]: each cell a tuple of facelet indices; classes of 24 cells
    (the fixed centres of an odd N, which never move, are left out)."""
    rows = view_rows(n)
    inner = [r for r in rows if 0 < r < n - 1]
    mid = n // 2 if n % 2 else None
    classes = {}
    for f in FACES:
        for R in inner:
            for C in inner:
                if R == mid and C == mid:
                    continue
                cell = tuple(face_index(f, r, c, n) for r in range(1, n - 1) for c in range(1, n - 1)
                             if representative(r, n) == R and representative(c, n) == C)
                kind = (R == mid) + (C == mid)          # 0: X-cell, 1: T-cell
                classes.setdefault(kind, []).append(cell)
    return [classes[k] for k in sorted(classes)]


def assign(weights):
    """The column of each row that maximises the sum of weights (a square matrix of
    ints): the Hungarian method on costs -w, O(n^3)."""
    size = len(weights)
    inf = float("inf")
    u, v = [0] * (size + 1), [0] * (size + 1)
    owner, way = [0] * (size + 1), [0] * (size + 1)   # owner[col]: its row (1-based)
    for row in range(1, size + 1):
        owner[0] = row
        col0 = 0
        least = [inf] * (size + 1)
        used = [False] * (size + 1)
        while True:
            used[col0] = True
            r0, delta, col1 = owner[col0], inf, 0
            for col in range(1, size + 1):
                if not used[col]:
                    cur = -weights[r0 - 1][col - 1] - u[r0] - v[col]
                    if cur < least[col]:
                        least[col], way[col] = cur, col0
                    if least[col] < delta:
                        delta, col1 = least[col], col
            for col in range(size + 1):
                if used[col]:
                    u[owner[col]] += delta
                    v[col] -= delta
                else:
                    least[col] -= delta
            col0 = col1
            if owner[col0] == 0:
                break
        while col0:
            col1 = way[col0]
            owner[col0] = owner[col1]
            col0 = col1
    result = [0] * size
    for col in range(1, size + 1):
        result[owner[col] - 1] = col - 1
    return result


def centre_goal(cube, n, base):
    """`base` (a facelet string) with every centre cell given its best colour for `cube`."""
    goal = list(base)
    colours = sorted(set(cube))
    for cells in cell_classes(n):
        places = [c for c in colours for _ in range(PLACES_PER_COLOUR)]
        weights = [[sum(1 for f in cell if cube[f] == colour) for colour in places] for cell in cells]
        for cell, col in zip(cells, assign(weights)):
            for f in cell:
                goal[f] = places[col]
    return "".join(goal)

