/* lessons/01_compile_chain/lesson01.c - lesson 1: how a .cu file becomes SASS.
 *
 * Compiles lesson 2's kernel file with nvcc, step by step: to PTX (the
 * virtual ISA), to cubin for sm_80, sm_89 and sm_90 (real machine code,
 * SASS), and to a fatbinary holding several of them; shows the PTX of its
 * global loads and stores, what ptxas allocated (registers, spills), the
 * SASS LDG/STG lines when cuobjdump is there, and what the fatbinary holds
 * (parsed here). With a GPU (--mode cuda) it times the driver loading the
 * PTX (a JIT compile, then the driver's cache) against loading the cubin.
 * Needs nvcc only; no GPU for --mode sim.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lesson.h"

#ifndef SIMTLAB_SOURCE_DIR
#define SIMTLAB_SOURCE_DIR "."
#endif
#ifndef SIMTLAB_NVCC_DEFAULT
#define SIMTLAB_NVCC_DEFAULT "/usr/local/cuda/bin/nvcc"
#endif

static const char *const archs[] = {"80", "89", "90"};

/* Runs argv[0] with argv (no shell: a path is never parsed as shell text),
 * capturing its stdout and stderr together into out (may be NULL; what does
 * not fit is read and dropped). Returns the exit code, or -1 when it could
 * not be started or died of a signal. */
static int run(const char *const *argv, char *out, size_t n)
{
    int fd[2];
    if (pipe(fd))
        return -1;
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    if (pid == 0) {
        dup2(fd[1], 1);
        dup2(fd[1], 2);
        close(fd[0]);
        close(fd[1]);
        execv(argv[0], (char *const *)argv);
        fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(fd[1]);
    size_t k = 0;
    char buf[4096];
    for (;;) {
        ssize_t got = read(fd[0], buf, sizeof buf);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        size_t g = (size_t)got;
        if (out && n && k + 1 < n) {
            size_t take = g < n - 1 - k ? g : n - 1 - k;
            memcpy(out + k, buf, take);
            k += take;
        }
    }
    close(fd[0]);
    if (out && n)
        out[k] = 0;
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The first executable `name` on $PATH, into out. 0, or -1 if none. */
static int which(const char *name, char *out, size_t n)
{
    const char *path = getenv("PATH");
    if (!path)
        return -1;
    for (const char *p = path;;) {
        const char *c = strchr(p, ':');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        if (len && (size_t)snprintf(out, n, "%.*s/%s", (int)len, p, name) < n && access(out, X_OK) == 0)
            return 0;
        if (!c)
            return -1;
        p = c + 1;
    }
}

/* nvcc runs its own stages (cicc, ptxas, ...) through sh with the file names
 * pasted in, so a path with shell syntax in it would run as a command even
 * when nvcc itself is started without a shell. Returns the first character of
 * path outside letters, digits and ._/+,=@%:-, or 0 when there is none. */
static int unsafe_path_char(const char *path)
{
    for (const unsigned char *p = (const unsigned char *)path; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              strchr("._/+,=@%:-", *p)))
            return *p;
    return 0;
}

static int rm_entry(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    remove(p);
    return 0;
}

static long file_size(const char *p)
{
    struct stat s;
    return stat(p, &s) ? -1 : (long)s.st_size;
}

static int exists_exe(const char *p) { return access(p, X_OK) == 0; }

/* Finds nvcc: $SIMTLAB_NVCC, the one CMake found, then PATH. */
static int find_nvcc(char *out, size_t n)
{
    const char *env = getenv("SIMTLAB_NVCC");
    if (env && exists_exe(env))
        return snprintf(out, n, "%s", env), 0;
    if (exists_exe(SIMTLAB_NVCC_DEFAULT))
        return snprintf(out, n, "%s", SIMTLAB_NVCC_DEFAULT), 0;
    return which("nvcc", out, n);
}

/* A tool beside nvcc (cuobjdump, nvdisasm), or on PATH. */
static int find_tool(const char *nvcc, const char *tool, char *out, size_t n)
{
    snprintf(out, n, "%.*s/%s", (int)(strrchr(nvcc, '/') ? strrchr(nvcc, '/') - nvcc : 1), nvcc, tool);
    if (exists_exe(out))
        return 0;
    return which(tool, out, n);
}

/* Prints the lines of text that contain any of the needles, indented. */
static int grep_print(const char *text, const char *const *needles, int max)
{
    int shown = 0;
    const char *p = text;
    while (*p && shown < max) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        for (const char *const *nd = needles; *nd; nd++) {
            char line[512];
            snprintf(line, sizeof line, "%.*s", (int)(len < 511 ? len : 511), p);
            if (strstr(line, *nd)) {
                char *s = line;
                while (*s == ' ' || *s == '\t')
                    s++;
                printf("      %s\n", s);
                shown++;
                break;
            }
        }
        p += len + (e ? 1 : 0);
    }
    return shown;
}

