/* The compiled loops of the 5x5x5's phase 2 (cubebot.solver._solve5): optional.
 *
 * solve5/pairsearch.py, solve5/midges.py and solve5/stages.py hold the same loops in
 * Python and call these when the module is built; both give the same answers at the
 * same budgets (tests/solver/test_solve5_core.py). Every table is handed in by the
 * caller; every index read from a table or an argument is checked, and a bad one
 * raises ValueError naming what is wrong.
 *
 *   axes_search(spec, start, bound, limit, count, max_cost, cheapest_only)
 *        pairsearch.AxesWalk._search: IDA* over the axes stage's masks and rotation,
 *        its 4-bit table read inline -> list of paths (move indices)
 *   rank_walk(rows, n_moves, cost, costs, allowed, start, slack, count, limit)
 *        pairsearch.RankWalk.paths' walk over the pairs stage's ranks -> list of paths
 *   pack_ways(paths, inverses, outer, costs)
 *        pairsearch.PairWays' strings: the midges.paths_checks of every path (srcs,
 *        wants), its written turns and its move codes
 *   best_cores(d, setups, maps, by_target, moved, cost, setup_cost, keep)
 *        midges.MidgeStage._candidates' cores, the `keep` best by (score, order)
 *   axes_follow(paths, mover, turn, costs, start, d, maps, outer)
 *        for each axes solution: the pairs stage's start after it
 *        (pairsearch.pairs_start_after), the dests after it and its written turns
 *   best_pairs(ways, dests, bases, times, count)
 *        stages.centre_stages' scoring: the `count` best (axes, pairs) solutions
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define HALVES 24               /* midge half slots */
#define MIDGES 12
#define MASK_BITS 12            /* T-pairs */
#define N_MASKS (1 << MASK_BITS)
#define HALF_BITS 6
#define HALF_VALUES (1 << HALF_BITS)
#define N_RL 70                 /* C(8, 4) */
#define N_ROT 24
#define MAX_MOVES 64
#define MAX_DEPTH 64
#define UNBOUNDED 1000000

/* ------------------------------------------------------------ helpers */

static int get_buffer(PyObject *obj, Py_buffer *view, const char *what)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_SIMPLE) < 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s is not a bytes-like object", what);
        return -1;
    }
    return 0;
}

/* the successor rows: allowed[k] for k = 0..n-1 and allowed[n] (the start row, index -1) */
typedef struct {
    int n;
    int count[MAX_MOVES + 1];
    unsigned char items[MAX_MOVES + 1][MAX_MOVES];
} Allowed;

static int read_allowed(PyObject *obj, int n, Allowed *a)
{
    Py_ssize_t k, j;
    PyObject *seq = PySequence_Fast(obj, "the successor rows are not a sequence");
    if (!seq) return -1;
    if (n <= 0 || n > MAX_MOVES || PySequence_Fast_GET_SIZE(seq) != n + 1) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "the successor rows do not match the moves");
        return -1;
    }
    a->n = n;
    for (k = 0; k <= n; k++) {
        PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, k), "a successor row is not a sequence");
        if (!row) { Py_DECREF(seq); return -1; }
        if (PySequence_Fast_GET_SIZE(row) > n) {
            Py_DECREF(row); Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "a successor row is longer than the moves");
            return -1;
        }
        a->count[k] = (int)PySequence_Fast_GET_SIZE(row);
        for (j = 0; j < a->count[k]; j++) {
            long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(row, j));
            if (v < 0 || v >= n) {
                Py_DECREF(row); Py_DECREF(seq);
                if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_OverflowError) ||
                        PyErr_ExceptionMatches(PyExc_TypeError)) {
                    PyErr_Clear();
                    PyErr_SetString(PyExc_ValueError, "a successor is not a move index");
                }
                return -1;
            }
            a->items[k][j] = (unsigned char)v;
        }
        Py_DECREF(row);
    }
    Py_DECREF(seq);
    return 0;
}

static PyObject *path_list(const unsigned char *path, int depth)
{
    int j;
    PyObject *list = PyList_New(depth);
    if (!list) return NULL;
    for (j = 0; j < depth; j++) {
        PyObject *v = PyLong_FromLong(path[j]);
        if (!v) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, j, v);
    }
    return list;
}

/* ------------------------------------------------------------ the axes stage */

typedef struct {
    const uint16_t *mover;      /* n_moves x N_MASKS: the 12-bit pair mask after move i */
    const unsigned char *pack;  /* HALF_VALUES x HALF_VALUES */
    const unsigned char *width; /* HALF_VALUES */
    const int32_t *ud_rank;     /* N_MASKS, -1 off C(12, 4) */
    const int32_t *rl_rank;     /* 1 << 8, -1 off C(8, 4) */
    const unsigned char *turn;  /* N_ROT x n_moves */
    const unsigned char *costs; /* n_moves */
    const unsigned char *table; /* the 4-bit entries */
    Py_ssize_t entries;
    Allowed allowed;
    long long nodes, limit;
    Py_ssize_t count, done;
    int stopped;
    PyObject *found;
    unsigned char path[MAX_DEPTH];
} Axes;

