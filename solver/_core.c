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

/* allowed (per previous move, and last for the start: the moves allowed) and
 * costs (per move, 1 to 100) of a model of n_moves moves */
static int parse_moves(int n_moves, PyObject *allowed, PyObject *costs, int *n_allowed,
                       unsigned char (*allowed_out)[MAX_MOVES], int *costs_out)
{
    Py_ssize_t k, j;
    if (PyTuple_GET_SIZE(allowed) != n_moves + 1 || PyTuple_GET_SIZE(costs) != n_moves) {
        PyErr_SetString(PyExc_ValueError, "allowed and costs: one entry per move");
        return -1;
    }
    for (k = 0; k <= n_moves; k++) {
        PyObject *row = PyTuple_GET_ITEM(allowed, k);
        if (!PyTuple_Check(row) || PyTuple_GET_SIZE(row) > n_moves) {
            PyErr_SetString(PyExc_ValueError, "allowed: a tuple of move tuples");
            return -1;
        }
        n_allowed[k] = (int)PyTuple_GET_SIZE(row);
        for (j = 0; j < n_allowed[k]; j++) {
            long i = PyLong_AsLong(PyTuple_GET_ITEM(row, j));
            if (i < 0 || i >= n_moves) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "allowed: a move index out of range");
                return -1;
            }
            allowed_out[k][j] = (unsigned char)i;
        }
    }
    for (k = 0; k < n_moves; k++) {
        long c = PyLong_AsLong(PyTuple_GET_ITEM(costs, k));
        if (c < 1 || c > 100) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "move costs are 1 to 100");
            return -1;
        }
        costs_out[k] = (int)c;
    }
    return 0;
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
    return parse_moves(m->n_moves, allowed, costs, m->n_allowed, m->allowed, m->costs);
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

/* ---------------------------------------------------------------- IDA*
 * search.ida_star over any model whose states are arrays of at most MAX_STATE
 * values: the model's apply and heuristic (-1 with TableError set on a bad
 * table value), its allowed moves and costs. */

#define MAX_STATE 32

typedef int (*ApplyFn)(const void *model, const unsigned long *state, int i, unsigned long *next);
typedef int (*HeuristicFn)(const void *model, const unsigned long *state);

typedef struct {
    const void *model;
    ApplyFn apply;
    HeuristicFn heuristic;
    const int *n_allowed;
    const unsigned char (*allowed)[MAX_MOVES];
    const int *costs;
    int n_moves;
    long long nodes, cap, more_nodes, first_at;
    long max_solutions, found;
    int stopped, failed;
    int path[MAX_DEPTH];
    int depth;
    PyObject *batch;               /* the solutions of this bound */
} Search;

