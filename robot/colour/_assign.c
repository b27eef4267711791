/* The compiled joint colour search (cubebot.robot.colour._assign): optional.
 *
 * cubebot.robot.colour.assign and cubebot.robot.colour.joint describe the search and run it in
 * Python; this file runs the same search faster. It makes the same double operations in the
 * same order (sums left to right, the same comparisons, the same tie-breaking by push order),
 * so that its answer is the Python path's bit for bit (tests/robot/test_colour_compiled.py).
 *
 *   search(cost, corners, edges, fixed, corner_names, edge_names, group_of_rank,
 *          group_corner_keys, group_edge_keys, margin, max_nodes, check_parity, dbl)
 *       -> (nodes, exhausted, found)
 *
 *   cost            per facelet, six class costs (floats)
 *   corners, edges  per position, its facelet indices (edges: empty on even cubes)
 *   fixed           the six middle centres (URFDLB) on odd cubes, () on even ones
 *   corner_names, edge_names  per piece, its faces as indices into URFDLB
 *   group_of_rank   the rotation class of each labelling, by its rank among
 *                   itertools.permutations(range(6))
 *   group_*_keys    per rotation class, the table indices whose cheapest entry is a
 *                   position's cheapest candidate under that class (assign.position_lows)
 *   found           the two cheapest valid cubes: [(cost, classes of URFDLB, [(d, q, o)])]
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>

#define N_CLASSES 6
#define N_LABELLINGS 720            /* 6! */
#define N_GROUPS_MAX 720
#define MAX_POSITIONS 64            /* corner and edge positions searched */
#define CORNER_WIDTH 3
#define EDGE_WIDTH 2
#define N_CORNER_PIECES 8
#define N_EDGE_PIECES 12
#define CORNER_KEYS (N_CORNER_PIECES * CORNER_WIDTH)    /* 24 */
#define EDGE_KEYS (N_EDGE_PIECES * EDGE_WIDTH)          /* 24 */
#define CORNER_TABLE 216            /* 6 ** 3 */
#define EDGE_TABLE 36               /* 6 ** 2 */

typedef struct { int index, q, o; } Key;
typedef struct { double c; int q, o; } Cand;

typedef struct {
    Cand *cands;                    /* sorted on first use, NULL until then */
    const Key *keys;
    int n_keys;
    const double *table;
    double low;
    int bit0, corner, last_corner, last_edge;
} Level;

typedef struct {
    int perm[N_CLASSES];
    int n_levels;
    Level *levels;
    double *tail;
    Key ckeys[CORNER_KEYS], ekeys[EDGE_KEYS], own;
} Ctx;

typedef struct {
    double f, g;
    long counter;
    int placement;                  /* -1: none */
    unsigned long used;
    long twist, flip;
    int d, j, ctx;                  /* d < 0: a labelling not opened yet (ctx: its entry) */
} Node;

typedef struct { int d, q, o, parent; } Placement;

typedef struct {
    double cost;
    int perm[N_CLASSES];
    int n;
    int d[MAX_POSITIONS], q[MAX_POSITIONS], o[MAX_POSITIONS];
} Found;

typedef struct { double base, bound, g; int perm[N_CLASSES]; int group; int order; } Entry;

typedef struct {
    /* inputs */
    int n_corners, n_edges, fixed_dbl, dbl, check_parity;
    double margin;
    long max_nodes;
    double *corner_tables, *edge_tables;        /* n_corners * 216, n_edges * 36 */
    int corner_names[N_CORNER_PIECES][CORNER_WIDTH], edge_names[N_EDGE_PIECES][EDGE_WIDTH];
    double *corner_lows, *edge_lows;            /* per group, filled by the caller */
    /* state */
    Node *heap;
    long heap_len, heap_cap, counter, nodes;
    int exhausted;
    Placement *pl;
    long pl_len, pl_cap;
    Entry *entries;
    Ctx **ctxs;                                 /* per entry, opened lazily */
    Found found[3];
    int n_found;
    int no_memory;
} Search;

static double limit(const Search *s)
{
    if (s->n_found >= 2) {
        double a = s->found[1].cost, b = s->found[0].cost + s->margin;
        return b < a ? b : a;          /* Python's min(a, b): a unless b is smaller */
    }
    if (s->n_found == 1)
        return s->found[0].cost + s->margin;
    return Py_HUGE_VAL;
}