static int axes_cost(Axes *s, unsigned ud, unsigned rl, unsigned rot, int *h)
{
    unsigned low = HALF_VALUES - 1;
    unsigned packed = s->pack[(ud & low) << HALF_BITS | (rl & low)] |
        (unsigned)s->pack[(ud >> HALF_BITS) << HALF_BITS | (rl >> HALF_BITS)] << s->width[ud & low];
    int32_t u, v;
    long long r;
    if (ud >= N_MASKS || rl >= N_MASKS || rot >= N_ROT || packed >= 256) goto bad;
    u = s->ud_rank[ud];
    v = s->rl_rank[packed];
    if (u < 0 || v < 0 || v >= N_RL) goto bad;
    r = ((long long)u * N_RL + v) * N_ROT + rot;
    if (r >= s->entries) goto bad;
    *h = (s->table[r >> 1] >> ((r & 1) << 2)) & 15;
    return 0;
bad:
    PyErr_SetString(PyExc_ValueError, "an axes-stage state is off its table (5x5-middle-axes)");
    return -1;
}

/* the Python dfs: -1 error, -2 budget spent, else the next bound */
static int axes_dfs(Axes *s, unsigned ud, unsigned rl, unsigned rot, int g, int bound, int last, int depth)
{
    int h, j, smallest = UNBOUNDED;
    const Allowed *a = &s->allowed;
    int row = last < 0 ? a->n : last;
    if (axes_cost(s, ud, rl, rot, &h) < 0) return -1;
    if (g + h > bound) return g + h;
    if (h == 0) {
        if (g == bound) {
            PyObject *p = path_list(s->path, depth);
            if (!p || PyList_Append(s->found, p) < 0) { Py_XDECREF(p); return -1; }
            Py_DECREF(p);
        }
        return UNBOUNDED;
    }
    if (depth >= MAX_DEPTH) {
        PyErr_SetString(PyExc_ValueError, "the axes search is deeper than its path");
        return -1;
    }
    for (j = 0; j < a->count[row]; j++) {
        int i = a->items[row][j], f;
        const uint16_t *t = s->mover + (size_t)i * N_MASKS;
        if (s->nodes > s->limit) return -2;
        s->nodes++;
        s->path[depth] = (unsigned char)i;
        f = axes_dfs(s, t[ud], t[rl], s->turn[rot * a->n + i], g + s->costs[i], bound, i, depth + 1);
        if (f == -1 || f == -2) return f;
        if (PyList_GET_SIZE(s->found) && s->done + PyList_GET_SIZE(s->found) >= s->count) return f;
        if (f < smallest) smallest = f;
    }
    return smallest;
}

static PyObject *py_axes_search(PyObject *self, PyObject *args)
{
    PyObject *spec, *allowed, *done = NULL, *result = NULL;
    PyObject *mover_o, *pack_o, *width_o, *ud_o, *rl_o, *turn_o, *costs_o, *table_o;
    Py_ssize_t offset;
    Py_buffer views[8];
    int n_views = 0, k, n_moves, bound, max_cost, cheapest_only;
    unsigned ud, rl, rot;
    long long limit;
    Py_ssize_t count;
    Axes s;
    (void)self;
    if (!PyArg_ParseTuple(args, "O(III)iLnii", &spec, &ud, &rl, &rot, &bound, &limit, &count,
                          &max_cost, &cheapest_only))
        return NULL;
    if (!PyArg_ParseTuple(spec, "OOOOOOOOnO", &mover_o, &pack_o, &width_o, &ud_o, &rl_o, &turn_o,
                          &costs_o, &table_o, &offset, &allowed)) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "an axes-stage spec is not the 10 items AxesWalk makes");
        return NULL;
    }
    memset(&s, 0, sizeof(s));
    {
        PyObject *objs[8];
        objs[0] = mover_o; objs[1] = pack_o; objs[2] = width_o; objs[3] = ud_o;
        objs[4] = rl_o; objs[5] = turn_o; objs[6] = costs_o; objs[7] = table_o;
        for (k = 0; k < 8; k++) {
            if (get_buffer(objs[k], &views[k], "an axes-stage table") < 0) goto out;
            n_views++;
        }
    }
    n_moves = (int)views[6].len;
    if (n_moves <= 0 || n_moves > MAX_MOVES ||
            views[0].len != (Py_ssize_t)n_moves * N_MASKS * 2 ||
            views[1].len != HALF_VALUES * HALF_VALUES || views[2].len != HALF_VALUES ||
            views[3].len != N_MASKS * 4 || views[4].len != 256 * 4 ||
            views[5].len != (Py_ssize_t)N_ROT * n_moves || offset < 0 || offset > views[7].len) {
        PyErr_SetString(PyExc_ValueError, "an axes-stage table has the wrong size");
        goto out;
    }
    s.mover = (const uint16_t *)views[0].buf;
    s.pack = (const unsigned char *)views[1].buf;
    s.width = (const unsigned char *)views[2].buf;
    s.ud_rank = (const int32_t *)views[3].buf;
    s.rl_rank = (const int32_t *)views[4].buf;
    s.turn = (const unsigned char *)views[5].buf;
    s.costs = (const unsigned char *)views[6].buf;
    s.table = (const unsigned char *)views[7].buf + offset;
    s.entries = 2 * (views[7].len - offset);
    for (k = 0; k < n_moves * N_MASKS; k++) {
        if (s.mover[k] >= N_MASKS) {
            PyErr_SetString(PyExc_ValueError, "an axes-stage mover gives a mask past 12 bits");
            goto out;
        }
    }
    for (k = 0; k < N_ROT * n_moves; k++) {
        if (s.turn[k] >= N_ROT) {
            PyErr_SetString(PyExc_ValueError, "an axes-stage rotation table gives a rotation past 23");
            goto out;
        }
    }
    for (k = 0; k < HALF_VALUES; k++) {
        if (s.width[k] > HALF_BITS) {
            PyErr_SetString(PyExc_ValueError, "an axes-stage pack width is past 6 bits");
            goto out;
        }
    }
    if (read_allowed(allowed, n_moves, &s.allowed) < 0) goto out;
    s.limit = limit;
    s.count = count;
    s.found = PyList_New(0);
    done = PyList_New(0);
    if (!s.found || !done) goto out;
    while (bound <= max_cost) {
        Py_ssize_t take, j;
        int next = axes_dfs(&s, ud, rl, rot, 0, bound, -1, 0);
        if (next == -1) goto out;
        take = count - PyList_GET_SIZE(done);
        for (j = 0; j < PyList_GET_SIZE(s.found) && j < take; j++)
            if (PyList_Append(done, PyList_GET_ITEM(s.found, j)) < 0) goto out;
        s.done = PyList_GET_SIZE(done);
        if (PyList_GET_SIZE(done) >= count || (cheapest_only && PyList_GET_SIZE(s.found))) break;
        if (PyList_SetSlice(s.found, 0, PyList_GET_SIZE(s.found), NULL) < 0) goto out;
        if (next == -2 || next >= UNBOUNDED) break;
        bound = next;
    }
    result = done;
    done = NULL;
