"""The docs' style rules (CONTRIBUTING.md, "Docs"): no sentence over MAX_WORDS words, and no
history (commit hashes, dates, "before <date>") outside the benchmark records and the
"Tried and not kept" lists. Code blocks and tables are not prose and are not counted."""

import glob
import os
import re

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MAX_WORDS = 60
RECORD = re.compile(r"<!-- bench:(?P<name>[^ ]+) -->\n.*?\n<!-- /bench:(?P=name) -->", re.S)
CODE_SPAN = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"(*\[])")
ITEM = re.compile(r"^\s*(?:[-*+]|\d+\.)\s+")
HASH = re.compile(r"\b(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b")
NOT_HASHES = {"ed25519"}      # words that look like a short commit hash
DATE = re.compile(r"\b20\d\d-\d\d-\d\d\b|\bbefore (?:the )?(?:\d{1,2} )?(?:20\d\d|January|February|March|April|May|"
                  r"June|July|August|September|October|November|December)\b")


def doc_paths():
    paths = [os.path.join(TOP, "README.md"), os.path.join(TOP, "CONTRIBUTING.md")]
    return [p for p in paths if os.path.exists(p)] + sorted(glob.glob(os.path.join(TOP, "docs", "*.md")))


def prose_units(text):
    """Paragraphs, list items and headings of markdown `text`, each joined into one line;
    fenced code, tables and HTML comments left out."""
    units, current, fenced = [], [], False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("```"):
            fenced = not fenced
            units.append(current)
            current = []
            continue
        if fenced or stripped.startswith("|") or stripped.startswith("<!--") or not stripped:
            units.append(current)
            current = []
            continue
        if stripped.startswith("#"):
            units.extend([current, [stripped]])
            current = []
            continue
        if ITEM.match(line):
            units.append(current)
            current = []
            line = ITEM.sub("", line)
        current.append(line.strip())
    units.append(current)
    return [" ".join(u) for u in units if u]


def sentences(text):
    out = []
    for unit in prose_units(text):
        unit = LINK.sub(r"\1", CODE_SPAN.sub("CODE", unit))
        out.extend(s for s in SENTENCE_END.split(unit) if s.strip())
    return out


def words(sentence):
    return len(sentence.split())


def outside_records_and_tried(text):
    """`text` without benchmark records and without the sections whose heading says "Tried"."""
    text = RECORD.sub("", text)
    kept, skip_level = [], None
    for line in text.splitlines():
        heading = re.match(r"^(#+)\s", line)
        if heading:
            level = len(heading.group(1))
            if skip_level is not None and level <= skip_level:
                skip_level = None
            if skip_level is None and "tried" in line.lower():
                skip_level = level
        if skip_level is None:
            kept.append(line)
    return "\n".join(kept)


def test_the_splitter_finds_sentences_and_leaves_out_code_and_tables():
    text = ("# Title\nOne two three. Four five `a b c d e` six.\n\n- an item\n  that goes on. Next one.\n\n"
            "| a long | table row |\n\n```\ncode that is long\n```\n")
    assert sentences(text) == ["# Title", "One two three.", "Four five CODE six.", "an item that goes on.",
                               "Next one."]


def test_no_sentence_runs_over_the_limit():
    assert len(doc_paths()) >= 10
    long_ones = []
    for path in doc_paths():
        for sentence in sentences(open(path).read()):
            if words(sentence) > MAX_WORDS:
                long_ones.append("{} ({} words): {}...".format(os.path.relpath(path, TOP), words(sentence),
                                                                sentence[:100]))
    assert not long_ones, "\n".join(long_ones)


def test_history_stays_in_the_records_and_tried_lists():
    sample = "## Now\nMeasured at abc1234.\n## Tried and not kept\n- x at 9f8e7d6, before 2026-11-27\n"
    assert HASH.findall(outside_records_and_tried(sample)) == ["abc1234"]
    assert len(DATE.findall("92.0 before 2026-11-26, run 2026-11-28")) == 2 and not DATE.findall("in 2026")
    found = []
    for path in doc_paths():
        text = outside_records_and_tried(open(path).read())
        for line in text.splitlines():
            for match in [h for h in HASH.findall(line) if h not in NOT_HASHES] + DATE.findall(line):
                found.append("{}: {}: {}".format(os.path.relpath(path, TOP), match, line.strip()[:100]))
    assert not found, "\n".join(found)


def test_nothing_points_outside_the_repository():
    """Citations go to docs/references.md; no path of a particular machine is named."""
    outside = re.compile("|".join(re.escape(word) for word in ("facts" + ".md", "/wor" + "k/", "shar" + "ed/")))
    hits = []
    for folder in ("bench", "cubebot", "docs", "robot", "solver", "tables", "tests", "deploy", "systemd"):
        for path in glob.glob(os.path.join(TOP, folder, "**", "*"), recursive=True):
            if path.endswith((".py", ".md", ".sh", ".json", ".service", ".txt")) and os.path.isfile(path):
                for number, line in enumerate(open(path, errors="replace"), 1):
                    if outside.search(line):
                        hits.append("{}:{}: {}".format(os.path.relpath(path, TOP), number, line.strip()[:80]))
    for path in doc_paths() + [os.path.join(TOP, "deploy.sh"), os.path.join(TOP, "setup.py")]:
        if os.path.exists(path) and outside.search(open(path).read()):
            hits.append(os.path.relpath(path, TOP))
    assert not hits, "\n".join(hits)
