/*
 * Kernels of the compact exact sum of the Go Fish draw engine
 * (cardmind.games.gofish.draws.compact): the forward pass, the backward pass and the context
 * sums over rows that each hold a box of capacity states. The numpy code in compact.py
 * (CompactSum with fast=False) is the reference; tests/test_gofish_compact.py checks that
 * both give the same numbers.
 *
 * A plan has rows (each a box: lowest corner lo[D], sides dim[D], row-major, at offset off in
 * a table of float64 cells), blocks (each a run of block rows: an increment inc[D] of the box
 * coordinates and a weight w) and transitions (src row, dst row, coefficient, block), in the
 * order of the stages. For a transition and a block row, every cell c of the src box whose
 * c + inc is in the dst box is a term coef * w * (cell c of src) -> (cell c + inc of dst).
 *
 * forward(F, off, lo, dim, src, dst, coef, blk, boff, bn, inc, w)
 *     in transition order: F[dst][c + inc] += coef * w * F[src][c]
 * backward(T, off, lo, dim, src, dst, coef, blk, boff, bn, inc, w)
 *     in reverse transition order: T[src][c] += coef * w * T[dst][c + inc]
 * context(F, T, off, lo, dim, src, dst, coef, blk, boff, bn, inc, w, slot, split, out)
 *     out[slot[t], j - boff[blk[t]], v] += coef * w * F[src][c] * T[dst][c + inc], where v is
 *     the absolute coordinate c[split[j]] when split[j] >= 0, else 0; out: (slots, X, V).
 *
 * Every argument is checked (shapes, types, indices, that every box lies inside the table)
 * before any cell is read or written: ValueError otherwise. The loops release the GIL.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAXD 16

typedef struct {
    Py_buffer b;
    int held;
} Buf;

static void release(Buf *x) {
    if (x->held) PyBuffer_Release(&x->b);
    x->held = 0;
}

static int get(PyObject *o, Buf *x, char kind, int ndim, int writable, const char *name) {
    x->held = 0;
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(o, &x->b, flags) < 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s: expected a C-contiguous%s array", name, writable ? " writable" : "");
        return -1;
    }
    x->held = 1;
    const char *f = x->b.format ? x->b.format : "B";
    if (*f == '<' || *f == '=' || *f == '@') f++;
    int ok;
    if (kind == 'f') ok = (f[0] == 'd' && f[1] == 0 && x->b.itemsize == 8);
    else ok = ((f[0] == 'l' || f[0] == 'q') && f[1] == 0 && x->b.itemsize == 8);
    if (!ok || x->b.ndim != ndim) {
        PyErr_Format(PyExc_ValueError, "%s: expected a %dD array of %s (got format %s, %dD)", name, ndim,
                     kind == 'f' ? "float64" : "int64", f, x->b.ndim);
        release(x);
        return -1;
    }
    return 0;
}

static Py_ssize_t len0(Buf *x) { return x->b.shape[0]; }

typedef struct {
    Buf tab, tab2, off, lo, dim, src, dst, coef, blk, boff, bn, inc, w, slot, split, out;
    Py_ssize_t D, rows, cells, ntr, nblk, nx;
    const int64_t *o_off, *o_lo, *o_dim, *o_src, *o_dst, *o_blk, *o_boff, *o_bn, *o_inc, *o_slot, *o_split;
    const double *o_coef, *o_w;
    Py_ssize_t nslot, X, V;
} Plan;

static void release_all(Plan *p) {
    release(&p->tab); release(&p->tab2); release(&p->off); release(&p->lo); release(&p->dim);
    release(&p->src); release(&p->dst); release(&p->coef); release(&p->blk); release(&p->boff);
    release(&p->bn); release(&p->inc); release(&p->w); release(&p->slot); release(&p->split); release(&p->out);
}

static int fail(Plan *p, const char *msg) {
    PyErr_SetString(PyExc_ValueError, msg);
    release_all(p);
    return -1;
}

/* check everything but tab/tab2/slot/split/out */
static int check_plan(Plan *p) {
    p->rows = len0(&p->off);
    if (p->lo.b.ndim != 2 || p->dim.b.ndim != 2 || p->lo.b.shape[0] != p->rows || p->dim.b.shape[0] != p->rows)
        return fail(p, "lo and dim must be (rows, D) like off");
    p->D = p->lo.b.shape[1];
    if (p->D < 1 || p->D > MAXD || p->dim.b.shape[1] != p->D) return fail(p, "D must be 1..16 and agree");
    p->o_off = p->off.b.buf; p->o_lo = p->lo.b.buf; p->o_dim = p->dim.b.buf;
    for (Py_ssize_t r = 0; r < p->rows; r++) {
        int64_t vol = 1;
        for (Py_ssize_t d = 0; d < p->D; d++) {
            int64_t s = p->o_dim[r * p->D + d];
            if (s < 1 || s > (1 << 20)) return fail(p, "a box side is out of range");
            vol *= s;
            if (vol > ((int64_t)1 << 40)) return fail(p, "a box is too large");
        }
        if (p->o_off[r] < 0 || p->o_off[r] + vol > p->cells) return fail(p, "a box lies outside the table");
    }
    p->ntr = len0(&p->src);
    if (len0(&p->dst) != p->ntr || len0(&p->coef) != p->ntr || len0(&p->blk) != p->ntr)
        return fail(p, "src, dst, coef and blk must have one entry per transition");
    p->o_src = p->src.b.buf; p->o_dst = p->dst.b.buf; p->o_coef = p->coef.b.buf; p->o_blk = p->blk.b.buf;
    p->nblk = len0(&p->boff);
    if (len0(&p->bn) != p->nblk) return fail(p, "boff and bn must have one entry per block");
    p->o_boff = p->boff.b.buf; p->o_bn = p->bn.b.buf;
    if (p->inc.b.ndim != 2 || p->inc.b.shape[1] != p->D) return fail(p, "inc must be (x rows, D)");
    p->nx = p->inc.b.shape[0];
    if (len0(&p->w) != p->nx) return fail(p, "w must have one entry per x row");
    p->o_inc = p->inc.b.buf; p->o_w = p->w.b.buf;
    for (Py_ssize_t b = 0; b < p->nblk; b++)
        if (p->o_boff[b] < 0 || p->o_bn[b] < 0 || p->o_boff[b] + p->o_bn[b] > p->nx)
            return fail(p, "a block's rows lie outside inc");
    for (Py_ssize_t t = 0; t < p->ntr; t++) {
        if (p->o_src[t] < 0 || p->o_src[t] >= p->rows || p->o_dst[t] < 0 || p->o_dst[t] >= p->rows)
            return fail(p, "a transition's row is out of range");
        if (p->o_blk[t] < 0 || p->o_blk[t] >= p->nblk) return fail(p, "a transition's block is out of range");
    }
    return 0;
}