out:
    Py_XDECREF(done);
    Py_XDECREF(s.found);
    for (k = 0; k < n_views; k++) PyBuffer_Release(&views[k]);
    return result;
}

/* ------------------------------------------------------------ the pairs stage */

typedef struct {
    const uint16_t *rows;       /* n_ranks x n_moves */
    const unsigned char *cost;  /* n_ranks */
    const unsigned char *costs; /* n_moves */
    Py_ssize_t n_ranks;
    Allowed allowed;
    long long nodes, limit;
    Py_ssize_t count;
    PyObject *found;
    unsigned char path[MAX_DEPTH];
} Walk;

/* 0 on, 1 enough (budget or count), -1 error */
static int walk(Walk *w, unsigned r, int g, int last, int top, int depth)
{
    const Allowed *a = &w->allowed;
    int row = last < 0 ? a->n : last, j;
    const uint16_t *next = w->rows + (size_t)r * a->n;
    for (j = 0; j < a->count[row]; j++) {
        int k = a->items[row][j];
        unsigned nxt = next[k];
        int spent = g + w->costs[k];
        if (spent + w->cost[nxt] > top) continue;
        w->nodes++;
        if (w->nodes > w->limit || PyList_GET_SIZE(w->found) >= w->count) return 1;
        if (depth >= MAX_DEPTH) {
            PyErr_SetString(PyExc_ValueError, "the pairs walk is deeper than its path");
            return -1;
        }
        w->path[depth] = (unsigned char)k;
        if (w->cost[nxt] == 0) {
            if (spent == top) {
                PyObject *p = path_list(w->path, depth + 1);
                if (!p || PyList_Append(w->found, p) < 0) { Py_XDECREF(p); return -1; }
                Py_DECREF(p);
            }
        } else {
            int e = walk(w, nxt, spent, k, top, depth + 1);
            if (e) return e;
        }
    }
    return 0;
}

