/* sim/run/rewrite.c - see rewrite.h. A scanner over the source text that
 * knows comments, string and character literals, preprocessor lines and
 * brace depth; it is not a C++ parser: what it rewrites has a fixed shape. */
#define _GNU_SOURCE
#include "rewrite.h"
#include "ptx_text.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct buf {
    char *p;
    size_t n, cap;
    int oom;
} buf;

static void put(buf *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = (b->n + n + 1) * 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->oom = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}
static void puts_(buf *b, const char *s) { put(b, s, strlen(s)); }
static void putf(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(buf *b, const char *fmt, ...)
{
    char tmp[4096];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (k > 0)
        put(b, tmp, (size_t)k < sizeof tmp ? (size_t)k : sizeof tmp - 1);
}

typedef struct scan {
    const char *s;
    size_t n, i;
    int line;
    const char *path;
    rewrite_result *r;
    int errors;
    unsigned reported; /* features already reported (one line each) */
    int header;        /* a header (cu_rewrite_header): an unsupported name is not an error */
    int skipped;       /* inside a branch the preprocessor surely drops (cond_line): nothing is reported */
} scan;

static void problem(scan *sc, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void problem(scan *sc, int line, const char *fmt, ...)
{
    size_t used = strlen(sc->r->err);
    if (sc->errors < 12 && used + 300 < sizeof sc->r->err) {
        int k = snprintf(sc->r->err + used, sizeof sc->r->err - used, "%s:%d: ", sc->path, line);
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(sc->r->err + used + k, sizeof sc->r->err - used - (size_t)k, fmt, ap);
        va_end(ap);
        strncat(sc->r->err, "\n", sizeof sc->r->err - strlen(sc->r->err) - 1);
    }
    sc->errors++;
}

static int ident_char(int c) { return isalnum(c) || c == '_'; }

/* ---- features the simulator does not have ----------------------------------- */
typedef struct feature {
    const char *what;  /* as the message names it */
    const char *ids[16]; /* identifiers (exact) or prefixes ending in '*' */
    const char *incs[6]; /* include names (prefix) */
} feature;
static const feature features[] = {
    /* cooperative groups inside one block (thread_block, thread_group, static and dynamic tiles,
     * coalesced groups, cg::reduce, the scans) are in sim/run/include/cooperative_groups.h; grid-wide
     * ones cannot be: a grid's blocks run one after another here, none waits for the others */
    /* this_grid() is (its members work in any launch; grid.sync() is a report at run time) */
    {"cooperative launches, multi-grid and cluster groups (cudaLaunchCooperativeKernel, this_multi_grid, "
     "this_cluster: all blocks resident at once, where the simulator runs them one after another)",
     {"this_multi_grid", "multi_grid_group", "this_cluster", "cluster_group", "cudaLaunchCooperativeKernel*"},
     {NULL}},
    /* cg::memcpy_async and cg::wait are (cooperative_groups/memcpy_async.h) */
    {"asynchronous reductions and scans of cooperative groups (cg::reduce_update_async, cg::reduce_store_async, "
     "cg::inclusive_scan_update, cg::exclusive_scan_update)",
     {"reduce_update_async", "reduce_store_async", "inclusive_scan_update", "exclusive_scan_update"},
     {NULL}},
    {"textures and surfaces", {"tex1D", "tex1Dfetch", "tex2D", "tex3D", "texture", "cudaCreateTextureObject", "cudaBindTexture", "surf2Dread", "surf2Dwrite", "cudaCreateSurfaceObject"}, {"texture_fetch_functions", "cuda_texture_types", "surface_functions"}},
    /* cuBLAS's classic API is in sim/run/include/cublas_api.h (GEMM, GEMV, level 1, float and double);
     * a function it lacks is g++'s "not declared", printed as one line (run.c print_library_refusals).
     * cuBLASLt's handles are the shim's (cublasLt.h), its multiplies are not: */
    {"cuBLASLt's matrix multiplies (cublasLtMatmul; simtlab has cuBLASLt's handles and cuBLAS's GEMM)",
     {"cublasLtMatmul*", "cublasLtMatrix*"},
     {NULL}},
    {"cuFFT", {"cufft*"}, {NULL}},
    /* cuRAND's XORWOW, Philox and MRG32k3a generators, device and host API, are in
     * sim/run/include/curand_kernel.h and curand.h; these are not */
    {"cuRAND's MTGP32, MT19937 and Sobol generators and discrete distributions (XORWOW, Philox4_32_10 and "
     "MRG32k3a are supported)",
     {"curandStateMtgp32*", "curandStateSobol*", "curandStateScrambledSobol*", "curandMakeMTGP32*", "curand_mtgp32*",
      "mtgp32*", "curandDirectionVectors*", "curandGetDirectionVectors*", "curandGetScrambleConstants*",
      "CURAND_RNG_PSEUDO_MTGP32", "CURAND_RNG_PSEUDO_MT19937", "CURAND_RNG_QUASI_*", "curandDiscreteDistribution*",
      "curand_discrete*", "curandCreatePoissonDistribution", "curandSetQuasiRandomGeneratorDimensions"},
     {"curand_mtgp32", "curand_discrete"}},
    {"cuSPARSE", {"cusparse*"}, {NULL}},
    {"cuDNN", {"cudnn*"}, {NULL}},
    {"Thrust", {"thrust"}, {"thrust/"}},
    {"CUB", {"cub"}, {"cub/"}},
    /* half and bfloat16 are supported (cuda_fp16.h, cuda_bf16.h); fp8 is not, though cuda_fp8.h
     * alone is fine (simtlab_nofp8.h: it also brings half and bfloat16) */
    {"fp8 (__nv_fp8_e4m3, __nv_fp8_e5m2)", {"__nv_fp8*", "__nv_cvt_*"}, {NULL}},
    /* graphs made by stream capture and the explicit API's node building are supported
     * (sim/run/cudart.c); node parameters' getters and setters, child graphs, event and memory
     * nodes, conditional nodes and updates of an instantiated graph are not */
    {"parts of the CUDA graph API (node parameters' getters, setters but a kernel node's, child graph, event and "
     "memory nodes, cudaGraphExecUpdate; graphs made by stream capture, and cudaGraphCreate with "
     "cudaGraphAdd{Kernel,Memcpy,Memcpy1D,Memset,Host,Empty}Node, cudaGraphAddDependencies and "
     "cudaGraph[Exec]KernelNodeSetParams, are supported)",
     {"cudaGraph*", "cudaStreamBeginCaptureToGraph", "cudaStreamGetCaptureInfo_v*", "cudaStreamUpdateCaptureDependencies*"},
     /* but graph_supported's names */
     {NULL}},
    {"CUDA IPC (cudaIpc*: memory shared between processes)", {"cudaIpc*"}, {NULL}},
    /* but cuda/pipeline and cuda/barrier (check_include) */
    {"libcu++ (cuda::atomic, most of cuda::std; a thread's or a block's cuda::pipeline, a block's cuda::barrier "
     "and cuda::std's type_traits, limits, utility, array, tuple, cmath and the C headers are supported)",
     {NULL},
     {"cuda/"}},
    /* cuda.h is the shim's (CUDA_VERSION); the driver API's names gave g++'s errors (survey 9:
     * NVIDIA's cuda-vmm sample, about 40 lines of them) */
    {"the CUDA driver API (cuInit, cuMemCreate, cuModuleLoad, cuLaunchKernel, ...)",
     {"CUresult", "CUdeviceptr", "CUcontext", "CUmodule", "CUfunction", "CUmemGenericAllocationHandle",
      "CUmemAllocationProp", "CUmemAccessDesc", "cuInit", "cuCtx*", "cuModule*", "cuLaunchKernel", "cuMemCreate",
      "cuMemAddressReserve", "cuMemMap", "cuMemAlloc*"},
     {NULL}},
    {"inline PTX (asm) other than cp.async, ldmatrix, mma.sync, ld, st and mov", {"asm", "__asm__"}, {NULL}},
    {"dynamic parallelism (a launch inside a kernel)", {NULL}, {NULL}},
};
enum { F_ASM = 15, F_DYNPAR = 16 };
_Static_assert(sizeof features / sizeof *features == F_DYNPAR + 1, "F_ASM and F_DYNPAR index features[]");

static int id_matches(const char *pat, const char *id, size_t len)
{
    size_t pl = strlen(pat);
    if (pat[pl - 1] == '*')
        return len >= pl - 1 && !strncmp(id, pat, pl - 1);
    return len == pl && !strncmp(id, pat, pl);
}

static void feature_found(scan *sc, int f, int line, const char *detail)
{
    if (sc->header || sc->skipped || (sc->reported & (1u << f)))
        return;
    sc->reported |= 1u << f;
    problem(sc, line,
            "not supported by the simulator: %s (%s); run the program on a GPU (`simtlab run --mode cuda`), or see "
            "docs/run.md for what `simtlab run` supports",
            features[f].what, detail);
}

/* The graph API's names sim/run/cudart.c has (stream capture, the explicit API's nodes): cudaGraph*
 * but these */
static int graph_supported(const char *name)
{
    static const char *const ok[] = {"cudaGraph_t", "cudaGraphExec_t", "cudaGraphNode_t", "cudaGraphInstantiate",
                                     "cudaGraphInstantiateWithFlags", "cudaGraphLaunch", "cudaGraphUpload",
                                     "cudaGraphExecDestroy", "cudaGraphDestroy", "cudaGraphGetNodes",
                                     "cudaGraphInstantiateFlags", "cudaGraphInstantiateFlagAutoFreeOnLaunch",
                                     "cudaGraphInstantiateFlagUpload", "cudaGraphInstantiateFlagDeviceLaunch",
                                     "cudaGraphInstantiateFlagUseNodePriority", "cudaGraphCreate",
                                     "cudaGraphAddKernelNode", "cudaGraphAddMemcpyNode", "cudaGraphAddMemcpyNode1D",
                                     "cudaGraphAddMemsetNode", "cudaGraphAddHostNode", "cudaGraphAddEmptyNode",
                                     "cudaGraphAddDependencies", "cudaGraphNodeGetType", "cudaGraphGetRootNodes",
                                     "cudaGraphClone", "cudaGraphNodeType", "cudaGraphNodeTypeKernel",
                                     "cudaGraphNodeTypeMemcpy", "cudaGraphNodeTypeMemset", "cudaGraphNodeTypeHost",
                                     "cudaGraphNodeTypeGraph", "cudaGraphNodeTypeEmpty", "cudaGraphNodeTypeWaitEvent",
                                     "cudaGraphNodeTypeEventRecord", "cudaGraphEdgeData",
                                     "cudaGraphKernelNodeSetParams", "cudaGraphExecKernelNodeSetParams"};
    for (size_t k = 0; k < sizeof ok / sizeof *ok; k++)
        if (!strcmp(name, ok[k]))
            return 1;
    return 0;
}

/* Whether the program defines or declares a function named id itself (`cudaError_t
 * cudaGraphsManual(...) {`, NVIDIA's simpleCudaGraphs; survey 22): an occurrence after a type (an
 * identifier that is no statement keyword, or `*`, a lone `&`, `>`) whose parameter list is followed
 * by `{` or `;`, not in a line comment or a string. Asked only of a name a feature's prefix matched. */
static int own_function(const char *src, size_t n, const char *id, size_t len)
{
    static const char *const kw[] = {"return", "else", "case", "do", "throw", "sizeof", "co_return", "co_await",
                                     "co_yield", "new", "delete", "typeid", "decltype", "not", "and", "or"};
    for (const char *p = src; (p = memmem(p, (size_t)(src + n - p), id, len)) != NULL; p += len) {
        const size_t i = (size_t)(p - src), e = i + len;
        if ((i && ident_char((unsigned char)src[i - 1])) || (e < n && ident_char((unsigned char)src[e])))
            continue;
        size_t ls = i, quotes = 0; /* its line, for a `//` comment or an open string before it */
        while (ls > 0 && src[ls - 1] != '\n')
            ls--;
        int commented = 0;
        for (size_t q = ls; q < i; q++) {
            quotes += src[q] == '"' && (q == ls || src[q - 1] != '\\');
            commented |= !(quotes & 1) && src[q] == '/' && q + 1 < i && src[q + 1] == '/';
        }
        if (commented || (quotes & 1))
            continue;
        size_t j = e;
        while (j < n && isspace((unsigned char)src[j]))
            j++;
        if (j >= n || src[j] != '(')
            continue;
        int d = 0; /* past the parameter list: a body or the declaration's end */
        for (; j < n; j++)
            if ((d += (src[j] == '(') - (src[j] == ')')) == 0)
                break;
        j++;
        while (j < n && isspace((unsigned char)src[j]))
            j++;
        if (j >= n || (src[j] != '{' && src[j] != ';'))
            continue;
        size_t b = i;
        while (b > 0 && isspace((unsigned char)src[b - 1]))
            b--;
        if (!b)
            continue;
        if (src[b - 1] == '*' || src[b - 1] == '>' || (src[b - 1] == '&' && (b < 2 || src[b - 2] != '&')))
            return 1;
        if (!ident_char((unsigned char)src[b - 1]))
            continue;
        size_t a = b;
        while (a > 0 && ident_char((unsigned char)src[a - 1]))
            a--;
        int keyword = 0;
        for (size_t k = 0; k < sizeof kw / sizeof *kw; k++)
            keyword |= b - a == strlen(kw[k]) && !strncmp(src + a, kw[k], b - a);
        if (!keyword)
            return 1;
    }
    return 0;
}

/* An identifier of the program: a feature we lack? (texture only as texture<...>) */
static void check_ident(scan *sc, const char *id, size_t len, size_t after, int in_device)
{
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)(len < 63 ? len : 63), id);
    for (int f = 0; f < F_DYNPAR; f++)
        for (int k = 0; k < 16 && features[f].ids[k]; k++)
            if (id_matches(features[f].ids[k], id, len)) {
                size_t j = after;
                while (j < sc->n && isspace((unsigned char)sc->s[j]))
                    j++;
                if (!strcmp(name, "texture") && (j >= sc->n || sc->s[j] != '<'))
                    continue;
                if ((!strcmp(name, "thrust") || !strcmp(name, "cub")) &&
                    !(j + 1 < sc->n && sc->s[j] == ':' && sc->s[j + 1] == ':'))
                    continue;
                if (f == F_ASM && !in_device) /* host inline assembly is the host's business */
                    continue;
                if (graph_supported(name))
                    continue;
                const size_t pl = strlen(features[f].ids[k]);
                if (features[f].ids[k][pl - 1] == '*' && own_function(sc->s, sc->n, id, len))
                    continue; /* the program's own function, which merely begins like the feature's names */
                feature_found(sc, f, sc->line, name);
            }
}

