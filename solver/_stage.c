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

static int parse_stage(Stage *s, PyObject *spec)
{
    Py_buffer dest;
    PyObject *tables, *pairs, *succ;
    int m, o, k;
    memset(s, 0, sizeof(*s));
    if (!PyArg_ParseTuple(spec, "iiy*OOiiO", &s->n_moves, &s->n_orbits, &dest, &tables, &pairs,
                          &s->divisor, &s->weight, &succ))
        return 0;
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
    for (m = 0; m <= s->n_moves; m++) {
        PyObject *row = PyTuple_GET_ITEM(succ, m);
        if (!PyTuple_Check(row) || PyTuple_GET_SIZE(row) > s->n_moves) {
            PyErr_SetString(PyExc_ValueError, "a successor row is not a tuple of moves");
            release_stage(s);
            return 0;
        }
        s->n_allowed[m] = (int)PyTuple_GET_SIZE(row);
        for (k = 0; k < s->n_allowed[m]; k++) {
            long v = PyLong_AsLong(PyTuple_GET_ITEM(row, k));
            if (v < 0 || v >= s->n_moves) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a successor is no move");
                release_stage(s);
                return 0;
            }
            s->allowed[m][k] = (int)v;
        }
    }
    return 1;
}

static int heuristic(const Stage *s, const uint32_t *masks)
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
    return unpaired > h ? unpaired : h;
}

/* the smallest f above bound below this node; -1 once stopped */
static int dfs(Stage *s, const uint32_t *masks, int g, int bound, int last)
{
    uint32_t next[MAX_ORBITS];
    int h = heuristic(s, masks), smallest = 1 << 20, row, k, o;
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
        t = dfs(s, next, g + 1, bound, m);
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
    bound = heuristic(&s, masks);
    while (bound <= max_cost && bound <= MAX_DEPTH) {
        int next = dfs(&s, masks, 0, bound, -1);
        if (PyErr_Occurred()) { Py_DECREF(s.found); release_stage(&s); return NULL; }
        if (s.stopped || PyList_GET_SIZE(s.found) || next >= (1 << 20)) break;
        bound = next;
    }
    result = Py_BuildValue("(OL)", s.found, s.nodes);
    Py_DECREF(s.found);
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

static PyMethodDef stage_methods[] = {
    {"bfs", stage_bfs, METH_VARARGS, "bfs(dest, n_moves, goal) -> distances by rank"},
    {"ida", stage_ida, METH_VARARGS, "ida(spec, start, max_cost, max_solutions, max_nodes)"},
    {"rank", stage_rank, METH_VARARGS, "rank(mask) -> combinatorial rank"},
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef stage_module = {
    PyModuleDef_HEAD_INIT, "_stage", "Compiled centre-staging search (see maskstage.py).", -1,
    stage_methods
};

PyMODINIT_FUNC PyInit__stage(void)
{
    init_binom();
    return PyModule_Create(&stage_module);
}
