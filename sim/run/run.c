/* sim/run/run.c - `simtlab run`: compile an ordinary CUDA program and run it
 * on the simulator (--mode sim), on the GPU (--mode cuda: nvcc, counters by
 * Nsight Compute), or both, launch by launch (--mode compare).
 *
 *   simtlab-run FILE.cu [FILE2.cu ...] [options] [-- program arguments]
 *
 * Sim mode: each file is rewritten (rewrite.c: <<<>>>, extern __shared__),
 * compiled by g++ as C++17 with the simulator's instrumentation and the shim
 * headers (sim/run/include: cuda_runtime.h), linked with the simulator and
 * the runtime API (cudart.c), and run. Builds are cached by content (files,
 * flags, simtlab's own libraries): a second run of the same program starts at
 * once. Every tool runs from an argument vector (posix_spawn), never a shell.
 *
 * Exit status: the program's own; 2 when simtlab cannot build or run it (bad
 * option, unreadable file, compile error, unsupported feature); 128 + n when
 * the program dies of signal n.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "launch.h"
#include "proc.h"
#include "rewrite.h"
#include "run_cuda.h"

extern char **environ;

#ifndef SIMTLAB_RUN_INCLUDE
#error "built by CMake (sim/run/CMakeLists.txt), which sets the paths"
#endif

#define MAX_FILES 64
#define MAX_FLAGS 64

typedef struct opts {
    const char *files[MAX_FILES];
    int n_files;
    const char *cflags[MAX_FLAGS]; /* -I DIR, -D X, -std=..., passed to g++ and nvcc */
    int n_cflags;
    const char *hostflags[MAX_FLAGS]; /* -fopenmp, -pthread, warnings: g++'s own, nvcc's -Xcompiler */
    int n_hostflags;
    char xflags[512];                 /* the copies of -Xcompiler's comma lists they point into */
    const char *ldflags[MAX_FLAGS];   /* -lNAME, -LDIR, -Xlinker X: the link's, g++'s and nvcc's */
    int n_ldflags;
    size_t xused;
    const char *mode, *arch, *json;
    char arch_buf[16]; /* a preset named by nvcc's -arch (nvcc_flag) */
    const char *nvonly[MAX_FLAGS]; /* nvcc's own flags the simulator takes silently: --mode cuda's nvcc gets them */
    int n_nvonly, target_noted;
    int detail, lines, no_counters, verbose;
    char **prog_args;
    int n_prog_args;
} opts;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: simtlab run FILE.cu [FILE2.cu ...] [options] [-- program arguments]\n"
            "  --mode sim|cuda|compare  the simulator (default), the GPU (nvcc; counters from Nsight Compute),\n"
            "                           or both, launch by launch\n"
            "  --detail                 warp-level counters: 32-byte sectors, shared wavefronts, bank conflicts, races\n"
            "  --lines                  per source line of each kernel: requests, sectors against the ideal,\n"
            "                           wavefronts, bank conflicts, most excess first (implies --detail)\n"
            "  --json PATH              one object per kernel launch (the lessons' schema) written to PATH\n"
            "  --arch NAME              device preset: sm_80, sm_89, sm_90 (default), h200; for --mode cuda the\n"
            "                           nvcc target (default: the GPU's own, sm_90 if none)\n"
            "  --no-counters            --mode cuda: run without Nsight Compute\n"
            "  -I DIR, -DNAME[=VALUE]   passed to the compilers\n"
            "  -fopenmp, -pthread, -Xcompiler F[,F]  host compiler flags (F: -fopenmp, -pthread, -W..., -w):\n"
            "                           g++'s own, nvcc's through -Xcompiler\n"
            "  -lNAME, -LDIR, -Xlinker X  libraries and linker flags, as nvcc takes them (-lpng, -L/opt/lib)\n"
            "  -arch=sm_NN, -O3, --extended-lambda, --use_fast_math, ...  nvcc's own flags, as Makefiles give\n"
            "                           them: a target names the preset where one has its name (docs/run.md)\n"
            "  -v                       show the compiler commands\n"
            "The program's output is its own; simtlab's reports go to stderr. See docs/run.md.\n");
}


static int has_suffix(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

/* A source file's name, as the command line takes them (a flag's value it cannot be) */
static int is_source_name(const char *s)
{
    return has_suffix(s, ".cu") || has_suffix(s, ".cpp") || has_suffix(s, ".cc") || has_suffix(s, ".cxx") ||
           has_suffix(s, ".c");
}

/* A host compiler flag (-fopenmp, -Xcompiler's list): the ones that change no kernel's code or
 * counts; anything else is an error naming what is taken. */
static int host_flag(opts *o, const char *f)
{
    if (!(!strcmp(f, "-fopenmp") || !strcmp(f, "-pthread") || !strcmp(f, "-w") || (f[0] == '-' && f[1] == 'W' && f[2])))
        return run_error("host compiler flag '%s': simtlab run takes -fopenmp, -pthread and warning flags (-W..., -w) "
                         "there; its own build sets the optimisation and code generation (docs/run.md)",
                         f);
    if (o->n_hostflags == MAX_FLAGS)
        return run_error("more than %d host compiler flags", MAX_FLAGS);
    o->hostflags[o->n_hostflags++] = f;
    return 0;
}

/* nvcc's own flags as Makefiles write them (a student's `nvcc -O3 -arch=sm_80 --use_fast_math
 * main.cu` becomes `simtlab run -O3 -arch=sm_80 --use_fast_math main.cu`): 1 if a is one (with
 * its value, *i moved past it when it is the next argument), 0 if not, -1 after an error. The
 * target (-arch, --gpu-architecture, -gencode's code=, -code) picks the device preset where
 * there is one of that name (sm_80, sm_89, sm_90) and --arch does not; others are noted once and
 * change nothing. Flags that change no result here are taken silently: optimisation and debug
 * levels (the simulator's builds set their own), lambdas and constexpr (g++ compiles both),
 * relocatable device code (one link of every file), ptxas's and the host compiler's choice. */
static int nvcc_flag(opts *o, int argc, char **argv, int *i, int *seen_target, int seen_arch)
{
    static const char *const silent[] = {"--extended-lambda", "-extended-lambda", "--expt-extended-lambda",
                                         "-expt-extended-lambda", "--expt-relaxed-constexpr",
                                         "-expt-relaxed-constexpr", "-rdc=true", "--relocatable-device-code=true",
                                         "-m64", "-O0", "-O1", "-O2", "-O3", "-g", "-G", "--device-debug",
                                         "-Xptxas=-v", "--resource-usage", "-res-usage"};
    static const char *const with_value[] = {"-ccbin", "--compiler-bindir", "-Xptxas", "--ptxas-options"};
    const char *a = argv[*i];
    if (o->n_nvonly + 2 > MAX_FLAGS)
        return run_error("more than %d nvcc flags", MAX_FLAGS), -1;
    for (size_t k = 0; k < sizeof silent / sizeof silent[0]; k++)
        if (!strcmp(a, silent[k])) {
            o->nvonly[o->n_nvonly++] = a;
            return 1;
        }
    for (size_t k = 0; k < sizeof with_value / sizeof with_value[0]; k++) {
        const size_t n = strlen(with_value[k]);
        if (!strncmp(a, with_value[k], n) && (a[n] == '=' || !a[n])) {
            if (!a[n] && (*i + 1 >= argc || !argv[*i + 1][0] || (k < 2 && argv[*i + 1][0] == '-') ||
                          !strcmp(argv[*i + 1], "--") || is_source_name(argv[*i + 1]))) /* ptxas' are flags */
                return run_error("%s needs a value", a), -1;
            o->nvonly[o->n_nvonly++] = a;
            if (!a[n])
                o->nvonly[o->n_nvonly++] = argv[++*i];
            return 1;
        }
    }
    if (!strcmp(a, "--use_fast_math") || !strcmp(a, "-use_fast_math")) {
        fprintf(stderr, "simtlab run: note: %s: the simulator computes expf, sinf, division and sqrtf at the CPU's "
                        "full precision, not with the GPU's fast approximations (their last bits differ)\n",
                a);
        o->nvonly[o->n_nvonly++] = a;
        return 1;
    }
    /* the target: -arch=X, -arch X, --gpu-architecture[=| ]X, -code=X, -gencode arch=..,code=X */
    const char *val = NULL;
    static const char *const target[] = {"-arch", "--gpu-architecture", "-code", "--gpu-code", "-gencode",
                                         "--generate-code"};
    for (size_t k = 0; k < sizeof target / sizeof target[0] && !val; k++) {
        const size_t n = strlen(target[k]);
        if (strncmp(a, target[k], n) || (a[n] != '=' && a[n]))
            continue;
        if (!a[n] && (*i + 1 >= argc || !argv[*i + 1][0] || argv[*i + 1][0] == '-' || is_source_name(argv[*i + 1])))
            return run_error("%s needs a value (a GPU target: sm_80, sm_90, ...)", a), -1;
        val = a[n] ? a + n + 1 : argv[++*i];
    }
    if (!val)
        return 0;
    /* -gencode arch=compute_80,code=sm_80, code=\"sm_80,compute_80\", code=[sm_80]: the real target */
    const char *code = strstr(val, "code=");
    code = code ? code + 5 : val;
    const char *sm = strstr(code, "sm_"), *cp = strstr(code, "compute_");
    sm = sm ? sm + 3 : cp ? cp + 8 : NULL;
    char name[16] = "";
    const size_t len = sm ? strspn(sm, "0123456789") : 0;
    if (len && len < 6)
        snprintf(name, sizeof name, "sm_%.*s", (int)len, sm);
    if (*seen_target || seen_arch) /* an earlier target with a preset, or --arch (which wins in any order), chose */
        return 1;
    if (name[0] && sim_device_find(name)) {
        o->arch = strcpy(o->arch_buf, name);
        *seen_target = 1;
        return 1;
    }
    if (!o->target_noted++) /* a later target may still name a preset (-gencode for sm_70, then sm_80) */
        fprintf(stderr, "simtlab run: note: %s%s%s: no device preset of that name; the simulator models sm_90 (H100) "
                        "unless a later target or --arch picks sm_80, sm_89, sm_90 or h200\n",
                a, a == val || strchr(a, '=') ? "" : " ", a == val || strchr(a, '=') ? "" : val);
    return 1;
}

static int parse(int argc, char **argv, opts *o)
{
    memset(o, 0, sizeof *o);
    o->mode = "sim";
    int seen_mode = 0, seen_arch = 0, seen_target = 0, seen_json = 0, n_not_c = 0, rc_nvcc = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
#define VALUE(flag)                                                                                      \
    do {                                                                                                 \
        size_t fl_ = strlen(flag);                                                                       \
        if (a[fl_] == '=')                                                                               \
            val = a + fl_ + 1;                                                                           \
        else if (i + 1 < argc)                                                                           \
            val = argv[++i];                                                                             \
        else                                                                                             \
            return run_error("%s needs a value (see simtlab run --help)", flag);                               \
        if (!val[0])                                                                                     \
            return run_error("%s: the value is empty", flag);                                                  \
    } while (0)
        if (!strcmp(a, "--")) {
            o->prog_args = argv + i + 1;
            o->n_prog_args = argc - i - 1;
            break;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            exit(0);
        } else if (!strncmp(a, "--mode", 6) && (a[6] == 0 || a[6] == '=')) {
            if (seen_mode++)
                return run_error("--mode given twice");
            VALUE("--mode");
            if (strcmp(val, "sim") && strcmp(val, "cuda") && strcmp(val, "compare"))
                return run_error("--mode '%s': choose sim, cuda or compare", val);
            o->mode = val;
        } else if (!strncmp(a, "--arch", 6) && (a[6] == 0 || a[6] == '=')) {
            if (seen_arch++)
                return run_error("--arch given twice");
            VALUE("--arch");
            if (!sim_device_find(val))
                return run_error("--arch '%s': unknown device; choose sm_80 (A100), sm_89 (RTX 4090), sm_90 (H100) or h200", val);
            o->arch = val;
        } else if (!strncmp(a, "--json", 6) && (a[6] == 0 || a[6] == '=')) {
            if (seen_json++)
                return run_error("--json given twice");
            VALUE("--json");
            o->json = val;
        } else if (!strcmp(a, "--detail"))
            o->detail = 1;
        else if (!strcmp(a, "--lines"))
            o->lines = o->detail = 1;
        else if (!strcmp(a, "--no-counters"))
            o->no_counters = 1;
        else if (!strcmp(a, "-v"))
            o->verbose = 1;
        else if (!strcmp(a, "-I") || !strcmp(a, "-D")) {
            if (i + 1 >= argc || !argv[i + 1][0])
                return run_error("%s needs a value", a);
            if (o->n_cflags + 2 > MAX_FLAGS)
                return run_error("more than %d compiler flags", MAX_FLAGS);
            o->cflags[o->n_cflags++] = a;
            o->cflags[o->n_cflags++] = argv[++i];
        } else if ((!strncmp(a, "-I", 2) || !strncmp(a, "-D", 2) || !strncmp(a, "-std=", 5)) && a[2]) {
            if (o->n_cflags + 1 > MAX_FLAGS)
                return run_error("more than %d compiler flags", MAX_FLAGS);
            o->cflags[o->n_cflags++] = a;
        } else if (!strcmp(a, "-lineinfo") || !strcmp(a, "--generate-line-info")) {
            /* nvcc's line information for the profilers: the simulator's builds always have it */
        } else if (!strcmp(a, "-l") || !strcmp(a, "-L") || !strcmp(a, "-Xlinker") || !strcmp(a, "--linker-options")) {
            /* a library or a linker flag, its value next: kept as two arguments of the link */
            if (i + 1 >= argc || !argv[i + 1][0] || (a[1] == 'l' || a[1] == 'L' ? argv[i + 1][0] == '-' : 0))
                return run_error("%s needs a value (a library's name, a directory, a linker flag)", a);
            if (strlen(argv[i + 1]) > 500)
                return run_error("%s: a value of more than 500 characters", a);
            if (o->n_ldflags + 2 > MAX_FLAGS)
                return run_error("more than %d library and linker flags", MAX_FLAGS);
            o->ldflags[o->n_ldflags++] = a[1] == '-' ? "-Xlinker" : a;
            o->ldflags[o->n_ldflags++] = argv[++i];
        } else if ((!strncmp(a, "-Xlinker=", 9) && a[9]) || (!strncmp(a, "--linker-options=", 17) && a[17])) {
            /* nvcc's form: kept as -Xlinker X */
            if (o->n_ldflags + 2 > MAX_FLAGS)
                return run_error("more than %d library and linker flags", MAX_FLAGS);
            if (strlen(strchr(a, '=') + 1) > 500)
                return run_error("-Xlinker: a value of more than 500 characters");
            o->ldflags[o->n_ldflags++] = "-Xlinker";
            o->ldflags[o->n_ldflags++] = strchr(a, '=') + 1;
        } else if ((!strncmp(a, "-l", 2) || !strncmp(a, "-L", 2)) && a[2]) {
            if (o->n_ldflags + 1 > MAX_FLAGS)
                return run_error("more than %d library and linker flags", MAX_FLAGS);
            o->ldflags[o->n_ldflags++] = a;
        } else if (!strcmp(a, "-fopenmp") || !strcmp(a, "-pthread")) {
            const int rc = host_flag(o, a);
            if (rc)
                return rc;
        } else if (!strncmp(a, "-Xcompiler", 10) || !strncmp(a, "--compiler-options", 18)) {
            /* nvcc's form, as Makefiles write it: -Xcompiler -fopenmp, -Xcompiler=-fopenmp,-Wall */
            const size_t fl = a[1] == 'X' ? 10 : 18;
            const char *list = a[fl] == '=' ? a + fl + 1 : a[fl] ? NULL : i + 1 < argc ? argv[++i] : "";
            if (!list)
                return run_error("unknown option '%s' (program arguments go after --; see simtlab run --help)", a);
            const size_t len = strlen(list);
            if (!len)
                return run_error("%.*s needs a value: host compiler flags, comma-separated", (int)fl, a);
            if (o->xused + len + 1 > sizeof o->xflags)
                return run_error("-Xcompiler: more than %zu characters of flags", sizeof o->xflags - 1);
            char *copy = o->xflags + o->xused;
            memcpy(copy, list, len + 1);
            o->xused += len + 1;
            for (char *f = copy, *next; f; f = next) {
                next = strchr(f, ',');
                if (next)
                    *next++ = 0;
                const int rc = host_flag(o, f);
                if (rc)
                    return rc;
            }
        } else if (a[0] == '-' && (rc_nvcc = nvcc_flag(o, argc, argv, &i, &seen_target, seen_arch)) != 0) {
            if (rc_nvcc < 0)
                return 2;
        } else if (a[0] == '-')
            return run_error("unknown option '%s' (program arguments go after --; see simtlab run --help)", a);
        else {
            struct stat st;
            if (stat(a, &st) == 0 && S_ISDIR(st.st_mode)) /* before the name's test: `dir.cu/` too */
                return run_error("'%s' is a directory: give the program's source files (simtlab run dir/main.cu "
                                 "dir/kernels.cu)",
                                 a);
            if (!has_suffix(a, ".cu") && !has_suffix(a, ".cpp") && !has_suffix(a, ".cc") && !has_suffix(a, ".cxx") &&
                !has_suffix(a, ".c"))
                return run_error("'%s' is not a .cu (or .cpp, .cc, .cxx, .c) file; program arguments go after --", a);
            if (o->n_files == MAX_FILES)
                return run_error("more than %d source files", MAX_FILES);
            o->files[o->n_files++] = a;
            n_not_c += !has_suffix(a, ".c");
        }
#undef VALUE
    }
    if (!n_not_c)
        return run_error("no .cu file given (usage: simtlab run FILE.cu [options] [-- program arguments])");
    return 0;
}