/* ---- the fatbinary container, read here ------------------------------------
 * A header (magic 0xBA55ED50, version, header size, size of what follows),
 * then entries of a 64- or 80-byte header and a payload: kind at 0 (1 = PTX,
 * 2 = ELF cubin), header size at 4, payload size at 8, the architecture at 28
 * (90 = sm_90), flags at 40 (0x8000: payload compressed) and the
 * uncompressed size at 56. Layout read off nvcc 13's output; there is no
 * public spec (cuobjdump -lelf -lptx lists the same). */
typedef struct fatbin_entry {
    int kind;
    unsigned arch;
    uint64_t size;         /* bytes stored */
    int compressed;
    uint64_t uncompressed; /* when compressed */
} fatbin_entry;

static int fatbin_list(const char *path, fatbin_entry *out, int max)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    unsigned char *b = malloc((size_t)n);
    int count = -1;
    if (!b || fread(b, 1, (size_t)n, f) != (size_t)n)
        goto done;
    uint32_t magic;
    memcpy(&magic, b, 4);
    if (magic != 0xBA55ED50u)
        goto done;
    uint16_t hsize;
    uint64_t fsize;
    memcpy(&hsize, b + 6, 2);
    memcpy(&fsize, b + 8, 8);
    size_t off = hsize, end = (size_t)hsize + (size_t)fsize;
    if (end > (size_t)n)
        goto done;
    count = 0;
    while (off + 64 <= end && count < max) {
        uint16_t kind;
        uint32_t ehs, arch, flags_lo;
        uint64_t size, usize = 0;
        memcpy(&kind, b + off, 2);
        memcpy(&ehs, b + off + 4, 4);
        memcpy(&size, b + off + 8, 8);
        memcpy(&arch, b + off + 28, 4);
        memcpy(&flags_lo, b + off + 40, 4);
        memcpy(&usize, b + off + 56, 8);
        if (ehs < 64 || off + ehs + size > end)
            break;
        out[count].kind = kind;
        out[count].arch = arch;
        out[count].size = size;
        out[count].compressed = (flags_lo & 0x8000) != 0;
        out[count].uncompressed = usize;
        count++;
        off += ehs + size;
    }
done:
    free(b);
    fclose(f);
    return count;
}

/* ---- the driver, opened at run time (lesson 1 needs no CUDA build) ------- */
typedef int (*cu_fn)();
static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void *slurp(const char *path, size_t *n, int nul)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    rewind(f);
    char *b = malloc((size_t)len + 1);
    if (b && fread(b, 1, (size_t)len, f) == (size_t)len) {
        if (nul)
            b[len] = 0;
        *n = (size_t)len;
    } else {
        free(b);
        b = NULL;
    }
    fclose(f);
    return b;
}

/* Times cuModuleLoadData on the PTX twice (JIT, then the driver's cache) and
 * on the sm_90 cubin. Returns 0, -2 when there is no driver or device, or -1
 * with the reason in why. */
