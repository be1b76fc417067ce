/*
 * Fast path of cardmind.belief.blocks.BlockProduct: the same dynamic programme (forward
 * pass, then one backward sweep giving every context count) with dense state arrays and
 * exact unsigned 128-bit integers. The Python code in blocks.py is the reference and
 * this module must give identical integers; the caller uses it only when the count of
 * the unconstrained problem (which bounds every value computed here) is below 2**126.
 *
 * solve_real is the same programme over doubles, for blocks whose weights are real numbers
 * (a count times the likelihood of the players' choices: cardmind.belief.models); its
 * weights are bytes of float64 and its results Python floats. Both functions are made
 * from one body: this file includes itself twice with VAL (the value type), WT (the weight
 * type) and their conversions defined (the part after "#else" at the end).
 *
 * solve(caps, shifts, widths, guard, origin, box, blocks, pool_queries, contexts[, tables])
 *     -> (total, block_contexts, pool_contexts[, forward_tables])
 *   caps, shifts, widths: per seat (blocks.Packing); the last seat is left out of the
 *       dense index (its count is implied by the stage's total)
 *   guard, origin: packed guard mask and origin
 *   box: size of the dense index (product of caps[i] + 1 over all seats but the last)
 *   blocks: list of (codes, offsets, weights), each bytes of uint64 per term
 *   pool_queries: list of bytes of uint64 codes (guard = never fits)
 *   contexts: 0 = total only
 *   tables: when 1, also return the forward tables: per stage (codes list, values list)
 */
#ifndef BLOCKDP_BODY
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 u128;

#define MAXSEATS 16
#define MAXN 128

typedef struct {
    uint64_t code;
    uint64_t idx;
    u128 val;
} Ent;

static u128 binom[MAXN + 1][MAXN + 1];
static int binom_ready = 0;

static void init_binom(void) {
    if (binom_ready) return;
    memset(binom, 0, sizeof(binom));
    for (int n = 0; n <= MAXN; n++) {
        binom[n][0] = 1;
        for (int r = 1; r <= n; r++) binom[n][r] = binom[n - 1][r - 1] + binom[n - 1][r];
    }
    binom_ready = 1;
}

typedef struct {
    int k;
    int caps[MAXSEATS];
    int shifts[MAXSEATS];
    int widths[MAXSEATS];
    uint64_t origin;
} Pack;

/* multinomial of the capacity left at packed usage v (v includes the origin bias) */
static u128 multinomial_free(const Pack *p, uint64_t v) {
    uint64_t raw = v - p->origin;
    u128 out = 1;
    int n = 0;
    for (int i = 0; i < p->k; i++) {
        int u = (int)((raw >> p->shifts[i]) & ((1ULL << (p->widths[i] + 1)) - 1));
        int r = p->caps[i] - u;
        n += r;
        out *= binom[n][r];
    }
    return out;
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static PyObject *u128_to_py(u128 x) {
    uint64_t lo = (uint64_t)x, hi = (uint64_t)(x >> 64);
    if (hi == 0) return PyLong_FromUnsignedLongLong(lo);
    PyObject *h = PyLong_FromUnsignedLongLong(hi);
    PyObject *l = PyLong_FromUnsignedLongLong(lo);
    PyObject *sh = PyLong_FromLong(64);
    PyObject *hs = (h && sh) ? PyNumber_Lshift(h, sh) : NULL;
    PyObject *res = (hs && l) ? PyNumber_Or(hs, l) : NULL;
    Py_XDECREF(h);
    Py_XDECREF(l);
    Py_XDECREF(sh);
    Py_XDECREF(hs);
    return res;
}

static int read_ints(PyObject *seq, int *out, int *n) {
    PyObject *fast = PySequence_Fast(seq, "expected a sequence of ints");
    if (!fast) return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    if (len > MAXSEATS) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "too many seats");
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int)v;
    }
    *n = (int)len;
    Py_DECREF(fast);
    return 0;
}

static PyObject *u128_list(const u128 *vals, Py_ssize_t n) {
    PyObject *lst = PyList_New(n);
    if (!lst) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *o = u128_to_py(vals[i]);
        if (!o) {
            Py_DECREF(lst);
            return NULL;
        }
        PyList_SET_ITEM(lst, i, o);
    }
    return lst;
}


typedef struct {
    uint64_t code;
    uint64_t idx;
    double val;
} EntD;

static double binomd[MAXN + 1][MAXN + 1];
static int binomd_ready = 0;

static void init_binomd(void) {
    if (binomd_ready) return;
    memset(binomd, 0, sizeof(binomd));
    for (int n = 0; n <= MAXN; n++) {
        binomd[n][0] = 1.0;
        for (int r = 1; r <= n; r++) binomd[n][r] = binomd[n - 1][r - 1] + binomd[n - 1][r];
    }
    binomd_ready = 1;
}

