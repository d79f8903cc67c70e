/* sim/shared_names.c - which __shared__ array a shared-memory address is in, for reports.
 *
 * A race report that says only "the word at 0x7f34ef98a0a0" leaves the student to guess the
 * array. Static __shared__ arrays are the executable's thread-locals (sim/tls.c, launch.c
 * tls_window): the ELF symbol table names them (STT_TLS symbols, their value an offset in the
 * TLS block), and the block's start in the running thread is the address of one of the
 * simulator's own thread-locals less its symbol's value. Dynamic shared memory (extern
 * __shared__) is one range per launch. Read once, on the first report; a stripped executable,
 * or an address no symbol covers, leaves the address alone.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

typedef struct tls_sym {
    uint64_t off, size;
    char *name; /* whole: a long kernel's mangled name cut short no longer parses (survey 21) */
} tls_sym;

static tls_sym *syms;
static size_t n_syms;
static uint64_t worker_off; /* sim_tls_worker's offset in the TLS block */
static int have_worker;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* `s` of a C++ name: a function's local static `_ZZ7reversePfE1s` -> "s" (in reverse), a file's
 * `_ZL4tile` -> "tile"; a C name as it is. fn gets the function ("" if none). */
static void plain_name(const char *m, char *out, size_t n, char *fn, size_t fnn)
{
    fn[0] = 0;
    if (!strncmp(m, "_ZL", 3) || (!strncmp(m, "_Z", 2) && m[2] >= '0' && m[2] <= '9')) {
        const char *p = m + 2 + (m[2] == 'L');
        char *end;
        const long len = strtol(p, &end, 10);
        if (len > 0 && (size_t)len <= strlen(end)) {
            snprintf(out, n, "%.*s", (int)len, end);
            return;
        }
    }
    if (!strncmp(m, "_ZZ", 3)) {
        const char *p = m + 3, *last = NULL;
        size_t last_len = 0;
        const int nested = *p == 'N'; /* a nested name: its last component is the function */
        p += nested;
        while (*p >= '0' && *p <= '9') { /* the function's name (components) */
            char *end;
            const long len = strtol(p, &end, 10);
            if (len <= 0 || (size_t)len > strlen(end))
                break;
            last = end, last_len = (size_t)len;
            p = end + len;
            if (!nested) /* one component; what follows is the parameters (`8CSRGraph`: a class by value) */
                break;
        }
        if (last)
            snprintf(fn, fnn, "%.*s", (int)last_len, last);
        const char *e = strrchr(m, 'E'); /* the entity: E<len><name>, maybe _<discriminator> after it */
        while (e && e > m) {
            char *end;
            const long len = strtol(e + 1, &end, 10);
            if (end != e + 1 && len > 0 && (size_t)len <= strlen(end)) {
                snprintf(out, n, "%.*s", (int)len, end);
                return;
            }
            const char *q = e - 1;
            while (q > m && *q != 'E')
                q--;
            e = *q == 'E' ? q : NULL;
        }
    }
    snprintf(out, n, "%s", m);
    char *dot = strrchr(out, '.'); /* C's function-local static: `tile.0` */
    if (dot && dot[1] >= '0' && dot[1] <= '9' && strspn(dot + 1, "0123456789") == strlen(dot + 1))
        *dot = 0;
}

static int by_off(const void *a, const void *b)
{
    const tls_sym *x = a, *y = b;
    return x->off < y->off ? -1 : x->off > y->off;
}

static void load(void)
{
    const int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    struct stat st;
    void *map = fstat(fd, &st) == 0 && (size_t)st.st_size >= sizeof(Elf64_Ehdr)
                    ? mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)
                    : MAP_FAILED;
    close(fd);
    if (map == MAP_FAILED)
        return;
    const size_t size = (size_t)st.st_size;
    const unsigned char *base = map;
    const Elf64_Ehdr *eh = map;
    if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 || !eh->e_shoff ||
        eh->e_shoff + (size_t)eh->e_shnum * sizeof(Elf64_Shdr) > size)
        goto out;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(base + eh->e_shoff);
    for (unsigned i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum ||
            sh[i].sh_offset + sh[i].sh_size > size)
            continue;
        const Elf64_Shdr *str = &sh[sh[i].sh_link];
        if (str->sh_offset + str->sh_size > size)
            continue;
        const Elf64_Sym *sym = (const Elf64_Sym *)(base + sh[i].sh_offset);
        const size_t n = sh[i].sh_size / sizeof *sym;
        const char *names = (const char *)(base + str->sh_offset);
        size_t cap = 0;
        for (size_t k = 0; k < n; k++) {
            if (ELF64_ST_TYPE(sym[k].st_info) != STT_TLS || sym[k].st_name >= str->sh_size)
                continue;
            const char *nm = names + sym[k].st_name;
            if (!strcmp(nm, "sim_tls_worker")) {
                worker_off = sym[k].st_value;
                have_worker = 1;
            }
            if (!sym[k].st_size)
                continue;
            if (n_syms == cap) {
                cap = cap ? cap * 2 : 64;
                tls_sym *v = realloc(syms, cap * sizeof *v);
                if (!v)
                    goto out;
                syms = v;
            }
            syms[n_syms].off = sym[k].st_value;
            syms[n_syms].size = sym[k].st_size;
            if (!(syms[n_syms].name = strdup(nm)))
                goto out;
            n_syms++;
        }
    }
    if (n_syms)
        qsort(syms, n_syms, sizeof *syms, by_off);
out:
    munmap(map, size);
}

void sim_describe_shared(char *out, size_t n, const sim_worker *w, uintptr_t x)
{
    if (w && x >= w->dyn_lo && x < w->dyn_hi) {
        snprintf(out, n, "0x%llx (extern __shared__ memory, byte %llu of the launch's %llu)", (unsigned long long)x,
                 (unsigned long long)(x - w->dyn_lo), (unsigned long long)(w->dyn_hi - w->dyn_lo));
        return;
    }
    pthread_once(&once, load);
    if (have_worker) {
        const uint64_t off = (uint64_t)(x - ((uintptr_t)&sim_tls_worker - worker_off));
        size_t lo = 0, hi = n_syms; /* the last symbol starting at or before off */
        while (lo < hi) {
            const size_t mid = (lo + hi) / 2;
            if (syms[mid].off <= off)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo && off < syms[lo - 1].off + syms[lo - 1].size) {
            const tls_sym *s = &syms[lo - 1];
            char name[256], fn[256];
            plain_name(s->name, name, sizeof name, fn, sizeof fn);
            snprintf(out, n, "0x%llx (__shared__ '%s'%s%s, byte %llu of its %llu)", (unsigned long long)x, name,
                     fn[0] ? " of " : "", fn, (unsigned long long)(off - s->off), (unsigned long long)s->size);
            return;
        }
    }
    snprintf(out, n, "0x%llx", (unsigned long long)x);
}