static int node_less(const Node *a, const Node *b)
{
    if (a->f < b->f) return 1;
    if (a->f > b->f) return 0;
    return a->counter < b->counter;
}

static int heap_push(Search *s, const Node *n)
{
    long i;
    if (s->heap_len == s->heap_cap) {
        long cap = s->heap_cap ? s->heap_cap * 2 : 1024;
        Node *grown = (Node *)realloc(s->heap, (size_t)cap * sizeof(Node));
        if (!grown) { s->no_memory = 1; return -1; }
        s->heap = grown;
        s->heap_cap = cap;
    }
    i = s->heap_len++;
    while (i > 0) {
        long parent = (i - 1) / 2;
        if (!node_less(n, &s->heap[parent])) break;
        s->heap[i] = s->heap[parent];
        i = parent;
    }
    s->heap[i] = *n;
    return 0;
}

static Node heap_pop(Search *s)
{
    Node top = s->heap[0], last = s->heap[--s->heap_len];
    long i = 0, n = s->heap_len;
    while (1) {
        long child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && node_less(&s->heap[child + 1], &s->heap[child])) child++;
        if (!node_less(&s->heap[child], &last)) break;
        s->heap[i] = s->heap[child];
        i = child;
    }
    if (n > 0) s->heap[i] = last;
    return top;
}

static int cand_cmp(const void *x, const void *y)
{
    const Cand *a = (const Cand *)x, *b = (const Cand *)y;
    if (a->c < b->c) return -1;
    if (a->c > b->c) return 1;
    if (a->q != b->q) return a->q < b->q ? -1 : 1;
    return (a->o > b->o) - (a->o < b->o);
}

static int sort_level(Search *s, Level *level)
{
    int k;
    level->cands = (Cand *)malloc((size_t)level->n_keys * sizeof(Cand));
    if (!level->cands) { s->no_memory = 1; return -1; }
    for (k = 0; k < level->n_keys; k++) {
        level->cands[k].c = level->table[level->keys[k].index];
        level->cands[k].q = level->keys[k].q;
        level->cands[k].o = level->keys[k].o;
    }
    qsort(level->cands, (size_t)level->n_keys, sizeof(Cand), cand_cmp);
    return 0;
}

/* _keys of assign.py: per piece q and orientation o, the table index of its classes. */
static void make_keys(const int *perm, const int *names, int n_pieces, int width, Key *out)
{
    int q, o, t, k = 0;
    for (q = 0; q < n_pieces; q++) {
        for (o = 0; o < width; o++) {
            int index = 0;
            for (t = 0; t < width; t++) {
                /* corners turn by (t - o) % 3, edges by (t + o) % 2 (assign._corner_turn, _edge_turn) */
                int at = width == CORNER_WIDTH ? ((t - o) % width + width) % width : (t + o) % width;
                index = index * N_CLASSES + perm[names[q * width + at]];
            }
            out[k].index = index;
            out[k].q = q;
            out[k].o = o;
            k++;
        }
    }
}

