"""bench/rerun_check.py: what a re-run may change is masked, anything else is caught;
bench/compare_refs.py pairs the rows of two runs."""

import os
import re

from bench import compare_refs, heldout, rerun_check
from bench.record import DOC_ENV, record

SECTION = """## Something (2026-11-24, x86_64)

`python bench/heldout.py --size 3 --count 2 --seed 5`: load average (1 min) 3.4 before, 4.4 after.

| case | states | mean moves | median ms | wall | peak RSS |
|---|---|---|---|---|---|
| 3x3x3 | 200 | 20.535 | 90.757 | 3.1 | 19.7 MB |

- whole process 359 ms, compute 2.1-6.4 s on the brick, tables 14.37 MB"""


def test_times_dates_loads_are_masked_and_memory_has_a_tolerance():
    fresh = (SECTION.replace("2026-11-24", "2027-01-02").replace("3.4 before, 4.4", "9.9 before, 1.0")
             .replace("90.757", "12.000").replace("| 3.1 |", "| 8.8 |").replace("359 ms", "1200 ms")
             .replace("2.1-6.4 s", "3.0-9.1 s").replace("19.7 MB", "21.0 MB"))
    assert rerun_check.compare(SECTION, fresh) == []


def test_counts_and_large_memory_changes_are_caught():
    for old, new in (("| 200 |", "| 199 |"), ("20.535", "20.540"), ("19.7 MB", "25.0 MB"), ("14.37 MB", "12.00 MB"),
                     ("14.37 MB", "16.00 MB"), ("--count 2", "--count 3")):
        diffs = rerun_check.compare(SECTION, SECTION.replace(old, new))
        assert len(diffs) == 1 and new in diffs[0][1], (old, new)
    diffs = rerun_check.compare(SECTION, SECTION + "\n- a new line")
    assert diffs == [(None, "- a new line")]


MB_TABLE = """| case | 32-bit ARM peak (MB) | emulated wall | x86-64 peak (MB) |
|---|---|---|---|
| `cubebot solve`, 2x2x2 | 12.2 | 4 s | 13.3 |"""


def test_bare_numbers_under_an_mb_header_are_memory_figures():
    assert rerun_check.compare(MB_TABLE, MB_TABLE.replace("| 13.3 |", "| 14.0 |").replace("4 s", "1 s")) == []
    for old, new in (("| 12.2 |", "| 19.0 |"), ("| 13.3 |", "| 23.3 |"), ("2x2x2", "3x3x3")):
        diffs = rerun_check.compare(MB_TABLE, MB_TABLE.replace(old, new))
        assert len(diffs) == 1 and new.strip("| ") in diffs[0][1], (old, new)


def test_command_of_a_section():
    assert rerun_check.command_of(SECTION)[1:] == ["bench/heldout.py", "--size", "3", "--count", "2",
                                                   "--seed", "5"]
    assert rerun_check.command_of("## Serial (`bench/serial_link.py`, 2026)")[1:] == ["bench/serial_link.py"]
    assert rerun_check.command_of("no command here") is None


def test_rerun_of_a_real_script(tmp_path, monkeypatch, capsys):
    """A section recorded by bench/heldout.py re-runs the same; a tampered count is reported."""
    doc = str(tmp_path / "benchmarks.md")
    monkeypatch.setenv(DOC_ENV, doc)
    assert heldout.main(["--size", "3", "--count", "2", "--seed", "5"]) == 0
    monkeypatch.delenv(DOC_ENV)
    assert "heldout-3" in rerun_check.sections(open(doc).read())
    before = open(doc).read()
    assert rerun_check.main(["heldout-3", "--doc", doc]) == 0
    assert "heldout-3: same" in capsys.readouterr().out
    assert open(doc).read() == before                         # the checked file is not written
    record("heldout-3", rerun_check.sections(before)["heldout-3"].replace("| 2/2 |", "| 1/2 |"), path=doc)
    assert rerun_check.main(["heldout-3", "--doc", doc]) == 1
    out = capsys.readouterr().out
    assert "heldout-3: changed" in out and "| 1/2 |" in out and "| 2/2 |" in out
    assert not os.path.exists(os.path.join(str(tmp_path), ".benchmarks.md"))