/*
 * The cells of one (transition, block row) pair. mode 0: forward, 1: backward, 2: context.
 * Boxes of 2 and 3 dimensions (3 and 4 players) take unrolled paths; others the general one.
 */
static inline void span(int64_t sh, int64_t sd, int64_t dd, int64_t *a, int64_t *b) {
    /* local coordinates u of the src box (0..sd-1) with u + sh inside the dst box (0..dd-1) */
    *a = sh < 0 ? -sh : 0;
    *b = sd - 1 < dd - 1 - sh ? sd - 1 : dd - 1 - sh;
}

static void pair(const Plan *p, int mode, double *A, double *B, int64_t s, int64_t t, const int64_t *inc,
                 double wt, double *acc, int64_t split) {
    const Py_ssize_t D = p->D;
    const int64_t *slo = p->o_lo + s * D, *sdim = p->o_dim + s * D;
    const int64_t *dlo = p->o_lo + t * D, *ddim = p->o_dim + t * D;
    double *S0 = A + p->o_off[s];
    double *T0 = B + p->o_off[t];
    if (D == 2 && (mode != 2 || split < 0)) {
        int64_t sh0 = slo[0] + inc[0] - dlo[0], sh1 = slo[1] + inc[1] - dlo[1], a0, b0, a1, b1;
        span(sh0, sdim[0], ddim[0], &a0, &b0);
        span(sh1, sdim[1], ddim[1], &a1, &b1);
        if (a0 > b0 || a1 > b1) return;
        const int64_t n = b1 - a1 + 1, ss = sdim[1], ds = ddim[1];
        double sum = 0.0;
        for (int64_t u0 = a0; u0 <= b0; u0++) {
            double *x = S0 + u0 * ss + a1, *y = T0 + (u0 + sh0) * ds + a1 + sh1;
            if (mode == 0) for (int64_t k = 0; k < n; k++) y[k] += wt * x[k];
            else if (mode == 1) for (int64_t k = 0; k < n; k++) x[k] += wt * y[k];
            else for (int64_t k = 0; k < n; k++) sum += x[k] * y[k];
        }
        if (mode == 2) acc[0] += wt * sum;
        return;
    }
    if (D == 3 && (mode != 2 || split < 0)) {
        int64_t sh0 = slo[0] + inc[0] - dlo[0], sh1 = slo[1] + inc[1] - dlo[1], sh2 = slo[2] + inc[2] - dlo[2];
        int64_t a0, b0, a1, b1, a2, b2;
        span(sh0, sdim[0], ddim[0], &a0, &b0);
        span(sh1, sdim[1], ddim[1], &a1, &b1);
        span(sh2, sdim[2], ddim[2], &a2, &b2);
        if (a0 > b0 || a1 > b1 || a2 > b2) return;
        const int64_t n = b2 - a2 + 1, s2 = sdim[2], s1 = sdim[1] * s2, d2 = ddim[2], d1 = ddim[1] * d2;
        double sum = 0.0;
        for (int64_t u0 = a0; u0 <= b0; u0++)
            for (int64_t u1 = a1; u1 <= b1; u1++) {
                double *x = S0 + u0 * s1 + u1 * s2 + a2;
                double *y = T0 + (u0 + sh0) * d1 + (u1 + sh1) * d2 + a2 + sh2;
                if (mode == 0) for (int64_t k = 0; k < n; k++) y[k] += wt * x[k];
                else if (mode == 1) for (int64_t k = 0; k < n; k++) x[k] += wt * y[k];
                else for (int64_t k = 0; k < n; k++) sum += x[k] * y[k];
            }
        if (mode == 2) acc[0] += wt * sum;
        return;
    }
    if ((D == 4 || D == 5) && (mode != 2 || split < 0)) {
        /* the first D - 3 dimensions looped, the last three as in D == 3 */
        int64_t sh[5], a[5], b[5], ss[5], ds[5];
        for (Py_ssize_t d = 0; d < D; d++) {
            sh[d] = slo[d] + inc[d] - dlo[d];
            span(sh[d], sdim[d], ddim[d], &a[d], &b[d]);
            if (a[d] > b[d]) return;
        }
        ss[D - 1] = 1;
        ds[D - 1] = 1;
        for (Py_ssize_t d = D - 2; d >= 0; d--) {
            ss[d] = ss[d + 1] * sdim[d + 1];
            ds[d] = ds[d + 1] * ddim[d + 1];
        }
        const Py_ssize_t L = D - 1;
        const int64_t n = b[L] - a[L] + 1;
        double sum = 0.0;
        int64_t u0 = a[0], u1 = a[1];
        for (;;) {
            int64_t sb = u0 * ss[0], db = (u0 + sh[0]) * ds[0];
            if (D == 5) {
                sb += u1 * ss[1];
                db += (u1 + sh[1]) * ds[1];
            }
            for (int64_t v = a[L - 2]; v <= b[L - 2]; v++)
                for (int64_t w2 = a[L - 1]; w2 <= b[L - 1]; w2++) {
                    double *x = S0 + sb + v * ss[L - 2] + w2 * ss[L - 1] + a[L];
                    double *y = T0 + db + (v + sh[L - 2]) * ds[L - 2] + (w2 + sh[L - 1]) * ds[L - 1] + a[L] + sh[L];
                    if (mode == 0) for (int64_t k = 0; k < n; k++) y[k] += wt * x[k];
                    else if (mode == 1) for (int64_t k = 0; k < n; k++) x[k] += wt * y[k];
                    else for (int64_t k = 0; k < n; k++) sum += x[k] * y[k];
                }
            if (D == 5) {
                if (++u1 <= b[1]) continue;
                u1 = a[1];
            }
            if (++u0 > b[0]) break;
        }
        if (mode == 2) acc[0] += wt * sum;
        return;
    }
    int64_t a[MAXD], bnd[MAXD], ss[MAXD], ds[MAXD], shift[MAXD];
    for (Py_ssize_t d = 0; d < D; d++) {
        shift[d] = slo[d] + inc[d] - dlo[d];
        span(shift[d], sdim[d], ddim[d], &a[d], &bnd[d]);
        if (a[d] > bnd[d]) return;
    }
    ss[D - 1] = 1;
    ds[D - 1] = 1;
    for (Py_ssize_t d = D - 2; d >= 0; d--) {
        ss[d] = ss[d + 1] * sdim[d + 1];
        ds[d] = ds[d + 1] * ddim[d + 1];
    }
    int64_t u[MAXD];
    for (Py_ssize_t d = 0; d < D; d++) u[d] = a[d];
    const int64_t n_in = bnd[D - 1] - a[D - 1] + 1;
    const int64_t sh_in = shift[D - 1];
    for (;;) {
        int64_t si = 0, di = 0;
        for (Py_ssize_t d = 0; d < D - 1; d++) {
            si += u[d] * ss[d];
            di += (u[d] + shift[d]) * ds[d];
        }
        si += a[D - 1];
        di += a[D - 1] + sh_in;
        double *x = S0 + si, *y = T0 + di;
        if (mode == 0) {
            for (int64_t k = 0; k < n_in; k++) y[k] += wt * x[k];
        } else if (mode == 1) {
            for (int64_t k = 0; k < n_in; k++) x[k] += wt * y[k];
        } else {
            if (split < 0) {
                double sum = 0.0;
                for (int64_t k = 0; k < n_in; k++) sum += x[k] * y[k];
                acc[0] += wt * sum;
            } else if (split == D - 1) {
                for (int64_t k = 0; k < n_in; k++) acc[slo[D - 1] + a[D - 1] + k] += wt * x[k] * y[k];
            } else {
                double sum = 0.0;
                for (int64_t k = 0; k < n_in; k++) sum += x[k] * y[k];
                acc[slo[split] + u[split]] += wt * sum;
            }
        }
        /* odometer over the outer dimensions */
        Py_ssize_t d = D - 2;
        while (d >= 0) {
            if (++u[d] <= bnd[d]) break;
            u[d] = a[d];
            d--;
        }
        if (d < 0) break;
    }
}

