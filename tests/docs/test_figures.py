"""Figures in README.md and docs/*.md that name a record agree with it.

- The README's results table is what bench/readme_figures.py makes of the records of
  docs/benchmarks.md and the anchors of docs/references.md.
- Any sentence that names a record (`section "solver5"`, `"robot" section`, `records "a", "b"`)
  carries only figures with a unit (moves, s, ms, MB, %) that occur in one of the records it names.
"""

import glob
import os
import re

from bench import readme_figures, rerun_check
from tests.docs.test_style import TOP, sentences

NAMED = re.compile(r'\b(?:sections?|records?) \(?((?:"[a-z0-9-]+"(?:, | and | / |,? )?)+)'
                   r'|"([a-z0-9-]+)" (?:sections?|records?)\b')
QUOTED = re.compile(r'"([a-z0-9-]+)"')
FIGURE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s?(moves|ms|s|MB|%)(?![\w])")


def _read(path):
    return open(os.path.join(TOP, path)).read()


def _texts():
    return (_read("README.md"), _read(os.path.join("docs", "benchmarks.md")),
            _read(os.path.join("docs", "references.md")))


def test_readme_results_table_is_what_the_records_give():
    assert readme_figures.differences(*_texts()) == []


def test_a_figure_changed_by_hand_is_caught():
    _, benchmarks, references = _texts()
    readme = readme_figures.generated(*_texts())
    block = readme.split(readme_figures.BEGIN.format(readme_figures.BLOCK), 1)[1]
    row = next(line for line in block.splitlines() if line.startswith("| 4x4x4 |"))
    moves = row.split("|")[2].strip()
    tampered = readme.replace(row, row.replace("| {} |".format(moves), "| {}1 |".format(moves), 1))
    assert tampered != readme
    diffs = readme_figures.differences(tampered, benchmarks, references)
    assert len(diffs) == 1 and diffs[0][1] == row


def test_a_record_that_changes_changes_the_table():
    readme, benchmarks, references = _texts()
    sections = rerun_check.sections(benchmarks)
    old = readme_figures.cell(sections["solver5"], "mean / max moves", "value")
    changed = benchmarks.replace("| mean / max moves (OBTM) | {} |".format(old),
                                 "| mean / max moves (OBTM) | 1.5 / 2 |")
    assert changed != benchmarks
    assert any("| 1.5 |" in new for _, new in readme_figures.differences(readme, changed, references))


def _named_figures(text):
    """[(sentence, [record names], [figures with their unit])] of the sentences naming a record."""
    out = []
    for sentence in sentences(text):
        flat = " ".join(sentence.split())
        names = []
        for match in NAMED.finditer(flat):
            names += QUOTED.findall(match.group(1) or '"{}"'.format(match.group(2)))
        if names:
            out.append((flat, names, [value + " " + unit for value, unit in FIGURE.findall(flat)]))
    return out


def test_figures_beside_a_record_name_occur_in_that_record():
    sample = 'The mean is 52.5 s and 20.6 moves (section "robot").'
    (sentence, names, figures), = _named_figures(sample)
    assert names == ["robot"] and "52.5 s" in figures and "20.6 moves" in figures
    records = rerun_check.sections(_read(os.path.join("docs", "benchmarks.md")))
    paths = [os.path.join(TOP, "README.md")] + sorted(glob.glob(os.path.join(TOP, "docs", "*.md")))
    wrong = []
    for path in paths:
        if path.endswith("benchmarks.md"):
            continue
        for sentence, names, _ in _named_figures(open(path).read()):
            bodies = " ".join(" ".join(records.get(name, "").split()) for name in names)
            for value, unit in FIGURE.findall(sentence):
                if not re.search(r"(?<![\d.])" + re.escape(value) + r"(?![\d])", bodies):
                    wrong.append("{}: {} {} not in {}: {}".format(os.path.relpath(path, TOP), value, unit, names,
                                                                  sentence[:120]))
    assert not wrong, "\n".join(wrong)
