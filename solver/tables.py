"""Distance tables: the generic breadth-first builder and the on-disk formats.

Three file formats, each with a 16-byte header (struct "<4sHBBQ"): magic,
format version, two format parameters and the entry count.

  dense   magic b"CBTD"; params (bits, encoding); one entry per rank, packed
          little-end first (entry r is in byte r*bits//8 at bit offset
          (r*bits) % 8). bits is 2 or 4. Encoding MOD3 (bits 2): the distance
          mod 3, 3 = unreached. Encoding PLAIN (bits 4): the distance,
          15 = unreached or >= 15.
  records magic b"CBTR"; params (key_width, value_width) in bytes; `count`
          records of key (big-endian unsigned) + value (big-endian unsigned),
          sorted by key, read by binary search.
  words   magic b"CBTW"; params (2, 0); one unsigned 16-bit little-endian
          word per index: a move table (entry state * n_moves + move is the
          state after the move), read as words straight from the mapping.

Readers map the file with mmap and read single entries: a table is never
loaded whole. Writers write a temporary file in the same directory and
os.replace it into place, so a table file is either complete or absent.
"""

import mmap
import os
import shutil
import struct
import sys
from array import array

from cubebot.solver.errors import TableError

FORMAT_VERSION = 1
HEADER = struct.Struct("<4sHBBQ")
DENSE_MAGIC = b"CBTD"
RECORDS_MAGIC = b"CBTR"
WORDS_MAGIC = b"CBTW"
WORD_BYTES = 2                 # a word table entry: unsigned 16 bits
WORD_TYPECODE = "H"            # array/memoryview code of an unsigned 16-bit word
UNREACHED = 255                # distance value of a state bfs did not reach
MOD3 = 1                       # dense encoding: distance mod 3, 3 = unreached
PLAIN = 0                      # dense encoding: the distance itself, all ones = unreached
BITS_PER_BYTE = 8
FILE_MODE = 0o644             # table files are readable by everyone


def bfs(goals, neighbours, n_states=None, max_depth=None, progress=None, costs=None):
    """Distances from `goals` by breadth-first search.

    costs (dense only): the cost of each move, in the order neighbours()
    returns its states (small positive integers, e.g. 2 for a move written
    as two turns); the distances are then the cheapest total costs (Dial's
    bucket order: a state's distance is final when its depth is scanned).

    goals: the states at distance 0. neighbours(state) -> iterable of states
    one move away (the move set must be closed under inverses for the result
    to be a distance *to* the goals).

    With n_states (states are ranks 0 .. n_states-1): returns a bytearray of
    n_states distances, UNREACHED for states not reached (or beyond
    max_depth). Each depth's frontier is found by scanning the array for its
    depth byte (bytearray.find, at C speed), so no frontier list is kept;
    the Python cost is one neighbours() call per reached state plus one
    array test per neighbour (about 2-3 us per state with 9 moves here).

    Without n_states (states are any hashable keys): returns a dict
    key -> depth of every state within max_depth, with per-depth frontier
    lists; about 1 us more per state for the dict.

    progress(depth, count) is called after each depth with the number of
    states at that depth.
    """
    if n_states is None:
        return _bfs_sparse(goals, neighbours, max_depth, progress)
    if costs is not None:
        return _bfs_dense_costed(goals, neighbours, n_states, costs, max_depth, progress)
    return _bfs_dense(goals, neighbours, n_states, max_depth, progress)


def _bfs_dense(goals, neighbours, n_states, max_depth, progress):
    dist = bytearray([UNREACHED]) * n_states
    count = 0
    for g in goals:
        if dist[g] != 0:
            dist[g] = 0
            count += 1
    reached = count
    depth = 0
    limit = UNREACHED - 1 if max_depth is None else min(max_depth, UNREACHED - 1)
    if progress:
        progress(0, count)
    while count and depth < limit and reached < n_states:
        find = dist.find
        here = depth
        nxt = depth + 1
        count = 0
        i = find(here)
        while i != -1:
            for t in neighbours(i):
                if dist[t] == UNREACHED:
                    dist[t] = nxt
                    count += 1
            i = find(here, i + 1)
        depth = nxt
        reached += count
        if progress:
            progress(depth, count)
    return dist