static void check_include(scan *sc, const char *line_start, size_t len)
{
    const char *p = line_start, *end = line_start + len;
    while (p < end && (*p == '#' || isspace((unsigned char)*p)))
        p++;
    if ((size_t)(end - p) < 7 || strncmp(p, "include", 7))
        return;
    p += 7;
    while (p < end && isspace((unsigned char)*p))
        p++;
    if (p >= end || (*p != '<' && *p != '"'))
        return;
    const char *name = ++p;
    while (p < end && *p != '>' && *p != '"')
        p++;
    size_t nl = (size_t)(p - name);
    /* libcu++'s headers that are here: cuda/pipeline and cuda/barrier (a block's barrier and the
     * thread's and block's pipelines: sim/run/include/simtlab_cuda_sync.h), and the cuda/std
     * headers that are the host's std (sim/run/include/simtlab_cuda_std.h) */
    static const char *const here[] = {"cuda/pipeline", "cuda/barrier", "cuda/std/type_traits", "cuda/std/cstdint",
                                       "cuda/std/cstddef", "cuda/std/climits", "cuda/std/cfloat", "cuda/std/limits",
                                       "cuda/std/utility", "cuda/std/array", "cuda/std/tuple", "cuda/std/cmath",
                                       "cuda/std/cstdlib", "cuda/std/cstring", "cuda/std/initializer_list",
                                       "cuda/std/functional", "cuda/std/numeric", "cuda/std/ratio"};
    for (size_t k = 0; k < sizeof here / sizeof *here; k++)
        if (nl == strlen(here[k]) && !strncmp(name, here[k], nl))
            return;
    for (int f = 0; f < F_DYNPAR; f++)
        for (int k = 0; k < 6 && features[f].incs[k]; k++)
            if (nl >= strlen(features[f].incs[k]) && !strncmp(name, features[f].incs[k], strlen(features[f].incs[k]))) {
                char detail[128];
                snprintf(detail, sizeof detail, "#include <%.*s>", (int)(nl < 100 ? nl : 100), name);
                feature_found(sc, f, sc->line, detail);
            }
}

/* ---- the kernel expression before <<< ------------------------------------------------ */
/* Finds, at the end of the output, `name`, `ns::name`, `name<args>`: its start. */
/* p back over white space, a macro's line continuations (`k \<newline> <<<...`) included */
static long back_space(const buf *o, long p)
{
    while (p > 0 && (isspace((unsigned char)o->p[p - 1]) ||
                     (o->p[p - 1] == '\\' && p < (long)o->n && (o->p[p] == '\n' || o->p[p] == '\r'))))
        p--;
    return p;
}

/* The first place from j on in h[0, n) that is not white space (n if none). */
static size_t skip_space(const char *h, size_t j, size_t n)
{
    while (j < n && isspace((unsigned char)h[j]))
        j++;
    return j;
}

/* Where h[i] starts `template <...>` (the keyword alone, then its clause): the index of the
 * clause's '<' in *lt and of its closing '>' (n if it has none) returned; else 0. */
static size_t template_clause(const char *h, size_t i, size_t n, size_t *lt)
{
    if (i + 8 > n || strncmp(h + i, "template", 8) || (i > 0 && ident_char((unsigned char)h[i - 1])) ||
        (i + 8 < n && ident_char((unsigned char)h[i + 8])))
        return 0;
    size_t j = skip_space(h, i + 8, n);
    if (j >= n || h[j] != '<')
        return 0;
    *lt = j;
    int ang = 0;
    for (; j < n; j++) {
        if (h[j] == '<')
            ang++;
        else if (h[j] == '>' && --ang == 0)
            break;
    }
    return j;
}

/* Where the bracket `open` that closes at o->p[p - 1] (a `close`) opens, going back over nested
 * pairs; -1 if it never does. */
static long open_of(const buf *o, long p, char open, char close)
{
    int depth = 0;
    while (p > 0) {
        char c = o->p[--p];
        if (c == close)
            depth++;
        else if (c == open && --depth == 0)
            return p;
    }
    return -1;
}

static long kernel_start(const buf *o)
{
    long p = (long)o->n;
    p = back_space(o, p);
    while (p > 0 && o->p[p - 1] == ']') { /* an element of an array of kernels, `table[i]<<<` (survey 9:
                                           * NVIDIA's finite-difference sample); the call reads it */
        long q = open_of(o, p, '[', ']');
        if (q < 0)
            return -1;
        p = back_space(o, q);
    }
    for (;;) {
        p = back_space(o, p);
        if (p > 0 && o->p[p - 1] == '>') { /* template arguments */
            long q = open_of(o, p, '<', '>');
            if (q < 0)
                return -1;
            p = q;
            while (p > 0 && isspace((unsigned char)o->p[p - 1]))
                p--;
        }
        long e = p;
        for (;;) { /* a name, and names pasted to it in a macro (`fill_##tag##_kernel`) */
            while (p > 0 && ident_char((unsigned char)o->p[p - 1]))
                p--;
            long h = back_space(o, p);
            if (!(h >= 2 && o->p[h - 1] == '#' && o->p[h - 2] == '#'))
                break;
            h = back_space(o, h - 2);
            if (!(h > 0 && ident_char((unsigned char)o->p[h - 1])))
                break;
            p = h;
        }
        if (p == e || isdigit((unsigned char)o->p[p]))
            return -1;
        long q = p;
        while (q > 0 && isspace((unsigned char)o->p[q - 1]))
            q--;
        if (q >= 2 && o->p[q - 1] == ':' && o->p[q - 2] == ':') {
            p = q - 2;
            long r = p;
            while (r > 0 && isspace((unsigned char)o->p[r - 1]))
                r--;
            if (r == 0 || !ident_char((unsigned char)o->p[r - 1]) ) {
                /* a leading :: (global scope) */
                if (r > 0 && o->p[r - 1] == '>')
                    continue; /* A<T>::k */
                return p;
            }
            continue;
        }
        return p;
    }
}

/* ---- extern __shared__ ----------------------------------------------------------------- */
static void strip_align(char *t)
{
    static const char *const kw[] = {"__align__", "alignas", "__attribute__"};
    for (int k = 0; k < 3; k++) {
        char *p;
        while ((p = strstr(t, kw[k]))) {
            char *q = p + strlen(kw[k]);
            while (*q == ' ')
                q++;
            if (*q != '(')
                break;
            int depth = 0;
            do {
                if (*q == '(')
                    depth++;
                else if (*q == ')')
                    depth--;
                q++;
            } while (*q && depth);
            memmove(p, q, strlen(q) + 1);
        }
    }
}

static void trim(char *t)
{
    for (char *p = t; *p; p++) /* a macro's line continuations are white space */
        if (*p == '\\' && (p[1] == '\n' || p[1] == '\r'))
            *p = ' ';
    size_t a = 0, n = strlen(t);
    while (a < n && isspace((unsigned char)t[a]))
        a++;
    while (n > a && isspace((unsigned char)t[n - 1]))
        n--;
    memmove(t, t + a, n - a);
    t[n - a] = 0;
    for (char *p = t; *p; p++) /* one line: newlines inside would shift line numbers */
        if (*p == '\n' || *p == '\r' || *p == '\t' || (*p == '\\' && (p[1] == '\n' || p[1] == '\r')))
            *p = ' ';
    char *o = t; /* and one space where there were several: the name reports print */
    for (const char *p = t; *p; p++)
        if (*p != ' ' || o == t || o[-1] != ' ')
            *o++ = *p;
    *o = 0;
}

/* decl: the text between `__shared__` and `;`. Emits the replacement. */
static int extern_shared(scan *sc, buf *o, const char *decl, size_t len, int in_fn, char *pending, size_t pn)
{
    char d[1024];
    if (len >= sizeof d) {
        problem(sc, sc->line, "extern __shared__ declaration too long to rewrite");
        return -1;
    }
    memcpy(d, decl, len);
    d[len] = 0;
    char *br = strchr(d, '[');
    if (!br) {
        problem(sc, sc->line, "extern __shared__ without [] (write `extern __shared__ T name[];`)");
        return -1;
    }
    char *close = strchr(br, ']');
    if (!close) {
        problem(sc, sc->line, "extern __shared__: no ] after [");
        return -1;
    }
    char rest[512];
    snprintf(rest, sizeof rest, "%s", close + 1);
    trim(rest);
    char *ne = br;
    while (ne > d && isspace((unsigned char)ne[-1]))
        ne--;
    char *nb = ne;
    while (nb > d && ident_char((unsigned char)nb[-1]))
        nb--;
    if (nb == ne) {
        problem(sc, sc->line, "extern __shared__: no name before [");
        return -1;
    }
    char name[128], type[512];
    snprintf(name, sizeof name, "%.*s", (int)(ne - nb), nb);
    snprintf(type, sizeof type, "%.*s", (int)(nb - d), d);
    strip_align(type);
    trim(type);
    if (!type[0]) {
        problem(sc, sc->line, "extern __shared__ %s: no type", name);
        return -1;
    }
    strip_align(rest); /* `name[] __align__(16)` */
    trim(rest);
    /* name is an lvalue of array type, as in CUDA: `&name` and `(T *)&name` are the shared memory's
     * address (a pointer variable's `&name` was the address of the pointer, on the thread's stack),
     * `name` still decays to T * where a pointer is wanted, and `sizeof(name[0])` is T's size */
    if (in_fn) /* a reference to an array of unknown bound */
        putf(o, "%s (&%s)[]%s = *reinterpret_cast<%s (*)[]%s>(sim_dynamic_shared());", type, name, rest, type, rest);
    else { /* the block's memory differs from launch to launch: an accessor each use calls */
        putf(o, "static inline %s (*simtlab_dynamic_shared_%s())[]%s { return reinterpret_cast<%s (*)[]%s>(sim_dynamic_shared()); }",
             type, name, rest, type, rest);
        /* the #define goes after this line, and a #line puts the numbering back */
        snprintf(pending + strlen(pending), pn - strlen(pending), "#define %s (*simtlab_dynamic_shared_%s())\n#line %d \"%s\"\n",
                 name, name, sc->line + 1, sc->path);
    }
    return 0;
}

/* ---- host and device function definitions ---------------------------------------------- */
/* Whether the word w is in h's code: comments and string or character literals are skipped
 * (a `// the struct above` before a namespace or a kernel is not a keyword) */
static int has_word(const char *h, size_t n, const char *w)
{
    size_t wl = strlen(w);
    for (size_t i = 0; i < n; i++) {
        if (h[i] == '/' && i + 1 < n && h[i + 1] == '/') {
            while (i < n && h[i] != '\n')
                i++;
            continue;
        }
        if (h[i] == '/' && i + 1 < n && h[i + 1] == '*') {
            for (i += 2; i + 1 < n && !(h[i] == '*' && h[i + 1] == '/'); i++)
                ;
            i++;
            continue;
        }
        if (h[i] == '"' || h[i] == '\'') {
            const char q = h[i];
            for (i++; i < n && h[i] != q; i++)
                if (h[i] == '\\')
                    i++;
            continue;
        }
        if (i + wl <= n && !strncmp(h + i, w, wl) && (i == 0 || !ident_char((unsigned char)h[i - 1])) &&
            (i + wl == n || !ident_char((unsigned char)h[i + wl])))
            return 1;
    }
    return 0;
}

/* `template <>` and nothing else of the kind: an explicit specialization, an ordinary function
 * (external, one definition), so it takes the device mark as a plain function does (without it
 * the host pass's strong copy won at link time and the kernel ran uninstrumented: survey 8). A
 * header with two `template` (a member template of a class template) is not one. */
static size_t past_literal(const char *src, size_t i, size_t to);
static int explicit_specialization(const char *h, size_t n)
{
    int templates = 0, empty = 0;
    for (size_t i = 0; i + 8 <= n; i++) {
        if (h[i] == '/' && i + 1 < n && h[i + 1] == '/') { /* comments and literals say nothing */
            while (i < n && h[i] != '\n')
                i++;
            continue;
        }
        const size_t past = past_literal(h, i, n);
        if (past != i) {
            i = past - 1;
            continue;
        }
        if (h[i] == ':' && i + 1 < n && h[i + 1] == ':')
            return 0; /* a member (`S<float>::S(...)`, a constructor, cannot take the mark): left alone */
        if (strncmp(h + i, "template", 8) || (i > 0 && ident_char((unsigned char)h[i - 1])) ||
            (i + 8 < n && ident_char((unsigned char)h[i + 8])))
            continue;
        templates++;
        size_t j = i + 8;
        j = skip_space(h, j, n);
        if (j < n && h[j] == '<') {
            j++;
            j = skip_space(h, j, n);
            empty += j < n && h[j] == '>';
        }
    }
    return templates == 1 && empty == 1;
}