static int dfs(Search *s, const unsigned long *state, int g, int bound, int last)
{
    unsigned long next[MAX_STATE];
    int h = s->heuristic(s->model, state), f, smallest = UNBOUNDED, a;
    const int row = last < 0 ? s->n_moves : last;
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
    for (a = 0; a < s->n_allowed[row]; a++) {
        int i = s->allowed[row][a], t;
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
        if (s->apply(s->model, state, i, next) < 0) {
            s->failed = 1;
            return 0;
        }
        s->path[s->depth++] = i;
        t = dfs(s, next, g + s->costs[i], bound, i);
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

/* The search of ida_star's loop from `state`: (solutions, nodes), or NULL. */
static PyObject *run_ida(Search *s, const unsigned long *state, int max_cost, int min_cost,
                         int cheapest_only)
{
    PyObject *result = NULL, *out = NULL;
    int bound, h;
    s->first_at = -1;
    result = PyList_New(0);
    if (result == NULL)
        return NULL;
    h = s->heuristic(s->model, state);
    if (h < 0)
        goto fail;
    bound = h > min_cost ? h : min_cost;
    while (bound <= max_cost) {
        int nxt;
        Py_ssize_t k, n;
        s->batch = PyList_New(0);
        if (s->batch == NULL)
            goto fail;
        s->stopped = 0;
        s->depth = 0;
        nxt = dfs(s, state, 0, bound, -1);
        if (s->failed) {
            Py_DECREF(s->batch);
            goto fail;
        }
        n = PyList_GET_SIZE(s->batch);
        for (k = 0; k < n; k++) {
            if (PyList_Append(result, PyList_GET_ITEM(s->batch, k)) < 0) {
                Py_DECREF(s->batch);
                goto fail;
            }
            s->found++;
            if (s->max_solutions >= 0 && s->found >= s->max_solutions)
                break;
        }
        Py_DECREF(s->batch);
        if (s->max_solutions >= 0 && s->found >= s->max_solutions)
            break;
        if (cheapest_only && n)
            break;
        if (s->stopped || nxt == UNBOUNDED)
            break;
        bound = nxt;
    }
    out = Py_BuildValue("(OL)", result, s->nodes);
fail:
    Py_XDECREF(result);
    return out;
}

static int coord_apply(const void *m, const unsigned long *state, int i, unsigned long *next)
{
    return apply_move((const Model *)m, state, i, next);
}

static int coord_heuristic(const void *m, const unsigned long *state)
{
    return heuristic((const Model *)m, state);
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
    PyObject *spec, *start, *out = NULL;
    Model model;
    Search s;
    unsigned long state[MAX_STATE];
    int max_cost, min_cost, cheapest_only;
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
    s.model = &model;
    s.apply = coord_apply;
    s.heuristic = coord_heuristic;
    s.n_allowed = model.n_allowed;
    s.allowed = (const unsigned char (*)[MAX_MOVES])model.allowed;
    s.costs = model.costs;
    s.n_moves = model.n_moves;
    s.nodes = nodes;
    s.cap = cap;
    s.more_nodes = more_nodes;
    s.max_solutions = max_solutions;
    out = run_ida(&s, state, max_cost, min_cost, cheapest_only);
done:
    release_model(&model);
    return out;
}

/* ---------------------------------------------------------------- mask models
 * search.stage_ida over a stage whose state is some 24-bit slot masks and,
 * optionally, the two wing orbits' indices (solve4's wing and slice stages).
 * A model is a tuple (n_moves, movers, mask_movers, combs, tables, orbit,
 * slice, allowed, costs):
 *
 *   movers       per mover a native int32 buffer: entry (i * 3 + c) * 256 + v
 *                = where move i sends the bits v of byte c (masks.MaskMover)
 *   mask_movers  per mask, the index of the mover that turns it
 *   combs        per rank coordinate (buffer, k): masks.CombCoord's three
 *                native int32 tables of (k + 1) * 256 entries, one after another
 *   tables       per 4-bit distance table (buffer, byte offset, terms); terms =
 *                ((mask, comb, multiplier, map or None), ...), the rank the sum
 *                of multiplier * map[comb rank of the mask]
 *   orbit        None, or a bytes buffer: per move its 12 A-index then 12
 *                B-index destinations (orbits.orbit_maps); the state then ends
 *                with a[12] and b[12]
 *   slice        None, or (buffer, byte offset, by_mask, subsets): the slice
 *                stage's bound, min over the subsets (4 edges each, bytes) of
 *                the 4-bit table at by_mask[mask of their A indices] (native
 *                int32 x 5: base or -1, the 4 A indices in order) plus the B
 *                indices as base-12 digits; the bound is then the max of that
 *                min and the tables' max (slice.SliceSearch.heuristic)
 */

#define MASK_BITS 24
#define MASK_LIMIT (1UL << MASK_BITS)
#define BYTE_VALUES 256
#define MASK_BYTES 3
#define SEEN_BITS 4
#define SEEN_MASK 15
#define MAX_MASKS 4
#define MAX_MOVERS 4
#define MAX_COMBS 8
#define ORBIT 12
#define SLICE_SIZE 4
#define SET_MASKS 4096
#define BY_MASK_WIDTH 5
#define MAX_SUBSETS 495

typedef struct {
    Buf buf;
    int k;
    Py_ssize_t per;                /* entries of each of the three tables */
} Comb;

typedef struct {
    int mask, comb;
    long long mult;
    int has_map;
    Buf map;
} MTerm;

typedef struct {
    Buf buf;
    int n_terms;
    MTerm terms[MAX_TERMS];
} MTable;

typedef struct {
    int n_moves;
    int n_movers;
    Buf movers[MAX_MOVERS];
    int n_masks;
    int mover_of[MAX_MASKS];
    int n_combs;
    Comb combs[MAX_COMBS];
    int n_tables;
    MTable tables[MAX_TABLES];
    int orbit;
    Buf maps;
    int slice;
    Buf slice_table, by_mask;
    int n_subsets;
    unsigned char subsets[MAX_SUBSETS][SLICE_SIZE];
    int n_allowed[MAX_MOVES + 1];
    unsigned char allowed[MAX_MOVES + 1][MAX_MOVES];
    int costs[MAX_MOVES];
} MaskModel;

static void release_mask_model(MaskModel *m)
{
    int k, t;
    for (k = 0; k < MAX_MOVERS; k++)
        release_buf(&m->movers[k]);
    for (k = 0; k < MAX_COMBS; k++)
        release_buf(&m->combs[k].buf);
    for (k = 0; k < MAX_TABLES; k++) {
        release_buf(&m->tables[k].buf);
        for (t = 0; t < MAX_TERMS; t++)
            release_buf(&m->tables[k].terms[t].map);
    }
    release_buf(&m->maps);
    release_buf(&m->slice_table);
    release_buf(&m->by_mask);
}

static int n_state_of(const MaskModel *m)
{
    return m->n_masks + (m->orbit ? 2 * ORBIT : 0);
}

static int parse_mask_model(MaskModel *m, PyObject *spec)
{
    PyObject *movers, *mask_movers, *combs, *tables, *orbit, *slice, *allowed, *costs;
    Py_ssize_t k, j;
    memset(m, 0, sizeof(*m));
    if (!PyTuple_Check(spec)) {
        PyErr_SetString(PyExc_TypeError, "model: a tuple");
        return -1;
    }
    if (!PyArg_ParseTuple(spec, "iO!O!O!O!OOO!O!", &m->n_moves, &PyTuple_Type, &movers,
                          &PyTuple_Type, &mask_movers, &PyTuple_Type, &combs, &PyTuple_Type,
                          &tables, &orbit, &slice, &PyTuple_Type, &allowed, &PyTuple_Type, &costs))
        return -1;
    if (m->n_moves < 1 || m->n_moves > MAX_MOVES || PyTuple_GET_SIZE(movers) > MAX_MOVERS ||
        PyTuple_GET_SIZE(mask_movers) < 1 || PyTuple_GET_SIZE(mask_movers) > MAX_MASKS ||
        PyTuple_GET_SIZE(combs) > MAX_COMBS || PyTuple_GET_SIZE(tables) > MAX_TABLES) {
        PyErr_SetString(PyExc_ValueError, "a mask model out of the core's limits");
        return -1;
    }
    m->n_movers = (int)PyTuple_GET_SIZE(movers);
    for (k = 0; k < m->n_movers; k++) {
        if (get_buf(&m->movers[k], PyTuple_GET_ITEM(movers, k), 0, 4) < 0)
            return -1;
        if (m->movers[k].count < (Py_ssize_t)m->n_moves * MASK_BYTES * BYTE_VALUES) {
            table_error("mask mover %d has %zd entries, expected %d moves x %d", (int)k,
                        m->movers[k].count, m->n_moves, MASK_BYTES * BYTE_VALUES);
            return -1;
        }
    }
    m->n_masks = (int)PyTuple_GET_SIZE(mask_movers);
    for (k = 0; k < m->n_masks; k++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(mask_movers, k));
        if (v < 0 || v >= m->n_movers) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "a mask names no mover");
            return -1;
        }
        m->mover_of[k] = (int)v;
    }
    m->n_combs = (int)PyTuple_GET_SIZE(combs);
    for (k = 0; k < m->n_combs; k++) {
        Comb *c = &m->combs[k];
        PyObject *buffer;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(combs, k), "Oi", &buffer, &c->k))
            return -1;
        if (c->k < 0 || c->k > SEEN_MASK) {
            PyErr_SetString(PyExc_ValueError, "a rank coordinate counts 0 to 15 slots");
            return -1;
        }
        if (get_buf(&c->buf, buffer, 0, 4) < 0)
            return -1;
        c->per = (Py_ssize_t)(c->k + 1) * BYTE_VALUES;
        if (c->buf.count < MASK_BYTES * c->per) {
            table_error("rank coordinate %d has %zd entries, expected 3 x %zd", (int)k,
                        c->buf.count, c->per);
            return -1;
        }
    }
    m->n_tables = (int)PyTuple_GET_SIZE(tables);
    for (k = 0; k < m->n_tables; k++) {
        MTable *t = &m->tables[k];
        PyObject *buffer, *terms;
        Py_ssize_t offset;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(tables, k), "OnO!", &buffer, &offset, &PyTuple_Type,
                              &terms))
            return -1;
        if (get_buf(&t->buf, buffer, offset, 1) < 0)
            return -1;
        t->buf.count *= 2;
        t->n_terms = (int)PyTuple_GET_SIZE(terms);
        if (t->n_terms < 1 || t->n_terms > MAX_TERMS) {
            PyErr_SetString(PyExc_ValueError, "a table rank of too many terms");
            return -1;
        }
        for (j = 0; j < t->n_terms; j++) {
            MTerm *term = &t->terms[j];
            PyObject *map;
            if (!PyArg_ParseTuple(PyTuple_GET_ITEM(terms, j), "iiLO", &term->mask, &term->comb,
                                  &term->mult, &map))
                return -1;
            if (term->mask < 0 || term->mask >= m->n_masks || term->comb < 0 ||
                term->comb >= m->n_combs || term->mult < 0) {
                PyErr_SetString(PyExc_ValueError, "a table term names no mask or rank coordinate");
                return -1;
            }
            if (map != Py_None) {
                term->has_map = 1;
                if (get_buf(&term->map, map, 0, 4) < 0)
                    return -1;
            }
        }
    }
    if (orbit != Py_None) {
        m->orbit = 1;
        if (get_buf(&m->maps, orbit, 0, 1) < 0)
            return -1;
        if (m->maps.count < (Py_ssize_t)m->n_moves * 2 * ORBIT) {
            table_error("the orbit maps have %zd entries, expected %d moves x %d", m->maps.count,
                        m->n_moves, 2 * ORBIT);
            return -1;
        }
    }
    if (slice != Py_None) {
        PyObject *buffer, *by_mask, *subsets;
        Py_ssize_t offset;
        Py_buffer view;
        if (!m->orbit) {
            PyErr_SetString(PyExc_ValueError, "a slice bound needs the orbit indices");
            return -1;
        }
        if (!PyArg_ParseTuple(slice, "OnOO", &buffer, &offset, &by_mask, &subsets))
            return -1;
        m->slice = 1;
        if (get_buf(&m->slice_table, buffer, offset, 1) < 0 || get_buf(&m->by_mask, by_mask, 0, 4) < 0)
            return -1;
        m->slice_table.count *= 2;
        if (m->by_mask.count < SET_MASKS * BY_MASK_WIDTH) {
            table_error("the slice's set table has %zd entries, expected %d", m->by_mask.count,
                        SET_MASKS * BY_MASK_WIDTH);
            return -1;
        }
        if (PyObject_GetBuffer(subsets, &view, PyBUF_SIMPLE) < 0)
            return -1;
        if (view.len < SLICE_SIZE || view.len % SLICE_SIZE || view.len > MAX_SUBSETS * SLICE_SIZE) {
            PyBuffer_Release(&view);
            PyErr_SetString(PyExc_ValueError, "subsets: 1 to 495 sets of 4 edges");
            return -1;
        }
        m->n_subsets = (int)(view.len / SLICE_SIZE);
        memcpy(m->subsets, view.buf, (size_t)view.len);
        PyBuffer_Release(&view);
        for (k = 0; k < m->n_subsets; k++)
            for (j = 0; j < SLICE_SIZE; j++)
                if (m->subsets[k][j] >= ORBIT) {
                    PyErr_SetString(PyExc_ValueError, "subsets: edges are 0 to 11");
                    return -1;
                }
    }
    if (m->n_tables < 1 && !m->slice) {
        PyErr_SetString(PyExc_ValueError, "a mask model without a bound");
        return -1;
    }
    return parse_moves(m->n_moves, allowed, costs, m->n_allowed, m->allowed, m->costs);
}

