/* cubebot.solver._finish3: the two-phase 3x3x3 search of cubebot.solver.twophase in C.
 *
 * search(spec, cubies, starts, budget, max_nodes, max_phase1, max_phase2, max_length)
 *   -> ([(start index, (moves...))], nodes)
 * follows twophase._Search node for node: the same solutions in the same order and
 * the same node count. spec = (move buffer, offset, ((buffer, offset) x 5)): the
 * 3x3-moves words (MOVE_LAYOUT) and the five 4-bit distance tables, read in place
 * (mapped files); cubies = 18 x (cp[8], ep[12]) of the moves; starts = tuples
 * (offset, twist, flip, slice, cp[8], ep[12]). A table value out of range raises
 * cubebot.solver.errors.TableError, a bad argument ValueError: never a crash.
 * Plain C API: builds on CPython 3.5 to 3.13.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdarg.h>
#include <string.h>

#define N_MOVES 18
#define N_PHASE2 10
#define N_CORNERS 8
#define N_EDGES 12
#define N_UD_EDGES 8
#define N_SLICE_EDGES 4
#define N_TWIST 2187
#define N_FLIP 2048
#define N_SLICE 495
#define N_CPERM 40320
#define N_UDEDGE 40320
#define N_SLICEPERM 24
#define SOLVED_SLICE (N_SLICE - 1)
#define START_WIDTH (4 + N_CORNERS + N_EDGES)
#define MAX_PATH 64
#define NONE N_MOVES
#define N_DIST 5
#define G1_REENTRY 5

static const int PHASE2_MOVES[N_PHASE2] = {0, 1, 2, 4, 7, 9, 10, 11, 13, 16};

/* word offsets of the parts of 3x3-moves (twophase.MOVE_LAYOUT) */
#define TWIST_AT 0L
#define FLIP_AT (TWIST_AT + (long)N_TWIST * N_MOVES)
#define SLICE_AT (FLIP_AT + (long)N_FLIP * N_MOVES)
#define CPERM_AT (SLICE_AT + (long)N_SLICE * N_MOVES)
#define UDEDGE_AT (CPERM_AT + (long)N_CPERM * N_PHASE2)
#define SLICEPERM_AT (UDEDGE_AT + (long)N_UDEDGE * N_PHASE2)
#define N_WORDS (SLICEPERM_AT + (long)N_SLICEPERM * N_PHASE2)

static const long DIST_COUNT[N_DIST] = {
    (long)N_TWIST * N_SLICE, (long)N_FLIP * N_SLICE, (long)N_TWIST * N_FLIP,
    (long)N_CPERM * N_SLICEPERM, (long)N_UDEDGE * N_SLICEPERM};

typedef struct {
    Py_buffer view;
    int held;
} Buf;

typedef struct {
    const unsigned char *words;
    const unsigned char *dist[N_DIST];
    int cp[N_MOVES][N_CORNERS], ep[N_MOVES][N_EDGES];
    int *starts;
    Py_ssize_t n_starts;
    long long budget, max_nodes, nodes;
    int max_phase2, best, have_best, fixed, stopped, failed;
    int path[MAX_PATH], depth;
    int tail[MAX_PATH], tail_len;
    PyObject *found;
} Search;

static void table_error(const char *fmt, ...)
{
    PyObject *mod, *cls;
    char text[256];
    va_list ap;
    va_start(ap, fmt);
    PyOS_vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    mod = PyImport_ImportModule("cubebot.solver.errors");
    if (mod == NULL)
        return;
    cls = PyObject_GetAttrString(mod, "TableError");
    Py_DECREF(mod);
    if (cls == NULL)
        return;
    PyErr_SetString(cls, text);
    Py_DECREF(cls);
}