/* The function-pointer parameters of the template clause in header h (`template <void (*K)(int *)>`,
 * `(&K)` too, or `auto K`), at most 8 names of 63 characters, into names; their count. A launch
 * `K<<<...>>>` in the function's body then names the kernel K points to (survey 19:
 * xiaohuangyu's cuda_learning 12_atomic_race/03, whose three kernels were all "Kernel"). */
static int template_fn_params(const char *h, size_t n, char names[8][64])
{
    int k = 0;
    for (size_t i = 0; i < n; i++) {
        size_t j, e = template_clause(h, i, n, &j);
        if (!e)
            continue;
        for (size_t q = j; q < e && k < 8; q++) {
            size_t a, b;
            if (h[q] == '(' && q + 1 < e && (h[q + 1] == '*' || h[q + 1] == '&'))
                a = q + 2;
            else if (q + 4 < e && !strncmp(h + q, "auto", 4) && (q == 0 || !ident_char((unsigned char)h[q - 1])) &&
                     isspace((unsigned char)h[q + 4]))
                a = q + 4;
            else
                continue;
            a = skip_space(h, a, e);
            for (b = a; b < e && ident_char((unsigned char)h[b]); b++)
                ;
            if (b > a && b - a < 64 && !isdigit((unsigned char)h[a])) {
                memcpy(names[k], h + a, b - a);
                names[k++][b - a] = 0;
            }
            q = b > q ? b - 1 : q;
        }
        i = e;
    }
    return k;
}

/* The '<' that opens the template arguments ending at h[e - 1] (a '>'), nested ones skipped;
 * 0 when none does. */
static size_t angle_open(const char *h, size_t e)
{
    int ang = 0;
    size_t k = e;
    while (k > 0) {
        k--;
        ang += h[k] == '>' ? 1 : h[k] == '<' ? -1 : 0;
        if (ang == 0)
            break;
    }
    return k;
}

/* A host function definition at namespace or class scope gets SIMTLAB_HOST_FN
 * (a C++11 attribute: no instrumentation, vectorized as without simtlab)
 * right before its parameter list: host code runs at native speed. header:
 * the text since the last ';', '{' or '}' of this scope. Returns the offset
 * in header to insert at, or -1 (not a function, device code, or a form the
 * attribute cannot take: a macro-looking name, an out-of-class constructor). */
static long host_fn_mark(const char *h, size_t n)
{
    static const char *const skip[] = {"__attribute__", "alignas", "decltype", "__declspec", "__launch_bounds__",
                                       "noexcept", "throw", "sizeof", "alignof", "__align__", NULL};
    int par = 0;
    for (size_t i = 0; i < n; i++) {
        char c = h[i];
        if (c == '/' && i + 1 < n && (h[i + 1] == '/' || h[i + 1] == '*')) { /* a comment */
            size_t j = i + 2;
            if (h[i + 1] == '/')
                while (j < n && h[j] != '\n')
                    j++;
            else
                while (j + 1 < n && !(h[j] == '*' && h[j + 1] == '/'))
                    j++;
            i = j + (h[i + 1] == '*');
            continue;
        }
        if (c == '"' || c == '\'') { /* extern "C" */
            size_t j = i + 1;
            while (j < n && h[j] != c)
                j++;
            i = j;
            continue;
        }
        if (c == '=' && par == 0 && !(i > 0 && strchr("<>=!+-*/%&|^", h[i - 1])) && !(i + 1 < n && h[i + 1] == '='))
            return -1; /* an initializer, or operator= (left alone) */
        size_t lt, gt = template_clause(h, i, n, &lt);
        if (gt) { /* skip template <...> */
            i = gt;
            continue;
        }
        if (c == ')')
            par--;
        if (c != '(')
            continue;
        if (par++ != 0)
            continue;
        size_t e = i;
        while (e > 0 && isspace((unsigned char)h[e - 1]))
            e--;
        size_t b = e;
        if (e > 0 && h[e - 1] == '>' && explicit_specialization(h, n)) { /* `k<float> (`: the id before <...> */
            const size_t k = angle_open(h, e);
            size_t kb = k;
            while (kb > 0 && isspace((unsigned char)h[kb - 1]))
                kb--;
            size_t ib = kb;
            while (ib > 0 && ident_char((unsigned char)h[ib - 1]))
                ib--;
            if (ib < kb && h[k] == '<') /* [[gnu::weak]] after the template-id is GCC's too */
                return (long)e;
            return -1;
        }
        while (b > 0 && ident_char((unsigned char)h[b - 1]))
            b--;
        if (b == e) { /* operator+ ( ... ): the symbol follows "operator" */
            size_t k = e;
            while (k > 0 && strchr("+-*/%^&|~!=<>[],", h[k - 1]))
                k--;
            while (k > 0 && isspace((unsigned char)h[k - 1]))
                k--;
            if (k >= 8 && !strncmp(h + k - 8, "operator", 8) && k < e)
                return (long)e;
            return -1;
        }
        char id[64];
        snprintf(id, sizeof id, "%.*s", (int)(e - b < 63 ? e - b : 63), h + b);
        int is_skip = 0;
        for (int k = 0; skip[k]; k++)
            is_skip |= !strcmp(id, skip[k]);
        if (is_skip) { /* its group is not the parameter list */
            int d = 0;
            size_t j = i;
            for (; j < n; j++) {
                if (h[j] == '(')
                    d++;
                else if (h[j] == ')' && --d == 0)
                    break;
            }
            i = j;
            par = 0;
            continue;
        }
        if (!strcmp(id, "operator")) { /* operator() (params) */
            size_t j = i + 1;
            j = skip_space(h, j, n);
            if (j < n && h[j] == ')') {
                j++;
                j = skip_space(h, j, n);
                return j < n && h[j] == '(' ? (long)j : -1;
            }
            return -1;
        }
        int caps = 1; /* FOO(x) { : a macro, most likely */
        for (const char *p = id; *p; p++)
            caps &= !islower((unsigned char)*p);
        if (caps && (strlen(id) >= 4 || strchr(id, '_')))
            return -1;
        /* X::X( and X::~X( : a constructor or destructor defined outside its class, X<T>::X( of a
         * class template too (CUDA samples' exception.h): g++ takes neither with an attribute
         * between the name and its parameters ("names the constructor, not the type") */
        size_t q = b;
        if (q > 0 && h[q - 1] == '~')
            q--;
        if (q >= 2 && h[q - 1] == ':' && h[q - 2] == ':') {
            size_t ce = q - 2;
            while (ce > 0 && isspace((unsigned char)h[ce - 1]))
                ce--;
            if (ce > 0 && h[ce - 1] == '>') { /* X<...>: back over the template arguments */
                ce = angle_open(h, ce);
                while (ce > 0 && isspace((unsigned char)h[ce - 1]))
                    ce--;
            }
            size_t cb = ce;
            while (cb > 0 && ident_char((unsigned char)h[cb - 1]))
                cb--;
            if (ce - cb == e - b && !strncmp(h + cb, h + b, e - b))
                return -1;
        }
        /* `m(x) f(y) {`: a function-like macro invoked without a `;` before the definition
         * (CImg.h's `_cimg_create_ext_operators(bool)` lines): the group was its arguments, not
         * a parameter list; left unmarked */
        int d = 0;
        size_t j = i;
        for (; j < n; j++)
            if (h[j] == '(')
                d++;
            else if (h[j] == ')' && --d == 0)
                break;
        size_t k = skip_space(h, j + 1, n), ke = k;
        while (ke < n && ident_char((unsigned char)h[ke]))
            ke++;
        if (ke > k && !isdigit((unsigned char)h[k]) && skip_space(h, ke, n) < n && h[skip_space(h, ke, n)] == '(') {
            int qualifier = 0;
            for (int q = 0; skip[q]; q++)
                qualifier |= ke - k == strlen(skip[q]) && !strncmp(h + k, skip[q], ke - k);
            if (!qualifier && !(ke - k == 8 && !strncmp(h + k, "requires", 8)))
                return -1;
        }
        return (long)e;
    }
    return -1;
}

/* ---- the scan ------------------------------------------------------------------------------- */
/* `malloc(`, `free(` or `clock(` at src[i..e) in device code, called as the C library's (plain,
 * `::` or `std::`; not a member, `x.free(p)`, nor another scope's, `Pool::free(p)`): on a GPU
 * malloc and free allocate from the device heap (cudaLimitMallocHeapSize) and clock reads the
 * SM's cycle counter, so they become simtlab_device_malloc / simtlab_device_free (sim/run/cudart.c)
 * and simtlab_clock (cuda_runtime.h), which do so inside a kernel and call the C library's from
 * host code (a __host__ __device__ function). Host code keeps the C library's names. */
/* Where a string or character literal or a block comment starting at src[i] ends (before to), or
 * i when none starts there: what a scan of code text skips. */
static size_t past_literal(const char *src, size_t i, size_t to)
{
    const char c = src[i];
    if (c == '"' || c == '\'') {
        for (i++; i < to && src[i] != c; i++)
            if (src[i] == '\\')
                i++;
        return i + 1;
    }
    if (c == '/' && i + 1 < to && src[i + 1] == '*') {
        for (i += 2; i + 1 < to && !(src[i] == '*' && src[i + 1] == '/'); i++)
            ;
        return i + 2;
    }
    return i;
}

static int heap_call(const char *src, size_t i, const char *id, size_t len, size_t e, size_t n)
{
    if (!((len == 6 && !strncmp(id, "malloc", 6)) || (len == 4 && !strncmp(id, "free", 4)) ||
          (len == 5 && !strncmp(id, "clock", 5))))
        return 0;
    while (e < n && isspace((unsigned char)src[e]))
        e++;
    if (e >= n || src[e] != '(')
        return 0;
    size_t b = i;
    while (b > 0 && isspace((unsigned char)src[b - 1]))
        b--;
    if (b > 0 && (src[b - 1] == '.' || (src[b - 1] == '>' && b > 1 && src[b - 2] == '-')))
        return 0;
    if (b > 1 && src[b - 1] == ':' && src[b - 2] == ':') { /* qualified: only ::free and std::free */
        b -= 2;
        while (b > 0 && isspace((unsigned char)src[b - 1]))
            b--;
        size_t q = b;
        while (q > 0 && ident_char((unsigned char)src[q - 1]))
            q--;
        if ((b > q && !(b - q == 3 && !strncmp(src + q, "std", 3))) || (b == q && b > 0 && src[b - 1] == '>'))
            return 0; /* another scope's: Pool::free, Arena<int>::free */
    }
    return 1;
}

/* `new` at src[i..e) in device code. On a GPU it allocates from the device heap, as malloc does
 * there (and gives nullptr when it is full: no exception), so `new T(...)`, `new T[n]` become
 * `new (simtlab_device_heap) T...` (cuda_runtime.h: the allocation functions call
 * simtlab_device_malloc). Placement new, `new (p) T`, allocates nothing and stays, as does an
 * `operator new` declaration. delete is not rewritten: the program's operator delete
 * (cuda_runtime.h) gives a heap block back to the heap. Where a replacement was written, the index
 * past what it replaced; else 0; and (size_t)-1 for `new (std::nothrow)`, which nvcc refuses in
 * device code (that operator new is a host function). */
static size_t device_new(buf *o, const char *src, size_t i, size_t e, size_t n)
{
    size_t b = i;
    while (b > 0 && isspace((unsigned char)src[b - 1]))
        b--;
    size_t w = b;
    while (w > 0 && ident_char((unsigned char)src[w - 1]))
        w--;
    if (b - w == 8 && !strncmp(src + w, "operator", 8))
        return 0;
    const size_t q = skip_space(src, e, n);
    if (q < n && src[q] == '(') { /* placement, or std::nothrow */
        size_t c = q + 1;
        while (c < n && src[c] != ')' && src[c] != '\n')
            c++;
        if (c >= n || src[c] != ')')
            return 0;
        size_t a = skip_space(src, q + 1, c), z = c;
        while (z > a && isspace((unsigned char)src[z - 1]))
            z--;
        if (z - a >= 2 && src[a] == ':' && src[a + 1] == ':')
            a = skip_space(src, a + 2, z);
        if (z - a >= 3 && !strncmp(src + a, "std", 3) && !ident_char((unsigned char)src[a + 3])) {
            a = skip_space(src, a + 3, z);
            if (z - a < 2 || src[a] != ':' || src[a + 1] != ':')
                return 0;
            a = skip_space(src, a + 2, z);
        }
        return z - a == 7 && !strncmp(src + a, "nothrow", 7) ? (size_t)-1 : 0; /* else placement new */
    }
    puts_(o, "new (simtlab_device_heap)");
    return e;
}

/* As many newlines as src[a..b) holds (text dropped from a line range: later lines keep their
 * numbers); returns how many, for the scanner's own count */
static int put_newlines(buf *o, const char *src, size_t a, size_t b)
{
    int k = 0;
    for (size_t q = a; q < b; q++)
        if (src[q] == '\n')
            put(o, "\n", 1), k++;
    return k;
}

/* src[j..): a cast to `void *` or `const void *` of a name (`k`, `&k`, `ns::k`, `k<float, 4>`),
 * C's `(void *)k` or `reinterpret_cast<const void *>(k)`, followed by `end`: 1 with the name at
 * src[*past..*op_end) and *stop at `end` */
