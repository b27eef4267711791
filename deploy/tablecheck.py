"""Check cubebot's table files against `tables/manifest.json`.

deploy.sh runs this on the laptop (before sending) and on the brick (on
arrival), so it must run on the brick's CPython 3.5: no f-strings, standard
library only. The manifest lists each table with its name, size (bytes) and
sha256 (hex); it may be a list of entries, a {"tables": [...]} object, or an
object mapping names to {"size": ..., "sha256": ...}.

Usage: python3 tablecheck.py TABLES_DIR [--list | --digest | --status | --adopt OLD_DIR] [--sizes 2,4]
  --sizes    only the tables of these cube sizes, or none (a table's name starts with
             "NxN-" for its size N; the other tables of the manifest are ignored):
             deploy.sh sends and checks only the sizes it is asked for.
  (default)  one line per table (ok / missing / bad); exit 0 when all are ok,
             1 when one is missing or bad, 2 when the manifest is unreadable.
  --list     print the table file names (relative to TABLES_DIR) and exit.
  --digest   print the sha256 of manifest.json itself and exit.
  --status   print python=X.Y.Z, manifest=SHA256|none and tables=ok|bad|none
             (one python start on the brick, where each costs seconds); exit 0.
  --adopt OLD_DIR  first hard-link (or copy) from OLD_DIR every table file that
             TABLES_DIR lacks, then check as by default.
"""

import hashlib
import json
import os
import re
import shutil
import sys

MANIFEST = "manifest.json"
CHUNK_BYTES = 1 << 20
EXIT_OK = 0
EXIT_BAD = 1
EXIT_MANIFEST = 2
SIZE_PREFIX = re.compile(r"(\d+)x\1-")     # "4x4-centres-lr.bin" is a 4x4x4 table


class ManifestError(Exception):
    """The manifest is missing, not JSON, or an entry lacks a field."""


def sha256_of(path):
    """Hex sha256 of a file, read in 1 MiB chunks (the brick has 64 MB of RAM)."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while True:
            chunk = handle.read(CHUNK_BYTES)
            if not chunk:
                break
            digest.update(chunk)
    return digest.hexdigest()


def _raw_entries(data):
    """The manifest's table entries as a list of dicts, whatever its shape."""
    if isinstance(data, dict) and "tables" in data:
        data = data["tables"]
    if isinstance(data, dict):
        entries = []
        for name in sorted(data):
            if not isinstance(data[name], dict):
                raise ManifestError("manifest: table {!r} is not an object".format(name))
            entry = dict(data[name])
            entry.setdefault("name", name)
            entries.append(entry)
        return entries
    if isinstance(data, list) and all(isinstance(entry, dict) for entry in data):
        return [dict(entry) for entry in data]
    raise ManifestError("manifest: expected a list or an object of tables, got {}".format(type(data).__name__))


def table_size(name):
    """The cube size a table file serves, from its "NxN-" prefix (None without one)."""
    match = SIZE_PREFIX.match(name)
    return int(match.group(1)) if match else None


def parse_sizes(text):
    """The set of sizes in "2,3,4" ("none": no size); ValueError naming the text when it is not that."""
    if text == "none":
        return set()
    if not re.match(r"^[0-9]+(,[0-9]+)*$", text):
        raise ValueError("--sizes takes cube sizes separated by commas (2,3,4), not {!r}".format(text))
    return set(int(n) for n in text.split(","))


def load_entries(tables_dir, sizes=None):
    """[(file name relative to tables_dir, size, sha256)] from the manifest, sorted by name;
    with `sizes`, only the tables of those cube sizes."""
    path = os.path.join(tables_dir, MANIFEST)
    try:
        with open(path, "rb") as handle:
            data = json.loads(handle.read().decode("utf-8"))
    except (IOError, OSError, ValueError) as exc:
        raise ManifestError("cannot read {}: {}".format(path, exc))
    result = []
    for entry in _raw_entries(data):
        try:
            name = entry.get("file") or entry.get("path") or entry["name"]
            result.append((table_file(tables_dir, name), int(entry["size"]), str(entry["sha256"]).lower()))
        except (KeyError, TypeError, ValueError) as exc:
            raise ManifestError("manifest entry {!r} lacks name/size/sha256 ({})".format(entry, exc))
    if sizes is not None:
        result = [entry for entry in result if table_size(entry[0]) in sizes]
    return sorted(result)


