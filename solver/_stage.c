/* The compiled centre-staging search (cubebot.solver._stage): optional.
 *
 * A centre orbit of 24 slots is seen as a 24-bit mask: bit s set when slot s
 * holds a piece of the colours being staged (8 of them). A move sends the
 * content of slot s to slot dest[s]. cubebot.solver.maskstage describes a
 * stage (its moves, orbits, distance tables and paired orbits) and does the
 * same in Python; this file only runs it faster.
 *
 *   bfs(dest, n_moves, goal)   the distance of every 8-of-24 mask (by its
 *                              combinatorial rank) from the mask `goal`,
 *                              255 where unreached: a bytearray of C(24, 8)
 *   ida(spec, start, max_cost, max_solutions, max_nodes)
 *                              (paths, nodes): IDA* over the masks of several
 *                              orbits, the bound the largest of the 4-bit
 *                              tables' distances (times weight / 100, rounded
 *                              up) and of the unpaired count
 *                              of the paired orbits divided by a divisor;
 *                              every path of the first bound that has any,
 *                              up to max_solutions, within max_nodes nodes.
 *   beam(spec, start, width, max_depth)
 *                              (path, found): a beam over the same stage (at
 *                              most 4 orbits), the `width` children of least
 *                              bound (then fewest unpaired) kept each depth,
 *                              one a state; the first path to a state of
 *                              bound 0. It holds BEAM_SPARE x width children
 *                              (each made twice: counted, then kept).
 *
 * Once every orbit is staged, an axis's two faces hold 8 slots of each orbit,
 * 4 of them of one colour: a 4-of-8 "sub-mask" ranked among C(8, 4) = 70. A
 * state of k orbits is the index sum r_o * 70^o.
 *   sub_bfs(perms, n_moves, n_orbits, goals)
 *                              the distance of every 70^k index from the
 *                              nearest goal (tuples of sub-masks), 255 where
 *                              unreached: a bytearray of 70^k (k <= 4)
 *   sub_ida(perms, n_moves, n_orbits, tables, successors, start, max_cost, max_nodes, weight,
 *           max_solutions)     (paths, nodes): IDA* over the sub-masks of up to
 *                              MAX_ORBITS orbits to a state every table reads 0, the bound the
 *                              largest exact distance of byte tables over 1-4 of them,
 *                              times weight / 100, rounded up
 *
 * The big cubes' wing-pairing beam (cubebot.solver.big.pairbeam) scores a
 * child by its parent's flags: one byte a compared pair of facelets, 1 where
 * they differ, and per step the flags that count its child's unjoined wings.
 *   pair_rank(flags, froms, lengths, costs, weight, keep)
 *                              [(score, cost, step, parent)]: the `keep`
 *                              least children in tuple order, cost = the
 *                              parent's + the step's length, score = cost +
 *                              weight x the sum of the step's flags
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define SLOTS 24
#define PIECES 8
#define N_RANKS 735471          /* C(24, 8) */
#define MAX_ORBITS 8
#define MAX_MOVES 64
#define MAX_DEPTH 40
#define UNREACHED 255

static uint32_t binom[SLOTS + 1][PIECES + 1];

static void init_binom(void)
{
    int n, k;
    for (n = 0; n <= SLOTS; n++) {
        for (k = 0; k <= PIECES; k++) {
            if (k == 0) binom[n][k] = 1;
            else if (n == 0) binom[n][k] = 0;
            else binom[n][k] = binom[n - 1][k - 1] + binom[n - 1][k];
        }
    }
}

/* colex rank: the k-th set bit (k = 1..8) at position p adds C(p, k) */
static uint32_t rank_mask(uint32_t mask)
{
    uint32_t r = 0;
    int k = 0;
    while (mask) {
        int p = __builtin_ctz(mask);
        k++;
        r += binom[p][k];
        mask &= mask - 1;
    }
    return r;
}

static uint32_t unrank_mask(uint32_t r)
{
    uint32_t mask = 0;
    int k, p;
    for (k = PIECES; k >= 1; k--) {
        p = k - 1;
        while (p + 1 < SLOTS && binom[p + 1][k] <= r) p++;
        r -= binom[p][k];
        mask |= 1u << p;
    }
    return mask;
}

typedef struct {
    uint32_t t[3][256];
} Lookup;

static void make_lookup(Lookup *l, const unsigned char *dest)
{
    int b, v, i;
    for (b = 0; b < 3; b++) {
        for (v = 0; v < 256; v++) {
            uint32_t m = 0;
            for (i = 0; i < 8; i++)
                if (v & (1 << i)) m |= 1u << dest[8 * b + i];
            l->t[b][v] = m;
        }
    }
}

static inline uint32_t move_mask(const Lookup *l, uint32_t m)
{
    return l->t[0][m & 255] | l->t[1][(m >> 8) & 255] | l->t[2][(m >> 16) & 255];
}

static int check_dest(const unsigned char *dest, Py_ssize_t count)
{
    Py_ssize_t i;
    for (i = 0; i < count; i++)
        if (dest[i] >= SLOTS) {
            PyErr_SetString(PyExc_ValueError, "a slot map sends a slot past 23");
            return 0;
        }
    return 1;
}