def _bfs_dense_costed(goals, neighbours, n_states, costs, max_depth, progress):
    dist = bytearray([UNREACHED]) * n_states
    for g in goals:
        dist[g] = 0
    costs = list(costs)
    top = max(costs)
    limit = UNREACHED - 1 if max_depth is None else min(max_depth, UNREACHED - 1)
    depth = 0
    while depth <= limit:
        find = dist.find
        i = find(depth)
        if i == -1 and all(find(depth + k) == -1 for k in range(1, top + 1)
                           if depth + k < UNREACHED):
            break
        count = 0
        while i != -1:
            count += 1
            for t, c in zip(neighbours(i), costs):
                d = depth + c
                if d < dist[t] and d <= limit:
                    dist[t] = d
            i = find(depth, i + 1)
        if progress:
            progress(depth, count)
        depth += 1
    return dist


def _bfs_sparse(goals, neighbours, max_depth, progress):
    dist = {}
    frontier = []
    for g in goals:
        if g not in dist:
            dist[g] = 0
            frontier.append(g)
    depth = 0
    if progress:
        progress(0, len(frontier))
    while frontier and (max_depth is None or depth < max_depth):
        depth += 1
        nxt = []
        for s in frontier:
            for t in neighbours(s):
                if t not in dist:
                    dist[t] = depth
                    nxt.append(t)
        frontier = nxt
        if progress:
            progress(depth, len(frontier))
    return dist


# ---------------------------------------------------------------- writing

def keep_backup(path):
    """Copy an existing file to path + ".bak" (atomically) before it is replaced."""
    if os.path.exists(path):
        tmp = path + ".bak.tmp"
        try:
            shutil.copyfile(path, tmp)
            os.replace(tmp, path + ".bak")
        except BaseException as exc:
            if os.path.exists(tmp):
                os.unlink(tmp)
            _name_the_file(exc, path + ".bak")
            raise


def write_text_atomic(path, text, backup=False):
    """Write the string `text` (UTF-8) to `path` atomically; with `backup`, keep the old file as .bak."""
    if backup:
        keep_backup(path)
    write_atomic(path, [text.encode("utf-8")])


def write_atomic(path, chunks):
    """Write the byte strings `chunks` to `path` via a temp file + os.replace.

    The one atomic file write of cubebot: tables, manifests, settings,
    configuration and colour profiles all go through it.
    """
    import tempfile          # here, not at the top: a solve only reads tables (it costs MBs)
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        os.makedirs(directory)
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".tmp-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            for chunk in chunks:
                fh.write(chunk)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, FILE_MODE)
        os.replace(tmp, path)
    except BaseException as exc:
        if os.path.exists(tmp):
            os.unlink(tmp)
        _name_the_file(exc, path)
        raise


def _name_the_file(exc, path):
    """Give an OSError raised while writing `path` (a full disk: write() names no file) that path."""
    if isinstance(exc, EnvironmentError) and exc.errno is not None and exc.filename is None:
        raise OSError(exc.errno, exc.strerror, path)