static int get_buf(Buf *b, PyObject *obj, Py_ssize_t offset, Py_ssize_t need,
                   const unsigned char **at)
{
    if (PyObject_GetBuffer(obj, &b->view, PyBUF_SIMPLE) < 0)
        return -1;
    b->held = 1;
    if (offset < 0 || offset > b->view.len || b->view.len - offset < need) {
        table_error("a 3x3x3 table buffer of %zd bytes has no %zd bytes from %zd: run "
                     "`cubebot tables build`", b->view.len, need, offset);
        return -1;
    }
    *at = (const unsigned char *)b->view.buf + offset;
    return 0;
}

/* the moves' allowed order (search.successors): never the same face twice, and of
 * two faces of one axis only the lower face first */
static int allowed(int m, int last)
{
    int f = m / 3, lf;
    if (last == NONE)
        return 1;
    lf = last / 3;
    return f % 3 != lf % 3 || f > lf;
}

static int next_coord(Search *s, long base, int n, int size, int coord, int k, const char *name)
{
    long i = base + (long)coord * n + k;
    int value = s->words[2 * i] | (s->words[2 * i + 1] << 8);
    if (value >= size) {
        table_error("table 3x3-moves: %s %d after move %d is %d, out of range: run `cubebot "
                     "tables build`", name, coord, k, value);
        s->failed = 1;
        return -1;
    }
    return value;
}

static int nibble(const Search *s, int k, long rank)
{
    return (s->dist[k][rank >> 1] >> ((rank & 1) << 2)) & 15;
}

static int h1(const Search *s, int tw, int fl, int sl)
{
    int a = nibble(s, 0, (long)tw * N_SLICE + sl), b = nibble(s, 1, (long)fl * N_SLICE + sl);
    int c = nibble(s, 2, (long)tw * N_FLIP + fl);
    if (b > a)
        a = b;
    return c > a ? c : a;
}


static int h2(const Search *s, int c, int u, int p)
{
    int a = nibble(s, 3, (long)c * N_SLICEPERM + p), b = nibble(s, 4, (long)u * N_SLICEPERM + p);
    return a > b ? a : b;
}

/* 1 if the search must stop here (budget spent, or an error) */
static int count_node(Search *s)
{
    s->nodes++;
    if ((s->max_nodes >= 0 && s->nodes > s->max_nodes) ||
        (PyList_GET_SIZE(s->found) > 0 && s->budget >= 0 && s->nodes > s->budget))
        s->stopped = 1;
    return s->stopped;
}

static int perm_rank(const int *perm, int n)
{
    int i, j, rank = 0;
    for (i = 0; i < n - 1; i++) {
        int smaller = 0;
        for (j = i + 1; j < n; j++)
            if (perm[j] < perm[i])
                smaller++;
        rank = rank * (n - i) + smaller;
    }
    return rank;
}

static int dfs2(Search *s, int c, int u, int p, int left, int last)
{
    int k;
    if (count_node(s))
        return 0;
    if (left == 0)
        return c == 0 && u == 0 && p == 0;
    for (k = 0; k < N_PHASE2; k++) {
        int m = PHASE2_MOVES[k], c2, u2, p2;
        if (!allowed(m, last))
            continue;
        if ((c2 = next_coord(s, CPERM_AT, N_PHASE2, N_CPERM, c, k, "cperm")) < 0 ||
            (u2 = next_coord(s, UDEDGE_AT, N_PHASE2, N_UDEDGE, u, k, "udedge")) < 0 ||
            (p2 = next_coord(s, SLICEPERM_AT, N_PHASE2, N_SLICEPERM, p, k, "sliceperm")) < 0) {
            s->stopped = 1;
            return 0;
        }
        if (h2(s, c2, u2, p2) >= left)
            continue;
        s->tail[s->tail_len++] = m;
        if (dfs2(s, c2, u2, p2, left - 1, m))
            return 1;
        s->tail_len--;
        if (s->stopped)
            return 0;
    }
    return 0;
}