static PyObject *py_rank_walk(PyObject *self, PyObject *args)
{
    PyObject *rows_o, *cost_o, *costs_o, *allowed, *result = NULL;
    Py_buffer views[3];
    int n_views = 0, n_moves, k, slack, top;
    Py_ssize_t start, count, r;
    long long limit;
    Walk w;
    (void)self;
    if (!PyArg_ParseTuple(args, "OiOOOninL", &rows_o, &n_moves, &cost_o, &costs_o, &allowed, &start,
                          &slack, &count, &limit))
        return NULL;
    memset(&w, 0, sizeof(w));
    if (get_buffer(rows_o, &views[0], "the pairs-stage rows") < 0) goto out;
    n_views++;
    if (get_buffer(cost_o, &views[1], "the pairs-stage costs") < 0) goto out;
    n_views++;
    if (get_buffer(costs_o, &views[2], "the pairs-stage move costs") < 0) goto out;
    n_views++;
    if (n_moves <= 0 || n_moves > MAX_MOVES || views[2].len != n_moves ||
            views[0].len != views[1].len * n_moves * 2 || slack < 0 || slack > 255) {
        PyErr_SetString(PyExc_ValueError, "the pairs-stage tables do not match its moves");
        goto out;
    }
    w.rows = (const uint16_t *)views[0].buf;
    w.cost = (const unsigned char *)views[1].buf;
    w.costs = (const unsigned char *)views[2].buf;
    w.n_ranks = views[1].len;
    if (start < 0 || start >= w.n_ranks) {
        PyErr_SetString(PyExc_ValueError, "the pairs-stage start is not a rank");
        goto out;
    }
    for (r = 0; r < w.n_ranks * n_moves; r++) {
        if (w.rows[r] >= w.n_ranks) {
            PyErr_SetString(PyExc_ValueError, "a pairs-stage row names no rank");
            goto out;
        }
    }
    for (k = 0; k < n_moves; k++) {
        if (w.costs[k] == 0) {
            PyErr_SetString(PyExc_ValueError, "a pairs-stage move costs nothing");
            goto out;
        }
    }
    if (read_allowed(allowed, n_moves, &w.allowed) < 0) goto out;
    w.limit = limit;
    w.count = count;
    w.found = PyList_New(0);
    if (!w.found) goto out;
    for (top = w.cost[start]; top <= w.cost[start] + slack; top++) {
        int e = walk(&w, (unsigned)start, 0, -1, top, 0);
        if (e < 0) goto out;
        if (e) break;
    }
    if (PyList_GET_SIZE(w.found) > count &&
            PyList_SetSlice(w.found, count, PyList_GET_SIZE(w.found), NULL) < 0)
        goto out;
    result = w.found;
    w.found = NULL;
out:
    Py_XDECREF(w.found);
    for (k = 0; k < n_views; k++) PyBuffer_Release(&views[k]);
    return result;
}

/* ------------------------------------------------------------ the midges */

/* 24 bytes from a sequence of ints or a bytes-like object, each < 24 */
static int read_dests(PyObject *obj, unsigned char *d)
{
    Py_ssize_t k;
    PyObject *seq = PySequence_Fast(obj, "a dest is not a sequence");
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) < HALVES) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "a dest has fewer than 24 half slots");
        return -1;
    }
    for (k = 0; k < HALVES; k++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, k));
        if (v < 0 || v >= HALVES) {
            Py_DECREF(seq);
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "a dest names no half slot");
            return -1;
        }
        d[k] = (unsigned char)v;
    }
    Py_DECREF(seq);
    return 0;
}

/* maps: n x 24 bytes (the half at h goes to maps[i * 24 + h]), outer: n bytes (1 outer turn) */
static int check_maps(const Py_buffer *maps, const Py_buffer *outer)
{
    Py_ssize_t k;
    const unsigned char *m = (const unsigned char *)maps->buf;
    if (outer->len <= 0 || maps->len != outer->len * HALVES) {
        PyErr_SetString(PyExc_ValueError, "the half maps do not match their moves");
        return -1;
    }
    for (k = 0; k < maps->len; k++) {
        if (m[k] >= HALVES) {
            PyErr_SetString(PyExc_ValueError, "a half map names no half slot");
            return -1;
        }
    }
    return 0;
}

static void follow_one(unsigned char *d, const unsigned char *mp, int outer)
{
    unsigned char next[HALVES];
    int h;
    if (outer) {
        for (h = 0; h < HALVES; h++) next[mp[h]] = mp[d[h]];
    } else {
        for (h = 0; h < HALVES; h++) next[mp[h]] = d[h];
    }
    memcpy(d, next, HALVES);
}

static int path_index(PyObject *item, Py_ssize_t n)
{
    long v = PyLong_AsLong(item);
    if (v < 0 || v >= n) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "a path names no move");
        return -1;
    }
    return (int)v;
}