static long read_i32(const Buf *b, Py_ssize_t i)
{
    int32_t v;
    memcpy(&v, b->base + i * 4, 4);
    return (long)v;
}

/* masks.CombCoord.rank; -1 (TableError set) on a bad table value */
static long comb_rank(const Comb *c, unsigned long mask)
{
    long v0, v1, v2;
    Py_ssize_t i1, i2;
    v0 = read_i32(&c->buf, (Py_ssize_t)(mask & 0xFF));
    i1 = (Py_ssize_t)((v0 & SEEN_MASK) << 8 | ((mask >> 8) & 0xFF));
    if (v0 < 0 || i1 >= c->per)
        goto bad;
    v1 = read_i32(&c->buf, c->per + i1);
    i2 = (Py_ssize_t)(((v0 + v1) & SEEN_MASK) << 8 | (mask >> 16));
    if (v1 < 0 || i2 >= c->per)
        goto bad;
    v2 = read_i32(&c->buf, 2 * c->per + i2);
    if (v2 < 0)
        goto bad;
    return (v0 + v1 + v2) >> SEEN_BITS;
bad:
    table_error("a rank coordinate's table gives a bad entry for mask %lu", mask);
    return -1;
}

static int nibble(const Buf *b, long long r)
{
    return (b->base[r >> 1] >> ((r & 1) << 2)) & 15;
}