def test_compare_refs_pairs_rows_by_heading_and_label():
    before = "### 3x3x3 (a)\n\n| what | mean | p95 |\n|---|---|---|\n| moves | 20.6 | 21 |\n| time | 1 s | 2 s |\n"
    after = "### 3x3x3 (b)\n\n| what | mean | p95 |\n|---|---|---|\n| moves | 20.6 | 22 |\n| flips | 3 | 4 |\n"
    lines = compare_refs.pair(before, after)
    assert "| 3x3x3 | moves | mean | 20.6 | 20.6 | yes |" in lines
    assert "| 3x3x3 | moves | p95 | 21 | 22 | no |" in lines
    assert "| 3x3x3 | time | mean | 1 s | (none) | no |" in lines
    assert "| 3x3x3 | flips | p95 | (none) | 4 | no |" in lines


COMPARED = """## Solver (2026-11-24, x86_64)

| engine | mean moves | median ms |
|---|---|---|
| 2x2x2 htm | 8.9 | 0.441 |
| 3x3x3 --budget 1 | 19.475 | 982.342 |

### 3x3x3: 40 seeds, 40 solved

| measure | mean | p95 |
|---|---|---|
| flips | 14.2 | 18 |
| total | 49.5 s | 56.3 s |
"""


def _compared_after(moves="8.9", flips="14.2"):
    return (COMPARED.replace("0.441", "0.859").replace("19.475", "19.575").replace("49.5 s", "51.0 s")
            .replace("| 8.9 |", "| {} |".format(moves)).replace("| 14.2 |", "| {} |".format(flips)))


def test_compare_refs_marks_times_and_time_budgeted_rows():
    lines = compare_refs.pair(COMPARED, _compared_after())
    assert "| Solver | 2x2x2 htm | mean moves | 8.9 | 8.9 | yes |" in lines
    assert "| Solver | 2x2x2 htm | median ms | 0.441 ms | 0.859 ms | a time, not compared |" in lines
    assert "| Solver | 3x3x3 --budget 1 | mean moves | 19.475 | 19.575 | time-bounded, not compared |" in lines
    assert "| 3x3x3: 40 seeds, 40 solved | total | mean | 49.5 s | 51.0 s | a time, not compared |" in lines
    assert "| 3x3x3: 40 seeds, 40 solved | flips | mean | 14.2 | 14.2 | yes |" in lines
    assert "| Solver | 2x2x2 htm | mean moves | 8.9 | 9.1 | no |" in compare_refs.pair(COMPARED, _compared_after("9.1"))


def test_a_rerun_of_compare_refs_differs_only_in_counts():
    first = "\n".join(compare_refs.pair(COMPARED, _compared_after()))
    rerun = "\n".join(compare_refs.pair(COMPARED.replace("0.441", "0.5").replace("19.475", "19.4"),
                                         _compared_after()))
    assert rerun_check.compare(first, rerun) == []
    changed = "\n".join(compare_refs.pair(COMPARED, _compared_after(flips="15.0")))
    assert rerun_check.compare(first, changed) != []


def test_every_recorded_section_names_a_script_that_takes_its_arguments():
    """docs/benchmarks.md holds nothing typed in: each section names the bench script (and its
    options) that writes it, and every script that records has its section."""
    top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    doc = rerun_check.sections(open(os.path.join(top, "docs", "benchmarks.md")).read())
    assert doc
    for name, body in doc.items():
        argv = rerun_check.command_of(body)
        assert argv, "section {} names no bench command".format(name)
        script = os.path.join(top, argv[1])
        assert os.path.isfile(script), "section {}: no {}".format(name, argv[1])
        text = open(script).read()
        for word in argv[2:]:
            if word.startswith("--"):
                assert '"{}"'.format(word) in text, "section {}: {} has no option {}".format(name, argv[1], word)
    recorders = set()
    for fname in os.listdir(os.path.join(top, "bench")):
        if fname.endswith(".py"):
            recorders.update(re.findall(r'record\(\s*"([a-z0-9-]+)"', open(os.path.join(top, "bench", fname)).read()))
    assert recorders and recorders <= set(doc), "sections never recorded: {}".format(sorted(recorders - set(doc)))