/* ---- processes ------------------------------------------------------------------------- */
static char *read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    char *p = malloc(cap);
    for (;;) {
        if (!p)
            break;
        size_t got = fread(p + len, 1, cap - len, f);
        len += got;
        if (len < cap)
            break;
        if (cap > ((size_t)64 << 20)) { /* a source file of more than 64 MB is not a source file */
            free(p);
            p = NULL;
            errno = EFBIG;
            break;
        }
        char *q = realloc(p, cap * 2);
        if (!q) {
            free(p);
            p = NULL;
            break;
        }
        p = q;
        cap *= 2;
    }
    fclose(f);
    if (p) {
        char *q = realloc(p, len + 1);
        if (q)
            p = q;
        p[len] = 0;
        *n = len;
    }
    return p;
}

static int write_file(const char *path, const char *s, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int ok = fwrite(s, 1, n, f) == n;
    return fclose(f) == 0 && ok ? 0 : -1;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ s[i]) * 0x100000001b3ull;
    return h;
}
static uint64_t fnv_str(uint64_t h, const char *s) { return fnv(h, s, strlen(s) + 1); }
static uint64_t fnv_stat(uint64_t h, const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0) {
        h = fnv(h, &st.st_mtim, sizeof st.st_mtim);
        h = fnv(h, &st.st_size, sizeof st.st_size);
    }
    return fnv_str(h, path);
}

/* The libraries -l and -L name, for the build cache's key: each -L directory as an absolute path
 * (the same relative -L from elsewhere is another), and each -lNAME's file found in them
 * (libNAME.so, libNAME.a; `-l:file` as given) by its time and size, so that a rebuilt library
 * is linked again. A library found only in the system's directories is keyed by its name. */
/* The value of linker flag k when it is -X VALUE or -XVALUE (X: 'L' or 'l'), k moved past it; NULL
 * for any other flag, k past its own argument (-L, -l, -Xlinker take one). */
static const char *ld_value(const opts *o, int *k, char x)
{
    const char *f = o->ldflags[*k];
    if (f[0] == '-' && f[1] == x)
        return f[2] ? f + 2 : *k + 1 < o->n_ldflags ? o->ldflags[++*k] : NULL;
    if (!strcmp(f, "-L") || !strcmp(f, "-l") || !strcmp(f, "-Xlinker"))
        ++*k;
    return NULL;
}

static uint64_t fnv_libs(uint64_t h, const opts *o)
{
    const char *dirs[MAX_FLAGS];
    int nd = 0;
    for (int k = 0; k < o->n_ldflags; k++) { /* every -L first: a -l is looked up in all of them */
        const char *v = ld_value(o, &k, 'L');
        if (v) {
            char abs[PATH_MAX];
            h = fnv_str(h, realpath(v, abs) ? abs : v);
            dirs[nd++] = v;
        }
    }
    for (int k = 0; k < o->n_ldflags; k++) {
        const char *name = ld_value(o, &k, 'l');
        for (int d = 0; name && d < nd; d++) {
            char path[PATH_MAX + 256];
            static const char *const forms[] = {"%s/lib%s.so", "%s/lib%s.a", "%s/%s"};
            for (int fm = name[0] == ':' ? 2 : 0; fm < (name[0] == ':' ? 3 : 2); fm++) {
                snprintf(path, sizeof path, forms[fm], dirs[d], name[0] == ':' ? name + 1 : name);
                h = fnv_stat(h, path);
            }
        }
    }
    return h;
}

static int mkdirs(const char *path)
{
    char p[4096];
    snprintf(p, sizeof p, "%s", path);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            if (mkdir(p, 0755) && errno != EEXIST)
                return -1;
            *s = '/';
        }
    return mkdir(p, 0755) && errno != EEXIST ? -1 : 0;
}

/* __shared__ is constinit (cuda_runtime.h): an object whose class has a constructor is not
 * initialized at run time, as on a GPU, where GCC would guard it with a flag in shared memory that
 * every thread reads. GCC refuses constinit for a single object whose empty constructor is not
 * constexpr (arrays pass); nvcc builds it. Then the program is built again without constinit
 * (SIMTLAB_SHARED_DYNAMIC_INIT), with a note. */
static int shared_dynamic_init;
static int constinit_refused(const char *log)
{
    size_t n;
    char *s = read_file(log, &n);
    int found = s && strstr(s, "'constinit' variable") && strstr(s, "does not have a constant initializer");
    if (!found && s) /* g++'s quotes in a UTF-8 locale */
        found = strstr(s, "\xe2\x80\x98" "constinit\xe2\x80\x99 variable") && strstr(s, "does not have a constant initializer");
    found = found && strstr(s, "__shared__"); /* the macro's expansion, not the program's own constinit */
    free(s);
    return found;
}

static void note_shared_dynamic_init(void)
{
    fprintf(stderr, "simtlab run: note: a __shared__ object's class has a constructor that is not constexpr (an "
                    "empty `T() {}`): nvcc runs none, and neither does the simulator for arrays, but GCC builds a "
                    "single such object with a guard flag in shared memory, which every thread reads (counted, and "
                    "in --detail a race between the first thread and the rest); declaring the constructor "
                    "`T() = default` or constexpr avoids it\n");
}

/* A launch's kernel call (cuda_runtime.h SIMTLAB_KCALL_) is a generic lambda whose return type
 * names the kernel expression, for the argument traits to probe. g++ 12 takes a member of a local
 * constexpr object there (`copy_k<int, tpb.x><<<1, tpb>>>`, tpb a `constexpr dim3`) for a use of
 * the local, which a lambda's signature may not make; clang and nvcc accept it (survey 13: Lei
 * Mao's vectorized-access program). Then the program is built again with a call that returns void
 * (SIMTLAB_KCALL_VOID), whose arguments are copies of the values, with a note. */
static int kcall_void;
static int kcall_refused(const char *log)
{
    size_t n;
    char *s = read_file(log, &n);
    int found = s && strstr(s, "use of local variable with automatic storage from containing function") &&
                strstr(s, "SIMTLAB_KCALL_");
    free(s);
    return found;
}

static void note_kcall_void(void)
{
    fprintf(stderr, "simtlab run: note: a launch names a member of a local constexpr object in its kernel's "
                    "template arguments (`k<T, tpb.x><<<...>>>`), which g++ 12 refuses inside simtlab's launch "
                    "wrapper (nvcc and clang take it): built with a plainer wrapper, which passes each kernel "
                    "argument as a copy of its value (a kernel parameter that is a reference then refers to the "
                    "copy); `static constexpr` avoids it\n");
}

/* The shim's 2- and 4-vectors copy themselves whole (cuda_runtime.h, SIMTLAB_WHOLE4), so they
 * are not trivially copyable: a union holding one cannot be copied, nor one be initialized by
 * designators, which nvcc builds. Then the program is built again with plain vectors
 * (SIMTLAB_TRIVIAL_VECTORS), whose fields g++ may load one by one, with a note. */
static int trivial_vectors;
static int vector_copy_refused(const char *log)
{
    static const char *const names[] = {"float2", "float4", "int2",   "int4",  "uint2",  "uint4",   "double2",
                                        "double4", "uchar2", "uchar4", "char2", "char4", "short2", "short4",
                                        "ushort2", "ushort4", "long2", "long4", "ulong2", "ulong4", "longlong2",
                                        "longlong4", "ulonglong2", "ulonglong4"};
    size_t n;
    char *s = read_file(log, &n);
    int found = 0;
    for (size_t k = 0; s && !found && k < sizeof names / sizeof *names; k++) {
        char copy[64], aggr[64], aggr_u8[64], assign[64];
        snprintf(copy, sizeof copy, "%s::%s(const %s&)", names[k], names[k], names[k]); /* a union's member */
        snprintf(aggr, sizeof aggr, "non-aggregate type '%s'", names[k]);               /* designators */
        snprintf(aggr_u8, sizeof aggr_u8, "non-aggregate type \xe2\x80\x98%s\xe2\x80\x99", names[k]);
        snprintf(assign, sizeof assign, "%s& %s::operator=(const %s&)", names[k], names[k], names[k]);
        found = ((strstr(s, copy) || strstr(s, assign)) && (strstr(s, "non-trivial") || strstr(s, "constexpr"))) ||
                strstr(s, aggr) || strstr(s, aggr_u8);
    }
    free(s);
    return found;
}

static void note_trivial_vectors(void)
{
    fprintf(stderr, "simtlab run: note: the program does not compile with simtlab's CUDA vector types (float4, "
                    "uint4, ...), which copy themselves whole and are not aggregates (a union holding one copied, "
                    "designators, brace elision as `float2 a[] = {1, 2, 3, 4}`, a constexpr copy, a check that "
                    "they are trivially copyable); built with plain ones: a vector loaded and then used field by "
                    "field may count as one 4-byte load a field where the chip makes one 8- or 16-byte load "
                    "(docs/run.md, \"Vector types are copied whole\")\n");
}

