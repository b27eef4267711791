/* cubebot.solver._core: the solver's coordinate searches in C.
 *
 * The reference is the pure-Python path of cubebot.solver.search (coord_ida,
 * coord_bfs over a CoordModel); this file does the same work with the same
 * results, node for node. A model is a tuple (n_moves, rows, tables, allowed,
 * costs):
 *
 *   rows     per coordinate (buffer, byte offset, item size 1/2/4, size): the
 *            move table, entry c * n_moves + i = the coordinate after move i,
 *            unsigned little-endian
 *   tables   per distance table (buffer, byte offset, bits 4 or 8, terms):
 *            terms = ((coord, multiplier, map or None), ...); the table's rank
 *            is sum(multiplier * map[c]) (map: a native int32 buffer, -1 =
 *            no rank), its entry the distance (4 bits: low nibble first)
 *   allowed  per previous move, and last for the start: the moves allowed
 *   costs    the cost of each move
 *
 * The heuristic is the maximum of the tables; a goal is where it is 0. Every
 * value read from a buffer is checked against its range: a bad one raises
 * cubebot.solver.errors.TableError. Plain C API: builds on CPython 3.5 to 3.13.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COORDS 8
#define MAX_TABLES 8
#define MAX_TERMS 8
#define MAX_MOVES 64
#define MAX_DEPTH 64
#define UNBOUNDED INT_MAX
#define UNREACHED 255

typedef struct {
    Py_buffer view;
    int held;
    const unsigned char *base;     /* first entry */
    Py_ssize_t count;              /* entries in the buffer from base */
    int itemsize;
} Buf;

typedef struct {
    int coord;
    long long mult;
    int has_map;
    Buf map;
} Term;

typedef struct {
    Buf buf;
    int bits;
    int n_terms;
    Term terms[MAX_TERMS];
} Table;

typedef struct {
    int n_moves;
    int n_coords;
    Buf rows[MAX_COORDS];
    unsigned long sizes[MAX_COORDS];
    int n_tables;
    Table tables[MAX_TABLES];
    int n_allowed[MAX_MOVES + 1];
    unsigned char allowed[MAX_MOVES + 1][MAX_MOVES];
    int costs[MAX_MOVES];
} Model;

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

static int get_buf(Buf *b, PyObject *obj, Py_ssize_t offset, int itemsize)
{
    if (itemsize != 1 && itemsize != 2 && itemsize != 4) {
        PyErr_Format(PyExc_ValueError, "item size %d is not 1, 2 or 4", itemsize);
        return -1;
    }
    if (PyObject_GetBuffer(obj, &b->view, PyBUF_SIMPLE) < 0)
        return -1;
    b->held = 1;
    if (offset < 0 || offset > b->view.len) {
        table_error("a table buffer of %zd bytes has no offset %zd", b->view.len, offset);
        return -1;
    }
    b->base = (const unsigned char *)b->view.buf + offset;
    b->itemsize = itemsize;
    b->count = (b->view.len - offset) / itemsize;
    return 0;
}

static void release_buf(Buf *b)
{
    if (b->held) {
        PyBuffer_Release(&b->view);
        b->held = 0;
    }
}

static void release_model(Model *m)
{
    int k, t;
    for (k = 0; k < MAX_COORDS; k++)
        release_buf(&m->rows[k]);
    for (k = 0; k < MAX_TABLES; k++) {
        release_buf(&m->tables[k].buf);
        for (t = 0; t < MAX_TERMS; t++)
            release_buf(&m->tables[k].terms[t].map);
    }
}

static unsigned long read_unsigned(const Buf *b, Py_ssize_t i)
{
    const unsigned char *p = b->base + i * b->itemsize;
    switch (b->itemsize) {
    case 1:
        return p[0];
    case 2:
        return (unsigned long)p[0] | ((unsigned long)p[1] << 8);
    default:
        return (unsigned long)p[0] | ((unsigned long)p[1] << 8) |
               ((unsigned long)p[2] << 16) | ((unsigned long)p[3] << 24);
    }
}

static long read_map(const Buf *b, Py_ssize_t i)
{
    int32_t v;
    memcpy(&v, b->base + i * 4, 4);
    return (long)v;
}