static Ctx *open_ctx(Search *s, const Entry *e)
{
    int i, n_levels = s->n_corners + s->n_edges;
    Ctx *ctx = (Ctx *)calloc(1, sizeof(Ctx));
    if (!ctx) { s->no_memory = 1; return NULL; }
    ctx->levels = (Level *)calloc((size_t)n_levels, sizeof(Level));
    ctx->tail = (double *)calloc((size_t)n_levels + 1, sizeof(double));
    if (!ctx->levels || !ctx->tail) {
        free(ctx->levels); free(ctx->tail); free(ctx);
        s->no_memory = 1;
        return NULL;
    }
    memcpy(ctx->perm, e->perm, sizeof(ctx->perm));
    ctx->n_levels = n_levels;
    make_keys(e->perm, &s->corner_names[0][0], N_CORNER_PIECES, CORNER_WIDTH, ctx->ckeys);
    make_keys(e->perm, &s->edge_names[0][0], N_EDGE_PIECES, EDGE_WIDTH, ctx->ekeys);
    for (i = 0; i < s->n_corners; i++) {
        Level *l = &ctx->levels[i];
        l->keys = ctx->ckeys; l->n_keys = CORNER_KEYS;
        l->table = s->corner_tables + (size_t)i * CORNER_TABLE;
        l->low = s->corner_lows[(size_t)e->group * s->n_corners + i];
        l->bit0 = 0; l->corner = 1;
    }
    if (s->fixed_dbl) {
        Level *l = &ctx->levels[s->dbl];
        for (i = 0; i < CORNER_KEYS; i++) {
            if (ctx->ckeys[i].q == s->dbl && ctx->ckeys[i].o == 0) { ctx->own = ctx->ckeys[i]; break; }
        }
        l->keys = &ctx->own; l->n_keys = 1;
        l->low = l->table[ctx->own.index];
    }
    ctx->levels[s->n_corners - 1].last_corner = 1;
    for (i = 0; i < s->n_edges; i++) {
        Level *l = &ctx->levels[s->n_corners + i];
        l->keys = ctx->ekeys; l->n_keys = EDGE_KEYS;
        l->table = s->edge_tables + (size_t)i * EDGE_TABLE;
        l->low = s->edge_lows[(size_t)e->group * s->n_edges + i];
        l->bit0 = N_CORNER_PIECES; l->corner = 0;
    }
    if (s->n_edges) ctx->levels[n_levels - 1].last_edge = 1;
    ctx->tail[n_levels] = 0.0;
    for (i = n_levels - 1; i >= 0; i--)
        ctx->tail[i] = ctx->tail[i + 1] + ctx->levels[i].low;
    return ctx;
}

/* PieceSearch._push: the first valid candidate >= j at level d, if within the limit. */
static int push(Search *s, int ci, double g, int placement, unsigned long used, long twist,
                long flip, int d, int j)
{
    Ctx *ctx = s->ctxs[ci];
    Level *level = &ctx->levels[d];
    if (!level->cands && sort_level(s, level) < 0) return -1;
    for (; j < level->n_keys; j++) {
        const Cand *cand = &level->cands[j];
        if (used >> (level->bit0 + cand->q) & 1UL) continue;
        if (level->last_corner && (twist + cand->o) % 3) continue;
        if (level->last_edge && (flip + cand->o) % 2) continue;
        {
            double f = g + cand->c + ctx->tail[d + 1];
            if (f <= limit(s)) {
                Node n;
                n.f = f; n.g = g; n.counter = s->counter++;
                n.placement = placement; n.used = used; n.twist = twist; n.flip = flip;
                n.d = d; n.j = j; n.ctx = ci;
                return heap_push(s, &n);
            }
            return 0;
        }
    }
    return 0;
}

static int parity(int *perm, int n)
{
    int i, odd = 0;
    for (i = 0; i < n; i++) {
        while (perm[i] != i) {
            int j = perm[i], t = perm[j];
            perm[j] = perm[i];
            perm[i] = t;
            odd ^= 1;
        }
    }
    return odd;
}

static void solution(Search *s, double cost, const int *perm, int placement, int n_levels)
{
    Found f;
    int k = n_levels, at;
    f.cost = cost;
    memcpy(f.perm, perm, sizeof(f.perm));
    f.n = n_levels;
    while (placement >= 0) {
        Placement *p = &s->pl[placement];
        k--;
        f.d[k] = p->d; f.q[k] = p->q; f.o[k] = p->o;
        placement = p->parent;
    }
    if (s->check_parity) {
        int cp[N_CORNER_PIECES], ep[N_EDGE_PIECES], i;
        for (i = 0; i < s->n_corners; i++) cp[i] = f.q[i];
        for (i = 0; i < s->n_edges; i++) ep[i] = f.q[s->n_corners + i];
        if (parity(cp, s->n_corners) != parity(ep, s->n_edges)) return;
    }
    /* append, then a stable sort by cost, keep two */
    at = s->n_found;
    while (at > 0 && s->found[at - 1].cost > cost) {
        s->found[at] = s->found[at - 1];
        at--;
    }
    s->found[at] = f;
    s->n_found++;
    if (s->n_found > 2) s->n_found = 2;
}