static PyObject *py_pack_ways(PyObject *self, PyObject *args)
{
    PyObject *paths_o, *inv_o, *outer_o, *costs_o, *paths = NULL, *srcs = NULL, *wants = NULL;
    PyObject *turns = NULL, *codes = NULL, *result = NULL;
    Py_buffer inv, outer, costs;
    Py_ssize_t n, p, k, width = 0;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOO", &paths_o, &inv_o, &outer_o, &costs_o)) return NULL;
    if (get_buffer(inv_o, &inv, "the inverse half maps") < 0) return NULL;
    if (get_buffer(outer_o, &outer, "the outer flags") < 0) { PyBuffer_Release(&inv); return NULL; }
    if (get_buffer(costs_o, &costs, "the move costs") < 0) {
        PyBuffer_Release(&inv);
        PyBuffer_Release(&outer);
        return NULL;
    }
    if (check_maps(&inv, &outer) < 0) goto out;
    if (costs.len != outer.len || outer.len > 255) {
        PyErr_SetString(PyExc_ValueError, "the move costs do not match the moves");
        goto out;
    }
    paths = PySequence_Fast(paths_o, "the paths are not a sequence");
    if (!paths) goto out;
    n = PySequence_Fast_GET_SIZE(paths);
    for (p = 0; p < n; p++) {
        PyObject *path = PySequence_Fast_GET_ITEM(paths, p);
        Py_ssize_t len = PySequence_Length(path);
        if (len < 0) goto out;
        if (len > width) width = len;
    }
    srcs = PyBytes_FromStringAndSize(NULL, n * MIDGES);
    wants = PyBytes_FromStringAndSize(NULL, n * MIDGES);
    turns = PyBytes_FromStringAndSize(NULL, n);
    codes = PyBytes_FromStringAndSize(NULL, n * width);
    if (!srcs || !wants || !turns || !codes) goto out;
    memset(PyBytes_AS_STRING(codes), 0, (size_t)(n * width));
    for (p = 0; p < n; p++) {
        unsigned char a[HALVES], b[HALVES];
        unsigned char *src = (unsigned char *)PyBytes_AS_STRING(srcs) + p * MIDGES;
        unsigned char *want = (unsigned char *)PyBytes_AS_STRING(wants) + p * MIDGES;
        unsigned char *code = (unsigned char *)PyBytes_AS_STRING(codes) + p * width;
        PyObject *path = PySequence_Fast(PySequence_Fast_GET_ITEM(paths, p), "a path is not a sequence");
        int h;
        long total = 0;
        if (!path) goto out;
        if (PySequence_Fast_GET_SIZE(path) > width) {
            Py_DECREF(path);
            PyErr_SetString(PyExc_ValueError, "a path grew while it was read");
            goto out;
        }
        for (h = 0; h < HALVES; h++) a[h] = b[h] = (unsigned char)h;
        /* the inverse maps composed last move first: a = a.translate(inverse) */
        for (k = PySequence_Fast_GET_SIZE(path) - 1; k >= 0; k--) {
            int i = path_index(PySequence_Fast_GET_ITEM(path, k), outer.len);
            const unsigned char *t;
            if (i < 0) { Py_DECREF(path); goto out; }
            t = (const unsigned char *)inv.buf + (size_t)i * HALVES;
            for (h = 0; h < HALVES; h++) a[h] = t[a[h]];
            if (((const unsigned char *)outer.buf)[i])
                for (h = 0; h < HALVES; h++) b[h] = t[b[h]];
            total += ((const unsigned char *)costs.buf)[i];
            code[k] = (unsigned char)(i + 1);
        }
        Py_DECREF(path);
        if (total > 255) {
            PyErr_SetString(PyExc_ValueError, "a path's turns are past one byte");
            goto out;
        }
        ((unsigned char *)PyBytes_AS_STRING(turns))[p] = (unsigned char)total;
        for (h = 0; h < MIDGES; h++) {
            src[h] = a[2 * h];
            want[h] = b[2 * h];
        }
    }
    result = Py_BuildValue("(OOOOn)", srcs, wants, turns, codes, width);
out:
    Py_XDECREF(paths);
    Py_XDECREF(srcs);
    Py_XDECREF(wants);
    Py_XDECREF(turns);
    Py_XDECREF(codes);
    PyBuffer_Release(&inv);
    PyBuffer_Release(&outer);
    PyBuffer_Release(&costs);
    return result;
}

/* a core candidate: ordered by (score, setup, net, core) as _candidates yields them */
typedef struct {
    double score;
    int setup, net, core;
} Candidate;

static int before(const Candidate *a, const Candidate *b)
{
    if (a->score != b->score) return a->score < b->score;
    if (a->setup != b->setup) return a->setup < b->setup;
    if (a->net != b->net) return a->net < b->net;
    return a->core < b->core;
}