static int parse_model(Model *m, PyObject *spec)
{
    PyObject *rows, *tables, *allowed, *costs;
    Py_ssize_t k, j;
    memset(m, 0, sizeof(*m));
    if (!PyArg_ParseTuple(spec, "iO!O!O!O!", &m->n_moves, &PyTuple_Type, &rows, &PyTuple_Type,
                          &tables, &PyTuple_Type, &allowed, &PyTuple_Type, &costs))
        return -1;
    if (m->n_moves < 1 || m->n_moves > MAX_MOVES || PyTuple_GET_SIZE(rows) < 1 ||
        PyTuple_GET_SIZE(rows) > MAX_COORDS || PyTuple_GET_SIZE(tables) < 1 ||
        PyTuple_GET_SIZE(tables) > MAX_TABLES || PyTuple_GET_SIZE(allowed) != m->n_moves + 1 ||
        PyTuple_GET_SIZE(costs) != m->n_moves) {
        PyErr_SetString(PyExc_ValueError, "a coordinate model out of the core's limits");
        return -1;
    }
    m->n_coords = (int)PyTuple_GET_SIZE(rows);
    for (k = 0; k < m->n_coords; k++) {
        PyObject *buffer;
        Py_ssize_t offset;
        int itemsize;
        unsigned long size;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(rows, k), "Onik", &buffer, &offset, &itemsize, &size))
            return -1;
        if (get_buf(&m->rows[k], buffer, offset, itemsize) < 0)
            return -1;
        if (size < 1 || (unsigned long long)m->rows[k].count < (unsigned long long)size * m->n_moves) {
            table_error("move table of coordinate %d has %zd entries, expected %lu x %d",
                        (int)k, m->rows[k].count, size, m->n_moves);
            return -1;
        }
        m->sizes[k] = size;
    }
    m->n_tables = (int)PyTuple_GET_SIZE(tables);
    for (k = 0; k < m->n_tables; k++) {
        Table *t = &m->tables[k];
        PyObject *buffer, *terms;
        Py_ssize_t offset;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(tables, k), "OniO!", &buffer, &offset, &t->bits,
                              &PyTuple_Type, &terms))
            return -1;
        if (t->bits != 4 && t->bits != 8) {
            PyErr_Format(PyExc_ValueError, "distance tables of %d bits are not searched", t->bits);
            return -1;
        }
        if (get_buf(&t->buf, buffer, offset, 1) < 0)
            return -1;
        if (t->bits == 4)
            t->buf.count *= 2;
        t->n_terms = (int)PyTuple_GET_SIZE(terms);
        if (t->n_terms < 1 || t->n_terms > MAX_TERMS) {
            PyErr_SetString(PyExc_ValueError, "a table rank of too many terms");
            return -1;
        }
        for (j = 0; j < t->n_terms; j++) {
            Term *term = &t->terms[j];
            PyObject *map;
            if (!PyArg_ParseTuple(PyTuple_GET_ITEM(terms, j), "iLO", &term->coord, &term->mult, &map))
                return -1;
            if (term->coord < 0 || term->coord >= m->n_coords || term->mult < 0) {
                PyErr_SetString(PyExc_ValueError, "a table term names no coordinate");
                return -1;
            }
            if (map != Py_None) {
                term->has_map = 1;
                if (get_buf(&term->map, map, 0, 4) < 0)
                    return -1;
                if ((unsigned long long)term->map.count < m->sizes[term->coord]) {
                    table_error("a rank map of %zd entries for a coordinate of %lu",
                                term->map.count, m->sizes[term->coord]);
                    return -1;
                }
            }
        }
    }
    for (k = 0; k <= m->n_moves; k++) {
        PyObject *row = PyTuple_GET_ITEM(allowed, k);
        if (!PyTuple_Check(row) || PyTuple_GET_SIZE(row) > m->n_moves) {
            PyErr_SetString(PyExc_ValueError, "allowed: a tuple of move tuples");
            return -1;
        }
        m->n_allowed[k] = (int)PyTuple_GET_SIZE(row);
        for (j = 0; j < m->n_allowed[k]; j++) {
            long i = PyLong_AsLong(PyTuple_GET_ITEM(row, j));
            if (i < 0 || i >= m->n_moves) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "allowed: a move index out of range");
                return -1;
            }
            m->allowed[k][j] = (unsigned char)i;
        }
    }
    for (k = 0; k < m->n_moves; k++) {
        long c = PyLong_AsLong(PyTuple_GET_ITEM(costs, k));
        if (c < 1 || c > 100) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "move costs are 1 to 100");
            return -1;
        }
        m->costs[k] = (int)c;
    }
    return 0;
}

/* next[k] = coordinate k after move i; -1 (TableError set) on a bad entry */
static int apply_move(const Model *m, const unsigned long *state, int i, unsigned long *next)
{
    int k;
    for (k = 0; k < m->n_coords; k++) {
        unsigned long v = read_unsigned(&m->rows[k], (Py_ssize_t)state[k] * m->n_moves + i);
        if (v >= m->sizes[k]) {
            table_error("move table of coordinate %d gives %lu, beyond its %lu values", k, v,
                        m->sizes[k]);
            return -1;
        }
        next[k] = v;
    }
    return 0;
}