/* A stub of sim/run/include that refuses a library reached through the program's own header
 * (`#error "simtlab run: cuBLAS is not supported ..."`) does not stop g++, which goes on to report
 * every name the library would have declared (llm.c's dev/cuda/common.h: about 200 lines after
 * the refusal, the last one an unrelated "not declared"). Print the refusals alone, each at the
 * #include that reached the stub, as the rewriter names a refused include of a source file.
 * Returns how many it printed: 0 when the log has none (print it all then). */
/* Past the opening quote of a name in a tool's message: ` or ' (ASCII), or UTF-8's ‘ (g++ and
 * ld in a UTF-8 locale). q itself when none is there. */
static const char *past_open_quote(const char *q)
{
    if (*q == '`' || *q == '\'')
        return q + 1;
    if ((unsigned char)q[0] == 0xe2 && (unsigned char)q[1] == 0x80 && (unsigned char)q[2] == 0x98)
        return q + 3;
    return q;
}

/* g++'s error on an undeclared name of a library the simulator lacks (its stub header declares
 * nothing: sim/run/include/cublas_v2.h): "f.h:3:1: error: 'cublasHandle_t' does not name a type",
 * "... 'cublasCreate' was not declared in this scope". One line a library, at its first such
 * error, instead of g++'s: the number of lines printed. */
static int print_library_refusals(const char *s)
{
    static const char *const lib_names[] = {"cuBLASLt", "cuBLAS", "cuFFT", "cuSPARSE", "cuDNN"};
    static const struct {
        const char *prefix;
        int lib; /* in lib_names */
    } prefixes[] = {{"cublasLt", 0}, {"cublas", 1}, {"CUBLAS_", 1},   {"cufft", 2}, {"CUFFT_", 2},
                    {"cusparse", 3}, {"CUSPARSE_", 3}, {"cudnn", 4}, {"CUDNN_", 4}};
    unsigned printed = 0; /* bit per library */
    int count = 0;
    for (const char *line = s; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        const char *err = memmem(line, len, ": error: ", 9), *stop = line + len;
        if (err && (memmem(line, len, "not declared", 12) || memmem(line, len, "does not name a type", 20) ||
                    memmem(line, len, "has not been declared", 21))) {
            const char *q = err + 9; /* the name, in its quotes */
            while (q < stop && past_open_quote(q) == q)
                q++;
            q = q < stop ? past_open_quote(q) : stop;
            for (size_t k = 0; k < sizeof prefixes / sizeof *prefixes; k++) {
                const size_t pl = strlen(prefixes[k].prefix);
                const int lib = prefixes[k].lib;
                if ((size_t)(stop - q) <= pl || strncmp(q, prefixes[k].prefix, pl))
                    continue;
                if (!(printed >> lib & 1)) {
                    size_t nl = 0; /* the name, to its closing quote */
                    while (q + nl < stop && (isalnum((unsigned char)q[nl]) || q[nl] == '_' || q[nl] == ':'))
                        nl++;
                    const char *colon = line; /* "file:line" of the error: up to its second ':' */
                    for (int colons = 0; colon < err && colons < 2;)
                        colons += *colon++ == ':';
                    if (lib <= 1) /* cuBLAS or cuBLASLt: a name of the library that the shim lacks */
                        fprintf(stderr,
                                "%.*s simtlab run: %.*s is not in simtlab's %s (it has cuBLAS's GEMM, batched GEMM, "
                                "GemmEx, SgemmEx and Hgemm also on half and bfloat16, geam, GEMV, ger and level 1, "
                                "in float and double, and cuBLASLt's handles: docs/run.md, \"cuBLAS\"); run the "
                                "program on a GPU (simtlab run --mode cuda)\n",
                                (int)(colon - line), line, (int)nl, q, lib_names[lib]);
                    else
                        fprintf(stderr,
                                "%.*s simtlab run: %s is not supported by the simulator (%.*s); run the program on a "
                                "GPU (simtlab run --mode cuda), or see docs/run.md for what simtlab run supports\n",
                                (int)(colon - line), line, lib_names[lib], (int)nl, q);
                    printed |= 1u << lib;
                    count++;
                }
                break;
            }
        }
        line = end ? end + 1 : NULL;
    }
    return count;
}

/* A shim header's compile-time refusal (a static_assert whose message starts "simtlab run: ":
 * cuda::barrier, a pipeline shared by a group, wmma's sub-byte types) comes with g++'s errors on
 * everything else the program does with the refused thing (`init(&bar, n)`, `arrive_and_wait`,
 * overloads that do not match: survey 15). Print each refusal alone, once, at the program's line
 * that instantiated it (the last "required from here" outside sim/run/include), or the error's own
 * place. Returns the number of lines printed. */
static int print_static_refusals(const char *s)
{
    static const char key[] = "static assertion failed: simtlab run: ";
    char where[512] = "", done[8][160];
    int count = 0;
    for (const char *line = s; line && *line;) {
        const char *end = strchr(line, '\n');
        const size_t len = end ? (size_t)(end - line) : strlen(line);
        static const char req_key[] = ":   required from here";
        const char *req = memmem(line, len, req_key, sizeof req_key - 1);
        if (req && !memmem(line, (size_t)(req - line), "/sim/run/include/", 17)) {
            const char *colon = line; /* "file:line" of it: up to its second ':' */
            for (int colons = 0; colon < req && colons < 2;)
                colons += *colon++ == ':';
            snprintf(where, sizeof where, "%.*s", (int)(colon - line - 1), line);
        }
        const char *k = memmem(line, len, key, sizeof key - 1);
        if (!k && memmem(line, len, ": error: ", 9))
            where[0] = 0; /* another error: its context is not the next refusal's */
        if (k) {
            const char *msg = k + sizeof key - 1;
            const int ml = (int)(line + len - msg);
            int seen = 0;
            for (int i = 0; i < count && i < 8; i++)
                seen |= !strncmp(done[i], msg, sizeof done[i] - 1);
            if (!seen) {
                char own[512];
                const char *colon = line;
                for (int colons = 0; colon < k && colons < 2;)
                    colons += *colon++ == ':';
                snprintf(own, sizeof own, "%.*s", (int)(colon - line - 1), line);
                fprintf(stderr, "%s: simtlab run: %.*s\n", where[0] ? where : own, ml, msg);
                where[0] = 0;
                if (count < 8)
                    snprintf(done[count], sizeof done[count], "%.*s", ml, msg);
                count++;
            }
        }
        line = end ? end + 1 : NULL;
    }
    return count;
}

/* Inline PTX that the rewriter did not see (an asm statement in a macro of the program's own
 * header: cuda_hgemm's ptx.h, survey 14) reaches the x86 assembler, which says "f.cu:4: Error: no
 * such instruction: `cp.async.commit_group'". Every assembler error of the device pass is such
 * PTX (host code's asm is x86 and assembles): one line, at the first, as the rewriter's refusal
 * of asm in a source file. Returns the number of lines printed (0 or 1). */
/* Whether the source at "file:line" (the first n characters of where) reads like inline PTX in
 * the few lines from there: a PTX type suffix (.b32, .f16, .u64, .pred ...) or a PTX register
 * constraint ("=h", "=f", "=l", "=d", "h", "f"), which x86 asm does not write. */
static int ptx_at(const char *where, size_t n)
{
    char path[4096];
    const char *colon = memrchr(where, ':', n);
    if (!colon || (size_t)(colon - where) >= sizeof path)
        return 0;
    const long want = strtol(colon + 1, NULL, 10);
    snprintf(path, sizeof path, "%.*s", (int)(colon - where), where);
    FILE *f = fopen(path, "r");
    if (!f || want < 1) {
        if (f)
            fclose(f);
        return 0;
    }
    static const char *const marks[] = {".b8", ".b16", ".b32", ".b64", ".u8", ".u16", ".u32", ".u64", ".s8", ".s16",
                                        ".s32", ".s64", ".f16", ".f32", ".f64", ".pred", "\"=h\"", "\"=f\"", "\"=l\"",
                                        "\"=d\"", "\"h\"(", "\"f\"("};
    char buf[1024];
    long no = 0;
    int found = 0;
    while (!found && no < want + 8 && fgets(buf, sizeof buf, f))
        if (++no >= want)
            for (size_t k = 0; k < sizeof marks / sizeof marks[0] && !found; k++)
                found = strstr(buf, marks[k]) != NULL;
    fclose(f);
    return found;
}

static int print_asm_refusal(const char *s)
{
    /* PTX's constraints g++ has no x86 register for ("=f": a float register, "=h") stop the compiler
     * before the assembler: "conv.h:2:3: error: output constraint 0 must specify a single register"
     * (gau-nernst's 11_gemv/common.h; survey 18). g++ quotes 'asm' in the locale's quotes (‘asm’):
     * the messages are matched without them, and only where the source line there looks like PTX
     * (ptx_at), not a host asm's own mistake */
    /* and PTX's braces, a scope block `{ .reg .pred p; ... }` or a vector `{%0, %1}`, which g++ reads as
     * x86's assembler dialect alternatives: "invalid 'asm': nested assembly dialect alternatives"
     * (a predicated load in junstar92's sgemm utils.cuh; survey 20) */
    static const char *const gxx[] = {"must specify a single register", "impossible constraint in ",
                                      "inconsistent operand constraints in an ", "nested assembly dialect alternatives"};
    for (const char *line = s; line && *line;) {
        const char *end = strchr(line, '\n');
        const size_t len = end ? (size_t)(end - line) : strlen(line);
        const char *err = memmem(line, len, ": error: ", 9);
        for (size_t g = 0; err && g < sizeof gxx / sizeof gxx[0]; g++)
            if (memmem(err, (size_t)(line + len - err), gxx[g], strlen(gxx[g]))) {
                const char *pos = err; /* "file:line:col": the column dropped */
                while (pos > line && isdigit((unsigned char)pos[-1]))
                    pos--;
                if (pos > line && pos[-1] == ':' && pos - 1 > line && isdigit((unsigned char)pos[-2]))
                    pos--;
                else
                    pos = err;
                if (!ptx_at(line, (size_t)(pos - line)))
                    break;
                fprintf(stderr,
                        "%.*s: simtlab run: not supported by the simulator: inline PTX (asm) other than cp.async, ldmatrix, "
                        "mma.sync, ld, st and mov, here from a header or a macro (g++: %.*s); run the program on a GPU "
                        "(simtlab run --mode cuda), or see docs/run.md for what simtlab run supports\n",
                        (int)(pos - line), line, (int)(line + len - err - 9), err + 9);
                return 1;
            }
        line = end ? end + 1 : NULL;
    }
    if (!strstr(s, ": Assembler messages:"))
        return 0;
    for (const char *line = s; line && *line;) {
        const char *end = strchr(line, '\n');
        const size_t len = end ? (size_t)(end - line) : strlen(line);
        const char *err = memmem(line, len, ": Error: ", 9);
        const char *num = err; /* the assembler's "file:line: Error: ": digits before it, a ':' before them */
        while (num && num > line && isdigit((unsigned char)num[-1]))
            num--;
        if (err && num < err && num > line && num[-1] == ':' && line[0] != ' ') {
            const char *what = err + 9;
            fprintf(stderr,
                    "%.*s: simtlab run: not supported by the simulator: inline PTX (asm) other than cp.async, ldmatrix, "
                    "mma.sync, ld, st and mov, here from a header or a macro (the assembler: %.*s); run the program on a GPU "
                    "(simtlab run --mode cuda), or see docs/run.md for what simtlab run supports\n",
                    (int)(err - line), line, (int)(line + len - what), what);
            return 1;
        }
        line = end ? end + 1 : NULL;
    }
    return 0;
}

static int print_refusals(const char *path)
{
    static const char mark[] = "#error \"simtlab run: ";
    size_t n;
    char *s = read_file(path, &n);
    if (s && !strstr(s, mark)) {
        int k = print_library_refusals(s);
        if (!k)
            k = print_static_refusals(s);
        if (!k)
            k = print_asm_refusal(s);
        free(s);
        return k;
    }
    if (!s)
        return 0;
    char from[4200] = "", printed[8][160];
    int count = 0;
    for (char *line = s, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = 0;
        static const char inc[] = "In file included from ";
        if (!strncmp(line, inc, sizeof inc - 1)) { /* the innermost includer comes first */
            snprintf(from, sizeof from, "%s", line + sizeof inc - 1);
            size_t l = strlen(from);
            if (l && (from[l - 1] == ',' || from[l - 1] == ':'))
                from[l - 1] = 0;
            continue;
        }
        char *m = strstr(line, mark);
        if (!m || !strstr(line, ": error: "))
            continue;
        m += strlen("#error \"");
        char *q = strrchr(m, '"');
        if (q)
            *q = 0;
        int seen = 0;
        for (int k = 0; k < count && k < 8; k++)
            seen |= !strncmp(printed[k], m, sizeof printed[k] - 1);
        if (!seen) {
            if (count < 8)
                snprintf(printed[count], sizeof printed[count], "%s", m);
            if (from[0])
                fprintf(stderr, "%s: %s\n", from, m);
            else
                fprintf(stderr, "%s\n", m);
            count++;
        }
        from[0] = 0;
    }
    free(s);
    return count;
}

static void print_log(const char *path)
{
    size_t n;
    char *s = read_file(path, &n);
    if (s) {
        fwrite(s, 1, n, stderr);
        free(s);
    }
}

