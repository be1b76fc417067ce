/*
 * Fast path of the Go Fish draw engine's block product (cardmind.games.gofish.draws.dp._DP):
 * the two gather-and-sum kernels of its dense dynamic programme, in place, without the
 * (rows x usages x states) temporaries numpy needs. The numpy code in draws/dp.py is the
 * reference; tests/test_gofish_drawdp.py checks that both give the same numbers.
 *
 * Arrays are passed through the buffer protocol (numpy arrays, C-contiguous); values are
 * float64 ("d") or int64 ("l"/"q", wrapping on overflow like numpy's int64), indices int64.
 *
 * mix_add(out, ro, F, ri, w, gather, scatter, ids)
 *     for every k and every state u < N:
 *         out[ro[k], u] += sum_n w[n] * F[ri[k], gather[ids[n], u]]
 *     out: (rows_out, N + 1); F: (rows_in, N + 1); gather: (usages, N) with entries in 0..N
 *     (N points at F's last column, a zero); scatter: its inverse (scatter[x, v] = u where
 *     gather[x, u] = v, else N). A row of F with few nonzero states is added by scattering
 *     them (same sum; out's last column stays 0), a dense one by gathering.
 *
 * context(out, F, p, T, q, tab, ids, mask)
 *     for every n: out[n] += sum_k sum_{u < N} F[p[k], u] * mask[u] * T[q[k], tab[ids[n], u]]
 *     (over the nonzero terms of F[p[k]] * mask only); mask: None or a bool array of N entries.
 *
 * Both raise ValueError (bad shapes, types or an index out of range) rather than reading
 * outside an array.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    Py_buffer b;
    int held;
} Buf;

static void release(Buf *x) {
    if (x->held) PyBuffer_Release(&x->b);
    x->held = 0;
}

/* kind: 'f' float64, 'i' int64, 'b' bool (1 byte); ndim: 1 or 2 */
static int get(PyObject *o, Buf *x, char kind, int ndim, const char *name) {
    x->held = 0;
    if (PyObject_GetBuffer(o, &x->b, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s: expected a C-contiguous array", name);
        return -1;
    }
    x->held = 1;
    const char *f = x->b.format ? x->b.format : "B";
    if (*f == '<' || *f == '=' || *f == '@') f++;
    int ok;
    if (kind == 'f') ok = (f[0] == 'd' && f[1] == 0 && x->b.itemsize == 8);
    else if (kind == 'i') ok = ((f[0] == 'l' || f[0] == 'q') && f[1] == 0 && x->b.itemsize == 8);
    else ok = ((f[0] == '?' || f[0] == 'B' || f[0] == 'b') && f[1] == 0 && x->b.itemsize == 1);
    if (!ok || x->b.ndim != ndim) {
        PyErr_Format(PyExc_ValueError, "%s: expected a %dD array of %s (got format %s, %dD)", name, ndim,
                     kind == 'f' ? "float64" : kind == 'i' ? "int64" : "bool", f, x->b.ndim);
        release(x);
        return -1;
    }
    return 0;
}

static Py_ssize_t dim(Buf *x, int i) { return x->b.shape[i]; }

/* indices in [0, hi) */
static int check_index(Buf *x, Py_ssize_t hi, const char *name) {
    const int64_t *v = (const int64_t *)x->b.buf;
    Py_ssize_t n = x->b.len / 8;
    for (Py_ssize_t i = 0; i < n; i++)
        if (v[i] < 0 || v[i] >= hi) {
            PyErr_Format(PyExc_ValueError, "%s: index %lld out of range 0..%lld", name, (long long)v[i],
                         (long long)(hi - 1));
            return -1;
        }
    return 0;
}

/* the table rows used are within [0, W) */
static int check_tab(Buf *tab, Buf *ids, Py_ssize_t W, const char *name) {
    const int64_t *id = (const int64_t *)ids->b.buf;
    const int64_t *t = (const int64_t *)tab->b.buf;
    Py_ssize_t n = ids->b.len / 8, N = dim(tab, 1);
    for (Py_ssize_t i = 0; i < n; i++) {
        const int64_t *row = t + id[i] * N;
        for (Py_ssize_t u = 0; u < N; u++)
            if (row[u] < 0 || row[u] >= W) {
                PyErr_Format(PyExc_ValueError, "%s: entry %lld out of range 0..%lld", name, (long long)row[u],
                             (long long)(W - 1));
                return -1;
            }
    }
    return 0;
}

/* a row's nonzero states (u < N) into nz; returns their number */
#define NONZERO(NAME, T)                                                                          \
    static Py_ssize_t NAME(const T *f, Py_ssize_t N, int64_t *nz) {                               \
        Py_ssize_t c = 0;                                                                          \
        for (Py_ssize_t u = 0; u < N; u++)                                                         \
            if (f[u] != 0) nz[c++] = u;                                                            \
        return c;                                                                                  \
    }

/* gather (dense rows): o[u] += w * f[gather[u]]; scatter (sparse rows, over the nonzero
 * states u' only): o[scatter[u']] += w * f[u'], then o[N] (the zero column) reset */
#define MIX(NAME, NZ, T)                                                                          \
    static int NAME(T *out, const int64_t *ro, const T *F, const int64_t *ri, Py_ssize_t k,        \
                    const T *w, const int64_t *gat, const int64_t *sca, const int64_t *ids,        \
                    Py_ssize_t n, Py_ssize_t N) {                                                  \
        Py_ssize_t W = N + 1;                                                                      \
        int64_t *nz = (int64_t *)malloc(sizeof(int64_t) * (N > 0 ? N : 1));                        \
        if (!nz) return -1;                                                                        \
        for (Py_ssize_t a = 0; a < k; a++) {                                                       \
            T *o = out + ro[a] * W;                                                                \
            const T *f = F + ri[a] * W;                                                            \
            Py_ssize_t c = NZ(f, N, nz);                                                           \
            if (c == 0) continue;                                                                  \
            if (3 * c < N) {                                                                       \
                for (Py_ssize_t j = 0; j < n; j++) {                                               \
                    const T wj = w[j];                                                             \
                    const int64_t *row = sca + ids[j] * N;                                         \
                    for (Py_ssize_t i = 0; i < c; i++) o[row[nz[i]]] += wj * f[nz[i]];            \
                }                                                                                  \
                o[N] = 0;                                                                          \
            } else {                                                                               \
                for (Py_ssize_t j = 0; j < n; j++) {                                               \
                    const T wj = w[j];                                                             \
                    const int64_t *row = gat + ids[j] * N;                                         \
                    for (Py_ssize_t u = 0; u < N; u++) o[u] += wj * f[row[u]];                     \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
        free(nz);                                                                                  \
        return 0;                                                                                  \
    }

/* over the nonzero states of F[p[a]] * mask only */
#define CTX(NAME, T)                                                                              \
    static int NAME(T *out, const T *F, const int64_t *p, const T *Tb, const int64_t *q,           \
                    Py_ssize_t k, const int64_t *tab, const int64_t *ids, Py_ssize_t n,            \
                    const unsigned char *mask, Py_ssize_t N) {                                     \
        Py_ssize_t W = N + 1;                                                                      \
        T *fa = (T *)malloc(sizeof(T) * (N > 0 ? N : 1));                                          \
        int64_t *nz = (int64_t *)malloc(sizeof(int64_t) * (N > 0 ? N : 1));                        \
        if (!fa || !nz) {                                                                          \
            free(fa);                                                                              \
            free(nz);                                                                              \
            return -1;                                                                             \
        }                                                                                          \
        for (Py_ssize_t a = 0; a < k; a++) {                                                       \
            const T *f = F + p[a] * W;                                                             \
            const T *t = Tb + q[a] * W;                                                            \
            Py_ssize_t c = 0;                                                                      \
            for (Py_ssize_t u = 0; u < N; u++)                                                     \
                if (f[u] != 0 && !(mask && !mask[u])) {                                            \
                    fa[c] = f[u];                                                                  \
                    nz[c++] = u;                                                                   \
                }                                                                                  \
            for (Py_ssize_t j = 0; j < n; j++) {                                                   \
                const int64_t *row = tab + ids[j] * N;                                             \
                T s = 0;                                                                           \
                for (Py_ssize_t i = 0; i < c; i++) s += fa[i] * t[row[nz[i]]];                     \
                out[j] += s;                                                                       \
            }                                                                                      \
        }                                                                                          \
        free(fa);                                                                                  \
        free(nz);                                                                                  \
        return 0;                                                                                  \
    }

NONZERO(nz_f, double)
NONZERO(nz_i, int64_t)
MIX(mix_f, nz_f, double)
MIX(mix_i, nz_i, int64_t)
CTX(ctx_f, double)
CTX(ctx_i, int64_t)

/* the kind of the output array's values: 'f' (float64) or 'i' (int64, or anything else:
 * get() then refuses it); 0 with ValueError when it is not an array */
static char out_kind(PyObject *o) {
    Py_buffer b;
    if (PyObject_GetBuffer(o, &b, PyBUF_FORMAT | PyBUF_ND) < 0) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "out: expected an array");
        return 0;
    }
    const char *f = b.format ? b.format : "B";
    if (*f == '<' || *f == '=' || *f == '@') f++;
    char kind = (*f == 'd') ? 'f' : 'i';
    PyBuffer_Release(&b);
    return kind;
}

/* get() for the array written to: also refuses a read-only one */
static int get_out(PyObject *o, Buf *x, char kind, int ndim) {
    if (get(o, x, kind, ndim, "out")) return -1;
    if (x->b.readonly) {
        PyErr_SetString(PyExc_ValueError, "out: read-only");
        release(x);
        return -1;
    }
    return 0;
}

/* the result of a kernel: None, or MemoryError when it could not allocate (rc != 0) */
static PyObject *result(int rc) {
    if (rc) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

static PyObject *mix_add(PyObject *self, PyObject *args) {
    PyObject *oo, *oro, *oF, *ori, *ow, *ogat, *osca, *oids;
    if (!PyArg_ParseTuple(args, "OOOOOOOO", &oo, &oro, &oF, &ori, &ow, &ogat, &osca, &oids)) return NULL;
    char kind = out_kind(oo);
    if (!kind) return NULL;
    int fl = kind == 'f';
    Buf out = {0}, ro = {0}, F = {0}, ri = {0}, w = {0}, gat = {0}, sca = {0}, ids = {0};
    PyObject *res = NULL;
    int rc = 0;
    if (get_out(oo, &out, kind, 2) || get(oro, &ro, 'i', 1, "ro") || get(oF, &F, kind, 2, "F") ||
        get(ori, &ri, 'i', 1, "ri") || get(ow, &w, kind, 1, "w") || get(ogat, &gat, 'i', 2, "gather") ||
        get(osca, &sca, 'i', 2, "scatter") || get(oids, &ids, 'i', 1, "ids"))
        goto done;
    Py_ssize_t N = dim(&gat, 1), k = dim(&ro, 0), n = dim(&ids, 0);
    if (dim(&out, 1) != N + 1 || dim(&F, 1) != N + 1 || dim(&ri, 0) != k || dim(&w, 0) != n ||
        dim(&sca, 0) != dim(&gat, 0) || dim(&sca, 1) != N) {
        PyErr_SetString(PyExc_ValueError, "mix_add: inconsistent shapes");
        goto done;
    }
    if (check_index(&ro, dim(&out, 0), "ro") || check_index(&ri, dim(&F, 0), "ri") ||
        check_index(&ids, dim(&gat, 0), "ids") || check_tab(&gat, &ids, N + 1, "gather") ||
        check_tab(&sca, &ids, N + 1, "scatter"))
        goto done;
    Py_BEGIN_ALLOW_THREADS
    if (fl)
        rc = mix_f((double *)out.b.buf, ro.b.buf, F.b.buf, ri.b.buf, k, w.b.buf, gat.b.buf, sca.b.buf,
                   ids.b.buf, n, N);
    else
        rc = mix_i((int64_t *)out.b.buf, ro.b.buf, F.b.buf, ri.b.buf, k, w.b.buf, gat.b.buf, sca.b.buf,
                   ids.b.buf, n, N);
    Py_END_ALLOW_THREADS
    res = result(rc);
done:
    release(&out); release(&ro); release(&F); release(&ri); release(&w); release(&gat); release(&sca);
    release(&ids);
    return res;
}

static PyObject *context(PyObject *self, PyObject *args) {
    PyObject *oo, *oF, *op, *oT, *oq, *otab, *oids, *omask;
    if (!PyArg_ParseTuple(args, "OOOOOOOO", &oo, &oF, &op, &oT, &oq, &otab, &oids, &omask)) return NULL;
    char kind = out_kind(oo);
    if (!kind) return NULL;
    int fl = kind == 'f';
    Buf out = {0}, F = {0}, p = {0}, T = {0}, q = {0}, tab = {0}, ids = {0}, mask = {0};
    PyObject *res = NULL;
    int rc = 0;
    if (get_out(oo, &out, kind, 1) || get(oF, &F, kind, 2, "F") || get(op, &p, 'i', 1, "p") ||
        get(oT, &T, kind, 2, "T") || get(oq, &q, 'i', 1, "q") || get(otab, &tab, 'i', 2, "tab") ||
        get(oids, &ids, 'i', 1, "ids"))
        goto done;
    if (omask != Py_None && get(omask, &mask, 'b', 1, "mask")) goto done;
    Py_ssize_t N = dim(&tab, 1), k = dim(&p, 0), n = dim(&ids, 0);
    if (dim(&out, 0) != n || dim(&F, 1) != N + 1 || dim(&T, 1) != N + 1 || dim(&q, 0) != k ||
        (mask.held && dim(&mask, 0) < N)) {
        PyErr_SetString(PyExc_ValueError, "context: inconsistent shapes");
        goto done;
    }
    if (check_index(&p, dim(&F, 0), "p") || check_index(&q, dim(&T, 0), "q") ||
        check_index(&ids, dim(&tab, 0), "ids") || check_tab(&tab, &ids, N + 1, "tab"))
        goto done;
    const unsigned char *mk = mask.held ? (const unsigned char *)mask.b.buf : NULL;
    Py_BEGIN_ALLOW_THREADS
    if (fl)
        rc = ctx_f((double *)out.b.buf, F.b.buf, p.b.buf, T.b.buf, q.b.buf, k, tab.b.buf, ids.b.buf, n, mk, N);
    else
        rc = ctx_i((int64_t *)out.b.buf, F.b.buf, p.b.buf, T.b.buf, q.b.buf, k, tab.b.buf, ids.b.buf, n, mk, N);
    Py_END_ALLOW_THREADS
    res = result(rc);
done:
    release(&out); release(&F); release(&p); release(&T); release(&q); release(&tab); release(&ids);
    release(&mask);
    return res;
}

static PyMethodDef methods[] = {
    {"mix_add", mix_add, METH_VARARGS,
     "mix_add(out, ro, F, ri, w, gather, scatter, ids): out[ro[k], u] += sum_n w[n] * F[ri[k], gather[ids[n], u]]."},
    {"context", context, METH_VARARGS,
     "context(out, F, p, T, q, tab, ids, mask): out[n] += sum_k sum_u F[p[k], u] mask[u] T[q[k], tab[ids[n], u]]."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_drawdp", NULL, -1, methods};

PyMODINIT_FUNC PyInit__drawdp(void) { return PyModule_Create(&module); }