static int parse_common(PyObject *const *args, Plan *p, int first, int table_writable) {
    (void)table_writable;
    if (get(args[first + 0], &p->off, 'i', 1, 0, "off") || get(args[first + 1], &p->lo, 'i', 2, 0, "lo") ||
        get(args[first + 2], &p->dim, 'i', 2, 0, "dim") || get(args[first + 3], &p->src, 'i', 1, 0, "src") ||
        get(args[first + 4], &p->dst, 'i', 1, 0, "dst") || get(args[first + 5], &p->coef, 'f', 1, 0, "coef") ||
        get(args[first + 6], &p->blk, 'i', 1, 0, "blk") || get(args[first + 7], &p->boff, 'i', 1, 0, "boff") ||
        get(args[first + 8], &p->bn, 'i', 1, 0, "bn") || get(args[first + 9], &p->inc, 'i', 2, 0, "inc") ||
        get(args[first + 10], &p->w, 'f', 1, 0, "w")) {
        release_all(p);
        return -1;
    }
    return check_plan(p);
}

static PyObject *run_pass(PyObject *const *args, Py_ssize_t nargs, int mode) {
    Plan p;
    memset(&p, 0, sizeof p);
    if (nargs != 12) {
        PyErr_SetString(PyExc_TypeError, "expected 12 arguments");
        return NULL;
    }
    if (get(args[0], &p.tab, 'f', 1, 1, mode == 0 ? "F" : "T")) return NULL;
    p.cells = len0(&p.tab);
    if (parse_common(args, &p, 1, 1)) return NULL;
    double *tab = p.tab.b.buf;
    Py_BEGIN_ALLOW_THREADS
    if (mode == 0) {
        for (Py_ssize_t t = 0; t < p.ntr; t++) {
            int64_t b = p.o_blk[t];
            for (int64_t j = p.o_boff[b]; j < p.o_boff[b] + p.o_bn[b]; j++)
                pair(&p, 0, tab, tab, p.o_src[t], p.o_dst[t], p.o_inc + j * p.D, p.o_coef[t] * p.o_w[j], NULL, -1);
        }
    } else {
        for (Py_ssize_t t = p.ntr - 1; t >= 0; t--) {
            int64_t b = p.o_blk[t];
            for (int64_t j = p.o_boff[b]; j < p.o_boff[b] + p.o_bn[b]; j++)
                pair(&p, 1, tab, tab, p.o_src[t], p.o_dst[t], p.o_inc + j * p.D, p.o_coef[t] * p.o_w[j], NULL, -1);
        }
    }
    Py_END_ALLOW_THREADS
    release_all(&p);
    Py_RETURN_NONE;
}

static PyObject *py_forward(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    return run_pass(args, nargs, 0);
}

static PyObject *py_backward(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    return run_pass(args, nargs, 1);
}

static PyObject *py_context(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    Plan p;
    memset(&p, 0, sizeof p);
    if (nargs != 16) {
        PyErr_SetString(PyExc_TypeError, "expected 16 arguments");
        return NULL;
    }
    if (get(args[0], &p.tab, 'f', 1, 0, "F")) return NULL;
    if (get(args[1], &p.tab2, 'f', 1, 0, "T")) {
        release_all(&p);
        return NULL;
    }
    p.cells = len0(&p.tab);
    if (len0(&p.tab2) != p.cells) {
        fail(&p, "F and T must have the same length");
        return NULL;
    }
    if (parse_common(args, &p, 2, 0)) return NULL;
    if (get(args[13], &p.slot, 'i', 1, 0, "slot") || get(args[14], &p.split, 'i', 1, 0, "split") ||
        get(args[15], &p.out, 'f', 3, 1, "out")) {
        release_all(&p);
        return NULL;
    }
    if (len0(&p.slot) != p.ntr) {
        fail(&p, "slot must have one entry per transition");
        return NULL;
    }
    if (len0(&p.split) != p.nx) {
        fail(&p, "split must have one entry per x row");
        return NULL;
    }
    p.nslot = p.out.b.shape[0];
    p.X = p.out.b.shape[1];
    p.V = p.out.b.shape[2];
    p.o_slot = p.slot.b.buf;
    p.o_split = p.split.b.buf;
    for (Py_ssize_t t = 0; t < p.ntr; t++)
        if (p.o_slot[t] < 0 || p.o_slot[t] >= p.nslot) {
            fail(&p, "a transition's slot is out of range");
            return NULL;
        }
    for (Py_ssize_t b = 0; b < p.nblk; b++)
        if (p.o_bn[b] > p.X) {
            fail(&p, "out has fewer x rows than a block");
            return NULL;
        }
    for (Py_ssize_t j = 0; j < p.nx; j++) {
        if (p.o_split[j] >= p.D) {
            fail(&p, "a split dimension is out of range");
            return NULL;
        }
    }
    /* a split coordinate must fit V in every box it is read from */
    for (Py_ssize_t t = 0; t < p.ntr; t++) {
        int64_t b = p.o_blk[t], s = p.o_src[t];
        for (int64_t j = p.o_boff[b]; j < p.o_boff[b] + p.o_bn[b]; j++) {
            int64_t d = p.o_split[j];
            if (d >= 0 && (p.o_lo[s * p.D + d] < 0 || p.o_lo[s * p.D + d] + p.o_dim[s * p.D + d] > p.V)) {
                fail(&p, "a split coordinate does not fit out");
                return NULL;
            }
        }
    }
    double *F = p.tab.b.buf, *T = p.tab2.b.buf, *out = p.out.b.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t t = 0; t < p.ntr; t++) {
        int64_t b = p.o_blk[t];
        for (int64_t j = p.o_boff[b]; j < p.o_boff[b] + p.o_bn[b]; j++) {
            double *acc = out + (p.o_slot[t] * p.X + (j - p.o_boff[b])) * p.V;
            pair(&p, 2, F, T, p.o_src[t], p.o_dst[t], p.o_inc + j * p.D, p.o_coef[t] * p.o_w[j], acc, p.o_split[j]);
        }
    }
    Py_END_ALLOW_THREADS
    release_all(&p);
    Py_RETURN_NONE;
}