static int heuristic(const Model *m, const unsigned long *state)
{
    int k, j, best = 0;
    for (k = 0; k < m->n_tables; k++) {
        const Table *t = &m->tables[k];
        long long rank = 0;
        int v;
        for (j = 0; j < t->n_terms; j++) {
            const Term *term = &t->terms[j];
            long long c = (long long)state[term->coord];
            if (term->has_map) {
                c = read_map(&term->map, (Py_ssize_t)c);
                if (c < 0) {
                    table_error("table %d has no rank for coordinate %d value %lu", k, term->coord,
                                state[term->coord]);
                    return -1;
                }
            }
            rank += c * term->mult;
        }
        if (rank >= t->buf.count) {
            table_error("table %d has %zd entries, rank %lld asked", k, t->buf.count, rank);
            return -1;
        }
        if (t->bits == 4)
            v = (t->buf.base[rank >> 1] >> ((rank & 1) << 2)) & 15;
        else
            v = t->buf.base[rank];
        if (v > best)
            best = v;
    }
    return best;
}

typedef struct {
    const Model *m;
    long long nodes, cap, more_nodes, first_at;
    long max_solutions, found;
    int stopped, failed;
    int path[MAX_DEPTH];
    int depth;
    PyObject *batch;               /* the solutions of this bound */
} Search;

static int dfs(Search *s, const unsigned long *state, int g, int bound, int last)
{
    const Model *m = s->m;
    unsigned long next[MAX_COORDS];
    int h = heuristic(m, state), f, smallest = UNBOUNDED, a;
    const int row = last < 0 ? m->n_moves : last;
    if (h < 0) {
        s->failed = 1;
        return 0;
    }
    f = g + h;
    if (f > bound)
        return f;
    if (h == 0) {
        if (g == bound) {
            PyObject *sol = PyList_New(s->depth);
            int k;
            if (sol == NULL) {
                s->failed = 1;
                return 0;
            }
            for (k = 0; k < s->depth; k++)
                PyList_SET_ITEM(sol, k, PyLong_FromLong(s->path[k]));
            if (PyList_Append(s->batch, sol) < 0)
                s->failed = 1;
            Py_DECREF(sol);
        }
        return UNBOUNDED;
    }
    if (s->depth >= MAX_DEPTH) {
        PyErr_SetString(PyExc_ValueError, "a search deeper than the core allows");
        s->failed = 1;
        return 0;
    }
    for (a = 0; a < m->n_allowed[row]; a++) {
        int i = m->allowed[row][a], t;
        Py_ssize_t have = PyList_GET_SIZE(s->batch);
        if (s->cap >= 0 && s->nodes > s->cap) {
            s->stopped = 1;
            return 0;
        }
        if (s->more_nodes >= 0 && have) {
            if (s->first_at < 0)
                s->first_at = s->nodes;
            else if (s->nodes - s->first_at > s->more_nodes) {
                s->stopped = 1;
                return 0;
            }
        }
        s->nodes++;
        if (apply_move(m, state, i, next) < 0) {
            s->failed = 1;
            return 0;
        }
        s->path[s->depth++] = i;
        t = dfs(s, next, g + m->costs[i], bound, i);
        s->depth--;
        if (s->failed || s->stopped)
            return 0;
        have = PyList_GET_SIZE(s->batch);
        if (have && s->max_solutions >= 0 && s->found + have >= s->max_solutions)
            return t;
        if (t < smallest)
            smallest = t;
    }
    return smallest;
}

static int read_state(const Model *m, PyObject *start, unsigned long *state)
{
    Py_ssize_t k;
    if (!PyTuple_Check(start) || PyTuple_GET_SIZE(start) != m->n_coords) {
        PyErr_SetString(PyExc_ValueError, "a state is a tuple of one value per coordinate");
        return -1;
    }
    for (k = 0; k < m->n_coords; k++) {
        unsigned long v = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(start, k));
        if (PyErr_Occurred())
            return -1;
        if (v >= m->sizes[k]) {
            table_error("coordinate %d is %lu, beyond its %lu values", (int)k, v, m->sizes[k]);
            return -1;
        }
        state[k] = v;
    }
    return 0;
}

PyDoc_STRVAR(ida_doc,
"ida(model, start, max_cost, min_cost, max_solutions, nodes, cap, cheapest_only, more_nodes)\n"
"-> (solutions, nodes): search.ida_star over a coordinate model; -1 for no limit.");

