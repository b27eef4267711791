"""`cubebot tables build [--size N] [NAME ...]` and `cubebot tables verify`.

build writes the solver's tables (cubebot.solver.catalog) into the tables directory
($CUBEBOT_TABLES or tables/ in the checkout) with progress on stderr and
updates the manifest; verify checks every default table and every table
the manifest lists (size and sha256) and exits 2 naming each problem.
"""

import sys

from cubebot.robot.inputs import arg_size


def _table_sizes():
    from cubebot.solver import catalog
    return set(t.size for t in catalog.SPECS)


def register(subparsers):
    parser = subparsers.add_parser("tables", help="build or verify the solver's tables")
    sub = parser.add_subparsers(dest="action", metavar="ACTION", parser_class=type(parser))
    build = sub.add_parser("build", help="build the default tables (deterministic)")
    build.add_argument("--size", type=arg_size(_table_sizes, "with tables"), default=None,
                       help="only the tables for this cube size")
    build.add_argument("names", nargs="*", metavar="NAME", help="build only these tables")
    build.set_defaults(run=run_build)
    verify = sub.add_parser("verify", help="check the tables against the manifest")
    verify.add_argument("--size", type=arg_size(_table_sizes, "with tables"), default=None,
                        help="only the tables for this cube size")
    verify.set_defaults(run=run_verify)
    parser.set_defaults(run=None)


def _names(args):
    from cubebot.solver import catalog
    if getattr(args, "names", None):
        return list(args.names)
    return catalog.names(size=args.size)


def run_build(args):
    from cubebot.solver import store
    from cubebot.robot.inputs import writable_dir
    names = _names(args)
    writable_dir(store.tables_dir(), "tables folder")       # before seconds of building
    store.build(names)
    sys.stderr.write("tables written to {}\n".format(store.tables_dir()))
    return 0


def run_verify(args):
    from cubebot.solver import store
    names = _names(args)
    if args.size is None:
        names = sorted(set(names) | set(store.load_manifest()))
    problems = store.verify(names=names)
    for problem in problems:
        sys.stderr.write("cubebot: error: {}\n".format(problem))
    if problems:
        return 2
    sys.stdout.write("tables in {} match the manifest\n".format(store.tables_dir()))
    return 0
