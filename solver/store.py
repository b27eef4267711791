"""Where the tables live, the manifest, building and verifying them.

The tables directory (`tables_dir()`) is, first that applies:
  1. $CUBEBOT_TABLES;
  2. in a source tree (a checkout, or the brick's copy made by deploy.sh):
     `tables/` at its top, next to `solver/`;
  3. for an installed package: the per-user data directory,
     $XDG_DATA_HOME/cubebot/tables (default ~/.local/share/cubebot/tables),
     so that nothing is written into site-packages.
It holds NAME.bin for each table of cubebot.solver.catalog and `manifest.json`:

  {"format": 1, "tables": {NAME: {"file": "NAME.bin", "format_version": 1,
                                  "size": BYTES, "sha256": HEX}, ...}}

Opening a table (open_dense / open_records) checks that the file exists,
that its header is right and that its size matches the manifest; a full
checksum is `verify()`'s job (`cubebot tables verify`). Any problem raises
TableError naming the table and `cubebot tables build`.
"""

import importlib
import json
import os
import sys
import time

from cubebot.solver import catalog
from cubebot.solver.errors import TableError
from cubebot.solver.tables import FORMAT_VERSION, DenseTable, ReadDenseTable, RecordTable, WordTable, write_atomic

ENV_VAR = "CUBEBOT_TABLES"
MANIFEST = "manifest.json"
MANIFEST_FORMAT = 1
SUFFIX = ".bin"
HASH_CHUNK = 1 << 20          # bytes read at a time when hashing
FIX = "run `cubebot tables build`"
SIZE_FIX = "run `cubebot tables build --size {}`"


def tables_dir():
    """The directory that holds the tables (not created here)."""
    env = os.environ.get(ENV_VAR)
    if env:
        return env
    from cubebot import SOURCE_TREE
    if SOURCE_TREE is not None:
        return os.path.join(SOURCE_TREE, "tables")
    data_home = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(data_home, "cubebot", "tables")


def shipped_manifest():
    """The path of the manifest shipped with the code (package data of cubebot.tables)."""
    import cubebot.tables
    return os.path.join(os.path.dirname(os.path.abspath(cubebot.tables.__file__)), MANIFEST)


def table_path(name, directory=None):
    """The path of table `name`'s file."""
    return os.path.join(directory or tables_dir(), name + SUFFIX)


def load_manifest(directory=None):
    """The manifest's tables as a dict name -> entry ({} if there is no manifest).

    A directory without a manifest of its own (an installed package's data
    directory before its first build) is read against the shipped one.
    Also accepts "tables" (or the whole file) as a list of entries that carry
    their "name"; an entry without "file" names its file by its name.
    """
    path = os.path.join(directory or tables_dir(), MANIFEST)
    if not os.path.exists(path):
        path = shipped_manifest()
    if not os.path.exists(path):
        return {}
    try:
        with open(path) as fh:
            data = json.loads(fh.read())
        tables = data["tables"] if isinstance(data, dict) else data
        if isinstance(tables, list):
            tables = dict((entry["name"], entry) for entry in tables)
        result = {}
        for name in tables:
            entry = dict(tables[name])
            entry.setdefault("file", name)
            entry.setdefault("format_version", FORMAT_VERSION)
            result[name] = entry
        return result
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError, OSError) as exc:
        raise TableError("table manifest {} is unreadable ({}): {}".format(
            path, str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__, FIX))


def save_manifest(entries, directory=None):
    """Write the manifest (sorted keys, so the file is deterministic)."""
    path = os.path.join(directory or tables_dir(), MANIFEST)
    text = json.dumps({"format": MANIFEST_FORMAT, "tables": entries},
                      indent=2, sort_keys=True) + "\n"
    write_atomic(path, [text.encode("utf-8")])


def sha256_of(path):
    """Hex sha256 of a file, read in chunks."""
    import hashlib           # here, not at the top: it maps libcrypto (MBs) into every solve
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while True:
            chunk = fh.read(HASH_CHUNK)
            if not chunk:
                break
            digest.update(chunk)
    return digest.hexdigest()


def _stderr_progress(message):
    sys.stderr.write(message + "\n")
    sys.stderr.flush()


def _quiet(message):
    pass


def _prefixed(report, name):
    return lambda message: report("  {}: {}".format(name, message))


def _builder(spec):
    module, func = spec.builder.split(":")
    return getattr(importlib.import_module(module), func)


def build(names=None, directory=None, progress=_stderr_progress):
    """Build the named tables (default: catalogue defaults); update the manifest.

    Returns the manifest entries of the tables built.
    """
    directory = directory or tables_dir()
    if not os.path.isdir(directory):
        os.makedirs(directory)
    if names is None:
        names = catalog.names()
    for name in names:
        try:
            catalog.spec(name)
        except KeyError:
            raise TableError("no table called {!r}: known tables are {}".format(
                name, ", ".join(catalog.names(default_only=False))))
    known = set(catalog.names(default_only=False))
    # entries of tables no longer in the catalogue are dropped
    entries = dict((k, v) for k, v in load_manifest(directory).items() if k in known)
    built = {}
    for name in names:
        path = table_path(name, directory)
        started = time.time()
        report = progress or _quiet
        report("building {} ...".format(name))
        _builder(catalog.spec(name))(path, _prefixed(report, name))
        entry = {"file": name + SUFFIX, "format_version": FORMAT_VERSION,
                 "size": os.path.getsize(path), "sha256": sha256_of(path)}
        built[name] = entries[name] = entry
        report("built {} ({} bytes) in {:.1f} s".format(name, entry["size"], time.time() - started))
    save_manifest(entries, directory)
    return built