static int new_placement(Search *s, int d, int q, int o, int parent)
{
    if (s->pl_len == s->pl_cap) {
        long cap = s->pl_cap ? s->pl_cap * 2 : 1024;
        Placement *grown = (Placement *)realloc(s->pl, (size_t)cap * sizeof(Placement));
        if (!grown) { s->no_memory = 1; return -1; }
        s->pl = grown;
        s->pl_cap = cap;
    }
    s->pl[s->pl_len].d = d; s->pl[s->pl_len].q = q;
    s->pl[s->pl_len].o = o; s->pl[s->pl_len].parent = parent;
    return (int)s->pl_len++;
}

/* PieceSearch.run */
static int run(Search *s, int n_entries)
{
    int i;
    for (i = 0; i < n_entries; i++) {
        Node n;
        n.f = s->entries[i].bound; n.g = s->entries[i].g; n.counter = s->counter++;
        n.placement = -1; n.used = 0; n.twist = 0; n.flip = 0; n.d = -1; n.j = 0; n.ctx = i;
        if (heap_push(s, &n) < 0) return -1;
    }
    while (s->heap_len) {
        Node e = heap_pop(s);
        Ctx *ctx;
        Level *level;
        const Cand *cand;
        int child;
        if (e.f > limit(s)) return 0;
        if (e.d < 0) {
            s->ctxs[e.ctx] = open_ctx(s, &s->entries[e.ctx]);
            if (!s->ctxs[e.ctx]) return -1;
            if (push(s, e.ctx, e.g, -1, 0, 0, 0, 0, 0) < 0) return -1;
            continue;
        }
        s->nodes++;
        if (s->nodes > s->max_nodes) { s->exhausted = 1; return 0; }
        if (push(s, e.ctx, e.g, e.placement, e.used, e.twist, e.flip, e.d, e.j + 1) < 0) return -1;
        ctx = s->ctxs[e.ctx];
        level = &ctx->levels[e.d];
        cand = &level->cands[e.j];
        child = new_placement(s, e.d, cand->q, cand->o, e.placement);
        if (child < 0) return -1;
        if (e.d + 1 == ctx->n_levels) {
            solution(s, e.g + cand->c, ctx->perm, child, ctx->n_levels);
        } else if (push(s, e.ctx, e.g + cand->c, child, e.used | (1UL << (level->bit0 + cand->q)),
                        level->corner ? e.twist + cand->o : e.twist,
                        level->corner ? e.flip : e.flip + cand->o, e.d + 1, 0) < 0) {
            return -1;
        }
    }
    return 0;
}

/* ---- labellings (assign.labellings) ---- */

static int perm_rank(const int *perm)
{
    int i, j, rank = 0;
    for (i = 0; i < N_CLASSES; i++) {
        int smaller = 0;
        for (j = i + 1; j < N_CLASSES; j++) if (perm[j] < perm[i]) smaller++;
        rank = rank * (N_CLASSES - i) + smaller;
    }
    return rank;
}

/* every permutation of `items` (n of them) in itertools.permutations order, k long */
typedef struct { int out[N_LABELLINGS][N_CLASSES]; int count; } Perms;

static void permutations(const int *items, int n, int k, int depth, int *cur, int *usedmask, Perms *p)
{
    int i;
    if (depth == k) {
        memcpy(p->out[p->count++], cur, (size_t)k * sizeof(int));
        return;
    }
    for (i = 0; i < n; i++) {
        if (*usedmask >> i & 1) continue;
        *usedmask |= 1 << i;
        cur[depth] = items[i];
        permutations(items, n, k, depth + 1, cur, usedmask, p);
        *usedmask &= ~(1 << i);
    }
}

static int entry_cmp(const void *x, const void *y)
{
    const Entry *a = (const Entry *)x, *b = (const Entry *)y;
    if (a->base < b->base) return -1;
    if (a->base > b->base) return 1;
    return (a->order > b->order) - (a->order < b->order);     /* a stable sort */
}

/* ---- argument reading ---- */

static int read_ints(PyObject *seq, int *out, Py_ssize_t n, const char *what)
{
    PyObject *fast = PySequence_Fast(seq, what);
    Py_ssize_t i;
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        PyErr_Format(PyExc_ValueError, "%s: %zd items, not %zd", what,
                     PySequence_Fast_GET_SIZE(fast), n);
        Py_DECREF(fast);
        return -1;
    }
    for (i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return 0;
}