/* multinomial_free as a double */
static double multinomial_free_d(const Pack *p, uint64_t v) {
    uint64_t raw = v - p->origin;
    double out = 1.0;
    int n = 0;
    for (int i = 0; i < p->k; i++) {
        int u = (int)((raw >> p->shifts[i]) & ((1ULL << (p->widths[i] + 1)) - 1));
        int r = p->caps[i] - u;
        n += r;
        out *= binomd[n][r];
    }
    return out;
}

static PyObject *double_list(const double *vals, Py_ssize_t n) {
    PyObject *lst = PyList_New(n);
    if (!lst) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *o = PyFloat_FromDouble(vals[i]);
        if (!o) {
            Py_DECREF(lst);
            return NULL;
        }
        PyList_SET_ITEM(lst, i, o);
    }
    return lst;
}

#define BLOCKDP_BODY
/* exact integers */
#define SOLVE_FN solve
#define VAL u128
#define WT uint64_t
#define ENT Ent
#define INIT_TABLES init_binom
#define MULTI_FREE multinomial_free
#define VAL_TO_PY u128_to_py
#define VAL_LIST u128_list
#include "_blockdp.c" /* this file again: the body below #else */
#undef SOLVE_FN
#undef VAL
#undef WT
#undef ENT
#undef INIT_TABLES
#undef MULTI_FREE
#undef VAL_TO_PY
#undef VAL_LIST
/* real weights */
#define SOLVE_FN solve_real
#define VAL double
#define WT double
#define ENT EntD
#define INIT_TABLES init_binomd
#define MULTI_FREE multinomial_free_d
#define VAL_TO_PY PyFloat_FromDouble
#define VAL_LIST double_list
#include "_blockdp.c" /* this file again: the body below #else */