/*
 * expand(rows, P, size, mv_off, mv_cls, mv_val, mv_code, chk_mult, chk_rad, chk_req,
 *        src_out, mv_out, code_out) -> count
 *     The planner's forward step (compact.plan_compact): for every row (counts of taken
 *     draws per class, rows: (n, C)) and every move (mv_off: (M + 1) offsets into mv_cls and
 *     mv_val, the classes it takes draws from and how many), the move is valid when
 *     rows[i, c] + v <= size[c] for each of its classes; the new row's code is
 *     P[i] + mv_code[m], kept when every check q holds: (code / chk_mult[q]) % chk_rad[q] ==
 *     chk_req[q]. With empty outputs only counts; else writes (i, m, code) of the first
 *     len(src_out) kept pairs. Returns the number of kept pairs.
 */
static PyObject *py_expand(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    Buf b[13];
    const char *names[13] = {"rows", "P", "size", "mv_off", "mv_cls", "mv_val", "mv_code", "chk_mult",
                             "chk_rad", "chk_req", "src_out", "mv_out", "code_out"};
    int nd[13] = {2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    int wr[13] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1};
    if (nargs != 13) {
        PyErr_SetString(PyExc_TypeError, "expand expects 13 arguments");
        return NULL;
    }
    int got = 0;
    for (; got < 13; got++)
        if (get(args[got], &b[got], 'i', nd[got], wr[got], names[got])) break;
    if (got < 13) {
        for (int i = 0; i < got; i++) release(&b[i]);
        return NULL;
    }
    const int64_t *rows = b[0].b.buf, *P = b[1].b.buf, *size = b[2].b.buf, *off = b[3].b.buf;
    const int64_t *cls = b[4].b.buf, *val = b[5].b.buf, *dcode = b[6].b.buf;
    const int64_t *cm = b[7].b.buf, *cr = b[8].b.buf, *cq = b[9].b.buf;
    int64_t *so = b[10].b.buf, *mo = b[11].b.buf, *co = b[12].b.buf;
    Py_ssize_t n = b[0].b.shape[0], C = b[0].b.shape[1], M = len0(&b[6]), Q = len0(&b[7]);
    Py_ssize_t cap = len0(&b[10]), ncls = len0(&b[4]);
    const char *err = NULL;
    if (len0(&b[1]) != n) err = "P must have one entry per row";
    else if (len0(&b[2]) != C) err = "size must have one entry per class";
    else if (len0(&b[3]) != M + 1) err = "mv_off must have M + 1 entries";
    else if (len0(&b[5]) != ncls) err = "mv_cls and mv_val must have the same length";
    else if (len0(&b[8]) != Q || len0(&b[9]) != Q) err = "the checks must have the same length";
    else if (len0(&b[11]) != cap || len0(&b[12]) != cap) err = "the outputs must have the same length";
    if (!err) {
        for (Py_ssize_t m = 0; m < M && !err; m++)
            if (off[m] < 0 || off[m] > off[m + 1] || off[m + 1] > ncls) err = "mv_off is out of range";
        for (Py_ssize_t i = 0; i < ncls && !err; i++)
            if (cls[i] < 0 || cls[i] >= C) err = "a move's class is out of range";
        for (Py_ssize_t q = 0; q < Q && !err; q++)
            if (cm[q] < 1 || cr[q] < 1) err = "a check's radix is out of range";
    }
    if (err) {
        PyErr_SetString(PyExc_ValueError, err);
        for (int i = 0; i < 13; i++) release(&b[i]);
        return NULL;
    }
    Py_ssize_t count = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        const int64_t *row = rows + i * C;
        for (Py_ssize_t m = 0; m < M; m++) {
            int ok = 1;
            for (int64_t a = off[m]; a < off[m + 1]; a++)
                if (row[cls[a]] + val[a] > size[cls[a]]) {
                    ok = 0;
                    break;
                }
            if (!ok) continue;
            int64_t code = P[i] + dcode[m];
            for (Py_ssize_t q = 0; q < Q; q++)
                if ((code / cm[q]) % cr[q] != cq[q]) {
                    ok = 0;
                    break;
                }
            if (!ok) continue;
            if (count < cap) {
                so[count] = i;
                mo[count] = m;
                co[count] = code;
            }
            count++;
        }
    }
    Py_END_ALLOW_THREADS
    for (int i = 0; i < 13; i++) release(&b[i]);
    return PyLong_FromSsize_t(count);
}