static PyObject *stage_bfs(PyObject *self, PyObject *args)
{
    Py_buffer dest;
    int n_moves, depth;
    unsigned long goal;
    Lookup *look = NULL;
    PyObject *out = NULL;
    unsigned char *dist;
    uint32_t r, count, i;
    int m;
    if (!PyArg_ParseTuple(args, "y*ik", &dest, &n_moves, &goal)) return NULL;
    if (n_moves < 1 || n_moves > MAX_MOVES || dest.len != (Py_ssize_t)n_moves * SLOTS
        || __builtin_popcountl(goal) != PIECES || goal >> SLOTS) {
        PyErr_SetString(PyExc_ValueError, "bfs needs n_moves x 24 slot maps and a goal of 8 of 24 slots");
        goto done;
    }
    if (!check_dest(dest.buf, dest.len)) goto done;
    look = PyMem_Malloc(sizeof(Lookup) * n_moves);
    if (!look) { PyErr_NoMemory(); goto done; }
    for (m = 0; m < n_moves; m++) make_lookup(&look[m], (const unsigned char *)dest.buf + m * SLOTS);
    out = PyByteArray_FromStringAndSize(NULL, N_RANKS);
    if (!out) goto done;
    dist = (unsigned char *)PyByteArray_AS_STRING(out);
    memset(dist, UNREACHED, N_RANKS);
    dist[rank_mask((uint32_t)goal)] = 0;
    Py_BEGIN_ALLOW_THREADS
    for (depth = 0, count = 1; count; depth++) {
        count = 0;
        for (r = 0; r < N_RANKS; r++) {
            uint32_t mask;
            if (dist[r] != depth) continue;
            mask = unrank_mask(r);
            for (m = 0; m < n_moves; m++) {
                i = rank_mask(move_mask(&look[m], mask));
                if (dist[i] == UNREACHED) { dist[i] = (unsigned char)(depth + 1); count++; }
            }
        }
    }
    Py_END_ALLOW_THREADS
done:
    PyMem_Free(look);
    PyBuffer_Release(&dest);
    return out;
}

typedef struct {
    int orbit;
    Py_buffer buf;
    const unsigned char *data;   /* entry r: nibble r of data (low nibble first) */
    Py_ssize_t entries;
} Table;

typedef struct {
    int n_moves, n_orbits, n_tables, n_pairs, divisor, weight;
    unsigned char flips[MAX_MOVES];  /* 1 where a move flips the parity the goal asks */
    int want;                    /* the parity a path must end with, -1: any */
    Lookup *look;                /* [move * n_orbits + orbit] */
    Table tables[MAX_ORBITS];
    int pairs[MAX_ORBITS][2];
    int allowed[MAX_MOVES + 1][MAX_MOVES];
    int n_allowed[MAX_MOVES + 1];
    /* the search */
    long long nodes, max_nodes;
    int max_solutions, path[MAX_DEPTH], stopped;
    PyObject *found;
} Stage;

static void release_stage(Stage *s)
{
    int k;
    for (k = 0; k < s->n_tables; k++) PyBuffer_Release(&s->tables[k].buf);
    PyMem_Free(s->look);
}

static int parse_successors(PyObject *succ, int n_moves, int allowed[][MAX_MOVES], int *n_allowed)
{
    int m, k;
    for (m = 0; m <= n_moves; m++) {
        PyObject *row = PyTuple_GET_ITEM(succ, m);
        if (!PyTuple_Check(row) || PyTuple_GET_SIZE(row) > n_moves) {
            PyErr_SetString(PyExc_ValueError, "a successor row is not a tuple of moves");
            return 0;
        }
        n_allowed[m] = (int)PyTuple_GET_SIZE(row);
        for (k = 0; k < n_allowed[m]; k++) {
            long v = PyLong_AsLong(PyTuple_GET_ITEM(row, k));
            if (v < 0 || v >= n_moves) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a successor is no move");
                return 0;
            }
            allowed[m][k] = (int)v;
        }
    }
    return 1;
}

