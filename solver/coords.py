"""Coordinates: ranking of permutations, orientations and piece positions.

A coordinate turns one part of a cube state into a small integer, so that
distance tables can be indexed by it. All ranks start at 0.

  perm_rank / perm_unrank      permutation of n items by its Lehmer code,
                               0 .. n! - 1 (the identity is 0)
  ori_rank / ori_unrank        orientations of n pieces in base `base`
                               (3 for corners, 2 for edges); the last
                               piece's value is implied by the total, so the
                               rank is 0 .. base**(n-1) - 1
  comb_rank / comb_unrank      which k of n positions are occupied, ranked
                               in the combinatorial number system,
                               0 .. C(n, k) - 1
"""

from math import factorial


def binomial(n, k):
    """C(n, k), 0 when k < 0 or k > n."""
    if k < 0 or k > n:
        return 0
    result = 1
    for i in range(1, k + 1):
        result = result * (n - k + i) // i
    return result


def perm_rank(perm):
    """Rank of a permutation of 0..n-1 (a sequence) in lexicographic order."""
    n = len(perm)
    rank = 0
    for i in range(n - 1):
        smaller = 0
        pi = perm[i]
        for j in range(i + 1, n):
            if perm[j] < pi:
                smaller += 1
        rank = rank * (n - i) + smaller
    return rank


def perm_unrank(rank, n):
    """The permutation of 0..n-1 (a list) with rank `rank` (inverse of perm_rank)."""
    digits = [0] * n
    for i in range(n - 1, -1, -1):
        base = n - i
        digits[i] = rank % base
        rank //= base
    items = list(range(n))
    return [items.pop(d) for d in digits]


def ori_rank(ori, base):
    """Rank of orientations ori[0..n-1]; ori[-1] is implied and not used."""
    rank = 0
    for value in ori[:-1]:
        rank = rank * base + value
    return rank


def ori_unrank(rank, n, base):
    """Orientations of n pieces (a list) whose total is 0 mod base."""
    ori = [0] * n
    total = 0
    for i in range(n - 2, -1, -1):
        ori[i] = rank % base
        total += ori[i]
        rank //= base
    ori[n - 1] = (-total) % base
    return ori


def comb_rank(occupied, n):
    """Rank of a set of occupied positions (booleans over n positions)."""
    rank = 0
    k = 0
    for pos in range(n):
        if occupied[pos]:
            k += 1
            rank += binomial(pos, k)
    return rank


def comb_unrank(rank, n, k):
    """Booleans over n positions with k occupied (inverse of comb_rank)."""
    occupied = [False] * n
    for pos in range(n - 1, -1, -1):
        if k == 0:
            break
        c = binomial(pos, k)
        if rank >= c:
            rank -= c
            occupied[pos] = True
            k -= 1
    return occupied


__all__ = ["factorial", "binomial", "perm_rank", "perm_unrank", "ori_rank",
           "ori_unrank", "comb_rank", "comb_unrank"]
