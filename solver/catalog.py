"""The catalogue of on-disk tables: one TableSpec per table.

A TableSpec says:
  name      the table's name; its file is NAME + ".bin" in the tables directory
  size      the cube size N it serves (`cubebot tables build --size N`)
  builder   "module:function"; function(path, progress) writes the table
            file at `path` (atomically, deterministically) and returns
            nothing; progress(message) reports what it is doing
  default   built by `cubebot tables build --all` (a size's own tables are
            always in names(size=N), so `--size N` builds them either way:
            the 8x8x8/9x9x9 tables are built only when asked for)

Every name starts with "NxN-" for its size N: deploy/tablecheck.py, which
runs without the package, picks a size's files by that prefix.

DEMO_SIZES: the sizes `cubebot demo` solves. A plain `cubebot tables build`
builds only their tables (the 3x3x3's are those of the two-phase search
the bigger cubes finish with, cubebot.solver.twophase), so a fresh install
is ready in under a minute; names(sizes=DEMO_SIZES) lists them.

To add a table, append a TableSpec to SPECS. Builders are imported only when
a table is built.

NEEDS[N]: the other sizes whose tables the size-N solver reads too (every
reduction finishes its reduced cube with the 3x3x3 two-phase search; the
5x5x5 solver reduces its outer 4x4x4 part with the 4x4x4 solver; the 6x6x6
and 7x7x7 solvers solve a 4x4x4 or 5x5x5 view of the cube; the 7x7x7 stages its
centres on the 6x6x6's staging tables), so
names(size=N) and `cubebot tables build --size N` include them.
"""

from collections import namedtuple

TableSpec = namedtuple("TableSpec", ["name", "size", "builder", "default"])

SPECS = [
    TableSpec("2x2-htm", 2, "cubebot.solver.solve2.build:build_htm", True),
    TableSpec("2x2-qtm", 2, "cubebot.solver.solve2.build:build_qtm", True),
    TableSpec("3x3-moves", 3, "cubebot.solver.twophase:build_moves", True),
    TableSpec("3x3-twist-slice", 3, "cubebot.solver.twophase:build_twist_slice", True),
    TableSpec("3x3-flip-slice", 3, "cubebot.solver.twophase:build_flip_slice", True),
    TableSpec("3x3-twist-flip", 3, "cubebot.solver.twophase:build_twist_flip", True),
    TableSpec("3x3-cperm-sliceperm", 3, "cubebot.solver.twophase:build_cperm_sliceperm", True),
    TableSpec("3x3-udedge-sliceperm", 3, "cubebot.solver.twophase:build_udedge_sliceperm", True),
    TableSpec("4x4-centres-lr", 4, "cubebot.solver.solve4.build:build_lr", True),
    TableSpec("4x4-centres-ud", 4, "cubebot.solver.solve4.build:build_ud", True),
    TableSpec("4x4-centres-ud-moves", 4, "cubebot.solver.solve4.build:build_ud_moves", True),
    TableSpec("4x4-centres-p3", 4, "cubebot.solver.solve4.build:build_centres_p3", True),
    TableSpec("4x4-eo", 4, "cubebot.solver.solve4.build:build_eo", True),
    TableSpec("4x4-slice", 4, "cubebot.solver.solve4.build:build_slice", True),
    TableSpec("4x4-centres-p4", 4, "cubebot.solver.solve4.build:build_centres_p4", True),
    TableSpec("4x4-pairs-moves", 4, "cubebot.solver.solve4.build:build_pair_moves", True),
    TableSpec("4x4-pairs", 4, "cubebot.solver.solve4.build:build_pairs", True),
    TableSpec("4x4-pairs-centres", 4, "cubebot.solver.solve4.build:build_pairs_centres", True),
    TableSpec("4x4-pairs-ud", 4, "cubebot.solver.solve4.build:build_pairs_ud", True),
    TableSpec("5x5-centre-cycles", 5, "cubebot.solver.solve5.centrecycles:build", True),
    TableSpec("5x5-middle-axes", 5, "cubebot.solver.solve5.tcentres:build_axes", True),
    TableSpec("5x5-middle-pairs", 5, "cubebot.solver.solve5.tcentres:build_pairs", True),
    TableSpec("5x5-midge-cycles", 5, "cubebot.solver.solve5.midges:build", True),
    TableSpec("5x5-midge-cores", 5, "cubebot.solver.solve5.midgecores:build", True),
    TableSpec("5x5-tpair-sets", 5, "cubebot.solver.solve5.tsets:build", True),
    TableSpec("5x5-tpair-moves", 5, "cubebot.solver.solve5.tsets:build_moves", True),
    TableSpec("6x6-cycles", 6, "cubebot.solver.big.cyclebuild:build6", True),
    TableSpec("6x6-stage-x-lr", 6, "cubebot.solver.big.tablestage:build_x_lr", True),
    TableSpec("6x6-stage-bar-lr", 6, "cubebot.solver.big.tablestage:build_bar_lr", True),
    TableSpec("6x6-stage-x-ud", 6, "cubebot.solver.big.tablestage:build_x_ud", True),
    TableSpec("6x6-stage-bar-ud", 6, "cubebot.solver.big.tablestage:build_bar_ud", True),
    TableSpec("6x6-solve-lr", 6, "cubebot.solver.big.tablesolve:build_lr", True),
    TableSpec("6x6-solve-ud", 6, "cubebot.solver.big.tablesolve:build_ud", True),
    TableSpec("6x6-solve-fb", 6, "cubebot.solver.big.tablesolve:build_fb", True),
    TableSpec("7x7-cycles", 7, "cubebot.solver.big.cyclebuild:build7", True),
    TableSpec("7x7-solve-lr", 7, "cubebot.solver.big.tablesolve:build7_lr", True),
    TableSpec("7x7-solve-ud", 7, "cubebot.solver.big.tablesolve:build7_ud", True),
    TableSpec("7x7-solve-fb", 7, "cubebot.solver.big.tablesolve:build7_fb", True),
    TableSpec("8x8-cycles", 8, "cubebot.solver.big.cyclebuild:build8", False),
    TableSpec("9x9-cycles", 9, "cubebot.solver.big.cyclebuild:build9", False),
]

NEEDS = {4: (3,), 5: (4, 3), 6: (4, 3), 7: (6, 5, 4, 3), 8: (4, 3), 9: (5, 4, 3)}
DEMO_SIZES = (2, 3)


def spec(name):
    """The TableSpec called `name`; KeyError if there is none."""
    for s in SPECS:
        if s.name == name:
            return s
    raise KeyError(name)


def names(size=None, default_only=True, sizes=None):
    """Names of the catalogued tables, in catalogue order: for one `size` its own and
    those of NEEDS[size]; for several `sizes` the union of theirs; else every table."""
    if size is not None:
        sizes = (size,)
    asked = None if sizes is None else set(sizes)
    wanted = None if asked is None else asked.union(*[NEEDS.get(n, ()) for n in asked])
    own = asked or ()
    return [s.name for s in SPECS
            if (wanted is None or s.size in wanted) and (s.default or not default_only or s.size in own)]