static int time_loads(const char *ptx, const char *cubin, double ms[3], char *why, size_t n)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW);
    if (!lib) {
        snprintf(why, n, "no CUDA driver (libcuda.so.1 not found): --mode cuda needs an NVIDIA GPU and its driver; "
                         "--mode sim shows everything else");
        return -2;
    }
    int (*cuInit)(unsigned) = (int (*)(unsigned))dlsym(lib, "cuInit");
    int (*cuDeviceGet)(int *, int) = (int (*)(int *, int))dlsym(lib, "cuDeviceGet");
    int (*cuRetain)(void **, int) = (int (*)(void **, int))dlsym(lib, "cuDevicePrimaryCtxRetain");
    int (*cuSetCurrent)(void *) = (int (*)(void *))dlsym(lib, "cuCtxSetCurrent");
    int (*cuLoad)(void **, const void *) = (int (*)(void **, const void *))dlsym(lib, "cuModuleLoadData");
    int (*cuUnload)(void *) = (int (*)(void *))dlsym(lib, "cuModuleUnload");
    int dev = 0, r = -1;
    void *ctx, *mod;
    if (!cuInit || !cuLoad || (r = cuInit(0)) || (r = cuDeviceGet(&dev, 0)) || (r = cuRetain(&ctx, dev)) ||
        (r = cuSetCurrent(ctx))) {
        snprintf(why, n, "the CUDA driver has no usable device (cuInit/cuDeviceGet failed with CUresult %d)", r);
        return -2;
    }
    size_t np, nc;
    char *p = slurp(ptx, &np, 1), *c = slurp(cubin, &nc, 0);
    if (!p || !c) {
        snprintf(why, n, "cannot read the compiled products (%s)", p ? cubin : ptx);
        free(p);
        free(c);
        return -1;
    }
    for (int i = 0; i < 3; i++) {
        double t0 = now_ms();
        r = cuLoad(&mod, i < 2 ? (const void *)p : (const void *)c);
        ms[i] = now_ms() - t0;
        if (r) {
            snprintf(why, n, "cuModuleLoadData failed with CUresult %d", r);
            free(p);
            free(c);
            return -1;
        }
        cuUnload(mod);
    }
    free(p);
    free(c);
    return 0;
}