/* The first line of a compiler's log that says "error:", into buf (cut to fit), or "" if none. */
static void first_error(const char *path, char *buf, size_t cap)
{
    size_t n;
    buf[0] = 0;
    char *s = read_file(path, &n);
    if (!s)
        return;
    for (char *line = s; line < s + n;) {
        char *end = memchr(line, '\n', (size_t)(s + n - line));
        if (!end)
            end = s + n;
        *end = 0;
        if (strstr(line, "error:")) {
            snprintf(buf, cap, "%s", line);
            break;
        }
        line = end + 1;
    }
    free(s);
}

/* ---- the program's own headers ----------------------------------------------------------------- */
/* Kernels and launches often live in the program's headers (`#include
 * "kernels.cuh"`). Every header a source includes, found where g++ finds it
 * (a quoted name beside the including file first; then, quoted or <>, the
 * source's directory, which simtlab passes as -I, and the program's -I
 * directories, in order; the shim's own headers are not the program's), 8
 * deep and 1024 at most, is part of the build cache's key and is rewritten
 * like the sources into a mirror of its absolute path under the build
 * directory (DIR/m/abs/path). The rewritten sources sit in the mirror of
 * their own directory and every -I directory's mirror comes before it, so
 * the compiler, wherever it looks, takes the rewritten copy: also for
 * "../inc/k.cuh" and headers in -I directories. */
typedef int (*header_fn)(void *ctx, const char *abs, const char *text, size_t n);

typedef struct include_path {
    char dirs[MAX_FLAGS + 1][4096]; /* absolute, without "." or "..": the source's directory, the -I ones */
    int n;
    int count;          /* distinct headers seen */
    uint64_t seen[1024]; /* their paths' hashes: each is read, rewritten and hashed once */
    header_fn fn;
    void *ctx;
} include_path;

/* path, absolute, with "." and ".." taken away lexically (as the mirror, all plain
 * directories, resolves them); a relative path is taken from the working directory */