def table_file(tables_dir, name):
    """The file a manifest name refers to: NAME itself, else NAME.bin when only that exists."""
    if os.path.basename(name) != name or name.startswith("."):
        raise ValueError("table name {!r} must be a plain file name".format(name))
    if not os.path.exists(os.path.join(tables_dir, name)) and os.path.exists(os.path.join(tables_dir, name + ".bin")):
        return name + ".bin"
    return name


def check(tables_dir, out, sizes=None):
    """Write one line per table to out; return EXIT_OK when every table matches."""
    status = EXIT_OK
    for name, size, sha in load_entries(tables_dir, sizes):
        path = os.path.join(tables_dir, name)
        if not os.path.isfile(path):
            out.write("missing {}\n".format(name))
            status = EXIT_BAD
            continue
        actual_size = os.path.getsize(path)
        if actual_size != size:
            out.write("bad {}: size {} bytes, manifest says {}\n".format(name, actual_size, size))
            status = EXIT_BAD
            continue
        actual_sha = sha256_of(path)
        if actual_sha != sha:
            out.write("bad {}: sha256 {}, manifest says {}\n".format(name, actual_sha, sha))
            status = EXIT_BAD
            continue
        out.write("ok {} {} bytes sha256 {}\n".format(name, size, sha[:16]))
    return status


def status(tables_dir, out, sizes=None):
    """Write python=, manifest= and tables= lines (what the brick has)."""
    out.write("python={}.{}.{}\n".format(*sys.version_info[:3]))
    path = os.path.join(tables_dir, MANIFEST)
    if not os.path.isfile(path):
        out.write("manifest=none\ntables=none\n")
        return
    out.write("manifest={}\n".format(sha256_of(path)))
    try:
        ok = check(tables_dir, _Discard(), sizes) == EXIT_OK
    except (ManifestError, ValueError):
        ok = False
    out.write("tables={}\n".format("ok" if ok else "bad"))


class _Discard(object):
    """A writable that drops what it is given."""

    def write(self, text):
        return len(text)


def adopt(tables_dir, old_dir, sizes=None):
    """Hard-link (else copy) each manifest table that tables_dir lacks from old_dir."""
    for name, _, _ in load_entries(tables_dir, sizes):
        target = os.path.join(tables_dir, name)
        source = os.path.join(old_dir, name)
        if os.path.exists(target) or not os.path.isfile(source):
            continue
        try:
            os.link(source, target)
        except OSError:
            shutil.copy2(source, target)


def digest(tables_dir):
    """Hex sha256 of the manifest file."""
    path = os.path.join(tables_dir, MANIFEST)
    if not os.path.isfile(path):
        raise ManifestError("no {}".format(path))
    return sha256_of(path)


USAGE = "usage: tablecheck.py TABLES_DIR [--list | --digest | --status | --adopt OLD_DIR] [--sizes 2,4]\n"


def main(argv):
    """Command-line entry; returns the exit code."""
    argv = list(argv)
    sizes = None
    if "--sizes" in argv:
        at = argv.index("--sizes")
        if at + 1 >= len(argv):
            sys.stderr.write(USAGE)
            return EXIT_MANIFEST
        try:
            sizes = parse_sizes(argv[at + 1])
        except ValueError as exc:
            sys.stderr.write("tablecheck: {}\n".format(exc))
            return EXIT_MANIFEST
        del argv[at:at + 2]
    option = argv[1] if len(argv) > 1 else None
    arity = {None: 1, "--list": 2, "--digest": 2, "--status": 2, "--adopt": 3}
    if not argv or option not in arity or len(argv) != arity[option]:
        sys.stderr.write(USAGE)
        return EXIT_MANIFEST
    tables_dir = argv[0]
    try:
        if option == "--digest":
            sys.stdout.write(digest(tables_dir) + "\n")
        elif option == "--status":
            status(tables_dir, sys.stdout, sizes)
        elif option == "--list":
            for name, _, _ in load_entries(tables_dir, sizes):
                sys.stdout.write(name + "\n")
        else:
            if option == "--adopt":
                adopt(tables_dir, argv[2], sizes)
            return check(tables_dir, sys.stdout, sizes)
        return EXIT_OK
    except (ManifestError, ValueError) as exc:
        sys.stderr.write("tablecheck: {}\n".format(exc))
        return EXIT_MANIFEST


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