/*
 * boxes(stage_start, src, dst, blk, blo, bhi, caps, term_lo, term_hi, live, lo, hi) -> rounds
 *     The planner's capacity boxes (compact.plan_compact). Rows are numbered across the
 *     stages (stage_start: (R + 2) offsets of every stage's rows); edges (src, dst, blk) go
 *     from a row of stage i to a row of stage i + 1, in stage order. The forward reach of a
 *     row is the union of [lo + blo, hi + bhi] over the live edges into it (the first
 *     stage's rows start at 0), the backward reach of a row the union of [lo - bhi,
 *     hi - blo] over the live edges out of it (the last stage's rows start at the
 *     terminal box); a row's box is the intersection of the two, clipped to [0, caps]. A
 *     row with an empty box, or with no live edge in (after the first stage) or out (before
 *     the last), is dead; repeated until nothing changes (at most 8 rounds). live (uint8
 *     per row), lo and hi ((rows, D) int64) are written. Returns the rounds made.
 */
static PyObject *py_boxes(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    Buf b[12];
    const char *names[12] = {"stage_start", "src", "dst", "blk", "blo", "bhi", "caps", "term_lo", "term_hi",
                             "live", "lo", "hi"};
    int nd[12] = {1, 1, 1, 1, 2, 2, 1, 1, 1, 1, 2, 2};
    int wr[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1};
    if (nargs != 12) {
        PyErr_SetString(PyExc_TypeError, "boxes expects 12 arguments");
        return NULL;
    }
    int got = 0;
    for (; got < 12; got++)
        if (get(args[got], &b[got], 'i', nd[got], wr[got], names[got])) break;
    if (got < 12) {
        for (int i = 0; i < got; i++) release(&b[i]);
        return NULL;
    }
    const int64_t *ss = b[0].b.buf, *src = b[1].b.buf, *dst = b[2].b.buf, *blk = b[3].b.buf;
    const int64_t *blo = b[4].b.buf, *bhi = b[5].b.buf, *caps = b[6].b.buf, *tlo_ = b[7].b.buf, *thi_ = b[8].b.buf;
    int64_t *live = b[9].b.buf, *lo = b[10].b.buf, *hi = b[11].b.buf;
    Py_ssize_t S1 = len0(&b[0]), E = len0(&b[1]), NB = b[4].b.shape[0], D = b[4].b.shape[1];
    Py_ssize_t N = len0(&b[9]);
    const char *err = NULL;
    if (S1 < 2 || ss[0] != 0 || ss[S1 - 1] != N) err = "stage_start must run from 0 to the number of rows";
    else if (len0(&b[2]) != E || len0(&b[3]) != E) err = "src, dst and blk must have the same length";
    else if (b[5].b.shape[0] != NB || b[5].b.shape[1] != D) err = "blo and bhi must have the same shape";
    else if (len0(&b[6]) != D || len0(&b[7]) != D || len0(&b[8]) != D) err = "caps and the terminal box need D entries";
    else if (b[10].b.shape[0] != N || b[10].b.shape[1] != D || b[11].b.shape[0] != N || b[11].b.shape[1] != D)
        err = "lo and hi must be (rows, D)";
    else if (D > MAXD) err = "too many dimensions";
    for (Py_ssize_t i = 1; i < S1 && !err; i++)
        if (ss[i] < ss[i - 1]) err = "stage_start must not decrease";
    for (Py_ssize_t e = 0; e < E && !err; e++)
        if (src[e] < 0 || src[e] >= N || dst[e] < 0 || dst[e] >= N || blk[e] < 0 || blk[e] >= NB)
            err = "an edge is out of range";
    if (err) {
        PyErr_SetString(PyExc_ValueError, err);
        for (int i = 0; i < 12; i++) release(&b[i]);
        return NULL;
    }
    int64_t *flo = malloc(sizeof(int64_t) * N * D), *fhi = malloc(sizeof(int64_t) * N * D);
    int64_t *tlo = malloc(sizeof(int64_t) * N * D), *thi = malloc(sizeof(int64_t) * N * D);
    char *hasin = malloc(N), *hasout = malloc(N);
    if (!flo || !fhi || !tlo || !thi || !hasin || !hasout) {
        free(flo); free(fhi); free(tlo); free(thi); free(hasin); free(hasout);
        for (int i = 0; i < 12; i++) release(&b[i]);
        return PyErr_NoMemory();
    }
    const int64_t BIG = (int64_t)1 << 40;
    int rounds = 0;
    Py_BEGIN_ALLOW_THREADS
    for (;;) {
        rounds++;
        for (Py_ssize_t r = 0; r < N * D; r++) {
            flo[r] = BIG; fhi[r] = -1; tlo[r] = BIG; thi[r] = -1;
        }
        for (Py_ssize_t r = ss[0]; r < ss[1]; r++)
            if (live[r])
                for (Py_ssize_t d = 0; d < D; d++) { flo[r * D + d] = 0; fhi[r * D + d] = 0; }
        for (Py_ssize_t r = ss[S1 - 2]; r < ss[S1 - 1]; r++)
            if (live[r])
                for (Py_ssize_t d = 0; d < D; d++) { tlo[r * D + d] = tlo_[d]; thi[r * D + d] = thi_[d]; }
        for (Py_ssize_t e = 0; e < E; e++) {
            int64_t s = src[e], t = dst[e], k = blk[e];
            if (!live[s] || !live[t] || fhi[s * D] < 0) continue;
            for (Py_ssize_t d = 0; d < D; d++) {
                int64_t a = flo[s * D + d] + blo[k * D + d], c = fhi[s * D + d] + bhi[k * D + d];
                if (c > caps[d]) c = caps[d];
                if (a < flo[t * D + d]) flo[t * D + d] = a;
                if (c > fhi[t * D + d]) fhi[t * D + d] = c;
            }
        }
        for (Py_ssize_t e = E - 1; e >= 0; e--) {
            int64_t s = src[e], t = dst[e], k = blk[e];
            if (!live[s] || !live[t] || thi[t * D] < 0) continue;
            for (Py_ssize_t d = 0; d < D; d++) {
                int64_t a = tlo[t * D + d] - bhi[k * D + d], c = thi[t * D + d] - blo[k * D + d];
                if (a < 0) a = 0;
                if (a < tlo[s * D + d]) tlo[s * D + d] = a;
                if (c > thi[s * D + d]) thi[s * D + d] = c;
            }
        }
        int changed = 0;
        for (Py_ssize_t r = 0; r < N; r++) {
            hasin[r] = 0;
            hasout[r] = 0;
            if (!live[r]) continue;
            for (Py_ssize_t d = 0; d < D; d++) {
                int64_t a = flo[r * D + d] > tlo[r * D + d] ? flo[r * D + d] : tlo[r * D + d];
                int64_t c = fhi[r * D + d] < thi[r * D + d] ? fhi[r * D + d] : thi[r * D + d];
                if (c > caps[d]) c = caps[d];
                if (a < 0) a = 0;
                lo[r * D + d] = a;
                hi[r * D + d] = c;
                if (c < a) {
                    live[r] = 0;
                    changed = 1;
                    break;
                }
            }
        }
        for (Py_ssize_t e = 0; e < E; e++)
            if (live[src[e]] && live[dst[e]]) {
                hasout[src[e]] = 1;
                hasin[dst[e]] = 1;
            }
        for (Py_ssize_t r = 0; r < N; r++) {
            if (!live[r]) continue;
            if ((r >= ss[1] && !hasin[r]) || (r < ss[S1 - 2] && !hasout[r])) {
                live[r] = 0;
                changed = 1;
            }
        }
        if (!changed || rounds >= 8) break;
    }
    Py_END_ALLOW_THREADS
    free(flo); free(fhi); free(tlo); free(thi); free(hasin); free(hasout);
    for (int i = 0; i < 12; i++) release(&b[i]);
    return PyLong_FromLong(rounds);
}

