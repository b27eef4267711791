"""Check cubebot's table files against `tables/manifest.json`.

deploy.sh runs this on the laptop (before sending) and on the brick (on
arrival), so it must run on the brick's CPython 3.5: no f-strings, standard
library only. The manifest lists each table with its name, size (bytes) and
sha256 (hex); it may be a list of entries, a {"tables": [...]} object, or an
object mapping names to {"size": ..., "sha256": ...}.

Usage: python3 tablecheck.py TABLES_DIR [--list | --digest]
  (default)  one line per table (ok / missing / bad); exit 0 when all are ok,
             1 when one is missing or bad, 2 when the manifest is unreadable.
  --list     print the table file names (relative to TABLES_DIR) and exit.
  --digest   print the sha256 of manifest.json itself and exit.
"""

import hashlib
import json
import os
import sys

MANIFEST = "manifest.json"
CHUNK_BYTES = 1 << 20
EXIT_OK = 0
EXIT_BAD = 1
EXIT_MANIFEST = 2


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


def load_entries(tables_dir):
    """[(file name relative to tables_dir, size, sha256)] from the manifest, sorted by name."""
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
    return sorted(result)


def table_file(tables_dir, name):
    """The file a manifest name refers to: NAME itself, else NAME.bin when only that exists."""
    if os.path.basename(name) != name or name.startswith("."):
        raise ValueError("table name {!r} must be a plain file name".format(name))
    if not os.path.exists(os.path.join(tables_dir, name)) and os.path.exists(os.path.join(tables_dir, name + ".bin")):
        return name + ".bin"
    return name


def check(tables_dir, out):
    """Write one line per table to out; return EXIT_OK when every table matches."""
    status = EXIT_OK
    for name, size, sha in load_entries(tables_dir):
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


def main(argv):
    """Command-line entry; returns the exit code."""
    if len(argv) not in (1, 2) or (len(argv) == 2 and argv[1] not in ("--list", "--digest")):
        sys.stderr.write("usage: tablecheck.py TABLES_DIR [--list | --digest]\n")
        return EXIT_MANIFEST
    tables_dir = argv[0]
    try:
        if len(argv) == 2 and argv[1] == "--digest":
            path = os.path.join(tables_dir, MANIFEST)
            if not os.path.isfile(path):
                raise ManifestError("no {}".format(path))
            sys.stdout.write(sha256_of(path) + "\n")
            return EXIT_OK
        if len(argv) == 2:
            for name, _, _ in load_entries(tables_dir):
                sys.stdout.write(name + "\n")
            return EXIT_OK
        return check(tables_dir, sys.stdout)
    except (ManifestError, ValueError) as exc:
        sys.stderr.write("tablecheck: {}\n".format(exc))
        return EXIT_MANIFEST


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