static PyObject *py_best_cores(PyObject *self, PyObject *args)
{
    PyObject *d_o, *setups_o, *maps_o, *outer_o, *by_o, *starts_o, *moved_o, *cost_o, *result = NULL;
    PyObject *setups = NULL, *dests = NULL;
    Py_buffer views[6];
    int n_views = 0, k, setup_cost, keep, held = 0, n_cores;
    unsigned char d[HALVES];
    Py_ssize_t s, n_setups;
    Candidate *best = NULL;
    unsigned short *counts = NULL;
    const int32_t *by, *starts;
    const uint16_t *moved;
    const unsigned char *cost;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOOOOOOii", &d_o, &setups_o, &maps_o, &outer_o, &by_o, &starts_o,
                          &moved_o, &cost_o, &setup_cost, &keep))
        return NULL;
    if (read_dests(d_o, d) < 0) return NULL;
    {
        PyObject *objs[6];
        objs[0] = maps_o; objs[1] = outer_o; objs[2] = by_o; objs[3] = starts_o;
        objs[4] = moved_o; objs[5] = cost_o;
        for (k = 0; k < 6; k++) {
            if (get_buffer(objs[k], &views[k], "a midge-core table") < 0) goto out;
            n_views++;
        }
    }
    if (check_maps(&views[0], &views[1]) < 0) goto out;
    n_cores = (int)views[5].len;
    if (keep <= 0 || keep > 4096 || n_cores <= 0 || n_cores > 65535 ||
            views[4].len != (Py_ssize_t)n_cores * 2 ||
            views[3].len != (Py_ssize_t)(MIDGES * HALVES + 1) * 4 || views[2].len % 4) {
        PyErr_SetString(PyExc_ValueError, "the midge-core index does not match its cores");
        goto out;
    }
    by = (const int32_t *)views[2].buf;
    starts = (const int32_t *)views[3].buf;
    moved = (const uint16_t *)views[4].buf;
    cost = (const unsigned char *)views[5].buf;
    if (starts[0] != 0 || starts[MIDGES * HALVES] != views[2].len / 4) goto bad_index;
    for (k = 0; k < MIDGES * HALVES; k++)
        if (starts[k + 1] < starts[k]) goto bad_index;
    for (k = 0; k < views[2].len / 4; k++)
        if (by[k] < 0 || by[k] >= n_cores) goto bad_index;
    for (k = 0; k < n_cores; k++)
        if (moved[k] >= (1 << MIDGES)) goto bad_index;
    setups = PySequence_Fast(setups_o, "the core setups are not a sequence");
    if (!setups) goto out;
    n_setups = PySequence_Fast_GET_SIZE(setups);
    best = (Candidate *)PyMem_Malloc(sizeof(Candidate) * (size_t)(keep + 1));
    counts = (unsigned short *)PyMem_Calloc((size_t)n_cores, sizeof(unsigned short));
    if (!best || !counts) { PyErr_NoMemory(); goto out; }
    for (s = 0; s < n_setups; s++) {
        PyObject *setup = PySequence_Fast(PySequence_Fast_GET_ITEM(setups, s), "a setup is not a sequence");
        unsigned char e[HALVES];
        unsigned home = 0;
        Py_ssize_t j, len;
        int slot;
        if (!setup) goto out;
        len = PySequence_Fast_GET_SIZE(setup);
        memcpy(e, d, HALVES);
        for (j = 0; j < len; j++) {
            int i = path_index(PySequence_Fast_GET_ITEM(setup, j), views[1].len);
            if (i < 0) { Py_DECREF(setup); goto out; }
            follow_one(e, (const unsigned char *)views[0].buf + (size_t)i * HALVES,
                       ((const unsigned char *)views[1].buf)[i]);
        }
        Py_DECREF(setup);
        for (slot = 0; slot < MIDGES; slot++) {
            int t = e[2 * slot];
            if (t == 2 * slot) {
                home |= 1u << slot;
            } else {
                int32_t q;
                for (q = starts[slot * HALVES + t]; q < starts[slot * HALVES + t + 1]; q++)
                    counts[by[q]]++;
            }
        }
        for (slot = 0; slot < MIDGES; slot++) {
            int t = e[2 * slot];
            int32_t q;
            if (t == 2 * slot) continue;
            for (q = starts[slot * HALVES + t]; q < starts[slot * HALVES + t + 1]; q++) {
                int i = by[q], g = counts[i], net, pos;
                Candidate c;
                if (!g) continue;          /* met already through another slot */
                counts[i] = 0;
                net = g - __builtin_popcount(moved[i] & home);
                if (net <= 0) continue;
                c.score = (double)(cost[i] + setup_cost * (int)len) / (double)net;
                c.setup = (int)s;
                c.net = net;
                c.core = i;
                if (held == keep && !before(&c, &best[held - 1])) continue;
                pos = held < keep ? held++ : held - 1;
                while (pos > 0 && before(&c, &best[pos - 1])) {
                    best[pos] = best[pos - 1];
                    pos--;
                }
                best[pos] = c;
            }
        }
    }
    result = PyList_New(held);
    if (!result) goto out;
    for (k = 0; k < held; k++) {
        PyObject *item = Py_BuildValue("(diii)", best[k].score, best[k].net, best[k].setup, best[k].core);
        if (!item) { Py_CLEAR(result); goto out; }
        PyList_SET_ITEM(result, k, item);
    }
    goto out;
bad_index:
    PyErr_SetString(PyExc_ValueError, "the midge-core index names no core");
out:
    Py_XDECREF(setups);
    Py_XDECREF(dests);
    PyMem_Free(best);
    PyMem_Free(counts);
    for (k = 0; k < n_views; k++) PyBuffer_Release(&views[k]);
    return result;
}

/* ------------------------------------------------------------ the axes solutions scored */

