import itertools
import random

from cubebot.solver import coords


def test_perm_rank_is_a_bijection_in_lexicographic_order():
    perms = list(itertools.permutations(range(5)))
    assert [coords.perm_rank(p) for p in perms] == list(range(coords.factorial(5)))
    for r, p in enumerate(perms):
        assert coords.perm_unrank(r, 5) == list(p)


def test_ori_rank_round_trip_and_total():
    for base, n in ((3, 7), (2, 12)):
        rng = random.Random(base)
        for _ in range(200):
            r = rng.randrange(base ** (n - 1))
            ori = coords.ori_unrank(r, n, base)
            assert sum(ori) % base == 0
            assert coords.ori_rank(ori, base) == r


def test_comb_rank_round_trip_covers_every_subset():
    n, k = 12, 4
    seen = set()
    for combo in itertools.combinations(range(n), k):
        occupied = [i in combo for i in range(n)]
        r = coords.comb_rank(occupied, n)
        assert coords.comb_unrank(r, n, k) == occupied
        seen.add(r)
    assert seen == set(range(coords.binomial(n, k)))
