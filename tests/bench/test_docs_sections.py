"""The figures in README.md and docs/*.md point at docs/benchmarks.md: every record (section) they
name exists there, every bench script they name exists, and a held-out command they quote carries the
seed its section was recorded with (#19)."""

import glob
import os
import re

from bench import rerun_check

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NAMED = re.compile(r'\b(?:sections?|records?) \(?((?:"[a-z0-9-]+"(?:, | and | / |,? )?)+)'
                   r'|"([a-z0-9-]+)" (?:sections?|records?)\b')
QUOTED = re.compile(r'"([a-z0-9-]+)"')
HELDOUT = re.compile(r"bench/heldout\.py --size (\d+) --count (\d+) --seed (\d+)")
NOT_RECORDED = " --no-record"   # a quoted run that says it writes no section


def _docs():
    paths = [os.path.join(TOP, "README.md")] + sorted(glob.glob(os.path.join(TOP, "docs", "*.md")))
    return {os.path.relpath(p, TOP): " ".join(open(p).read().split()) for p in paths}


def _sections():
    return rerun_check.sections(open(os.path.join(TOP, "docs", "benchmarks.md")).read())


def test_every_section_the_docs_name_exists():
    known = set(_sections())
    named = []
    for path, text in _docs().items():
        for match in NAMED.finditer(text):
            for name in QUOTED.findall(match.group(1) or '"{}"'.format(match.group(2))):
                named.append((path, name))
    assert len(named) > 10, "the pattern no longer finds the docs' record references"
    missing = sorted({(path, name) for path, name in named if name not in known})
    assert not missing, "sections named in the docs but not in docs/benchmarks.md: {}".format(missing)


def test_every_bench_script_the_docs_name_exists():
    missing = set()
    for path, text in _docs().items():
        for script in re.findall(r"\bbench/([a-z0-9_]+\.py)\b", text):
            if not os.path.isfile(os.path.join(TOP, "bench", script)):
                missing.add((path, script))
    assert not missing, sorted(missing)


def test_quoted_heldout_commands_match_their_sections():
    sections = _sections()
    recorded = {}
    for name, body in sections.items():
        match = HELDOUT.search(" ".join(body.split()))
        if name.startswith("heldout-") and match:
            recorded[match.group(1)] = match.groups()
    assert recorded
    wrong = set()
    for path, text in _docs().items():
        for match in HELDOUT.finditer(text):
            size = match.group(1)
            if text[match.end():match.end() + len(NOT_RECORDED)] == NOT_RECORDED:
                continue
            if size in recorded and match.groups() != recorded[size]:
                wrong.add((path, match.group(0)))
    assert not wrong, "held-out commands unlike their recorded sections: {}".format(sorted(wrong))