static int parse_stage(Stage *s, PyObject *spec)
{
    Py_buffer dest, flips;
    PyObject *tables, *pairs, *succ;
    int m, o, k;
    memset(s, 0, sizeof(*s));
    if (!PyArg_ParseTuple(spec, "iiy*OOiiOy*i", &s->n_moves, &s->n_orbits, &dest, &tables, &pairs,
                          &s->divisor, &s->weight, &succ, &flips, &s->want))
        return 0;
    if (flips.len != s->n_moves || s->n_moves > MAX_MOVES || s->want < -1 || s->want > 1) {
        PyErr_SetString(PyExc_ValueError, "a staging spec needs one parity flag a move and a parity of -1, 0 or 1");
        PyBuffer_Release(&flips);
        PyBuffer_Release(&dest);
        return 0;
    }
    for (m = 0; m < s->n_moves; m++) s->flips[m] = ((const unsigned char *)flips.buf)[m] ? 1 : 0;
    PyBuffer_Release(&flips);
    if (s->n_moves < 1 || s->n_moves > MAX_MOVES || s->n_orbits < 1 || s->n_orbits > MAX_ORBITS
        || dest.len != (Py_ssize_t)s->n_moves * s->n_orbits * SLOTS || s->divisor < 1 || s->weight < 1
        || !PyTuple_Check(tables) || !PyTuple_Check(pairs) || !PyTuple_Check(succ)
        || PyTuple_GET_SIZE(tables) > MAX_ORBITS || PyTuple_GET_SIZE(pairs) > MAX_ORBITS
        || PyTuple_GET_SIZE(succ) != s->n_moves + 1) {
        PyErr_SetString(PyExc_ValueError, "a staging spec does not match its sizes");
        PyBuffer_Release(&dest);
        return 0;
    }
    if (!check_dest(dest.buf, dest.len)) { PyBuffer_Release(&dest); return 0; }
    s->look = PyMem_Malloc(sizeof(Lookup) * s->n_moves * s->n_orbits);
    if (!s->look) { PyBuffer_Release(&dest); PyErr_NoMemory(); return 0; }
    for (m = 0; m < s->n_moves; m++)
        for (o = 0; o < s->n_orbits; o++)
            make_lookup(&s->look[m * s->n_orbits + o],
                        (const unsigned char *)dest.buf + (m * s->n_orbits + o) * SLOTS);
    PyBuffer_Release(&dest);
    for (k = 0; k < PyTuple_GET_SIZE(tables); k++) {
        Table *t = &s->tables[k];
        Py_ssize_t offset;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(tables, k), "iy*n", &t->orbit, &t->buf, &offset)) {
            release_stage(s);
            return 0;
        }
        s->n_tables++;
        if (t->orbit < 0 || t->orbit >= s->n_orbits || offset < 0
            || (t->buf.len - offset) * 2 < N_RANKS) {
            PyErr_SetString(PyExc_ValueError, "a staging table is shorter than C(24, 8) entries");
            release_stage(s);
            return 0;
        }
        t->data = (const unsigned char *)t->buf.buf + offset;
    }
    for (k = 0; k < PyTuple_GET_SIZE(pairs); k++) {
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(pairs, k), "ii", &s->pairs[k][0], &s->pairs[k][1])
            || s->pairs[k][0] < 0 || s->pairs[k][0] >= s->n_orbits
            || s->pairs[k][1] < 0 || s->pairs[k][1] >= s->n_orbits) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a pair names no orbit");
            release_stage(s);
            return 0;
        }
        s->n_pairs++;
    }
    if (!parse_successors(succ, s->n_moves, s->allowed, s->n_allowed)) { release_stage(s); return 0; }
    return 1;
}

/* the bound of a state with parity `par`: 1 where every mask is there but the parity not */
static int heuristic(const Stage *s, const uint32_t *masks, int par)
{
    int h = 0, k, unpaired = 0;
    for (k = 0; k < s->n_tables; k++) {
        const Table *t = &s->tables[k];
        uint32_t r = rank_mask(masks[t->orbit]);
        int d = (t->data[r >> 1] >> ((r & 1) << 2)) & 15;
        if (d > h) h = d;
    }
    h = (h * s->weight + 99) / 100;
    for (k = 0; k < s->n_pairs; k++)
        unpaired += __builtin_popcount(masks[s->pairs[k][0]] ^ masks[s->pairs[k][1]]);
    unpaired = (unpaired + s->divisor - 1) / s->divisor;
    h = unpaired > h ? unpaired : h;
    return h == 0 && s->want >= 0 && par != s->want ? 1 : h;
}

/* the smallest f above bound below this node; -1 once stopped */
static int dfs(Stage *s, const uint32_t *masks, int g, int bound, int last, int par)
{
    uint32_t next[MAX_ORBITS];
    int h = heuristic(s, masks, par), smallest = 1 << 20, row, k, o;
    if (g + h > bound) return g + h;
    if (h == 0) {
        if (g == bound) {
            PyObject *path = PyList_New(g);
            if (!path) { s->stopped = 1; return -1; }
            for (k = 0; k < g; k++) PyList_SET_ITEM(path, k, PyLong_FromLong(s->path[k]));
            if (PyList_Append(s->found, path) < 0) s->stopped = 1;
            Py_DECREF(path);
            if (PyList_GET_SIZE(s->found) >= s->max_solutions) s->stopped = 1;
        }
        return 1 << 20;
    }
    if (g >= MAX_DEPTH) return 1 << 20;
    row = last < 0 ? s->n_moves : last;
    for (k = 0; k < s->n_allowed[row]; k++) {
        int m = s->allowed[row][k], t;
        if (s->max_nodes >= 0 && s->nodes >= s->max_nodes) { s->stopped = 1; return -1; }
        s->nodes++;
        for (o = 0; o < s->n_orbits; o++) next[o] = move_mask(&s->look[m * s->n_orbits + o], masks[o]);
        s->path[g] = m;
        t = dfs(s, next, g + 1, bound, m, par ^ s->flips[m]);
        if (s->stopped) return -1;
        if (t < smallest) smallest = t;
    }
    return smallest;
}

static PyObject *stage_ida(PyObject *self, PyObject *args)
{
    PyObject *spec, *start, *result = NULL;
    Stage s;
    uint32_t masks[MAX_ORBITS];
    int max_cost, bound, k;
    long long max_nodes;
    int max_solutions;
    if (!PyArg_ParseTuple(args, "OOiiL", &spec, &start, &max_cost, &max_solutions, &max_nodes))
        return NULL;
    if (!parse_stage(&s, spec)) return NULL;
    if (!PyTuple_Check(start) || PyTuple_GET_SIZE(start) != s.n_orbits) {
        PyErr_SetString(PyExc_ValueError, "the start needs one mask an orbit");
        release_stage(&s);
        return NULL;
    }
    for (k = 0; k < s.n_orbits; k++) {
        unsigned long v = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(start, k));
        if (PyErr_Occurred() || __builtin_popcountl(v) != PIECES || v >> SLOTS) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "a start mask is not 8 of 24 slots");
            release_stage(&s);
            return NULL;
        }
        masks[k] = (uint32_t)v;
    }
    s.max_nodes = max_nodes;
    s.max_solutions = max_solutions < 1 ? 1 : max_solutions;
    s.found = PyList_New(0);
    if (!s.found) { release_stage(&s); return NULL; }
    bound = heuristic(&s, masks, 0);
    while (bound <= max_cost && bound <= MAX_DEPTH) {
        int next = dfs(&s, masks, 0, bound, -1, 0);
        if (PyErr_Occurred()) { Py_DECREF(s.found); release_stage(&s); return NULL; }
        if (s.stopped || PyList_GET_SIZE(s.found) || next >= (1 << 20)) break;
        bound = next;
    }
    result = Py_BuildValue("(OL)", s.found, s.nodes);
    Py_DECREF(s.found);
    release_stage(&s);
    return result;
}