static void normalize(const char *path, char *out, size_t n)
{
    char tmp[8400];
    if (path[0] == '/' || !getcwd(tmp, sizeof tmp - 2))
        snprintf(tmp, sizeof tmp, "%s", path);
    else
        snprintf(tmp + strlen(tmp), sizeof tmp - strlen(tmp), "/%s", path);
    size_t o = 0;
    out[0] = 0;
    for (char *save = NULL, *c = strtok_r(tmp, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
        if (!strcmp(c, "."))
            continue;
        if (!strcmp(c, "..")) {
            while (o > 0 && out[o - 1] != '/')
                o--;
            if (o > 0)
                o--;
            out[o] = 0;
            continue;
        }
        int w = snprintf(out + o, n - o, "/%s", c);
        if (w < 0 || (size_t)w >= n - o)
            break;
        o += (size_t)w;
    }
    if (!o)
        snprintf(out, n, "/");
}

static void include_path_init(include_path *ip, const char *srcdir, const char *const *cflags, int n_cflags,
                              header_fn fn, void *ctx)
{
    memset(ip, 0, sizeof *ip);
    ip->fn = fn;
    ip->ctx = ctx;
    normalize(srcdir, ip->dirs[ip->n++], sizeof ip->dirs[0]);
    for (int k = 0; k < n_cflags && ip->n <= MAX_FLAGS; k++) {
        const char *d = !strcmp(cflags[k], "-I") && k + 1 < n_cflags ? cflags[++k]
                        : !strncmp(cflags[k], "-I", 2)                ? cflags[k] + 2
                                                                      : NULL;
        if (d && d[0])
            normalize(d, ip->dirs[ip->n++], sizeof ip->dirs[0]);
    }
}

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* where g++ finds `#include "name"` (quoted) or <name> from a file in dir; 0 if in none of the
 * program's directories (a system header). out: the path with "." and ".." taken away as text
 * (the mirror's place: its directories are plain ones); phys: the path as g++ opens it, through
 * symbolic links (`-I inclink` with "../common/b.h" in it reads the link's target's sibling).
 * phys_dir: the including file's directory as g++ reached it (dir is its text form). */
static int find_header(const include_path *ip, const char *dir, const char *phys_dir, const char *name, int quoted,
                       char *out, size_t n, char *phys, size_t pn)
{
    char cand[8400];
    if (name[0] == '/') {
        normalize(name, out, n);
        snprintf(phys, pn, "%s", name);
        return is_file(phys);
    }
    if (quoted) {
        snprintf(phys, pn, "%.4095s/%s", phys_dir, name);
        snprintf(cand, sizeof cand, "%.4095s/%s", dir, name);
        normalize(cand, out, n);
        if (is_file(phys))
            return 1;
    }
    for (int k = 0; k < ip->n; k++) {
        if (k == 1) { /* -I sim/run/include comes after the source's directory: a shim header is not the program's */
            snprintf(cand, sizeof cand, "%s/%s", SIMTLAB_RUN_INCLUDE, name);
            if (is_file(cand))
                return 0;
        }
        snprintf(phys, pn, "%.4095s/%s", ip->dirs[k], name);
        normalize(phys, out, n);
        if (is_file(phys))
            return 1;
    }
    return 0;
}

static int walk_includes(include_path *ip, const char *text, size_t n, const char *dir, const char *phys_dir,
                         int depth)
{
    if (depth > 32) /* nesting, not headers: each distinct header is walked once */
        return 0;
    for (size_t i = 0; i < n;) {
        size_t e = i;
        while (e < n && text[e] != '\n')
            e++;
        const char *p = text + i, *end = text + e;
        i = e + 1;
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        if (p >= end || *p != '#')
            continue;
        p++;
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        if (end - p < 8 || strncmp(p, "include", 7))
            continue;
        p += 7;
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        if (p >= end || (*p != '"' && *p != '<'))
            continue;
        int quoted = *p == '"';
        const char *q = memchr(p + 1, quoted ? '"' : '>', (size_t)(end - p - 1));
        if (!q || q == p + 1 || q - p > 1000)
            continue;
        char name[1024], abs[4096], phys[8400];
        snprintf(name, sizeof name, "%.*s", (int)(q - p - 1), p + 1);
        if (!find_header(ip, dir, phys_dir, name, quoted, abs, sizeof abs, phys, sizeof phys))
            continue;
        const uint64_t key = fnv_str(0xcbf29ce484222325ull, abs);
        int seen = 0;
        for (int k = 0; k < ip->count && !seen; k++)
            seen = ip->seen[k] == key;
        if (seen || ip->count == (int)(sizeof ip->seen / sizeof *ip->seen))
            continue; /* walked already (a header included twice, or headers including each other) */
        ip->seen[ip->count++] = key;
        size_t hn;
        char *h = read_file(phys, &hn);
        if (!h)
            continue;
        int rc = ip->fn(ip->ctx, abs, h, hn);
        char subdir[4096], phys_sub[8400];
        snprintf(subdir, sizeof subdir, "%s", abs);
        *strrchr(subdir, '/') = 0;
        snprintf(phys_sub, sizeof phys_sub, "%s", phys);
        char *sl = strrchr(phys_sub, '/');
        if (sl)
            *sl = 0;
        if (!rc)
            rc = walk_includes(ip, h, hn, subdir[0] ? subdir : "/", sl ? (phys_sub[0] ? phys_sub : "/") : ".",
                               depth + 1);
        free(h);
        if (rc)
            return rc;
    }
    return 0;
}

static int hash_header(void *ctx, const char *abs, const char *text, size_t n)
{
    uint64_t *h = ctx;
    *h = fnv(fnv(*h, abs, strlen(abs) + 1), text, n);
    return 0;
}

/* the mirror of an absolute path under the build directory */
static void mirror_of(const char *dir, const char *abs, char *out, size_t n) { snprintf(out, n, "%s/m%s", dir, abs); }

/* shadow_header's context: the build directory, and what the headers of one source add up to */
typedef struct shadow_ctx {
    const char *dir;
    int local_vars; /* their `static __device__` / `static __constant__` variables (rewrite.h) */
} shadow_ctx;

static int shadow_header(void *ctx, const char *abs, const char *text, size_t n)
{
    shadow_ctx *sc = ctx;
    const char *dir = sc->dir;
    char out[8400], parent[8400];
    mirror_of(dir, abs, out, sizeof out);
    rewrite_result r;
    if (cu_rewrite_header(text, n, abs, &r)) {
        fputs(r.err, stderr);
        run_error("%s: cannot build it for the simulator (above)", abs);
        return 2;
    }
    sc->local_vars += r.local_dev_vars; /* a header's variable is in the including file's objects */
    snprintf(parent, sizeof parent, "%s", out);
    *strrchr(parent, '/') = 0;
    int rc = mkdirs(parent) || write_file(out, r.text, r.len) ? run_error("cannot write %s: %s", out, strerror(errno)) : 0;
    free(r.text);
    return rc;
}

static void src_dir_of(const char *file, char *dir, size_t n)
{
    char abs[4096];
    if (!realpath(file, abs))
        snprintf(abs, sizeof abs, "%s", file);
    snprintf(dir, n, "%s", abs);
    char *sl = strrchr(dir, '/');
    if (sl)
        *sl = 0;
}

#ifdef SIMTLAB_RUN_NATIVE
/* The CPU the objects are built for (-march=native): its model and feature flags, from
 * /proc/cpuinfo's first processor; nothing where that cannot be read. */
static uint64_t fnv_cpu(uint64_t h)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return fnv_str(h, "-march=native");
    char line[8192];
    int seen = 0;
    while (seen < 2 && fgets(line, sizeof line, f))
        if (!strncmp(line, "model name", 10) || !strncmp(line, "flags", 5) || !strncmp(line, "Features", 8) ||
            !strncmp(line, "CPU part", 8)) {
            h = fnv_str(h, line);
            seen += !strncmp(line, "flags", 5) || !strncmp(line, "Features", 8) || !strncmp(line, "model name", 10);
        }
    fclose(f);
    return fnv_str(h, "-march=native -mtune=generic");
}
#endif

/* The shim's and simtlab's libraries take part in the cache key (the shim headers with code in
 * them: cuda_runtime.h, the cooperative groups, half and bfloat16). */
static const char *const simtlab_inputs[] = {SIMTLAB_RUN_INCLUDE "/cuda_runtime.h",
                                             SIMTLAB_RUN_INCLUDE "/simtlab_cudart.h",
                                             SIMTLAB_RUN_INCLUDE "/cooperative_groups.h",
                                             SIMTLAB_RUN_INCLUDE "/cooperative_groups/reduce.h",
                                             SIMTLAB_RUN_INCLUDE "/cooperative_groups/scan.h",
                                             SIMTLAB_RUN_INCLUDE "/simtlab_math.h",
                                             SIMTLAB_RUN_INCLUDE "/simtlab_simd.h",
                                             SIMTLAB_RUN_INCLUDE "/simtlab_lowp.h",
                                             SIMTLAB_RUN_INCLUDE "/cuda_fp16.h",
                                             SIMTLAB_RUN_INCLUDE "/cuda_bf16.h",
                                             SIMTLAB_RUN_INCLUDE "/cuda_fp8.h",
                                             SIMTLAB_RUN_INCLUDE "/simtlab_nofp8.h",
                                             SIMTLAB_RUN_INCLUDE "/simtlab_notex.h",
                                             SIMTLAB_RUN_INCLUDE "/cublas_api.h",
                                             SIMTLAB_RUN_INCLUDE "/cublasLt.h",
                                             SIMTLAB_RUN_INCLUDE "/library_types.h",
                                             SIMTLAB_RUN_LIB_RUNTIME,
                                             SIMTLAB_RUN_LIB_CUBLAS,
                                             SIMTLAB_RUN_LIB_JSON,
                                             SIMTLAB_RUN_LIB_SIM,
                                             SIMTLAB_RUN_OBJ_TLS,
                                             SIMTLAB_RUN_OBJ_DEV_END,
#ifdef SIMTLAB_RUN_AS_DIR
                                             SIMTLAB_RUN_AS_DIR "/as",
#endif
};

/* __CUDA_ARCH__ of the preset's chip, defined in the device pass of .cu files only, as nvcc
 * defines it while compiling device code: a kernel's `#if __CUDA_ARCH__ >= 700` path is the one
 * that runs, and host code (the host pass) sees it undefined. The single-pass fallback, which
 * compiles host code too, leaves it undefined (docs/run.md). */
static const char *cuda_arch_define(const char *arch)
{
    if (arch && !strcmp(arch, "sm_80"))
        return "-D__CUDA_ARCH__=800";
    if (arch && !strcmp(arch, "sm_89"))
        return "-D__CUDA_ARCH__=890";
    return "-D__CUDA_ARCH__=900"; /* sm_90, h200, the default */
}

/* A .cu file built in the single pass that tests __CUDA_ARCH__ (outside comments): the pass
 * leaves it undefined, so device code under `#if __CUDA_ARCH__ >= 800` is compiled out of the
 * kernels, which may then do nothing (NVIDIA's bf16TensorCoreGemm computed zeros with no word).
 * Said once a file, with the first such line. */
static void warn_arch_single(const char *path)
{
    size_t n;
    char *s = read_file(path, &n);
    if (!s)
        return;
    int line = 1, found = 0;
    for (size_t i = 0; i < n && !found; i++) {
        if (s[i] == '\n')
            line++;
        else if (s[i] == '/' && i + 1 < n && s[i + 1] == '/')
            while (i + 1 < n && s[i + 1] != '\n')
                i++;
        else if (s[i] == '/' && i + 1 < n && s[i + 1] == '*')
            for (i += 2; i + 1 < n && !(s[i] == '*' && s[i + 1] == '/'); i++)
                line += s[i] == '\n';
        else if (n - i >= 13 && !strncmp(s + i, "__CUDA_ARCH__", 13))
            found = 1;
    }
    free(s);
    if (found)
        fprintf(stderr,
                "%s:%d: simtlab run: warning: built in one pass (above), where __CUDA_ARCH__ is undefined (that pass "
                "compiles host code too): device code under `#if __CUDA_ARCH__ ...` is left out of the kernels, "
                "which may then compute nothing; run it on a GPU (--mode cuda) to compare\n",
                path, line);
}

/* ---- sim mode: build ------------------------------------------------------------------------ */
/* Two passes over each rewritten file (rewrite.h, docs/NOTES.md):
 *   device pass  instrumented (the simulator's hooks), every global symbol
 *                it defines made weak, linked first: its kernels, device
 *                functions and template instances are the ones that run;
 *   host pass    plain g++ -O2, its kernels and external __device__
 *                functions weak (SIMTLAB_DEV_FN): its host functions (strong)
 *                win, so host code runs exactly as natively compiled.
 * Both passes compile the same text, so a symbol has one mangled name in
 * both. If the two-pass build fails where one pass would not (an unusual
 * form the marks cannot take), a single instrumented pass with the host
 * functions marked no_sanitize_thread is the fallback. A file with a
 * kernel of internal linkage (static, or in an anonymous namespace) is
 * built in that single pass alone (internal_kernel). */
enum { PASS_DEV, PASS_HOST, PASS_SINGLE };
/* The host pass's kernels, templates aside (g++ gives those a section of their own, and weak
 * binding already): post_process makes the external ones weak, whatever wrote them (a macro
 * pasting a kernel's name, which the rewriter cannot mark: test run_macro_kernel). */
#define KERNEL_SECTION ".text.hot.simtlab_kernel"
static const char *const pass_name[] = {"dev", "host", "single"};

typedef struct unit {
    char src[4200];    /* the rewritten file */
    int is_cu;         /* a .cu file (nvcc's implicit #include <cuda_runtime.h>) */
    int is_c;          /* a .c file: host code in C, as nvcc compiles it (one plain pass, PASS_HOST) */
    int single;        /* built in the single instrumented pass (a kernel with internal linkage) */
    int local_vars;    /* its `static __device__` / `static __constant__` variables (rewrite.h) */
    int vec_retry;     /* its device pass failed in a way plain vectors may not (vector_copy_refused) */
    char srcdir[4200]; /* -I<directory of the original> */
    char msrcdir[4300]; /* -I<its mirror> (walk_includes) */
    const char (*cmirror)[4300]; /* for each -I of the program's flags, -I<its mirror>; "" for the others */
    char obj[3][4200], log[3][4200];
    const char *argv[3][64 + 2 * MAX_FLAGS];
    pid_t pid[3];
} unit;

/* The end of a compile line: the language, the source, the object, the terminating NULL */
static void argv_tail(const char **argv, int a, const char *lang, const unit *u, int pass)
{
    argv[a++] = "-x";
    argv[a++] = lang;
    argv[a++] = "-c";
    argv[a++] = u->src;
    argv[a++] = "-o";
    argv[a++] = u->obj[pass];
    argv[a] = NULL;
}

static void compile_argv(const opts *o, unit *u, int pass)
{
    const char **argv = u->argv[pass];
    int a = 0;
    argv[a++] = SIMTLAB_CXX;
    if (u->is_c) { /* as nvcc: C host code, no kernels, no instrumentation; the program's -I and -D */
        argv[a++] = "-O2";
        argv[a++] = "-g";
        argv[a++] = u->srcdir;
        for (int k = 0; k < o->n_cflags; k++)
            if (strncmp(o->cflags[k], "-std=", 5)) /* -std=c++17 is the C++ files' */
                argv[a++] = o->cflags[k];
        for (int k = 0; k < o->n_hostflags; k++)
            argv[a++] = o->hostflags[k];
        argv_tail(argv, a, "c", u, pass);
        return;
    }
    argv[a++] = "-std=c++17";
    argv[a++] = "-O2";
    argv[a++] = "-g";
    argv[a++] = "-gdwarf-4";
    /* CUDA code copies through casts (`*(int4 *)&tile[i] = ...`) and nvcc keeps them; g++ at -O2
     * may take a float and an int4 for different objects and read stale values (test run_type_pun) */
    argv[a++] = "-fno-strict-aliasing";
    /* nvcc's front end warns (#2361-D) where g++ refuses a narrowing braced initializer, `T{0.f}` in a
     * template kernel instantiated for int (survey 20: junstar92's transposes): a warning here too */
    argv[a++] = "-Wno-error=narrowing";
    if (pass != PASS_HOST) {
        argv[a++] = "-fsanitize=thread";
        argv[a++] = "--param=tsan-instrument-func-entry-exit=0";
        argv[a++] = "--param=tsan-distinguish-volatile=1";
        argv[a++] = "-fno-tree-vectorize";
        argv[a++] = "-fno-tree-loop-distribute-patterns";
        argv[a++] = "-fno-thread-jumps"; /* one store site a source store: CMakeLists.txt, simtlab_kernels */
        argv[a++] = "-fno-ipa-icf"; /* two kernels of one body stay two: a report names the launched one's line */
        argv[a++] = "-fno-optimize-sibling-calls"; /* an atomic or intrinsic a kernel ends with returns into it:
                                                    * its pc is the kernel's line, not the caller's */
        argv[a++] = "-fstack-clash-protection";
        argv[a++] = "-DSIMTLAB_DEVICE_PASS"; /* kernels flattened (sim/run/include/cuda_runtime.h, __global__) */
#ifdef SIMTLAB_RUN_NATIVE /* as the lessons' kernel units (CMakeLists.txt, SIMTLAB_KERNEL_ARCH_FLAGS) */
        argv[a++] = "-march=native";
        argv[a++] = "-mtune=generic";
#endif
#ifdef SIMTLAB_RUN_AS_DIR /* assembled as the lessons' kernel units: simtlab-as (sim/inline_as.c) */
        argv[a++] = "-B" SIMTLAB_RUN_AS_DIR "/";
#endif
    }
    if (pass == PASS_DEV && u->is_cu) /* as nvcc's device compilation: device paths (#if __CUDA_ARCH__ >= 700) */
        argv[a++] = cuda_arch_define(o->arch);
    argv[a++] = pass == PASS_HOST ? "-DSIMTLAB_DEV_FN=[[gnu::weak]]" : "-DSIMTLAB_DEV_FN=";
    if (pass == PASS_HOST) /* every kernel `hot`, in a .text.hot section: internal_kernel finds them; those
                            * not templates in KERNEL_SECTION, made weak (post_process); noipa: no caller
                            * bound to this copy (a clone, an inlined summary) */
        argv[a++] = "-DSIMTLAB_KERNEL_MARK=__attribute__((hot, noipa, section(\"" KERNEL_SECTION "\")))";
    argv[a++] = pass == PASS_SINGLE ? "-DSIMTLAB_HOST_FN=[[gnu::no_sanitize_thread]]" : "-DSIMTLAB_HOST_FN=";
    argv[a++] = "-Wno-unknown-pragmas";
    argv[a++] = "-Wno-attributes";
    if (shared_dynamic_init)
        argv[a++] = "-DSIMTLAB_SHARED_DYNAMIC_INIT";
    if (trivial_vectors)
        argv[a++] = "-DSIMTLAB_TRIVIAL_VECTORS";
    if (kcall_void)
        argv[a++] = "-DSIMTLAB_KCALL_VOID";
    argv[a++] = u->msrcdir; /* each directory's mirror first: the rewritten headers (walk_includes) */
    argv[a++] = u->srcdir;
    argv[a++] = "-I" SIMTLAB_RUN_INCLUDE;
    for (int k = 0; k < o->n_cflags; k++) {
        if (u->cmirror[k][0])
            argv[a++] = u->cmirror[k];
        argv[a++] = o->cflags[k];
    }
    for (int k = 0; k < o->n_hostflags; k++)
        argv[a++] = o->hostflags[k];
    if (u->is_cu) { /* nvcc includes the runtime in every .cu file; so many programs never do */
        argv[a++] = "-include";
        argv[a++] = "cuda_runtime.h";
        /* and defines these for all of the file, host code too: headers test them (the CUDA
         * samples' helper_math.h defines host min/max without them, which clash with the shim's) */
        argv[a++] = "-D__CUDACC__";
        argv[a++] = "-D__NVCC__";
    }
    argv_tail(argv, a, "c++", u, pass);
}

static int start(const opts *o, unit *u, int pass)
{
    compile_argv(o, u, pass);
    if (o->verbose) {
        fputs("simtlab run:", stderr);
        for (int k = 0; u->argv[pass][k]; k++)
            fprintf(stderr, " %s", u->argv[pass][k]);
        fputc('\n', stderr);
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, u->log[pass], O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    int rc = posix_spawnp(&u->pid[pass], SIMTLAB_CXX, &fa, NULL, (char *const *)u->argv[pass], environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc) {
        u->pid[pass] = -1;
        run_error("cannot run %s: %s (install g++: sudo apt-get install g++)", SIMTLAB_CXX, strerror(rc));
        return -1;
    }
    return 0;
}

static int finish(unit *u, int pass)
{
    int st;
    if (u->pid[pass] < 0)
        return -1;
    while (waitpid(u->pid[pass], &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* A field of a sysv line, from b to its end e, trimmed of spaces and ended (in place). */
static char *sysv_trim(char *b, char *e)
{
    while (b < e && *b == ' ')
        b++;
    while (e > b && e[-1] == ' ')
        e--;
    *e = 0;
    return b;
}

/* A line of `nm --format=sysv`: name|value|class|type|size|line|section, split from the right (a
 * name may hold '|'), the fields ended and trimmed in place; 0 if it is not one. */
static int sysv_fields(char *line, char **name, char **cls, char **type, char **sec)
{
    char *bar[6];
    int k = 0;
    for (char *q = line + strlen(line); q > line && k < 6;)
        if (*--q == '|')
            bar[k++] = q;
    if (k < 6)
        return 0;
    *sec = sysv_trim(bar[0] + 1, bar[0] + 1 + strlen(bar[0] + 1));
    *type = sysv_trim(bar[3] + 1, bar[2]);
    *cls = sysv_trim(bar[4] + 1, bar[3]);
    *name = sysv_trim(line, bar[5]);
    return 1;
}

/* The sections the simulator knows (CMakeLists.txt simtlab_kernels): data
 * always (a kernel's __device__ variables count as global memory), text for
 * instrumented code (the watchdog stops a thread at once there); the device
 * pass's defined globals made weak (nm lists them), and the host pass's
 * external kernels (KERNEL_SECTION), so that the device pass's, linked
 * first, are the ones that run. */
/* The names of obj's C++ function sections, `.text._Z...`: template instances and inline
 * functions, each in its own COMDAT section, which `--rename-section .text=` (exact names) leaves
 * out of simtlab_ktext; their names, NUL-separated, in a malloc'd buffer (NULL: none, or not a
 * 64-bit ELF object). A template kernel launched through a pointer is then named by its function
 * (simtlab_launch_fname), and the watchdog stops a thread at once in its code. */
static char *cxx_text_sections(const char *obj, int *count)
{
    *count = 0;
    size_t n;
    char *f = read_file(obj, &n);
    if (!f)
        return NULL;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)f;
    char *out = NULL;
    size_t used = 0, cap = 0;
    if (n < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
        eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff > n || eh->e_shnum > (n - eh->e_shoff) / sizeof(Elf64_Shdr) ||
        eh->e_shstrndx >= eh->e_shnum)
        goto done;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(f + eh->e_shoff);
    const Elf64_Shdr *strs = &sh[eh->e_shstrndx];
    if (strs->sh_offset > n || strs->sh_size > n - strs->sh_offset)
        goto done;
    for (unsigned i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_type != SHT_PROGBITS || !(sh[i].sh_flags & SHF_EXECINSTR) || sh[i].sh_name >= strs->sh_size)
            continue;
        const char *name = f + strs->sh_offset + sh[i].sh_name;
        const size_t len = strnlen(name, strs->sh_size - sh[i].sh_name);
        if (len == strs->sh_size - sh[i].sh_name || strncmp(name, ".text._Z", 8))
            continue;
        int dup = 0; /* one --rename-section a name (objcopy renames every section of it) */
        for (size_t k = 0; k < used && !dup; k += strlen(out + k) + 1)
            dup = !strcmp(out + k, name);
        if (dup)
            continue;
        if (used + len + 1 > cap) {
            cap = (used + len + 1) * 2;
            char *g = realloc(out, cap);
            if (!g) {
                free(out);
                out = NULL;
                *count = 0;
                goto done;
            }
            out = g;
        }
        memcpy(out + used, name, len + 1);
        used += len + 1;
        ++*count;
    }
done:
    free(f);
    return out;
}

/* Whether the device pass's static initialisers must stay: they build an object of the file's own
 * (internal linkage: `static std::map<...> m`, a namespace-scope `const std::string`) that the
 * device pass's copy of an inline or template host function reads (that copy, in a `.text._Z...`
 * section, is linked first and is the one that runs, and it reads the device pass's copy of the
 * object, which only the device pass's initialiser builds). Compared by section: a local data
 * section (a local symbol, an object or a section and an addend, of a writable data section; not
 * <iostream>'s std::ios_base::Init, every file's, harmless twice) that a relocation inside an
 * initialiser function (`_GLOBAL__sub_I_*`) names, and a relocation of a `.text._Z` section into
 * it. 1: they stay; 0: they can go; -1: not a 64-bit ELF object it can read (they stay). */
static int init_builds_local(const char *obj)
{
    size_t n;
    char *f = read_file(obj, &n);
    if (!f)
        return -1;
    int found = -1;
    unsigned char *written = NULL; /* per section: a local data section an initialiser refers to */
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)f;
    if (n < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
        eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff > n || eh->e_shnum > (n - eh->e_shoff) / sizeof(Elf64_Shdr) ||
        eh->e_shstrndx >= eh->e_shnum)
        goto done;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(f + eh->e_shoff);
    const unsigned ns = eh->e_shnum;
    for (unsigned i = 0; i < ns; i++) /* every section's contents inside the file */
        if (sh[i].sh_type != SHT_NOBITS && (sh[i].sh_offset > n || sh[i].sh_size > n - sh[i].sh_offset))
            goto done;
    const Elf64_Shdr *symtab = NULL, *names = &sh[eh->e_shstrndx];
    for (unsigned i = 0; i < ns && !symtab; i++)
        if (sh[i].sh_type == SHT_SYMTAB && sh[i].sh_link < ns && sh[i].sh_entsize == sizeof(Elf64_Sym))
            symtab = &sh[i];
    if (!symtab || !(written = calloc(ns, 1)))
        goto done;
    const Elf64_Sym *syms = (const Elf64_Sym *)(f + symtab->sh_offset);
    const size_t nsyms = symtab->sh_size / sizeof *syms;
    const Elf64_Shdr *strs = &sh[symtab->sh_link];
    const Elf64_Sym *ioinit = NULL;
    for (size_t z = 0; z < nsyms && !ioinit; z++)
        if (ELF64_ST_TYPE(syms[z].st_info) == STT_OBJECT && syms[z].st_name < strs->sh_size &&
            !strcmp(f + strs->sh_offset + syms[z].st_name, "_ZStL8__ioinit"))
            ioinit = &syms[z];
    found = 0;
    for (int phase = 0; phase < 2 && !found; phase++) /* 0: the initialisers' targets; 1: the COMDAT code's */
        for (unsigned r = 0; r < ns && !found; r++) {
            if (sh[r].sh_type != SHT_RELA || sh[r].sh_entsize != sizeof(Elf64_Rela) || sh[r].sh_info >= ns ||
                sh[r].sh_link >= ns || &sh[sh[r].sh_link] != symtab)
                continue;
            const Elf64_Shdr *code = &sh[sh[r].sh_info];
            const char *cname = code->sh_name < names->sh_size ? f + names->sh_offset + code->sh_name : "";
            if (!(code->sh_flags & SHF_EXECINSTR) || (phase == 1 && strncmp(cname, ".text._Z", 8)))
                continue;
            /* phase 0: the initialiser functions of this section (few: one a file, and tsan's) */
            uint64_t lo[8], hi[8];
            unsigned ni = 0;
            for (size_t k = 0; phase == 0 && k < nsyms && ni < 8; k++)
                if (ELF64_ST_TYPE(syms[k].st_info) == STT_FUNC && syms[k].st_shndx == sh[r].sh_info &&
                    syms[k].st_name < strs->sh_size &&
                    !strncmp(f + strs->sh_offset + syms[k].st_name, "_GLOBAL__sub_I", 14))
                    lo[ni] = syms[k].st_value, hi[ni++] = syms[k].st_value + syms[k].st_size;
            if (phase == 0 && !ni)
                continue;
            const Elf64_Rela *rel = (const Elf64_Rela *)(f + sh[r].sh_offset);
            for (size_t q = 0; q < sh[r].sh_size / sizeof *rel && !found; q++) {
                int in_init = phase == 1;
                for (unsigned k = 0; k < ni && !in_init; k++)
                    in_init = rel[q].r_offset >= lo[k] && rel[q].r_offset < hi[k];
                const size_t si = ELF64_R_SYM(rel[q].r_info);
                if (!in_init || si >= nsyms)
                    continue;
                const Elf64_Sym *t = &syms[si];
                const unsigned ty = ELF64_ST_TYPE(t->st_info);
                if (ELF64_ST_BIND(t->st_info) != STB_LOCAL || (ty != STT_OBJECT && ty != STT_SECTION) ||
                    t->st_shndx == SHN_UNDEF || t->st_shndx >= ns)
                    continue;
                const Elf64_Shdr *ts = &sh[t->st_shndx];
                if (!(ts->sh_flags & SHF_ALLOC) || !(ts->sh_flags & SHF_WRITE) || (ts->sh_flags & SHF_EXECINSTR))
                    continue;
                const uint64_t at = ty == STT_SECTION ? (uint64_t)rel[q].r_addend + 4 : t->st_value; /* PC-relative */
                if (ioinit && ioinit->st_shndx == t->st_shndx && at >= ioinit->st_value &&
                    at < ioinit->st_value + (ioinit->st_size ? ioinit->st_size : 1))
                    continue;
                if (phase == 0)
                    written[t->st_shndx] = 1;
                else
                    found = written[t->st_shndx];
            }
        }
done:
    free(written);
    free(f);
    return found;
}

static int post_process(const opts *o, const char *dir, unit *u, int pass)
{
    char weak_list[4300] = "", weak_arg[4400] = "";
    if (pass == PASS_DEV || (pass == PASS_HOST && !u->is_c)) {
        char nmout[4300];
        snprintf(nmout, sizeof nmout, "%s.syms", u->obj[pass]);
        char *nm_dev[] = {SIMTLAB_NM, "--defined-only", "-g", "--format=posix", u->obj[pass], NULL};
        char *nm_host[] = {SIMTLAB_NM, "--defined-only", "-g", "--format=sysv", u->obj[pass], NULL};
        if (proc_run(pass == PASS_DEV ? nm_dev : nm_host, nmout, o->verbose, NULL))
            return -1;
        size_t n;
        char *syms = read_file(nmout, &n);
        if (!syms)
            return -1;
        snprintf(weak_list, sizeof weak_list, "%s.weak", u->obj[pass]);
        FILE *f = fopen(weak_list, "w");
        if (!f) {
            free(syms);
            return -1;
        }
        int names = 0;
        for (char *line = strtok(syms, "\n"); line; line = strtok(NULL, "\n")) {
            char name[4096], type, *nm, *cls, *ty, *sec;
            if (pass == PASS_DEV && sscanf(line, "%4095s %c", name, &type) == 2 && strchr("TDBRVWu", type))
                fprintf(f, "%s\n", name), names++;
            else if (pass == PASS_HOST && sysv_fields(line, &nm, &cls, &ty, &sec) && !strcmp(cls, "T") &&
                     !strncmp(ty, "FUNC", 4) && !strcmp(sec, KERNEL_SECTION))
                fprintf(f, "%s\n", nm), names++;
        }
        free(syms);
        if (fclose(f))
            return -1;
        /* objcopy fails, silently, on an empty list: a file whose device pass defines no
         * global symbol (only inline __device__ functions, as a .cu that others include) */
        if (names)
            snprintf(weak_arg, sizeof weak_arg, "--weaken-symbols=%s", weak_list);
    }
    (void)dir;
    int n_cxx = 0;
    char *cxx = pass != PASS_HOST ? cxx_text_sections(u->obj[pass], &n_cxx) : NULL;
    char **argv = malloc((size_t)(20 + 2 * n_cxx) * sizeof *argv);
    char *renames_cxx = malloc((size_t)n_cxx * 4200 + 1);
    if (!argv || !renames_cxx) {
        free(argv);
        free(renames_cxx);
        free(cxx);
        return -1;
    }
    int a = 0;
    argv[a++] = SIMTLAB_OBJCOPY;
    if (pass == PASS_DEV && init_builds_local(u->obj[pass]) == 0) {
        /* The host pass runs the file's static initialisers (a global object's constructor, gflags'
         * DEFINE_*); the device pass's copies of them would run them a second time, on the same
         * object (weak here, the host pass's at the link). CUDA gives __device__, __constant__ and
         * __shared__ variables no dynamic initialisation, so the device pass needs none of its own
         * (its __tsan_init call does nothing: sim/access.c), unless they build an object of the
         * file's own, which the device pass's inline and template host code reads (init_builds_local):
         * then they stay, and the file's global objects are constructed twice, as before. */
        argv[a++] = "--remove-section=.init_array*";
        argv[a++] = "--remove-section=.ctors*";
    }
    if (pass != PASS_HOST) {
        argv[a++] = "--rename-section";
        argv[a++] = ".text=simtlab_ktext";
        size_t k = 0;
        for (int j = 0; j < n_cxx; j++, k += strlen(cxx + k) + 1) {
            char *r = renames_cxx + (size_t)j * 4200;
            snprintf(r, 4200, "%s=simtlab_ktext", cxx + k);
            argv[a++] = "--rename-section";
            argv[a++] = r;
        }
    }
    char *renames[] = {".data=simtlab_kdata", ".bss=simtlab_kbss", ".data.rel.local=simtlab_kdrel", ".data.rel=simtlab_kdrel2"};
    for (int k = 0; k < 4; k++) {
        argv[a++] = "--rename-section";
        argv[a++] = renames[k];
    }
    if (weak_arg[0])
        argv[a++] = weak_arg;
    argv[a++] = u->obj[pass];
    argv[a] = NULL;
    char plog[4300]; /* its own log: the compiler's warnings stay in u->log (host_warnings) */
    snprintf(plog, sizeof plog, "%s.post.log", u->obj[pass]);
    const int rc = proc_run(argv, plog, o->verbose, NULL) ? -1 : 0;
    free(argv);
    free(renames_cxx);
    free(cxx);
    return rc;
}

/* Only external symbols of the host pass give way to the device pass's at the link: a kernel
 * with internal linkage (`static __global__`, or in `namespace { }`) keeps the host pass's
 * own copy, which a launch would run without hooks (no fault or race check, nothing counted).
 * The host pass marks every kernel `hot` (SIMTLAB_KERNEL_MARK), which GCC at -O2 places in a
 * .text.hot section; a local function there is such a kernel (or a static host function the
 * program marked hot: then the file is built in one pass for nothing, still correct). Returns
 * 1 with the first one's name, 0 when there is none, -1 when nm failed. */
static int internal_kernel(const opts *o, const unit *u, char *name, size_t nn)
{
    char out[4300];
    snprintf(out, sizeof out, "%s.hot", u->obj[PASS_HOST]);
    char *argv[] = {SIMTLAB_NM, "-C", "--defined-only", "--format=sysv", (char *)u->obj[PASS_HOST], NULL};
    if (proc_run(argv, out, o->verbose, NULL))
        return -1;
    size_t n;
    char *syms = read_file(out, &n);
    if (!syms)
        return -1;
    int found = 0;
    for (char *line = strtok(syms, "\n"); line && !found; line = strtok(NULL, "\n")) {
        char *nm, *cls, *type, *sec;
        if (!sysv_fields(line, &nm, &cls, &type, &sec) || strncmp(sec, ".text.hot", 9) || strcmp(cls, "t") ||
            strncmp(type, "FUNC", 4))
            continue;
        snprintf(name, nn, "%s", nm);
        found = 1;
    }
    free(syms);
    return found;
}

/* A program given one file short (a kernel defined in another .cu: gpu-mode's lecture 12 has
 * three, survey 12): ld's "undefined reference to `name(...)'" is buried under the launch
 * lambdas' mangled names; say what to do, naming the first missing function. */
static void undefined_hint(const char *log, int n_files)
{
    size_t n;
    char *s = read_file(log, &n);
    const char *u = s ? strstr(s, "undefined reference to ") : NULL;
    if (u) {
        u = past_open_quote(u + strlen("undefined reference to "));
        size_t k = 0;
        while (u[k] && u[k] != '(' && u[k] != '\'' && u[k] != '\n' && (unsigned char)u[k] != 0xe2 && k < 200)
            k++;
        run_error("'%.*s' is used but defined in none of the %d file%s given: if the program has more source "
                  "files, pass them all (simtlab run main.cu kernels.cu ...); if it comes from a library, name it "
                  "as nvcc takes it (-lNAME, and -LDIR where it is not in the system's directories)",
                  (int)k, u, n_files, n_files == 1 ? "" : "s");
    }
    free(s);
}

static int link_prog(const opts *o, const char *dir, unit *units, int all_single, const char *bin)
{
    char tmp[4200], log[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp%d", bin, (int)getpid());
    snprintf(log, sizeof log, "%s/link.log", dir);
    const char *argv[2 * MAX_FILES + MAX_FLAGS + 32];
    int a = 0;
    argv[a++] = SIMTLAB_CXX;
    argv[a++] = "-o";
    argv[a++] = tmp;
    argv[a++] = SIMTLAB_RUN_OBJ_TLS; /* the simulator's thread-locals before the program's (sim/tls.c) */
    for (int i = 0; i < o->n_files; i++) /* the device pass first: its weak definitions win */
        if (!units[i].is_c)
            argv[a++] = units[i].obj[all_single || units[i].single ? PASS_SINGLE : PASS_DEV];
    argv[a++] = SIMTLAB_RUN_OBJ_DEV_END; /* where the static __shared__ window ends (sim/tls_dev_end.c) */
    for (int i = 0; i < o->n_files; i++) /* then the host passes, and the C files' one */
        if (units[i].is_c || (!all_single && !units[i].single))
            argv[a++] = units[i].obj[PASS_HOST];
    argv[a++] = SIMTLAB_RUN_LIB_RUNTIME;
    argv[a++] = SIMTLAB_RUN_LIB_CUBLAS; /* after the runtime: cublas.c's launches name its thunks (its kernels
                                         * have no static __shared__ memory: it would be past the window) */
    argv[a++] = SIMTLAB_RUN_LIB_JSON;
    argv[a++] = SIMTLAB_RUN_LIB_SIM;
#ifdef SIMTLAB_RUN_OPENMP
    argv[a++] = "-fopenmp";
#endif
#ifdef SIMTLAB_RUN_SANITIZE
    argv[a++] = "-fsanitize=address,undefined";
#endif
    char wl[MAX_FLAGS][512];
    for (int k = 0; k < o->n_ldflags; k++) /* the program's libraries, after its objects */
        if (!strcmp(o->ldflags[k], "-Xlinker") && k + 1 < o->n_ldflags) {
            /* nvcc splits -Xlinker's value at commas (-rpath,/opt/lib), as g++ does -Wl,'s */
            k++;
            snprintf(wl[k], sizeof wl[k], "-Wl,%s", o->ldflags[k]);
            argv[a++] = wl[k];
        } else {
            argv[a++] = o->ldflags[k];
        }
    argv[a++] = "-lm";
    argv[a++] = "-ldl";
    argv[a] = NULL;
    if (proc_run((char *const *)argv, log, o->verbose, NULL))
        return -1;
    if (rename(tmp, bin)) {
        run_error("cannot rename %s: %s", tmp, strerror(errno));
        return -1;
    }
    return 0;
}

/* A mark in the build's directory: a retry this build needed, whose note a cached build says again
 * (build_sim) */
static void build_mark(const char *dir, const char *name)
{
    char mark[4200];
    snprintf(mark, sizeof mark, "%s/%s", dir, name);
    if (write_file(mark, "1\n", 2))
        run_error("cannot write %s: %s", mark, strerror(errno));
}

static int build_sim(const opts *o, const char *dir, char *bin, size_t bn)
{
    snprintf(bin, bn, "%s/prog-sim", dir);
    if (access(bin, X_OK) == 0) { /* cached */
        char mark[4200];
        snprintf(mark, sizeof mark, "%s/shared-dynamic-init", dir);
        if (access(mark, F_OK) == 0)
            note_shared_dynamic_init();
        snprintf(mark, sizeof mark, "%s/trivial-vectors", dir);
        if (access(mark, F_OK) == 0)
            note_trivial_vectors();
        snprintf(mark, sizeof mark, "%s/kcall-void", dir);
        if (access(mark, F_OK) == 0)
            note_kcall_void();
        return 0;
    }
    unit *units = calloc((size_t)o->n_files, sizeof *units);
    char(*cmirror)[4300] = calloc(MAX_FLAGS, sizeof *cmirror);
    include_path *ip = malloc(sizeof *ip);
    if (!units || !cmirror || !ip) {
        free(units), free(cmirror), free(ip);
        return run_error("out of host memory");
    }
    for (int k = 0; k < o->n_cflags; k++) { /* the mirrors of the program's -I directories */
        const char *d = !strcmp(o->cflags[k], "-I") && k + 1 < o->n_cflags ? o->cflags[k + 1]
                        : !strncmp(o->cflags[k], "-I", 2)                   ? o->cflags[k] + 2
                                                                            : NULL;
        if (d && d[0]) {
            char nd[4096], m[8400];
            normalize(d, nd, sizeof nd);
            mirror_of(dir, nd, m, sizeof m);
            if (mkdirs(m)) { /* g++ warns of a -I directory that does not exist */
                run_error("cannot create %s: %s", m, strerror(errno));
                free(units), free(cmirror), free(ip);
                return 2;
            }
            snprintf(cmirror[k], sizeof cmirror[k], "-I%.4250s", m);
        }
    }
    int rc = 2;
    for (int i = 0; i < o->n_files; i++) {
        unit *u = &units[i];
        size_t n;
        char *src = read_file(o->files[i], &n);
        if (!src) {
            run_error("cannot read %s: %s", o->files[i], strerror(errno));
            goto out;
        }
        char abs[4096];
        if (!realpath(o->files[i], abs))
            snprintf(abs, sizeof abs, "%s", o->files[i]);
        for (int p = 0; p < 3; p++) {
            snprintf(u->obj[p], sizeof u->obj[p], "%s/%d.%s.o", dir, i, pass_name[p]);
            snprintf(u->log[p], sizeof u->log[p], "%s/%d.%s.log", dir, i, pass_name[p]);
        }
        if (has_suffix(o->files[i], ".c")) { /* C host code: compiled as it is */
            free(src);
            u->is_c = 1;
            snprintf(u->src, sizeof u->src, "%s", abs);
            snprintf(u->srcdir, sizeof u->srcdir, "-I%s", abs);
            char *sl = strrchr(u->srcdir, '/');
            if (sl && sl > u->srcdir + 2)
                *sl = 0;
            continue;
        }
        rewrite_result r;
        const char *defs[MAX_FLAGS];
        int n_defs = 0;
        for (int k = 0; k < o->n_cflags; k++) /* -DNAME[=V], or -D NAME[=V] */
            if (!strcmp(o->cflags[k], "-D") && k + 1 < o->n_cflags)
                defs[n_defs++] = o->cflags[++k];
            else if (!strncmp(o->cflags[k], "-D", 2))
                defs[n_defs++] = o->cflags[k] + 2;
            else if (!strcmp(o->cflags[k], "-I"))
                k++;
        if (cu_rewrite_defs(src, n, abs, defs, n_defs, &r)) {
            free(src);
            fputs(r.err, stderr);
            run_error("%s: cannot build it for the simulator (above)", o->files[i]);
            goto out;
        }
        char sdir[4096], msdir[8400];
        src_dir_of(o->files[i], sdir, sizeof sdir);
        shadow_ctx shadow = {dir, 0};
        include_path_init(ip, sdir, o->cflags, o->n_cflags, shadow_header, &shadow);
        if (walk_includes(ip, src, n, ip->dirs[0], ip->dirs[0], 0)) {
            free(src);
            free(r.text);
            goto out;
        }
        free(src);
        mirror_of(dir, ip->dirs[0], msdir, sizeof msdir); /* in its directory's mirror: beside its headers' */
        snprintf(u->src, sizeof u->src, "%.4150s/%d.sim.cc", msdir, i);
        snprintf(u->msrcdir, sizeof u->msrcdir, "-I%.4250s", msdir);
        u->cmirror = (const char(*)[4300])cmirror;
        u->is_cu = has_suffix(o->files[i], ".cu");
        if (mkdirs(msdir) || write_file(u->src, r.text, r.len)) {
            free(r.text);
            run_error("cannot write %s: %s", u->src, strerror(errno));
            goto out;
        }
        free(r.text);
        u->local_vars = r.local_dev_vars + shadow.local_vars;
        snprintf(u->srcdir, sizeof u->srcdir, "-I%s", abs); /* "#include "util.h"" next to the source */
        char *slash = strrchr(u->srcdir, '/');
        if (slash)
            *slash = 0;
    }
    /* both passes of every file at once */
compile:;
    int started_ok = 1;
    for (int i = 0; i < o->n_files; i++)
        for (int p = units[i].is_c ? PASS_HOST : PASS_DEV; p <= PASS_HOST; p++)
            if (start(o, &units[i], p))
                started_ok = 0;
    int dev_failed = 0, host_failed = 0;
    char host_error[600] = "";
    for (int i = 0; i < o->n_files; i++) {
        if (units[i].is_c) { /* its one compilation */
            if (finish(&units[i], PASS_HOST)) {
                print_log(units[i].log[PASS_HOST]);
                run_error("%s did not compile (g++ -x c, as nvcc compiles a .c file: errors above)", o->files[i]);
                dev_failed = 1;
            }
            continue;
        }
        if (finish(&units[i], PASS_DEV)) {
            if (!kcall_void && kcall_refused(units[i].log[PASS_DEV])) {
                if (!dev_failed)
                    dev_failed = 4; /* every file again, below (unless another failed for good) */
            } else if (!shared_dynamic_init && constinit_refused(units[i].log[PASS_DEV])) {
                if (!dev_failed)
                    dev_failed = 2; /* every file again, below (unless another failed for good) */
            } else if (print_refusals(units[i].log[PASS_DEV])) {
                run_error("%s: cannot build it for the simulator (above)", o->files[i]);
                dev_failed = 1;
            } else if (!trivial_vectors) {
                /* the vectors' own copy may be why (vector_copy_refused), but g++'s errors need not
                 * name the vector type (`too many initializers for 'P'` of brace elision through a
                 * float4 member; a union member that is a struct holding one): any failure no refusal
                 * claims is tried once more with plain vectors, whose errors are then shown */
                units[i].vec_retry = 1;
                if (!dev_failed)
                    dev_failed = 3;
            } else {
                print_log(units[i].log[PASS_DEV]);
                run_error("%s did not compile for the simulator (g++, errors above)", o->files[i]);
                dev_failed = 1;
            }
        }
        if (finish(&units[i], PASS_HOST)) {
            if (!host_failed) /* the note below names its first error */
                first_error(units[i].log[PASS_HOST], host_error, sizeof host_error);
            host_failed = 1;
            if (!trivial_vectors && !dev_failed && vector_copy_refused(units[i].log[PASS_HOST]))
                dev_failed = 3; /* host code copies such a union: both passes again (one layout) */
        }
    }
    for (int i = 0; dev_failed == 1 && i < o->n_files; i++)
        if (units[i].vec_retry) { /* another file failed for good: no second try */
            print_log(units[i].log[PASS_DEV]);
            run_error("%s did not compile for the simulator (g++, errors above)", o->files[i]);
        }
    for (int i = 0; i < o->n_files; i++)
        units[i].vec_retry = 0;
    if (started_ok && dev_failed == 2) {
        note_shared_dynamic_init();
        shared_dynamic_init = 1;
        build_mark(dir, "shared-dynamic-init");
        goto compile;
    }
    if (started_ok && dev_failed == 3) {
        trivial_vectors = 1; /* the note once it compiles: below */
        goto compile;
    }
    if (started_ok && dev_failed == 4) {
        note_kcall_void();
        kcall_void = 1;
        build_mark(dir, "kcall-void");
        goto compile;
    }
    if (!started_ok || dev_failed)
        goto out;
    if (trivial_vectors) {
        note_trivial_vectors();
        build_mark(dir, "trivial-vectors");
    }
    int two_pass = !host_failed, post_failed = 0;
    for (int i = 0; two_pass && i < o->n_files; i++)
        if (!units[i].is_c)
            two_pass = !(post_failed = post_process(o, dir, &units[i], PASS_DEV) || post_process(o, dir, &units[i], PASS_HOST));
    for (int i = 0; two_pass && i < o->n_files; i++) { /* a kernel the device pass cannot replace */
        if (units[i].is_c)
            continue;
        char kname[512];
        int ik = internal_kernel(o, &units[i], kname, sizeof kname);
        if (ik < 0)
            two_pass = 0, post_failed = 1;
        else if (ik || units[i].local_vars) {
            /* a static __device__ or __constant__ variable would exist once in each pass: host code
             * (cudaMemcpyToSymbol) would fill one copy and the kernels read the other */
            if (ik)
                fprintf(stderr, "simtlab run: note: kernel '%s' has internal linkage (static or in an anonymous "
                                "namespace); building %s in one instrumented pass (its kernels checked and counted as "
                                "any; its host code slower, and not counted)\n",
                        kname, o->files[i]);
            else
                fprintf(stderr, "simtlab run: note: %s has a static __device__ or __constant__ variable (internal "
                                "linkage; in it or a header it includes); building it in one instrumented pass, so "
                                "that host code and kernels share it (its host code slower, and not counted)\n",
                        o->files[i]);
            units[i].single = 1;
            if (units[i].is_cu)
                warn_arch_single(o->files[i]);
            if (start(o, &units[i], PASS_SINGLE) || finish(&units[i], PASS_SINGLE) ||
                post_process(o, dir, &units[i], PASS_SINGLE))
                two_pass = 0; /* the whole program in the single pass, below, shows the errors */
        }
    }
    if (two_pass && !link_prog(o, dir, units, 0, bin)) {
        rc = 0;
        goto out;
    }
    /* the fallback: one instrumented pass, host functions marked; the note only once it built
     * (a program that fails either way gets its errors alone: a missing main is not the
     * two-pass build's fault) */
    const char *why = host_failed   ? "the host pass did not compile"
                      : post_failed ? "objcopy could not mark an object's symbols (-v shows the commands)"
                                    : "the link failed";
    for (int i = 0; i < o->n_files; i++)
        if (!units[i].is_c && (start(o, &units[i], PASS_SINGLE) || finish(&units[i], PASS_SINGLE) ||
                               post_process(o, dir, &units[i], PASS_SINGLE))) {
            print_log(units[i].log[PASS_SINGLE]);
            run_error("%s did not compile for the simulator (g++, errors above)", o->files[i]);
            goto out;
        }
    if (link_prog(o, dir, units, 1, bin)) {
        char log[4200];
        snprintf(log, sizeof log, "%s/link.log", dir);
        print_log(log);
        run_error("linking the program failed (above)");
        undefined_hint(log, o->n_files);
        goto out;
    }
    fprintf(stderr, "simtlab run: note: the two-pass build failed (%s); built with host code instrumented "
                    "(slower, still not counted)\n",
            why);
    if (host_failed && host_error[0]) /* simtlab's shim, not the program, may be why: worth a report */
        fprintf(stderr, "simtlab run: note: the host pass's first error: %s\n", host_error);
    for (int i = 0; i < o->n_files; i++)
        if (units[i].is_cu && !units[i].single)
            warn_arch_single(o->files[i]);
    rc = 0;
out:
    free(units);
    free(cmirror);
    free(ip);
    return rc;
}

/* ---- run ---------------------------------------------------------------------------------- */
static char **env_with(const char *const *add, int n_add)
{
    int n = 0;
    while (environ[n])
        n++;
    char **e = calloc((size_t)(n + n_add + 1), sizeof *e);
    if (!e)
        return NULL;
    int k = 0;
    for (int i = 0; i < n; i++) {
        int drop = 0;
        for (int j = 0; j < n_add; j++) {
            size_t l = strcspn(add[j], "=") + 1;
            if (!strncmp(environ[i], add[j], l))
                drop = 1;
        }
        if (!drop)
            e[k++] = environ[i];
    }
    for (int j = 0; j < n_add; j++)
        e[k++] = (char *)add[j];
    return e;
}

/* While the program runs: SIGTERM (`timeout`'s) goes on to it, and Ctrl-C's SIGINT, which the
 * terminal sends to the program as well, leaves this driver waiting for it; the program's runtime
 * stops a running launch on either and prints the launches so far (sim/launch.c, on_interrupt). */
static void forward_signal(int sig)
{
    if (sig != SIGTERM)
        return;
    if (proc_child > 0)
        kill(proc_child, sig);
    else /* not spawned yet: passed on as soon as it is (proc_run_as); it was lost before, and the
          * program ran on (a CI run of run_interrupt hung for 60 s) */
        proc_pending = sig;
}

/* The program died of a signal in its host code: g++'s warnings of undefined behaviour in the host
 * pass (the logs beside bin, kept in the build cache), which simtlab's -O2 may turn into a crash
 * where nvcc's host build, -O0 by default, runs on (csc-training's stencil: a bool function with
 * no return; survey 16) */
static void host_warnings(const char *bin, int n_files)
{
    static const char *const ub[] = {"[-Wreturn-type]", "[-Waggressive-loop-optimizations]", "[-Warray-bounds",
                                     "[-Wuninitialized]", "[-Wmaybe-uninitialized]", "[-Wstringop-overflow",
                                     "[-Wnonnull]", "[-Wdangling-pointer"};
    char dir[4200];
    snprintf(dir, sizeof dir, "%s", bin);
    char *slash = strrchr(dir, '/');
    if (!slash)
        return;
    *slash = 0;
    int shown = 0;
    for (int i = 0; i < n_files && shown < 6; i++)
        for (int pass = 0; pass < 2 && shown < 6; pass++) {
            char log[4300];
            snprintf(log, sizeof log, "%s/%d.%s.log", dir, i, pass ? "single" : "host");
            size_t n;
            char *s = read_file(log, &n);
            for (char *line = s, *next; line && *line && shown < 6; line = next) {
                next = strchr(line, '\n');
                if (next)
                    *next++ = 0;
                int hit = 0;
                for (size_t k = 0; k < sizeof ub / sizeof *ub && !hit; k++)
                    hit = strstr(line, ub[k]) && strstr(line, ": warning: ");
                if (!hit)
                    continue;
                if (!shown++)
                    fprintf(stderr, "simtlab run: g++ warned of undefined behaviour in the program's host code, which "
                                    "simtlab's host build (-O2) may turn into such a crash where nvcc's (-O0 by "
                                    "default) runs on; fix it first:\n");
                fprintf(stderr, "  %s\n", line);
            }
            free(s);
        }
}

static int run_program(const char *bin, const opts *o, const char *const *env_add, int n_env)
{
    char **argv = calloc((size_t)o->n_prog_args + 2, sizeof *argv);
    char **envp = env_with(env_add, n_env);
    if (!argv || !envp)
        return run_error("out of host memory");
    /* argv[0]: the first source without its extension, as `nvcc -o prog prog.cu` would name it
     * (a usage line prints it; the CUDA samples find their data files next to it), not the cache */
    char name[4200];
    snprintf(name, sizeof name, "%s", o->files[0]);
    char *dot = strrchr(name, '.'), *slash = strrchr(name, '/');
    if (dot && (!slash || dot > slash + 1))
        *dot = 0;
    argv[0] = name;
    for (int i = 0; i < o->n_prog_args; i++)
        argv[i + 1] = o->prog_args[i];
    struct sigaction fw, old_int, old_term;
    memset(&fw, 0, sizeof fw);
    fw.sa_handler = forward_signal; /* a handler, not SIG_IGN: the program must not inherit an ignored SIGINT */
    sigemptyset(&fw.sa_mask);
    sigaction(SIGINT, &fw, &old_int);
    sigaction(SIGTERM, &fw, &old_term);
    int rc = proc_run_as(bin, argv, NULL, o->verbose, envp);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    free(argv);
    free(envp);
    if (rc < 0)
        return run_error("cannot run %s: %s", bin, strerror(errno));
    if (rc >= PROC_SIGNALED) {
        fprintf(stderr, "simtlab run: the program was killed by signal %d (%s) in its host code\n", rc - PROC_SIGNALED,
                strsignal(rc - PROC_SIGNALED));
        if (rc - PROC_SIGNALED != SIGINT && rc - PROC_SIGNALED != SIGTERM && rc - PROC_SIGNALED != SIGKILL)
            host_warnings(bin, o->n_files);
    }
    const int status = proc_status(rc);
    /* a failed check of the program's own, maybe a hazard between threads that counting mode's
     * sample did not see (survey 21: a scan's total read with no barrier after the loop) */
    if (status && rc < PROC_SIGNALED && !o->detail && !o->lines && strcmp(o->mode, "compare")) /* compare: detailed */
        fprintf(stderr,
                "simtlab run: the program exited with status %d. Counting mode checks a sample of the shared "
                "accesses (in the grid's first and last blocks) for hazards between threads; `simtlab run --detail "
                "%s` checks every shared and global access\n",
                status, o->files[0]);
    return status;
}

int main(int argc, char **argv)
{
    opts o;
    int rc = parse(argc, argv, &o);
    if (rc)
        return rc;
    if (o.json) { /* refuse a destination that cannot be written before any work */
        FILE *f = fopen(o.json, "a");
        struct stat st;
        if (!f || (stat(o.json, &st) == 0 && !S_ISREG(st.st_mode)))
            return run_error("--json %s: cannot write there (%s)", o.json, f ? "not a regular file" : strerror(errno));
        fclose(f);
    }
    /* the cache directory: by content of the sources and flags, and simtlab's own inputs */
    uint64_t h = 0xcbf29ce484222325ull;
    h = fnv_str(h, "simtlab run 1");
#ifdef SIMTLAB_RUN_NATIVE
    h = fnv_cpu(h); /* objects built for this CPU: another one (a shared cache) builds its own */
#endif
    for (int i = 0; i < o.n_files; i++) {
        size_t n;
        char *s = read_file(o.files[i], &n);
        if (!s)
            return run_error("cannot read %s: %s", o.files[i], strerror(errno));
        char abs[4096];
        if (!realpath(o.files[i], abs))
            snprintf(abs, sizeof abs, "%s", o.files[i]);
        h = fnv_str(h, abs);
        h = fnv(h, s, n);
        char dir0[4096];
        src_dir_of(o.files[i], dir0, sizeof dir0);
        include_path *ip = malloc(sizeof *ip);
        if (!ip) {
            free(s);
            return run_error("out of host memory");
        }
        include_path_init(ip, dir0, o.cflags, o.n_cflags, hash_header, &h);
        walk_includes(ip, s, n, ip->dirs[0], ip->dirs[0], 0);
        free(ip);
        free(s);
    }
    for (int i = 0; i < o.n_cflags; i++)
        h = fnv_str(h, o.cflags[i]);
    for (int i = 0; i < o.n_hostflags; i++)
        h = fnv_str(h, o.hostflags[i]);
    for (int i = 0; i < o.n_ldflags; i++)
        h = fnv_str(h, o.ldflags[i]);
    for (int i = 0; i < o.n_nvonly; i++) /* --mode cuda's nvcc gets them: its cached binary was built with them */
        h = fnv_str(h, o.nvonly[i]);
    h = fnv_libs(h, &o);
    for (size_t i = 0; i < sizeof simtlab_inputs / sizeof simtlab_inputs[0]; i++)
        h = fnv_stat(h, simtlab_inputs[i]);
    h = fnv_stat(h, "/proc/self/exe"); /* this driver: its rewriter's output is what is compiled */
    h = fnv_str(h, cuda_arch_define(o.arch)); /* the device pass's __CUDA_ARCH__ */
    const char *cache = getenv("SIMTLAB_RUN_CACHE");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/%016llx", cache && cache[0] ? cache : SIMTLAB_RUN_CACHE_DEFAULT, (unsigned long long)h);
    if (mkdirs(dir))
        return run_error("cannot create the build cache %s: %s (set SIMTLAB_RUN_CACHE to a writable directory)", dir,
                   strerror(errno));

    int want_sim = strcmp(o.mode, "cuda") != 0, want_cuda = strcmp(o.mode, "sim") != 0;
    int compare = want_sim && want_cuda;
    char sim_bin[4200], tsv[4200] = "";
    /* one build of this cache entry at a time: two runs of one program at once shared its objects
     * and logs, and one fell back to the one-pass build (survey 16's re-run); the second finds the
     * first's binaries. Let go before the program runs. */
    char lockp[4200];
    snprintf(lockp, sizeof lockp, "%s/.build.lock", dir);
    const int lk = open(lockp, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (lk >= 0)
        while (flock(lk, LOCK_EX) && errno == EINTR) {
        }
    if (want_sim && (rc = build_sim(&o, dir, sim_bin, sizeof sim_bin))) {
        if (lk >= 0)
            close(lk);
        return rc;
    }
    run_cuda_ctx cu;
    /* nvcc takes the host compiler's flags through -Xcompiler */
    const char *nvflags[4 * MAX_FLAGS];
    char xc[MAX_FLAGS][128];
    int n_nv = 0;
    for (int i = 0; i < o.n_cflags; i++)
        nvflags[n_nv++] = o.cflags[i];
    for (int i = 0; i < o.n_hostflags; i++) {
        snprintf(xc[i], sizeof xc[i], "-Xcompiler=%s", o.hostflags[i]);
        nvflags[n_nv++] = xc[i];
    }
    for (int i = 0; i < o.n_ldflags; i++) /* nvcc takes -l, -L and -Xlinker as they are */
        nvflags[n_nv++] = o.ldflags[i];
    for (int i = 0; i < o.n_nvonly; i++) /* and its own (nvcc_flag): --extended-lambda, --use_fast_math, ... */
        nvflags[n_nv++] = o.nvonly[i];
    rc = want_cuda ? run_cuda_build(&o.files[0], o.n_files, nvflags, n_nv, o.arch, dir, o.verbose, &cu) : 0;
    if (lk >= 0)
        close(lk); /* the lock goes with it */
    if (rc)
        return rc;
    if (want_sim) {
        char e_detail[32], e_lines[32], e_json[4200], e_arch[128], e_tsv[4300];
        const char *env[6];
        int ne = 0;
        snprintf(e_detail, sizeof e_detail, "SIMTLAB_RUN_DETAIL=%d", o.detail || compare);
        env[ne++] = e_detail;
        snprintf(e_lines, sizeof e_lines, "SIMTLAB_RUN_LINES=%d", o.lines);
        env[ne++] = e_lines;
        if (o.json && !compare) {
            snprintf(e_json, sizeof e_json, "SIMTLAB_RUN_JSON=%s", o.json);
            env[ne++] = e_json;
        }
        if (o.arch) {
            snprintf(e_arch, sizeof e_arch, "SIMTLAB_RUN_ARCH=%s", o.arch);
            env[ne++] = e_arch;
        }
        if (compare) {
            snprintf(tsv, sizeof tsv, "%s/sim-%d.tsv", dir, (int)getpid());
            snprintf(e_tsv, sizeof e_tsv, "SIMTLAB_RUN_TSV=%s", tsv);
            env[ne++] = e_tsv;
        }
        if (compare)
            fprintf(stderr, "simtlab run: --mode compare: the simulator first\n");
        rc = run_program(sim_bin, &o, env, ne);
        if (!compare)
            return rc;
    }
    int rc_cuda = run_cuda_run(&cu, o.prog_args, o.n_prog_args, o.no_counters, compare ? NULL : o.json, o.verbose);
    if (!compare)
        return rc_cuda;
    int rc_cmp = run_cuda_compare(&cu, tsv, o.json);
    unlink(tsv);
    return rc ? rc : rc_cuda ? rc_cuda : rc_cmp;
}