static int void_cast_name(const char *src, size_t j, size_t n, char end, size_t *past, size_t *op_end, size_t *stop)
{
    j = skip_space(src, j, n);
    int rc = 0; /* reinterpret_cast<...>(name) */
    if (j + 16 < n && !strncmp(src + j, "reinterpret_cast", 16) && !ident_char((unsigned char)src[j + 16])) {
        rc = 1;
        j = skip_space(src, j + 16, n);
        if (j >= n || src[j] != '<')
            return 0;
    } else if (j >= n || src[j] != '(') {
        return 0;
    }
    j = skip_space(src, j + 1, n);
    if (j + 5 < n && !strncmp(src + j, "const", 5) && !ident_char((unsigned char)src[j + 5]))
        j = skip_space(src, j + 5, n);
    if (j + 4 >= n || strncmp(src + j, "void", 4) || ident_char((unsigned char)src[j + 4]))
        return 0;
    j = skip_space(src, j + 4, n);
    if (j >= n || src[j] != '*')
        return 0;
    j = skip_space(src, j + 1, n);
    if (j >= n || src[j] != (rc ? '>' : ')'))
        return 0;
    j = skip_space(src, j + 1, n);
    if (rc) {
        if (j >= n || src[j] != '(')
            return 0;
        j = skip_space(src, j + 1, n);
    }
    const size_t operand = j;
    size_t k = operand;
    if (k < n && src[k] == '&')
        k = skip_space(src, k + 1, n);
    for (;;) { /* a name, maybe qualified: ns::k */
        if (k + 1 < n && src[k] == ':' && src[k + 1] == ':')
            k = skip_space(src, k + 2, n);
        const size_t id = k;
        while (k < n && ident_char((unsigned char)src[k]))
            k++;
        if (k == id || isdigit((unsigned char)src[id]))
            return 0;
        const size_t q = skip_space(src, k, n);
        if (q + 1 < n && src[q] == ':' && src[q + 1] == ':') {
            k = q;
            continue;
        }
        break;
    }
    k = skip_space(src, k, n);
    if (k < n && src[k] == '<') { /* template arguments, balanced */
        int d = 0;
        for (; k < n; k++) {
            d += (src[k] == '<' || src[k] == '(') - (src[k] == '>' || src[k] == ')');
            if (!d)
                break;
            if (src[k] == ';' || src[k] == '{')
                return 0;
        }
        if (k >= n)
            return 0;
        k = skip_space(src, k + 1, n);
    }
    size_t oe = k;
    while (oe > operand && isspace((unsigned char)src[oe - 1]))
        oe--;
    if (rc) { /* its closing parenthesis */
        if (k >= n || src[k] != ')')
            return 0;
        k = skip_space(src, k + 1, n);
    }
    if (k >= n || src[k] != end)
        return 0;
    *past = operand;
    *op_end = oe;
    *stop = k;
    return 1;
}

/* `cudaLaunchKernel((void *)kernel, ...)`, CUDA's C form, as library-style code and NVIDIA's samples
 * write it (or `reinterpret_cast<const void *>(kernel)`): the cast drops the parameter types, which
 * the simulator needs to read args (a GPU's driver has them from the kernel's metadata), so the
 * rewriter drops the cast and the C++ overload (the shim's, over the kernel's type) takes the call.
 * Only a cast of a name as the first argument (void_cast_name): src[e..) follows the function's
 * name; returns 1 with *open the call's '(', the name at src[*past..*op_end), *stop at the ','. */
static int launch_void_cast(const char *src, size_t e, size_t n, size_t *open, size_t *past, size_t *op_end,
                            size_t *stop)
{
    const size_t j = skip_space(src, e, n);
    if (j >= n || src[j] != '(')
        return 0;
    *open = j;
    return void_cast_name(src, j + 1, n, ',', past, op_end, stop);
}

/* The same for a kernel node's `params.func = (void *)kernel;` (NVIDIA's simpleCudaGraphs), in a
 * file that names cudaKernelNodeParams: src[e..) follows `func`, a member (after `.` or `->`); 1
 * with *eq past the '=' and the name at src[*past..*stop), which becomes
 * `simtlab_node_func(name)` (the shim's: the kernel with its type for a kernel, `(void *)name`
 * for anything else, so that another struct's `func` member is as before) */
static int func_void_cast(const char *src, size_t e, size_t n, size_t *eq, size_t *past, size_t *op_end,
                          size_t *stop)
{
    const size_t j = skip_space(src, e, n);
    if (j + 1 >= n || src[j] != '=' || src[j + 1] == '=')
        return 0;
    *eq = j + 1;
    return void_cast_name(src, j + 1, n, ';', past, op_end, stop);
}

/* ---- inline PTX: cp.async, ldmatrix, mma.sync ------------------------------------------------
 * `asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(s), "l"(g))` and its kin
 * (commit_group, wait_group N, wait_all), the asynchronous copies of GEMM and attention kernels
 * written before cuda::pipeline (often in macros: CP_ASYNC_CG(dst, src, bytes)), become a call
 * `simtlab_ptx_asm("template", n, simtlab_ptx_bits(s), ...)`; ldmatrix and mma.sync, which have
 * outputs, `simtlab_ptx_asm_io(__FILE__, __LINE__, "template", nout, nin, (void *)&(r0),
 * sizeof(r0), ..., simtlab_ptx_bits(in0), ...)` (sim/run/ptx.c parses the template and does the
 * work). Only an asm whose every instruction is one of these; anything else stays, and is
 * refused in one line. */
/* 0: not translated; 1: an instruction; 2: one of a guarded block (its braces, `.reg .pred`,
 * `setp`, `@p`). In *writes, bit 0 for an instruction that writes registers (ld, mov: those must
 * be the asm's outputs, so such an asm has some), bit 1 for one that accesses memory (ld, st). */
static int ptx_insn_ok(const char *t, size_t n, int *writes)
{
    const char *t0 = t;
    const size_t n0 = n;
    ptx_trim(&t, &n);
    int braces = 0; /* the scope's braces trim took away */
    for (size_t i = 0; i < n0; i++)
        braces += (t0[i] == '{' || t0[i] == '}') && (t0 + i < t || t0 + i >= t + n);
    if (!n)
        return braces ? 2 : 1;
    /* a predicate for the copies below it: `.reg .pred p;`, `setp.ne.b32 p, %0, 0;` (sim/run/ptx.c) */
    if (n > 10 && !strncmp(t, ".reg .pred", 10))
        return !memchr(t, '{', n) && !memchr(t, '@', n) ? 2 : 0;
    if (n > 11 && (!strncmp(t, "setp.ne.", 8) || !strncmp(t, "setp.eq.", 8)) &&
        (!strncmp(t + 8, "b32", 3) || !strncmp(t + 8, "s32", 3) || !strncmp(t + 8, "u32", 3)))
        return !memchr(t, '{', n) && !memchr(t, '@', n) ? 2 : 0;
    const size_t g = ptx_guard(t, n);
    t += g, n -= g;
    /* ld, st and mov of registers (CUTLASS's guarded global loads and stores, vector shared
     * accesses): a register list only in an ld's or st's operands */
    ptx_ldst m;
    if (n && !memchr(t, '@', n) && (ptx_ldst_parse(t, n, &m) || ptx_mov_parse(t, n))) {
        *writes |= (t[0] != 's') | (t[0] != 'm') << 1;
        return g || braces ? 2 : 1;
    }
    /* the asm's own registers and the conversions of a generic address to a shared one
     * (`{.reg .u64 a; cvta.to.shared.u64 a, %1; cvt.u32.u64 %0, a;}`: __cvta_generic_to_shared as
     * YHs' and nnfusion's sgemm write it) */
    if (!g && ptx_local_reg(t, n))
        return 2;
    if (n && !memchr(t, '@', n) && ptx_convert_parse(t, n)) {
        *writes |= 1;
        return g || braces ? 2 : 1;
    }
    static const char *const ok[] = {"cp.async.ca.shared", "cp.async.cg.shared", "cp.async.commit_group",
                                     "cp.async.wait_group", "cp.async.wait_all", "ldmatrix.sync.aligned.",
                                     "mma.sync.aligned.m16n8k16.", "mma.sync.aligned.m16n8k8."};
    for (size_t k = 0; k < sizeof ok / sizeof *ok; k++) {
        const size_t l = strlen(ok[k]);
        if (n >= l && !strncmp(t, ok[k], l)) /* a guard on copies only; register lists only in ldmatrix and mma */
            return !memchr(t, '@', n) && (k >= 5 ? !g : !memchr(t, '{', n)) ? (g || braces ? 2 : 1) : 0;
    }
    return 0;
}

/* The template's instructions (its string literals' contents, between `from` and `to`), each one
 * translated? The template's largest %N in *maxop (-1: none). */
static int ptx_template_ok(const char *src, size_t from, size_t to, int *maxop, int *block, int *writes, int *pp)
{
    char t[1024];
    size_t tn = 0;
    *pp = 0;
    for (size_t i = from; i < to;) {
        if (src[i] == '/' && i + 1 < to && (src[i + 1] == '*' || src[i + 1] == '/')) { /* a comment */
            const size_t past = src[i + 1] == '*' ? past_literal(src, i, to) : i;
            i = past != i ? past : i + strcspn(src + i, "\n");
            continue;
        }
        if (src[i] == '#') { /* `#if __CUDACC_VER_MAJOR__ >= 11` between the literals (YHs' ldg32_nc): every
                              * branch's instructions are read; the directives stay for the preprocessor */
            size_t b = i;
            while (b > from && (src[b - 1] == ' ' || src[b - 1] == '\t'))
                b--;
            if (b > from && src[b - 1] != '\n')
                return 0;
            while (i < to && src[i] != '\n') /* to the line's end, continuations too */
                i += src[i] == '\\' && i + 1 < to && src[i + 1] == '\n' ? 2 : 1;
            *pp = 1;
            continue;
        }
        if (src[i] != '"') {
            if (!isspace((unsigned char)src[i]) && src[i] != '\\')
                return 0; /* a macro or a raw string in the template: not ours to read */
            i++;
            continue;
        }
        for (i++; i < to && src[i] != '"'; i++) {
            char c = src[i];
            if (c == '\\' && i + 1 < to) {
                c = src[++i];
                c = c == 'n' ? '\n' : c == 't' ? '\t' : c;
            }
            if (tn + 1 >= sizeof t)
                return 0;
            t[tn++] = c;
        }
        i++;
    }
    t[tn] = 0;
    *maxop = -1;
    for (size_t i = 0; i < tn; i++)
        if (t[i] == '%') {
            if (!isdigit((unsigned char)t[i + 1]))
                return 0; /* %% (a PTX register) or %[name] */
            const int k = atoi(t + i + 1);
            *maxop = k > *maxop ? k : *maxop;
        }
    size_t a = 0;
    *block = 0;
    *writes = 0;
    for (size_t i = 0; i <= tn; i++)
        if (i == tn || t[i] == ';' || t[i] == '\n') {
            const int ok = ptx_insn_ok(t + a, i - a, writes);
            if (!ok)
                return 0;
            *block |= ok == 2;
            a = i + 1;
        }
    return 1;
}

/* src[a..b) on one line: comments and a macro's continuations dropped, newlines made spaces */
static void put_one_line(buf *o, const char *src, size_t a, size_t b)
{
    for (size_t q = a; q < b;) {
        const size_t past = past_literal(src, q, b);
        if (past != q) { /* a literal as it is; a block comment a space */
            if (src[q] == '/')
                put(o, " ", 1);
            else
                put(o, src + q, past - q);
            q = past;
        } else if (src[q] == '/' && q + 1 < b && src[q + 1] == '/') {
            while (q < b && src[q] != '\n')
                q++;
        } else if (src[q] == '\\' && q + 1 < b && (src[q + 1] == '\n' || src[q + 1] == '\r')) {
            q += src[q + 1] == '\r' && q + 2 < b && src[q + 2] == '\n' ? 3 : 2;
        } else {
            put(o, src[q] == '\n' || src[q] == '\r' ? " " : src + q, 1);
            q++;
        }
    }
}

/* Past white space, continuations and comments from src[q] (before end). */
static size_t past_gap(const char *src, size_t q, size_t end)
{
    while (q < end) {
        if (isspace((unsigned char)src[q]) || src[q] == '\\')
            q++;
        else if (src[q] == '/' && q + 1 < end && src[q + 1] == '*')
            q = past_literal(src, q, end);
        else if (src[q] == '/' && q + 1 < end && src[q + 1] == '/')
            while (q < end && src[q] != '\n')
                q++;
        else
            break;
    }
    return q;
}

/* An asm statement at src[i] (its keyword, asm or __asm__, ending at e; before `to`): written as
 * the call (above) into o, with a newline (a continuation in a macro: cont) for each it spans;
 * returns the index past its ')', or 0 when it is not one to translate (o untouched). */