/*
 * sample(F, off, lo, dim, src, dst, coef, blk, boff, bn, inc, w, in_off, in_tr, start, cell0, u, out_tr, out_x)
 *     Backward sampling through the forward table F of a plan (compact.CompactSum.sample):
 *     world k starts in the final row at the local cell cell0[k]; at each step, among the
 *     transitions into the current row (in_tr[in_off[row]:in_off[row + 1]]) and their block
 *     rows j whose source cell (the current cell minus inc[j]) is in the source row's box,
 *     one is chosen with probability proportional to F[source cell] * coef * w[j], using
 *     the uniform u[k, step]; then the walk moves to that source cell, until the row
 *     start. out_tr[k, step] and out_x[k, step] get the transition and block row chosen
 *     (-1 after the walk ends). Raises ValueError on bad input or a walk with no way back.
 */
static PyObject *py_sample(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    Plan p;
    memset(&p, 0, sizeof p);
    Buf ioff, itr, cell0, uu, otr, ox;
    ioff.held = itr.held = cell0.held = uu.held = otr.held = ox.held = 0;
    if (nargs != 19) {
        PyErr_SetString(PyExc_TypeError, "sample expects 19 arguments");
        return NULL;
    }
    if (get(args[0], &p.tab, 'f', 1, 0, "F")) return NULL;
    p.cells = len0(&p.tab);
    if (parse_common(args, &p, 1, 0)) return NULL;
    long long start = PyLong_AsLongLong(args[14]);
    if (start == -1 && PyErr_Occurred()) {
        release_all(&p);
        return NULL;
    }
    const char *err = NULL;
    if (get(args[12], &ioff, 'i', 1, 0, "in_off") || get(args[13], &itr, 'i', 1, 0, "in_tr") ||
        get(args[15], &cell0, 'i', 1, 0, "cell0") || get(args[16], &uu, 'f', 2, 0, "u") ||
        get(args[17], &otr, 'i', 2, 1, "out_tr") || get(args[18], &ox, 'i', 2, 1, "out_x")) {
        release(&ioff); release(&itr); release(&cell0); release(&uu); release(&otr); release(&ox);
        release_all(&p);
        return NULL;
    }
    const int64_t *io = ioff.b.buf, *it = itr.b.buf, *c0 = cell0.b.buf;
    const double *U = uu.b.buf;
    int64_t *OT = otr.b.buf, *OX = ox.b.buf;
    Py_ssize_t n = len0(&cell0), steps = uu.b.shape[1], ni = len0(&itr);
    if (len0(&ioff) != p.rows + 1) err = "in_off must have rows + 1 entries";
    else if (uu.b.shape[0] != n || otr.b.shape[0] != n || ox.b.shape[0] != n || otr.b.shape[1] != steps ||
             ox.b.shape[1] != steps) err = "u, out_tr and out_x must be (worlds, steps)";
    else if (start < 0 || start >= p.rows) err = "start is out of range";
    for (Py_ssize_t r = 0; r <= p.rows && !err; r++)
        if (io[r] < 0 || io[r] > ni || (r && io[r] < io[r - 1])) err = "in_off is out of range";
    for (Py_ssize_t i = 0; i < ni && !err; i++)
        if (it[i] < 0 || it[i] >= p.ntr) err = "in_tr is out of range";
    if (err) {
        PyErr_SetString(PyExc_ValueError, err);
        release(&ioff); release(&itr); release(&cell0); release(&uu); release(&otr); release(&ox);
        release_all(&p);
        return NULL;
    }
    const double *F = p.tab.b.buf;
    const Py_ssize_t D = p.D;
    const int64_t *lo = p.o_lo, *dm = p.o_dim;
    /* the final row: the row with no transition out that the plan's last transitions go to */
    int64_t final = p.ntr ? p.o_dst[p.ntr - 1] : start;
    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t k = 0; k < n && !failed; k++) {
        int64_t row = final, c[MAXD], cc[MAXD];
        /* local index -> absolute coordinates */
        int64_t idx = c0[k];
        int64_t vol = 1;
        for (Py_ssize_t d = 0; d < D; d++) vol *= dm[row * D + d];
        if (idx < 0 || idx >= vol) { failed = 1; break; }
        for (Py_ssize_t d = D - 1; d >= 0; d--) {
            c[d] = lo[row * D + d] + idx % dm[row * D + d];
            idx /= dm[row * D + d];
        }
        for (Py_ssize_t st = 0; st < steps; st++) {
            OT[k * steps + st] = -1;
            OX[k * steps + st] = -1;
        }
        for (Py_ssize_t st = 0; row != start; st++) {
            if (st >= steps) { failed = 2; break; }
            double total = 0.0;
            for (int pass = 0; pass < 2; pass++) {
                double goal = U[k * steps + st] * total, acc = 0.0;
                int chosen = 0;
                for (int64_t a = io[row]; a < io[row + 1] && !chosen; a++) {
                    int64_t t = it[a], s = p.o_src[t], b = p.o_blk[t];
                    for (int64_t j = p.o_boff[b]; j < p.o_boff[b] + p.o_bn[b]; j++) {
                        int64_t li = 0, ok = 1;
                        for (Py_ssize_t d = 0; d < D; d++) {
                            int64_t v = c[d] - p.o_inc[j * D + d] - lo[s * D + d];
                            if (v < 0 || v >= dm[s * D + d]) { ok = 0; break; }
                            li = li * dm[s * D + d] + v;
                        }
                        if (!ok) continue;
                        double x = F[p.o_off[s] + li] * p.o_coef[t] * p.o_w[j];
                        if (!(x > 0)) continue;
                        if (pass == 0) {
                            total += x;
                        } else {
                            acc += x;
                            if (acc >= goal) {
                                OT[k * steps + st] = t;
                                OX[k * steps + st] = j;
                                for (Py_ssize_t d = 0; d < D; d++) cc[d] = c[d] - p.o_inc[j * D + d];
                                row = s;
                                for (Py_ssize_t d = 0; d < D; d++) c[d] = cc[d];
                                chosen = 1;
                                break;
                            }
                        }
                    }
                }
                if (pass == 0 && !(total > 0)) { failed = 3; break; }
                if (pass == 1 && !chosen) { failed = 3; break; }
            }
            if (failed) break;
        }
    }
    Py_END_ALLOW_THREADS
    release(&ioff); release(&itr); release(&cell0); release(&uu); release(&otr); release(&ox);
    release_all(&p);
    if (failed) {
        PyErr_SetString(PyExc_ValueError, "a world's walk found no way back to the start (bad table or start cell)");
        return NULL;
    }
    Py_RETURN_NONE;
}