def pack_dense(dist, bits, encoding):
    """The packed bytes of a distance bytearray (see the module docstring)."""
    if (bits, encoding) == (2, MOD3):
        table = bytes(bytearray(3 if d == UNREACHED else d % 3 for d in range(256)))
    elif bits == 4 and encoding == PLAIN:
        top = (1 << bits) - 1
        table = bytes(bytearray(min(d, top) for d in range(256)))
    else:
        raise ValueError("dense tables are 2-bit MOD3 or 4-bit PLAIN, not {}-bit {}".format(
            bits, encoding))
    per_byte = BITS_PER_BYTE // bits
    values = bytes(dist).translate(table)
    values += bytes(-len(values) % per_byte)
    packed = 0
    # Each value is below 2**bits, so shifting a whole byte string (as one
    # big integer) by k*bits moves every value into its slot without carries.
    for k in range(per_byte):
        packed |= int.from_bytes(values[k::per_byte], "little") << (k * bits)
    return packed.to_bytes(len(values) // per_byte, "little")


def write_dense(path, dist, bits=2, encoding=MOD3):
    """Write a dense table of len(dist) entries; returns the file size."""
    header = HEADER.pack(DENSE_MAGIC, FORMAT_VERSION, bits, encoding, len(dist))
    body = pack_dense(dist, bits, encoding)
    write_atomic(path, [header, body])
    return len(header) + len(body)


def write_records(path, items, key_width, value_width):
    """Write (key, value) pairs of unsigned ints as a sorted record table."""
    items = sorted(items)
    chunks = [HEADER.pack(RECORDS_MAGIC, FORMAT_VERSION, key_width, value_width, len(items))]
    buf = bytearray()
    for key, value in items:
        buf += key.to_bytes(key_width, "big")
        buf += value.to_bytes(value_width, "big")
    chunks.append(bytes(buf))
    write_atomic(path, chunks)
    return HEADER.size + len(buf)


def write_words(path, values):
    """Write a word table (unsigned 16-bit entries, direct index); returns the file size."""
    body = array(WORD_TYPECODE, values)
    if body.itemsize != WORD_BYTES:
        raise ValueError("array code {!r} is {} bytes here, not {}".format(
            WORD_TYPECODE, body.itemsize, WORD_BYTES))
    if sys.byteorder != "little":
        body.byteswap()
    header = HEADER.pack(WORDS_MAGIC, FORMAT_VERSION, WORD_BYTES, 0, len(body))
    write_atomic(path, [header, body.tobytes()])
    return HEADER.size + len(body) * WORD_BYTES


# ---------------------------------------------------------------- reading

class _Mapped(object):
    """An mmap of a table file with its checked header."""

    def __init__(self, path, name, magic):
        self.name = name
        self.path = path
        try:
            fh = open(path, "rb")
        except (IOError, OSError) as exc:
            raise TableError("table {} cannot be read ({}): run `cubebot tables build`".format(
                name, exc.strerror or exc))
        try:
            size = os.fstat(fh.fileno()).st_size
            if size < HEADER.size:
                raise TableError("table {} is truncated ({} bytes): run `cubebot tables build`".format(
                    name, size))
            head = HEADER.unpack(fh.read(HEADER.size))
            if head[0] != magic or head[1] != FORMAT_VERSION:
                raise TableError("table {} has header {!r} version {}, expected {!r} version {}: "
                                 "run `cubebot tables build`".format(
                                     name, head[0], head[1], magic, FORMAT_VERSION))
            self.mm = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        finally:
            fh.close()
        self.size = size
        self.params = head[2], head[3]
        self.count = head[4]

    def check_size(self, expected):
        if self.size != expected:
            self.close()
            raise TableError("table {} has {} bytes, expected {}: run `cubebot tables build`".format(
                self.name, self.size, expected))

    def close(self):
        self.mm.close()


class DenseTable(_Mapped):
    """A dense table read through mmap: table[rank] -> stored value."""

    def __init__(self, path, name=None):
        _Mapped.__init__(self, path, name or os.path.basename(path), DENSE_MAGIC)
        self.bits, self.encoding = self.params
        if self.bits not in (2, 4):
            self.close()
            raise TableError("table {} has {} bits per entry: run `cubebot tables build`".format(
                self.name, self.bits))
        per_byte = BITS_PER_BYTE // self.bits
        self.check_size(HEADER.size + (self.count + per_byte - 1) // per_byte)
        self._shift = 2 if self.bits == 2 else 1          # log2 of entries per byte
        self._mask = (1 << self.bits) - 1
        self.unreached = 3 if self.encoding == MOD3 else self._mask

    def __len__(self):
        return self.count

    def __getitem__(self, rank):
        byte = self.mm[HEADER.size + (rank >> self._shift)]
        return (byte >> ((rank & ((1 << self._shift) - 1)) * self.bits)) & self._mask

    def nibbles(self):
        """(buffer, offset) of a 4-bit table, for reading entries inline in a hot loop
        (no call per entry): entry r = (buffer[offset + (r >> 1)] >> ((r & 1) << 2)) & 15."""
        if self.bits != 4:
            raise TableError("table {} has {} bits per entry, expected 4: run `cubebot tables "
                             "build`".format(self.name, self.bits))
        return self.mm, HEADER.size

    def unpacked(self):
        """Every entry, one byte each, as bytes (unpacked[rank] == self[rank]): for a
        small table read in a tight loop (no call per entry). The size in bytes is the
        entry count."""
        per_byte = 1 << self._shift
        out = bytearray(self.count)
        for k in range(per_byte):
            shift = k * self.bits
            # entry k of each byte: bytes k, k + per_byte, ... of out (no copy of the whole)
            part = self.mm[HEADER.size:HEADER.size + len(range(k, self.count, per_byte))]
            out[k::per_byte] = part.translate(bytes((b >> shift) & self._mask for b in range(256)))
        return bytes(out)

    def values(self, ranks):
        """[self[r] for r in ranks], in one loop (no call per entry)."""
        mm, base, shift, bits, mask = self.mm, HEADER.size, self._shift, self.bits, self._mask
        low = (1 << shift) - 1
        return [(mm[base + (r >> shift)] >> ((r & low) * bits)) & mask for r in ranks]


class ReadDenseTable(DenseTable):
    """A dense table read entry by entry with pread, not mapped: the pages it reads stay
    in the page cache, outside the process's peak (bench/brick.py counts them apart), and
    readahead is off, so only those pages are read. For a large table read at a few
    scattered ranks."""

    def __init__(self, path, name=None):
        DenseTable.__init__(self, path, name)
        self.mm.close()
        self.mm = None
        self._fd = os.open(path, os.O_RDONLY)
        if hasattr(os, "posix_fadvise"):
            # no readahead: only the pages read come into the page cache
            os.posix_fadvise(self._fd, 0, 0, os.POSIX_FADV_RANDOM)

    def __getitem__(self, rank):
        if not 0 <= rank < self.count:
            raise TableError("table {}: rank {} is out of range".format(self.name, rank))
        data = os.pread(self._fd, 1, HEADER.size + (rank >> self._shift))
        if len(data) != 1:
            raise TableError("table {} is truncated: run `cubebot tables build`".format(self.name))
        return (data[0] >> ((rank & ((1 << self._shift) - 1)) * self.bits)) & self._mask

    def values(self, ranks):
        return [self[r] for r in ranks]

    def nibbles(self):
        raise TableError("table {} is read entry by entry, not mapped".format(self.name))

    def unpacked(self):
        raise TableError("table {} is read entry by entry, not mapped".format(self.name))

    def close(self):
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


class RecordTable(_Mapped):
    """A sorted fixed-width record table: get(key) -> value or None."""

    def __init__(self, path, name=None):
        _Mapped.__init__(self, path, name or os.path.basename(path), RECORDS_MAGIC)
        self.key_width, self.value_width = self.params
        self.width = self.key_width + self.value_width
        self.check_size(HEADER.size + self.count * self.width)

    def __len__(self):
        return self.count

    def get(self, key, default=None):
        want = key.to_bytes(self.key_width, "big")
        mm, width, kw, base = self.mm, self.width, self.key_width, HEADER.size
        lo, hi = 0, self.count
        while lo < hi:
            mid = (lo + hi) >> 1
            at = base + mid * width
            got = mm[at:at + kw]
            if got < want:
                lo = mid + 1
            elif got > want:
                hi = mid
            else:
                return int.from_bytes(mm[at + kw:at + width], "big")
        return default


class WordTable(_Mapped):
    """A word table read through mmap: table[index] -> unsigned 16-bit value.

    On a little-endian machine (the brick's ARM and x86 both are) entries are
    read through a memoryview cast to words, without copying the file.
    """

    _WORD = struct.Struct("<H")

    def __init__(self, path, name=None):
        _Mapped.__init__(self, path, name or os.path.basename(path), WORDS_MAGIC)
        if self.params[0] != WORD_BYTES:
            self.close()
            raise TableError("table {} has {}-byte words, expected {}: run `cubebot tables "
                             "build`".format(self.name, self.params[0], WORD_BYTES))
        self.check_size(HEADER.size + self.count * WORD_BYTES)
        self._view = None
        if sys.byteorder == "little":
            self._view = memoryview(self.mm)[HEADER.size:].cast(WORD_TYPECODE)

    def __len__(self):
        return self.count

    def __getitem__(self, index):
        if self._view is not None:
            return self._view[index]
        return self._WORD.unpack_from(self.mm, HEADER.size + index * WORD_BYTES)[0]

    def words(self):
        """Something indexable like the table but faster (the word view where there is one)."""
        return self._view if self._view is not None else self

    def close(self):
        view, self._view = getattr(self, "_view", None), None
        if view is not None:
            view.release()
        _Mapped.close(self)