/* ---- the beam: a bounded search that always ends (the IDA*'s fallback) ---- */

#define BEAM_MAX_ORBITS 4
#define BEAM_KEYS (64 * (MAX_DEPTH + 1))   /* key = bound * 64 + unpaired (at most 48) */
#define BEAM_SPARE 6                       /* children held a depth: BEAM_SPARE x width, duplicates included */

typedef struct {
    uint32_t masks[BEAM_MAX_ORBITS + 1];   /* the masks, then the parity */
    int key, parent, order;
    unsigned char move;
} BeamNode;

typedef struct {
    int parent;
    unsigned char move;
} BeamStep;

static int beam_key(const Stage *s, const uint32_t *masks)
{
    int k, u = 0, h = heuristic(s, masks, (int)masks[BEAM_MAX_ORBITS]);
    for (k = 0; k < s->n_pairs; k++)
        u += __builtin_popcount(masks[s->pairs[k][0]] ^ masks[s->pairs[k][1]]);
    if (h > MAX_DEPTH) h = MAX_DEPTH;
    return h * 64 + (u < 63 ? u : 63);
}

static int by_masks(const void *a, const void *b)
{
    const BeamNode *x = a, *y = b;
    int c = memcmp(x->masks, y->masks, sizeof(x->masks));
    return c ? c : x->order - y->order;
}

static int by_key(const void *a, const void *b)
{
    const BeamNode *x = a, *y = b;
    return x->key != y->key ? x->key - y->key : x->order - y->order;
}

/* the children of `level` (n nodes): each made twice, first to count the keys, then
 * to keep those below the key that fills `cap` (and of that key up to `cap`) */
static int beam_children(const Stage *s, const BeamNode *level, int n, BeamNode *out, int cap)
{
    static int count[BEAM_KEYS];
    int pass, p, k, o, threshold = BEAM_KEYS, kept = 0, order = 0, sum = 0;
    memset(count, 0, sizeof(count));
    for (pass = 0; pass < 2; pass++) {
        for (p = 0; p < n; p++) {
            int row = level[p].move == 255 ? s->n_moves : level[p].move;
            for (k = 0; k < s->n_allowed[row]; k++) {
                int m = s->allowed[row][k], key;
                uint32_t masks[BEAM_MAX_ORBITS + 1] = {0, 0, 0, 0, 0};
                for (o = 0; o < s->n_orbits; o++)
                    masks[o] = move_mask(&s->look[m * s->n_orbits + o], level[p].masks[o]);
                masks[BEAM_MAX_ORBITS] = level[p].masks[BEAM_MAX_ORBITS] ^ s->flips[m];
                key = beam_key(s, masks);
                if (pass == 0) { count[key]++; continue; }
                order++;
                if (key > threshold || kept >= cap) continue;
                memcpy(out[kept].masks, masks, sizeof(masks));
                out[kept].key = key;
                out[kept].parent = p;
                out[kept].move = (unsigned char)m;
                out[kept].order = order;
                kept++;
            }
        }
        if (pass == 0)
            for (threshold = 0; threshold < BEAM_KEYS - 1; threshold++)
                if ((sum += count[threshold]) >= cap) break;
    }
    return kept;
}