static int record(Search *s, Py_ssize_t index)
{
    PyObject *moves = PyTuple_New(s->depth + s->tail_len), *item;
    int i;
    if (moves == NULL)
        return -1;
    for (i = 0; i < s->depth; i++)
        PyTuple_SET_ITEM(moves, i, PyLong_FromLong(s->path[i]));
    for (i = 0; i < s->tail_len; i++)
        PyTuple_SET_ITEM(moves, s->depth + i, PyLong_FromLong(s->tail[i]));
    for (i = 0; i < s->depth + s->tail_len; i++)
        if (PyTuple_GET_ITEM(moves, i) == NULL) {
            Py_DECREF(moves);
            return -1;
        }
    item = Py_BuildValue("(nN)", index, moves);
    if (item == NULL)
        return -1;
    if (PyList_Append(s->found, item) < 0) {
        Py_DECREF(item);
        return -1;
    }
    Py_DECREF(item);
    return 0;
}

static void phase2(Search *s, Py_ssize_t index)
{
    const int *start = s->starts + index * START_WIDTH;
    int cp[N_CORNERS], ep[N_EDGES], tmp[N_EDGES], sp[N_SLICE_EDGES];
    int cap = s->max_phase2, i, j, c, u, p, depth, last;
    if (s->have_best && s->best - 1 - start[0] - s->depth < cap)
        cap = s->best - 1 - start[0] - s->depth;
    if (cap < 0)
        return;
    memcpy(cp, start + 4, sizeof(cp));
    memcpy(ep, start + 4 + N_CORNERS, sizeof(ep));
    for (i = 0; i < s->depth; i++) {
        int m = s->path[i];
        for (j = 0; j < N_CORNERS; j++)
            tmp[j] = cp[s->cp[m][j]];
        memcpy(cp, tmp, sizeof(cp));
        for (j = 0; j < N_EDGES; j++)
            tmp[j] = ep[s->ep[m][j]];
        memcpy(ep, tmp, sizeof(ep));
    }
    for (j = 0; j < N_UD_EDGES; j++)
        if (ep[j] >= N_UD_EDGES) {
            table_error("a phase-1 solution of the 3x3x3 search left a slice edge out of the "
                        "E slice: run `cubebot tables build`");
            s->failed = s->stopped = 1;
            return;
        }
    for (j = 0; j < N_SLICE_EDGES; j++)
        sp[j] = ep[N_UD_EDGES + j] - N_UD_EDGES;
    c = perm_rank(cp, N_CORNERS);
    u = perm_rank(ep, N_UD_EDGES);
    p = perm_rank(sp, N_SLICE_EDGES);
    last = s->depth ? s->path[s->depth - 1] : NONE;
    for (depth = h2(s, c, u, p); depth <= cap; depth++) {
        s->tail_len = 0;
        if (dfs2(s, c, u, p, depth, last)) {
            if (record(s, index) < 0) {
                s->failed = s->stopped = 1;
                return;
            }
            if (!s->fixed) {
                s->best = start[0] + s->depth + depth;
                s->have_best = 1;
            }
            return;
        }
        if (s->stopped)
            return;
    }
}

static int is_phase2_move(int m)
{
    int k;
    for (k = 0; k < N_PHASE2; k++)
        if (PHASE2_MOVES[k] == m)
            return 1;
    return 0;
}