static size_t ptx_asm(buf *o, const char *src, size_t i, size_t e, size_t to, int cont)
{
    size_t k = e;
    for (;;) {
        while (k < to && (isspace((unsigned char)src[k]) || src[k] == '\\'))
            k++;
        size_t w = k;
        while (w < to && ident_char((unsigned char)src[w]))
            w++;
        if (w > k && ((w - k == 8 && !strncmp(src + k, "volatile", 8)) ||
                      (w - k == 12 && !strncmp(src + k, "__volatile__", 12)))) {
            k = w;
            continue;
        }
        break;
    }
    if (k >= to || src[k] != '(')
        return 0;
    /* the sections at depth 1: template, outputs, inputs, clobbers (`::` is two separators) */
    size_t sec[5], nsec = 0, depth = 0, close = 0;
    sec[nsec++] = k + 1;
    for (size_t q = k; q < to && !close;) {
        const size_t past = past_literal(src, q, to);
        if (past != q) {
            q = past;
            continue;
        }
        if (src[q] == '/' && q + 1 < to && src[q + 1] == '/') { /* a line comment: its ':' is no separator */
            q = past_gap(src, q, to);
            continue;
        }
        const char c = src[q];
        if (c == '(' || c == '[' || c == '{')
            depth++;
        else if (c == ')' || c == ']' || c == '}') {
            if (--depth == 0)
                close = q;
        } else if (c == ':' && depth == 1) {
            if (nsec == 5)
                return 0;
            sec[nsec++] = q + 1;
        }
        q++;
    }
    if (!close)
        return 0;
    if (nsec == 1) /* a basic asm, `asm volatile("cp.async.wait_all;")`: no operands */
        sec[nsec++] = close + 1, sec[nsec++] = close + 1;
    else if (nsec == 2) /* outputs only: `asm("mov.f32 %0, 0f3F800000;" : "=f"(one))` */
        sec[nsec++] = close + 1;
    int maxop, block, writes, pp;
    if (!ptx_template_ok(src, sec[0], sec[1] - 1, &maxop, &block, &writes, &pp) || (pp && cont))
        return 0;
    /* the outputs, then the inputs: "constraint" (expression), ... (operands %0... in that order) */
    const size_t in_end = nsec > 3 ? sec[3] - 1 : close;
    size_t args[32][2], nargs = 0, nout = 0;
    for (int part = 0; part < 2; part++) {
        const size_t from = sec[1 + part], end = part ? in_end : sec[2] - 1;
        for (size_t q = from; q < end;) {
            q = past_gap(src, q, end);
            if (q < end && src[q] == ',')
                q = past_gap(src, q + 1, end);
            if (q >= end)
                break;
            if (src[q] != '"' || nargs == 32)
                return 0;
            if (!part && (q + 1 >= end || (src[q + 1] != '=' && src[q + 1] != '+')))
                return 0;
            q = past_gap(src, past_literal(src, q, end), end);
            if (q >= end || src[q] != '(')
                return 0;
            size_t d = 0, r = q;
            do {
                const size_t past = past_literal(src, r, end);
                if (past != r) {
                    r = past;
                    continue;
                }
                d += src[r] == '(';
                d -= src[r] == ')';
                r++;
            } while (r < end && d);
            if (d)
                return 0;
            args[nargs][0] = q, args[nargs][1] = r;
            nargs++;
            nout += !part;
            q = r;
        }
    }
    if (maxop >= (int)nargs || ((writes & 1) && !nout)) /* an ld or mov with nothing to write to */
        return 0;
    /* the outputs' addresses and sizes first; the call's line for warp-wide misuse and for the
     * reports of its loads and stores */
    const int io = nout || (writes & 2);
    if (io)
        puts_(o, "simtlab_ptx_asm_io(__FILE__, __LINE__, ");
    else
        puts_(o, "simtlab_ptx_asm(");
    size_t kept = 0; /* the template's newlines, kept around its directives */
    if (pp) {
        put(o, src + sec[0], sec[1] - 1 - sec[0]); /* as written: its directives at their lines' starts */
        for (size_t q = sec[0]; q < sec[1] - 1; q++)
            kept += src[q] == '\n';
    } else {
        put_one_line(o, src, sec[0], sec[1] - 1); /* the template's literals */
    }
    if (io)
        putf(o, ", %d", (int)nout);
    putf(o, ", %d", (int)(nargs - nout));
    for (size_t a = 0; a < nargs; a++) {
        if (a < nout) {
            puts_(o, ", (void *)&");
            put_one_line(o, src, args[a][0], args[a][1]);
            puts_(o, ", sizeof");
            put_one_line(o, src, args[a][0], args[a][1]);
        } else {
            puts_(o, ", simtlab_ptx_bits");
            put_one_line(o, src, args[a][0], args[a][1]);
        }
    }
    puts_(o, ")");
    for (size_t q = i; q <= close; q++)
        if (src[q] == '\n' && !(kept && kept--))
            puts_(o, cont ? " \\\n" : "\n");
    return close + 1;
}

/* A #define line, src[from..to), copied with its malloc/free/clock calls renamed as heap_call
 * says: the macro may be expanded in device code, and the renamed functions call the C
 * library's from host code (comments and strings in it are copied as they are) */
static void put_define(scan *sc, buf *o, const char *src, size_t from, size_t to, size_t n, rewrite_result *r)
{
    size_t i = from, done = from;
    while (i < to && src[i] != '#')
        i++;
    for (i++; i < to && isspace((unsigned char)src[i]); i++)
        ;
    i += 6; /* "define" */
    while (i < to && isspace((unsigned char)src[i]))
        i++;
    while (i < to && ident_char((unsigned char)src[i])) /* the macro's own name stays */
        i++;
    while (i < to) {
        char c = src[i];
        const size_t past = past_literal(src, i, to);
        if (past != i) {
            i = past;
            continue;
        }
        if (c == '/' && i + 1 < to && src[i + 1] == '/')
            break;
        if (ident_char((unsigned char)c) && !(i > from && ident_char((unsigned char)src[i - 1]))) {
            size_t e = i;
            while (e < to && ident_char((unsigned char)src[e]))
                e++;
            /* `extern __shared__ T n[];` in a function the macro defines (NVIDIA's cudasharedmem.h:
             * `__device__ T *get() { extern __shared__ T s[]; return s; }`): as in a function */
            size_t k = e;
            while (k < to && (isspace((unsigned char)src[k]) || src[k] == '\\'))
                k++;
            if (e - i == 6 && !strncmp(src + i, "extern", 6) && k + 10 < to && !strncmp(src + k, "__shared__", 10) &&
                !ident_char((unsigned char)src[k + 10]) && memchr(src + from, '{', i - from)) {
                size_t d1 = k + 10;
                while (d1 < to && src[d1] != ';')
                    d1++;
                char none[4] = "";
                size_t mark = o->n;
                put(o, src + done, i - done);
                if (d1 < to && !extern_shared(sc, o, src + k + 10, d1 - k - 10, 1, none, sizeof none)) {
                    for (size_t q = i; q < d1; q++) /* the continuations it spanned: the lines keep their numbers */
                        if (src[q] == '\n')
                            put(o, " \\\n", 3);
                    done = i = d1 + 1; /* its own ';' ends the replacement */
                    continue;
                }
                o->n = mark; /* left as it was: g++ says what is wrong */
            }
            if ((e - i == 3 && !strncmp(src + i, "asm", 3)) || (e - i == 7 && !strncmp(src + i, "__asm__", 7))) {
                const size_t mark = o->n;
                put(o, src + done, i - done);
                const size_t past = ptx_asm(o, src, i, e, to, 1);
                if (past) {
                    done = i = past;
                    continue;
                }
                o->n = mark;
            }
            if (heap_call(src, i, src + i, e - i, e, n)) {
                put(o, src + done, i - done);
                puts_(o, e - i == 6 ? "simtlab_device_malloc" : e - i == 4 ? "simtlab_device_free" : "simtlab_clock");
                r->heap_calls += e - i != 5;
                done = e;
            }
            i = e;
            continue;
        }
        i++;
    }
    put(o, src + done, to - done);
}

/* ---- macros that make a function device code -------------------------------------------- */
/* Object-like macros that stand for __device__ or __global__ (`#define DEV __host__ __device__`,
 * `#define KERNEL __global__`): a function they qualify is device code, as with the keyword itself
 * (it keeps the built-ins' names, gets the device mark). Those of this file and of the program's
 * headers it includes by a quoted name beside it (`#include "common.h"`), where such macros live. */
typedef struct dev_macros {
    char name[32][64];
    char fixed[32]; /* the macro also says static or inline: no weak mark (below) */
    int n;
    int headers; /* headers read: each once, 64 at most */
    char seen[64][512];
    char (*defs)[64]; /* every name #defined in this file and those headers (cond_line), n_defs of them */
    int n_defs, cap_defs;
} dev_macros;

/* d: the text after `define`: its name joins m->defs */
static void def_name_add(dev_macros *m, const char *d, size_t len)
{
    size_t a = 0, b;
    while (a < len && isspace((unsigned char)d[a]))
        a++;
    for (b = a; b < len && ident_char((unsigned char)d[b]); b++)
        ;
    if (b == a || b - a >= 64)
        return;
    if (m->n_defs == m->cap_defs) {
        int cap = m->cap_defs ? 2 * m->cap_defs : 64;
        char(*nd)[64] = cap <= 65536 ? realloc(m->defs, (size_t)cap * sizeof *nd) : NULL;
        if (!nd)
            return; /* a name not kept is taken as undefined: at worst a feature is left to g++ to name */
        m->defs = nd;
        m->cap_defs = cap;
    }
    snprintf(m->defs[m->n_defs++], 64, "%.*s", (int)(b - a), d + a);
}

/* d: the text after `define`, len bytes */
static void dev_macro_define(dev_macros *m, const char *d, size_t len)
{
    size_t a = 0, b;
    while (a < len && isspace((unsigned char)d[a]))
        a++;
    for (b = a; b < len && ident_char((unsigned char)d[b]); b++)
        ;
    if (m->n >= 32 || b == a || b - a >= 64 || b >= len || d[b] == '(' || /* a function-like macro */
        !(has_word(d + b, len - b, "__device__") || has_word(d + b, len - b, "__global__")))
        return;
    for (int k = 0; k < m->n; k++)
        if (strlen(m->name[k]) == b - a && !strncmp(m->name[k], d + a, b - a))
            return;
    m->fixed[m->n] = (char)(has_word(d + b, len - b, "static") || has_word(d + b, len - b, "inline") ||
                            has_word(d + b, len - b, "__forceinline__") || has_word(d + b, len - b, "constexpr"));
    snprintf(m->name[m->n++], 64, "%.*s", (int)(b - a), d + a);
}

/* The #define and quoted #include lines of text (the header at path, included by name, depth deep) */
static void dev_macros_of(dev_macros *m, const char *path, const char *text, size_t n, int depth)
{
    for (size_t i = 0; i < n;) {
        size_t e = i;
        while (e < n && (text[e] != '\n' || (e > i && text[e - 1] == '\\') ||
                         (e > i + 1 && text[e - 1] == '\r' && text[e - 2] == '\\'))) /* with its continuations */
            e++;
        size_t k = i;
        while (k < e && isspace((unsigned char)text[k]))
            k++;
        if (k < e && text[k] == '#') {
            for (k++; k < e && isspace((unsigned char)text[k]); k++)
                ;
            if (e - k > 6 && !strncmp(text + k, "define", 6) && isspace((unsigned char)text[k + 6])) {
                dev_macro_define(m, text + k + 6, e - k - 6);
                def_name_add(m, text + k + 6, e - k - 6);
            }
            else if (e - k > 7 && !strncmp(text + k, "include", 7) && depth < 8) {
                const char *q = memchr(text + k, '"', e - k), *q2 = q ? memchr(q + 1, '"', (size_t)(text + e - q - 1)) : NULL;
                const char *slash = strrchr(path, '/');
                char file[sizeof m->seen[0]];
                FILE *f = NULL;
                if (q2 && q2 > q + 1 && q[1] != '/' && m->headers < 64 &&
                    snprintf(file, sizeof file, "%.*s%.*s", slash ? (int)(slash + 1 - path) : 0, path, (int)(q2 - q - 1), q + 1) <
                        (int)sizeof file) {
                    int seen = 0;
                    for (int h = 0; h < m->headers; h++)
                        seen |= !strcmp(m->seen[h], file);
                    if (!seen && (f = fopen(file, "rb")))
                        memcpy(m->seen[m->headers++], file, sizeof file);
                }
                if (f) {
                    char *h = malloc(1 << 22);
                    size_t hn = h ? fread(h, 1, (1 << 22) - 1, f) : 0;
                    fclose(f);
                    if (h)
                        dev_macros_of(m, file, h, hn, depth + 1);
                    free(h);
                }
            }
        }
        i = e + 1;
    }
}

/* ---- branches the preprocessor surely drops ---------------------------------------------- */
/* A program may name an unsupported feature in a branch its build leaves out: llm.c's dev kernels
 * include <cudnn_frontend.h> inside `#ifdef ENABLE_CUDNN`, which their Makefile sets only on
 * request (survey 11). Such a branch is not reported. "Surely" is kept narrow: `#if 0` and `#if 1`,
 * and `#ifdef`, `#ifndef`, `#if [!]defined(NAME)`, `#if [!]NAME`, and the `#elif` and `#else` after
 * them, where NAME is given with -D (defined), or is defined nowhere the rewrite can see (not in
 * this file, not in the headers it includes by a quoted name, transitively) and is not a name a
 * system header would define (a leading underscore, or an include guard's ..._H, _H_, _HPP,
 * _INCLUDED). Anything else (an expression, a name some file defines) is taken, as before. A
 * branch wrongly taken as dropped costs only the one-line message: g++, or the shim's header for
 * the library (sim/run/include/cudnn.h), still stops the build and names the problem. */
enum { COND_TAKEN = 1, COND_DROPPED, COND_UNKNOWN };
typedef struct cond_ctx {
    const char *const *defines; /* the -D values: NAME or NAME=VALUE */
    int n_defines;
    const dev_macros *dm;
    unsigned char state[64], done[64], maybe[64]; /* per open #if: this branch; one before surely / maybe taken */
    int depth;                                     /* open #ifs (those past 64 are taken as unknown) */
} cond_ctx;