static int mask_apply(const void *vm, const unsigned long *state, int i, unsigned long *next)
{
    const MaskModel *m = (const MaskModel *)vm;
    int k;
    for (k = 0; k < m->n_masks; k++) {
        const Buf *t = &m->movers[m->mover_of[k]];
        Py_ssize_t at = (Py_ssize_t)i * MASK_BYTES * BYTE_VALUES;
        unsigned long mask = state[k];
        long x = read_i32(t, at + (Py_ssize_t)(mask & 0xFF)),
             y = read_i32(t, at + BYTE_VALUES + (Py_ssize_t)((mask >> 8) & 0xFF)),
             z = read_i32(t, at + 2 * BYTE_VALUES + (Py_ssize_t)(mask >> 16));
        if (x < 0 || y < 0 || z < 0 || (unsigned long)(x | y | z) >= MASK_LIMIT) {
            table_error("mask mover %d gives a mask beyond %d bits", m->mover_of[k], MASK_BITS);
            return -1;
        }
        next[k] = (unsigned long)(x | y | z);
    }
    if (m->orbit) {
        const unsigned char *maps = m->maps.base + (size_t)i * 2 * ORBIT;
        const int n = m->n_masks;
        for (k = 0; k < 2 * ORBIT; k++) {
            unsigned char v = maps[(k < ORBIT ? 0 : ORBIT) + state[n + k]];
            if (v >= ORBIT) {
                table_error("an orbit map gives index %d of %d", v, ORBIT);
                return -1;
            }
            next[n + k] = v;
        }
    }
    return 0;
}

/* the 4x4-slice distance of subset k of the slice bound: a the A indices, digit[x]
 * the B index of the edge whose A index is x; -1 (TableError set) on a bad entry */
static int subset_distance(const MaskModel *m, const unsigned long *a, const unsigned long *digit,
                           int k)
{
    const unsigned char *e = m->subsets[k];
    unsigned set = (1u << a[e[0]]) | (1u << a[e[1]]) | (1u << a[e[2]]) | (1u << a[e[3]]);
    Py_ssize_t at = (Py_ssize_t)set * BY_MASK_WIDTH;
    long base = read_i32(&m->by_mask, at), i0 = read_i32(&m->by_mask, at + 1),
         i1 = read_i32(&m->by_mask, at + 2), i2 = read_i32(&m->by_mask, at + 3),
         i3 = read_i32(&m->by_mask, at + 4);
    long long r;
    if (base < 0 || i0 < 0 || i0 >= ORBIT || i1 < 0 || i1 >= ORBIT || i2 < 0 ||
        i2 >= ORBIT || i3 < 0 || i3 >= ORBIT) {
        table_error("the slice's set table has no entry for set mask %u", set);
        return -1;
    }
    r = base + (long long)((digit[i0] * ORBIT + digit[i1]) * ORBIT + digit[i2]) * ORBIT +
        (long long)digit[i3];
    if (r >= m->slice_table.count) {
        table_error("the slice table has %zd entries, rank %lld asked", m->slice_table.count, r);
        return -1;
    }
    return nibble(&m->slice_table, r);
}

static int mask_heuristic(const void *vm, const unsigned long *state)
{
    const MaskModel *m = (const MaskModel *)vm;
    int k, j, best = 0, nearest = 16;
    for (k = 0; k < m->n_tables; k++) {
        const MTable *t = &m->tables[k];
        long long rank = 0;
        int v;
        for (j = 0; j < t->n_terms; j++) {
            const MTerm *term = &t->terms[j];
            long c = comb_rank(&m->combs[term->comb], state[term->mask]);
            if (c < 0)
                return -1;
            if (term->has_map) {
                if (c >= term->map.count) {
                    table_error("table %d's rank map has no entry %ld", k, c);
                    return -1;
                }
                c = read_i32(&term->map, c);
                if (c < 0) {
                    table_error("table %d has no rank for mask %lu", k, state[term->mask]);
                    return -1;
                }
            }
            rank += (long long)c * term->mult;
        }
        if (rank >= t->buf.count) {
            table_error("table %d has %zd entries, rank %lld asked", k, t->buf.count, rank);
            return -1;
        }
        v = nibble(&t->buf, rank);
        if (v > best)
            best = v;
    }
    if (m->slice) {
        const unsigned long *a = state + m->n_masks, *b = a + ORBIT;
        unsigned long digit[ORBIT] = {0};
        for (k = 0; k < ORBIT; k++)
            digit[a[k]] = b[k];
        for (k = 0; k < m->n_subsets; k++) {
            int x = subset_distance(m, a, digit, k);
            if (x < 0)
                return -1;
            if (x <= best)
                return best;
            if (x < nearest)
                nearest = x;
        }
        return nearest;
    }
    return best;
}