static PyObject *py_axes_follow(PyObject *self, PyObject *args)
{
    PyObject *paths_o, *mover_o, *turn_o, *costs_o, *d_o, *maps_o, *outer_o, *paths = NULL;
    PyObject *starts = NULL, *dests = NULL, *bases = NULL, *result = NULL;
    Py_buffer views[5];
    int n_views = 0, k, n_moves;
    unsigned m0, m1, m2, rot;
    unsigned char d[HALVES];
    Py_ssize_t n, p;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOO(IIII)OOO", &paths_o, &mover_o, &turn_o, &costs_o, &m0, &m1, &m2,
                          &rot, &d_o, &maps_o, &outer_o))
        return NULL;
    if (read_dests(d_o, d) < 0) return NULL;
    {
        PyObject *objs[5];
        objs[0] = mover_o; objs[1] = turn_o; objs[2] = costs_o; objs[3] = maps_o; objs[4] = outer_o;
        for (k = 0; k < 5; k++) {
            if (get_buffer(objs[k], &views[k], "an axes-stage table") < 0) goto out;
            n_views++;
        }
    }
    n_moves = (int)views[2].len;
    if (n_moves <= 0 || n_moves > MAX_MOVES || views[0].len != (Py_ssize_t)n_moves * N_MASKS * 2 ||
            views[1].len != (Py_ssize_t)N_ROT * n_moves || views[4].len != n_moves ||
            m0 >= N_MASKS || m1 >= N_MASKS || m2 >= N_MASKS || rot >= N_ROT) {
        PyErr_SetString(PyExc_ValueError, "the axes-stage tables do not match its moves");
        goto out;
    }
    if (check_maps(&views[3], &views[4]) < 0) goto out;
    for (k = 0; k < n_moves * N_MASKS; k++) {
        if (((const uint16_t *)views[0].buf)[k] >= N_MASKS) {
            PyErr_SetString(PyExc_ValueError, "an axes-stage mover gives a mask past 12 bits");
            goto out;
        }
    }
    for (k = 0; k < N_ROT * n_moves; k++) {
        if (((const unsigned char *)views[1].buf)[k] >= N_ROT) {
            PyErr_SetString(PyExc_ValueError, "an axes-stage rotation table gives a rotation past 23");
            goto out;
        }
    }
    paths = PySequence_Fast(paths_o, "the paths are not a sequence");
    if (!paths) goto out;
    n = PySequence_Fast_GET_SIZE(paths);
    starts = PyList_New(n);
    dests = PyBytes_FromStringAndSize(NULL, n * HALVES);
    bases = PyList_New(n);
    if (!starts || !dests || !bases) goto out;
    for (p = 0; p < n; p++) {
        PyObject *path = PySequence_Fast(PySequence_Fast_GET_ITEM(paths, p), "a path is not a sequence");
        const uint16_t *mover = (const uint16_t *)views[0].buf;
        const unsigned char *turn = (const unsigned char *)views[1].buf;
        unsigned a = m0, b = m1, c = m2, r = rot;
        long cost = 0;
        unsigned char e[HALVES];
        PyObject *item;
        Py_ssize_t j;
        if (!path) goto out;
        memcpy(e, d, HALVES);
        for (j = 0; j < PySequence_Fast_GET_SIZE(path); j++) {
            int i = path_index(PySequence_Fast_GET_ITEM(path, j), n_moves);
            const uint16_t *t;
            if (i < 0) { Py_DECREF(path); goto out; }
            t = mover + (size_t)i * N_MASKS;
            a = t[a]; b = t[b]; c = t[c];
            r = turn[r * n_moves + i];
            cost += ((const unsigned char *)views[2].buf)[i];
            follow_one(e, (const unsigned char *)views[3].buf + (size_t)i * HALVES,
                       ((const unsigned char *)views[4].buf)[i]);
        }
        Py_DECREF(path);
        memcpy(PyBytes_AS_STRING(dests) + p * HALVES, e, HALVES);
        item = Py_BuildValue("(IIII)", a, b, c, r);
        if (!item) goto out;
        PyList_SET_ITEM(starts, p, item);
        item = PyLong_FromLong(cost);
        if (!item) goto out;
        PyList_SET_ITEM(bases, p, item);
    }
    result = Py_BuildValue("(OOO)", starts, dests, bases);
out:
    Py_XDECREF(paths);
    Py_XDECREF(starts);
    Py_XDECREF(dests);
    Py_XDECREF(bases);
    for (k = 0; k < n_views; k++) PyBuffer_Release(&views[k]);
    return result;
}

typedef struct {
    long half, order;
    Py_ssize_t path, k;
} Pick;