static PyObject *stage_beam(PyObject *self, PyObject *args)
{
    PyObject *spec, *start, *result = NULL, *path;
    Stage s;
    int width, max_depth, depth, k, at, found = -1, size = 1;
    BeamNode *level = NULL, *children = NULL;
    BeamStep *steps = NULL;
    if (!PyArg_ParseTuple(args, "OOii", &spec, &start, &width, &max_depth)) return NULL;
    if (width < 1 || width > 100000 || max_depth < 1 || max_depth > MAX_DEPTH) {
        PyErr_SetString(PyExc_ValueError, "a beam needs a width of 1 to 100000 and a depth of 1 to 40");
        return NULL;
    }
    if (!parse_stage(&s, spec)) return NULL;
    if (s.n_orbits > BEAM_MAX_ORBITS || s.n_moves > 254) {
        PyErr_SetString(PyExc_ValueError, "a beam takes at most 4 orbits and 254 moves");
        goto done;
    }
    if (!PyTuple_Check(start) || PyTuple_GET_SIZE(start) != s.n_orbits) {
        PyErr_SetString(PyExc_ValueError, "the start needs one mask an orbit");
        goto done;
    }
    level = PyMem_Calloc(BEAM_SPARE * (size_t)width, sizeof(BeamNode));
    children = PyMem_Calloc(BEAM_SPARE * (size_t)width, sizeof(BeamNode));
    steps = PyMem_Calloc((size_t)width * (max_depth + 1), sizeof(BeamStep));
    if (!level || !children || !steps) { PyErr_NoMemory(); goto done; }
    for (k = 0; k < s.n_orbits; k++) {
        unsigned long v = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(start, k));
        if (PyErr_Occurred() || __builtin_popcountl(v) != PIECES || v >> SLOTS) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "a start mask is not 8 of 24 slots");
            goto done;
        }
        level[0].masks[k] = (uint32_t)v;
    }
    level[0].move = 255;
    if (heuristic(&s, level[0].masks, 0) == 0) found = 0;
    for (depth = 0; found < 0 && depth < max_depth && size; depth++) {
        int n = beam_children(&s, level, size, children, BEAM_SPARE * width), p, kept = 0;
        BeamNode *swap;
        /* one child a state (the first made), then the best `width` of them */
        qsort(children, n, sizeof(BeamNode), by_masks);
        for (p = 0; p < n; p++)
            if (kept == 0 || memcmp(children[kept - 1].masks, children[p].masks, sizeof(children[p].masks)))
                children[kept++] = children[p];
        qsort(children, kept, sizeof(BeamNode), by_key);
        size = kept < width ? kept : width;
        for (p = 0; p < size; p++) {
            steps[(size_t)(depth + 1) * width + p].parent = children[p].parent;
            steps[(size_t)(depth + 1) * width + p].move = children[p].move;
        }
        swap = level; level = children; children = swap;
        if (size && level[0].key < 64) found = depth + 1;
    }
    path = PyList_New(found < 0 ? 0 : found);
    if (!path) goto done;
    for (k = found, at = 0; k > 0; k--) {
        PyList_SET_ITEM(path, k - 1, PyLong_FromLong(steps[(size_t)k * width + at].move));
        at = steps[(size_t)k * width + at].parent;
    }
    result = Py_BuildValue("(Oi)", path, found >= 0);
    Py_DECREF(path);
done:
    PyMem_Free(level);
    PyMem_Free(children);
    PyMem_Free(steps);
    release_stage(&s);
    return result;
}

static PyObject *stage_rank(PyObject *self, PyObject *args)
{
    unsigned long mask;
    if (!PyArg_ParseTuple(args, "k", &mask)) return NULL;
    if (__builtin_popcountl(mask) != PIECES || mask >> SLOTS) {
        PyErr_SetString(PyExc_ValueError, "a mask of 8 of 24 slots");
        return NULL;
    }
    return PyLong_FromUnsignedLong(rank_mask((uint32_t)mask));
}

/* ---- sub-masks: 4 of an axis's 8 slots ---- */

#define SUB_SLOTS 8
#define SUB_RANKS 70            /* C(8, 4) */
#define SUB_MAX_TABLE_ORBITS 4  /* 70^4 = 24,010,000 entries at most a table */

static int sub_rank[256];       /* -1 where the mask has not 4 bits set */
static unsigned char sub_unrank[SUB_RANKS];
static uint32_t pow70[SUB_MAX_TABLE_ORBITS + 1];

static void init_sub(void)
{
    int v, r = 0, k;
    for (v = 0; v < 256; v++) {
        if (__builtin_popcount(v) == 4) { sub_unrank[r] = (unsigned char)v; sub_rank[v] = r++; }
        else sub_rank[v] = -1;
    }
    pow70[0] = 1;
    for (k = 1; k <= SUB_MAX_TABLE_ORBITS; k++) pow70[k] = pow70[k - 1] * SUB_RANKS;
}

/* map[(m * n_orbits + o) * 70 + r]: the rank that rank r becomes under move m in orbit o */
static unsigned char *sub_maps(const unsigned char *perms, int n_moves, int n_orbits)
{
    unsigned char *map = PyMem_Malloc((size_t)n_moves * n_orbits * SUB_RANKS);
    int mo, r, i;
    if (!map) { PyErr_NoMemory(); return NULL; }
    for (mo = 0; mo < n_moves * n_orbits; mo++) {
        const unsigned char *dest = perms + mo * SUB_SLOTS;
        for (r = 0; r < SUB_RANKS; r++) {
            int v = sub_unrank[r], out = 0;
            for (i = 0; i < SUB_SLOTS; i++)
                if (v & (1 << i)) out |= 1 << dest[i];
            map[mo * SUB_RANKS + r] = (unsigned char)sub_rank[out];
        }
    }
    return map;
}

static int check_perms(const unsigned char *perms, Py_ssize_t count)
{
    Py_ssize_t i, j;
    for (i = 0; i < count; i += SUB_SLOTS) {
        int seen = 0;
        for (j = 0; j < SUB_SLOTS; j++) {
            if (perms[i + j] >= SUB_SLOTS || (seen & (1 << perms[i + j]))) {
                PyErr_SetString(PyExc_ValueError, "a sub-mask move is not a permutation of 8 slots");
                return 0;
            }
            seen |= 1 << perms[i + j];
        }
    }
    return 1;
}

/* the ranks of a tuple of sub-masks, into out[0..n); 0 and a ValueError if one is no 4-of-8 mask */
static int sub_ranks_of(PyObject *tuple, int n, int *out)
{
    int k;
    if (!PyTuple_Check(tuple) || PyTuple_GET_SIZE(tuple) != n) {
        PyErr_SetString(PyExc_ValueError, "a sub-mask state needs one mask an orbit");
        return 0;
    }
    for (k = 0; k < n; k++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(tuple, k));
        if (PyErr_Occurred() || v < 0 || v > 255 || sub_rank[v] < 0) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "a sub-mask is not 4 of 8 slots");
            return 0;
        }
        out[k] = sub_rank[v];
    }
    return 1;
}