static int read_mask_state(const MaskModel *m, PyObject *start, unsigned long *state)
{
    Py_ssize_t k, n = n_state_of(m);
    int seen_a = 0, seen_b = 0;
    if (!PyTuple_Check(start) || PyTuple_GET_SIZE(start) != n) {
        PyErr_SetString(PyExc_ValueError, "a state is a tuple of the masks and orbit indices");
        return -1;
    }
    for (k = 0; k < n; k++) {
        unsigned long v = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(start, k));
        if (PyErr_Occurred())
            return -1;
        if (k < m->n_masks ? v >= MASK_LIMIT : v >= ORBIT) {
            table_error("state value %d is %lu, out of range", (int)k, v);
            return -1;
        }
        if (k >= m->n_masks + ORBIT)
            seen_b |= 1 << v;
        else if (k >= m->n_masks)
            seen_a |= 1 << v;
        state[k] = v;
    }
    if (m->orbit && (seen_a != (1 << ORBIT) - 1 || seen_b != (1 << ORBIT) - 1)) {
        table_error("the orbit indices of a state are not permutations");
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(mask_ida_doc,
"mask_ida(model, start, max_cost, min_cost, max_solutions, nodes, cap, cheapest_only,\n"
"more_nodes) -> (solutions, nodes): search.ida_star over a mask model; -1 for no limit.");

static PyObject *core_mask_ida(PyObject *self, PyObject *args)
{
    PyObject *spec, *start, *out = NULL;
    MaskModel *model;
    Search s;
    unsigned long state[MAX_STATE];
    int max_cost, min_cost, cheapest_only;
    long long nodes, cap, more_nodes;
    long max_solutions;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOiilLLiL", &spec, &start, &max_cost, &min_cost, &max_solutions,
                          &nodes, &cap, &cheapest_only, &more_nodes))
        return NULL;
    model = (MaskModel *)malloc(sizeof(MaskModel));
    if (model == NULL)
        return PyErr_NoMemory();
    if (parse_mask_model(model, spec) < 0 || read_mask_state(model, start, state) < 0)
        goto done;
    memset(&s, 0, sizeof(s));
    s.model = model;
    s.apply = mask_apply;
    s.heuristic = mask_heuristic;
    s.n_allowed = model->n_allowed;
    s.allowed = (const unsigned char (*)[MAX_MOVES])model->allowed;
    s.costs = model->costs;
    s.n_moves = model->n_moves;
    s.nodes = nodes;
    s.cap = cap;
    s.more_nodes = more_nodes;
    s.max_solutions = max_solutions;
    out = run_ida(&s, state, max_cost, min_cost, cheapest_only);
done:
    release_mask_model(model);
    free(model);
    return out;
}

PyDoc_STRVAR(slice_distances_doc,
"slice_distances(model, state) -> bytes: the 4x4-slice distance of each set of edges of\n"
"a mask model's slice bound, in their order.");

static PyObject *core_slice_distances(PyObject *self, PyObject *args)
{
    PyObject *spec, *start, *out = NULL;
    MaskModel *model;
    unsigned long state[MAX_STATE], digit[ORBIT] = {0};
    const unsigned long *a, *b;
    char got[MAX_SUBSETS];
    int k;
    (void)self;
    if (!PyArg_ParseTuple(args, "OO", &spec, &start))
        return NULL;
    model = (MaskModel *)malloc(sizeof(MaskModel));
    if (model == NULL)
        return PyErr_NoMemory();
    if (parse_mask_model(model, spec) < 0 || read_mask_state(model, start, state) < 0)
        goto done;
    if (!model->slice) {
        PyErr_SetString(PyExc_ValueError, "a mask model without a slice bound");
        goto done;
    }
    a = state + model->n_masks;
    b = a + ORBIT;
    for (k = 0; k < ORBIT; k++)
        digit[a[k]] = b[k];
    for (k = 0; k < model->n_subsets; k++) {
        int x = subset_distance(model, a, digit, k);
        if (x < 0)
            goto done;
        got[k] = (char)x;
    }
    out = PyBytes_FromStringAndSize(got, model->n_subsets);
done:
    release_mask_model(model);
    free(model);
    return out;
}

PyDoc_STRVAR(mask_bound_doc,
"mask_bound(model, start) -> the bound of a state of a mask model (its heuristic).");

static PyObject *core_mask_bound(PyObject *self, PyObject *args)
{
    PyObject *spec, *start, *out = NULL;
    MaskModel *model;
    unsigned long state[MAX_STATE];
    int h;
    (void)self;
    if (!PyArg_ParseTuple(args, "OO", &spec, &start))
        return NULL;
    model = (MaskModel *)malloc(sizeof(MaskModel));
    if (model == NULL)
        return PyErr_NoMemory();
    if (parse_mask_model(model, spec) < 0 || read_mask_state(model, start, state) < 0)
        goto done;
    h = mask_heuristic(model, state);
    if (h >= 0)
        out = PyLong_FromLong(h);
done:
    release_mask_model(model);
    free(model);
    return out;
}

/* ---------------------------------------------------------------- centres-ud choice
 * solve4.centrewings._centres_ud's choice among the centres-ud solutions: each
 * followed on the centre masks and the wing positions, the first whose length
 * plus wing-stage bound (wings.WingStage.bound) is the smallest. The wing
 * bound is the max of 4x4-centres-p3 and the nearest choice of A wings in
 * 4x4-eo (wings.EOStage.distance: the masks near the goal tested against the
 * choice rules when the bound is small, else all 2,048 choices ranked). */

#define N_WINGS 24
#define N_EDGES 12
#define MAX_LAYERS 16
#define UD_CENTRE_MASKS 3

