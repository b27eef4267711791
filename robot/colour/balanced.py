"""Balanced assignment for the orbits of big cubes: wings and centres (N >= 4).

Within a wing orbit every position can hold every wing piece, and within a
centre orbit every colour appears equally often; both are square assignment
problems, solved exactly with the Hungarian method (O(m^3), m = 24 here).
`swap_gaps` lists the exchanges of two positions that cost less than a
margin more: those facelets are doubtful.
"""

INF = float("inf")


def hungarian(matrix):
    """Min-cost perfect assignment of a square cost matrix: column of each row."""
    m = len(matrix)
    u = [0.0] * (m + 1)
    v = [0.0] * (m + 1)
    match = [0] * (m + 1)     # match[col] = row (1-based), 0 = free
    way = [0] * (m + 1)
    for row in range(1, m + 1):
        match[0] = row
        col0 = 0
        minv = [INF] * (m + 1)
        used = [False] * (m + 1)
        while True:
            used[col0] = True
            r0 = match[col0]
            delta, col1 = INF, 0
            cost_row = matrix[r0 - 1]
            ur0 = u[r0]
            for col in range(1, m + 1):
                if not used[col]:
                    cur = cost_row[col - 1] - ur0 - v[col]
                    if cur < minv[col]:
                        minv[col] = cur
                        way[col] = col0
                    if minv[col] < delta:
                        delta, col1 = minv[col], col
            for col in range(m + 1):
                if used[col]:
                    u[match[col]] += delta
                    v[col] -= delta
                else:
                    minv[col] -= delta
            col0 = col1
            if match[col0] == 0:
                break
        while col0:
            col1 = way[col0]
            match[col0] = match[col1]
            col0 = col1
    result = [0] * m
    for col in range(1, m + 1):
        result[match[col] - 1] = col - 1
    return result


def swap_gaps(matrix, assignment, margin, keys):
    """Pairs of rows (a, b) whose exchange costs less than `margin` more, with the extra cost.

    keys[col] names what column col stands for; columns with equal keys
    (two slots of one colour) are not worth exchanging.
    """
    out = []
    m = len(matrix)
    for a in range(m):
        ca = assignment[a]
        for b in range(a + 1, m):
            cb = assignment[b]
            extra = matrix[a][cb] + matrix[b][ca] - matrix[a][ca] - matrix[b][cb]
            if extra < margin and keys[ca] != keys[cb]:
                out.append((a, b, extra))
    return out