static PyObject *core_ida(PyObject *self, PyObject *args)
{
    PyObject *spec, *start, *result = NULL, *out = NULL;
    Model model;
    Search s;
    unsigned long state[MAX_COORDS];
    int max_cost, min_cost, cheapest_only, bound, h;
    long long nodes, cap, more_nodes;
    long max_solutions;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOiilLLiL", &spec, &start, &max_cost, &min_cost, &max_solutions,
                          &nodes, &cap, &cheapest_only, &more_nodes))
        return NULL;
    if (!PyTuple_Check(spec)) {
        PyErr_SetString(PyExc_TypeError, "model: a tuple");
        return NULL;
    }
    if (parse_model(&model, spec) < 0 || read_state(&model, start, state) < 0)
        goto done;
    memset(&s, 0, sizeof(s));
    s.m = &model;
    s.nodes = nodes;
    s.cap = cap;
    s.more_nodes = more_nodes;
    s.first_at = -1;
    s.max_solutions = max_solutions;
    result = PyList_New(0);
    if (result == NULL)
        goto done;
    h = heuristic(&model, state);
    if (h < 0)
        goto fail;
    bound = h > min_cost ? h : min_cost;
    while (bound <= max_cost) {
        int nxt;
        Py_ssize_t k, n;
        s.batch = PyList_New(0);
        if (s.batch == NULL)
            goto fail;
        s.stopped = 0;
        s.depth = 0;
        nxt = dfs(&s, state, 0, bound, -1);
        if (s.failed) {
            Py_DECREF(s.batch);
            goto fail;
        }
        n = PyList_GET_SIZE(s.batch);
        for (k = 0; k < n; k++) {
            if (PyList_Append(result, PyList_GET_ITEM(s.batch, k)) < 0) {
                Py_DECREF(s.batch);
                goto fail;
            }
            s.found++;
            if (s.max_solutions >= 0 && s.found >= s.max_solutions)
                break;
        }
        Py_DECREF(s.batch);
        if (s.max_solutions >= 0 && s.found >= s.max_solutions)
            break;
        if (cheapest_only && n)
            break;
        if (s.stopped || nxt == UNBOUNDED)
            break;
        bound = nxt;
    }
    out = Py_BuildValue("(OL)", result, s.nodes);
fail:
    Py_XDECREF(result);
done:
    release_model(&model);
    return out;
}

PyDoc_STRVAR(bfs_doc,
"bfs(model, goals, max_depth, progress) -> bytearray: tables.bfs over every state of a\n"
"coordinate model, ranked mixed-radix (first coordinate most significant); max_depth -1\n"
"for none; progress(depth, count) or None.");

static PyObject *core_bfs(PyObject *self, PyObject *args)
{
    PyObject *spec, *goals, *progress, *dist_obj = NULL, *seq = NULL;
    Model model;
    int max_depth, depth = 0, limit;
    unsigned long long n_states = 1, reached = 0, count = 0, r;
    unsigned char *dist;
    Py_ssize_t k;
    int c, i;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOiO", &spec, &goals, &max_depth, &progress))
        return NULL;
    if (!PyTuple_Check(spec)) {
        PyErr_SetString(PyExc_TypeError, "model: a tuple");
        return NULL;
    }
    if (parse_model(&model, spec) < 0)
        goto fail;
    for (c = 0; c < model.n_coords; c++) {
        n_states *= model.sizes[c];
        if (n_states > (unsigned long long)PY_SSIZE_T_MAX) {
            PyErr_SetString(PyExc_MemoryError, "a coordinate model too big to tabulate");
            goto fail;
        }
    }
    dist_obj = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)n_states);
    if (dist_obj == NULL)
        goto fail;
    dist = (unsigned char *)PyByteArray_AS_STRING(dist_obj);
    memset(dist, UNREACHED, (size_t)n_states);
    seq = PySequence_Fast(goals, "goals: a sequence of ranks");
    if (seq == NULL)
        goto fail;
    for (k = 0; k < PySequence_Fast_GET_SIZE(seq); k++) {
        unsigned long long g = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(seq, k));
        if (PyErr_Occurred())
            goto fail;
        if (g >= n_states) {
            PyErr_Format(PyExc_IndexError, "goal %llu beyond %llu states", g, n_states);
            goto fail;
        }
        if (dist[g] != 0) {
            dist[g] = 0;
            count++;
        }
    }
    reached = count;
    limit = UNREACHED - 1;
    if (max_depth >= 0 && max_depth < limit)
        limit = max_depth;
    if (progress != Py_None) {
        PyObject *got = PyObject_CallFunction(progress, "iK", 0, count);
        if (got == NULL)
            goto fail;
        Py_DECREF(got);
    }
    while (count && depth < limit && reached < n_states) {
        unsigned char here = (unsigned char)depth, nxt = (unsigned char)(depth + 1);
        int bad = 0;
        count = 0;
        Py_BEGIN_ALLOW_THREADS
        for (r = 0; r < n_states && !bad; r++) {
            unsigned long state[MAX_COORDS], next[MAX_COORDS];
            unsigned long long rest = r;
            if (dist[r] != here)
                continue;
            for (c = model.n_coords - 1; c >= 0; c--) {
                state[c] = (unsigned long)(rest % model.sizes[c]);
                rest /= model.sizes[c];
            }
            for (i = 0; i < model.n_moves && !bad; i++) {
                unsigned long long t = 0;
                for (c = 0; c < model.n_coords; c++) {
                    next[c] = read_unsigned(&model.rows[c], (Py_ssize_t)state[c] * model.n_moves + i);
                    if (next[c] >= model.sizes[c]) {
                        bad = c + 1;
                        break;
                    }
                    t = t * model.sizes[c] + next[c];
                }
                if (!bad && dist[t] == UNREACHED) {
                    dist[t] = nxt;
                    count++;
                }
            }
        }
        Py_END_ALLOW_THREADS
        if (bad) {
            table_error("move table of coordinate %d gives a value beyond its %lu values", bad - 1,
                        model.sizes[bad - 1]);
            goto fail;
        }
        depth++;
        reached += count;
        if (progress != Py_None) {
            PyObject *got = PyObject_CallFunction(progress, "iK", depth, count);
            if (got == NULL)
                goto fail;
            Py_DECREF(got);
        }
    }
    Py_XDECREF(seq);
    release_model(&model);
    return dist_obj;