static PyObject *py_best_pairs(PyObject *self, PyObject *args)
{
    PyObject *ways_o, *dests_o, *bases_o, *times_o, *ways = NULL, *bases = NULL, *result = NULL;
    Py_buffer dests, times;
    Py_ssize_t count, held = 0, n, p, k;
    long order = 0;
    Pick *best = NULL;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOOn", &ways_o, &dests_o, &bases_o, &times_o, &count)) return NULL;
    if (get_buffer(dests_o, &dests, "the dests") < 0) return NULL;
    if (get_buffer(times_o, &times, "the midge weights") < 0) { PyBuffer_Release(&dests); return NULL; }
    ways = PySequence_Fast(ways_o, "the pairs solutions are not a sequence");
    bases = PySequence_Fast(bases_o, "the axes costs are not a sequence");
    if (!ways || !bases) goto out;
    n = PySequence_Fast_GET_SIZE(ways);
    if (count <= 0 || count > 1 << 16 || PySequence_Fast_GET_SIZE(bases) != n ||
            dests.len != n * HALVES || times.len <= MIDGES) {
        PyErr_SetString(PyExc_ValueError, "the axes solutions' scores do not match them");
        goto out;
    }
    for (k = 0; k < dests.len; k++) {
        if (((const unsigned char *)dests.buf)[k] >= HALVES) {
            PyErr_SetString(PyExc_ValueError, "a dest names no half slot");
            goto out;
        }
    }
    best = (Pick *)PyMem_Malloc(sizeof(Pick) * (size_t)count);
    if (!best) { PyErr_NoMemory(); goto out; }
    for (p = 0; p < n; p++) {
        PyObject *srcs_o, *wants_o, *turns_o;
        Py_buffer v[3];
        int nv = 0, bad = 0;
        long base = PyLong_AsLong(PySequence_Fast_GET_ITEM(bases, p));
        const unsigned char *d = (const unsigned char *)dests.buf + p * HALVES;
        Py_ssize_t m;
        if (base < 0 || base > 1000) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "an axes cost is not a small count");
            goto out;
        }
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(ways, p), "OOO", &srcs_o, &wants_o, &turns_o)) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "pairs solutions are not (srcs, wants, turns)");
            goto out;
        }
        if (get_buffer(srcs_o, &v[0], "the srcs") == 0) nv++;
        if (nv == 1 && get_buffer(wants_o, &v[1], "the wants") == 0) nv++;
        if (nv == 2 && get_buffer(turns_o, &v[2], "the turns") == 0) nv++;
        if (nv < 3) bad = 1;
        else if (v[0].len != v[2].len * MIDGES || v[1].len != v[2].len * MIDGES) {
            PyErr_SetString(PyExc_ValueError, "the pairs solutions' checks do not match their turns");
            bad = 1;
        }
        m = bad ? 0 : v[2].len;
        for (k = 0; k < m && !bad; k++) {
            const unsigned char *src = (const unsigned char *)v[0].buf + k * MIDGES;
            const unsigned char *want = (const unsigned char *)v[1].buf + k * MIDGES;
            int out = 0, s;
            long key;
            Pick c;
            Py_ssize_t pos;
            for (s = 0; s < MIDGES; s++) {
                if (src[s] >= HALVES) {
                    PyErr_SetString(PyExc_ValueError, "a src names no half slot");
                    bad = 1;
                    break;
                }
                out += d[src[s]] != want[s];
            }
            if (bad) break;
            key = 2 * ((const unsigned char *)v[2].buf)[k] + ((const unsigned char *)times.buf)[out];
            if (key > 255) {
                PyErr_SetString(PyExc_ValueError, "a pairs solution's score is past one byte");
                bad = 1;
                break;
            }
            c.half = 2 * base + key;
            c.order = order + (long)k + 1;
            c.path = p;
            c.k = k;
            if (held == count) {
                Pick *w = &best[held - 1];
                if (c.half > w->half || (c.half == w->half && c.order > w->order)) continue;
            }
            pos = held < count ? held++ : held - 1;
            while (pos > 0 && (c.half < best[pos - 1].half ||
                               (c.half == best[pos - 1].half && c.order < best[pos - 1].order))) {
                best[pos] = best[pos - 1];
                pos--;
            }
            best[pos] = c;
        }
        for (k = 0; k < nv; k++) PyBuffer_Release(&v[k]);
        if (bad) goto out;
        order += (long)m;
    }
    result = PyList_New(held);
    if (!result) goto out;
    for (k = 0; k < held; k++) {
        PyObject *item = Py_BuildValue("(llnn)", best[k].half, best[k].order, best[k].path, best[k].k);
        if (!item) { Py_CLEAR(result); goto out; }
        PyList_SET_ITEM(result, k, item);
    }
out:
    Py_XDECREF(ways);
    Py_XDECREF(bases);
    PyMem_Free(best);
    PyBuffer_Release(&dests);
    PyBuffer_Release(&times);
    return result;
}

static PyMethodDef solve5_methods[] = {
    {"axes_search", py_axes_search, METH_VARARGS,
     "axes_search(spec, start, bound, limit, count, max_cost, cheapest_only) -> paths"},
    {"rank_walk", py_rank_walk, METH_VARARGS,
     "rank_walk(rows, n_moves, cost, costs, allowed, start, slack, count, limit) -> paths"},
    {"pack_ways", py_pack_ways, METH_VARARGS,
     "pack_ways(paths, inverses, outer, costs) -> (srcs, wants, turns, codes, width)"},
    {"axes_follow", py_axes_follow, METH_VARARGS,
     "axes_follow(paths, mover, turn, costs, start, d, maps, outer) -> (starts, dests, costs)"},
    {"best_pairs", py_best_pairs, METH_VARARGS, "best_pairs(ways, dests, bases, times, count)"},
    {"best_cores", py_best_cores, METH_VARARGS,
     "best_cores(d, setups, maps, outer, by_target, starts, moved, cost, setup_cost, keep)"},
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef solve5_module = {
    PyModuleDef_HEAD_INIT, "_solve5", "Compiled loops of the 5x5x5's phase 2 (see solve5/).", -1,
    solve5_methods
};

PyMODINIT_FUNC PyInit__solve5(void)
{
    return PyModule_Create(&solve5_module);
}