/* 1: defined (-D), 0: surely undefined, -1: not known */
static int cond_name(const cond_ctx *c, const char *id, size_t len)
{
    for (int k = 0; k < c->n_defines; k++) {
        const char *d = c->defines[k];
        size_t dl = strcspn(d, "=");
        if (dl == len && !strncmp(d, id, len))
            return 1;
    }
    static const char *const guard[] = {"_H", "_H_", "_H__", "_HPP", "_HPP_", "_INCLUDED", "_INCLUDED_"};
    if (id[0] == '_')
        return -1;
    for (size_t k = 0; k < sizeof guard / sizeof *guard; k++) {
        size_t gl = strlen(guard[k]);
        if (len > gl && !strncmp(id + len - gl, guard[k], gl))
            return -1;
    }
    for (int k = 0; k < c->dm->n_defs; k++)
        if (strlen(c->dm->defs[k]) == len && !strncmp(c->dm->defs[k], id, len))
            return -1;
    return 0;
}

/* The condition of `#if e` (n bytes, to the line's end), or of `#ifdef`/`#ifndef e` (form 1, 2). */
static int cond_eval(const cond_ctx *c, const char *e, size_t n, int form)
{
    size_t i = 0;
    for (size_t k = 0; k + 1 < n; k++) /* a comment ends the condition */
        if (e[k] == '/' && (e[k + 1] == '/' || e[k + 1] == '*')) {
            n = k;
            break;
        }
    while (n > 0 && isspace((unsigned char)e[n - 1]))
        n--;
#define SKIP_SPACE() while (i < n && isspace((unsigned char)e[i])) i++
    SKIP_SPACE();
    int neg = form == 2, r = COND_UNKNOWN, def = form != 0;
    if (!form && i < n && e[i] == '!') {
        neg = 1;
        i++;
        SKIP_SPACE();
    }
    if (!form && i < n && isdigit((unsigned char)e[i])) {
        size_t a = i;
        while (i < n && isdigit((unsigned char)e[i]))
            i++;
        while (i < n && (e[i] == 'u' || e[i] == 'U' || e[i] == 'l' || e[i] == 'L'))
            i++;
        int zero = 1;
        for (size_t k = a; k < i && isdigit((unsigned char)e[k]); k++)
            zero &= e[k] == '0';
        r = zero ? COND_DROPPED : COND_TAKEN;
    } else {
        int paren = 0;
        if (!form && n - i >= 7 && !strncmp(e + i, "defined", 7) && !ident_char((unsigned char)(i + 7 < n ? e[i + 7] : ' '))) {
            def = 1;
            i += 7;
            SKIP_SPACE();
            if (i < n && e[i] == '(') {
                paren = 1;
                i++;
                SKIP_SPACE();
            }
        }
        size_t a = i;
        while (i < n && ident_char((unsigned char)e[i]))
            i++;
        if (i > a && !isdigit((unsigned char)e[a])) {
            int st = cond_name(c, e + a, i - a);
            /* #if NAME: an undefined name is 0; a defined one's value is not known here */
            r = st == 0 ? COND_DROPPED : st == 1 && def ? COND_TAKEN : COND_UNKNOWN;
        }
        SKIP_SPACE();
        if (paren) {
            if (i < n && e[i] == ')')
                i++;
            else
                r = COND_UNKNOWN;
        }
    }
    SKIP_SPACE();
#undef SKIP_SPACE
    if (i != n || r == COND_UNKNOWN) /* more than one term */
        return COND_UNKNOWN;
    return neg ? (r == COND_TAKEN ? COND_DROPPED : COND_TAKEN) : r;
}

/* A preprocessor line (d: after its '#', n bytes): the open #ifs. Returns whether the lines
 * after it are in a branch surely dropped. */
static int cond_line(cond_ctx *c, const char *d, size_t n)
{
    size_t i = 0;
    while (i < n && isspace((unsigned char)d[i]))
        i++;
    size_t a = i;
    while (i < n && ident_char((unsigned char)d[i]))
        i++;
    const char *kw = d + a;
    size_t kl = i - a;
#define IS(w) (kl == strlen(w) && !strncmp(kw, w, kl))
    if (IS("if") || IS("ifdef") || IS("ifndef")) {
        if (c->depth < 64) {
            int r = cond_eval(c, d + i, n - i, IS("if") ? 0 : IS("ifdef") ? 1 : 2);
            c->state[c->depth] = (unsigned char)r;
            c->done[c->depth] = r == COND_TAKEN;
            c->maybe[c->depth] = r == COND_UNKNOWN;
        }
        c->depth++;
    } else if ((IS("elif") || IS("else") || IS("elifdef") || IS("elifndef")) && c->depth > 0) {
        if (c->depth <= 64) {
            int f = c->depth - 1;
            int r = IS("else") ? COND_TAKEN : IS("elif") ? cond_eval(c, d + i, n - i, 0)
                                                         : cond_eval(c, d + i, n - i, IS("elifdef") ? 1 : 2);
            int now = c->done[f] ? COND_DROPPED : c->maybe[f] ? (r == COND_DROPPED ? COND_DROPPED : COND_UNKNOWN) : r;
            c->state[f] = (unsigned char)now;
            c->done[f] |= now == COND_TAKEN;
            c->maybe[f] |= now == COND_UNKNOWN;
        }
    } else if (IS("endif") && c->depth > 0)
        c->depth--;
#undef IS
    for (int f = 0; f < c->depth && f < 64; f++)
        if (c->state[f] == COND_DROPPED)
            return 1;
    return 0;
}

/* ---- names of CUDA's built-in variables used for the program's own ---------------------- */
/* threadIdx, blockIdx, blockDim and gridDim are the shim's macros (cuda_runtime.h). Host code
 * cannot read the built-ins (nvcc), so there these names are the program's own variables: course
 * code writes `dim3 blockDim(32), gridDim(1); k<<<gridDim, blockDim>>>(d);`, which the macros made
 * a function declaration. Such a name is renamed simtlab_host_<name>, which no macro expands, once
 * host code declares it (a type's name before it, or a comma after such a declaration), until its
 * scope closes: there, in launch configurations, and (for a member a host class declares) after
 * `.`, `->` or `X::`. Only declared names: a device function the rewriter takes for host code (its
 * __device__ hidden in a macro of a header it does not read) keeps its built-ins. */
static int builtin_var(const char *id, size_t len)
{
    static const char *const names[] = {"threadIdx", "blockIdx", "blockDim", "gridDim"};
    for (int k = 0; k < 4; k++)
        if (len == strlen(names[k]) && !strncmp(id, names[k], len))
            return k + 1;
    return 0;
}

/* The host declarations of the four names in scope (builtin_var's index - 1). */
typedef struct host_names {
    int depth[4];          /* the brace depth of the declaration's scope; -1: not declared */
    unsigned char head[4]; /* declared in a header (parameters), not a body: ends with the body after it */
    unsigned members;      /* bit k: a host class declares a member of that name */
    int stmt_paren;        /* a declaration statement of one is open at this paren depth; -1: none */
} host_names;

/* Whether src[a..b) is a name that may be a type's: not an expression's keyword, not a number */
static int type_word(const char *src, size_t a, size_t b)
{
    static const char *const not_types[] = {"return", "case", "sizeof", "alignof", "throw", "new", "delete",
                                            "else", "do", "goto", "co_return", "co_yield", "co_await", "operator"};
    for (size_t k = 0; k < sizeof not_types / sizeof *not_types; k++)
        if (b - a == strlen(not_types[k]) && !strncmp(src + a, not_types[k], b - a))
            return 0;
    return b > a && !isdigit((unsigned char)src[a]);
}

/* Whether the comma at src[c] continues a declaration: back to the statement's start at the
 * comma's own depth (a `;`, or a bracket the comma is inside), skipping bracketed groups, the
 * text is `type name` followed by an initializer or nothing (`dim3 threads(16)`, `dim3 b{32}`,
 * `static const std::vector<int> v(3)`, `int a = 1`); an argument list (`f(a`), a brace list
 * (`{n`) or an expression (`x = f(1, 2)`) is not. Literals are not skipped (a `;` in one makes
 * the answer no, as before this test existed). */
static int declaration_before(const char *src, size_t c)
{
    size_t s = c;
    int nest = 0;
    while (s > 0) {
        const char ch = src[s - 1];
        if (ch == '}' && nest == 0) { /* a declarator's braces (`b{32},`), or the end of a block before */
            size_t f = s;
            while (f < c && isspace((unsigned char)src[f]))
                f++;
            if (f < c && src[f] != ',') /* not followed by a comma: a block's end */
                break;
        }
        if (ch == ')' || ch == ']' || ch == '}')
            nest++;
        else if (ch == '(' || ch == '[' || ch == '{') {
            if (nest == 0)
                break;
            nest--;
        } else if (nest == 0 && ch == ';')
            break;
        s--;
    }
    /* type words (names, `::`, template arguments, `*`, `&`), then the name, then `(`, `{`, `[`,
     * `=` or the comma itself */
    int words = 0, last_word = 0;
    for (size_t i = s; i < c;) {
        const unsigned char ch = (unsigned char)src[i];
        if (ch == '/' && i + 1 < c && (src[i + 1] == '/' || src[i + 1] == '*')) { /* a comment: space */
            const int line = src[i + 1] == '/';
            for (i += 2; i < c && !(line ? src[i] == '\n' : (src[i] == '*' && i + 1 < c && src[i + 1] == '/'));)
                i++;
            i += line ? 1 : 2;
            continue;
        }
        if (ch == ':' && !(i + 1 < c && src[i + 1] == ':') && !(i > s && src[i - 1] == ':')) {
            words = last_word = 0; /* a label or `public:` before the declaration */
            i++;
            continue;
        }
        if (isspace(ch) || ch == '*' || ch == '&') {
            i++;
            last_word = last_word && (isspace(ch) != 0);
            continue;
        }
        if (ident_char(ch)) {
            size_t e = i;
            while (e < c && ident_char((unsigned char)src[e]))
                e++;
            if (!type_word(src, i, e))
                return 0;
            words++;
            last_word = 1;
            i = e;
            continue;
        }
        if (ch == ':' && i + 1 < c && src[i + 1] == ':') {
            i += 2;
            last_word = 0;
            continue;
        }
        if (ch == '<') { /* template arguments, balanced */
            int d = 0;
            for (; i < c; i++) {
                d += src[i] == '<';
                d -= src[i] == '>';
                if (d == 0)
                    break;
            }
            if (i++ >= c)
                return 0;
            last_word = 0;
            continue;
        }
        /* the declarator's initializer (or array bounds) starts: a name must have come last */
        return (ch == '(' || ch == '{' || ch == '[' || ch == '=') && words >= 2 && last_word;
    }
    return words >= 2 && last_word;
}

/* Whether the identifier at src[i] is declared there: the token before it is a name that is not
 * an expression's keyword (`dim3 blockDim`, `unsigned blockIdx`), or a comma continuing a
 * declaration: one of a built-in's name at the comma's paren depth (`dim3 blockDim(32),
 * gridDim(1)`), or one declaration_before reads (`dim3 threads{16}, blockIdx{4}`). */
static int host_declares(const char *src, size_t i, const host_names *hn, int paren)
{
    size_t b = i;
    while (b > 0 && isspace((unsigned char)src[b - 1]))
        b--;
    if (b > 0 && src[b - 1] == ',') /* a built-in's name declared earlier in the statement, or a declaration */
        return (hn->stmt_paren >= 0 && hn->stmt_paren == paren) || declaration_before(src, b - 1);
    if (!(b > 0 && ident_char((unsigned char)src[b - 1])))
        return 0;
    size_t a = b;
    while (a > 0 && ident_char((unsigned char)src[a - 1]))
        a--;
    return type_word(src, a, b);
}

/* Whether the identifier at src[i] follows `.`, `->` or a scope's `::` (`S::gridDim`, not `::gridDim`) */
static int member_name(const char *src, size_t i)
{
    size_t b = i;
    while (b > 0 && isspace((unsigned char)src[b - 1]))
        b--;
    if (b > 0 && src[b - 1] == '.')
        return 1;
    if (b > 1 && src[b - 1] == '>' && src[b - 2] == '-')
        return 1;
    if (b > 1 && src[b - 1] == ':' && src[b - 2] == ':') {
        b -= 2;
        while (b > 0 && isspace((unsigned char)src[b - 1]))
            b--;
        return b > 0 && (ident_char((unsigned char)src[b - 1]) || src[b - 1] == '>');
    }
    return 0;
}

/* A launch's configuration, src[from..to), copied with the names host code declared renamed
 * (comments and literals as they are) */
static void put_config(buf *o, const char *src, size_t from, size_t to, const host_names *hn)
{
    size_t i = from, done = from;
    while (i < to) {
        char c = src[i];
        const size_t past = past_literal(src, i, to);
        if (past != i) {
            i = past;
            continue;
        }
        if (c == '/' && i + 1 < to && src[i + 1] == '/') {
            while (i < to && src[i] != '\n')
                i++;
            continue;
        }
        if (ident_char((unsigned char)c) && !(i > from && ident_char((unsigned char)src[i - 1]))) {
            size_t e = i;
            while (e < to && ident_char((unsigned char)src[e]))
                e++;
            int k = builtin_var(src + i, e - i);
            if (k && (hn->depth[k - 1] >= 0 || (member_name(src, i) && (hn->members >> (k - 1) & 1)))) {
                put(o, src + done, i - done);
                puts_(o, "simtlab_host_");
                done = i;
            }
            i = e;
            continue;
        }
        i++;
    }
    put(o, src + done, (i < to ? i : to) - done);
}

/* Whether the `static` at src[i..e) declares a __shared__ variable: `static __shared__ T s[N];`
 * (NVIDIA's blockReduceSum), `static volatile __shared__ T s;` or `__shared__ static T s;`. The
 * shim's __shared__ holds its own storage class (static thread_local), and a second `static` does
 * not compile: it is dropped, which changes nothing (a __shared__ variable is the block's either way). */