fail:
    Py_XDECREF(seq);
    Py_XDECREF(dist_obj);
    release_model(&model);
    return NULL;
}

/* ---------------------------------------------------------------- descent
 * search.descend over a coordinate model whose bound is exact: from each state
 * only the moves to a state within the moves left are followed. */

typedef struct {
    const Model *m;
    long max_solutions;
    int failed;
    int path[MAX_DEPTH];
    int depth;
    PyObject *found;
} Walk;

static void walk(Walk *w, const unsigned long *state, int h, int left, int last)
{
    const Model *m = w->m;
    unsigned long next[MAX_COORDS];
    const int row = last < 0 ? m->n_moves : last;
    int a;
    if (h == 0) {
        if (left == 0) {
            PyObject *sol = PyList_New(w->depth);
            int k;
            if (sol == NULL) {
                w->failed = 1;
                return;
            }
            for (k = 0; k < w->depth; k++)
                PyList_SET_ITEM(sol, k, PyLong_FromLong(w->path[k]));
            if (PyList_Append(w->found, sol) < 0)
                w->failed = 1;
            Py_DECREF(sol);
        }
        return;
    }
    left -= 1;
    if (w->depth >= MAX_DEPTH) {
        PyErr_SetString(PyExc_ValueError, "a descent deeper than the core allows");
        w->failed = 1;
        return;
    }
    for (a = 0; a < m->n_allowed[row]; a++) {
        int i = m->allowed[row][a], d;
        if (apply_move(m, state, i, next) < 0) {
            w->failed = 1;
            return;
        }
        d = heuristic(m, next);
        if (d < 0) {
            w->failed = 1;
            return;
        }
        if (d <= left) {
            w->path[w->depth++] = i;
            walk(w, next, d, left, i);
            w->depth--;
            if (w->failed)
                return;
            if (PyList_GET_SIZE(w->found) >= w->max_solutions)
                return;
        }
    }
}

PyDoc_STRVAR(descend_doc,
"descend(model, start, max_solutions, length) -> solutions (lists of move indices):\n"
"search.descend over a coordinate model; length -1 for the shortest.");

static PyObject *core_descend(PyObject *self, PyObject *args)
{
    PyObject *spec, *start, *out = NULL;
    Model model;
    Walk w;
    unsigned long state[MAX_COORDS];
    long max_solutions;
    int length, h;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOli", &spec, &start, &max_solutions, &length))
        return NULL;
    if (!PyTuple_Check(spec)) {
        PyErr_SetString(PyExc_TypeError, "model: a tuple");
        return NULL;
    }
    if (parse_model(&model, spec) < 0 || read_state(&model, start, state) < 0)
        goto done;
    h = heuristic(&model, state);
    if (h < 0)
        goto done;
    memset(&w, 0, sizeof(w));
    w.m = &model;
    w.max_solutions = max_solutions;
    w.found = PyList_New(0);
    if (w.found == NULL)
        goto done;
    walk(&w, state, h, length < 0 ? h : length, -1);
    if (w.failed)
        Py_CLEAR(w.found);
    out = w.found;
done:
    release_model(&model);
    return out;
}

/* ---------------------------------------------------------------- rank beam
 * search.rank_beam: a beam over states of RB_WIDTH ranks, each turned by one
 * word table (rank * n_steps + step), scored by the written turns so far plus
 * weight x the sum of the ranks' units. The same steps as the Python reference:
 * the cheapest key per state (the first of equal keys), states of the last
 * `recent` steps dropped, the finished states (units 0) sorted by (spent,
 * state, parent, step), else the `width` smallest (key, state, spent, parent,
 * step) kept. */

#define RB_MAX_RANKS 8

typedef struct {
    uint16_t r[RB_MAX_RANKS];
} RState;

typedef struct {
    double key;
    RState state;
    long spent;
    long left;
    int parent, step;
} Cand;