static PyObject *stage_sub_bfs(PyObject *self, PyObject *args)
{
    Py_buffer perms;
    int n_moves, n_orbits, depth, k, m, o;
    PyObject *goals, *out = NULL;
    unsigned char *map = NULL, *dist;
    uint32_t size, idx, count;
    if (!PyArg_ParseTuple(args, "y*iiO", &perms, &n_moves, &n_orbits, &goals)) return NULL;
    if (n_moves < 1 || n_moves > MAX_MOVES || n_orbits < 1 || n_orbits > SUB_MAX_TABLE_ORBITS
        || perms.len != (Py_ssize_t)n_moves * n_orbits * SUB_SLOTS || !PyTuple_Check(goals)
        || PyTuple_GET_SIZE(goals) < 1) {
        PyErr_SetString(PyExc_ValueError, "sub_bfs needs n_moves x n_orbits (1..4) x 8 slot maps and goals");
        goto done;
    }
    if (!check_perms(perms.buf, perms.len)) goto done;
    map = sub_maps(perms.buf, n_moves, n_orbits);
    if (!map) goto done;
    size = pow70[n_orbits];
    out = PyByteArray_FromStringAndSize(NULL, size);
    if (!out) goto done;
    dist = (unsigned char *)PyByteArray_AS_STRING(out);
    memset(dist, UNREACHED, size);
    for (k = 0; k < PyTuple_GET_SIZE(goals); k++) {
        int ranks[SUB_MAX_TABLE_ORBITS];
        if (!sub_ranks_of(PyTuple_GET_ITEM(goals, k), n_orbits, ranks)) { Py_CLEAR(out); goto done; }
        for (idx = 0, o = 0; o < n_orbits; o++) idx += ranks[o] * pow70[o];
        dist[idx] = 0;
    }
    Py_BEGIN_ALLOW_THREADS
    for (depth = 0, count = 1; count && depth < UNREACHED - 1; depth++) {
        count = 0;
        for (idx = 0; idx < size; idx++) {
            int digit[SUB_MAX_TABLE_ORBITS];
            uint32_t rest = idx;
            if (dist[idx] != depth) continue;
            for (o = 0; o < n_orbits; o++) { digit[o] = rest % SUB_RANKS; rest /= SUB_RANKS; }
            for (m = 0; m < n_moves; m++) {
                uint32_t to = 0;
                const unsigned char *mm = map + (size_t)m * n_orbits * SUB_RANKS;
                for (o = 0; o < n_orbits; o++) to += mm[o * SUB_RANKS + digit[o]] * pow70[o];
                if (dist[to] == UNREACHED) { dist[to] = (unsigned char)(depth + 1); count++; }
            }
        }
    }
    Py_END_ALLOW_THREADS
done:
    PyMem_Free(map);
    PyBuffer_Release(&perms);
    return out;
}

/* ---- sub_ida: IDA* over the sub-masks of up to MAX_ORBITS orbits ---- */

#define SUB_MAX_TABLES 24

typedef struct {
    int n_moves, n_orbits, n_tables, weight;
    unsigned char *map;
    int t_orbits[SUB_MAX_TABLES][SUB_MAX_TABLE_ORBITS], t_size[SUB_MAX_TABLES];
    Py_buffer t_buf[SUB_MAX_TABLES];
    int allowed[MAX_MOVES + 1][MAX_MOVES];
    int n_allowed[MAX_MOVES + 1];
    long long nodes, max_nodes;
    int path[MAX_DEPTH], stopped, max_solutions;
    PyObject *found;
} SubStage;

static int sub_heuristic(const SubStage *s, const int *ranks)
{
    int k, o, h = 0;
    for (k = 0; k < s->n_tables; k++) {
        uint32_t idx = 0;
        int d;
        for (o = 0; o < s->t_size[k]; o++) idx += ranks[s->t_orbits[k][o]] * pow70[o];
        d = ((const unsigned char *)s->t_buf[k].buf)[idx];
        if (d > h) h = d;
    }
    return (h * s->weight + 99) / 100;
}

static int sub_dfs(SubStage *s, const int *ranks, int g, int bound, int last)
{
    int next[MAX_ORBITS], h = sub_heuristic(s, ranks), smallest = 1 << 20, row, k, o;
    if (g + h > bound) return g + h;
    if (h == 0) {
        PyObject *path = PyList_New(g);
        if (!path) { s->stopped = 1; return -1; }
        for (k = 0; k < g; k++) PyList_SET_ITEM(path, k, PyLong_FromLong(s->path[k]));
        if (PyList_Append(s->found, path) < 0) s->stopped = 1;
        Py_DECREF(path);
        if (PyList_GET_SIZE(s->found) >= s->max_solutions) s->stopped = 1;
        return s->stopped ? -1 : 1 << 20;
    }
    if (g >= MAX_DEPTH) return 1 << 20;
    row = last < 0 ? s->n_moves : last;
    for (k = 0; k < s->n_allowed[row]; k++) {
        int m = s->allowed[row][k], t;
        const unsigned char *mm = s->map + (size_t)m * s->n_orbits * SUB_RANKS;
        if (s->max_nodes >= 0 && s->nodes >= s->max_nodes) { s->stopped = 1; return -1; }
        s->nodes++;
        for (o = 0; o < s->n_orbits; o++) next[o] = mm[o * SUB_RANKS + ranks[o]];
        s->path[g] = m;
        t = sub_dfs(s, next, g + 1, bound, m);
        if (t < 0) return -1;
        if (t < smallest) smallest = t;
    }
    return smallest;
}