def table_files(directory=None):
    """The names of the table files (*.bin) in the tables folder ([] if there is none)."""
    directory = directory or tables_dir()
    if not os.path.isdir(directory):
        return []
    return sorted(f for f in os.listdir(directory) if f.endswith(SUFFIX))


def missing_tables(size, directory=None):
    """The names of the tables an NxNxN solve reads whose files are not in the tables
    folder, in catalogue order ([] = all there). Cheap: one stat a table, no checksum."""
    return [name for name in catalog.names(size=size)
            if not os.path.isfile(table_path(name, directory))]


def built_names(directory=None):
    """The tables a check of this install covers: the demo's (catalog.DEMO_SIZES), which
    a plain `cubebot tables build` makes, and every other table the manifest lists that
    has a file. The other sizes' tables are built when asked for (`--size N`)."""
    built = [name for name in load_manifest(directory) if os.path.isfile(table_path(name, directory))]
    return sorted(set(catalog.names(sizes=catalog.DEMO_SIZES)) | set(built))


def require_tables(size, directory=None):
    """Raise TableError naming the command that builds them when a table an NxNxN solve
    reads has no file (checked before any solving work)."""
    missing = missing_tables(size, directory)
    if missing:
        others = " and {} more".format(len(missing) - 1) if len(missing) > 1 else ""
        raise TableError("tables for the {0}x{0}x{0} are not built ({1}{2} missing in {3}): {4}".format(
            size, missing[0], others, directory or tables_dir(), SIZE_FIX.format(size)))


def manifest_problem(directory=None):
    """One line if the tables cannot be checked at all (no folder, not a folder, table
    files but no manifest beside them, no manifest at all), else None. An empty
    folder without a manifest is checked against the shipped one."""
    directory = directory or tables_dir()
    if not os.path.exists(directory):
        return "tables folder {} does not exist: {}".format(directory, FIX)
    if not os.path.isdir(directory):
        return "tables folder {} is not a folder: {}".format(directory, FIX)
    if os.path.exists(os.path.join(directory, MANIFEST)):
        return None
    present = table_files(directory)
    if present:
        return "{} table files in {} but no {} to check them against: {}".format(
            len(present), directory, MANIFEST, FIX)
    if os.path.exists(shipped_manifest()):
        return None                         # a data directory before its first build: the shipped manifest
    return "no tables in {} (no {}): {}".format(directory, MANIFEST, FIX)


def verify(directory=None, names=None):
    """Check tables against the manifest; a list of one-line problems ([] = fine).

    names: the tables to check (each must be in the manifest); default every
    table the manifest lists.
    """
    directory = directory or tables_dir()
    missing = manifest_problem(directory)
    if missing is not None:
        return [missing]                    # one line, not one per table
    entries = load_manifest(directory)
    if names is None:
        names = sorted(entries)
    problems = []
    for name in names:
        entry = entries.get(name)
        path = os.path.join(directory, entry["file"]) if entry else table_path(name, directory)
        if entry is None:
            problems.append("table {} is not in the manifest: {}".format(name, FIX))
        elif not os.path.exists(path):
            problems.append("table {} is missing ({}): {}".format(name, path, FIX))
        elif os.path.getsize(path) != entry["size"]:
            problems.append("table {} has {} bytes, the manifest says {}: {}".format(
                name, os.path.getsize(path), entry["size"], FIX))
        elif entry.get("format_version") != FORMAT_VERSION:
            problems.append("table {} has format version {}, expected {}: {}".format(
                name, entry.get("format_version"), FORMAT_VERSION, FIX))
        elif sha256_of(path) != entry["sha256"]:
            problems.append("table {} fails its sha256 check: {}".format(name, FIX))
    return problems


def _open(cls, name, directory):
    directory = directory or tables_dir()
    path = table_path(name, directory)
    if not os.path.exists(path):
        raise TableError("table {} is missing ({}): {}".format(name, path, FIX))
    table = cls(path, name)
    entry = load_manifest(directory).get(name)
    if entry is not None and entry.get("size") != table.size:
        table.close()
        raise TableError("table {} has {} bytes, the manifest says {}: {}".format(
            name, table.size, entry.get("size"), FIX))
    return table


def open_dense(name, directory=None, mapped=True):
    """Open dense table `name` (a DenseTable), checked against the manifest; with
    mapped=False a ReadDenseTable (read by pread, its pages outside the process)."""
    return _open(DenseTable if mapped else ReadDenseTable, name, directory)


def open_records(name, directory=None):
    """Open record table `name` (a RecordTable), checked against the manifest."""
    return _open(RecordTable, name, directory)


def open_words(name, directory=None):
    """Open word table `name` (a WordTable: a move table), checked against the manifest."""
    return _open(WordTable, name, directory)