typedef struct {                   /* open addressing: state -> index + 1 (0 = empty) */
    int *slot;
    size_t mask;
} HSet;

static int n_ranks_g;              /* ranks per state in the current beam (one call at a time: the GIL) */

static size_t hash_state(const RState *s)
{
    uint64_t h = 1469598103934665603ULL;
    int k;
    for (k = 0; k < n_ranks_g; k++) {
        h ^= s->r[k];
        h *= 1099511628211ULL;
    }
    return (size_t)(h ^ (h >> 29));
}

static int same_state(const RState *a, const RState *b)
{
    return memcmp(a->r, b->r, sizeof(uint16_t) * (size_t)n_ranks_g) == 0;
}

static int cmp_state(const RState *a, const RState *b)
{
    int k;
    for (k = 0; k < n_ranks_g; k++)
        if (a->r[k] != b->r[k])
            return a->r[k] < b->r[k] ? -1 : 1;
    return 0;
}

static int hset_init(HSet *h, size_t want)
{
    size_t size = 16;
    while (size < want * 2)
        size <<= 1;
    h->slot = (int *)calloc(size, sizeof(int));
    h->mask = size - 1;
    return h->slot == NULL ? -1 : 0;
}

/* the slot of a state in a set whose entries are states[index] */
static int *hset_find(HSet *h, const RState *s, const RState *states, size_t stride)
{
    size_t i = hash_state(s) & h->mask;
    for (;;) {
        int at = h->slot[i];
        if (at == 0 || same_state((const RState *)((const char *)states + (size_t)(at - 1) * stride), s))
            return &h->slot[i];
        i = (i + 1) & h->mask;
    }
}

static int cmp_done(const void *pa, const void *pb)
{
    const Cand *a = (const Cand *)pa, *b = (const Cand *)pb;
    int c;
    if (a->spent != b->spent)
        return a->spent < b->spent ? -1 : 1;
    c = cmp_state(&a->state, &b->state);
    if (c)
        return c;
    if (a->parent != b->parent)
        return a->parent < b->parent ? -1 : 1;
    return a->step < b->step ? -1 : (a->step > b->step);
}

static int cmp_ranked(const void *pa, const void *pb)
{
    const Cand *a = (const Cand *)pa, *b = (const Cand *)pb;
    int c;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    c = cmp_state(&a->state, &b->state);
    if (c)
        return c;
    if (a->spent != b->spent)
        return a->spent < b->spent ? -1 : 1;
    if (a->parent != b->parent)
        return a->parent < b->parent ? -1 : 1;
    return a->step < b->step ? -1 : (a->step > b->step);
}

typedef struct {                   /* one kept beam entry: its parent in the step before */
    int parent, step;
} Link;

static PyObject *path_of(Link **links, int depth, int index, int last_step)
{
    PyObject *path = PyList_New(depth + 1);
    int d;
    if (path == NULL)
        return NULL;
    PyList_SET_ITEM(path, depth, PyLong_FromLong(last_step));
    for (d = depth - 1; d >= 0; d--) {
        PyList_SET_ITEM(path, d, PyLong_FromLong(links[d][index].step));
        index = links[d][index].parent;
    }
    return path;
}

PyDoc_STRVAR(beam_doc,
"beam(words, offset, units, turns, start, weight, width, limit, max_steps, recent, slack)\n"
"-> a list of step-index paths, or None: search.rank_beam in C.");

#ifdef __GNUC__
#pragma GCC optimize ("fp-contract=off")
#endif