/* sub_ida(perms, n_moves, n_orbits, tables, successors, start, max_cost, max_nodes, weight,
 * max_solutions) -> (paths, nodes): the paths of the first bound that has any (up to
 * max_solutions) to a state where every table reads 0, bounded by the largest
 * exact distance read from tables ((orbit indices, bytes of 70^k distances), ...) times
 * weight / 100 (100: a shortest path; above: a guess that finds longer paths sooner) */
static PyObject *stage_sub_ida(PyObject *self, PyObject *args)
{
    Py_buffer perms;
    PyObject *tables, *succ, *start, *result = NULL;
    SubStage s;
    int ranks[MAX_ORBITS], max_cost, bound, k, o;
    long long max_nodes;
    memset(&s, 0, sizeof(s));
    if (!PyArg_ParseTuple(args, "y*iiOOOiLii", &perms, &s.n_moves, &s.n_orbits, &tables, &succ, &start,
                          &max_cost, &max_nodes, &s.weight, &s.max_solutions))
        return NULL;
    if (s.max_solutions < 1) s.max_solutions = 1;
    if (s.weight < 100 || s.n_moves < 1 || s.n_moves > MAX_MOVES || s.n_orbits < 1 || s.n_orbits > MAX_ORBITS
        || perms.len != (Py_ssize_t)s.n_moves * s.n_orbits * SUB_SLOTS || !PyTuple_Check(tables)
        || PyTuple_GET_SIZE(tables) > SUB_MAX_TABLES || !PyTuple_Check(succ)
        || PyTuple_GET_SIZE(succ) != s.n_moves + 1) {
        PyErr_SetString(PyExc_ValueError, "sub_ida needs n_moves x n_orbits x 8 slot maps, tables, successors "
                                         "and a weight of at least 100");
        PyBuffer_Release(&perms);
        return NULL;
    }
    if (!check_perms(perms.buf, perms.len)) { PyBuffer_Release(&perms); return NULL; }
    s.map = sub_maps(perms.buf, s.n_moves, s.n_orbits);
    PyBuffer_Release(&perms);
    if (!s.map) return NULL;
    if (!parse_successors(succ, s.n_moves, s.allowed, s.n_allowed)) goto done;
    if (!sub_ranks_of(start, s.n_orbits, ranks)) goto done;
    for (k = 0; k < PyTuple_GET_SIZE(tables); k++) {
        PyObject *which;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(tables, k), "Oy*", &which, &s.t_buf[k])) goto done;
        s.n_tables++;
        if (!PyTuple_Check(which) || PyTuple_GET_SIZE(which) < 1
            || PyTuple_GET_SIZE(which) > SUB_MAX_TABLE_ORBITS) {
            PyErr_SetString(PyExc_ValueError, "a sub-mask table names 1 to 4 orbits");
            goto done;
        }
        s.t_size[k] = (int)PyTuple_GET_SIZE(which);
        for (o = 0; o < s.t_size[k]; o++) {
            long v = PyLong_AsLong(PyTuple_GET_ITEM(which, o));
            if (v < 0 || v >= s.n_orbits) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a sub-mask table names no orbit");
                goto done;
            }
            s.t_orbits[k][o] = (int)v;
        }
        if (s.t_buf[k].len < (Py_ssize_t)pow70[s.t_size[k]]) {
            PyErr_SetString(PyExc_ValueError, "a sub-mask table is shorter than 70^k entries");
            goto done;
        }
    }
    s.max_nodes = max_nodes;
    s.found = PyList_New(0);
    if (!s.found) goto done;
    bound = sub_heuristic(&s, ranks);
    while (bound <= max_cost && bound <= MAX_DEPTH) {
        int next = sub_dfs(&s, ranks, 0, bound, -1);
        if (PyErr_Occurred()) { Py_CLEAR(s.found); goto done; }
        if (s.stopped || PyList_GET_SIZE(s.found) || next >= (1 << 20)) break;
        bound = next;
    }
    result = Py_BuildValue("(OL)", s.found, s.nodes);
    Py_DECREF(s.found);
done:
    for (k = 0; k < s.n_tables; k++) PyBuffer_Release(&s.t_buf[k]);
    PyMem_Free(s.map);
    return result;
}

/* ---- the wing-pairing beam's ranking (pair_rank) ---- */

#define RANK_MAX_KEEP 4096

typedef struct {
    double score;
    long cost;
    int step, parent;
} Child;

/* tuple order of (score, cost, step, parent): 1 when a comes first */
static int child_before(const Child *a, const Child *b)
{
    if (a->score != b->score) return a->score < b->score;
    if (a->cost != b->cost) return a->cost < b->cost;
    if (a->step != b->step) return a->step < b->step;
    return a->parent < b->parent;
}