static int word_near(const char *src, size_t i, size_t e, size_t n, const char *q);
static int static_shared(const char *src, size_t i, size_t e, size_t n) { return word_near(src, i, e, n, "__shared__"); }

/* The declaration whose specifiers end before src[e] declares an object, not a function: the
 * first of ( [ = ; , { after it is not '(' (and, with no_pointer, no '*' comes before it) */
static int declares_object(const char *src, size_t e, size_t n, int no_pointer)
{
    for (size_t k = e; k < n; k++) {
        char c = src[k];
        if (c == '(' || (c == '*' && no_pointer))
            return 0;
        if (c == '[' || c == '=' || c == ';' || c == ',' || c == '{')
            return 1;
    }
    return 0;
}

/* `static` at src[i, e) declares a __device__ or __constant__ variable */
static int static_dev_var(const char *src, size_t i, size_t e, size_t n)
{
    return (word_near(src, i, e, n, "__device__") || word_near(src, i, e, n, "__constant__")) &&
           declares_object(src, e, n, 0);
}

/* `__constant__` at src[i, e) declares a const object: `const` among its specifiers and no
 * pointer declarator (`__constant__ const char *p` is a writable pointer to const chars) */
static int constant_is_const(const char *src, size_t i, size_t e, size_t n)
{
    return word_near(src, i, e, n, "const") && declares_object(src, e, n, 1);
}

/* The word at src[i, e) has the word q among the words after it (up to the first
 * punctuation) or before it on its line */
static int word_near(const char *src, size_t i, size_t e, size_t n, const char *q)
{
    const size_t ql = strlen(q);
    for (;;) { /* the words after it, up to the first punctuation */
        while (e < n && isspace((unsigned char)src[e]))
            e++;
        size_t w = e;
        while (e < n && ident_char((unsigned char)src[e]))
            e++;
        if (e == w)
            break;
        if (e - w == ql && !strncmp(src + w, q, ql))
            return 1;
    }
    for (;;) { /* the words before it on its line */
        while (i > 0 && (src[i - 1] == ' ' || src[i - 1] == '\t'))
            i--;
        size_t w = i;
        while (i > 0 && ident_char((unsigned char)src[i - 1]))
            i--;
        if (i == w)
            return 0;
        if (w - i == ql && !strncmp(src + i, q, ql))
            return 1;
    }
}

static int rewrite(const char *src, size_t n, const char *path, const char *const *defines, int n_defines,
                   rewrite_result *r, int header);
/* The atomics' marks first (rewrite_atomics.c), then the rewrite of the marked text. */
static int rewrite_marked(const char *src, size_t n, const char *path, const char *const *defines, int n_defines,
                          rewrite_result *r, int header)
{
    size_t mn = 0;
    int marks = 0;
    char *marked = rewrite_uniform_atomics(src, n, &mn, &marks);
    if (!marked) {
        memset(r, 0, sizeof *r);
        snprintf(r->err, sizeof r->err, "%s: out of memory", path);
        return -1;
    }
    const int rc = rewrite(marked, mn, path, defines, n_defines, r, header);
    free(marked);
    r->uniform_atomics = marks;
    return rc;
}
int cu_rewrite(const char *src, size_t n, const char *path, rewrite_result *r)
{
    return rewrite_marked(src, n, path, NULL, 0, r, 0);
}
int cu_rewrite_defs(const char *src, size_t n, const char *path, const char *const *defines, int n_defines,
                    rewrite_result *r)
{
    return rewrite_marked(src, n, path, defines, n_defines, r, 0);
}
int cu_rewrite_header(const char *src, size_t n, const char *path, rewrite_result *r)
{
    return rewrite_marked(src, n, path, NULL, 0, r, 1);
}