/* growable int64 buffer */
typedef struct {
    int64_t *v;
    Py_ssize_t n, cap;
} Vec;

static int vpush(Vec *x, int64_t a) {
    if (x->n == x->cap) {
        Py_ssize_t nc = x->cap ? 2 * x->cap : 1024;
        int64_t *nv = realloc(x->v, sizeof(int64_t) * nc);
        if (!nv) return -1;
        x->v = nv;
        x->cap = nc;
    }
    x->v[x->n++] = a;
    return 0;
}

/* open-addressing hash set of codes (>= 0) -> their index of first appearance */
typedef struct {
    int64_t *key, *val;
    Py_ssize_t size, used;
} Hash;

static uint64_t mix(uint64_t x) {
    x ^= x >> 33; x *= 0xff51afd7ed558ccdULL; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ULL; x ^= x >> 33;
    return x;
}

static int hinit(Hash *h, Py_ssize_t size) {
    h->size = size;
    h->used = 0;
    h->key = malloc(sizeof(int64_t) * size);
    h->val = malloc(sizeof(int64_t) * size);
    if (!h->key || !h->val) return -1;
    for (Py_ssize_t i = 0; i < size; i++) h->key[i] = -1;
    return 0;
}

/* the index of code (new ones numbered in order: *next); -1 on memory failure */
static int64_t hget(Hash *h, int64_t code, int64_t *next) {
    if (2 * (h->used + 1) > h->size) {
        Hash g;
        if (hinit(&g, 2 * h->size)) { free(g.key); free(g.val); return -1; }
        for (Py_ssize_t i = 0; i < h->size; i++)
            if (h->key[i] >= 0) {
                Py_ssize_t j = mix(h->key[i]) & (g.size - 1);
                while (g.key[j] >= 0) j = (j + 1) & (g.size - 1);
                g.key[j] = h->key[i];
                g.val[j] = h->val[i];
            }
        g.used = h->used;
        free(h->key); free(h->val);
        *h = g;
    }
    Py_ssize_t j = mix(code) & (h->size - 1);
    while (h->key[j] >= 0) {
        if (h->key[j] == code) return h->val[j];
        j = (j + 1) & (h->size - 1);
    }
    h->key[j] = code;
    h->val[j] = (*next)++;
    h->used++;
    return h->val[j];
}

/*
 * expand_dedup(rows, P, size, mv_off, mv_cls, mv_val, mv_code, chk_mult, chk_rad, chk_req)
 *     -> (src, mv, dst, codes) as bytes of int64: expand() with the new rows numbered in the
 *     order they first appear (codes: the distinct new codes in that order; dst: the number
 *     of each pair's new row), in one pass.
 */
static PyObject *py_expand_dedup(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    Buf b[10];
    const char *names[10] = {"rows", "P", "size", "mv_off", "mv_cls", "mv_val", "mv_code", "chk_mult",
                             "chk_rad", "chk_req"};
    int nd[10] = {2, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    if (nargs != 10) {
        PyErr_SetString(PyExc_TypeError, "expand_dedup expects 10 arguments");
        return NULL;
    }
    int got = 0;
    for (; got < 10; got++)
        if (get(args[got], &b[got], 'i', nd[got], 0, names[got])) break;
    if (got < 10) {
        for (int i = 0; i < got; i++) release(&b[i]);
        return NULL;
    }
    const int64_t *rows = b[0].b.buf, *P = b[1].b.buf, *size = b[2].b.buf, *off = b[3].b.buf;
    const int64_t *cls = b[4].b.buf, *val = b[5].b.buf, *dcode = b[6].b.buf;
    const int64_t *cm = b[7].b.buf, *cr = b[8].b.buf, *cq = b[9].b.buf;
    Py_ssize_t n = b[0].b.shape[0], C = b[0].b.shape[1], M = len0(&b[6]), Q = len0(&b[7]), ncls = len0(&b[4]);
    const char *err = NULL;
    if (len0(&b[1]) != n) err = "P must have one entry per row";
    else if (len0(&b[2]) != C) err = "size must have one entry per class";
    else if (len0(&b[3]) != M + 1) err = "mv_off must have M + 1 entries";
    else if (len0(&b[5]) != ncls) err = "mv_cls and mv_val must have the same length";
    else if (len0(&b[8]) != Q || len0(&b[9]) != Q) err = "the checks must have the same length";
    if (!err) {
        for (Py_ssize_t m = 0; m < M && !err; m++)
            if (off[m] < 0 || off[m] > off[m + 1] || off[m + 1] > ncls) err = "mv_off is out of range";
        for (Py_ssize_t i = 0; i < ncls && !err; i++)
            if (cls[i] < 0 || cls[i] >= C) err = "a move's class is out of range";
        for (Py_ssize_t q = 0; q < Q && !err; q++)
            if (cm[q] < 1 || cr[q] < 1) err = "a check's radix is out of range";
    }
    if (err) {
        PyErr_SetString(PyExc_ValueError, err);
        for (int i = 0; i < 10; i++) release(&b[i]);
        return NULL;
    }
    Vec vs = {0}, vm = {0}, vd = {0}, vc = {0};
    Hash h;
    int bad = hinit(&h, 1024);
    int64_t next = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n && !bad; i++) {
        const int64_t *row = rows + i * C;
        for (Py_ssize_t m = 0; m < M; m++) {
            int ok = 1;
            for (int64_t a = off[m]; a < off[m + 1]; a++)
                if (row[cls[a]] + val[a] > size[cls[a]]) {
                    ok = 0;
                    break;
                }
            if (!ok) continue;
            int64_t code = P[i] + dcode[m];
            for (Py_ssize_t q = 0; q < Q; q++)
                if ((code / cm[q]) % cr[q] != cq[q]) {
                    ok = 0;
                    break;
                }
            if (!ok) continue;
            int64_t before = next;
            int64_t d = hget(&h, code, &next);
            if (d < 0 || vpush(&vs, i) || vpush(&vm, m) || vpush(&vd, d) || (next > before && vpush(&vc, code))) {
                bad = 1;
                break;
            }
        }
    }
    Py_END_ALLOW_THREADS
    free(h.key); free(h.val);
    for (int i = 0; i < 10; i++) release(&b[i]);
    PyObject *out = NULL;
    if (!bad) {
        out = Py_BuildValue("(y#y#y#y#)", (const char *)vs.v, (Py_ssize_t)(vs.n * 8), (const char *)vm.v,
                            (Py_ssize_t)(vm.n * 8), (const char *)vd.v, (Py_ssize_t)(vd.n * 8), (const char *)vc.v,
                            (Py_ssize_t)(vc.n * 8));
    } else {
        PyErr_NoMemory();
    }
    free(vs.v); free(vm.v); free(vd.v); free(vc.v);
    return out;
}