typedef struct {
    int n_moves;
    Buf mover;                     /* masks.MaskMover of the moves (native int32) */
    Buf wing_maps;                 /* bytes: move i takes the wing at slot s to wing_maps[i * 24 + s] */
    Comb centre[UD_CENTRE_MASKS];
    long long base;
    Buf centre_table, eo_table;    /* 4-bit */
    Comb eo;
    unsigned long orbit_a;         /* the slots of orbits.ORBIT_A */
    Buf near;                      /* native uint32: the masks near the goal, layer by layer */
    int n_layers;
    Py_ssize_t layer_end[MAX_LAYERS];
} UDChoice;

static void release_ud_choice(UDChoice *u)
{
    int k;
    release_buf(&u->mover);
    release_buf(&u->wing_maps);
    for (k = 0; k < UD_CENTRE_MASKS; k++)
        release_buf(&u->centre[k].buf);
    release_buf(&u->centre_table);
    release_buf(&u->eo_table);
    release_buf(&u->eo.buf);
    release_buf(&u->near);
}

static int parse_comb(Comb *c, PyObject *obj)
{
    PyObject *buffer;
    if (!PyArg_ParseTuple(obj, "Oi", &buffer, &c->k))
        return -1;
    if (c->k < 0 || c->k > SEEN_MASK) {
        PyErr_SetString(PyExc_ValueError, "a rank coordinate counts 0 to 15 slots");
        return -1;
    }
    if (get_buf(&c->buf, buffer, 0, 4) < 0)
        return -1;
    c->per = (Py_ssize_t)(c->k + 1) * BYTE_VALUES;
    if (c->buf.count < MASK_BYTES * c->per) {
        table_error("a rank coordinate has %zd entries, expected 3 x %zd", c->buf.count, c->per);
        return -1;
    }
    return 0;
}

static int parse_ud_choice(UDChoice *u, PyObject *spec)
{
    PyObject *mover, *maps, *centre, *centre_table, *eo, *eo_table, *near, *ends;
    Py_ssize_t centre_at, eo_at, k;
    memset(u, 0, sizeof(*u));
    if (!PyTuple_Check(spec) ||
        !PyArg_ParseTuple(spec, "iOOO!LOnOOnkOO!", &u->n_moves, &mover, &maps, &PyTuple_Type,
                          &centre, &u->base, &centre_table, &centre_at, &eo, &eo_table, &eo_at,
                          &u->orbit_a, &near, &PyTuple_Type, &ends)) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "a centres-ud choice spec: a tuple");
        return -1;
    }
    if (u->n_moves < 1 || u->n_moves > MAX_MOVES || PyTuple_GET_SIZE(centre) != UD_CENTRE_MASKS ||
        PyTuple_GET_SIZE(ends) < 1 || PyTuple_GET_SIZE(ends) > MAX_LAYERS || u->base < 1) {
        PyErr_SetString(PyExc_ValueError, "a centres-ud choice spec out of the core's limits");
        return -1;
    }
    if (get_buf(&u->mover, mover, 0, 4) < 0 || get_buf(&u->wing_maps, maps, 0, 1) < 0 ||
        get_buf(&u->centre_table, centre_table, centre_at, 1) < 0 ||
        get_buf(&u->eo_table, eo_table, eo_at, 1) < 0 || get_buf(&u->near, near, 0, 4) < 0 ||
        parse_comb(&u->eo, eo) < 0)
        return -1;
    u->centre_table.count *= 2;
    u->eo_table.count *= 2;
    for (k = 0; k < UD_CENTRE_MASKS; k++)
        if (parse_comb(&u->centre[k], PyTuple_GET_ITEM(centre, k)) < 0)
            return -1;
    if (u->mover.count < (Py_ssize_t)u->n_moves * MASK_BYTES * BYTE_VALUES ||
        u->wing_maps.count < (Py_ssize_t)u->n_moves * N_WINGS) {
        table_error("the centres-ud moves' tables are short");
        return -1;
    }
    u->n_layers = (int)PyTuple_GET_SIZE(ends);
    for (k = 0; k < u->n_layers; k++) {
        u->layer_end[k] = PyLong_AsSsize_t(PyTuple_GET_ITEM(ends, k));
        if (PyErr_Occurred())
            return -1;
        if (u->layer_end[k] < (k ? u->layer_end[k - 1] : 0) || u->layer_end[k] > u->near.count) {
            PyErr_SetString(PyExc_ValueError, "near masks: layer ends out of order");
            return -1;
        }
    }
    return 0;
}

/* the mask after move i, or -1 (TableError set) */
static long move_mask(const Buf *t, int i, unsigned long mask)
{
    Py_ssize_t at = (Py_ssize_t)i * MASK_BYTES * BYTE_VALUES;
    long x = read_i32(t, at + (Py_ssize_t)(mask & 0xFF)),
         y = read_i32(t, at + BYTE_VALUES + (Py_ssize_t)((mask >> 8) & 0xFF)),
         z = read_i32(t, at + 2 * BYTE_VALUES + (Py_ssize_t)(mask >> 16));
    if (x < 0 || y < 0 || z < 0 || (unsigned long)(x | y | z) >= MASK_LIMIT) {
        table_error("a mask mover gives a mask beyond %d bits", MASK_BITS);
        return -1;
    }
    return x | y | z;
}

static int centre_distance(const UDChoice *u, const unsigned long *masks)
{
    long long r = 0;
    int k;
    for (k = 0; k < UD_CENTRE_MASKS; k++) {
        long c = comb_rank(&u->centre[k], masks[k]);
        if (c < 0)
            return -1;
        r = r * u->base + c;
    }
    if (r >= u->centre_table.count) {
        table_error("the centre table has %zd entries, rank %lld asked", u->centre_table.count, r);
        return -1;
    }
    return nibble(&u->centre_table, r);
}