static int rewrite(const char *src, size_t n, const char *path, const char *const *defines, int n_defines,
                   rewrite_result *r, int header)
{
    memset(r, 0, sizeof *r);
    scan sc = {src, n, 0, 1, path, r, 0, 0, header, 0};
    buf o = {0};
    char pending[4096] = "";
    putf(&o, "#line 1 \"%s\"\n", path);
    int depth = 0, dev_hdr = 0, dev_depth = -1, line_start = 1;
    /* per brace depth: 1 a function body or initializer (code), 0 a scope (file, namespace, class);
     * cls: the scope is a class, struct or union, whose member functions are inline (no mark) */
    unsigned char body[512] = {0}, cls[512] = {0};
    size_t hdr = o.n; /* where the current scope-level header starts in the output */
    char tparams[8][64]; /* the function-pointer template parameters of the function being read */
    int n_tparams = 0, tparam_depth = -1;
    dev_macros dm = {.n = 0};
    dev_macros_of(&dm, path, src, n, 0);
    cond_ctx cond = {.defines = defines, .n_defines = n_defines, .dm = &dm};
    host_names hn = {{-1, -1, -1, -1}, {0}, 0, -1};
    /* a file that names the graph API's kernel node parameters: their gridDim and blockDim members
     * (the shim's simtlab_host_ ones, the names being macros), anywhere in it, and its
     * `params.func = (void *)kernel;` (func_void_cast) */
    const int node_params = memmem(src, n, "cudaKernelNodeParams", 20) != NULL;
    if (node_params)
        hn.members |= 1u << 2 | 1u << 3;
    int paren = 0; /* ( and [ open, outside literals and comments */
    size_t def_end = 0; /* inside a #define holding a launch: where it ends */
    int def_nparams = 0;
    char def_params[16][64]; /* and its parameters */
    while (sc.i < n) {
        char c = src[sc.i];
        /* preprocessor line: copied whole (continuations too), includes checked */
        if (line_start && (c == '#' || c == ' ' || c == '\t')) {
            size_t j = sc.i;
            while (j < n && (src[j] == ' ' || src[j] == '\t'))
                j++;
            if (j < n && src[j] == '#') {
                size_t e = j;
                int lines = 0;
                while (e < n && src[e] != '\n') {
                    if (src[e] == '\\' && e + 1 < n && src[e + 1] == '\n') {
                        e++;
                        lines++;
                    } else if (src[e] == '\\' && e + 2 < n && src[e + 1] == '\r' && src[e + 2] == '\n') {
                        e += 2; /* a continuation in a file with CR LF line ends (CImg.h) */
                        lines++;
                    }
                    e++;
                }
                sc.skipped = cond_line(&cond, src + j + 1, e - j - 1);
                check_include(&sc, src + j, e - j);
                /* a #define may hold a launch: rewrite its body like code */
                size_t k = j + 1;
                while (k < e && isspace((unsigned char)src[k]))
                    k++;
                int is_define = e - k >= 6 && !strncmp(src + k, "define", 6);
                if (!is_define || !memmem(src + j, e - j, "<<<", 3)) {
                    if (is_define) /* a macro may be used in device code: malloc/free/clock renamed */
                        put_define(&sc, &o, src, sc.i, e, n, r);
                    else
                        put(&o, src + sc.i, e - sc.i);
                    sc.line += lines;
                    sc.i = e;
                    hdr = o.n + 1; /* after its newline */
                    continue;
                }
                /* a macro holding a launch: its head (`#define GO(K, d)`) as written, then the body
                 * scanned as code; no function header starts inside it (hdr is set at its end), and
                 * a launch of one of its parameters is named by the argument (`GO(fill, d)`: "fill") */
                size_t h = k + 6;
                while (h < e && (src[h] == ' ' || src[h] == '\t'))
                    h++;
                while (h < e && ident_char((unsigned char)src[h]))
                    h++;
                def_nparams = 0;
                if (h < e && src[h] == '(') {
                    for (h++; h < e && src[h] != ')';) {
                        while (h < e && (isspace((unsigned char)src[h]) || src[h] == ',' || src[h] == '\\'))
                            h++;
                        size_t a0 = h;
                        while (h < e && ident_char((unsigned char)src[h]))
                            h++;
                        if (h > a0 && h - a0 < sizeof def_params[0] && def_nparams < 16)
                            snprintf(def_params[def_nparams++], sizeof def_params[0], "%.*s", (int)(h - a0), src + a0);
                        else if (h == a0 && h < e && src[h] != ')')
                            h++; /* `...` */
                    }
                    if (h < e)
                        h++;
                }
                for (size_t q = sc.i; q < h; q++)
                    sc.line += src[q] == '\n';
                put(&o, src + sc.i, h - sc.i);
                sc.i = h;
                def_end = e;
                hdr = o.n;
                line_start = 0;
                continue;
            }
        }
        line_start = 0;
        if (c == '\n') {
            put(&o, "\n", 1);
            sc.line++;
            sc.i++;
            line_start = 1;
            if (def_end && sc.i > def_end) { /* the end of a macro holding a launch */
                def_end = 0;
                def_nparams = 0;
                hdr = o.n;
            }
            if (pending[0]) {
                puts_(&o, pending);
                pending[0] = 0;
                hdr = o.n;
            }
            continue;
        }
        if (c == '/' && sc.i + 1 < n && src[sc.i + 1] == '/') {
            size_t e = sc.i;
            while (e < n && src[e] != '\n')
                e++;
            put(&o, src + sc.i, e - sc.i);
            sc.i = e;
            continue;
        }
        if (c == '/' && sc.i + 1 < n && src[sc.i + 1] == '*') {
            size_t e = sc.i + 2;
            while (e + 1 < n && !(src[e] == '*' && src[e + 1] == '/')) {
                if (src[e] == '\n')
                    sc.line++;
                e++;
            }
            e = e + 2 <= n ? e + 2 : n;
            put(&o, src + sc.i, e - sc.i);
            sc.i = e;
            continue;
        }
        if (c == '"' || c == '\'') {
            if (c == '\'' && sc.i > 0 && isxdigit((unsigned char)src[sc.i - 1]) && sc.i + 1 < n &&
                isxdigit((unsigned char)src[sc.i + 1])) { /* a digit separator: 1'000'000 */
                put(&o, &c, 1);
                sc.i++;
                continue;
            }
            size_t e = sc.i + 1;
            while (e < n && src[e] != c && src[e] != '\n') {
                if (src[e] == '\\' && e + 1 < n)
                    e++;
                e++;
            }
            e = e < n ? e + 1 : n;
            put(&o, src + sc.i, e - sc.i);
            sc.i = e;
            continue;
        }
        if (ident_char((unsigned char)c) && !(sc.i > 0 && ident_char((unsigned char)src[sc.i - 1]))) {
            size_t e = sc.i;
            while (e < n && ident_char((unsigned char)src[e]))
                e++;
            const char *id = src + sc.i;
            size_t len = e - sc.i;
            if ((len == 10 && !strncmp(id, "__global__", 10)) || (len == 10 && !strncmp(id, "__device__", 10)))
                dev_hdr = 1;
            for (int m = 0; m < dm.n; m++)
                if (len == strlen(dm.name[m]) && !strncmp(id, dm.name[m], len))
                    dev_hdr = 1;
            /* `__shared__ alignas(16) float x[N];` (NVIDIA's globalToShmemAsyncCopy): the shim's
             * __shared__ ends in `static thread_local`, and g++ refuses a standard attribute after
             * those ("standard attributes in middle of decl-specifiers", which nvcc takes): the
             * alignas goes first, on the same line */
            if (len == 10 && !strncmp(id, "__shared__", 10)) {
                const size_t j = skip_space(src, e, n);
                if (j + 7 < n && !strncmp(src + j, "alignas", 7) && !ident_char((unsigned char)src[j + 7])) {
                    size_t r = skip_space(src, j + 7, n);
                    int depth = 0;
                    if (r < n && src[r] == '(')
                        do {
                            depth += (src[r] == '(') - (src[r] == ')');
                            r++;
                        } while (r < n && depth);
                    if (r > j + 7 && !depth && !memchr(src + e, '\n', r - e)) {
                        put(&o, src + j, r - j);
                        put(&o, " __shared__", 11);
                        sc.i = r;
                        continue;
                    }
                }
            }
            if (len == 6 && !strncmp(id, "static", 6) && static_shared(src, sc.i, e, n)) {
                put(&o, "      ", 6); /* spaces: the columns stay the source's */
                sc.i = e;
                continue;
            }
            if (len == 6 && !strncmp(id, "static", 6) && !(depth > 0 && body[depth < 512 ? depth - 1 : 511]) &&
                static_dev_var(src, sc.i, e, n))
                r->local_dev_vars++;
            /* `__constant__ const T x[] = {...}`: read-only data in a section of its own (the shim's
             * SIMTLAB_CONST_RO), or g++ refuses it beside a writable __constant__ ("section type
             * conflict"; NVIDIA's dxtc) */
            if (len == 12 && !strncmp(id, "__constant__", 12) && constant_is_const(src, sc.i, e, n)) {
                put(&o, "SIMTLAB_CONST_RO", 16);
                sc.i = e;
                continue;
            }
            if (dev_depth >= 0 && ((len == 3 && !strncmp(id, "asm", 3)) || (len == 7 && !strncmp(id, "__asm__", 7)))) {
                const size_t past = ptx_asm(&o, src, sc.i, e, n, 0);
                if (past) { /* the cp.async family: simtlab_ptx_asm (sim/run/ptx.c) */
                    for (size_t q = sc.i; q < past; q++)
                        sc.line += src[q] == '\n';
                    sc.i = past;
                    continue;
                }
            }
            check_ident(&sc, id, len, e, dev_depth >= 0);
            if (len == 6 && !strncmp(id, "extern", 6)) {
                size_t k = e;
                while (k < n && isspace((unsigned char)src[k]))
                    k++;
                /* `extern __shared__ T x[];`, or the qualifier later: `extern T __shared__ x[];` */
                size_t semi = k, sh = 0;
                while (semi < n && src[semi] != ';' && src[semi] != '{' && src[semi] != '}')
                    semi++;
                for (size_t q = k; q + 10 <= semi && !sh; q++)
                    if (!strncmp(src + q, "__shared__", 10) && !ident_char((unsigned char)src[q - 1]) &&
                        !(q + 10 < n && ident_char((unsigned char)src[q + 10])))
                        sh = q;
                if (sh) {
                    char decl_buf[1024];
                    size_t dl = semi - k < sizeof decl_buf - 1 ? semi - k : sizeof decl_buf - 1;
                    memcpy(decl_buf, src + k, dl);
                    decl_buf[dl] = 0;
                    memset(decl_buf + (sh - k), ' ', 10); /* the qualifier out; the rest is the declaration */
                    const char *decl = decl_buf;
                    size_t d0 = 0;
                    if (semi >= n || src[semi] != ';') {
                        problem(&sc, sc.line, "extern __shared__ declaration without its ';'");
                        sc.i = e;
                        continue;
                    }
                    int nl = 0;
                    for (size_t q = k; q < semi; q++)
                        nl += src[q] == '\n';
                    /* in a function body a local; at file or namespace scope the accessor */
                    int in_fn = depth > 0 && body[depth < 512 ? depth - 1 : 511];
                    extern_shared(&sc, &o, decl + d0, dl - d0, in_fn, pending, sizeof pending);
                    hdr = o.n;
                    sc.line += nl;
                    for (int q = 0; q < nl; q++) /* keep the numbering: the lines the declaration took */
                        put(&o, " ", 0);
                    if (nl) {
                        for (int q = 0; q < nl; q++)
                            put(&o, "\n", 1);
                    }
                    sc.i = semi + 1;
                    continue;
                }
            }
            if ((dev_depth >= 0 || dev_hdr) && /* a device constructor's initializer list too */
                len == 3 && !strncmp(id, "new", 3)) {
                const size_t past = device_new(&o, src, sc.i, e, n);
                if (past == (size_t)-1 && !sc.skipped && !sc.header)
                    problem(&sc, sc.line,
                            "`new (std::nothrow)` in device code: nvcc refuses it (that operator new is a host "
                            "function); a kernel's plain `new` gives nullptr when the device heap is full, as "
                            "nothrow would: write `new T`");
                else if (past && past != (size_t)-1) {
                    r->heap_calls++;
                    sc.i = past;
                    continue;
                }
            }
            size_t open, past, op_end, stop;
            if (len == 16 && !strncmp(id, "cudaLaunchKernel", 16) && !member_name(src, sc.i) &&
                launch_void_cast(src, e, n, &open, &past, &op_end, &stop)) {
                put(&o, src + sc.i, open + 1 - sc.i); /* the name and its '(', the kernel's name: the cast goes */
                paren++;
                put(&o, src + past, op_end - past);
                sc.line += put_newlines(&o, src, open + 1, past); /* the lines the cast spanned: numbers kept */
                sc.line += put_newlines(&o, src, op_end, stop);
                sc.i = stop;
                continue;
            }
            if (node_params && len == 4 && !strncmp(id, "func", 4) && member_name(src, sc.i) &&
                func_void_cast(src, e, n, &open, &past, &op_end, &stop)) {
                put(&o, src + sc.i, open - sc.i); /* `func =`, then the name through the shim's helper */
                puts_(&o, " simtlab_node_func(");
                put(&o, src + past, op_end - past);
                puts_(&o, ")");
                sc.line += put_newlines(&o, src, open, past);
                sc.line += put_newlines(&o, src, op_end, stop);
                sc.i = stop;
                continue;
            }
            if ((dev_depth >= 0 || dev_hdr) && heap_call(src, sc.i, id, len, e, n)) { /* device code, a constructor's initializer list too */
                puts_(&o, len == 6 ? "simtlab_device_malloc" : len == 4 ? "simtlab_device_free" : "simtlab_clock");
                r->heap_calls += len != 5;
                sc.i = e;
                continue;
            }
            int bk = builtin_var(id, len);
            if (bk) {
                const int host = dev_depth < 0 && !dev_hdr, k = bk - 1;
                if (member_name(src, sc.i)) {
                    if (hn.members >> k & 1)
                        puts_(&o, "simtlab_host_");
                } else if (host && host_declares(src, sc.i, &hn, paren)) {
                    const int in_code = depth > 0 && body[depth < 512 ? depth - 1 : 511];
                    hn.depth[k] = depth;
                    hn.head[k] = !in_code && !(depth > 0 && cls[depth < 512 ? depth - 1 : 511]);
                    if (depth > 0 && cls[depth < 512 ? depth - 1 : 511])
                        hn.members |= 1u << k;
                    hn.stmt_paren = paren;
                    puts_(&o, "simtlab_host_");
                } else if (host && hn.depth[k] >= 0) {
                    puts_(&o, "simtlab_host_");
                }
            }
            put(&o, id, len);
            sc.i = e;
            continue;
        }
        int in_body = depth > 0 && body[depth < 512 ? depth - 1 : 511];
        if (c == '(' || c == '[')
            paren++;
        else if ((c == ')' || c == ']') && paren > 0)
            paren--;
        else if (c == ';' || c == '{')
            hn.stmt_paren = -1; /* a declaration statement ends (or its initializer opens) */
        if (c == '{') {
            int is_body = in_body;
            if (!in_body && hdr <= o.n) {
                const char *h = o.p ? o.p + hdr : "";
                size_t hn = o.p ? o.n - hdr : 0;
                int has_par = memchr(h, '(', hn) != NULL, has_eq = 0;
                for (size_t q = 0; q < hn; q++)
                    has_eq |= h[q] == '=' && (q + 1 >= hn || h[q + 1] != '=') && (q == 0 || !strchr("<>=!", h[q - 1]));
                is_body = has_par || has_eq;
                long at = has_par && !(depth > 0 && cls[depth < 512 ? depth - 1 : 511]) ? host_fn_mark(h, hn) : -1;
                /* device code: a mark only where [[gnu::weak]] may go (external, not inline/template) */
                if (at >= 0 && dev_hdr && (has_word(h, hn, "static") || has_word(h, hn, "inline") ||
                                           has_word(h, hn, "__forceinline__") ||
                                           (has_word(h, hn, "template") && !explicit_specialization(h, hn)) ||
                                           has_word(h, hn, "constexpr")))
                    at = -1;
                for (int m = 0; m < dm.n && at >= 0 && dev_hdr; m++)
                    if (dm.fixed[m] && has_word(h, hn, dm.name[m]))
                        at = -1;
                if (at >= 0) { /* insert " SIMTLAB_HOST_FN " (or _DEV_FN) before the parameter list */
                    const char *mark = dev_hdr ? " SIMTLAB_DEV_FN " : " SIMTLAB_HOST_FN ";
                    size_t pos = hdr + (size_t)at, ml = strlen(mark);
                    put(&o, mark, ml); /* grow, then move the tail */
                    if (!o.oom) {
                        memmove(o.p + pos + ml, o.p + pos, o.n - ml - pos);
                        memcpy(o.p + pos, mark, ml);
                    }
                    if (dev_hdr)
                        r->dev_marks++;
                    else
                        r->host_marks++;
                }
            }
            if (is_body && !in_body && hdr <= o.n && tparam_depth < 0) {
                n_tparams = template_fn_params(o.p ? o.p + hdr : "", o.p ? o.n - hdr : 0, tparams);
                tparam_depth = n_tparams ? depth : -1;
            }
            if (dev_hdr && dev_depth < 0)
                dev_depth = depth;
            dev_hdr = 0;
            if (depth < 512) {
                body[depth] = (unsigned char)is_body;
                const char *h = o.p ? o.p + hdr : "";
                size_t hn = o.p && hdr <= o.n ? o.n - hdr : 0;
                cls[depth] = (unsigned char)(!is_body && !has_word(h, hn, "namespace") && !has_word(h, hn, "extern") &&
                                             (has_word(h, hn, "class") || has_word(h, hn, "struct") ||
                                              has_word(h, hn, "union")));
            }
            depth++;
        } else if (c == '}') {
            if (depth > 0)
                depth--;
            if (depth == tparam_depth)
                n_tparams = 0, tparam_depth = -1;
            for (int k = 0; k < 4; k++) /* a scope closed: its declarations end; a body: its header's */
                if (hn.depth[k] > depth || (hn.depth[k] == depth && hn.head[k]))
                    hn.depth[k] = -1;
            hn.stmt_paren = -1;
            if (dev_depth == depth)
                dev_depth = -1;
            dev_hdr = 0;
        } else if (c == ';' && dev_depth < 0) {
            dev_hdr = 0;
        }
        /* <<< (or "<< <", as Visual Studio's formatter writes it; nvcc takes both) */
        size_t open_len = 0;
        if (c == '<' && sc.i + 2 < n && src[sc.i + 1] == '<') {
            size_t q = sc.i + 2;
            while (q < n && (src[q] == ' ' || src[q] == '\t'))
                q++;
            if (q < n && src[q] == '<')
                open_len = q + 1 - sc.i;
        }
        if (open_len) {
            int at = sc.line;
            if (dev_depth >= 0)
                feature_found(&sc, F_DYNPAR, at, "<<< inside device code");
            long ks = kernel_start(&o);
            if (ks < 0) {
                problem(&sc, at, "cannot tell which kernel this <<< launches: write `name<<<...>>>(...)` or "
                                 "`name<T><<<...>>>(...)` (a function pointer variable works too)");
                put(&o, src + sc.i, open_len);
                sc.i += open_len;
                continue;
            }
            /* the configuration, up to >>> (or ">> >") outside parentheses */
            size_t cfg0 = sc.i + open_len, e = cfg0, close_len = 0;
            int par = 0;
            while (e + 2 < n) {
                if (par == 0 && src[e] == '>' && src[e + 1] == '>') {
                    size_t q = e + 2;
                    while (q < n && (src[q] == ' ' || src[q] == '\t'))
                        q++;
                    if (q < n && src[q] == '>') {
                        close_len = q + 1 - e;
                        break;
                    }
                }
                if (src[e] == '(' || src[e] == '[' || src[e] == '{')
                    par++;
                else if (src[e] == ')' || src[e] == ']' || src[e] == '}')
                    par--;
                e++;
            }
            if (!close_len) {
                problem(&sc, at, "<<< without its >>>");
                break;
            }
            char kern[512];
            size_t kl = o.n - (size_t)ks;
            if (kl >= sizeof kern) {
                problem(&sc, at, "kernel expression before <<< too long");
                break;
            }
            memcpy(kern, o.p + ks, kl);
            kern[kl] = 0;
            int knl = 0, in_macro = 0;
            for (char *p = kern; *p; p++) {
                knl += *p == '\n';
                in_macro |= *p == '\n' && p > kern && (p[-1] == '\\' || (p[-1] == '\r' && p - 1 > kern && p[-2] == '\\'));
            }
            trim(kern);
            o.n = (size_t)ks;
            int param = 0; /* the kernel names a parameter of the macro this launch is in: `K`, or a
                            * template's `K<T>` (survey 17: two kernels were both named "kern<T>") */
            for (const char *p = kern; *p && def_nparams;) {
                if (!ident_char((unsigned char)*p)) {
                    p++;
                    continue;
                }
                const char *w0 = p;
                while (*p && ident_char((unsigned char)*p))
                    p++;
                for (int q = 0; q < def_nparams; q++)
                    param |= strlen(def_params[q]) == (size_t)(p - w0) && !strncmp(w0, def_params[q], (size_t)(p - w0));
            }
            int tparam = 0; /* the kernel is a function-pointer template parameter: its closure holds the
                             * pointer, which names the launch (simtlab_launch_fname) */
            for (int q = 0; q < n_tparams; q++)
                tparam |= !strcmp(kern, tparams[q]);
            const char *kcall = tparam ? "SIMTLAB_KCALL_PTR_" : "SIMTLAB_KCALL_";
            if (strstr(kern, "##") || param) /* a name a macro pastes or passes: its string made after */
                putf(&o, "::simtlab::make_launch(SIMTLAB_STR_(%s), __FILE__, __LINE__, %s(%s), ", kern, kcall, kern);
            else
                putf(&o, "::simtlab::make_launch(\"%s\", __FILE__, __LINE__, %s(%s), ", kern, kcall, kern);
            put_config(&o, src, cfg0, e, &hn);
            put(&o, ")", 1);
            for (size_t q = cfg0; q < e; q++)
                sc.line += src[q] == '\n';
            for (int q = 0; q < knl; q++) /* the lines the name spanned, continued inside a macro */
                puts_(&o, in_macro ? " \\\n" : "\n");
            r->launches++;
            sc.i = e + close_len;
            continue;
        }
        put(&o, &c, 1);
        sc.i++;
        if ((c == ';' || c == '{' || c == '}') && !(depth > 0 && body[depth < 512 ? depth - 1 : 511]))
            hdr = o.n;
    }
    if (pending[0]) {
        put(&o, "\n", 1);
        puts_(&o, pending);
    }
    if (r->heap_calls) /* the program needs a device heap: made before its first launch (cudart.c) */
        puts_(&o, "\nSIMTLAB_WANT_HEAP(__COUNTER__)\n");
    if (o.oom) {
        snprintf(r->err, sizeof r->err, "%s: out of host memory rewriting the file\n", path);
        sc.errors++;
    }
    free(dm.defs);
    if (sc.errors) {
        free(o.p);
        return -1;
    }
    r->text = o.p ? o.p : strdup("");
    r->len = o.n;
    return r->text ? 0 : -1;
}