static Py_ssize_t length(PyObject *seq, const char *what)
{
    Py_ssize_t n = PySequence_Size(seq);
    if (n < 0) PyErr_Format(PyExc_TypeError, "%s must be a sequence", what);
    return n;
}

static void free_search(Search *s, int n_entries)
{
    int i, k;
    if (s->ctxs) {
        for (i = 0; i < n_entries; i++) {
            Ctx *ctx = s->ctxs[i];
            if (!ctx) continue;
            for (k = 0; k < ctx->n_levels; k++) free(ctx->levels[k].cands);
            free(ctx->levels);
            free(ctx->tail);
            free(ctx);
        }
    }
    free(s->ctxs); free(s->entries); free(s->heap); free(s->pl);
    free(s->corner_tables); free(s->edge_tables); free(s->corner_lows); free(s->edge_lows);
}

static PyObject *assign_search(PyObject *self, PyObject *args)
{
    PyObject *cost_o, *corners_o, *edges_o, *fixed_o, *cnames_o, *enames_o, *groups_o;
    PyObject *gck_o, *gek_o, *result = NULL, *found_list = NULL;
    double margin;
    Py_ssize_t max_nodes;
    int check_parity, dbl;
    Py_ssize_t n_facelets, n_groups, i, k;
    double (*cost)[N_CLASSES] = NULL;
    int *group_of_rank = NULL, *gck = NULL, *gek = NULL, *lows_done = NULL;
    int fixed[N_CLASSES], n_fixed;
    Search s;
    Perms *perms = NULL, *triples = NULL;
    int n_entries = 0;
    (void)self;
    memset(&s, 0, sizeof(s));
    if (!PyArg_ParseTuple(args, "OOOOOOOOOdnii", &cost_o, &corners_o, &edges_o, &fixed_o,
                          &cnames_o, &enames_o, &groups_o, &gck_o, &gek_o, &margin, &max_nodes,
                          &check_parity, &dbl))
        return NULL;
    s.margin = margin;
    s.max_nodes = (long)max_nodes;
    s.check_parity = check_parity;
    s.dbl = dbl;

    /* the cost matrix */
    n_facelets = length(cost_o, "cost");
    if (n_facelets < 0) return NULL;
    cost = malloc((size_t)(n_facelets ? n_facelets : 1) * sizeof(*cost));
    if (!cost) return PyErr_NoMemory();
    for (i = 0; i < n_facelets; i++) {
        PyObject *row = PySequence_GetItem(cost_o, i), *fast;
        if (!row) goto done;
        fast = PySequence_Fast(row, "a cost row");
        Py_DECREF(row);
        if (!fast) goto done;
        if (PySequence_Fast_GET_SIZE(fast) != N_CLASSES) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "each cost row must hold six costs");
            goto done;
        }
        for (k = 0; k < N_CLASSES; k++) {
            cost[i][k] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fast, k));
            if (cost[i][k] == -1.0 && PyErr_Occurred()) { Py_DECREF(fast); goto done; }
        }
        Py_DECREF(fast);
    }

    /* the positions' tables (assign.position_costs): ((0.0 + c0) + c1) + c2 */
    s.n_corners = (int)length(corners_o, "corners");
    s.n_edges = (int)length(edges_o, "edges");
    if (s.n_corners < 0 || s.n_edges < 0) goto done;
    if (s.n_corners != N_CORNER_PIECES || s.n_edges > N_EDGE_PIECES) {
        PyErr_SetString(PyExc_ValueError, "8 corner positions and at most 12 edge positions");
        goto done;
    }
    s.corner_tables = malloc((size_t)s.n_corners * CORNER_TABLE * sizeof(double));
    s.edge_tables = malloc((size_t)(s.n_edges ? s.n_edges : 1) * EDGE_TABLE * sizeof(double));
    if (!s.corner_tables || !s.edge_tables) { PyErr_NoMemory(); goto done; }
    for (i = 0; i < s.n_corners + s.n_edges; i++) {
        int corner = i < s.n_corners, width = corner ? CORNER_WIDTH : EDGE_WIDTH;
        int spot[CORNER_WIDTH], a, b, c;
        double *t = corner ? s.corner_tables + i * CORNER_TABLE : s.edge_tables + (i - s.n_corners) * EDGE_TABLE;
        PyObject *pos = PySequence_GetItem(corner ? corners_o : edges_o, corner ? i : i - s.n_corners);
        if (!pos) goto done;
        if (read_ints(pos, spot, width, "a position") < 0) { Py_DECREF(pos); goto done; }
        Py_DECREF(pos);
        for (a = 0; a < width; a++) {
            if (spot[a] < 0 || spot[a] >= n_facelets) {
                PyErr_SetString(PyExc_ValueError, "a position names a facelet out of range");
                goto done;
            }
        }
        if (corner) {
            for (a = 0; a < N_CLASSES; a++)
                for (b = 0; b < N_CLASSES; b++)
                    for (c = 0; c < N_CLASSES; c++)
                        t[(a * N_CLASSES + b) * N_CLASSES + c] =
                            ((0.0 + cost[spot[0]][a]) + cost[spot[1]][b]) + cost[spot[2]][c];
        } else {
            for (a = 0; a < N_CLASSES; a++)
                for (b = 0; b < N_CLASSES; b++)
                    t[a * N_CLASSES + b] = (0.0 + cost[spot[0]][a]) + cost[spot[1]][b];
        }
    }
    n_fixed = (int)length(fixed_o, "fixed");
    if (n_fixed != 0 && n_fixed != N_CLASSES) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "fixed: six centres or none");
        goto done;
    }
    if (n_fixed && read_ints(fixed_o, fixed, N_CLASSES, "fixed") < 0) goto done;
    for (i = 0; i < n_fixed; i++) {
        if (fixed[i] < 0 || fixed[i] >= n_facelets) {
            PyErr_SetString(PyExc_ValueError, "a fixed centre out of range");
            goto done;
        }
    }
    s.fixed_dbl = n_fixed == 0;
    if (dbl < 0 || dbl >= N_CORNER_PIECES) {
        PyErr_SetString(PyExc_ValueError, "dbl must name a corner");
        goto done;
    }
    for (i = 0; i < N_CORNER_PIECES; i++) {
        PyObject *name = PySequence_GetItem(cnames_o, i);
        if (!name) goto done;
        if (read_ints(name, s.corner_names[i], CORNER_WIDTH, "a corner name") < 0) { Py_DECREF(name); goto done; }
        Py_DECREF(name);
    }
    for (i = 0; i < N_EDGE_PIECES; i++) {
        PyObject *name = PySequence_GetItem(enames_o, i);
        if (!name) goto done;
        if (read_ints(name, s.edge_names[i], EDGE_WIDTH, "an edge name") < 0) { Py_DECREF(name); goto done; }
        Py_DECREF(name);
    }
    for (i = 0; i < N_CORNER_PIECES; i++)
        for (k = 0; k < CORNER_WIDTH; k++)
            if (s.corner_names[i][k] < 0 || s.corner_names[i][k] >= N_CLASSES) goto bad_name;
    for (i = 0; i < N_EDGE_PIECES; i++)
        for (k = 0; k < EDGE_WIDTH; k++)
            if (s.edge_names[i][k] < 0 || s.edge_names[i][k] >= N_CLASSES) goto bad_name;

    /* the rotation classes and their keys */
    group_of_rank = malloc(N_LABELLINGS * sizeof(int));
    if (!group_of_rank) { PyErr_NoMemory(); goto done; }
    if (read_ints(groups_o, group_of_rank, N_LABELLINGS, "group_of_rank") < 0) goto done;
    n_groups = length(gck_o, "group_corner_keys");
    if (n_groups < 0) goto done;
    if (n_groups < 1 || n_groups > N_GROUPS_MAX || length(gek_o, "group_edge_keys") != n_groups) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "one key list per rotation class");
        goto done;
    }
    for (i = 0; i < N_LABELLINGS; i++) {
        if (group_of_rank[i] < 0 || group_of_rank[i] >= n_groups) {
            PyErr_SetString(PyExc_ValueError, "a rotation class out of range");
            goto done;
        }
    }
    gck = malloc((size_t)n_groups * CORNER_KEYS * sizeof(int));
    gek = malloc((size_t)n_groups * EDGE_KEYS * sizeof(int));
    lows_done = calloc((size_t)n_groups, sizeof(int));
    s.corner_lows = malloc((size_t)n_groups * s.n_corners * sizeof(double));
    s.edge_lows = malloc((size_t)n_groups * (s.n_edges ? s.n_edges : 1) * sizeof(double));
    if (!gck || !gek || !lows_done || !s.corner_lows || !s.edge_lows) { PyErr_NoMemory(); goto done; }
    for (i = 0; i < n_groups; i++) {
        PyObject *a = PySequence_GetItem(gck_o, i), *b;
        if (!a) goto done;
        if (read_ints(a, gck + i * CORNER_KEYS, CORNER_KEYS, "corner keys") < 0) { Py_DECREF(a); goto done; }
        Py_DECREF(a);
        b = PySequence_GetItem(gek_o, i);
        if (!b) goto done;
        if (read_ints(b, gek + i * EDGE_KEYS, EDGE_KEYS, "edge keys") < 0) { Py_DECREF(b); goto done; }
        Py_DECREF(b);
        for (k = 0; k < CORNER_KEYS; k++)
            if (gck[i * CORNER_KEYS + k] < 0 || gck[i * CORNER_KEYS + k] >= CORNER_TABLE) goto bad_key;
        for (k = 0; k < EDGE_KEYS; k++)
            if (gek[i * EDGE_KEYS + k] < 0 || gek[i * EDGE_KEYS + k] >= EDGE_TABLE) goto bad_key;
    }

    /* the labellings, cheapest first (a stable sort), with their bounds (joint.cheapest) */
    s.entries = calloc(N_LABELLINGS, sizeof(Entry));
    s.ctxs = calloc(N_LABELLINGS, sizeof(Ctx *));
    if (!s.entries || !s.ctxs) { PyErr_NoMemory(); goto done; }
    perms = malloc(sizeof(Perms));
    triples = malloc(sizeof(Perms));
    if (!perms || !triples) { PyErr_NoMemory(); goto done; }
    {
        int items[N_CLASSES] = {0, 1, 2, 3, 4, 5}, cur[N_CLASSES], usedmask = 0;
        if (n_fixed) {
            perms->count = 0;
            permutations(items, N_CLASSES, N_CLASSES, 0, cur, &usedmask, perms);
            for (i = 0; i < perms->count; i++) {
                const int *p = perms->out[i];
                Entry *e = &s.entries[n_entries];
                e->base = cost[fixed[0]][p[0]] + cost[fixed[1]][p[1]] + cost[fixed[2]][p[2]]
                    + cost[fixed[3]][p[3]] + cost[fixed[4]][p[4]] + cost[fixed[5]][p[5]];
                memcpy(e->perm, p, sizeof(e->perm));
                e->order = n_entries++;
            }
        } else {
            int spot[CORNER_WIDTH];
            PyObject *pos = PySequence_GetItem(corners_o, dbl);
            if (!pos) goto done;
            if (read_ints(pos, spot, CORNER_WIDTH, "the DBL corner") < 0) { Py_DECREF(pos); goto done; }
            Py_DECREF(pos);
            triples->count = 0;
            permutations(items, N_CLASSES, CORNER_WIDTH, 0, cur, &usedmask, triples);
            for (i = 0; i < triples->count; i++) {
                const int *t = triples->out[i];
                double base = ((0.0 + cost[spot[0]][t[0]]) + cost[spot[1]][t[1]]) + cost[spot[2]][t[2]];
                int rest[N_CLASSES - CORNER_WIDTH], n_rest = 0, m;
                for (m = 0; m < N_CLASSES; m++)
                    if (m != t[0] && m != t[1] && m != t[2]) rest[n_rest++] = m;
                perms->count = 0;
                usedmask = 0;
                permutations(rest, n_rest, n_rest, 0, cur, &usedmask, perms);
                for (m = 0; m < perms->count; m++) {
                    Entry *e = &s.entries[n_entries];
                    const int *u = perms->out[m];
                    /* URFDLB = (u, r, f, d, l, b), the triple being (d, b, l) */
                    e->perm[0] = u[0]; e->perm[1] = u[1]; e->perm[2] = u[2];
                    e->perm[3] = t[0]; e->perm[4] = t[2]; e->perm[5] = t[1];
                    e->base = base;
                    e->order = n_entries++;
                }
            }
        }
    }
    qsort(s.entries, (size_t)n_entries, sizeof(Entry), entry_cmp);
    for (i = 0; i < n_entries; i++) {
        Entry *e = &s.entries[i];
        int g = group_of_rank[perm_rank(e->perm)];
        double rest, corner_sum = 0.0, edge_sum = 0.0;
        e->group = g;
        if (!lows_done[g]) {
            int pos;
            for (pos = 0; pos < s.n_corners; pos++) {
                const double *t = s.corner_tables + pos * CORNER_TABLE;
                double low = t[gck[g * CORNER_KEYS]];
                for (k = 1; k < CORNER_KEYS; k++) if (t[gck[g * CORNER_KEYS + k]] < low) low = t[gck[g * CORNER_KEYS + k]];
                s.corner_lows[g * s.n_corners + pos] = low;
            }
            for (pos = 0; pos < s.n_edges; pos++) {
                const double *t = s.edge_tables + pos * EDGE_TABLE;
                double low = t[gek[g * EDGE_KEYS]];
                for (k = 1; k < EDGE_KEYS; k++) if (t[gek[g * EDGE_KEYS + k]] < low) low = t[gek[g * EDGE_KEYS + k]];
                s.edge_lows[g * s.n_edges + pos] = low;
            }
            lows_done[g] = 1;
        }
        /* sum(corner_lows) + sum(edge_lows) - (0.0 if fixed else corner_lows[DBL]) */
        for (k = 0; k < s.n_corners; k++) corner_sum += s.corner_lows[g * s.n_corners + k];
        for (k = 0; k < s.n_edges; k++) edge_sum += s.edge_lows[g * s.n_edges + k];
        rest = (corner_sum + edge_sum) - (n_fixed ? 0.0 : s.corner_lows[g * s.n_corners + dbl]);
        e->bound = e->base + rest;
        e->g = n_fixed ? e->base : 0.0;
    }

    if (run(&s, n_entries) < 0) {
        if (s.no_memory) PyErr_NoMemory();
        goto done;
    }
    found_list = PyList_New(0);
    if (!found_list) goto done;
    for (i = 0; i < s.n_found; i++) {
        Found *f = &s.found[i];
        PyObject *classes = Py_BuildValue("(iiiiii)", f->perm[0], f->perm[1], f->perm[2],
                                          f->perm[3], f->perm[4], f->perm[5]);
        PyObject *chosen = PyList_New(f->n), *item;
        if (!classes || !chosen) { Py_XDECREF(classes); Py_XDECREF(chosen); goto done; }
        for (k = 0; k < f->n; k++) {
            PyObject *t = Py_BuildValue("(iii)", f->d[k], f->q[k], f->o[k]);
            if (!t) { Py_DECREF(classes); Py_DECREF(chosen); goto done; }
            PyList_SET_ITEM(chosen, k, t);
        }
        item = Py_BuildValue("(dNN)", f->cost, classes, chosen);
        if (!item || PyList_Append(found_list, item) < 0) { Py_XDECREF(item); goto done; }
        Py_DECREF(item);
    }
    result = Py_BuildValue("(lNO)", s.nodes, PyBool_FromLong(s.exhausted), found_list);
    goto done;
bad_name:
    PyErr_SetString(PyExc_ValueError, "a piece name holds a face out of range");
    goto done;
bad_key:
    PyErr_SetString(PyExc_ValueError, "a rotation class key out of range");
done:
    Py_XDECREF(found_list);
    free_search(&s, N_LABELLINGS);
    free(cost); free(group_of_rank); free(gck); free(gek); free(lows_done);
    free(perms); free(triples);
    return result;
}

static PyMethodDef assign_methods[] = {
    {"search", assign_search, METH_VARARGS,
     "search(cost, corners, edges, fixed, corner_names, edge_names, group_of_rank, "
     "group_corner_keys, group_edge_keys, margin, max_nodes, check_parity, dbl) -> "
     "(nodes, exhausted, found)"},
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef assign_module = {
    PyModuleDef_HEAD_INIT, "_assign", "Compiled joint colour search (see assign.py, joint.py).", -1,
    assign_methods, NULL, NULL, NULL, NULL
};

PyMODINIT_FUNC PyInit__assign(void)
{
    return PyModule_Create(&assign_module);
}
