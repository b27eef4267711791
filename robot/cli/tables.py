"""`cubebot tables build [--size N | --all] [NAME ...]` and `cubebot tables verify`.

build writes the solver's tables (cubebot.solver.catalog) into the tables directory
($CUBEBOT_TABLES or tables/ in the checkout) with progress on stderr and
updates the manifest: by default only the tables `cubebot demo` needs
(catalog.DEMO_SIZES), with --size N that size's, with --all every size's
default tables (2x2x2 to 7x7x7). build_with_bar builds the tables that a
terminal `cubebot solve` finds missing, on one progress line. verify checks
the demo's tables and every other table the manifest lists that is built
(with --size N: all of that size's), size and sha256, and exits 2 naming
each problem.
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
    build.add_argument("--all", action="store_true",
                       help="every size's tables (2x2x2 to 7x7x7; 8x8x8 and 9x9x9 only with --size)")
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
    if getattr(args, "all", False) or args.size is not None:
        return catalog.names(size=args.size)
    return catalog.names(sizes=catalog.DEMO_SIZES)


def run_build(args):
    from cubebot.solver import store
    from cubebot.robot.inputs import writable_dir
    from cubebot.robot.cli.main import UsageError
    if args.all and (args.size is not None or args.names):
        raise UsageError("give --all alone, not with --size or table names")
    names = _names(args)
    writable_dir(store.tables_dir(), "tables folder")       # before seconds of building
    store.build(names)
    sys.stderr.write("tables written to {}\n".format(store.tables_dir()))
    return 0


BAR_CELLS = 20               # the width of the [####    ] part of the progress line
MIN_LINE_CHARS = 40          # the narrowest line the bar is cut to
DEFAULT_COLUMNS = 80         # a terminal that reports no width (0 columns: a fresh pty, a serial console)


class _Bar(object):
    """One stderr line rewritten with \r: the bar, table i of n, its name, the builder's message."""

    def __init__(self, stream, count):
        import shutil
        self.stream = stream
        self.count = count
        self.index = 0
        self.name = ""
        columns = shutil.get_terminal_size().columns    # 0 on such a terminal before Python 3.11
        self.width = max(MIN_LINE_CHARS, (columns if columns > 0 else DEFAULT_COLUMNS) - 1)
        self.shown = 0

    def start(self, index, name):
        self.index = index
        self.name = name

    def report(self, message):
        message = message.strip()
        prefix = self.name + ": "
        if message.startswith(prefix):
            message = message[len(prefix):]
        done = BAR_CELLS * (self.index - 1) // self.count
        line = "[{}{}] table {} of {} {}: {}".format(
            "#" * done, " " * (BAR_CELLS - done), self.index, self.count, self.name, message)
        line = line[:self.width]
        self.stream.write("\r" + line + " " * max(0, self.shown - len(line)))
        self.stream.flush()
        self.shown = len(line)

    def finish(self, text):
        self.stream.write("\r" + text[:self.width] + " " * max(0, self.shown - len(text)) + "\n")
        self.stream.flush()


def build_with_bar(names, stream=None):
    """Build the named tables one by one with a progress bar on `stream` (stderr)."""
    from cubebot.solver import store
    from cubebot.robot.inputs import writable_dir
    stream = stream or sys.stderr
    writable_dir(store.tables_dir(), "tables folder")
    bar = _Bar(stream, len(names))
    for index, name in enumerate(names, 1):
        bar.start(index, name)
        store.build([name], progress=bar.report)
    bar.finish("[{}] built {} table(s) in {}".format("#" * BAR_CELLS, len(names), store.tables_dir()))


def run_verify(args):
    from cubebot.solver import store
    names = _names(args)
    if args.size is None:
        names = store.built_names()
    problems = store.verify(names=names)
    for problem in problems:
        sys.stderr.write("cubebot: error: {}\n".format(problem))
    if problems:
        return 2
    sys.stdout.write("tables in {} match the manifest\n".format(store.tables_dir()))
    return 0