static void phase1(Search *s, Py_ssize_t index, int tw, int fl, int sl, int left, int last)
{
    int m;
    if (count_node(s))
        return;
    if (left == 0) {
        if (tw == 0 && fl == 0 && sl == SOLVED_SLICE &&
            (s->depth == 0 || !is_phase2_move(s->path[s->depth - 1])))
            phase2(s, index);
        return;
    }
    if (tw == 0 && fl == 0 && sl == SOLVED_SLICE && left < G1_REENTRY)
        return;             /* in G1 already: a path out and back in is not tried */
    for (m = 0; m < N_MOVES; m++) {
        int tw2, fl2, sl2;
        if (!allowed(m, last) || (left == 1 && is_phase2_move(m)))
            continue;       /* a phase-1 solution ends on a move G1 does not have */
        /* twist and slice first: their table prunes most moves before flip is read */
        if ((tw2 = next_coord(s, TWIST_AT, N_MOVES, N_TWIST, tw, m, "twist")) < 0 ||
            (sl2 = next_coord(s, SLICE_AT, N_MOVES, N_SLICE, sl, m, "slice")) < 0) {
            s->stopped = 1;
            return;
        }
        if (nibble(s, 0, (long)tw2 * N_SLICE + sl2) >= left)
            continue;
        if ((fl2 = next_coord(s, FLIP_AT, N_MOVES, N_FLIP, fl, m, "flip")) < 0) {
            s->stopped = 1;
            return;
        }
        if (nibble(s, 1, (long)fl2 * N_SLICE + sl2) >= left ||
            nibble(s, 2, (long)tw2 * N_FLIP + fl2) >= left)
            continue;
        s->path[s->depth++] = m;
        phase1(s, index, tw2, fl2, sl2, left - 1, m);
        s->depth--;
        if (s->stopped)
            return;
    }
}