static PyObject *core_beam(PyObject *self, PyObject *args)
{
    PyObject *words_obj, *units_obj, *turns_obj, *start_obj, *out = NULL, *units_seq = NULL;
    Py_ssize_t offset;
    double weight;
    int width, limit, max_steps, n_recent, slack;
    Buf words;
    int n_steps, n_units, n_ranks, step, k, b, j;
    long *unit = NULL, *turns = NULL;
    RState *beam_states = NULL, *next_states = NULL;
    long *beam_spent = NULL;
    Cand *cands = NULL;
    HSet found = {NULL, 0};
    HSet *recent = NULL;
    RState **recent_states = NULL;
    int *recent_count = NULL;
    Link **links = NULL;
    int beam_n = 1, n_links = 0;
    size_t cap;
    (void)self;
    memset(&words, 0, sizeof(words));
    if (!PyArg_ParseTuple(args, "OnOO!O!diiiii", &words_obj, &offset, &units_obj, &PyTuple_Type,
                          &turns_obj, &PyTuple_Type, &start_obj, &weight, &width, &limit,
                          &max_steps, &n_recent, &slack))
        return NULL;
    n_steps = (int)PyTuple_GET_SIZE(turns_obj);
    n_ranks = (int)PyTuple_GET_SIZE(start_obj);
    if (n_steps < 1 || n_ranks < 1 || n_ranks > RB_MAX_RANKS || width < 1 || limit < 0 ||
        max_steps < 0 || n_recent < 1 || max_steps > 1000) {
        PyErr_SetString(PyExc_ValueError, "a rank beam out of the core's limits");
        return NULL;
    }
    n_ranks_g = n_ranks;
    units_seq = PySequence_Fast(units_obj, "units: a sequence of ints");
    if (units_seq == NULL)
        return NULL;
    n_units = (int)PySequence_Fast_GET_SIZE(units_seq);
    if (n_units < 1 || n_units > 65536) {
        PyErr_SetString(PyExc_ValueError, "a rank beam's ranks are 16-bit");
        goto done;
    }
    if (get_buf(&words, words_obj, offset, 2) < 0)
        goto done;
    if (words.count < (Py_ssize_t)n_units * n_steps) {
        table_error("the beam's move table has %zd entries, expected %d x %d", words.count,
                    n_units, n_steps);
        goto done;
    }
    unit = (long *)malloc(sizeof(long) * (size_t)n_units);
    turns = (long *)malloc(sizeof(long) * (size_t)n_steps);
    cap = (size_t)width * (size_t)n_steps + 1;
    beam_states = (RState *)calloc((size_t)width, sizeof(RState));
    next_states = (RState *)calloc((size_t)width, sizeof(RState));
    beam_spent = (long *)calloc((size_t)width, sizeof(long));
    cands = (Cand *)calloc(cap, sizeof(Cand));
    recent = (HSet *)calloc((size_t)n_recent, sizeof(HSet));
    recent_states = (RState **)calloc((size_t)n_recent, sizeof(RState *));
    recent_count = (int *)calloc((size_t)n_recent, sizeof(int));
    links = (Link **)calloc((size_t)max_steps + 1, sizeof(Link *));
    if (!unit || !turns || !beam_states || !next_states || !beam_spent || !cands || !recent ||
        !recent_states || !recent_count || !links) {
        PyErr_NoMemory();
        goto done;
    }
    for (k = 0; k < n_units; k++) {
        unit[k] = PyLong_AsLong(PySequence_Fast_GET_ITEM(units_seq, k));
        if (unit[k] == -1 && PyErr_Occurred())
            goto done;
    }
    for (k = 0; k < n_steps; k++) {
        turns[k] = PyLong_AsLong(PyTuple_GET_ITEM(turns_obj, k));
        if (turns[k] == -1 && PyErr_Occurred())
            goto done;
    }
    memset(&beam_states[0], 0, sizeof(RState));
    for (k = 0; k < n_ranks; k++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(start_obj, k));
        if (v == -1 && PyErr_Occurred())
            goto done;
        if (v < 0 || v >= n_units) {
            table_error("a beam state's rank %ld is beyond its %d ranks", v, n_units);
            goto done;
        }
        beam_states[0].r[k] = (uint16_t)v;
    }
    beam_spent[0] = 0;
    /* recent: the start's set, then each step's found states (a ring of n_recent) */
    if (hset_init(&recent[0], 1) < 0 || !(recent_states[0] = (RState *)malloc(sizeof(RState)))) {
        PyErr_NoMemory();
        goto done;
    }
    recent_states[0][0] = beam_states[0];
    *hset_find(&recent[0], &beam_states[0], recent_states[0], sizeof(RState)) = 1;
    recent_count[0] = 1;
    for (k = 1; k < n_recent; k++)
        recent_count[k] = -1;      /* not filled yet */
    for (step = 0; step < max_steps; step++) {
        size_t n = 0, kept = 0, i, n_done = 0;
        int bad = 0;
        free(found.slot);
        if (hset_init(&found, cap) < 0) {
            found.slot = NULL;
            PyErr_NoMemory();
            goto done;
        }
        for (b = 0; b < beam_n && !bad; b++) {
            const RState *st = &beam_states[b];
            for (k = 0; k < n_steps; k++) {
                Cand c;
                long left = 0;
                double key;
                int *slot;
                memset(&c.state, 0, sizeof(RState));
                for (j = 0; j < n_ranks; j++) {
                    unsigned long v = read_unsigned(&words, (Py_ssize_t)st->r[j] * n_steps + k);
                    if (v >= (unsigned long)n_units) {
                        bad = 1;
                        break;
                    }
                    c.state.r[j] = (uint16_t)v;
                    left += unit[v];
                }
                if (bad)
                    break;
                c.spent = beam_spent[b] + turns[k];
                key = weight * (double)left;
                key = (double)c.spent + key;
                c.key = key;
                c.left = left;
                c.parent = b;
                c.step = k;
                slot = hset_find(&found, &c.state, &cands[0].state, sizeof(Cand));
                if (*slot == 0) {
                    cands[n] = c;
                    *slot = (int)++n;
                } else if (key < cands[*slot - 1].key) {
                    cands[*slot - 1] = c;
                }
            }
        }
        if (bad) {
            table_error("the beam's move table gives a rank beyond its %d ranks", n_units);
            goto done;
        }
        /* drop the states of the last steps */
        for (i = 0; i < n; i++) {
            int gone = 0;
            for (k = 0; k < n_recent && !gone; k++)
                if (recent_count[k] > 0 &&
                    *hset_find(&recent[k], &cands[i].state, recent_states[k], sizeof(RState)) != 0)
                    gone = 1;
            if (!gone)
                cands[kept++] = cands[i];
        }
        if (kept == 0) {
            out = Py_None;
            Py_INCREF(out);
            goto done;
        }
        for (i = 0; i < kept; i++)
            if (cands[i].left == 0)
                cands[n_done++] = cands[i];      /* (overwrites only entries already read) */
        if (n_done) {
            long best;
            qsort(cands, n_done, sizeof(Cand), cmp_done);
            best = cands[0].spent;
            out = PyList_New(0);
            if (out == NULL)
                goto done;
            for (i = 0; i < n_done && (int)i < limit; i++) {
                PyObject *path;
                if (cands[i].spent > best + slack)
                    continue;
                path = path_of(links, n_links, cands[i].parent, cands[i].step);
                if (path == NULL || PyList_Append(out, path) < 0) {
                    Py_XDECREF(path);
                    Py_CLEAR(out);
                    goto done;
                }
                Py_DECREF(path);
            }
            goto done;
        }
        /* the ring of recent sets takes this step's states (all kept ones) */
        {
            int slot_k = -1, oldest = 0;
            for (k = 0; k < n_recent; k++)
                if (recent_count[k] < 0) {
                    slot_k = k;
                    break;
                }
            if (slot_k < 0) {           /* full: drop the oldest (the ring's order) */
                oldest = 0;
                free(recent[oldest].slot);
                free(recent_states[oldest]);
                for (k = 0; k + 1 < n_recent; k++) {
                    recent[k] = recent[k + 1];
                    recent_states[k] = recent_states[k + 1];
                    recent_count[k] = recent_count[k + 1];
                }
                slot_k = n_recent - 1;
                recent[slot_k].slot = NULL;
                recent_states[slot_k] = NULL;
            }
            recent_states[slot_k] = (RState *)malloc(sizeof(RState) * kept);
            if (recent_states[slot_k] == NULL || hset_init(&recent[slot_k], kept) < 0) {
                PyErr_NoMemory();
                goto done;
            }
            for (i = 0; i < kept; i++) {
                recent_states[slot_k][i] = cands[i].state;
                *hset_find(&recent[slot_k], &cands[i].state, recent_states[slot_k],
                           sizeof(RState)) = (int)i + 1;
            }
            recent_count[slot_k] = (int)kept;
        }
        qsort(cands, kept, sizeof(Cand), cmp_ranked);
        if (kept > (size_t)width)
            kept = (size_t)width;
        links[n_links] = (Link *)malloc(sizeof(Link) * kept);
        if (links[n_links] == NULL) {
            PyErr_NoMemory();
            goto done;
        }
        for (i = 0; i < kept; i++) {
            links[n_links][i].parent = cands[i].parent;
            links[n_links][i].step = cands[i].step;
            next_states[i] = cands[i].state;
            beam_spent[i] = cands[i].spent;
        }
        n_links++;
        {
            RState *t = beam_states;
            beam_states = next_states;
            next_states = t;
        }
        beam_n = (int)kept;
    }
    out = Py_None;
    Py_INCREF(out);
done:
    Py_XDECREF(units_seq);
    release_buf(&words);
    free(unit);
    free(turns);
    free(beam_states);
    free(next_states);
    free(beam_spent);
    free(cands);
    free(found.slot);
    if (recent != NULL)
        for (k = 0; k < n_recent; k++)
            free(recent[k].slot);
    if (recent_states != NULL)
        for (k = 0; k < n_recent; k++)
            free(recent_states[k]);
    free(recent);
    free(recent_states);
    free(recent_count);
    if (links != NULL)
        for (k = 0; k < n_links; k++)
            free(links[k]);
    free(links);
    return out;
}

static PyMethodDef core_methods[] = {
    {"ida", core_ida, METH_VARARGS, ida_doc},
    {"bfs", core_bfs, METH_VARARGS, bfs_doc},
    {"beam", core_beam, METH_VARARGS, beam_doc},
    {"descend", core_descend, METH_VARARGS, descend_doc},
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "_core",
    "The solver's coordinate searches in C (cubebot.solver.search dispatches to them).",
    -1, core_methods, NULL, NULL, NULL, NULL
};

PyMODINIT_FUNC PyInit__core(void)
{
    return PyModule_Create(&core_module);
}