static PyObject *stage_pair_rank(PyObject *self, PyObject *args)
{
    PyObject *flags, *costs, *out = NULL;
    Py_buffer froms, lengths;
    double weight;
    int keep, n_parents, n_steps, width, kept = 0, p, k, j;
    Py_ssize_t n_flags = -1;
    const unsigned char **rows = NULL;
    long *parent_cost = NULL;
    Child *best = NULL;
    const uint32_t *index;
    if (!PyArg_ParseTuple(args, "Oy*y*Odi", &flags, &froms, &lengths, &costs, &weight, &keep)) return NULL;
    n_steps = lengths.len > INT_MAX / 2 ? 0 : (int)lengths.len;
    if (!PyTuple_Check(flags) || !PyTuple_Check(costs) || PyTuple_GET_SIZE(flags) != PyTuple_GET_SIZE(costs)
        || PyTuple_GET_SIZE(flags) < 1 || PyTuple_GET_SIZE(flags) > INT_MAX / 2 || n_steps < 1
        || froms.len % (Py_ssize_t)(sizeof(uint32_t) * n_steps) != 0 || keep < 1 || keep > RANK_MAX_KEEP) {
        PyErr_SetString(PyExc_ValueError, "pair_rank needs a flags and a cost a parent, 4-byte froms "
                        "for each step's length, and 1..4096 kept");
        goto done;
    }
    n_parents = (int)PyTuple_GET_SIZE(flags);
    width = (int)(froms.len / (Py_ssize_t)(sizeof(uint32_t) * n_steps));
    rows = PyMem_Malloc(sizeof(*rows) * n_parents);
    parent_cost = PyMem_Malloc(sizeof(long) * n_parents);
    best = PyMem_Malloc(sizeof(Child) * (keep + 1));
    if (!rows || !parent_cost || !best) { PyErr_NoMemory(); goto done; }
    for (p = 0; p < n_parents; p++) {
        PyObject *f = PyTuple_GET_ITEM(flags, p);
        if (!PyBytes_Check(f) || (n_flags >= 0 && PyBytes_GET_SIZE(f) != n_flags)) {
            PyErr_SetString(PyExc_ValueError, "pair_rank needs flags of one length (bytes) a parent");
            goto done;
        }
        n_flags = PyBytes_GET_SIZE(f);
        rows[p] = (const unsigned char *)PyBytes_AS_STRING(f);
        parent_cost[p] = PyLong_AsLong(PyTuple_GET_ITEM(costs, p));
        if (parent_cost[p] == -1 && PyErr_Occurred()) goto done;
        if (parent_cost[p] < 0 || parent_cost[p] > INT_MAX) {
            PyErr_SetString(PyExc_ValueError, "pair_rank needs costs of 0..INT_MAX");
            goto done;
        }
    }
    index = (const uint32_t *)froms.buf;
    for (j = 0; j < n_steps * width; j++) {
        if (index[j] >= (uint32_t)n_flags) {
            PyErr_SetString(PyExc_ValueError, "pair_rank: a step reads a flag past the flags");
            goto done;
        }
    }
    Py_BEGIN_ALLOW_THREADS
    for (p = 0; p < n_parents; p++) {
        const unsigned char *row = rows[p];
        for (k = 0; k < n_steps; k++) {
            const uint32_t *at = index + (size_t)k * width;
            long sum = 0;
            Child c;
            int i;
            for (j = 0; j < width; j++) sum += row[at[j]];
            c.cost = parent_cost[p] + ((const unsigned char *)lengths.buf)[k];
            c.score = (double)c.cost + weight * (double)sum;
            c.step = k;
            c.parent = p;
            if (kept == keep && !child_before(&c, &best[kept - 1])) continue;
            /* insert in order; the last falls off when full */
            i = kept < keep ? kept++ : kept - 1;
            while (i > 0 && child_before(&c, &best[i - 1])) { best[i] = best[i - 1]; i--; }
            best[i] = c;
        }
    }
    Py_END_ALLOW_THREADS
    out = PyList_New(kept);
    if (!out) goto done;
    for (j = 0; j < kept; j++) {
        PyObject *t = Py_BuildValue("(dlii)", best[j].score, best[j].cost, best[j].step, best[j].parent);
        if (!t) { Py_CLEAR(out); goto done; }
        PyList_SET_ITEM(out, j, t);
    }
done:
    PyMem_Free(rows);
    PyMem_Free(parent_cost);
    PyMem_Free(best);
    PyBuffer_Release(&froms);
    PyBuffer_Release(&lengths);
    return out;
}

static PyMethodDef stage_methods[] = {
    {"bfs", stage_bfs, METH_VARARGS, "bfs(dest, n_moves, goal) -> distances by rank"},
    {"ida", stage_ida, METH_VARARGS, "ida(spec, start, max_cost, max_solutions, max_nodes)"},
    {"rank", stage_rank, METH_VARARGS, "rank(mask) -> combinatorial rank"},
    {"beam", stage_beam, METH_VARARGS, "beam(spec, start, width, max_depth) -> (path, found)"},
    {"sub_bfs", stage_sub_bfs, METH_VARARGS, "sub_bfs(perms, n_moves, n_orbits, goals) -> distances by index"},
    {"sub_ida", stage_sub_ida, METH_VARARGS,
     "sub_ida(perms, n_moves, n_orbits, tables, successors, start, max_cost, max_nodes, weight, max_solutions)"
     " -> (paths, nodes)"},
    {"pair_rank", stage_pair_rank, METH_VARARGS,
     "pair_rank(flags, froms, lengths, costs, weight, keep) -> [(score, cost, step, parent)]"},
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef stage_module = {
    PyModuleDef_HEAD_INIT, "_stage", "Compiled centre-staging search (see maskstage.py).", -1,
    stage_methods
};

PyMODINIT_FUNC PyInit__stage(void)
{
    init_binom();
    init_sub();
    return PyModule_Create(&stage_module);
}