/* wings.EOStage.distance: the 4x4-eo distance of the best choice of A wings if below
 * `below`, else 16; -1 on a bad table value */
static int eo_distance(const UDChoice *u, const unsigned long *pos, int below)
{
    unsigned long at_a[N_EDGES], at_b[N_EDGES], pairs[N_EDGES], home_b = 0;
    int e, d;
    for (e = 0; e < N_EDGES; e++) {
        int first = 2 * e, second = 2 * e + 1;
        if (!(u->orbit_a >> first & 1)) {
            first = second;
            second = 2 * e;
        }
        at_a[e] = 1UL << pos[first];
        at_b[e] = 1UL << pos[second];
        pairs[e] = at_a[e] | at_b[e];
        home_b |= at_b[e];
    }
    if (below - 1 > u->n_layers - 1) {
        int best = 16;
        unsigned choice;
        for (choice = 0; choice < (1u << N_EDGES); choice++) {
            unsigned long mask = 0;
            long r;
            int x;
            if (__builtin_popcount(choice) & 1)
                continue;
            for (e = 0; e < N_EDGES; e++)
                mask |= (choice >> e & 1) ? at_b[e] : at_a[e];
            r = comb_rank(&u->eo, mask);
            if (r < 0)
                return -1;
            if (r >= u->eo_table.count) {
                table_error("the 4x4-eo table has %zd entries, rank %ld asked", u->eo_table.count, r);
                return -1;
            }
            x = nibble(&u->eo_table, r);
            if (x < best)
                best = x;
        }
        return best < below ? best : 16;
    }
    for (d = 0; d < below && d < u->n_layers; d++) {
        Py_ssize_t k;
        for (k = d ? u->layer_end[d - 1] : 0; k < u->layer_end[d]; k++) {
            unsigned long mask = (unsigned long)(uint32_t)read_i32(&u->near, k);
            for (e = 0; e < N_EDGES; e++)
                if (!(mask & pairs[e]))
                    break;
            if (e == N_EDGES && !(__builtin_popcountl(mask & home_b) & 1))
                return d;
        }
    }
    return 16;
}

PyDoc_STRVAR(ud_choose_doc,
"ud_choose(spec, solutions, masks, positions, budget) -> the index of the centres-ud\n"
"solution (a list of move indices) whose length plus wing bound is the smallest and\n"
"within budget (the first such), or -1.");

static PyObject *core_ud_choose(PyObject *self, PyObject *args)
{
    PyObject *spec, *solutions, *masks_obj, *pos_obj, *seq = NULL, *out = NULL;
    UDChoice u;
    unsigned long masks0[UD_CENTRE_MASKS], pos0[N_WINGS];
    int budget, best_total, best = -1;
    Py_ssize_t n, k, j;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOO!O!i", &spec, &solutions, &PyTuple_Type, &masks_obj,
                          &PyTuple_Type, &pos_obj, &budget))
        return NULL;
    if (parse_ud_choice(&u, spec) < 0)
        goto done;
    if (PyTuple_GET_SIZE(masks_obj) != UD_CENTRE_MASKS || PyTuple_GET_SIZE(pos_obj) != N_WINGS) {
        PyErr_SetString(PyExc_ValueError, "three centre masks and 24 wing positions");
        goto done;
    }
    for (k = 0; k < UD_CENTRE_MASKS; k++) {
        masks0[k] = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(masks_obj, k));
        if (PyErr_Occurred())
            goto done;
        if (masks0[k] >= MASK_LIMIT) {
            table_error("a centre mask beyond %d bits", MASK_BITS);
            goto done;
        }
    }
    for (k = 0; k < N_WINGS; k++) {
        pos0[k] = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(pos_obj, k));
        if (PyErr_Occurred())
            goto done;
        if (pos0[k] >= N_WINGS) {
            table_error("a wing position %lu beyond %d slots", pos0[k], N_WINGS);
            goto done;
        }
    }
    seq = PySequence_Fast(solutions, "solutions: a sequence of move index lists");
    if (seq == NULL)
        goto done;
    n = PySequence_Fast_GET_SIZE(seq);
    best_total = budget + 1;
    for (k = 0; k < n; k++) {
        PyObject *sol = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, k), "a solution: move indices");
        unsigned long masks[UD_CENTRE_MASKS], pos[N_WINGS];
        Py_ssize_t len;
        int below, centres, eo, c, bad = 0;
        if (sol == NULL)
            goto done;
        len = PySequence_Fast_GET_SIZE(sol);
        memcpy(masks, masks0, sizeof(masks));
        for (j = 0; j < len && !bad; j++) {
            long i = PyLong_AsLong(PySequence_Fast_GET_ITEM(sol, j));
            if (i < 0 || i >= u.n_moves) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "a centres-ud move index out of range");
                bad = 1;
                break;
            }
            for (c = 0; c < UD_CENTRE_MASKS; c++) {
                long m = move_mask(&u.mover, (int)i, masks[c]);
                if (m < 0) {
                    bad = 1;
                    break;
                }
                masks[c] = (unsigned long)m;
            }
        }
        if (bad) {
            Py_DECREF(sol);
            goto done;
        }
        below = best_total - (int)len;
        centres = centre_distance(&u, masks);
        if (centres < 0) {
            Py_DECREF(sol);
            goto done;
        }
        if (centres >= below) {
            Py_DECREF(sol);
            continue;
        }
        memcpy(pos, pos0, sizeof(pos));
        for (j = 0; j < len; j++) {
            const unsigned char *to = u.wing_maps.base +
                (size_t)PyLong_AsLong(PySequence_Fast_GET_ITEM(sol, j)) * N_WINGS;
            for (c = 0; c < N_WINGS; c++) {
                if (to[pos[c]] >= N_WINGS) {
                    bad = 1;
                    break;
                }
                pos[c] = to[pos[c]];
            }
        }
        Py_DECREF(sol);
        if (bad) {
            table_error("a wing map gives a slot beyond %d", N_WINGS);
            goto done;
        }
        eo = eo_distance(&u, pos, below);
        if (eo < 0)
            goto done;
        if (eo < below) {
            best_total = (eo > centres ? eo : centres) + (int)len;
            best = (int)k;
        }
    }
    out = PyLong_FromLong(best);
