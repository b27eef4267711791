import os
import random
import shutil

import pytest

from cubebot.solver import store, tables
from cubebot.solver.errors import TableError


def ring(n):
    """Neighbours on a cycle of n states (moves +1, -1, +2, -2)."""
    return lambda s: [(s + d) % n for d in (1, -1, 2, -2)]


def test_dense_bfs_distances_on_a_ring():
    n = 101
    dist = tables.bfs([0], ring(n), n_states=n)
    assert list(dist) == [min((k + 1) // 2, (n - k + 1) // 2) for k in range(n)]


def test_dense_bfs_stops_at_max_depth_and_reports_progress():
    seen = []
    dist = tables.bfs([0, 50], ring(100), n_states=100, max_depth=3,
                      progress=lambda d, c: seen.append((d, c)))
    assert dist[6] == 3 and dist[7] == tables.UNREACHED
    assert seen[0] == (0, 2) and sum(c for _, c in seen) == sum(1 for d in dist if d != tables.UNREACHED)


def test_sparse_bfs_matches_dense():
    n = 60
    dense = tables.bfs([3], ring(n), n_states=n)
    sparse = tables.bfs([3], ring(n), max_depth=5)
    assert sparse == {k: dense[k] for k in range(n) if dense[k] <= 5}


@pytest.mark.parametrize("bits,encoding,top", [(2, tables.MOD3, None), (4, tables.PLAIN, 15)])
def test_dense_round_trip(tmp_path, bits, encoding, top):
    rng = random.Random(bits)
    dist = bytearray(rng.choice([0, 1, 2, 3, 7, 14, 20, tables.UNREACHED]) for _ in range(1001))
    path = str(tmp_path / "t.bin")
    size = tables.write_dense(path, dist, bits=bits, encoding=encoding)
    assert os.path.getsize(path) == size
    table = tables.DenseTable(path)
    assert len(table) == len(dist)
    for r, d in enumerate(dist):
        if encoding == tables.MOD3:
            want = 3 if d == tables.UNREACHED else d % 3
        else:
            want = min(d, top)
        assert table[r] == want
    ranks = list(range(len(dist))) + [rng.randrange(len(dist)) for _ in range(300)]
    assert table.values(ranks) == [table[r] for r in ranks]
    unpacked = table.unpacked()       # 1001 entries: an odd count, the last byte half used
    assert isinstance(unpacked, bytes) and list(unpacked) == [table[r] for r in range(len(dist))]
    if bits == 4:
        buf, at = table.nibbles()
        assert [(buf[at + (r >> 1)] >> ((r & 1) << 2)) & 15 for r in range(len(dist))] == \
            [table[r] for r in range(len(dist))]
    else:
        with pytest.raises(TableError, match="2 bits per entry, expected 4"):
            table.nibbles()
    table.close()


def test_records_round_trip(tmp_path):
    rng = random.Random(5)
    items = {rng.randrange(1 << 40): rng.randrange(1 << 16) for _ in range(500)}
    path = str(tmp_path / "r.bin")
    tables.write_records(path, items.items(), key_width=5, value_width=2)
    table = tables.RecordTable(path)
    assert len(table) == len(items)
    for k, v in items.items():
        assert table.get(k) == v
    missing = next(k for k in range(1 << 40) if k not in items)
    assert table.get(missing) is None
    table.close()


def test_words_round_trip(tmp_path):
    rng = random.Random(6)
    values = [rng.randrange(1 << 16) for _ in range(777)] + [0, 65535]
    path = str(tmp_path / "w.bin")
    size = tables.write_words(path, values)
    assert os.path.getsize(path) == size == tables.HEADER.size + 2 * len(values)
    table = tables.WordTable(path)
    assert len(table) == len(values)
    words = table.words()
    assert [table[i] for i in range(len(values))] == values == [words[i] for i in range(len(values))]
    del words
    table.close()
    with pytest.raises(TableError, match="header"):
        tables.DenseTable(path)


def test_word_values_must_fit_sixteen_bits(tmp_path):
    with pytest.raises(OverflowError):
        tables.write_words(str(tmp_path / "w.bin"), [1 << 16])
    assert not os.path.exists(str(tmp_path / "w.bin"))


def copy_tables(src, dst):
    for name in os.listdir(src):
        if name.endswith(".bin") or name == store.MANIFEST:
            shutil.copy(os.path.join(src, name), os.path.join(dst, name))
    return str(dst)


def test_built_tables_match_the_committed_manifest(tables_dir):
    top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    committed = store.load_manifest(os.path.join(top, "tables"))
    built = store.load_manifest(tables_dir)
    for name in store.catalog.names():
        assert committed[name] == built[name]
    assert store.verify(tables_dir) == []


def test_corrupted_table_is_detected(tables_dir, tmp_path):
    directory = copy_tables(tables_dir, tmp_path)
    path = store.table_path("2x2-htm", directory)
    with open(path, "r+b") as fh:
        fh.seek(1000)
        byte = fh.read(1)
        fh.seek(1000)
        fh.write(bytes([byte[0] ^ 0xFF]))
    problems = store.verify(directory)
    assert len(problems) == 1 and "2x2-htm" in problems[0] and "sha256" in problems[0]
    assert "cubebot tables build" in problems[0]


def test_truncated_missing_and_garbled_tables_raise_table_error(tables_dir, tmp_path):
    directory = copy_tables(tables_dir, tmp_path)
    path = store.table_path("2x2-qtm", directory)
    with open(path, "r+b") as fh:
        fh.truncate(5000)
    with pytest.raises(TableError, match=r"2x2-qtm.*cubebot tables build"):
        store.open_dense("2x2-qtm", directory)
    with open(path, "wb") as fh:
        fh.write(b"garbage" * 1000)
    with pytest.raises(TableError, match=r"2x2-qtm.*header"):
        store.open_dense("2x2-qtm", directory)
    os.unlink(path)
    with pytest.raises(TableError, match=r"2x2-qtm is missing.*cubebot tables build"):
        store.open_dense("2x2-qtm", directory)
    assert any("missing" in p for p in store.verify(directory))


def test_unknown_table_name_is_refused(tmp_path):
    with pytest.raises(TableError, match="no table called 'nope'"):
        store.build(["nope"], directory=str(tmp_path), progress=None)


@pytest.mark.parametrize("bits,encoding", [(2, tables.MOD3), (4, tables.PLAIN)])
def test_a_table_read_by_pread_reads_what_the_mapped_one_does(tmp_path, bits, encoding):
    rng = random.Random(7 + bits)
    dist = bytearray(rng.choice([0, 1, 2, 5, 9, tables.UNREACHED]) for _ in range(777))
    path = str(tmp_path / "t.bin")
    tables.write_dense(path, dist, bits=bits, encoding=encoding)
    mapped, read = tables.DenseTable(path), tables.ReadDenseTable(path)
    assert len(read) == len(mapped) and read.unreached == mapped.unreached
    assert [read[r] for r in range(len(dist))] == [mapped[r] for r in range(len(dist))]
    ranks = [rng.randrange(len(dist)) for _ in range(100)]
    assert read.values(ranks) == mapped.values(ranks)
    for bad in (-1, len(dist)):
        with pytest.raises(TableError, match="out of range"):
            read[bad]
    with pytest.raises(TableError, match="entry by entry"):
        read.unpacked()
    read.close()
    read.close()                       # closing twice is harmless
    mapped.close()
