"""deploy/tablecheck.py: the table check deploy.sh runs before sending and on the brick."""

import hashlib
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TABLECHECK = os.path.join(ROOT, "deploy", "tablecheck.py")
DATA = {"one.bin": b"\x01\x02\x03" * 1000, "two.bin": b"cube" * 77}


def entry(name, data):
    return {"size": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def make(tmp_path, manifest, files=DATA):
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    return tmp_path


def tablecheck(tables, *args):
    proc = subprocess.run([sys.executable, TABLECHECK, str(tables)] + list(args), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True)
    return proc.returncode, proc.stdout, proc.stderr


MANIFEST_SHAPES = [
    {"tables": [dict(entry(n, d), name=n) for n, d in sorted(DATA.items())]},
    [dict(entry(n, d), name=n) for n, d in sorted(DATA.items())],
    {"tables": {n: entry(n, d) for n, d in DATA.items()}},
    {n: entry(n, d) for n, d in DATA.items()},
    {"tables": [dict(entry(n, d), name=n[:-4]) for n, d in sorted(DATA.items())]},   # names without .bin
]


@pytest.mark.parametrize("manifest", MANIFEST_SHAPES)
def test_every_manifest_shape_checks_ok_and_lists_the_files(tmp_path, manifest):
    tables = make(tmp_path, manifest)
    rc, out, err = tablecheck(tables)
    assert (rc, err) == (0, "")
    assert out.splitlines() == ["ok one.bin 3000 bytes sha256 " + hashlib.sha256(DATA["one.bin"]).hexdigest()[:16],
                                "ok two.bin 308 bytes sha256 " + hashlib.sha256(DATA["two.bin"]).hexdigest()[:16]]
    rc, out, _ = tablecheck(tables, "--list")
    assert rc == 0 and out.split() == ["one.bin", "two.bin"]


def test_missing_wrong_size_and_wrong_checksum_are_named(tmp_path):
    manifest = {"tables": [dict(entry(n, d), name=n) for n, d in sorted(DATA.items())]
                + [dict(entry("three.bin", b"x"), name="three.bin")]}
    tables = make(tmp_path, manifest, {"one.bin": DATA["one.bin"][:-1], "two.bin": DATA["two.bin"].upper()})
    rc, out, _ = tablecheck(tables)
    assert rc == 1
    lines = out.splitlines()
    assert lines[0] == "bad one.bin: size 2999 bytes, manifest says 3000"
    assert lines[1] == "missing three.bin"
    assert lines[2].startswith("bad two.bin: sha256 ")


def test_digest_is_the_manifest_checksum(tmp_path):
    tables = make(tmp_path, MANIFEST_SHAPES[0])
    rc, out, _ = tablecheck(tables, "--digest")
    assert rc == 0
    assert out.strip() == hashlib.sha256((tables / "manifest.json").read_bytes()).hexdigest()


@pytest.mark.parametrize("manifest_text, message", [
    (None, "cannot read"),
    ("{not json", "cannot read"),
    (json.dumps({"tables": [{"name": "one.bin", "size": 3}]}), "lacks name/size/sha256"),
    (json.dumps({"tables": [{"name": "../etc/passwd", "size": 3, "sha256": "00"}]}), "plain file name"),
    (json.dumps({"tables": 7}), "expected a list or an object"),
])
def test_a_bad_manifest_is_one_line_and_exit_2(tmp_path, manifest_text, message):
    if manifest_text is not None:
        (tmp_path / "manifest.json").write_text(manifest_text)
    rc, out, err = tablecheck(tmp_path)
    assert rc == 2 and out == ""
    assert err.startswith("tablecheck: ") and message in err and err.count("\n") == 1


def test_status_reports_python_manifest_and_tables(tmp_path):
    rc, out, _ = tablecheck(tmp_path, "--status")
    assert rc == 0
    assert out.splitlines() == ["python={}.{}.{}".format(*sys.version_info[:3]), "manifest=none", "tables=none"]
    tables = make(tmp_path, MANIFEST_SHAPES[0])
    digest = hashlib.sha256((tables / "manifest.json").read_bytes()).hexdigest()
    assert tablecheck(tables, "--status")[1].splitlines()[1:] == ["manifest=" + digest, "tables=ok"]
    (tables / "two.bin").write_bytes(b"nope")
    assert tablecheck(tables, "--status")[1].splitlines()[1:] == ["manifest=" + digest, "tables=bad"]


def test_adopt_links_the_missing_tables_from_the_old_install(tmp_path):
    old = tmp_path / "old"
    old.mkdir()
    make(old, MANIFEST_SHAPES[0])
    new = tmp_path / "new"
    new.mkdir()
    (new / "manifest.json").write_bytes((old / "manifest.json").read_bytes())
    (new / "two.bin").write_bytes(DATA["two.bin"])
    rc, out, _ = tablecheck(new, "--adopt", str(old))
    assert rc == 0, out
    assert os.path.samefile(str(new / "one.bin"), str(old / "one.bin"))       # linked, not sent again
    assert not os.path.samefile(str(new / "two.bin"), str(old / "two.bin"))   # the upload's own copy kept


@pytest.mark.parametrize("args", [["--adopt"], ["--bogus"], ["--list", "extra"], ["--digest", "--list"]])
def test_usage_errors_exit_2(tmp_path, args):
    rc, out, err = tablecheck(tmp_path, *args)
    assert (rc, out) == (2, "") and err.startswith("usage: ")