done:
    Py_XDECREF(seq);
    release_ud_choice(&u);
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

/* the walk of search.descend; the solutions go to s->batch */
static void walk(Search *s, const unsigned long *state, int h, int left, int last)
{
    unsigned long next[MAX_STATE];
    const int row = last < 0 ? s->n_moves : last;
    int a;
    if (h == 0) {
        if (left == 0) {
            PyObject *sol = PyList_New(s->depth);
            int k;
            if (sol == NULL) {
                s->failed = 1;
                return;
            }
            for (k = 0; k < s->depth; k++)
                PyList_SET_ITEM(sol, k, PyLong_FromLong(s->path[k]));
            if (PyList_Append(s->batch, sol) < 0)
                s->failed = 1;
            Py_DECREF(sol);
        }
        return;
    }
    left -= 1;
    if (s->depth >= MAX_DEPTH) {
        PyErr_SetString(PyExc_ValueError, "a descent deeper than the core allows");
        s->failed = 1;
        return;
    }
    for (a = 0; a < s->n_allowed[row]; a++) {
        int i = s->allowed[row][a], d;
        if (s->apply(s->model, state, i, next) < 0) {
            s->failed = 1;
            return;
        }
        d = s->heuristic(s->model, next);
        if (d < 0) {
            s->failed = 1;
            return;
        }
        if (d <= left) {
            s->path[s->depth++] = i;
            walk(s, next, d, left, i);
            s->depth--;
            if (s->failed)
                return;
            if (PyList_GET_SIZE(s->batch) >= s->max_solutions)
                return;
        }
    }
}

/* search.descend from `state` (length -1: the shortest): the solutions, or NULL */
static PyObject *run_descend(Search *s, const unsigned long *state, int length)
{
    int h = s->heuristic(s->model, state);
    if (h < 0)
        return NULL;
    s->batch = PyList_New(0);
    if (s->batch == NULL)
        return NULL;
    walk(s, state, h, length < 0 ? h : length, -1);
    if (s->failed)
        Py_CLEAR(s->batch);
    return s->batch;
}

PyDoc_STRVAR(descend_doc,
"descend(model, start, max_solutions, length) -> solutions (lists of move indices):\n"
"search.descend over a coordinate model; length -1 for the shortest.");

static PyObject *core_descend(PyObject *self, PyObject *args)
{
    PyObject *spec, *start, *out = NULL;
    Model model;
    Search s;
    unsigned long state[MAX_STATE];
    long max_solutions;
    int length;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOli", &spec, &start, &max_solutions, &length))
        return NULL;
    if (!PyTuple_Check(spec)) {
        PyErr_SetString(PyExc_TypeError, "model: a tuple");
        return NULL;
    }
    if (parse_model(&model, spec) < 0 || read_state(&model, start, state) < 0)
        goto done;
    memset(&s, 0, sizeof(s));
    s.model = &model;
    s.apply = coord_apply;
    s.heuristic = coord_heuristic;
    s.n_allowed = model.n_allowed;
    s.allowed = (const unsigned char (*)[MAX_MOVES])model.allowed;
    s.n_moves = model.n_moves;
    s.max_solutions = max_solutions;
    out = run_descend(&s, state, length);
done:
    release_model(&model);
    return out;
}

PyDoc_STRVAR(mask_descend_doc,
"mask_descend(model, start, max_solutions, length) -> solutions (lists of move indices):\n"
"search.descend over a mask model whose bound is exact; length -1 for the shortest.");

static PyObject *core_mask_descend(PyObject *self, PyObject *args)
{
    PyObject *spec, *start, *out = NULL;
    MaskModel *model;
    Search s;
    unsigned long state[MAX_STATE];
    long max_solutions;
    int length;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOli", &spec, &start, &max_solutions, &length))
        return NULL;
    model = (MaskModel *)malloc(sizeof(MaskModel));
    if (model == NULL)
        return PyErr_NoMemory();
    if (parse_mask_model(model, spec) < 0 || read_mask_state(model, start, state) < 0)
        goto done;
    memset(&s, 0, sizeof(s));
    s.model = model;
    s.apply = mask_apply;
    s.heuristic = mask_heuristic;
    s.n_allowed = model->n_allowed;
    s.allowed = (const unsigned char (*)[MAX_MOVES])model->allowed;
    s.n_moves = model->n_moves;
    s.max_solutions = max_solutions;
    out = run_descend(&s, state, length);
done:
    release_mask_model(model);
    free(model);
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
    {"mask_ida", core_mask_ida, METH_VARARGS, mask_ida_doc},
    {"mask_bound", core_mask_bound, METH_VARARGS, mask_bound_doc},
    {"mask_descend", core_mask_descend, METH_VARARGS, mask_descend_doc},
    {"ud_choose", core_ud_choose, METH_VARARGS, ud_choose_doc},
    {"slice_distances", core_slice_distances, METH_VARARGS, slice_distances_doc},
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