/*
 * coefs(rows, src, mv, mv_off, mv_cls, mv_val, size, binom, out)
 *     The planner's transition coefficients (compact.plan_compact): for transition t from
 *     row src[t] (counts of taken draws per class, rows: (n, C)) by move mv[t] (mv_off:
 *     (M + 1) offsets into mv_cls and mv_val), out[t] = the product, in the move's order,
 *     of binom[size[c] - rows[src[t], c], v] over its (class c, count v) pairs (1.0 for a
 *     move with none): the ways to pick the draws it takes from its classes.
 */
static PyObject *py_coefs(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    Buf b[9];
    const char *names[9] = {"rows", "src", "mv", "mv_off", "mv_cls", "mv_val", "size", "binom", "out"};
    int nd[9] = {2, 1, 1, 1, 1, 1, 1, 2, 1};
    char kd[9] = {'i', 'i', 'i', 'i', 'i', 'i', 'i', 'f', 'f'};
    int wr[9] = {0, 0, 0, 0, 0, 0, 0, 0, 1};
    if (nargs != 9) {
        PyErr_SetString(PyExc_TypeError, "coefs expects 9 arguments");
        return NULL;
    }
    int got = 0;
    for (; got < 9; got++)
        if (get(args[got], &b[got], kd[got], nd[got], wr[got], names[got])) break;
    if (got < 9) {
        for (int i = 0; i < got; i++) release(&b[i]);
        return NULL;
    }
    const int64_t *rows = b[0].b.buf, *src = b[1].b.buf, *mv = b[2].b.buf, *off = b[3].b.buf;
    const int64_t *cls = b[4].b.buf, *val = b[5].b.buf, *size = b[6].b.buf;
    const double *binom = b[7].b.buf;
    double *out = b[8].b.buf;
    Py_ssize_t n = b[0].b.shape[0], C = b[0].b.shape[1], T = len0(&b[1]), M = len0(&b[3]) - 1;
    Py_ssize_t ncls = len0(&b[4]), BR = b[7].b.shape[0], BW = b[7].b.shape[1];
    const char *err = NULL;
    if (len0(&b[2]) != T || len0(&b[8]) != T) err = "src, mv and out must have the same length";
    else if (M < 0) err = "mv_off must have M + 1 entries";
    else if (len0(&b[5]) != ncls) err = "mv_cls and mv_val must have the same length";
    else if (len0(&b[6]) != C) err = "size must have one entry per class";
    if (!err) {
        for (Py_ssize_t m = 0; m < M && !err; m++)
            if (off[m] < 0 || off[m] > off[m + 1] || off[m + 1] > ncls) err = "mv_off is out of range";
        for (Py_ssize_t i = 0; i < ncls && !err; i++)
            if (cls[i] < 0 || cls[i] >= C || val[i] < 0 || val[i] >= BW) err = "a move's class or count is out of range";
    }
    if (err) {
        PyErr_SetString(PyExc_ValueError, err);
        for (int i = 0; i < 9; i++) release(&b[i]);
        return NULL;
    }
    int bad = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t t = 0; t < T; t++) {
        int64_t i = src[t], m = mv[t];
        if (i < 0 || i >= n || m < 0 || m >= M) {
            bad = 1;
            break;
        }
        const int64_t *row = rows + i * C;
        double c = 1.0;
        for (int64_t a = off[m]; a < off[m + 1]; a++) {
            int64_t left = size[cls[a]] - row[cls[a]];
            if (left < 0 || left >= BR) {
                bad = 1;
                break;
            }
            c *= binom[left * BW + val[a]];
        }
        out[t] = c;
    }
    Py_END_ALLOW_THREADS
    for (int i = 0; i < 9; i++) release(&b[i]);
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "a transition's row, move or remaining count is out of range");
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"coefs", (PyCFunction)(void (*)(void))py_coefs, METH_FASTCALL, "the planner's transition coefficients"},
    {"expand_dedup", (PyCFunction)(void (*)(void))py_expand_dedup, METH_FASTCALL, "the planner's forward step, rows numbered"},
    {"sample", (PyCFunction)(void (*)(void))py_sample, METH_FASTCALL, "backward sampling of worlds"},
    {"boxes", (PyCFunction)(void (*)(void))py_boxes, METH_FASTCALL, "the planner's capacity boxes"},
    {"expand", (PyCFunction)(void (*)(void))py_expand, METH_FASTCALL, "the planner's forward step"},
    {"forward", (PyCFunction)(void (*)(void))py_forward, METH_FASTCALL, "the forward pass over the boxes"},
    {"backward", (PyCFunction)(void (*)(void))py_backward, METH_FASTCALL, "the backward pass over the boxes"},
    {"context", (PyCFunction)(void (*)(void))py_context, METH_FASTCALL, "the context sums of every block row"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_compact",
                                    "Kernels of the Go Fish compact exact sum (see _compact.c).", -1, methods};

PyMODINIT_FUNC PyInit__compact(void) { return PyModule_Create(&module); }