static PyMethodDef methods[] = {
    {"solve", solve, METH_VARARGS, "Exact block product with all context counts (see cardmind.belief.blocks)."},
    {"solve_real", solve_real, METH_VARARGS, "The same over real (float64) weights."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_blockdp", NULL, -1, methods};

PyMODINIT_FUNC PyInit__blockdp(void) { return PyModule_Create(&module); }

#else /* BLOCKDP_BODY: the body of solve and solve_real */

static PyObject *SOLVE_FN(PyObject *self, PyObject *args) {
    PyObject *caps_o, *shifts_o, *widths_o, *blocks_o, *queries_o;
    unsigned long long guard, origin, box;
    int want_ctx, want_tables = 0;
    if (!PyArg_ParseTuple(args, "OOOKKKOOi|i", &caps_o, &shifts_o, &widths_o, &guard, &origin, &box, &blocks_o,
                          &queries_o, &want_ctx, &want_tables))
        return NULL;
    INIT_TABLES();
    Pack p;
    memset(&p, 0, sizeof(p));
    int k2, k3;
    if (read_ints(caps_o, p.caps, &p.k) < 0 || read_ints(shifts_o, p.shifts, &k2) < 0 ||
        read_ints(widths_o, p.widths, &k3) < 0)
        return NULL;
    int total_cap = 0;
    for (int i = 0; i < p.k; i++) total_cap += p.caps[i];
    if (total_cap > MAXN || box == 0 || box > (1ULL << 28)) {
        PyErr_SetString(PyExc_ValueError, "problem too large for the fast path");
        return NULL;
    }
    p.origin = origin;

    PyObject *blocks = PySequence_Fast(blocks_o, "blocks must be a sequence");
    if (!blocks) return NULL;
    PyObject *queries = PySequence_Fast(queries_o, "pool_queries must be a sequence");
    if (!queries) {
        Py_DECREF(blocks);
        return NULL;
    }
    int nb = (int)PySequence_Fast_GET_SIZE(blocks);
    Py_ssize_t nq = PySequence_Fast_GET_SIZE(queries);

    PyObject *result = NULL, *bans = NULL, *qans = NULL, *tabs = NULL;
    Py_buffer *bufs = (Py_buffer *)calloc(3 * (size_t)nb + (size_t)nq + 1, sizeof(Py_buffer));
    int nbufs = 0;
    Py_ssize_t *nterms = (Py_ssize_t *)calloc(nb + 1, sizeof(Py_ssize_t));
    const uint64_t **codes = (const uint64_t **)calloc(nb + 1, sizeof(uint64_t *));
    const uint64_t **offs = (const uint64_t **)calloc(nb + 1, sizeof(uint64_t *));
    const WT **wts = (const WT **)calloc(nb + 1, sizeof(WT *));
    ENT **F = (ENT **)calloc(nb + 1, sizeof(ENT *));
    size_t *nF = (size_t *)calloc(nb + 1, sizeof(size_t));
    VAL *acc = (VAL *)malloc(box * sizeof(VAL));
    VAL *tcur = (VAL *)malloc(box * sizeof(VAL));
    VAL *tnew = (VAL *)malloc(box * sizeof(VAL));
    uint64_t *codeof = (uint64_t *)malloc(box * sizeof(uint64_t));
    uint8_t *mark = (uint8_t *)calloc(box, 1);
    uint64_t *touched = (uint64_t *)malloc(box * sizeof(uint64_t));
    VAL **G = (VAL **)calloc(nb + 1, sizeof(VAL *));
    if (!bufs || !nterms || !codes || !offs || !wts || !F || !nF || !acc || !tcur || !tnew || !codeof || !mark ||
        !touched || !G) {
        PyErr_NoMemory();
        goto done;
    }
    for (int m = 0; m < nb; m++) {
        PyObject *tri = PySequence_Fast_GET_ITEM(blocks, m);
        PyObject *cb, *ob, *wb;
        if (!PyArg_ParseTuple(tri, "OOO", &cb, &ob, &wb)) goto done;
        if (PyObject_GetBuffer(cb, &bufs[nbufs], PyBUF_SIMPLE) < 0) goto done;
        codes[m] = (const uint64_t *)bufs[nbufs].buf;
        nterms[m] = bufs[nbufs++].len / 8;
        if (PyObject_GetBuffer(ob, &bufs[nbufs], PyBUF_SIMPLE) < 0) goto done;
        offs[m] = (const uint64_t *)bufs[nbufs].buf;
        Py_ssize_t no = bufs[nbufs++].len / 8;
        if (PyObject_GetBuffer(wb, &bufs[nbufs], PyBUF_SIMPLE) < 0) goto done;
        wts[m] = (const WT *)bufs[nbufs].buf;
        Py_ssize_t nw = bufs[nbufs++].len / (Py_ssize_t)sizeof(WT);
        if (no != nterms[m] || nw != nterms[m]) {
            PyErr_SetString(PyExc_ValueError, "codes, offsets and weights differ in length");
            goto done;
        }
        for (Py_ssize_t t = 0; t < nterms[m]; t++) {
            if (offs[m][t] >= box) {
                PyErr_SetString(PyExc_ValueError, "offset outside the state box");
                goto done;
            }
        }
    }

    /* forward: F[m] = nonzero states after blocks[:m] */
    F[0] = (ENT *)malloc(sizeof(ENT));
    if (!F[0]) {
        PyErr_NoMemory();
        goto done;
    }
    F[0][0].code = origin;
    F[0][0].idx = 0;
    F[0][0].val = 1;
    nF[0] = 1;
    for (int m = 0; m < nb; m++) {
        size_t nt = 0;
        const uint64_t *cd = codes[m], *of = offs[m];
        const WT *wt = wts[m];
        Py_ssize_t terms = nterms[m];
        for (size_t i = 0; i < nF[m]; i++) {
            const ENT *e = &F[m][i];
            for (Py_ssize_t t = 0; t < terms; t++) {
                uint64_t v = e->code + cd[t];
                if (v & guard) continue;
                uint64_t j = e->idx + of[t];
                if (j >= box) continue; /* cannot happen for a valid code; defensive */
                if (!mark[j]) {
                    mark[j] = 1;
                    touched[nt++] = j;
                    codeof[j] = v;
                    acc[j] = 0;
                }
                acc[j] += e->val * (VAL)wt[t];
            }
        }
        F[m + 1] = (ENT *)malloc((nt ? nt : 1) * sizeof(ENT));
        if (!F[m + 1]) {
            PyErr_NoMemory();
            goto done;
        }
        /* extract in index order (a scan of the box when that is cheaper than sorting):
           the backward sweep then reads the dense arrays nearly sequentially */
        size_t w = 0;
        if (nt * 16 > box) {
            for (uint64_t j = 0; j < box; j++) {
                if (!mark[j]) continue;
                F[m + 1][w].code = codeof[j];
                F[m + 1][w].idx = j;
                F[m + 1][w].val = acc[j];
                mark[j] = 0;
                w++;
            }
        } else {
            qsort(touched, nt, sizeof(uint64_t), cmp_u64);
            for (size_t i = 0; i < nt; i++) {
                uint64_t j = touched[i];
                F[m + 1][w].code = codeof[j];
                F[m + 1][w].idx = j;
                F[m + 1][w].val = acc[j];
                mark[j] = 0;
                w++;
            }
        }
        nF[m + 1] = nt;
    }

    /* the pool completes the last stage */
    VAL total = 0;
    for (size_t i = 0; i < nF[nb]; i++) {
        VAL t = MULTI_FREE(&p, F[nb][i].code);
        tcur[F[nb][i].idx] = t;
        total += F[nb][i].val * t;
    }

    bans = PyList_New(want_ctx ? nb : 0);
    qans = PyList_New(want_ctx ? nq : 0);
    if (!bans || !qans) goto done;
    if (want_ctx) {
        /* backward sweep: contexts of block m and T_m from T_{m+1} */
        for (int m = nb - 1; m >= 0; m--) {
            Py_ssize_t terms = nterms[m];
            G[m] = (VAL *)calloc(terms ? terms : 1, sizeof(VAL));
            if (!G[m]) {
                PyErr_NoMemory();
                goto done;
            }
            const uint64_t *cd = codes[m], *of = offs[m];
        const WT *wt = wts[m];
            for (size_t i = 0; i < nF[m]; i++) {
                const ENT *e = &F[m][i];
                VAL s = 0;
                for (Py_ssize_t t = 0; t < terms; t++) {
                    uint64_t v = e->code + cd[t];
                    if (v & guard) continue;
                    VAL x = tcur[e->idx + of[t]];
                    s += (VAL)wt[t] * x;
                    G[m][t] += e->val * x;
                }
                tnew[e->idx] = s;
            }
            VAL *tmp = tcur;
            tcur = tnew;
            tnew = tmp;
            PyObject *lst = VAL_LIST(G[m], terms);
            if (!lst) goto done;
            PyList_SET_ITEM(bans, m, lst);
        }
        for (Py_ssize_t q = 0; q < nq; q++) {
            if (PyObject_GetBuffer(PySequence_Fast_GET_ITEM(queries, q), &bufs[nbufs], PyBUF_SIMPLE) < 0) goto done;
            const uint64_t *qc = (const uint64_t *)bufs[nbufs].buf;
            Py_ssize_t n = bufs[nbufs++].len / 8;
            VAL *vals = (VAL *)calloc(n ? n : 1, sizeof(VAL));
            if (!vals) {
                PyErr_NoMemory();
                goto done;
            }
            for (Py_ssize_t j = 0; j < n; j++) {
                if (qc[j] & guard) continue;
                VAL a = 0;
                for (size_t i = 0; i < nF[nb]; i++) {
                    uint64_t v = F[nb][i].code + qc[j];
                    if (v & guard) continue;
                    a += F[nb][i].val * MULTI_FREE(&p, v);
                }
                vals[j] = a;
            }
            PyObject *lst = VAL_LIST(vals, n);
            free(vals);
            if (!lst) goto done;
            PyList_SET_ITEM(qans, q, lst);
        }
    }
    if (want_tables) {
        tabs = PyList_New(nb + 1);
        if (!tabs) goto done;
        for (int m = 0; m <= nb; m++) {
            PyObject *cl = PyList_New((Py_ssize_t)nF[m]);
            PyObject *vl = PyList_New((Py_ssize_t)nF[m]);
            if (!cl || !vl) {
                Py_XDECREF(cl);
                Py_XDECREF(vl);
                goto done;
            }
            PyObject *pair = PyTuple_Pack(2, cl, vl);
            Py_DECREF(cl);
            Py_DECREF(vl);
            if (!pair) goto done;
            PyList_SET_ITEM(tabs, m, pair);
            for (size_t i = 0; i < nF[m]; i++) {
                PyObject *c = PyLong_FromUnsignedLongLong(F[m][i].code);
                PyObject *v = VAL_TO_PY(F[m][i].val);
                if (!c || !v) {
                    Py_XDECREF(c);
                    Py_XDECREF(v);
                    goto done;
                }
                PyList_SET_ITEM(cl, (Py_ssize_t)i, c);
                PyList_SET_ITEM(vl, (Py_ssize_t)i, v);
            }
        }
    }
    {
        PyObject *tot = VAL_TO_PY(total);
        if (!tot) goto done;
        if (want_tables)
            result = PyTuple_Pack(4, tot, bans, qans, tabs);
        else
            result = PyTuple_Pack(3, tot, bans, qans);
        Py_DECREF(tot);
    }
done:
    if (bufs)
        for (int i = 0; i < nbufs; i++) PyBuffer_Release(&bufs[i]);
    free(bufs);
    if (F)
        for (int m = 0; m <= nb; m++) free(F[m]);
    if (G)
        for (int m = 0; m <= nb; m++) free(G[m]);
    free(F);
    free(G);
    free(nF);
    free(nterms);
    free((void *)codes);
    free((void *)offs);
    free((void *)wts);
    free(acc);
    free(tcur);
    free(tnew);
    free(codeof);
    free(mark);
    free(touched);
    Py_XDECREF(bans);
    Py_XDECREF(qans);
    Py_XDECREF(tabs);
    Py_DECREF(blocks);
    Py_DECREF(queries);
    return result;
}

#endif