int lesson01_main(int argc, char **argv)
{
    lesson_common c = {.mode = "sim"};
    const char *src = SIMTLAB_SOURCE_DIR "/lessons/02_scale/scale.cu";
    const lesson_opt opts[] = {
        {"source", OPT_STR, &src, "FILE.cu", "kernel file to compile (default lesson 2's scale.cu)", 0, 0, NULL},
        LESSON_COMMON_OPTS(c),
        {0},
    };
    char err[512];
    if (cli_parse(argc, argv, 1, opts, err, sizeof err))
        return lesson_usage_error("lesson 1", opts, err);
    if (c.help) {
        cli_usage(stdout, "lesson 1", opts, 1);
        return LESSON_PASS;
    }
    if (c.arch && !sim_device_find(c.arch)) { /* lesson 1 compiles for sm_80, sm_89 and sm_90 whatever --arch says */
        snprintf(err, sizeof err, "--arch '%s': unknown device; choose sm_80 (A100), sm_89 (RTX 4090), sm_90 (H100) or h200",
                 c.arch);
        return lesson_usage_error("lesson 1", opts, err);
    }
    if (!strcmp(c.mode, "compare"))
        return lesson_usage_error("lesson 1", opts, "--mode compare: lesson 1 has no simulator side; use sim or cuda");
    if (c.detail) /* accepted by every lesson's parser; lesson 1 runs no kernel to count */
        return lesson_usage_error("lesson 1", opts,
                                  "--detail: lesson 1 compiles and runs no kernel, so it has no counters to detail; "
                                  "lessons 2-7 take --detail");
    char nvcc[512], cuobjdump[600], tmp[] = "/tmp/simtlab-lesson1-XXXXXX";
    if (find_nvcc(nvcc, sizeof nvcc)) {
        fprintf(stderr, "lesson 1: needs nvcc, the CUDA Toolkit's compiler, and found none (not $SIMTLAB_NVCC, not "
                        "%s, not on PATH). Install the CUDA Toolkit (NVIDIA's installer, or apt-get install "
                        "nvidia-cuda-toolkit) or set SIMTLAB_NVCC=/path/to/nvcc\n",
                SIMTLAB_NVCC_DEFAULT);
        return LESSON_USAGE;
    }
    int bad_char = unsafe_path_char(src);
    if (bad_char) {
        snprintf(err, sizeof err,
                 "--source '%s': the path holds the character '%c' (0x%02x); nvcc runs its stages through a shell with "
                 "the file name pasted in, so only letters, digits and ._/+,=@%%:- are accepted: copy or rename the "
                 "file",
                 src, bad_char >= 0x20 && bad_char < 0x7f ? bad_char : '?', bad_char);
        return lesson_usage_error("lesson 1", opts, err);
    }
    struct stat st_src;
    if (access(src, R_OK) || stat(src, &st_src) || !S_ISREG(st_src.st_mode)) {
        snprintf(err, sizeof err, "--source %s: cannot read it as a file (%s)", src,
                 access(src, R_OK) ? strerror(errno) : "not a regular file");
        return lesson_usage_error("lesson 1", opts, err);
    }
    if (!mkdtemp(tmp)) {
        fprintf(stderr, "lesson 1: cannot make a temporary directory\n");
        return LESSON_FAIL;
    }
    static char out[1 << 20];
    char ptx[700], fatbin[700];
    const char *inc1 = "-I" SIMTLAB_SOURCE_DIR "/sim", *inc2 = "-I" SIMTLAB_SOURCE_DIR "/lessons/02_scale";
    int pass = 1;
    int json_mode = c.json;
    if (!json_mode) {
        const char *ver[] = {nvcc, "--version", NULL};
        run(ver, out, sizeof out);
        size_t len = strlen(out); /* its last line */
        while (len && out[len - 1] == '\n')
            out[--len] = 0;
        const char *last = strrchr(out, '\n');
        printf("lesson 1: the compile chain .cu -> PTX -> SASS (cubin) -> fatbinary\n  %s  %s\n", nvcc,
               last ? last + 1 : out);
        printf("  source: %s\n", src);
    }

    /* 1. PTX: the virtual instruction set, compiled for compute_90 */
    snprintf(ptx, sizeof ptx, "%s/kernel.ptx", tmp);
    const char *ptx_argv[] = {nvcc, "-ptx", "-arch=compute_90", inc1, inc2, src, "-o", ptx, NULL};
    int rc_ptx = run(ptx_argv, out, sizeof out);
    size_t nptx = 0;
    char *ptx_text = rc_ptx ? NULL : slurp(ptx, &nptx, 1);
    int has_ld = ptx_text && strstr(ptx_text, "ld.global"), has_st = ptx_text && strstr(ptx_text, "st.global");
    pass &= !rc_ptx && has_ld && has_st;
    if (!json_mode) {
        if (rc_ptx)
            printf("\n  1. nvcc -ptx -arch=compute_90: FAILED\n");
        else
            printf("\n  1. nvcc -ptx -arch=compute_90: ok, %ld bytes of PTX text\n", file_size(ptx));
        if (rc_ptx)
            printf("%s", out);
        else {
            printf("     its global loads and stores (LESSON: the bounds guard is the setp/@%%p branch):\n");
            const char *nd[] = {"ld.global", "st.global", "setp.", NULL};
            grep_print(ptx_text, nd, 12);
        }
    }

    if (rc_ptx) { /* the source does not compile: every later step would fail the same way */
        if (json_mode)
            fprintf(stderr, "%s", out);
        fprintf(stderr,
                "lesson 1: %s does not compile with nvcc (its errors above): fix it, or leave --source out for "
                "lesson 2's scale.cu\n",
                src);
        nftw(tmp, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
        free(ptx_text);
        return LESSON_USAGE;
    }

    /* 2. cubin per architecture, with ptxas's resource report */
    long cubin_size[3] = {0};
    char regs[3][256];
    for (int i = 0; i < 3; i++) {
        char cubin[700];
        snprintf(cubin, sizeof cubin, "%s/kernel_sm_%s.cubin", tmp, archs[i]);
        char arch[16];
        snprintf(arch, sizeof arch, "-arch=sm_%s", archs[i]);
        const char *cubin_argv[] = {nvcc, "-cubin", arch, "-Xptxas", "-v", inc1, inc2, src, "-o", cubin, NULL};
        int rc = run(cubin_argv, out, sizeof out);
        pass &= !rc;
        cubin_size[i] = rc ? -1 : file_size(cubin);
        regs[i][0] = 0;
        char *u = strstr(out, "Used ");
        if (u)
            snprintf(regs[i], sizeof regs[i], "%.*s", (int)strcspn(u, "\n"), u);
    }
    if (!json_mode) {
        printf("\n  2. nvcc -cubin -arch=sm_XX: real machine code (SASS) for one architecture each\n");
        for (int i = 0; i < 3; i++)
            printf("     sm_%s: %ld bytes; ptxas: %s\n", archs[i], cubin_size[i], regs[i][0] ? regs[i] : "(no report)");
    }

    /* 3. SASS, when a disassembler is there */
    int have_sass = !find_tool(nvcc, "cuobjdump", cuobjdump, sizeof cuobjdump);
    if (!json_mode) {
        printf("\n  3. SASS of sm_90 (cuobjdump -sass):\n");
        if (have_sass) {
            char cubin90[700];
            snprintf(cubin90, sizeof cubin90, "%s/kernel_sm_90.cubin", tmp);
            const char *sass_argv[] = {cuobjdump, "-sass", cubin90, NULL};
            if (run(sass_argv, out, sizeof out) == 0) {
                const char *nd[] = {"LDG", "STG", "ISETP", NULL};
                grep_print(out, nd, 12);
            } else {
                printf("     cuobjdump failed:\n%s", out);
            }
        } else {
            printf("     cuobjdump not found beside nvcc or on PATH: SASS not shown (it comes with the full CUDA "
                   "Toolkit, package cuda-cuobjdump). The cubins above are that SASS.\n");
        }
    }

    /* 4. a fatbinary holding SASS for three architectures and PTX for the future */
    snprintf(fatbin, sizeof fatbin, "%s/kernel.fatbin", tmp);
    const char *fat_argv[] = {nvcc, "-fatbin", "-gencode", "arch=compute_80,code=sm_80", "-gencode",
                              "arch=compute_89,code=sm_89", "-gencode", "arch=compute_90,code=[sm_90,compute_90]",
                              inc1, inc2, src, "-o", fatbin, NULL};
    int rc_fat = run(fat_argv, out, sizeof out);
    fatbin_entry ent[16];
    int ne = rc_fat ? -1 : fatbin_list(fatbin, ent, 16);
    pass &= !rc_fat && ne > 0;
    if (!json_mode) {
        printf("\n  4. nvcc -fatbin (sm_80, sm_89, sm_90 SASS + compute_90 PTX): %ld bytes, %d entries:\n",
               file_size(fatbin), ne);
        for (int i = 0; i < ne; i++) {
            char extra[64] = "";
            if (ent[i].compressed)
                snprintf(extra, sizeof extra, " (compressed; %llu bytes unpacked)",
                         (unsigned long long)ent[i].uncompressed);
            printf("     %-5s %s_%u, %llu bytes%s\n", ent[i].kind == 1 ? "PTX" : ent[i].kind == 2 ? "SASS" : "?",
                   ent[i].kind == 1 ? "compute" : "sm", ent[i].arch, (unsigned long long)ent[i].size, extra);
        }
        printf("     LESSON: at load the driver takes the SASS built for the GPU's exact architecture; for a newer\n"
               "     GPU with none, it JIT-compiles the PTX (slow the first time, then cached on disk).\n");
    }

    /* 5. with a GPU: JIT from PTX against loading the cubin */
    double ms[3] = {0};
    char why[1024] = "";
    int timed = 0, no_gpu = 0;
    if (!strcmp(c.mode, "cuda")) {
        char cache[700];
        snprintf(cache, sizeof cache, "%s/jit-cache", tmp);
        setenv("CUDA_CACHE_PATH", cache, 1); /* a cold cache: the first PTX load really compiles */
        char cubin90[700];
        snprintf(cubin90, sizeof cubin90, "%s/kernel_sm_90.cubin", tmp);
        int r = time_loads(ptx, cubin90, ms, why, sizeof why);
        if (r == -2) { /* no driver or no device: this machine cannot run --mode cuda */
            fprintf(stderr, "lesson 1 --mode cuda: %s\n", why);
            no_gpu = 1;
        } else if (r) {
            fprintf(stderr, "lesson 1 --mode cuda: %s\n", why);
            pass = 0;
        } else {
            timed = 1;
        }
        if (!json_mode && timed)
            printf("\n  5. cuModuleLoadData on this GPU: PTX (JIT compile) %.2f ms, PTX again (driver cache) %.2f ms, "
                   "sm_90 cubin %.2f ms\n",
                   ms[0], ms[1], ms[2]);
    }
    if (json_mode) {
        json j;
        json_open(&j, stdout);
        json_int(&j, "lesson", 1);
        json_str(&j, "nvcc", nvcc);
        json_str(&j, "source", src);
        json_obj(&j, "ptx");
        json_bool(&j, "ok", !rc_ptx);
        json_int(&j, "bytes", file_size(ptx));
        json_bool(&j, "ld_global", has_ld != 0);
        json_bool(&j, "st_global", has_st != 0);
        json_end(&j);
        json_arr(&j, "cubins");
        for (int i = 0; i < 3; i++) {
            json_obj(&j, NULL);
            json_str(&j, "arch", archs[i]);
            json_int(&j, "bytes", cubin_size[i]);
            json_str(&j, "ptxas", regs[i]);
            json_end(&j);
        }
        json_end_arr(&j);
        json_arr(&j, "fatbin");
        for (int i = 0; i < ne; i++) {
            json_obj(&j, NULL);
            json_str(&j, "kind", ent[i].kind == 1 ? "ptx" : "sass");
            json_uint(&j, "arch", ent[i].arch);
            json_uint(&j, "bytes", ent[i].size);
            json_end(&j);
        }
        json_end_arr(&j);
        if (no_gpu) { /* exit 2: this machine cannot run --mode cuda */
            json_obj(&j, "gpu");
            json_bool(&j, "available", 0);
            json_str(&j, "reason", why);
            json_end(&j);
        }
        if (timed) {
            json_obj(&j, "load_ms");
            json_num(&j, "ptx_jit", ms[0]);
            json_num(&j, "ptx_cached", ms[1]);
            json_num(&j, "cubin", ms[2]);
            json_end(&j);
        }
        json_bool(&j, "pass", pass && !no_gpu);
        json_close(&j);
    } else if (no_gpu) {
        printf("\nNOT RUN: --mode cuda needs a GPU and this machine has none usable: %s\n"
               "(the compile steps above ran; --mode sim runs them alone and exits 0)\n",
               why);
    } else {
        printf("\n%s\n", pass ? "PASS" : "FAIL");
    }
    nftw(tmp, rm_entry, 16, FTW_DEPTH | FTW_PHYS); /* the temporary directory and what is in it */
    free(ptx_text);
    if (no_gpu)
        return LESSON_USAGE;
    return pass ? LESSON_PASS : LESSON_FAIL;
}