/* ints from a sequence of exactly n items, each in [lo, hi); -1 with ValueError */
static int read_ints(PyObject *obj, int *out, Py_ssize_t n, long lo, long hi, const char *what)
{
    PyObject *seq = PySequence_Fast(obj, what);
    Py_ssize_t i;
    if (seq == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(seq) != n) {
        PyErr_Format(PyExc_ValueError, "%s: %zd values, expected %zd", what,
                     PySequence_Fast_GET_SIZE(seq), n);
        Py_DECREF(seq);
        return -1;
    }
    for (i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        if (v < lo || v >= hi) {
            PyErr_Format(PyExc_ValueError, "%s: value %ld out of range", what, v);
            Py_DECREF(seq);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(seq);
    return 0;
}

static int is_perm(const int *p, int n)
{
    int seen[N_EDGES] = {0}, i;
    for (i = 0; i < n; i++) {
        if (seen[p[i]])
            return 0;
        seen[p[i]] = 1;
    }
    return 1;
}

PyDoc_STRVAR(search_doc,
"search(spec, cubies, starts, budget, max_nodes, max_phase1, max_phase2, max_length)\n"
"-> (found, nodes):\n"
"twophase._Search in C (see cubebot.solver.twophase).");

static PyObject *finish3_search(PyObject *self, PyObject *args)
{
    PyObject *spec, *cubies, *starts, *words_obj, *dists, *out = NULL;
    Py_ssize_t words_at, i;
    long long budget, max_nodes;
    int max_phase1, max_phase2, max_length, depth, k;
    Buf bufs[1 + N_DIST];
    Search s;
    (void)self;
    memset(bufs, 0, sizeof(bufs));
    memset(&s, 0, sizeof(s));
    if (!PyArg_ParseTuple(args, "O!O!O!LLiii", &PyTuple_Type, &spec, &PyTuple_Type, &cubies,
                          &PyTuple_Type, &starts, &budget, &max_nodes, &max_phase1, &max_phase2,
                          &max_length))
        return NULL;
    if (!PyArg_ParseTuple(spec, "OnO!", &words_obj, &words_at, &PyTuple_Type, &dists))
        return NULL;
    if (PyTuple_GET_SIZE(dists) != N_DIST || PyTuple_GET_SIZE(cubies) != N_MOVES ||
        max_phase1 < 0 || max_phase2 < 0 || max_phase1 + max_phase2 >= MAX_PATH) {
        PyErr_SetString(PyExc_ValueError, "search: 5 distance tables, 18 moves and phase "
                        "lengths below 64 expected");
        return NULL;
    }
    if (get_buf(&bufs[0], words_obj, words_at, (Py_ssize_t)N_WORDS * 2, &s.words) < 0)
        goto done;
    for (k = 0; k < N_DIST; k++) {
        PyObject *buffer;
        Py_ssize_t at;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(dists, k), "On", &buffer, &at) ||
            get_buf(&bufs[1 + k], buffer, at, (Py_ssize_t)((DIST_COUNT[k] + 1) / 2), &s.dist[k]) < 0)
            goto done;
    }
    for (k = 0; k < N_MOVES; k++) {
        PyObject *cp_obj, *ep_obj;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(cubies, k), "OO", &cp_obj, &ep_obj) ||
            read_ints(cp_obj, s.cp[k], N_CORNERS, 0, N_CORNERS, "a move's corners") < 0 ||
            read_ints(ep_obj, s.ep[k], N_EDGES, 0, N_EDGES, "a move's edges") < 0)
            goto done;
        if (!is_perm(s.cp[k], N_CORNERS) || !is_perm(s.ep[k], N_EDGES)) {
            PyErr_SetString(PyExc_ValueError, "a move's pieces are not a permutation");
            goto done;
        }
    }
    s.n_starts = PyTuple_GET_SIZE(starts);
    s.starts = PyMem_Malloc(sizeof(int) * START_WIDTH * (s.n_starts ? s.n_starts : 1));
    if (s.starts == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (i = 0; i < s.n_starts; i++) {
        int *st = s.starts + i * START_WIDTH;
        if (read_ints(PyTuple_GET_ITEM(starts, i), st, START_WIDTH, 0, 1 << 20, "a start") < 0)
            goto done;
        if (st[1] >= N_TWIST || st[2] >= N_FLIP || st[3] >= N_SLICE ||
            !is_perm(st + 4, N_CORNERS) || !is_perm(st + 4 + N_CORNERS, N_EDGES)) {
            PyErr_SetString(PyExc_ValueError, "a 3x3x3 search start is out of range");
            goto done;
        }
        for (k = 4; k < 4 + N_CORNERS; k++)
            if (st[k] >= N_CORNERS) {
                PyErr_SetString(PyExc_ValueError, "a 3x3x3 search start is out of range");
                goto done;
            }
        for (k = 4 + N_CORNERS; k < START_WIDTH; k++)
            if (st[k] >= N_EDGES) {
                PyErr_SetString(PyExc_ValueError, "a 3x3x3 search start is out of range");
                goto done;
            }
    }
    s.found = PyList_New(0);
    if (s.found == NULL)
        goto done;
    s.budget = budget;
    s.max_nodes = max_nodes;
    s.max_phase2 = max_phase2;
    if (max_length >= 0) {      /* every solution within max_length, the bound kept */
        s.fixed = s.have_best = 1;
        s.best = max_length + 1;
    }
    for (depth = 0; depth <= max_phase1 && !s.stopped; depth++) {
        int live = 0;
        for (i = 0; i < s.n_starts && !s.stopped; i++) {
            const int *st = s.starts + i * START_WIDTH;
            if (s.have_best && st[0] + depth >= s.best)
                continue;
            live = 1;
            if (h1(&s, st[1], st[2], st[3]) > depth)
                continue;
            s.depth = 0;
            phase1(&s, i, st[1], st[2], st[3], depth, NONE);
        }
        if (!live)
            break;
    }
    if (!s.failed)
        out = Py_BuildValue("(OL)", s.found, s.nodes);
done:
    Py_XDECREF(s.found);
    PyMem_Free(s.starts);
    for (k = 0; k < 1 + N_DIST; k++)
        if (bufs[k].held)
            PyBuffer_Release(&bufs[k].view);
    return out;
}

static PyMethodDef finish3_methods[] = {
    {"search", finish3_search, METH_VARARGS, search_doc},
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef finish3_module = {
    PyModuleDef_HEAD_INIT, "_finish3",
    "The two-phase 3x3x3 search of cubebot.solver.twophase, compiled.", -1, finish3_methods,
    NULL, NULL, NULL, NULL
};

PyMODINIT_FUNC PyInit__finish3(void)
{
    return PyModule_Create(&finish3_module);
}
