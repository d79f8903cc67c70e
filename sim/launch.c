/* sim/launch.c - grids, blocks, warps and threads on the CPU.
 *
 * The execution model, and the CUDA rule each part follows:
 *  - A launch runs every block to completion before it returns (as if the
 *    host called cudaDeviceSynchronize after each launch).
 *  - Blocks are independent (CUDA guarantees no order between blocks), so
 *    they are handed to OpenMP workers one at a time; all threads of a block
 *    run on one worker, whose thread-local storage is the block's static
 *    __shared__ memory.
 *  - Each CUDA thread runs on a fiber (sim/fiber.c). Threads of a block run
 *    one after another, in threadIdx order, each until it finishes or waits
 *    at a barrier or a warp intrinsic; a thread that finishes leaves its
 *    stack to the next thread without any switch (the barrier-free fast path).
 *  - __syncthreads releases when every thread of the block waits at the same
 *    barrier. Anything else (some threads exited, threads at different
 *    barriers) is barrier divergence, which on a GPU hangs or corrupts; here
 *    it is a report.
 *  - Warps are lanes 0-31, 32-63, ... of the block's linear thread index. A
 *    warp intrinsic is a rendezvous of the lanes its mask names (CUDA 9+
 *    *_sync semantics), not of the whole block.
 * Results never depend on the number of workers; counters never do either.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "internal.h"

#if defined(SIMTLAB_SANITIZE) && defined(__SANITIZE_ADDRESS__)
/* AddressSanitizer must be told of every switch between stacks
 * (__sanitizer_start/finish_switch_fiber), or it takes a fiber's frames for
 * an overflow of the OS thread's stack. Only in the SIMTLAB_SANITIZE build. */
#include <pthread.h>
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#define SIM_ASAN 1
#endif

/* The simulator's own thread-locals are in sim/tls.c (why there: its comment). */
sim_worker sim_idle_worker; /* zero: no window, no launch (sim_tls_fast) */
#define my_worker sim_tls_my_worker
#define stacks_made sim_tls_stacks_made
void sim_access_init_segments(void);

/* ---- errors ---------------------------------------------------------------- */
static char last_error[4096] = "no error";
static sim_status last_status;

static const char *const status_names[SIM_ERR_COUNT] = {
    [SIM_OK] = "cudaSuccess",
    [SIM_ERR_INVALID_VALUE] = "cudaErrorInvalidValue",
    [SIM_ERR_INVALID_CONFIGURATION] = "cudaErrorInvalidConfiguration",
    [SIM_ERR_MEMORY_ALLOCATION] = "cudaErrorMemoryAllocation",
    [SIM_ERR_INVALID_DEVICE_POINTER] = "cudaErrorInvalidDevicePointer",
    [SIM_ERR_ILLEGAL_ADDRESS] = "cudaErrorIllegalAddress",
    [SIM_ERR_MISALIGNED_ADDRESS] = "cudaErrorMisalignedAddress",
    [SIM_ERR_BARRIER_DIVERGENCE] = "simBarrierDivergence",
    [SIM_ERR_WARP_SYNC] = "simWarpSyncMismatch",
    [SIM_ERR_STACK_OVERFLOW] = "cudaErrorLaunchFailure (stack overflow)",
    [SIM_ERR_SHARED_RACE] = "simSharedMemoryRace",
    [SIM_ERR_LAUNCH_ABORTED] = "simLaunchAborted",
    [SIM_ERR_INTEGER_DIVIDE] = "simIntegerDivideByZero",
    [SIM_ERR_LAUNCH_TIMEOUT] = "cudaErrorLaunchTimeout",
    [SIM_ERR_ASSERT] = "cudaErrorAssert",
    [SIM_ERR_TRAP] = "cudaErrorLaunchFailure (trap)",
};

const char *sim_status_name(sim_status s)
{
    return (unsigned)s < SIM_ERR_COUNT && status_names[s] ? status_names[s] : "unknown status";
}
const char *sim_last_error(void) { return last_error; }
sim_status sim_get_last_status(void)
{
    sim_status s = last_status;
    last_status = SIM_OK;
    return s;
}

void sim_set_error(sim_status s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = snprintf(last_error, sizeof last_error, "%s: ", sim_status_name(s));
    vsnprintf(last_error + n, sizeof last_error - (size_t)n, fmt, ap);
    va_end(ap);
    last_status = s;
}

/* ---- device presets ----------------------------------------------------------
 * The time model's ceilings (last field): h200's measured on the chip on
 * 2026-12-03 (scripts/gpu/ceilings.cu, docs/gpu/l2-run3/ceilings.txt: a 2 GiB
 * copy 3.951 TB/s, L2-resident reads 21.41 TB/s, shared memory 33.27 TB/s,
 * FMAs 55.41 TFLOP/s; launch: the shortest lesson kernel's
 * gpu__time_duration, 2.05 us). The others scale the H200's measured
 * fractions of its datasheet (DRAM 0.823, FP32 0.827, shared 0.995 of 128 B a
 * clock an SM) to their datasheets; L2 scales with DRAM bandwidth. The L2's
 * background writes, 18.7 MB/s, and its background reads, up to 350 KB with a
 * time constant of 32 ms, were measured on the H200 (sim/l2.c) and are
 * assumed for the others. The L2's request costs (sim/timemodel.c) were measured on an H100
 * and an H200 (session 30: the H200's 0.85 of the H100's, docs/gpu/s30-h200-l2req). */
static const sim_device presets[] = {
    {"sm_80", "A100 SXM 40GB", 8, 0, 108, 48 << 10, 163 << 10, 40u << 20, 1.555e12, 19.5e12, 1024, {1024, 1024, 64}, {2147483647u, 65535, 65535}, 164 << 10, 2048, 32,
     {1.28e12, 6.94e12, 1.94e13, 1.613e13, 2.0e-6, 18.7e6, 350e3, 0.032, 0, 2.141e13 / 6.94e12}},
    {"sm_89", "RTX 4090", 8, 9, 128, 48 << 10, 99 << 10, 72u << 20, 1.008e12, 82.6e12, 1024, {1024, 1024, 64}, {2147483647u, 65535, 65535}, 100 << 10, 1536, 24,
     {8.30e11, 4.49e12, 4.11e13, 6.83e13, 2.0e-6, 18.7e6, 350e3, 0.032, 0, 2.141e13 / 4.49e12}},
    {"sm_90", "H100 SXM", 9, 0, 132, 48 << 10, 227 << 10, 50u << 20, 3.35e12, 67e12, 1024, {1024, 1024, 64}, {2147483647u, 65535, 65535}, 228 << 10, 2048, 32,
     {2.757e12, 2.141e13, 3.327e13, 5.541e13, 2.0e-6, 18.7e6, 350e3, 0.032, 0, 1.0}},
    {"h200", "H200 SXM", 9, 0, 132, 48 << 10, 227 << 10, 60u << 20, 4.8e12, 67e12, 1024, {1024, 1024, 64}, {2147483647u, 65535, 65535}, 228 << 10, 2048, 32,
     {3.951e12, 2.141e13, 3.327e13, 5.541e13, 2.0e-6, 18.7e6, 350e3, 0.032, 1, 0.85}},
};
static const sim_device *const preset_list[] = {&presets[0], &presets[1], &presets[2], &presets[3], NULL};
static const sim_device *cur_device = &presets[2];
static size_t max_dynamic_shared = 48 << 10;
static int detailed_mode;

const sim_device *sim_device_find(const char *name)
{
    static const struct { const char *alias; int i; } aliases[] = {
        {"sm_80", 0}, {"80", 0}, {"a100", 0}, {"sm_89", 1}, {"89", 1}, {"4090", 1}, {"rtx4090", 1},
        {"sm_90", 2}, {"90", 2}, {"h100", 2}, {"h200", 3},
    };
    if (!name)
        return NULL;
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (!strcasecmp(name, aliases[i].alias))
            return &presets[aliases[i].i];
    return NULL;
}
const sim_device *const *sim_device_list(void) { return preset_list; }
void sim_set_device(const sim_device *dev)
{
    if (dev)
        cur_device = dev;
    if (max_dynamic_shared > cur_device->shared_per_block_optin)
        max_dynamic_shared = cur_device->shared_per_block_optin;
}
const sim_device *sim_get_device(void) { return cur_device; }
void sim_set_detailed(int on) { detailed_mode = on != 0; }
int sim_detail_log_on = 1;
void sim_set_detail_log(int on) { sim_detail_log_on = on != 0; }
static int line_profile;
static sim_pc_stat *pc_all;
static uint32_t pc_all_n, pc_all_cap;
void sim_set_line_profile(int on) { line_profile = on != 0; }
size_t sim_last_pc_stats(const sim_pc_stat **stats)
{
    *stats = pc_all;
    return pc_all_n;
}
int sim_get_detailed(void) { return detailed_mode; }
uintptr_t sim_params_lo, sim_params_hi; /* sim_set_launch_params; read by access.c's slow path */
void sim_set_launch_params(const void *p, size_t n)
{
    sim_params_lo = (uintptr_t)p;
    sim_params_hi = (uintptr_t)p + n;
}
int sim_in_cuda_thread(void)
{
    const sim_worker *w = sim_tls_worker;
    return w && w->cur;
}

sim_status sim_set_max_dynamic_shared(size_t bytes)
{
    if (bytes > cur_device->shared_per_block_optin) {
        sim_set_error(SIM_ERR_INVALID_VALUE,
                      "cudaFuncSetAttribute(MaxDynamicSharedMemorySize, %zu): %s allows at most %zu bytes "
                      "(%zu KB) of shared memory per block",
                      bytes, cur_device->name, cur_device->shared_per_block_optin,
                      cur_device->shared_per_block_optin >> 10);
        return SIM_ERR_INVALID_VALUE;
    }
    max_dynamic_shared = bytes < cur_device->shared_per_block ? cur_device->shared_per_block : bytes;
    return SIM_OK;
}

size_t sim_get_max_dynamic_shared(void)
{
    return max_dynamic_shared ? max_dynamic_shared : cur_device->shared_per_block;
}

/* ---- settings from the environment ------------------------------------------- */
static long env_stack_kb = 64;  /* SIMTLAB_STACK_KB: KiB of stack per CUDA thread */
static long env_timeout_s = 120; /* SIMTLAB_TIMEOUT: seconds per launch, 0 = no watchdog */
static long sample_on = 1;        /* SIMTLAB_SAMPLE, else sim_set_sample: counting mode samples bank conflicts */
static int sample_api = 1;        /* sim_set_sample */
void sim_set_sample(int on) { sample_api = on != 0; }
static size_t api_stack_bytes;    /* sim_set_stack_limit */
int sim_set_stack_limit(size_t bytes)
{
    if (bytes > SIM_STACK_MAX) {
        sim_set_error(SIM_ERR_INVALID_VALUE,
                      "a stack of %zu bytes per CUDA thread is more than the simulator's %zu (64 MiB): ask for less",
                      bytes, SIM_STACK_MAX);
        return SIM_ERR_INVALID_VALUE;
    }
    api_stack_bytes = bytes;
    return 0;
}
/* The stack a launch's threads get: the larger of SIMTLAB_STACK_KB and
 * sim_set_stack_limit's, in whole pages */
static size_t stack_bytes_wanted(void)
{
    const size_t env = (size_t)env_stack_kb << 10, api = (api_stack_bytes + 4095) & ~(size_t)4095;
    return env > api ? env : api;
}

/* Reads a whole number from the environment; -1 (with the error set) when it
 * is set to anything but a number in [lo, hi]. */
static int env_long(const char *name, long lo, long hi, long dflt, const char *what, long *out)
{
    const char *v = getenv(name);
    *out = dflt;
    if (!v || !*v)
        return 0;
    char *end;
    errno = 0;
    long k = strtol(v, &end, 10);
    if (end == v || *end || errno || k < lo || k > hi || v[0] == ' ' || v[0] == '+') {
        sim_set_error(SIM_ERR_INVALID_VALUE, "%s='%.40s' is not valid: it must be a whole number from %ld to %ld (%s); "
                      "unset it for the default, %ld", name, v, lo, hi, what, dflt);
        return -1;
    }
    *out = k;
    return 0;
}

static int env_settings(void)
{
    long cold = 1;
    const char *cv = getenv("SIMTLAB_L2_COLD"); /* applied only when set: sim_l2_set_cold stays in force else */
    int bad = env_long("SIMTLAB_STACK_KB", 8, 65536, 64, "KiB of stack per CUDA thread, read at each launch",
                       &env_stack_kb) ||
              env_long("SIMTLAB_TIMEOUT", 0, 86400 * 7, 120, "seconds a launch may run; 0 turns the watchdog off",
                       &env_timeout_s) ||
              env_long("SIMTLAB_SAMPLE", 0, 1, sample_api,
                       "1: counting mode samples the shared-memory bank conflicts of a grid's first and last blocks for the "
                       "time model (the default unless the program turned it off); 0: no "
                       "sample", &sample_on) ||
              env_long("SIMTLAB_L2_COLD", 0, 1, 1,
                       "1: every launch starts on an empty L2, as Nsight Compute measures one kernel; 0: the L2 "
                       "lives through the program", &cold);
    if (!bad && cv && *cv)
        sim_l2_set_cold((int)cold);
    return bad;
}

/* ---- the watchdog ----------------------------------------------------------------
 * One thread, started by the first launch with a timeout, sleeps until the
 * running launch's deadline; past it, it signals (SIGURG) every worker of the
 * launch every 100 ms until the launch ends. A worker's handler marks it
 * timed out and stops the running CUDA thread at once when it is in kernel
 * code (an endless loop); elsewhere the next simulator call that is safe to
 * leave from stops it (an instrumented access, a spin yield, the scheduler). */
#define SIM_MAX_WORKERS 512
#define SIM_WD_SIGNAL SIGURG
static pthread_mutex_t wd_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wd_cv = PTHREAD_COND_INITIALIZER;
static int wd_started, wd_armed;
static struct timespec wd_deadline;
static _Atomic int wd_fired;
static struct sigaction old_wd; /* kept: the program's own SIGURG handler is replaced */
static sim_worker *wd_workers[SIM_MAX_WORKERS];
static int wd_n;

static void *wd_main(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&wd_mu);
    for (;;) {
        if (!wd_armed) {
            pthread_cond_wait(&wd_cv, &wd_mu);
            continue;
        }
        struct timespec dl = wd_deadline;
        if (pthread_cond_timedwait(&wd_cv, &wd_mu, &dl) != ETIMEDOUT || !wd_armed)
            continue; /* re-armed, disarmed or a spurious wake-up: look again */
        atomic_store(&wd_fired, 1);
        for (int i = 0; i < wd_n; i++)
            if (wd_workers[i]->in_launch)
                pthread_kill((pthread_t)wd_workers[i]->os_thread, SIM_WD_SIGNAL);
        clock_gettime(CLOCK_MONOTONIC, &wd_deadline);
        wd_deadline.tv_nsec += 100 * 1000 * 1000;
        if (wd_deadline.tv_nsec >= 1000000000) {
            wd_deadline.tv_sec++;
            wd_deadline.tv_nsec -= 1000000000;
        }
    }
    return NULL;
}

static void on_watchdog(int sig, siginfo_t *si, void *uc);

/* ---- Ctrl-C during a launch ----------------------------------------------------------
 * SIGINT or SIGTERM while a launch runs (with the watchdog on) stops it as the watchdog would,
 * at once: the launch returns SIM_ERR_LAUNCH_TIMEOUT with where its threads were, and
 * sim_interrupted() says which signal, so that the program's runtime can print what it has and
 * exit (sim/run/cudart.c). A student cannot tell a slow kernel from a hung one otherwise (survey
 * 12: a run killed by `timeout` printed nothing). A second signal does what it would have done.
 * The program's own handlers are set aside during a launch and put back after it.
 *
 * ---- and in host code (sim_interrupt_hook) ----
 * simtlab run's runtime asks, at its first call, for the same between launches: there the first
 * signal wakes a thread of the simulator's own (intr_main), which calls the runtime's stop (the
 * summary of the launches so far, then the exit) as ordinary code: a handler may not print or
 * allocate (the program may be inside malloc or printf). Meanwhile the interrupted thread waits in
 * the handler (nanosleep, for at most INTR_WAIT_MS), so that its code does not go on past the
 * signal (a sleep cut short, the next printf), unless may_wait() says it holds what stop needs (a
 * runtime call's lock): then it goes on and stop waits for that call to end. A signal the program
 * already handles or ignores when the hook comes is left to it; one it handles later is its own
 * (sigaction replaces ours) outside launches. During a launch without the watchdog
 * (SIMTLAB_TIMEOUT=0) the signal does what it would have done without simtlab. */
#define INTR_WAIT_MS 2000
static _Atomic int wd_interrupt; /* the signal that stopped the running launch (or came in host code), or 0 */
static struct sigaction old_int, old_term; /* what wd_arm found: wd_disarm puts it back */
static struct timespec wd_interrupt_at;
static _Atomic int launch_phase; /* 1: a launch with the watchdog (wd_arm .. wd_disarm); 2: one without; 0: none */
static _Atomic unsigned intr_hooked; /* bit sig: on_interrupt holds sig between launches (sim_interrupt_hook) */
static void (*intr_stop)(int sig);
static int (*intr_may_wait)(void);
static sem_t intr_sem;
static struct sigaction intr_dfl; /* SIG_DFL: what a hooked signal did before the hook */
static void on_interrupt(int sig);

/* What the signal would have done without simtlab: during a launch, what wd_arm found there (the
 * program's own handler), unless that was ours; a signal the hook took: its default. */
static const struct sigaction *intr_fallback(int sig)
{
    const struct sigaction *found = sig == SIGINT ? &old_int : &old_term;
    if (!(atomic_load(&intr_hooked) & (1u << sig)))
        return found;
    return atomic_load(&launch_phase) == 1 && found->sa_handler != on_interrupt ? found : &intr_dfl;
}

static void on_interrupt(int sig)
{
    const int saved_errno = errno;
    const int phase = atomic_load(&launch_phase);
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now); /* async-signal-safe */
    if (phase == 2) {                     /* a launch without the watchdog: nothing can stop it */
        sigaction(sig, intr_fallback(sig), NULL);
        raise(sig);
    } else if (atomic_exchange(&wd_interrupt, sig)) {
        /* the same signal again within a second is the same request (`timeout` signals the whole
         * process group, and simtlab-run passes SIGTERM on as well); a later one ends the program */
        if ((now.tv_sec - wd_interrupt_at.tv_sec) * 1000000000L + (now.tv_nsec - wd_interrupt_at.tv_nsec) >=
            1000000000L) {
            sigaction(sig, intr_fallback(sig), NULL);
            raise(sig);
        }
    } else {
        wd_interrupt_at = now;
        if (phase == 1 || !intr_stop) {
            atomic_store(&wd_fired, 1);
            for (int i = 0; i < wd_n; i++) /* as the watchdog thread does (pthread_kill: a tgkill) */
                if (wd_workers[i]->in_launch)
                    pthread_kill((pthread_t)wd_workers[i]->os_thread, SIM_WD_SIGNAL);
        } else { /* host code: intr_main ends the program; this thread stops here meanwhile */
            sem_post(&intr_sem);
            if (!intr_may_wait || intr_may_wait())
                for (int ms = 0; ms < INTR_WAIT_MS; ms++)
                    nanosleep(&(struct timespec){0, 1000000}, NULL);
        }
    }
    errno = saved_errno;
}
int sim_interrupted(void) { return atomic_load(&wd_interrupt); }

static void *intr_main(void *arg)
{
    (void)arg;
    while (sem_wait(&intr_sem)) /* EINTR: none come here (every signal blocked), but the call allows it */
        ;
    intr_stop(atomic_load(&wd_interrupt));
    return NULL;
}
/* A child of fork() has no intr_main: its signals go back to what they did before the hook. */
static void intr_atfork_child(void)
{
    const unsigned hooked = atomic_exchange(&intr_hooked, 0);
    const int sigs[2] = {SIGINT, SIGTERM};
    for (int i = 0; i < 2; i++) {
        struct sigaction cur;
        if ((hooked & (1u << sigs[i])) && !sigaction(sigs[i], NULL, &cur) && cur.sa_handler == on_interrupt)
            sigaction(sigs[i], &intr_dfl, NULL);
    }
    intr_stop = NULL;
}

/* Starts fn on a detached thread that takes no signals (the watchdog, intr_main): 0 or an errno. */
static int start_signalless(void *(*fn)(void *))
{
    pthread_t th;
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    const int rc = pthread_create(&th, &at, fn, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&at);
    return rc;
}

sim_status sim_interrupt_hook(void (*stop)(int sig), int (*may_wait)(void))
{
    if (!stop) {
        sim_set_error(SIM_ERR_INVALID_VALUE, "sim_interrupt_hook: stop is NULL");
        return SIM_ERR_INVALID_VALUE;
    }
    pthread_mutex_lock(&wd_mu); /* wd_arm and wd_disarm change the same dispositions */
    if (intr_stop) {
        pthread_mutex_unlock(&wd_mu);
        return SIM_OK;
    }
    if (sem_init(&intr_sem, 0, 0)) {
        pthread_mutex_unlock(&wd_mu);
        sim_set_error(SIM_ERR_MEMORY_ALLOCATION, "cannot set up the interrupt handler (sem_init: %s)", strerror(errno));
        return SIM_ERR_MEMORY_ALLOCATION;
    }
    const int rc = start_signalless(intr_main);
    if (rc) {
        sem_destroy(&intr_sem);
        pthread_mutex_unlock(&wd_mu);
        sim_set_error(SIM_ERR_MEMORY_ALLOCATION, "cannot start the interrupt thread (%s)", strerror(rc));
        return SIM_ERR_MEMORY_ALLOCATION;
    }
    intr_may_wait = may_wait;
    intr_stop = stop; /* before the handler is installed: it reads it */
    static int atfork_done;
    if (!atfork_done++)
        pthread_atfork(NULL, NULL, intr_atfork_child);
    memset(&intr_dfl, 0, sizeof intr_dfl);
    intr_dfl.sa_handler = SIG_DFL;
    sigemptyset(&intr_dfl.sa_mask);
    struct sigaction si;
    memset(&si, 0, sizeof si);
    si.sa_handler = on_interrupt;
    si.sa_flags = SA_RESTART;
    sigemptyset(&si.sa_mask);
    const int sigs[2] = {SIGINT, SIGTERM};
    for (int i = 0; i < 2; i++) {
        struct sigaction cur;
        if (sigaction(sigs[i], NULL, &cur) || (cur.sa_flags & SA_SIGINFO) || cur.sa_handler != SIG_DFL)
            continue; /* the program's own handler, or SIG_IGN: left to it */
        atomic_fetch_or(&intr_hooked, 1u << sigs[i]);
        sigaction(sigs[i], &si, NULL);
    }
    pthread_mutex_unlock(&wd_mu);
    return SIM_OK;
}

/* Arms the watchdog for a launch; 0, or -1 when its thread cannot start. */
static int wd_arm(long seconds)
{
    static pthread_condattr_t ca;
    pthread_mutex_lock(&wd_mu);
    if (!wd_started) {
        pthread_condattr_init(&ca);
        pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
        pthread_cond_destroy(&wd_cv);
        pthread_cond_init(&wd_cv, &ca);
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_watchdog;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART | SA_NODEFER; /* it may leave by a switch */
        sigemptyset(&sa.sa_mask);
        sigaction(SIM_WD_SIGNAL, &sa, &old_wd);
        const int rc = start_signalless(wd_main); /* the watchdog takes no signals of its own */
        if (rc) {
            pthread_mutex_unlock(&wd_mu);
            sim_set_error(SIM_ERR_MEMORY_ALLOCATION, "cannot start the launch watchdog thread (%s); set "
                          "SIMTLAB_TIMEOUT=0 to run without it", strerror(rc));
            return -1;
        }
        wd_started = 1;
    }
    atomic_store(&launch_phase, 1);
    /* a signal that came in host code just before (the runtime's stop is waiting for this launch's
     * call to end) stops it at its first block */
    atomic_store(&wd_fired, atomic_load(&wd_interrupt) != 0);
    struct sigaction si;
    memset(&si, 0, sizeof si);
    si.sa_handler = on_interrupt;
    si.sa_flags = SA_RESTART;
    sigemptyset(&si.sa_mask);
    sigaction(SIGINT, &si, &old_int);
    sigaction(SIGTERM, &si, &old_term);
    clock_gettime(CLOCK_MONOTONIC, &wd_deadline);
    wd_deadline.tv_sec += seconds;
    wd_armed = 1;
    pthread_cond_signal(&wd_cv);
    pthread_mutex_unlock(&wd_mu);
    return 0;
}

static void wd_disarm(void)
{
    pthread_mutex_lock(&wd_mu);
    wd_armed = 0;
    if (!atomic_load(&wd_interrupt)) { /* once interrupted, a second signal still does what it would */
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGTERM, &old_term, NULL);
    }
    atomic_store(&launch_phase, 0);
    pthread_mutex_unlock(&wd_mu);
}

/* ---- workers ------------------------------------------------------------------ */
#define SIM_GUARD_BYTES (64u << 10)
#define SIM_COLOR_SPAN (64u << 10) /* stack_take: room for cache colouring */
static size_t tls_memsz, tls_align;
static struct sigaction old_segv, old_bus, old_fpe;

static int find_tls(struct dl_phdr_info *info, size_t sz, void *arg)
{
    (void)sz;
    (void)arg;
    for (int i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_TLS) {
            tls_memsz = info->dlpi_phdr[i].p_memsz;
            tls_align = info->dlpi_phdr[i].p_align ? info->dlpi_phdr[i].p_align : 1;
        }
    return 1; /* the executable only */
}

char *simtlab_tls_dev_end_addr(void) __attribute__((weak)); /* sim/tls_dev_end.c: simtlab run links it */

/* The executable's static TLS block on this OS thread: where every
 * __shared__ variable of every kernel lives for the blocks it runs. */
static int tls_window(uintptr_t *lo, uintptr_t *hi)
{
    uintptr_t tp = (uintptr_t)__builtin_thread_pointer();
#if defined(__x86_64__)
    /* TLS variant II: the block ends at the thread pointer */
    uintptr_t start = tp - ((tls_memsz + tls_align - 1) & ~(tls_align - 1));
#else
    /* TLS variant I: the block starts after the 16-byte TCB */
    uintptr_t start = tp + ((16 + tls_align - 1) & ~(tls_align - 1));
#endif
    *lo = start;
    *hi = start + tls_memsz;
    uintptr_t probe = (uintptr_t)&sim_tls_worker;
    if (!(probe >= *lo && probe < *hi))
        return -1;
    /* the window starts past the simulator's own thread-locals (sim/tls.c), 16-aligned */
    uintptr_t own = (uintptr_t)(&sim_tls_worker + 1);
    own = (uintptr_t)(&my_worker + 1) > own ? (uintptr_t)(&my_worker + 1) : own;
    own = (uintptr_t)(&stacks_made + 1) > own ? (uintptr_t)(&stacks_made + 1) : own;
    own = (uintptr_t)(&sim_tls_fast + 1) > own ? (uintptr_t)(&sim_tls_fast + 1) : own;
    own = (own + 15) & ~(uintptr_t)15;
    if (own <= *hi)
        *lo = own;
    /* a `simtlab run` program's: it ends past its instrumented objects' last thread-local */
    if (simtlab_tls_dev_end_addr) {
        const uintptr_t end = (uintptr_t)simtlab_tls_dev_end_addr();
        if (end >= *lo && end < *hi)
            *hi = end;
    }
    return 0;
}

static uintptr_t context_pc(void *uc)
{
#if defined(__x86_64__)
    return (uintptr_t)((ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];
#else
    return (uintptr_t)((ucontext_t *)uc)->uc_mcontext.pc;
#endif
}

static int builtin_read_outside(uintptr_t pc); /* below the accessors */

/* A fault inside a CUDA thread ends its block with a report; any other
 * fault goes to the handler that was there before (or kills, as it would
 * have). The reports' pc is the faulting instruction + 1 (resolve_pc takes
 * return addresses). Not ASan-instrumented: it leaves the signal's
 * alternate stack for the scheduler, which ASan's no-return handling would
 * take for an overflow. */
__attribute__((no_sanitize_address)) static void on_fault(int sig, siginfo_t *si, void *uc)
{
    sim_worker *w = sim_tls_worker;
    if (w && w->cur && w->cur->stack) {
        uintptr_t a = (uintptr_t)si->si_addr;
        const sim_stack *s = w->cur->stack;
        if (sig != SIGFPE && a >= (uintptr_t)s->map && a < (uintptr_t)s->lo) {
            sim_fail(w, SIM_ERR_STACK_OVERFLOW, context_pc(uc) + 1, /* the line whose frame did not fit */
                     "stack overflow: the thread used more than its %zu KiB of stack (large local arrays or deep "
                     "recursion); make local arrays smaller, or give it more: cudaDeviceSetLimit(cudaLimitStackSize, bytes) "
                     "or SIMTLAB_STACK_KB above %zu (8 to 65536)",
                     w->stack_bytes >> 10, w->stack_bytes >> 10);
            sim_block_abort(w);
        }
        uintptr_t pc = context_pc(uc) + 1;
        if (sig == SIGFPE) {
            sim_fail(w, SIM_ERR_INTEGER_DIVIDE, pc,
                     "integer division by zero (or INT_MIN / -1) in a kernel: a GPU returns an undefined value "
                     "without an error; test the divisor first");
        } else {
            sim_fail(w, SIM_ERR_ILLEGAL_ADDRESS, pc,
                     "the kernel faulted (%s) at address 0x%llx: an access the simulator does not see (memcpy, "
                     "memset or a C library call inside a kernel, or an uninstrumented __host__ function) went "
                     "to memory that is not mapped or is read-only; on a GPU this is an illegal address",
                     sig == SIGSEGV ? "SIGSEGV" : "SIGBUS", (unsigned long long)a);
        }
        sim_block_abort(w);
    }
    /* not ours: let the previous handler (or the default) deal with it; first, a kernel's body
     * that read threadIdx & co. outside any launch (no worker, or no thread in it) was called
     * like a host function: say so (write(2): safe in a handler) */
    if (sig == SIGSEGV && builtin_read_outside(context_pc(uc))) {
        static const char msg[] =
            "simtlab: a kernel's threadIdx or blockIdx was read outside any launch: a __global__ function was "
            "called like a host function, without <<<grid, block>>> (`kernel(args)`, often through a function "
            "pointer or a template parameter); on a GPU such a call launches nothing. Launch it with "
            "kernel<<<grid, block>>>(args)\n";
        ssize_t wr = write(2, msg, sizeof msg - 1);
        (void)wr;
    }
    struct sigaction *old = sig == SIGSEGV ? &old_segv : sig == SIGBUS ? &old_bus : &old_fpe;
    sigaction(sig, old, NULL);
    (void)uc;
}

static void fault_handler_install_once(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &old_segv);
    sigaction(SIGBUS, &sa, &old_bus);
    sigaction(SIGFPE, &sa, &old_fpe);
}

/* Once per process, whichever host thread allocates or launches first: installed twice, the
 * second would keep on_fault as the "previous" handler, and a fault not ours would loop. */
void sim_fault_handler_install(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, fault_handler_install_once);
}

static sim_worker *worker_get(void)
{
    if (my_worker)
        return my_worker;
    sim_worker *w = NULL; /* 64-byte aligned: its thread array starts a cache line (internal.h) */
    if (posix_memalign((void **)&w, 64, sizeof *w))
        return NULL;
    memset(w, 0, sizeof *w);
    w->alloc_ctr = mmap(NULL, sizeof(uint64_t[2]) * SIM_MAX_ALLOCS, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    size_t dyn_map = SIM_GUARD_BYTES + SIM_DYN_CAP + SIM_GUARD_BYTES;
    w->dyn_map = mmap(NULL, dyn_map, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    w->altstack = malloc(SIGSTKSZ > 65536 ? SIGSTKSZ : 65536);
    w->shadow_dyn = calloc(SIM_DYN_CAP / 4, sizeof(sim_shadow));
    w->l2_alloc = w->l2_lim = SIM_TRACE_MIN; /* never less: sim/l2.c */
    w->l2_tr = malloc(w->l2_alloc * sizeof *w->l2_tr);
    w->l2_last = w->l2_last2 = ~0ull;
    w->l1_tags = calloc((size_t)1 << SIM_L1_SHIFT_MAX, sizeof *w->l1_tags);
    w->l1r_tags = calloc((size_t)1 << SIM_L1_SHIFT_MAX, sizeof *w->l1r_tags);
    w->wm_tag = calloc((size_t)1 << SIM_WM_SHIFT, sizeof *w->wm_tag);
    w->wm_mask = calloc((size_t)1 << SIM_WM_SHIFT, sizeof *w->wm_mask);
    w->l1_gen = 1; /* never 0: an empty table entry is 0 */
    if (w->alloc_ctr == MAP_FAILED || w->dyn_map == MAP_FAILED || !w->altstack || !w->shadow_dyn || !w->l2_tr ||
        !w->l1_tags || !w->l1r_tags || !w->wm_tag || !w->wm_mask) {
        free(w->l2_tr);
        free(w->l1_tags);
        free(w->l1r_tags);
        free(w->wm_tag);
        free(w->wm_mask);
        free(w);
        return NULL;
    }
    w->dyn_cap = SIM_DYN_CAP;
    w->stack_bytes = stack_bytes_wanted(); /* checked by sim_launch (env_settings) */
    w->os_thread = (unsigned long)pthread_self();
    pthread_mutex_lock(&wd_mu);
    if (wd_n < SIM_MAX_WORKERS)
        wd_workers[wd_n++] = w;
    pthread_mutex_unlock(&wd_mu);
    /* the fault handler runs on an alternate stack (a fiber's guard page has no
     * room for it); one already set up (a sanitizer's) is kept */
    stack_t old;
    if (sigaltstack(NULL, &old) || (old.ss_flags & SS_DISABLE) || old.ss_size < 32768) {
        stack_t ss = {.ss_sp = w->altstack, .ss_size = SIGSTKSZ > 65536 ? SIGSTKSZ : 65536, .ss_flags = 0};
        sigaltstack(&ss, NULL);
    }
#ifdef SIM_ASAN
    pthread_attr_t at;
    if (!pthread_getattr_np(pthread_self(), &at)) {
        void *lo;
        pthread_attr_getstack(&at, &lo, &w->sched_stack_size);
        w->sched_stack_lo = (uintptr_t)lo;
        pthread_attr_destroy(&at);
    }
#endif
    my_worker = w;
    return w;
}

static sim_stack *stack_take(sim_worker *w)
{
    sim_stack *s = w->free_stacks;
    if (s) {
        w->free_stacks = s->next_free;
        return s;
    }
    s = malloc(sizeof *s);
    if (!s)
        return NULL;
    s->map_len = SIM_GUARD_BYTES + w->stack_bytes + SIM_COLOR_SPAN;
    s->map = mmap(NULL, s->map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (s->map == MAP_FAILED) {
        free(s);
        return NULL;
    }
    /* Stacks are spaced by a power of two, so their tops would all fall in
     * the same few cache sets (L1 and L2) and evict each other at every
     * switch: place each one a different number of pages and cache lines
     * lower in its mapping ("cache colouring"; measured: 9.6 -> 5 ns per
     * thread per barrier at 256 threads). Everything below the usable range
     * is the guard; the span is address space, not memory. */
    s->color = (stacks_made % 15) * 4096 + (stacks_made * 5 % 63) * 64;
    stacks_made++;
    s->hi = s->map + s->map_len - s->color;
    s->lo = s->hi - w->stack_bytes;
    mprotect(s->map, (size_t)((uintptr_t)s->lo & ~(uintptr_t)4095) - (size_t)(uintptr_t)s->map, PROT_NONE);
    return s;
}

static void stack_give(sim_worker *w, sim_stack *s)
{
    s->next_free = w->free_stacks;
    w->free_stacks = s;
}

/* A launch's stack size differs from the last one's (SIMTLAB_STACK_KB or
 * sim_set_stack_limit changed): the kept stacks go; new ones get the size.
 * Between launches every stack is on the free list. */
static void stacks_resize(sim_worker *w, size_t bytes)
{
    while (w->free_stacks) {
        sim_stack *s = w->free_stacks;
        w->free_stacks = s->next_free;
        munmap(s->map, s->map_len);
        free(s);
    }
    w->stack_bytes = bytes;
}

/* Every switch between fibers and the scheduler goes through here. `to` is
 * the scheduler's context, or the context of w->cur (resumed), or of the fresh
 * fiber whose stack next_context put on top of w->free_stacks. dying: the
 * current fiber never resumes. */
static inline __attribute__((always_inline)) void fiber_switch(sim_worker *w, void **save, void *to, int dying)
{
#ifdef SIM_ASAN
    const void *bot;
    size_t size;
    if (to == w->sched_sp) {
        bot = (const void *)w->sched_stack_lo;
        size = w->sched_stack_size;
    } else {
        const sim_stack *st = w->cur ? w->cur->stack : w->free_stacks;
        bot = st->lo;
        size = (size_t)(st->hi - st->lo);
    }
    void *fake = NULL;
    __sanitizer_start_switch_fiber(dying ? NULL : &fake, bot, size);
    sim_ctx_switch(save, to);
    __sanitizer_finish_switch_fiber(fake, NULL, NULL);
#else
    (void)w;
    (void)dying;
    sim_ctx_switch(save, to);
#endif
}

/* ---- failing ------------------------------------------------------------------ */
/* Keeps in r (has: whether it holds one) a finding of the running block and thread, unless r
 * holds one of this block or an earlier one (the launch reports the lowest block's): 1 if kept,
 * its text then the caller's to write. */
int sim_err_take(sim_worker *w, sim_err_rec *r, int *has, sim_status s, uintptr_t pc)
{
    if (*has && r->block_linear <= w->block_linear) {
        w->other_pc = 0;
        return 0;
    }
    *has = 1;
    r->status = s;
    r->block_linear = w->block_linear;
    r->block = w->block;
    r->thread = w->cur ? w->cur->tid : (uint3){0, 0, 0};
    r->pc = pc;
    const int at = w->at_thread && w->at_thread == w->cur && pc == w->at_pc; /* sim_access_at's line, its access's */
    r->site_file = at ? w->at_file : NULL;
    r->site_line = at ? w->at_line : 0;
    r->other_pc = w->other_pc; /* a race's other access, which race_text has just looked for */
    r->other_tid = w->other_tid;
    r->other_wr = w->other_wr;
    w->other_pc = 0;
    return 1;
}

void sim_fail(sim_worker *w, sim_status s, uintptr_t pc, const char *fmt, ...)
{
    if (!sim_err_take(w, &w->err, &w->has_err, s, pc))
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->err.text, sizeof w->err.text, fmt, ap);
    va_end(ap);
}

/* Leaves the failing thread's fiber for good and ends the block. */
void sim_block_abort(sim_worker *w)
{
    w->block_failed = 1;
    w->cur = NULL;
    w->async = 0; /* an aborted sim_copy_async */
    void *dead;
    fiber_switch(w, &dead, w->sched_sp, 1);
    __builtin_unreachable();
}

/* ---- built-in variables ------------------------------------------------------- */
uint3 sim_thread_idx(void) { return sim_tls_worker->cur->tid; }
unsigned sim_lane_id(void) { return sim_tls_worker->cur->lane; }
uint3 sim_block_idx(void) { return sim_tls_worker->block; }
dim3 sim_block_dim(void) { return sim_tls_worker->block_dim; }
dim3 sim_grid_dim(void) { return sim_tls_worker->grid_dim; }
/* The same as a vector {x, y, z, 0} in one register, for `simtlab run`'s shim: a call whose
 * result is a register, not an aggregate in memory, lets g++ keep a shared accumulator in a
 * register across a grid-stride loop (`s[t] += g[i]; i += gridDim.x * blockDim.x`), as nvcc
 * does; an aggregate-returning call in the loop stopped its store motion (docs/run.md). */
typedef unsigned sim_u3v __attribute__((vector_size(16)));
#define SIM_U3V(name, field)                                                                        \
    sim_u3v name(void);                                                                             \
    sim_u3v name(void) { return (sim_u3v){field.x, field.y, field.z, 0}; }
SIM_U3V(sim_thread_idx_v, sim_tls_worker->cur->tid)
SIM_U3V(sim_block_idx_v, sim_tls_worker->block)
SIM_U3V(sim_block_dim_v, sim_tls_worker->block_dim)
SIM_U3V(sim_grid_dim_v, sim_tls_worker->grid_dim)

/* Whether pc lies in one of the built-in variables' accessors (above): each is a few
 * instructions, which fault only when no launch's thread is running (a NULL worker or thread). */
static int builtin_read_outside(uintptr_t pc)
{
    const uintptr_t fns[] = {(uintptr_t)sim_thread_idx, (uintptr_t)sim_block_idx, (uintptr_t)sim_thread_idx_v,
                             (uintptr_t)sim_block_idx_v, (uintptr_t)sim_block_dim_v, (uintptr_t)sim_grid_dim_v,
                             (uintptr_t)sim_block_dim, (uintptr_t)sim_grid_dim};
    for (size_t i = 0; i < sizeof fns / sizeof *fns; i++)
        if (pc - fns[i] < 64)
            return 1;
    return 0;
}
#undef SIM_U3V
void *sim_dynamic_shared(void) { return (void *)sim_tls_worker->dyn_lo; }

/* ---- the block scheduler ----------------------------------------------------- */
static void activemask_settle(sim_worker *w, sim_warp *wp, int force);
static void activemask_settle_barred(sim_worker *w);

/* ---- counting mode's sample of bank conflicts ------------------------------
 * The time model needs shared-memory wavefronts (32-way conflicts make flash
 * v1 8x slower), which counting mode does not count. In the grid's first and
 * last blocks (a causal grid's first is its smallest) it samples them: in a
 * sampled stretch between two barriers (there every request is whole), the
 * plain shared accesses go the slow way (the fast-path windows are closed)
 * and are grouped into warp requests as detailed mode groups them, without
 * race checks. Stretches are told apart by the barrier they start at (the
 * block's start is one too): flash v1 repeats five, one of them 16 wavefronts
 * a 128 bytes, another as long with 1, so a sample across them would swing
 * with which it met. Each kind counts all its bytes and samples its first
 * two stretches, then skips a random number, on average m = min(its
 * stretches so far, SIM_SAMPLE_SKIP): a kind of a few stretches is mostly
 * sampled, a long one about 1 in 256. A stretch of more than
 * SIM_SAMPLE_MAX_ACCESSES sampled accesses is sampled only that far (sim_sample_drop:
 * a block without barriers is one stretch). At the block's end each kind's bytes
 * times its sampled wavefronts a byte go to sample_*; the detailed counters
 * stay 0. The seed is fixed: a launch's figures are always the same. Shared
 * atomics and asynchronous copies are sampled as their own requests, as
 * detailed mode counts them (sim/access.c access_general). */
static sim_sample_kind *sample_kind(sim_worker *w, const char *file, int line)
{
    for (unsigned i = 0; i < w->n_kinds; i++)
        if (w->kinds[i].file == file && w->kinds[i].line == line)
            return &w->kinds[i];
    if (w->n_kinds == SIM_SAMPLE_KINDS) /* past the table: merged into its last kind */
        return &w->kinds[SIM_SAMPLE_KINDS - 1];
    sim_sample_kind *k = &w->kinds[w->n_kinds++];
    *k = (sim_sample_kind){.file = file, .line = line};
    return k;
}

/* Global accesses take global_detailed in detailed mode, in a sampled stretch and once the
 * watchdog has fired (its flag); timed_out is tested after the store: the watchdog's signal may
 * come between (on_watchdog sets glob_slow itself). */
static inline __attribute__((always_inline)) void glob_slow_update(sim_worker *w)
{
    w->glob_slow = w->detailed || w->sample;
    if (w->timed_out)
        w->glob_slow = 1;
}

/* The running block's global accesses so far: its started threads' counts (sim_l2_note). */
static uint64_t block_gacc(const sim_worker *w)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < w->next_new; i++)
        n += w->threads[i].l2_occ;
    return n;
}

static void sample_open(sim_worker *w)
{
    w->sample = 1;
    w->glob_slow = 1;
    w->sample_n = w->sample_gn = 0;
    memset(w->tls_lim, 0, sizeof w->tls_lim);
    memset(w->dyn_lim, 0, sizeof w->dyn_lim);
}

/* A sampled stretch ends: the detailed counters back to 0, the fast path open again. */
static void sample_close(sim_worker *w)
{
    sim_counters *c = &w->c;
    c->shared_ld_requests = c->shared_st_requests = 0;
    c->shared_ld_wavefronts = c->shared_st_wavefronts = 0;
    c->shared_ld_conflicts = c->shared_st_conflicts = 0;
    c->shared_atom_requests = c->shared_atom_wavefronts = c->shared_atom_conflicts = 0;
    c->async_requests = c->async_ld_sectors = c->async_st_wavefronts = c->async_st_conflicts = 0;
    c->global_ld_requests = c->global_st_requests = c->global_ld_sectors = c->global_st_sectors = 0;
    c->global_wavefronts = c->global_st_lines = c->global_st_partial = 0;
    w->sample = 0;
    glob_slow_update(w);
    sim_shared_fast_on(w); /* the launch's limits, unless the watchdog has fired */
}

/* A sampled stretch (or its part so far) of kind k ends: its shared bytes and global accesses,
 * the wavefronts of their requests (the warps flushed), then the sample closes. */
static void sample_taken(sim_worker *w, sim_sample_kind *k, uint64_t bytes, uint64_t gacc)
{
    const sim_counters *c = &w->c;
    k->s_bytes += bytes;
    k->s_wf += c->shared_ld_wavefronts + c->shared_st_wavefronts + c->shared_atom_wavefronts + c->async_st_wavefronts;
    k->s_gacc += gacc;
    k->s_gwf += c->global_wavefronts;
    k->s_gst[0] += c->global_st_lines;
    k->s_gst[1] += c->global_st_sectors;
    k->s_gst[2] += c->global_st_partial;
    k->s_gst[3] += c->global_ld_sectors;
    sample_close(w);
}

/* A sampled stretch past SIM_SAMPLE_MAX_ACCESSES shared accesses (a block without
 * barriers, a long loop): the rest of the stretch runs unsampled, so the sample's cost
 * stays bounded, and what was sampled so far is its kind's sample: the bytes of the
 * stretch until now and the wavefronts of their requests, counted now (the warps
 * flushed). Before, such a stretch gave its kind no sample at all, and a kernel whose
 * every long stretch passed the bound (flash-attention-minimal's loop over the query
 * tiles) was estimated from its short ones alone: 89 % over. A request whose lanes are
 * not all in yet is counted with those that are: its wavefronts for fewer bytes, so a
 * conflict-free kind's estimate is high by at most the open requests (the request
 * table holds 4096 a warp) over the stretch's 2^22 / 32 (test counters/sample_partial). */
void sim_sample_drop(sim_worker *w)
{
    for (unsigned k = 0; k < (w->n_threads + 31) / 32; k++)
        sim_warp_flush(w, &w->warps[k]);
    const sim_counters *c = &w->c;
    sample_taken(w, w->sample_cur, c->sram_read_bytes + c->sram_write_bytes - w->sample_sram0,
                 block_gacc(w) - w->sample_gacc0);
}

/* The stretch of kind k ends: its bytes and global accesses, and, sampled, their wavefronts. */
static void sample_end_stretch(sim_worker *w, sim_sample_kind *k)
{
    sim_counters *c = &w->c;
    uint64_t now = c->sram_read_bytes + c->sram_write_bytes, bytes = now - w->sample_sram0;
    uint64_t gnow = block_gacc(w), gacc = gnow - w->sample_gacc0;
    w->sample_sram0 = now;
    w->sample_gacc0 = gnow;
    k->bytes += bytes;
    k->gacc += gacc;
    k->seen++;
    if (w->sample)
        sample_taken(w, k, bytes, gacc);
}

static void sample_start(sim_worker *w) /* the first or the last block */
{
    w->sample_block = 1;
    w->sample_rng = 0x9E3779B97F4A7C15ull;
    w->n_kinds = 0;
    memset(w->kinds, 0, sizeof w->kinds);
    w->sample_cur = sample_kind(w, NULL, 0);
    w->sample_sram0 = w->c.sram_read_bytes + w->c.sram_write_bytes;
    w->sample_gacc0 = 0; /* no thread of the block has started */
    sample_open(w);
}

/* At a barrier's release, the warps' requests flushed: a stretch ends, the next begins. */
static void sample_barrier(sim_worker *w)
{
    sample_end_stretch(w, w->sample_cur);
    sim_sample_kind *k = w->sample_cur = sample_kind(w, w->bar_file, w->bar_line);
    if (k->seen < 2 || !k->skip) {
        uint64_t m = k->seen < SIM_SAMPLE_SKIP ? k->seen : SIM_SAMPLE_SKIP;
        uint64_t x = w->sample_rng; /* xorshift64 */
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        w->sample_rng = x;
        k->skip = x % (2 * m + 1) + 1; /* this one, then skip - 1 more */
        sample_open(w);
    }
    k->skip--;
}

static void sample_stop(sim_worker *w) /* the block's end */
{
    sample_end_stretch(w, w->sample_cur);
    double wf = 0, bytes = 0, gwf = 0, gacc = 0, gst[4] = {0, 0, 0, 0};
    for (unsigned i = 0; i < w->n_kinds; i++) {
        const sim_sample_kind *k = &w->kinds[i];
        if (k->s_bytes) {
            wf += (double)k->bytes * (double)k->s_wf / (double)k->s_bytes;
            bytes += (double)k->bytes;
        }
        if (k->s_gacc) {
            gwf += (double)k->gacc * (double)k->s_gwf / (double)k->s_gacc;
            gacc += (double)k->gacc;
            for (int j = 0; j < 4; j++)
                gst[j] += (double)k->gacc * (double)k->s_gst[j] / (double)k->s_gacc;
        }
    }
    w->c.sample_wavefronts += (uint64_t)(wf + 0.5);
    w->c.sample_sram_bytes += (uint64_t)bytes;
    w->c.sample_global_wavefronts += (uint64_t)(gwf + 0.5);
    w->c.sample_global_accesses += (uint64_t)gacc;
    w->c.sample_global_st_lines += (uint64_t)(gst[0] + 0.5);
    w->c.sample_global_st_sectors += (uint64_t)(gst[1] + 0.5);
    w->c.sample_global_st_partial += (uint64_t)(gst[2] + 0.5);
    w->c.sample_global_ld_sectors += (uint64_t)(gst[3] + 0.5);
    w->sample_block = 0;
}

static void rdv_complete(sim_worker *w, sim_warp *wp, unsigned i, unsigned self);

/* A lane exits while lanes of its warp wait at intrinsics whose masks name
 * it: they no longer wait for it (as on the chip: docs/gpu/h100-partial-warp,
 * late_exit), and a rendezvous it completes so completes (a shuffle that
 * reads the exited lane gets a note: warp_compute). mma is .aligned:
 * its waiters stay, and the stall is reported (resolve_stall). */
static void rdv_lane_exited(sim_worker *w, sim_warp *wp, unsigned lane)
{
    for (unsigned i = 0; i < wp->n_rdv; i++) {
        sim_rdv *r = &wp->rdv[i];
        if (SIM_RDV_ALIGNED(r->kind) || r->kind == SIM_RDV_ACTIVEMASK || !(r->mask >> lane & 1))
            continue;
        r->mask &= ~(1u << lane);
        if (r->arrived == r->mask) {
            rdv_complete(w, wp, i, 32);
            i = (unsigned)-1; /* the record went; look again from the start */
        }
    }
}

static void thread_finished(sim_worker *w, sim_thread *t)
{
    t->state = SIM_T_DONE;
    w->n_done++;
    w->blk_gacc += t->l2_occ;
    sim_warp *wp = &w->warps[t->warp];
    wp->done |= 1u << t->lane;
    if (w->cp_live)
        sim_cp_thread_done(w, t);
    if (wp->n_rdv) {
        rdv_lane_exited(w, wp, t->lane);
        activemask_settle(w, wp, 0);
    }
    if ((w->detailed || w->sample) && wp->done == wp->exists)
        sim_warp_flush(w, wp);
}

static void fiber_main(void *arg);

/* The context to run after the current thread stops: the next ready thread,
 * else a fresh fiber for the next new thread, else the scheduler (which
 * releases a barrier or reports why the block is stuck). Switching straight
 * from thread to thread halves the switches a barrier costs. */
/* Before resuming a thread, the prefetch of the one after it: its saved
 * registers and the frames above them (the lines a resume touches first),
 * and the thread record after that one. A block's threads touch more stack
 * lines than L1 holds (256 threads x 3 lines), so without it every switch
 * waited for L2 (docs/NOTES.md, "Simulator speed"). */
static inline __attribute__((always_inline)) void prefetch_thread(const sim_thread *t, const sim_thread *after)
{
    const char *sp = t->sp;
    __builtin_prefetch(sp);
    __builtin_prefetch(sp + 64);
    __builtin_prefetch(sp + 128);
    __builtin_prefetch(after);
}

/* No thread ready: a fresh fiber for the next new thread, else the scheduler. */
static __attribute__((noinline)) void *new_context(sim_worker *w)
{
    w->cur = NULL; /* a new thread's fiber sets it; the scheduler expects none */
    if (w->next_new < w->n_threads && !w->block_failed) {
        sim_stack *s = stack_take(w);
        if (s) {
            void *sp = sim_ctx_init(s, fiber_main, w);
            stack_give(w, s); /* fiber_main takes it off the top */
            return sp;
        }
    }
    return w->sched_sp;
}

/* The ready queue holds runs of threads to resume in order (a rendezvous'
 * lanes, a thread that yielded), each entry first | count << 16; the run
 * being resumed is rel_next..rel_end-1 (a released barrier's threads too).
 * A run, not a thread, an entry: a rendezvous that releases its warp when
 * other threads are ready queues one entry, not 31 (the order is the same). */
#define READY_RUN(first, n) ((unsigned)(first) | (unsigned)(n) << 16)
_Static_assert(SIM_MAX_THREADS < 65536 && !(SIM_MAX_THREADS & (SIM_MAX_THREADS - 1)),
               "a run's first thread and count fit 16 bits; the queue's indices wrap modulo its size");

static inline void ready_push(sim_worker *w, unsigned first, unsigned n)
{
    w->ready[w->ready_tail++ % SIM_MAX_THREADS] = READY_RUN(first, n);
}

static inline __attribute__((always_inline)) void *next_context(sim_worker *w)
{
    if (__builtin_expect(w->rel_next == w->rel_end, 0)) {
        if (w->ready_head == w->ready_tail)
            return new_context(w);
        const unsigned e = w->ready[w->ready_head++ % SIM_MAX_THREADS];
        w->rel_next = e & 0xffffu;
        w->rel_end = w->rel_next + (e >> 16);
    }
    sim_thread *t = &w->threads[w->rel_next++];
    if (w->rel_next + 2 < w->rel_end) /* 3 ahead: 5.42 -> 5.30 ns a barrier against 2 ahead */
        prefetch_thread(t + 3, t + 4);
    t->state = SIM_T_RUNNING;
    w->cur = t;
    return t->sp;
}

/* Every fiber runs this: it takes not-yet-started threads one after another
 * until none is left, then gives its stack back and moves on. A thread that
 * blocks keeps the fiber (and its stack) with it. */
static void fiber_main(void *arg)
{
    sim_worker *w = arg;
#ifdef SIM_ASAN
    __sanitizer_finish_switch_fiber(NULL, NULL, NULL);
#endif
    sim_stack *mine = w->free_stacks; /* next_context put our stack on top */
    w->free_stacks = mine->next_free;
    for (;;) {
        while (w->next_new < w->n_threads) {
            sim_thread *t = &w->threads[w->next_new++];
            t->stack = mine;
            t->async_pending = 0;
            t->cp_groups = 0;
            t->fenced = 0;
            t->rel = 1; /* no release yet (sim/access.c, locks) */
            t->l2_occ = 0;
            t->last_pc = 0;        /* where the watchdog's report last saw it: nothing of a block before */
            t->site_file = NULL;
            t->state = SIM_T_RUNNING;
            w->cur = t;
            w->thunk(w->args);
            w->cur = NULL;
            thread_finished(w, t);
        }
        stack_give(w, mine);
        void *dead;
        fiber_switch(w, &dead, next_context(w), 1);
    }
}

/* Parks the running thread; whoever makes it ready later resumes it. */
static inline __attribute__((always_inline)) void park(sim_worker *w, sim_thread *t, int state, const char *file, int line)
{
    t->state = state;
    t->site_file = file;
    t->site_line = line;
    fiber_switch(w, &t->sp, next_context(w), 0); /* next_context sets w->cur */
}

/* Parks the running lane at a warp intrinsic and returns its result once
 * resumed: a tail jump into the switch (sim_ctx_park_result), so that the
 * intrinsic's fast path keeps nothing across it. The slot's address holds:
 * a thread resumes on its own worker. */
static inline __attribute__((always_inline)) uint64_t park_result(sim_worker *w, sim_thread *t, const char *file,
                                                                  int line, const uint64_t *slot)
{
#ifdef SIM_ASAN /* the sanitizer's fiber calls around the switch */
    park(w, t, SIM_T_WARP, file, line);
    return *slot;
#else
    t->state = SIM_T_WARP;
    t->site_file = file;
    t->site_line = line;
    return sim_ctx_park_result(&t->sp, next_context(w), slot); /* next_context sets w->cur */
#endif
}

/* ---- spinning threads and the watchdog's stop ----------------------------------- */
/* A thread spins on a volatile or atomic read (sim/access.c, spin_note): run
 * another thread of the block if there is one (it goes to the back of the
 * ready queue), else carry on. */
int sim_yield(sim_worker *w, int prefer_new)
{
    sim_thread *t = w->cur;
    w->cur = NULL;
    void *next = NULL;
    if (prefer_new && w->next_new < w->n_threads && w->rel_next < w->rel_end) {
        /* the rest of the run being resumed (a rendezvous' lanes; a barrier's
         * run has no thread left to start): back at the head of the ready
         * queue, so that a new thread goes first */
        for (unsigned i = w->rel_next; i < w->rel_end; i++)
            w->threads[i].state = SIM_T_READY;
        w->ready[--w->ready_head % SIM_MAX_THREADS] = READY_RUN(w->rel_next, w->rel_end - w->rel_next);
        w->rel_next = w->rel_end = 0;
    }
    if (prefer_new && w->next_new < w->n_threads && !w->block_failed && w->rel_next == w->rel_end) {
        /* a thread not started yet first (the queue would resume the lane
         * that yielded before, and the warp's later lanes never start) */
        sim_stack *st = stack_take(w);
        if (st) {
            next = sim_ctx_init(st, fiber_main, w);
            stack_give(w, st);
        }
    }
    if (!next)
        next = next_context(w);
    if (next == w->sched_sp) { /* nobody else can run */
        w->cur = t;
        return 0;
    }
    t->state = SIM_T_READY;
    ready_push(w, t->linear, 1);
    int async = w->async; /* an atomic or a copy in flight: its state is this thread's */
    w->async = 0;
    fiber_switch(w, &t->sp, next, 0);
    w->async = async;
    return 1;
}

void sim_clock_yield(uintptr_t pc)
{
    sim_worker *w = sim_tls_worker;
    if (!w || !w->cur)
        return;
    w->cur->last_pc = pc;
    w->cur->site_file = NULL; /* as a spin's (the watchdog's report) */
    if (w->timed_out)
        sim_timeout_stop(w, pc);
    /* lanes of this warp held at a volatile access's lockstep wait for this one, which waits on
     * the clock elsewhere: they go on without it, as sim_spin_yield lets them */
    sim_warp *wp = &w->warps[w->cur->warp];
    if (wp->n_rdv)
        activemask_settle(w, wp, 1);
    if (w->n_warp_wait)
        activemask_settle_barred(w);
    sim_yield(w, 1);
}

static _Atomic int launch_faulted; /* a block of the running launch failed (sim_launch) */

void sim_spin_yield(sim_worker *w, uintptr_t pc)
{
    w->cur->last_pc = pc;
    w->spin_pc = pc;
    w->cur->site_file = NULL; /* its last barrier or intrinsic is older than this (the watchdog's report) */
    if (w->timed_out)
        sim_timeout_stop(w, pc);
    /* Another block of this launch failed, and this one spins: it may wait for what the failed
     * block will never do (release a lock it held), and a GPU would have ended the whole launch.
     * After 64 spin turns the block ends, without a report of its own (the failed block's is the
     * launch's), where it used to spin until the watchdog (CUDA by Example's hash table). */
    if (atomic_load_explicit(&launch_faulted, memory_order_relaxed) && ++w->spins_after_fault > 64)
        sim_block_abort(w);
    /* lanes of this warp held at a volatile access's lockstep (or an __activemask) wait for
     * this one, which spins elsewhere and will not come: they go on without it (a spin lock's
     * holder updating through a volatile pointer while its warp spins on the lock) */
    sim_warp *wp = &w->warps[w->cur->warp];
    if (wp->n_rdv)
        activemask_settle(w, wp, 1);
    if (w->n_warp_wait)
        activemask_settle_barred(w);
    /* a spinning thread may wait for a thread not started yet (a flag thread 2 sets, polled by
     * threads 0 and 1), and so may a warp whose lanes wait at an intrinsic; new threads only start
     * when no thread is ready, and while threads spin, some always is: start them first */
    sim_yield(w, 1);
}

/* The watchdog fired: stop the running thread here (a point where the
 * simulator holds nothing); run_block writes the report. */
__attribute__((no_sanitize_address)) /* called from on_watchdog, on the signal stack (see on_fault) */
void sim_timeout_stop(sim_worker *w, uintptr_t pc)
{
    w->detailed &= ~SIM_DETAILED_TIMEOUT;
    glob_slow_update(w);
    w->cur->last_pc = pc;
    w->timeout_thread = w->cur;
    sim_block_abort(w);
}

__attribute__((no_sanitize_address)) static void on_watchdog(int sig, siginfo_t *si, void *uc)
{
    (void)sig;
    (void)si;
    sim_worker *w = sim_tls_worker;
    if (!w || !atomic_load(&wd_fired) || !w->in_launch)
        return;
    w->timed_out = 1;
    if (!w->cur)
        return; /* the scheduler sees timed_out */
    uintptr_t pc = context_pc(uc);
    if (sim_in_kernel_text(pc)) /* kernel code holds no simulator state: leave it now */
        sim_timeout_stop(w, pc + 1);
    w->detailed |= SIM_DETAILED_TIMEOUT; /* the next access that tests the flag stops it */
    w->glob_slow = 1;
    sim_shared_fast_off(w);             /* shared accesses too: they test their limits, not the flag */
}

/* Every shared access takes the slow path from now on in this launch (the
 * watchdog's stop is tested there). Plain stores: safe in a signal handler. */
__attribute__((no_sanitize_address)) void sim_shared_fast_off(sim_worker *w)
{
    for (unsigned k = 0; k < 5; k++)
        w->tls_lim[k] = w->dyn_lim[k] = 0;
}

/* The shared windows' limits: the aligned places for 1 << k bytes (sim/access.c). The hook
 * tests alignment relative to the window's start: a start not 16-aligned (not expected)
 * sends that window the slow way. */
static void window_limits(sim_worker *w)
{
    const uintptr_t tn = w->tls_hi - w->tls_lo, dn = w->dyn_hi - w->dyn_lo;
    for (unsigned k = 0; k < 5; k++) {
        w->tls_lim[k] = !(w->tls_lo & 15) ? tn >> k : 0;
        w->dyn_lim[k] = !(w->dyn_lo & 15) ? dn >> k : 0;
    }
}

/* The fast path for shared accesses open again (sim_vol_fire, sim_waw_settle), unless counting
 * mode samples a stretch, a volatile access's lockstep or a write-after-write hazard waits for
 * the next access, or the watchdog has fired; timed_out is tested after the stores, so a signal
 * between them leaves the limits at 0 too. */
void sim_shared_fast_on(sim_worker *w)
{
    if (w->sample || w->waw_n || w->vol_thread) /* each opens them when it ends */
        return;
    window_limits(w);
    if (w->timed_out)
        sim_shared_fast_off(w);
}

/* "0-31,64" : the threads of the block in a state (and at a site) */
static void list_threads(sim_worker *w, char *out, size_t n, int state, const char *file, int line, unsigned *count)
{
    size_t k = 0;
    *count = 0;
    out[0] = 0;
    for (unsigned i = 0; i < w->n_threads; i++) {
        const sim_thread *t = &w->threads[i];
        int match = t->state == state && (!file || (t->site_line == line && !strcmp(t->site_file, file)));
        if (!match)
            continue;
        unsigned j = i;
        while (j + 1 < w->n_threads) {
            const sim_thread *u = &w->threads[j + 1];
            if (!(u->state == state && (!file || (u->site_line == line && !strcmp(u->site_file, file)))))
                break;
            j++;
        }
        *count += j - i + 1;
        if (k < n)
            k += (size_t)snprintf(out + k, n - k, "%s%u", k ? "," : "", i);
        if (j > i && k < n)
            k += (size_t)snprintf(out + k, n - k, "-%u", j);
        i = j;
    }
}

static const char *basename_of(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

static const char *rendezvous_name(int kind)
{
    switch (kind) {
    case SIM_SHFL_IDX: return "__shfl_sync";
    case SIM_SHFL_UP: return "__shfl_up_sync";
    case SIM_SHFL_DOWN: return "__shfl_down_sync";
    case SIM_SHFL_XOR: return "__shfl_xor_sync";
    case 16 + SIM_VOTE_BALLOT: return "__ballot_sync";
    case 16 + SIM_VOTE_ANY: return "__any_sync";
    case 16 + SIM_VOTE_ALL: return "__all_sync";
    case SIM_RDV_ACTIVEMASK: return "__activemask";
    case SIM_RDV_MMA: return "mma_tf32 (mma.sync.m16n8k8)";
    case SIM_RDV_MMA3: return "mma_tf32x3 (3 x mma.sync.m16n8k8)";
    case SIM_RDV_WMMA: return "a warp-wide matrix function (wmma's load_matrix_sync, store_matrix_sync or mma_sync, PTX's ldmatrix or mma.sync)";
    case SIM_RDV_REDUCE + SIM_COLL_ADD: return "__reduce_add_sync";
    case SIM_RDV_REDUCE + SIM_COLL_MIN_U: case SIM_RDV_REDUCE + SIM_COLL_MIN_I: return "__reduce_min_sync";
    case SIM_RDV_REDUCE + SIM_COLL_MAX_U: case SIM_RDV_REDUCE + SIM_COLL_MAX_I: return "__reduce_max_sync";
    case SIM_RDV_REDUCE + SIM_COLL_AND: return "__reduce_and_sync";
    case SIM_RDV_REDUCE + SIM_COLL_OR: return "__reduce_or_sync";
    case SIM_RDV_REDUCE + SIM_COLL_XOR: return "__reduce_xor_sync";
    case SIM_RDV_MATCH_ANY: return "__match_any_sync";
    case SIM_RDV_MATCH_ALL: return "__match_all_sync";
    default: return "__syncwarp";
    }
}

/* Every thread waits at a barrier, not all at the same __syncthreads(): whether each
 * warp's threads wait at one. __syncthreads() is `bar.sync 0`, which PTX makes
 * .aligned per warp: the warps of a block may reach barrier 0 at different
 * instructions, and it completes once every thread has arrived (siboehm's SGEMM
 * kernel 11 double-buffers that way: warp-uniform branches, a barrier in each). */
static __attribute__((noinline, cold)) int barrier_warps_uniform(const sim_worker *w)
{
    for (unsigned k = 0; k < w->n_threads; k += 32) {
        const sim_thread *t0 = NULL; /* the warp's first waiting thread (exited ones are not there) */
        const unsigned end = k + 32 < w->n_threads ? k + 32 : w->n_threads;
        for (unsigned i = k; i < end; i++) {
            const sim_thread *t = &w->threads[i];
            if (t->state == SIM_T_DONE)
                continue;
            if (!t0)
                t0 = t;
            else if (t->site_line != t0->site_line ||
                     (t->site_file != t0->site_file && strcmp(t->site_file, t0->site_file)))
                return 0;
        }
    }
    return 1;
}

/* No thread can run: release a barrier, or report why the block is stuck. */
static int cbar_deadlock(sim_worker *w, unsigned n_bar);
static void resolve_stall(sim_worker *w)
{
    /* every thread that has not exited waits at one barrier (or at one per warp): release
     * them, in threadIdx order (next_context resumes threads rel_next..rel_end-1; no
     * per-thread work). Exited threads are not waited for: bar.sync on sm_70 and later
     * waits for the non-exited threads, and the H100 runs `if (i >= n) return;` before a
     * __syncthreads() right, compute-sanitizer silent (docs/gpu/h100-partial-warp). */
    if (!w->n_warp_wait && w->n_bar && w->n_bar + w->n_done == w->n_threads &&
        (!w->bar_mismatch || (!w->bar_reduce && barrier_warps_uniform(w)))) {
        w->last_count = w->bar_count;
        w->last_and = w->bar_and;
        w->last_or = w->bar_or;
        if (__builtin_expect(w->n_done != 0, 0)) { /* the waiting ones only, through the ready queue */
            for (unsigned i = 0; i < w->n_threads; i++)
                if (w->threads[i].state == SIM_T_BARRIER) {
                    w->threads[i].state = SIM_T_READY;
                    ready_push(w, i, 1);
                }
        } else {
            w->rel_next = 0;
            w->rel_end = w->n_threads;
        }
        if (w->detailed || w->sample)
            for (unsigned k = 0; k < (w->n_threads + 31) / 32; k++) {
                sim_warp_flush(w, &w->warps[k]);
                w->warps[k].hist_bar = 1; /* the histories start here (sim/access.c race_other) */
            }
        if (__builtin_expect(w->sample_block, 0))
            sample_barrier(w);
        w->n_bar = 0;
        w->epoch++;
        if (__builtin_expect(w->detailed != 0, 0) && w->cp_live) /* copies still in flight (sim/access.c) */
            sim_cp_restamp(w);
        if (w->n_locks) /* the race check's locks start afresh (sim/access.c) */
            sim_lock_reset(w);
        w->c.barriers++;
        return;
    }
    unsigned n_bar = 0, n_warp = 0;
    const sim_thread *first_bar = NULL, *first_warp = NULL;
    for (unsigned i = 0; i < w->n_threads; i++) {
        const sim_thread *t = &w->threads[i];
        if (t->state == SIM_T_BARRIER) {
            n_bar++;
            if (!first_bar)
                first_bar = t;
        } else if (t->state == SIM_T_WARP) {
            n_warp++;
            if (!first_warp)
                first_warp = t;
        }
    }
    char a[256], b[256];
    unsigned ca, cb;
    if (n_warp) {
        /* an __activemask() can complete with the lanes that reached it:
         * the others wait elsewhere, as diverged lanes would on a GPU */
        unsigned before = w->n_warp_wait;
        for (unsigned k = 0; k < (w->n_threads + 31) / 32; k++)
            if (w->warps[k].n_rdv)
                activemask_settle(w, &w->warps[k], 1);
        if (w->n_warp_wait != before)
            return;
        const sim_warp *wp = &w->warps[first_warp->warp];
        const sim_rdv *rv = &wp->rdv[0];
        for (unsigned i = 0; i < wp->n_rdv; i++)
            if (wp->rdv[i].arrived >> first_warp->lane & 1)
                rv = &wp->rdv[i];
        unsigned missing = rv->mask & ~rv->arrived;
        unsigned lane = (unsigned)__builtin_ctz(missing);
        const sim_thread *m = &w->threads[first_warp->warp * 32 + lane];
        char state[200];
        const sim_rdv *mr = NULL;
        for (unsigned i = 0; i < wp->n_rdv && m->state == SIM_T_WARP; i++)
            if (wp->rdv[i].arrived >> lane & 1)
                mr = &wp->rdv[i];
        if (m->state == SIM_T_DONE)
            snprintf(state, sizeof state, "exited");
        else if (mr)
            snprintf(state, sizeof state, "waits at %s (%s:%d) with mask 0x%08x", rendezvous_name(mr->kind),
                     basename_of(mr->file), mr->line, mr->mask);
        else if (m->state == SIM_T_CBAR)
            snprintf(state, sizeof state, "waits at a cuda::barrier (%s:%d)", basename_of(m->site_file), m->site_line);
        else
            snprintf(state, sizeof state, "waits at __syncthreads() (%s:%d)", basename_of(m->site_file), m->site_line);
        w->cur = (sim_thread *)m; /* the lane that does not come */
        if (SIM_RDV_ALIGNED(rv->kind)) /* no mask in the source: the whole warp is implied */
            sim_fail(w, SIM_ERR_WARP_SYNC, 0,
                     "warp %u: lanes 0x%08x wait at %s (%s:%d), which the warp's 32 lanes execute together (.aligned), "
                     "but lane %u %s. On a GPU this hangs or returns garbage: call it from every lane of the warp, "
                     "none returning or branching around it",
                     first_warp->warp, rv->arrived, rendezvous_name(rv->kind), basename_of(rv->file), rv->line, lane,
                     state);
        else
            sim_fail(w, SIM_ERR_WARP_SYNC, 0,
                     "warp %u: lanes 0x%08x wait at %s (%s:%d) with mask 0x%08x, but lane %u %s. On a GPU this "
                     "hangs or returns garbage: every lane named in the mask must execute the same intrinsic",
                     first_warp->warp, rv->arrived, rendezvous_name(rv->kind), basename_of(rv->file), rv->line,
                     rv->mask, lane, state);
        w->cur = NULL;
        w->block_failed = 1;
        return;
    }
    if (cbar_deadlock(w, n_bar)) /* threads wait for a cuda::barrier's phase that no thread can complete */
        return;
    list_threads(w, a, sizeof a, SIM_T_BARRIER, first_bar->site_file, first_bar->site_line, &ca);
    /* divergence: threads wait at two barrier sites (exited threads are not waited for) */
    w->cur = (sim_thread *)first_bar;
    {
        const sim_thread *other = NULL;
        for (unsigned i = 0; i < w->n_threads && !other; i++)
            if (w->threads[i].state == SIM_T_BARRIER &&
                (w->threads[i].site_line != first_bar->site_line || strcmp(w->threads[i].site_file, first_bar->site_file)))
                other = &w->threads[i];
        list_threads(w, b, sizeof b, SIM_T_BARRIER, other->site_file, other->site_line, &cb);
        /* each warp at one site: then one of the sites is a reduction (bar.red beside bar.sync) */
        const int reduction = barrier_warps_uniform(w);
        sim_fail(w, SIM_ERR_BARRIER_DIVERGENCE, 0,
                 reduction ? "barrier divergence: %u threads (%s) wait at __syncthreads() (%s:%d) while %u threads "
                             "(%s) wait at a different one (%s:%d), and one of them is __syncthreads_count/_and/_or: "
                             "its result would count only the warps at that site (PTX leaves bar.red mixed with "
                             "bar.sync undefined); reach one __syncthreads_count/_and/_or from every thread of the "
                             "block"
                           : "barrier divergence: %u threads (%s) wait at __syncthreads() (%s:%d) while %u threads "
                             "(%s) wait at a different __syncthreads() (%s:%d), with threads of one warp on both "
                             "sides. On a GPU this hangs or corrupts shared memory: a barrier inside a branch must "
                             "be reached by every thread of the block (or, in a branch every warp takes whole, by "
                             "every thread of the warp)",
                 ca, a, basename_of(first_bar->site_file), first_bar->site_line, cb, b,
                 basename_of(other->site_file), other->site_line);
    }
    w->cur = NULL;
    w->block_failed = 1;
}

static void resolve_pc(uintptr_t pc, char *fn, size_t fn_n, char *loc, size_t loc_n);

/* The report of a launch the watchdog stopped: which threads of the block
 * had not finished, and where each was last seen. */
static void timeout_report(sim_worker *w)
{
    char text[1000], where[320], fn[128], loc[200];
    size_t k = 0;
    unsigned n_run = 0, n_bar = 0, n_warp = 0, n_new = 0, n_cbar = 0;
    /* threads of a pending run (a barrier's or a warp rendezvous', being
     * resumed or queued) had been released: they count as ready, not as waiting */
    for (unsigned i = w->rel_next; i < w->rel_end; i++)
        w->threads[i].state = SIM_T_READY;
    for (unsigned q = w->ready_head; q != w->ready_tail; q++) {
        const unsigned e = w->ready[q % SIM_MAX_THREADS];
        for (unsigned i = e & 0xffffu; i < (e & 0xffffu) + (e >> 16); i++)
            w->threads[i].state = SIM_T_READY;
    }
    const sim_thread *shown = w->timeout_thread;
    for (unsigned i = 0; i < w->n_threads; i++) {
        const sim_thread *t = &w->threads[i];
        if (i >= w->next_new)
            n_new++;
        else if (t->state == SIM_T_BARRIER)
            n_bar++;
        else if (t->state == SIM_T_WARP)
            n_warp++;
        else if (t->state == SIM_T_CBAR)
            n_cbar++;
        else if (t->state != SIM_T_DONE)
            n_run++;
    }
    const int sig = atomic_load(&wd_interrupt);
    if (sig)
        k += (size_t)snprintf(text + k, sizeof text - k, "the launch was interrupted (%s) and stopped. In this block: ",
                              sig == SIGINT ? "SIGINT: Ctrl-C" : "SIGTERM");
    else
        k += (size_t)snprintf(text + k, sizeof text - k,
                              "the launch ran longer than SIMTLAB_TIMEOUT=%ld s and was stopped (a kernel too long "
                              "for this CPU, or a thread that never ends or waits for something no thread does: the "
                              "count of finished blocks below says which). In this block: ",
                              env_timeout_s);
    /* the threads running (or spinning) with where they were last seen: at most 4 named, the
     * one the watchdog stopped first; a thread that has not run since a barrier or a warp
     * intrinsic released it is named with that site (its last_pc is where it last spun) */
    unsigned named = 0;
    const unsigned name_max = w->spin_pc ? 2 : 4; /* room for a spin's hint below */
    for (int pass = 0; pass < 2; pass++)
        for (unsigned i = 0; i < w->next_new && named < name_max; i++) {
            const sim_thread *t = &w->threads[i];
            if ((t == w->timeout_thread) != (pass == 0) || t->state == SIM_T_DONE || t->state == SIM_T_BARRIER ||
                t->state == SIM_T_WARP || t->state == SIM_T_CBAR)
                continue;
            /* the newer of the two: a spin clears the site, a barrier or intrinsic sets it */
            resolve_pc(t->last_pc, fn, sizeof fn, loc, sizeof loc);
            if (t != w->timeout_thread && t->site_file && t->site_line > 0)
                snprintf(where, sizeof where, "ready to run, last seen leaving the barrier or warp intrinsic at %s:%d",
                         basename_of(t->site_file), t->site_line);
            else if (loc[0])
                snprintf(where, sizeof where, "still running, last seen at %s", loc);
            else if (t != w->timeout_thread) /* it gave way between two accesses (sim_l2_turn, make_room) */
                snprintf(where, sizeof where, "ready to run, taking turns with the others (no barrier or warp "
                                              "intrinsic since it started)");
            else
                snprintf(where, sizeof where, "still running, stopped in code without a line (a library function)");
            if (k < sizeof text)
                k += (size_t)snprintf(text + k, sizeof text - k, "%sthread (%u,%u,%u) %s", named ? "; " : "",
                                      t->tid.x, t->tid.y, t->tid.z, where);
            if (!shown)
                shown = t;
            named++;
        }
    unsigned items = named; /* the parts of the list so far: "; " before each after the first */
    if (n_run > named && k < sizeof text)
        k += (size_t)snprintf(text + k, sizeof text - k, "%s%u more running or ready to run", items++ ? "; " : "",
                              n_run - named);
    if (n_bar && k < sizeof text) {
        char list[128];
        unsigned cnt;
        list_threads(w, list, sizeof list, SIM_T_BARRIER, NULL, 0, &cnt);
        /* every thread that has not exited there: the barrier was complete, and the stop came as
         * it opened (a kernel that loops over barriers for longer than it may), no deadlock */
        const int complete = !n_run && !n_warp && !n_cbar && !n_new && !w->bar_mismatch;
        k += (size_t)snprintf(text + k, sizeof text - k, "%s%s%u waiting at a barrier%s%s%s%s", items++ ? "; " : "",
                              complete ? "all " : "", n_bar, cnt ? " (__syncthreads: " : "", cnt ? list : "",
                              cnt ? ")" : "",
                              complete ? ", every thread that has not exited: the barrier was complete and stopped "
                                         "as it opened"
                                       : "");
    }
    if (n_warp && k < sizeof text) /* a warp intrinsic, or a volatile access's lockstep (sim/access.c) */
        k += (size_t)snprintf(text + k, sizeof text - k,
                              "%s%u waiting for the other lanes of their warp (at a warp intrinsic, or at a volatile "
                              "access, where a warp's lanes meet)",
                              items++ ? "; " : "", n_warp);
    if (n_cbar && k < sizeof text) {
        char list[200];
        unsigned cnt;
        list_threads(w, list, sizeof list, SIM_T_CBAR, NULL, 0, &cnt);
        k += (size_t)snprintf(text + k, sizeof text - k, "%s%u (%s) waiting at a cuda::barrier", items++ ? "; " : "",
                              n_cbar, list);
    }
    if (n_new && k < sizeof text)
        k += (size_t)snprintf(text + k, sizeof text - k, "%s%u not started", items++ ? "; " : "", n_new);
    int spinning = 0; /* a thread still polls where the block last spun (not a spin that ended) */
    for (unsigned i = 0; i < w->next_new && w->spin_pc && !spinning; i++)
        spinning = w->threads[i].state != SIM_T_DONE && w->threads[i].last_pc == w->spin_pc;
    if (spinning && k < sizeof text) { /* threads poll a flag: maybe one another block sets */
        resolve_pc(w->spin_pc, fn, sizeof fn, loc, sizeof loc);
        k += (size_t)snprintf(text + k, sizeof text - k,
                              ". Threads of this block spin on a value (volatile or atomic reads of one address%s%s): "
                              "if another block sets it, the kernel relies on blocks running at the same time, which "
                              "CUDA does not promise; the simulator runs one block at a time on each of its %d "
                              "workers (OMP_NUM_THREADS), a GPU as many as fit",
                              loc[0] ? ", at " : "", loc, sim_worker_count());
    }
    if (k < sizeof text && !sig)
        snprintf(text + k, sizeof text - k,
                 ". Set SIMTLAB_TIMEOUT to more seconds for a long kernel, or 0 to turn the watchdog off");
    w->cur = (sim_thread *)shown;
    sim_fail(w, SIM_ERR_LAUNCH_TIMEOUT, shown ? shown->last_pc : 0, "%s", text);
    w->cur = NULL;
    w->timeout_thread = NULL;
}

/* The per-launch part of each thread: its index, lane and warp. */
static void threads_init(sim_worker *w, const simt_cfg *cfg)
{
    for (unsigned i = 0; i < w->n_threads; i++) {
        sim_thread *t = &w->threads[i];
        t->tid.x = i % cfg->block.x;
        t->tid.y = (i / cfg->block.x) % cfg->block.y;
        t->tid.z = i / (cfg->block.x * cfg->block.y);
        t->linear = i;
        t->lane = i % 32;
        t->warp = i / 32;
        t->stack = NULL;
    }
}

/* A worker's table of most-hit atomic words added to the launch's (a word is in the same slot in
 * every table). */
static void atom_words_merge(struct sim_atom_word *all, const struct sim_atom_word *mine)
{
    for (unsigned i = 0; i < SIM_FP_ATOM_SLOTS; i++)
        if (mine[i].n && all[i].a == mine[i].a)
            all[i].n += mine[i].n;
        else if (mine[i].n > all[i].n)
            all[i] = mine[i];
}

static void run_block(sim_worker *w, uint64_t b, const simt_cfg *cfg)
{
    w->block_linear = b;
    w->block.x = (unsigned)(b % cfg->grid.x);
    w->block.y = (unsigned)((b / cfg->grid.x) % cfg->grid.y);
    w->block.z = (unsigned)(b / ((uint64_t)cfg->grid.x * cfg->grid.y));
    unsigned n = w->n_threads;
    /* threads[i].tid etc. were set once for the launch (threads_init); threads
     * next_new.. have not started, so nothing of theirs is read before fiber_main
     * sets it: no per-thread work here */
    for (unsigned k = 0; k < (n + 31) / 32; k++) {
        sim_warp *wp = &w->warps[k];
        unsigned lanes = n - k * 32 >= 32 ? 32 : n - k * 32;
        wp->exists = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
        wp->done = 0;
        wp->n_rdv = 0;
        wp->log_table = 0;
        wp->kept_on = SIM_KEPT_NONE;
        wp->hist_bar = 1;
        wp->at_bar = 0;
        wp->n_agg = 0;
    }
    if (w->detailed)
        for (unsigned k = 0; k < (n + 31) / 32; k++)
            sim_log_arm(w, k); /* after exists: the log's cursors (sim/access.c) */
    w->next_new = 0;
    w->n_done = 0;
    w->async_threads = 0;
    if (w->cp_hi)
        sim_cp_reset(w);
    w->block_serial++;
    w->ready_head = w->ready_tail = 0;
    w->n_bar = w->n_warp_wait = 0;
    w->rel_next = w->rel_end = 0;
    w->block_failed = 0;
    w->at_thread = NULL; /* a fault inside sim_access_at did not return to clear it */
    w->waw_n = 0;
    w->waw_mode = 0;
    if (w->n_locks)
        sim_lock_reset(w);
    w->epoch++;
    /* The scheduler: it starts the first fiber, and gets control back only
     * when no thread can run (all waiting, or all done). */
    while (!w->block_failed && w->n_done < n) {
        if (w->timed_out) {
            w->block_failed = 1;
            break;
        }
        void *next = next_context(w);
        if (next != w->sched_sp) {
            fiber_switch(w, &w->sched_sp, next, 0);
            continue;
        }
        if (w->next_new < n) { /* no stack could be had */
            sim_fail(w, SIM_ERR_MEMORY_ALLOCATION, 0, "out of host memory for thread stacks");
            w->block_failed = 1;
            break;
        }
        if (w->timed_out) { /* the watchdog fired since the test above: stop before a release, so the
                             * report sees the threads at the barrier, not released (timeout_report) */
            w->block_failed = 1;
            break;
        }
        resolve_stall(w);
    }
    if (w->waw_n) /* the block's last shared access was a write-after-write: its value decides */
        sim_waw_settle(w, 0);
    w->c.threads += n;
    if (w->timed_out && w->block_failed)
        timeout_report(w);
    if (w->block_failed) /* free the stacks of threads that will never resume */
        for (unsigned i = 0; i < w->next_new; i++) {
            sim_thread *t = &w->threads[i];
            if (t->stack && t->state != SIM_T_DONE) {
#ifdef SIM_ASAN /* the abandoned frames leave their red zones poisoned */
                ASAN_UNPOISON_MEMORY_REGION(t->stack->lo, (size_t)(t->stack->hi - t->stack->lo));
#endif
                stack_give(w, t->stack);
            }
            t->stack = NULL;
        }
    if (w->detailed || w->sample)
        for (unsigned k = 0; k < (n + 31) / 32; k++)
            sim_warp_flush(w, &w->warps[k]);
    if (w->sample_block)
        sample_stop(w);
}

/* ---- barriers -------------------------------------------------------------------- */
/* A thread arrives at a barrier: note where, and fold in its predicate. */
static inline __attribute__((always_inline)) void bar_arrive(sim_worker *w, sim_thread *t, int pred, const char *file, int line)
{
    if (__builtin_expect(w->async_threads != 0, 0) && t->async_pending) {
        sim_fail(w, SIM_ERR_SHARED_RACE, (uintptr_t)__builtin_return_address(0),
                 "thread (%u,%u,%u) reached __syncthreads at %s:%d with %u copy_async_float4 copies not waited "
                 "for: on a GPU they may land after the barrier, and other threads read stale shared memory; call "
                 "copy_async_wait_all() before the barrier",
                 t->tid.x, t->tid.y, t->tid.z, file, line, t->async_pending);
        sim_block_abort(w);
    }
    if (w->n_bar++ == 0) {
        w->bar_file = file;
        w->bar_line = line;
        w->bar_mismatch = 0;
        w->bar_reduce = 0;
        w->bar_count = 0;
        w->bar_and = 1;
        w->bar_or = 0;
    } else if (__builtin_expect(line != w->bar_line || file != w->bar_file, 0) &&
               (line != w->bar_line || strcmp(file, w->bar_file))) {
        w->bar_mismatch = 1;
    }
    if (pred >= 0) { /* __syncthreads_count/_and/_or; a plain barrier (-1) reads none of them */
        w->bar_reduce = 1;
        w->bar_count += (unsigned)pred;
        w->bar_and &= (unsigned)pred;
        w->bar_or |= (unsigned)pred;
    }
    if (w->detailed)
        sim_log_barrier(w, &w->warps[t->warp]);
    park(w, t, SIM_T_BARRIER, file, line);
}

static __attribute__((noinline)) void bar_arrive_slow(sim_worker *w, sim_thread *t, const char *file, int line)
{
    bar_arrive(w, t, -1, file, line);
}

/* The common case in few instructions and no call but the switch (so no
 * registers to save): not the first arrival, the same site as the first,
 * no copies pending anywhere in the block. */
void sim_syncthreads(const char *file, int line)
{
    sim_worker *w = sim_tls_worker;
    sim_thread *t = w->cur;
    if (__builtin_expect(w->async_threads != 0 || w->n_bar == 0 || line != w->bar_line || file != w->bar_file, 0)) {
        bar_arrive_slow(w, t, file, line);
        return;
    }
    w->n_bar++;
    if (__builtin_expect(w->detailed, 0))
        sim_log_barrier(w, &w->warps[t->warp]);
    park(w, t, SIM_T_BARRIER, file, line);
}

int sim_syncthreads_op(int pred, int op, const char *file, int line)
{
    sim_worker *w = sim_tls_worker;
    sim_thread *t = w->cur;
    bar_arrive(w, t, pred != 0, file, line);
    return (int)(op == SIM_BAR_COUNT ? w->last_count : op == SIM_BAR_AND ? w->last_and : w->last_or);
}

/* ---- warp intrinsics ------------------------------------------------------------------ */
/* The lane whose value lane l receives, by CUDA's rules for each shuffle:
 * within its segment of `width` lanes; up/down/xor past the segment's end
 * (up: before its start) return the lane's own value. */
static unsigned shfl_src(int kind, unsigned l, unsigned arg, unsigned width)
{
    unsigned base = l & ~(width - 1);
    switch (kind) {
    case SIM_SHFL_IDX: return base + (arg & (width - 1));
    case SIM_SHFL_UP: return arg > l - base ? l : l - arg; /* delta is unsigned in CUDA */
    case SIM_SHFL_DOWN: return arg >= base + width - l ? l : l + arg;
    default: return (l ^ arg) >= base + width ? l : (l ^ arg);
    }
}

/* An fp32 value as a TF32 operand reaches the tensor core: the low 13 bits
 * of the mantissa are not read (only 10 of 23 are). A NaN whose payload
 * sits in those bits stays a NaN (quiet), never an Inf. */
static inline float tf32_operand(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    if ((u & 0x7f800000u) == 0x7f800000u && (u & 0x007fffffu))
        u |= 0x00400000u;
    u &= 0xffffe000u;
    memcpy(&x, &u, 4);
    return x;
}

float sim_tf32_operand(float x) { return tf32_operand(x); }

/* D = A B + D for the warp, A 16 x 8 and B 8 x 8 spread over its lanes as
 * mma.sync.m16n8k8 spreads them (g = lane / 4, t = lane % 4):
 *   a[0] = A[g][t], a[1] = A[g + 8][t], a[2] = A[g][t + 4], a[3] = A[g + 8][t + 4]
 *   b[0] = B[t][g], b[1] = B[t + 4][g]
 *   d[0] = D[g][2t], d[1] = D[g][2t + 1], d[2] = D[g + 8][2t], d[3] = D[g + 8][2t + 1].
 * Products of TF32 operands are exact in fp32; they are added to D in k
 * order, in fp32. With the small parts (3xTF32) the warp does what three
 * mma instructions do, in the order the GPU build issues them: As Bb, Ab Bs,
 * then Ab Bb. */
static void mma_compute(sim_warp *wp, int three)
{
    float A[2][16][8], B[2][8][8], D[16][8]; /* 2 KB of the last lane's fiber stack (64 KB by default) */
    for (unsigned l = 0; l < 32; l++) {
        const sim_mma_frag *f = (const sim_mma_frag *)(uintptr_t)wp->val[l];
        const unsigned g = l / 4, t = l % 4;
        for (int p = 0; p < 1 + three; p++) {
            const float *a = p ? f->as : f->ab, *b = p ? f->bs : f->bb;
            A[p][g][t] = tf32_operand(a[0]);
            A[p][g + 8][t] = tf32_operand(a[1]);
            A[p][g][t + 4] = tf32_operand(a[2]);
            A[p][g + 8][t + 4] = tf32_operand(a[3]);
            B[p][t][g] = tf32_operand(b[0]);
            B[p][t + 4][g] = tf32_operand(b[1]);
        }
        D[g][2 * t] = f->d[0];
        D[g][2 * t + 1] = f->d[1];
        D[g + 8][2 * t] = f->d[2];
        D[g + 8][2 * t + 1] = f->d[3];
    }
    /* (A operand, B operand) of each product, in issue order */
    static const int order3[3][2] = {{1, 0}, {0, 1}, {0, 0}}, order1[1][2] = {{0, 0}};
    const int(*order)[2] = three ? order3 : order1;
    /* k outside n: each D[m][n] still sums in k order, and the 8 columns go as one vector */
    for (int p = 0; p < (three ? 3 : 1); p++)
        for (int m = 0; m < 16; m++)
            for (int k = 0; k < 8; k++) {
                const float a = A[order[p][0]][m][k];
                for (int n = 0; n < 8; n++)
                    D[m][n] += a * B[order[p][1]][k][n];
            }
    for (unsigned l = 0; l < 32; l++) {
        const sim_mma_frag *f = (const sim_mma_frag *)(uintptr_t)wp->val[l];
        const unsigned g = l / 4, t = l % 4;
        f->d[0] = D[g][2 * t];
        f->d[1] = D[g][2 * t + 1];
        f->d[2] = D[g + 8][2 * t];
        f->d[3] = D[g + 8][2 * t + 1];
    }
}

/* Fills result[] for the lanes of rendezvous r (a lane reading a lane outside
 * the mask gets 0, as on the H100, and the launch a note). Results go straight to
 * result[] (val[] is not written here), one loop per kind. */
#define VOTE_KINDS                                                                                      \
    ((1ull << (16 + SIM_VOTE_BALLOT)) | (1ull << (16 + SIM_VOTE_ANY)) | (1ull << (16 + SIM_VOTE_ALL)) |    \
     (0xffull << SIM_RDV_REDUCE) | (1ull << SIM_RDV_MATCH_ANY) | (1ull << SIM_RDV_MATCH_ALL))
/* __reduce_*_sync and __match_*_sync over the lanes of mask (their values in val[]) */
static void collective_compute(sim_warp *wp, int kind, unsigned mask)
{
    if (kind == SIM_RDV_MATCH_ANY || kind == SIM_RDV_MATCH_ALL) {
        unsigned all = mask;
        for (unsigned l = 0; l < 32; l++) {
            if (!(mask >> l & 1))
                continue;
            unsigned same = 0;
            for (unsigned k = 0; k < 32; k++)
                same |= (unsigned)(mask >> k & 1 && wp->val[k] == wp->val[l]) << k;
            wp->result[l] = same;
            if (same != mask)
                all = 0;
        }
        if (kind == SIM_RDV_MATCH_ALL)
            for (unsigned l = 0; l < 32; l++)
                if (mask >> l & 1)
                    wp->result[l] = all;
        return;
    }
    const int op = kind - SIM_RDV_REDUCE;
    uint32_t acc = op == SIM_COLL_MIN_U || op == SIM_COLL_AND ? 0xffffffffu : 0;
    int32_t iacc = op == SIM_COLL_MIN_I ? INT32_MAX : INT32_MIN;
    for (unsigned l = 0; l < 32; l++) {
        if (!(mask >> l & 1))
            continue;
        const uint32_t u = (uint32_t)wp->val[l];
        const int32_t i = (int32_t)u;
        switch (op) {
        case SIM_COLL_ADD: acc += u; break;
        case SIM_COLL_MIN_U: acc = u < acc ? u : acc; break;
        case SIM_COLL_MAX_U: acc = u > acc ? u : acc; break;
        case SIM_COLL_MIN_I: iacc = i < iacc ? i : iacc; break;
        case SIM_COLL_MAX_I: iacc = i > iacc ? i : iacc; break;
        case SIM_COLL_AND: acc &= u; break;
        case SIM_COLL_OR: acc |= u; break;
        default: acc ^= u; break;
        }
    }
    if (op == SIM_COLL_MIN_I || op == SIM_COLL_MAX_I)
        acc = (uint32_t)iacc;
    for (unsigned l = 0; l < 32; l++)
        if (mask >> l & 1)
            wp->result[l] = acc;
}

static void warp_compute(sim_worker *w, sim_warp *wp, const sim_rdv *r)
{
    const unsigned mask = r->mask;
    if (r->kind == SIM_RDV_ACTIVEMASK) {
        /* the lanes that reached it only: one forced complete (activemask_settle) while lanes
         * of the warp have not yet resumed from an earlier shuffle must leave their results */
        for (unsigned m = r->arrived; m; m &= m - 1)
            wp->result[__builtin_ctz(m)] = r->arrived;
        return;
    }
    if (r->kind >= 16) { /* votes and mma: off the shuffles' path */
        if (r->kind == SIM_RDV_MMA || r->kind == SIM_RDV_MMA3) {
            mma_compute(wp, r->kind == SIM_RDV_MMA3);
            return;
        }
        if (r->kind == SIM_RDV_WMMA) { /* the lanes' arguments, in lane order, to the first's function */
            void *args[32];
            for (unsigned l = 0; l < 32; l++)
                args[l] = ((const sim_aligned_call *)(uintptr_t)wp->val[l])->arg;
            ((const sim_aligned_call *)(uintptr_t)wp->val[0])->fn(args);
            return;
        }
        if ((r->kind >= SIM_RDV_REDUCE && r->kind < SIM_RDV_REDUCE + 8) || r->kind == SIM_RDV_MATCH_ANY ||
            r->kind == SIM_RDV_MATCH_ALL) {
            collective_compute(wp, r->kind, mask);
            return;
        }
        unsigned ballot = 0;
        for (unsigned l = 0; l < 32; l++)
            ballot |= (unsigned)(wp->val[l] != 0) << l;
        ballot &= mask;
        uint64_t res = r->kind == 16 + SIM_VOTE_BALLOT ? ballot
                       : r->kind == 16 + SIM_VOTE_ANY  ? ballot != 0
                       : r->kind == 16 + SIM_VOTE_ALL  ? ballot == mask
                                                       : 0;
        for (unsigned l = 0; l < 32; l++)
            if (mask >> l & 1)
                wp->result[l] = res;
        return;
    }
    const unsigned width = (unsigned)r->width;
    unsigned outside = 0; /* lanes whose source is not in the mask */
    if (mask == 0xffffffffu && width == 32 && r->kind == SIM_SHFL_XOR) { /* the common butterfly */
        for (unsigned l = 0; l < 32; l++) {
            const unsigned src = l ^ (unsigned)wp->arg[l];
            wp->result[l] = wp->val[src < 32 ? src : l];
        }
        return;
    }
    for (unsigned l = 0; l < 32; l++) {
        if (!(mask >> l & 1))
            continue;
        const unsigned src = shfl_src(r->kind, l, (unsigned)wp->arg[l], width);
        if (!(mask >> src & 1)) {
            outside |= 1u << l;
            continue;
        }
        wp->result[l] = wp->val[src];
    }
    if (outside) { /* an undefined value, not a fault: the H100 goes on and gives 0, whether the source
                    * lane skipped the call, exited or lies past the block's end, and compute-sanitizer
                    * is silent (docs/gpu/h100-partial-warp/shfl_inactive.txt); so 0 here, and the
                    * first case is the launch's note */
        for (unsigned o = outside; o; o &= o - 1)
            wp->result[__builtin_ctz(o)] = 0;
        const unsigned l = (unsigned)__builtin_ctz(outside);
        sim_thread *keep = w->cur;
        w->cur = &w->threads[(unsigned)(wp - w->warps) * 32 + l];
        if (sim_err_take(w, &w->undef, &w->has_undef, SIM_ERR_WARP_SYNC, 0))
            snprintf(w->undef.text, sizeof w->undef.text,
                     "%s (%s:%d): lane %u reads lane %u, which does not take part (lanes 0x%08x do: the mask's "
                     "lanes that have not exited); CUDA leaves that value undefined, and it is 0 here, as on the "
                     "H100",
                     rendezvous_name(r->kind), basename_of(r->file), r->line, l,
                     shfl_src(r->kind, l, (unsigned)wp->arg[l], width), mask);
        w->cur = keep;
    }
}

/* Completes rendezvous i of wp: results, the waiting lanes made ready (all
 * but `self`, the lane completing it, or none if self = 32), the record
 * removed. */
static void rdv_complete(sim_worker *w, sim_warp *wp, unsigned i, unsigned self)
{
    sim_rdv r = wp->rdv[i];
    warp_compute(w, wp, &r);
    /* one counter each: kinds 0-15 shuffles, the votes, reductions and matches (kinds < 64) */
    w->c.warp_shuffles += r.kind < 16;
    w->c.warp_votes += (VOTE_KINDS >> (r.kind & 63)) & 1;
    wp->rdv[i] = wp->rdv[--wp->n_rdv];
    /* the warp's lanes met: but an __activemask() (a volatile access's lockstep) completed without
     * live lanes that wait elsewhere (at a barrier: activemask_settle_barred, resolve_stall) orders
     * nothing with them, and the warp epoch is one for all its lanes */
    if (r.kind != SIM_RDV_ACTIVEMASK || r.arrived == (wp->exists & ~wp->done))
        wp->sync_epoch++;
    sim_thread *lanes = &w->threads[(unsigned)(wp - w->warps) * 32];
    unsigned wake = r.arrived & ~(self < 32 ? 1u << self : 0u);
    /* each run of consecutive lanes one entry of the ready queue, in lane order; their state
     * stays SIM_T_WARP until they resume (timeout_report counts queued runs as ready) */
    while (wake) {
        const unsigned first = (unsigned)__builtin_ctz(wake);
        const unsigned n = (unsigned)__builtin_ctzll(~(uint64_t)(wake >> first)); /* the run's length */
        w->n_warp_wait -= n;
        if (w->rel_next == w->rel_end && w->ready_head == w->ready_tail) { /* nothing else ready: this run next */
            w->rel_next = lanes[first].linear;
            w->rel_end = w->rel_next + n;
        } else {
            ready_push(w, lanes[first].linear, n);
        }
        wake &= ~(unsigned)(((1ull << n) - 1) << first);
    }
    /* a shuffle, vote or barrier of the warp converges its lanes: their requests so far are
     * complete, and the n-th executions after it pair afresh. Not a volatile access's lockstep or
     * __activemask(): lanes meet there from different places (`if (t == 0) *flag = 1; s +=
     * *flag;`: lane 0 at the store, the others at the load), and a GPU's warp, reconverged after
     * the branch, still makes the load as one request of all its lanes (docs/gpu/s33-h100) */
    if ((w->detailed || w->sample) && r.arrived == (wp->exists & ~wp->done) && r.kind != SIM_RDV_ACTIVEMASK)
        sim_warp_flush(w, wp);
}

/* __activemask() rendezvous complete when every live lane has arrived (lanes
 * that exit instead are not waited for), or, with force, now. */
static void activemask_settle(sim_worker *w, sim_warp *wp, int force)
{
    for (unsigned i = 0; i < wp->n_rdv; i++)
        if (wp->rdv[i].kind == SIM_RDV_ACTIVEMASK &&
            (force || wp->rdv[i].arrived == (wp->exists & ~wp->done))) {
            rdv_complete(w, wp, i, 32);
            return;
        }
}

/* A thread spins (its yield): an __activemask() rendezvous of any warp (a volatile access's
 * lockstep) whose missing live lanes all wait at a barrier completes with the lanes that reached
 * it. Those lanes cannot come before the barrier opens, and it cannot open before this rendezvous'
 * lanes get there: a spin lock's holder in one warp, updating through a volatile pointer, while
 * its warp's other lanes wait at __syncthreads() and other warps spin on the lock (it waited until
 * the watchdog). With no thread spinning, resolve_stall completes them. */
static void activemask_settle_barred(sim_worker *w)
{
    for (unsigned k = 0; k < (w->n_threads + 31) / 32; k++) {
        sim_warp *wp = &w->warps[k];
        for (unsigned i = 0; i < wp->n_rdv; i++) {
            if (wp->rdv[i].kind != SIM_RDV_ACTIVEMASK)
                continue;
            unsigned missing = wp->exists & ~wp->done & ~wp->rdv[i].arrived;
            for (; missing; missing &= missing - 1) {
                const uint8_t st = w->threads[k * 32 + (unsigned)__builtin_ctz(missing)].state;
                if (st != SIM_T_BARRIER && st != SIM_T_CBAR)
                    break;
            }
            if (!missing) {
                rdv_complete(w, wp, i, 32);
                break;
            }
        }
    }
}

/* Whether a warp intrinsic is called wrongly: the calling lane not in the
 * mask, a lane named that does not exist or has exited (the general path
 * drops those first, but for mma), a shuffle's width
 * not a power of two from 1 to 32. One test, for the fast path and the general
 * one; rdv_misuse says which. */
static inline __attribute__((always_inline)) int rdv_misused(const sim_warp *wp, unsigned mask, unsigned lane, int kind,
                                                            int width)
{
    const unsigned uw = (unsigned)width;
    return !(mask >> lane & 1) || (mask & (~wp->exists | wp->done)) ||
           (kind < 16 && (uw - 1 >= 32u || (uw & (uw - 1))));
}

/* A warp intrinsic called wrongly (rdv_misused found it):
 * the report, in the order the tests were always made, and the block ends. */
static __attribute__((noinline, cold, noreturn)) void rdv_misuse(sim_worker *w, sim_thread *t, sim_warp *wp,
                                                                 unsigned mask, int kind, int width, const char *file,
                                                                 int line)
{
    const char *what = rendezvous_name(kind);
    const unsigned lane = t->lane;
    if (SIM_RDV_ALIGNED(kind)) { /* no mask written: the whole warp is implied */
        if (~wp->exists) /* a partial warp: the block's size is why */
            sim_fail(w, SIM_ERR_WARP_SYNC, 0,
                     "%s (%s:%d): the warp's 32 lanes execute it together (.aligned), but warp %u has only lanes "
                     "0x%08x (the block has %u threads: make it a multiple of 32)",
                     what, basename_of(file), line, t->warp, wp->exists & ~wp->done, w->n_threads);
        else
            sim_fail(w, SIM_ERR_WARP_SYNC, 0,
                     "%s (%s:%d): the warp's 32 lanes execute it together (.aligned), but lanes 0x%08x of warp %u "
                     "returned before it: let no lane return before the warp's last such call",
                     what, basename_of(file), line, wp->done, t->warp);
        sim_block_abort(w);
    }
    if (!(mask >> lane & 1))
        sim_fail(w, SIM_ERR_WARP_SYNC, 0, "%s (%s:%d): mask 0x%08x does not name the calling lane %u", what,
                 basename_of(file), line, mask, lane);
    else
        sim_fail(w, SIM_ERR_WARP_SYNC, 0, "%s (%s:%d): width %d must be a power of two from 1 to 32", what,
                 basename_of(file), line, width);
    sim_block_abort(w);
}

static __attribute__((noinline)) uint64_t warp_rendezvous(unsigned mask, int kind, uint64_t v, int arg, int width,
                                                          const char *file, int line)
{
    sim_worker *w = sim_tls_worker;
    sim_thread *t = w->cur;
    sim_warp *wp = &w->warps[t->warp];
    const unsigned lane = t->lane;
    if (kind == SIM_RDV_ACTIVEMASK) {
        mask = wp->exists & ~wp->done;
    } else {
        /* the mask's exited lanes, and lanes past the block's end (exited
         * from the start), are not waited for: PTX's shfl.sync, vote.sync and
         * match.sync wait for the non-exited threads of membermask, and the
         * H100 runs a full mask after lanes returned, in a 16-thread block and
         * in __syncwarp too, compute-sanitizer's synccheck silent
         * (docs/gpu/h100-partial-warp). mma is .aligned: its implied full
         * mask stays a report (rdv_misuse). */
        const unsigned asked = mask; /* as written, for a report */
        if ((mask & (~wp->exists | wp->done)) && !SIM_RDV_ALIGNED(kind))
            mask &= wp->exists & ~wp->done;
        if (__builtin_expect(rdv_misused(wp, mask, lane, kind, width), 0))
            rdv_misuse(w, t, wp, asked, kind, width, file, line);
    }
    /* the pending rendezvous this lane joins: the one with the same mask (or
     * any pending __activemask). Overlapping masks are legal (lanes 8-15 may
     * shuffle among themselves before joining a 16-lane shuffle); if they
     * never resolve, the stall is reported (resolve_stall). */
    unsigned i = 0;
    for (; i < wp->n_rdv; i++) {
        const sim_rdv *r = &wp->rdv[i];
        if (kind == SIM_RDV_ACTIVEMASK ? r->kind == SIM_RDV_ACTIVEMASK
                                       : r->kind != SIM_RDV_ACTIVEMASK && r->mask == mask)
            break;
    }
    if (i == wp->n_rdv) {
        if (wp->n_rdv == SIM_MAX_RDV) {
            sim_fail(w, SIM_ERR_WARP_SYNC, 0, "%s (%s:%d): more than %d warp intrinsics pending in warp %u at once",
                     rendezvous_name(kind), basename_of(file), line, SIM_MAX_RDV, t->warp);
            sim_block_abort(w);
        }
        wp->rdv[wp->n_rdv++] = (sim_rdv){mask, 0, kind, width, file, line};
    } else if (kind != SIM_RDV_ACTIVEMASK &&
               (wp->rdv[i].mask != mask || wp->rdv[i].kind != kind || (kind < 16 && wp->rdv[i].width != width))) {
        const sim_rdv *r = &wp->rdv[i];
        sim_fail(w, SIM_ERR_WARP_SYNC, 0,
                 "lanes of warp %u disagree: lane %u calls %s (%s:%d) with mask 0x%08x while lanes 0x%08x wait at "
                 "%s (%s:%d) with mask 0x%08x",
                 t->warp, lane, rendezvous_name(kind), basename_of(file), line, mask, r->arrived,
                 rendezvous_name(r->kind), basename_of(r->file), r->line, r->mask);
        sim_block_abort(w);
    }
    sim_rdv *r = &wp->rdv[i];
    wp->val[lane] = v;
    wp->arg[lane] = arg;
    r->arrived |= 1u << lane;
    unsigned need = kind == SIM_RDV_ACTIVEMASK ? wp->exists & ~wp->done : r->mask;
    if (r->arrived != need) {
        w->n_warp_wait++;
        park(w, t, SIM_T_WARP, file, line);
        return wp->result[lane];
    }
    /* the last lane to arrive completes the rendezvous for all */
    rdv_complete(w, wp, i, lane); /* w->cur stays t: a note's report puts it back (warp_compute) */
    return wp->result[lane];
}

/* The last lane to arrive completes the warp's only rendezvous for all. */
static __attribute__((noinline)) uint64_t rdv_last(sim_worker *w, sim_warp *wp, unsigned lane)
{
    rdv_complete(w, wp, 0, lane);
    return wp->result[lane];
}

/* The common case in few instructions: a valid mask, and the lane opens or
 * joins the warp's only pending rendezvous (same mask, kind and width).
 * Everything else, misuse included, goes the general way. The lanes of a
 * warp reach a shuffle one after another, so this runs 32 times a shuffle
 * (lessons 3, 4 and 6 shuffle in their inner loops: docs/bench-sim.md). */
static inline __attribute__((always_inline)) uint64_t rendezvous_fast(unsigned mask, int kind, uint64_t v, int arg,
                                                                      int width, const char *file, int line)
{
    sim_worker *w = sim_tls_worker;
    sim_thread *t = w->cur;
    sim_warp *wp = &w->warps[t->warp];
    const unsigned lane = t->lane, bit = 1u << lane;
    sim_rdv *r = &wp->rdv[0];
    if (__builtin_expect(wp->n_rdv == 1 && r->mask == mask && r->kind == kind && r->width == width, 1)) {
        /* joining the warp's only pending rendezvous: the lane that opened it
         * checked the mask against the warp's lanes and the width (a lane of
         * the mask that exited since took itself out of r->mask:
         * rdv_lane_exited; not an mma's, which sim_warp_mma tests itself), so
         * only this lane's own bit is left to check */
        if (__builtin_expect(!(mask & bit), 0))
            return warp_rendezvous(mask, kind, v, arg, width, file, line);
    } else if (wp->n_rdv == 0 && !rdv_misused(wp, mask, lane, kind, width)) {
        *r = (sim_rdv){mask, 0, kind, width, file, line};
        wp->n_rdv = 1;
    } else {
        return warp_rendezvous(mask, kind, v, arg, width, file, line);
    }
    wp->val[lane] = v;
    wp->arg[lane] = arg;
    const unsigned arrived = r->arrived | bit;
    r->arrived = arrived;
    if (arrived != mask) {
        w->n_warp_wait++;
        return park_result(w, t, file, line, &wp->result[lane]);
    }
    return rdv_last(w, wp, lane);
}

uint64_t sim_warp_shfl(unsigned mask, uint64_t v, int kind, int arg, int width, const char *file, int line)
{
    return rendezvous_fast(mask, kind, v, arg, width, file, line);
}

/* A lane reaches an mma while lanes of its warp wait at another mma call
 * (another line, or the other of mma_tf32 / mma_tf32x3): .aligned is
 * broken, and the GPU's result is undefined. */
static __attribute__((noinline, cold)) void mma_check_site(sim_worker *w, const sim_warp *wp, int kind,
                                                            const char *file, int line)
{
    for (unsigned i = 0; i < wp->n_rdv; i++) {
        const sim_rdv *r = &wp->rdv[i];
        if (SIM_RDV_ALIGNED(r->kind) &&
            (r->kind != kind || r->line != line || strcmp(r->file, file) != 0)) {
            sim_fail(w, SIM_ERR_WARP_SYNC, 0,
                     "lanes of warp %u diverge at the tensor cores: lane %u calls %s at %s:%d while lanes 0x%08x "
                     "wait at %s at %s:%d; mma.sync is .aligned, so every lane of the warp must execute the same "
                     "mma call (take the branch around it, not through it)",
                     w->cur->warp, w->cur->lane, rendezvous_name(kind), basename_of(file), line, r->arrived,
                     rendezvous_name(r->kind), basename_of(r->file), r->line);
            sim_block_abort(w);
        }
    }
}

/* One fragment of n floats at p, read (wr 0) or written: on the lane's own
 * stack (where a GPU keeps it in registers) it is not counted; anywhere else
 * it is n 4-byte accesses of the lane, counted and checked like any other
 * (global, shared, or a report and the block's end). */
static inline void mma_operand(sim_worker *w, const float *p, unsigned n, int wr, uintptr_t pc)
{
    const uintptr_t a = (uintptr_t)p;
    const sim_thread *t = w->cur;
    if (__builtin_expect(t->stack && a >= (uintptr_t)t->stack->lo && a + 4 * n <= (uintptr_t)t->stack->hi &&
                             !(a & 3),
                         1))
        return;
    for (unsigned i = 0; i < n; i++)
        sim_access(a + 4 * i, 4, wr, pc);
}

/* mma.sync is .aligned: every lane of the warp executes it, with the full
 * mask (a warp of fewer than 32 threads, or one whose lanes exited, is
 * reported by rdv_misused), at the same instruction: lanes that reach
 * different mma calls are reported here (a shuffle's lanes may meet from
 * different lines; an mma's may not). Fragments outside the lane's stack
 * are checked and counted on arrival (mma_operand); the last lane to
 * arrive computes for all. */
void sim_warp_mma(float *d, const float *ab, const float *as, const float *bb, const float *bs, const char *file,
                  int line)
{
    const uintptr_t pc = (uintptr_t)__builtin_return_address(0);
    sim_worker *w = sim_tls_worker;
    const sim_warp *wp = &w->warps[w->cur->warp];
    const int kind = as ? SIM_RDV_MMA3 : SIM_RDV_MMA;
    mma_operand(w, d, 4, 0, pc);
    mma_operand(w, ab, 4, 0, pc);
    mma_operand(w, bb, 2, 0, pc);
    if (as) {
        mma_operand(w, as, 4, 0, pc);
        mma_operand(w, bs, 2, 0, pc);
    }
    w->waw_mode = SIM_WAW_NOW; /* written by the last lane to arrive: a write hazard is known now or never */
    mma_operand(w, d, 4, 1, pc);
    w->waw_mode = 0;
    /* after the operands: in detailed mode an access may let other lanes run
     * (make_room), and they may have opened the rendezvous meanwhile */
    if (wp->n_rdv != 0 && (wp->n_rdv > 1 || wp->rdv[0].line != line || wp->rdv[0].kind != kind ||
                           wp->rdv[0].file != file)) /* the lanes of one call: one string literal */
        mma_check_site(w, wp, kind, file, line);
    sim_mma_frag f = {d, ab, as, bb, bs};
    if (__builtin_expect(wp->done != 0, 0)) /* a lane of the warp exited: .aligned is broken, and an mma's */
        (void)warp_rendezvous(0xffffffffu, kind, (uint64_t)(uintptr_t)&f, 0, 32, file, line); /* join would not see it */
    else
        (void)rendezvous_fast(0xffffffffu, kind, (uint64_t)(uintptr_t)&f, 0, 32, file, line);
}

/* A whole-warp operation of simtlab run's runtime (wmma::mma_sync: sim/run/wmma.c): every lane
 * of the warp calls it at the same call site (.aligned), the last to arrive calls fn with the 32
 * lanes' arguments in lane order, and then all go on. A partial warp, a lane that exited or lanes
 * at different calls are reported as for mma_tf32. */
void sim_warp_aligned(void *arg, void (*fn)(void *const args[32]), const char *file, int line)
{
    sim_worker *w = sim_tls_worker;
    const sim_warp *wp = &w->warps[w->cur->warp];
    sim_aligned_call call = {fn, arg};
    if (wp->n_rdv != 0 && (wp->n_rdv > 1 || wp->rdv[0].line != line || wp->rdv[0].kind != SIM_RDV_WMMA ||
                           wp->rdv[0].file != file))
        mma_check_site(w, wp, SIM_RDV_WMMA, file, line);
    if (__builtin_expect(wp->done != 0, 0)) /* a lane exited: reported by the general path */
        (void)warp_rendezvous(0xffffffffu, SIM_RDV_WMMA, (uint64_t)(uintptr_t)&call, 0, 32, file, line);
    else
        (void)rendezvous_fast(0xffffffffu, SIM_RDV_WMMA, (uint64_t)(uintptr_t)&call, 0, 32, file, line);
}

unsigned sim_warp_vote(unsigned mask, int pred, int kind, const char *file, int line)
{
    return (unsigned)rendezvous_fast(mask, 16 + kind, pred != 0, 0, 32, file, line);
}

uint64_t sim_warp_collective(unsigned mask, uint64_t v, int op, const char *file, int line)
{
    const int kind = op == SIM_COLL_MATCH_ANY   ? SIM_RDV_MATCH_ANY
                     : op == SIM_COLL_MATCH_ALL ? SIM_RDV_MATCH_ALL
                                                : SIM_RDV_REDUCE + (op & 7);
    return rendezvous_fast(mask, kind, v, 0, 32, file, line);
}

int sim_kernel_assert(const char *expr, const char *file, unsigned line, const char *func)
{
    sim_worker *w = sim_tls_worker;
    if (!w || !w->cur)
        return 0;
    sim_fail(w, SIM_ERR_ASSERT, (uintptr_t)__builtin_return_address(0),
             "assertion '%s' failed in %s (%s:%u): on a GPU the launch fails with cudaErrorAssert too", expr,
             func ? func : "?", basename_of(file), line);
    sim_block_abort(w);
}

int sim_kernel_trap(const char *what, const char *file, unsigned line)
{
    sim_worker *w = sim_tls_worker;
    if (!w || !w->cur)
        return 0;
    if (file)
        sim_fail(w, SIM_ERR_TRAP, (uintptr_t)__builtin_return_address(0),
                 "%s (%s:%u): the kernel stopped itself; on a GPU the launch fails with cudaErrorLaunchFailure", what,
                 basename_of(file), line);
    else /* the runtime found it (the device heap): the report's location line names the kernel's */
        sim_fail(w, SIM_ERR_TRAP, (uintptr_t)__builtin_return_address(0),
                 "%s: the kernel stopped; on a GPU the launch fails with cudaErrorLaunchFailure", what);
    sim_block_abort(w);
}

int sim_kernel_fault(sim_status s, uintptr_t pc, const char *fmt, ...)
{
    sim_worker *w = sim_tls_worker;
    if (!w || !w->cur)
        return 0;
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    sim_fail(w, s, pc ? pc : (uintptr_t)__builtin_return_address(0), "%s", text);
    sim_block_abort(w);
}

/* ---- libcu++'s cuda::barrier of a block (sim/run/include/cuda/barrier) ----
 * Its 8 bytes, as the chip's mbarrier's: the arrivals a phase expects (bits 0-20), those still
 * missing (21-41), the phase's number (42-54), the block's tag (55-62: the low bits of its
 * worker's block count, so that a word a barrier of an earlier block left in the same shared
 * memory is not taken for this block's) and "initialised" (63). A thread waiting for a phase
 * parks (SIM_T_CBAR, w->cbar_at naming the barrier); the arrival that completes the phase makes
 * its waiters ready. A completed phase orders, for the race check, what its threads did before
 * they arrived with what any thread does after: a new epoch, as a __syncthreads() (threads that
 * take no part in it are then not checked against each other until the next barrier). */
#define CBAR_INIT (1ull << 63)
#define CBAR_MAX ((1u << 20) - 1)
#define CBAR_PHASES 0x1fffu
static inline unsigned cbar_expected(uint64_t s) { return (unsigned)(s & 0x1fffff); }
static inline unsigned cbar_missing(uint64_t s) { return (unsigned)(s >> 21 & 0x1fffff); }
static inline uint64_t cbar_phase(uint64_t s) { return s >> 42 & CBAR_PHASES; }
static inline uint64_t cbar_tag(const sim_worker *w) { return w ? (uint64_t)(w->block_serial & 0xff) << 55 : 0; }
/* initialised, in this block */
static inline int cbar_live(const sim_worker *w, uint64_t s)
{
    return (s & CBAR_INIT) && (s & 0xffull << 55) == cbar_tag(w);
}
static inline uint64_t cbar_make(const sim_worker *w, unsigned expected, unsigned missing, uint64_t phase)
{
    return CBAR_INIT | cbar_tag(w) | expected | (uint64_t)missing << 21 | (phase & CBAR_PHASES) << 42;
}

static __attribute__((noreturn)) void cbar_fault(sim_worker *w, uintptr_t pc, const char *what, const uint64_t *b,
                                                 const char *file, int line)
{
    sim_fail(w, SIM_ERR_TRAP, pc, "%s (the cuda::barrier at %p, %s:%d): on a GPU the behaviour is undefined", what,
             (const void *)b, basename_of(file), line);
    sim_block_abort(w);
}

int sim_cbar_init(uint64_t *b, long long expected, const char *file, int line)
{
    sim_worker *w = sim_tls_worker;
    if (expected < 1 || expected > CBAR_MAX) {
        if (!w || !w->cur)
            return -1;
        char what[200];
        snprintf(what, sizeof what,
                 "init() with an expected count of %lld: a block's cuda::barrier takes 1 to %u "
                 "(cuda::barrier::max()) arrivals a phase",
                 expected, CBAR_MAX);
        cbar_fault(w, (uintptr_t)__builtin_return_address(0), what, b, file, line);
    }
    *b = cbar_make(w && w->cur ? w : NULL, (unsigned)expected, (unsigned)expected, 0);
    return 0;
}

static void cbar_complete(sim_worker *w, const uint64_t *b)
{
    for (unsigned i = 0; w->cbar_at && i < w->next_new; i++) {
        if (w->threads[i].state != SIM_T_CBAR || w->cbar_at[i] != b)
            continue;
        unsigned j = i;
        while (j + 1 < w->next_new && w->threads[j + 1].state == SIM_T_CBAR && w->cbar_at[j + 1] == b)
            j++;
        for (unsigned k = i; k <= j; k++)
            w->threads[k].state = SIM_T_READY;
        ready_push(w, i, j - i + 1); /* a run of threads, as a rendezvous' */
        i = j;
    }
    w->epoch++;
    if (w->cp_live)
        sim_cp_restamp(w);
    if (w->n_locks)
        sim_lock_reset(w);
}

uint64_t sim_cbar_arrive(uint64_t *b, long long n, int drop, const char *file, int line)
{
    sim_worker *w = sim_tls_worker;
    const int in_kernel = w && w->cur;
    const uint64_t s = *b;
    unsigned expected = cbar_expected(s), missing = cbar_missing(s);
    if (in_kernel && !cbar_live(w, s))
        cbar_fault(w, (uintptr_t)__builtin_return_address(0),
                   drop ? "arrive_and_drop() on a barrier before init()" : "arrive() on a barrier before init()", b,
                   file, line);
    if (in_kernel && (n < 1 || (unsigned long long)n > missing)) {
        char what[300];
        snprintf(what, sizeof what,
                 "arrive(%lld) when %u of the %u arrivals this phase expects are missing: a phase takes the count "
                 "init() gave, and each arrival counts 1 to the number missing",
                 n, missing, expected);
        cbar_fault(w, (uintptr_t)__builtin_return_address(0), what, b, file, line);
    }
    if (!in_kernel && (n < 1 || (unsigned long long)n > missing))
        return cbar_phase(s);
    if (drop && expected)
        expected--;
    missing -= (unsigned)n;
    const uint64_t phase = cbar_phase(s);
    if (missing) {
        *b = cbar_make(in_kernel ? w : NULL, expected, missing, phase);
        return phase;
    }
    *b = cbar_make(in_kernel ? w : NULL, expected, expected, phase + 1);
    if (in_kernel)
        cbar_complete(w, b);
    return phase;
}

/* wait: while the phase is token's; parity (0 or 1, a pipeline's wait_parity): while the phase's
 * parity is that (the phase of that parity has not completed) */
static void cbar_park(const uint64_t *b, uint64_t token, int parity, const char *file, int line, uintptr_t pc)
{
    sim_worker *w = sim_tls_worker;
    if (!w || !w->cur)
        return;
    if (!cbar_live(w, *b))
        cbar_fault(w, pc, "wait() on a barrier before init()", b, file, line);
    if (!w->cbar_at && !(w->cbar_at = calloc(SIM_MAX_THREADS, sizeof *w->cbar_at)))
        cbar_fault(w, pc, "no memory for the simulator's barrier table", b, file, line);
    while (parity < 0 ? cbar_phase(*b) == (token & CBAR_PHASES) : (int)(cbar_phase(*b) & 1) == parity) {
        sim_thread *t = w->cur;
        w->cbar_at[t->linear] = b;
        sim_warp *wp = &w->warps[t->warp];
        if (wp->n_rdv) /* lanes held at a volatile lockstep or __activemask go on without it */
            activemask_settle(w, wp, 1);
        park(w, t, SIM_T_CBAR, file, line);
    }
}

void sim_cbar_wait(const uint64_t *b, uint64_t token, const char *file, int line)
{
    cbar_park(b, token, -1, file, line, (uintptr_t)__builtin_return_address(0));
}

void sim_cbar_wait_parity(const uint64_t *b, int parity, const char *file, int line)
{
    cbar_park(b, 0, parity != 0, file, line, (uintptr_t)__builtin_return_address(0));
}

uint64_t sim_cbar_count(uint64_t *b, int op)
{
    if (op == 0)
        *b = 0;
    else if (op == 1)
        ++*b;
    return *b;
}

/* The block can go no further (resolve_stall): if threads wait for a barrier's phase, the report
 * (1), else 0 */
static __attribute__((noinline, cold)) int cbar_deadlock(sim_worker *w, unsigned n_bar)
{
    const sim_thread *first = NULL;
    for (unsigned i = 0; i < w->n_threads && !first; i++)
        if (w->threads[i].state == SIM_T_CBAR)
            first = &w->threads[i];
    if (!first)
        return 0;
    const uint64_t *b = w->cbar_at[first->linear];
    const uint64_t s = *b;
    char who[256], bar[300] = "";
    unsigned cnt;
    list_threads(w, who, sizeof who, SIM_T_CBAR, NULL, 0, &cnt);
    if (n_bar) {
        char at[256];
        unsigned cb;
        list_threads(w, at, sizeof at, SIM_T_BARRIER, NULL, 0, &cb);
        snprintf(bar, sizeof bar, ", %u (%s) wait at __syncthreads()", cb, at);
    }
    w->cur = (sim_thread *)first;
    sim_fail(w, SIM_ERR_BARRIER_DIVERGENCE, 0,
             "deadlock: %u threads (%s) wait at a cuda::barrier (%s:%d; a block's cuda::pipeline waits at its "
             "stages' barriers) for a phase that %u more arrivals would complete (of the %u that init() expects a "
             "phase), and no thread can arrive (%u exited%s). On a GPU this hangs: every thread that init() counts "
             "must arrive once a phase, or leave the barrier with arrive_and_drop()",
             cnt, who, basename_of(first->site_file), first->site_line, cbar_missing(s), cbar_expected(s), w->n_done,
             bar);
    w->cur = NULL;
    w->block_failed = 1;
    return 1;
}

void sim_warp_lockstep(void)
{
    (void)warp_rendezvous(0, SIM_RDV_ACTIVEMASK, 0, 0, 32, "a volatile access", 0);
}

/* On a GPU __activemask() names the lanes executing it together. Lanes here
 * run one after another, so it is a rendezvous: it waits until every live
 * lane of the warp has reached it or exited (or waits elsewhere), and
 * returns the lanes that reached it. */
unsigned sim_activemask(void)
{
    return (unsigned)warp_rendezvous(0, SIM_RDV_ACTIVEMASK, 0, 0, 32, "__activemask", 0);
}

/* ---- atomics ----------------------------------------------------------------------------- */
#define RA() ((uintptr_t)__builtin_return_address(0))
#define CAS_LOOP(T, p, newv)                                                                  \
    do {                                                                                      \
        T old_ = __atomic_load_n(p, __ATOMIC_RELAXED), new_;                                  \
        do {                                                                                  \
            T o = old_;                                                                       \
            (void)o;                                                                          \
            new_ = (newv);                                                                    \
        } while (!__atomic_compare_exchange_n(p, &old_, new_, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)); \
        return old_;                                                                          \
    } while (0)

/* the integer operations nvcc aggregates on a warp-uniform address: add, sub, min, max, and, or,
 * xor; not exch, cas, inc or dec (the H100's counters: docs/gpu/s32-h100-atomics), but inc with
 * the limit all ones, an add of 1 (docs/gpu/s33-h100; the rewriter marks it only when the limit
 * is written so, as nvcc knows it only then) */
#define AGG_OP(op, v, T)                                                                                    \
    ((op) != SIM_ATOM_EXCH && (op) != SIM_ATOM_CAS && (op) != SIM_ATOM_DEC && ((op) != SIM_ATOM_INC || (v) == (T) ~(T)0))
#define ATOMIC_INT(suffix, T)                                                                 \
    T sim_atomic_##suffix(T *p, T v, T cmp, int op)                                           \
    {                                                                                         \
        sim_access_atomic((uintptr_t)p, sizeof(T), RA(),                                      \
                          AGG_OP(op, v, T)        ? SIM_ATOMF_AGG                             \
                          : (op) == SIM_ATOM_CAS  ? SIM_ATOMF_CAS                             \
                          : (op) == SIM_ATOM_EXCH ? SIM_ATOMF_EXCH                            \
                                                  : 0);                                       \
        switch (op) {                                                                         \
        case SIM_ATOM_ADD: return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);                 \
        case SIM_ATOM_SUB: return __atomic_fetch_sub(p, v, __ATOMIC_RELAXED);                 \
        case SIM_ATOM_EXCH: return __atomic_exchange_n(p, v, __ATOMIC_RELAXED);               \
        case SIM_ATOM_CAS: {                                                                  \
            const int wrote_ = __atomic_compare_exchange_n(p, &cmp, v, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED); \
            sim_atomic_cas_done((uintptr_t)p, wrote_); /* a lock's release (sim/access.c) */  \
            return cmp;                                                                       \
        }                                                                                     \
        case SIM_ATOM_AND: return __atomic_fetch_and(p, v, __ATOMIC_RELAXED);                 \
        case SIM_ATOM_INC: CAS_LOOP(T, p, o >= v ? 0 : o + 1);                                \
        case SIM_ATOM_DEC: CAS_LOOP(T, p, (o == 0 || o > v) ? v : o - 1);                     \
        case SIM_ATOM_OR: return __atomic_fetch_or(p, v, __ATOMIC_RELAXED);                   \
        case SIM_ATOM_XOR: return __atomic_fetch_xor(p, v, __ATOMIC_RELAXED);                 \
        case SIM_ATOM_MIN: CAS_LOOP(T, p, o < v ? o : v);                                     \
        default: CAS_LOOP(T, p, o > v ? o : v);                                               \
        }                                                                                     \
    }
ATOMIC_INT(i, int)
ATOMIC_INT(u, unsigned)
ATOMIC_INT(ull, unsigned long long)
ATOMIC_INT(us, unsigned short) /* atomicCAS on 2 bytes (sm_70) */

/* floating point: a compare-and-swap loop on the bits */
#define ATOMIC_FP(suffix, T, U, FMIN, FMAX)                                                   \
    T sim_atomic_##suffix(T *p, T v, T cmp, int op)                                           \
    {                                                                                         \
        sim_access_atomic((uintptr_t)p, sizeof(T), RA(), SIM_ATOMF_FP);                       \
        U *q = (U *)p, old = __atomic_load_n(q, __ATOMIC_RELAXED), nw;                        \
        union { T f; U u; } a, b, c = {.f = cmp}, x = {.f = v};                               \
        for (;;) {                                                                            \
            a.u = old;                                                                        \
            switch (op) {                                                                     \
            case SIM_ATOM_ADD: b.f = a.f + v; break;                                          \
            case SIM_ATOM_SUB: b.f = a.f - v; break;                                          \
            case SIM_ATOM_MIN: b.f = FMIN(a.f, v); break;                                     \
            case SIM_ATOM_MAX: b.f = FMAX(a.f, v); break;                                     \
            case SIM_ATOM_EXCH: b.f = v; break;                                               \
            default: b.u = a.u == c.u ? x.u : a.u; break;                                     \
            }                                                                                 \
            nw = b.u;                                                                         \
            if (__atomic_compare_exchange_n(q, &old, nw, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) \
                return a.f;                                                                   \
        }                                                                                     \
    }
ATOMIC_FP(f, float, uint32_t, fminf, fmaxf)
ATOMIC_FP(d, double, uint64_t, fmin, fmax)
#undef ATOMIC_FP

/* 2 or 4 bytes whose new value op computes from the old one and v (the shim's atomicAdd on
 * __half, __half2, __nv_bfloat16 and __nv_bfloat162: its arithmetic, not the simulator's): one
 * atomic access of size bytes however often the compare-and-swap retries. Returns the old bits. */
uint32_t sim_atomic_update(void *p, unsigned size, uint32_t v, uint32_t (*op)(uint32_t old, uint32_t v))
{
    sim_access_atomic((uintptr_t)p, size, RA(), 0);
    if (size == 2) {
        uint16_t *q = p, old = __atomic_load_n(q, __ATOMIC_RELAXED);
        while (!__atomic_compare_exchange_n(q, &old, (uint16_t)op(old, v), 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            ;
        return old;
    }
    uint32_t *q = p, old = __atomic_load_n(q, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(q, &old, op(old, v), 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
    return old;
}

/* ---- launching -------------------------------------------------------------------------- */
static sim_launch_info last_info;
const sim_launch_info *sim_last_launch(void) { return &last_info; }

int sim_in_thread(void)
{
    const sim_worker *w = sim_tls_worker;
    return w && w->cur;
}

int sim_worker_count(void)
{
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

static int check_cfg(const simt_cfg *cfg, const char *k)
{
    const sim_device *d = cur_device;
    const simt_dim g = cfg->grid, b = cfg->block;
    if (!g.x || !g.y || !g.z || !b.x || !b.y || !b.z) {
        sim_set_error(SIM_ERR_INVALID_CONFIGURATION,
                      "launch of %s with grid (%u,%u,%u) and block (%u,%u,%u): every dimension must be at least 1",
                      k, g.x, g.y, g.z, b.x, b.y, b.z);
        return -1;
    }
    uint64_t threads = (uint64_t)b.x * b.y * b.z;
    if (threads > d->max_threads_per_block || b.x > d->max_block[0] || b.y > d->max_block[1] || b.z > d->max_block[2]) {
        sim_set_error(SIM_ERR_INVALID_CONFIGURATION,
                      "launch of %s: block (%u,%u,%u) has %llu threads; %s allows at most %u threads per block and "
                      "block dimensions of at most (%u,%u,%u); use a smaller block and more blocks",
                      k, b.x, b.y, b.z, (unsigned long long)threads, d->name, d->max_threads_per_block,
                      d->max_block[0], d->max_block[1], d->max_block[2]);
        return -1;
    }
    if (g.x > d->max_grid[0] || g.y > d->max_grid[1] || g.z > d->max_grid[2]) {
        sim_set_error(SIM_ERR_INVALID_CONFIGURATION,
                      "launch of %s: grid (%u,%u,%u) exceeds %s's grid limit (%u,%u,%u)", k, g.x, g.y, g.z,
                      d->name, d->max_grid[0], d->max_grid[1], d->max_grid[2]);
        return -1;
    }
    if (cfg->shared_bytes > max_dynamic_shared) {
        if (cfg->shared_bytes > d->shared_per_block_optin)
            sim_set_error(SIM_ERR_INVALID_VALUE,
                          "launch of %s: %zu bytes of dynamic shared memory per block; %s allows at most %zu bytes "
                          "(%zu KB); use smaller tiles",
                          k, cfg->shared_bytes, d->name, d->shared_per_block_optin, d->shared_per_block_optin >> 10);
        else
            sim_set_error(SIM_ERR_INVALID_VALUE,
                          "launch of %s: %zu bytes of dynamic shared memory per block exceeds the %zu-byte limit; "
                          "above %zu KB a kernel must opt in (cudaFuncSetAttribute(kernel, "
                          "cudaFuncAttributeMaxDynamicSharedMemorySize, bytes); in C, sim_set_max_dynamic_shared), "
                          "up to %zu bytes on %s",
                          k, cfg->shared_bytes, max_dynamic_shared, d->shared_per_block >> 10,
                          d->shared_per_block_optin, d->name);
        return -1;
    }
    return 0;
}

/* Source location of a return address inside a kernel (sim_resolve_pcs):
 * fills fn ("scale_v1") and loc ("scale.cu:35"); empty when unknown. */
static void resolve_pc(uintptr_t pc, char *fn, size_t fn_n, char *loc, size_t loc_n)
{
    fn[0] = loc[0] = 0;
    sim_pc_source src;
    if (!pc || sim_resolve_pcs(&pc, 1, &src) || !src.file[0])
        return;
    snprintf(fn, fn_n, "%s", src.fn);
    snprintf(loc, loc_n, "%s:%d", basename_of(src.file), src.line);
}

/* fn (addr2line -C) is a copy or move constructor or assignment, "P::P(P const&)",
 * "ns::S<int>::operator=(ns::S<int>&&)": a struct holding one of the shim's vectors gets a
 * constructor of its own (implicit, at the struct's line), and its accesses belong to the line
 * that copies (`P q = p[i];`), as with a trivially copied struct. */
static int copy_member(const char *fn)
{
    const char *paren = NULL;
    int depth = 0;
    for (const char *c = fn; *c && !paren; c++) { /* the parameters' '(' outside template arguments */
        depth += (*c == '<') - (*c == '>');
        if (*c == '(' && depth == 0)
            paren = c;
    }
    if (!paren)
        return 0;
    const char *sep = NULL; /* the last "::" before it, outside template arguments */
    depth = 0;
    for (const char *c = fn; c < paren; c++) {
        depth += (*c == '<') - (*c == '>');
        if (depth == 0 && c[0] == ':' && c[1] == ':')
            sep = c;
    }
    if (!sep)
        return 0;
    const size_t qn = (size_t)(sep - fn); /* the class, qualified, with its template arguments */
    const char *member = sep + 2;
    const size_t mn = (size_t)(paren - member);
    const char *simple = fn; /* the class's own name, without namespaces or template arguments */
    depth = 0;
    for (const char *c = fn; c < sep; c++) {
        depth += (*c == '<') - (*c == '>');
        if (depth == 0 && c[0] == ':' && c[1] == ':')
            simple = c + 2;
    }
    size_t sn = strcspn(simple, "<:");
    const int ctor = mn == sn && !strncmp(member, simple, sn);
    const int assign = mn == 9 && !strncmp(member, "operator=", 9);
    if (!ctor && !assign)
        return 0;
    const char *arg = paren + 1;
    if (strncmp(arg, fn, qn))
        return 0;
    arg += qn;
    return !strcmp(arg, " const&)") || !strcmp(arg, "&&)") || !strcmp(arg, "&)");
}

/* Runs addr2line -f -C -e file addr... and parses its two lines per address. */
static int addr2line_batch(const char *file, uintptr_t base, const uintptr_t *pcs, const size_t *idx, size_t n,
                           sim_pc_source *out)
{
    char **argv = calloc(n + 8, sizeof *argv), *addrs = malloc(n * 24);
    if (!argv || !addrs) {
        free(argv);
        free(addrs);
        return -1;
    }
    /* -i: the inline chain, innermost first; -a: each address's output starts with it */
    argv[0] = "addr2line", argv[1] = "-a", argv[2] = "-i", argv[3] = "-f", argv[4] = "-C", argv[5] = "-e";
    argv[6] = (char *)file;
    for (size_t i = 0; i < n; i++) {
        snprintf(addrs + i * 24, 24, "0x%llx", (unsigned long long)(pcs[idx[i]] - 1 - base));
        argv[7 + i] = addrs + i * 24;
    }
    int fd[2], rc = -1;
    if (pipe2(fd, O_CLOEXEC) == 0) {
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
        posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
        extern char **environ;
        pid_t child;
        int sp = posix_spawnp(&child, "addr2line", &fa, NULL, argv, environ);
        posix_spawn_file_actions_destroy(&fa);
        close(fd[1]);
        if (sp == 0) {
            FILE *f = fdopen(fd[0], "r");
            char *fn = NULL, *loc = NULL; /* whole lines: a long template's name must not split one */
            size_t fn_cap = 0, loc_cap = 0;
            size_t i = 0;
            sim_pc_source *o = NULL;
            int settled = 0; /* this address has its frame */
            while (f && getline(&fn, &fn_cap, f) > 0) {
                if (!strncmp(fn, "0x", 2)) { /* the next address */
                    if (i == n)
                        break;
                    o = &out[idx[i++]];
                    settled = 0;
                    continue;
                }
                if (!o || getline(&loc, &loc_cap, f) <= 0)
                    break;
                if (settled)
                    continue;
                fn[strcspn(fn, "\n")] = 0;
                loc[strcspn(loc, "\n")] = 0;
                char *disc = strstr(loc, " (discriminator");
                if (disc)
                    *disc = 0;
                char *colon = strrchr(loc, ':');
                if (colon && loc[0] != '?') {
                    *colon = 0;
                    o->line = atoi(colon + 1);
                    snprintf(o->file, sizeof o->file, "%s", loc);
                    snprintf(o->fn, sizeof o->fn, "%s", fn[0] == '?' ? "" : fn);
                    /* a frame inlined from `simtlab run`'s shim headers (a __half's conversion, an
                     * atomic's wrapper): the program's frame that called it is the line to name */
                    settled = !strstr(loc, "/sim/run/include/") && !copy_member(o->fn);
                }
            }
            free(fn);
            free(loc);
            if (f)
                fclose(f);
            else
                close(fd[0]);
            while (waitpid(child, NULL, 0) < 0 && errno == EINTR)
                ;
            rc = i == n ? 0 : -1;
        } else
            close(fd[0]);
    }
    free(argv);
    free(addrs);
    return rc;
}

int sim_resolve_pcs(const uintptr_t *pcs, size_t n, sim_pc_source *out)
{
    memset(out, 0, n * sizeof *out);
    size_t *idx = malloc((n ? n : 1) * sizeof *idx);
    char *done = calloc(n ? n : 1, 1);
    if (!idx || !done) {
        free(idx);
        free(done);
        return -1;
    }
    int rc = 0;
    char exe[64];
    snprintf(exe, sizeof exe, "/proc/%d/exe", (int)getpid());
    Dl_info self;
    const void *self_base = dladdr((void *)sim_resolve_pcs, &self) ? self.dli_fbase : NULL;
    for (size_t i = 0; i < n; i++) { /* one addr2line per object file */
        if (done[i])
            continue;
        Dl_info info;
        if (!pcs[i] || !dladdr((void *)pcs[i], &info) || !info.dli_fbase) {
            done[i] = 1;
            rc = -1;
            continue;
        }
        size_t m = 0;
        for (size_t j = i; j < n; j++) {
            Dl_info o;
            if (!done[j] && pcs[j] && dladdr((void *)pcs[j], &o) && o.dli_fbase == info.dli_fbase) {
                idx[m++] = j;
                done[j] = 1;
            }
        }
        const char *file = info.dli_fbase != self_base && info.dli_fname && info.dli_fname[0] ? info.dli_fname : exe;
        if (addr2line_batch(file, (uintptr_t)info.dli_fbase, pcs, idx, m, out))
            rc = -1;
    }
    free(idx);
    free(done);
    return rc;
}

/* The name of the kernel function starting at p (a function pointer's value), as its source
 * writes it: 0, or -1 when p is not in kernel code or its name is unknown. addr2line's
 * demangled "void scale<int>(int*, int)" becomes "scale<int>". */
int sim_kernel_name_at(const void *p, char *out, size_t n)
{
    out[0] = 0;
    const uintptr_t pc = (uintptr_t)p + 1; /* sim_resolve_pcs looks up pc - 1: a return address's call */
    sim_pc_source src;
    if (!p || !sim_in_kernel_text((uintptr_t)p) || sim_resolve_pcs(&pc, 1, &src) || !src.fn[0] || src.fn[0] == '?')
        return -1;
    const char *f = src.fn, *start = f, *end = f + strlen(f);
    int depth = 0;
    for (const char *q = f; *q; q++) { /* the parameter list's '(' outside <>; the last space before it */
        if (*q == '<')
            depth++;
        else if (*q == '>')
            depth--;
        else if (depth == 0 && *q == ' ')
            start = q + 1;
        else if (depth == 0 && *q == '(') {
            end = q;
            break;
        }
    }
    if (end <= start)
        return -1;
    snprintf(out, n, "%.*s", (int)(end - start), start);
    return 0;
}

/* ---- where the blocks would run (the time model's busiest SM) ---------------------- */
/* Each block's work, by block index (kept between launches). NULL past
 * SIM_SCHED_MAX_BLOCKS blocks or out of memory: the time model then takes the
 * blocks as even. */
static uint64_t *sched_buffer(uint64_t nblocks)
{
    static uint64_t *buf;
    static uint64_t cap;
    if (nblocks > SIM_SCHED_MAX_BLOCKS)
        return NULL;
    if (nblocks > cap) {
        uint64_t *b = realloc(buf, nblocks * sizeof *b);
        if (!b)
            return NULL;
        buf = b;
        cap = nblocks;
    }
    memset(buf, 0, nblocks * sizeof *buf);
    return buf;
}

/* Blocks in index order, each to the SM with the least work so far (the
 * lowest-numbered on a tie, so a first wave goes round the SMs): a list
 * schedule, as the block scheduler hands the next block to the SM that
 * frees room first. A min-heap of SMs keyed by (work, index). n = 0 (a launch
 * that did not finish) leaves the counters at 0. */
static void sched_place(const uint64_t *work, uint64_t n, unsigned sms, sim_counters *c)
{
    if (!n || !sms)
        return;
    uint64_t *load = calloc(sms, sizeof *load), *cnt = calloc(sms, sizeof *cnt);
    unsigned *heap = malloc(sms * sizeof *heap);
    if (!load || !cnt || !heap) {
        free(load), free(cnt), free(heap);
        return;
    }
    for (unsigned i = 0; i < sms; i++)
        heap[i] = i; /* all zero: already a heap in index order */
#define SCHED_LESS(a, b) (load[a] < load[b] || (load[a] == load[b] && (a) < (b)))
    uint64_t total = 0, largest = 0;
    for (uint64_t b = 0; b < n; b++) {
        unsigned s = heap[0];
        uint64_t wk = work[b];
        load[s] += wk ? wk : 1; /* an empty block still takes its turn */
        cnt[s]++;
        total += wk;
        largest = wk > largest ? wk : largest;
        for (unsigned i = 0;;) { /* sift the root down */
            unsigned l = 2 * i + 1, r = l + 1, m = i;
            if (l < sms && SCHED_LESS(heap[l], heap[m]))
                m = l;
            if (r < sms && SCHED_LESS(heap[r], heap[m]))
                m = r;
            if (m == i)
                break;
            unsigned t = heap[i];
            heap[i] = heap[m];
            heap[m] = t;
            i = m;
        }
    }
#undef SCHED_LESS
    unsigned busiest = 0;
    uint64_t most = cnt[0];
    for (unsigned i = 1; i < sms; i++) {
        if (load[i] > load[busiest])
            busiest = i;
        most = cnt[i] > most ? cnt[i] : most;
    }
    c->sched_work = total;
    c->sched_sm_work = load[busiest] < total ? load[busiest] : total;
    c->sched_sm_blocks = cnt[busiest];
    c->sched_block_work = largest;
    c->sched_max_blocks = most;
    free(load), free(cnt), free(heap);
}

/* " (in fn, file:line)" or " (file:line)" for a pc of kernel (its function named when it is not
 * the kernel's own), or "" where it has no line. */
static void pc_where(uintptr_t pc, const char *kernel, char *where, size_t n)
{
    char fn[256], loc[300];
    where[0] = 0;
    resolve_pc(pc, fn, sizeof fn, loc, sizeof loc);
    size_t kl = strlen(kernel); /* C++: addr2line -C names "k(float*, int)" or "void k<float>(...)" */
    int same = !strncmp(fn, kernel, kl) && (fn[kl] == 0 || fn[kl] == '(');
    if (loc[0] && !same)
        snprintf(where, n, " (in %s, %s)", fn, loc);
    else if (loc[0])
        snprintf(where, n, " (%s)", loc);
}

/* pc_where for a finding: the line sim_access_at named, where it did. */
static void rec_where(const sim_err_rec *r, const char *kernel, char *where, size_t n)
{
    if (r->site_file)
        snprintf(where, n, " (%s:%d)", basename_of(r->site_file), r->site_line);
    else
        pc_where(r->pc, kernel, where, n);
}

/* A race's other access, as a line of its own after the finding's "in kernel" line: "" when
 * its line is not known. */
static void other_where(const sim_err_rec *r, const char *kernel, char *out, size_t n)
{
    char where[600];
    out[0] = 0;
    if (!r->other_pc)
        return;
    pc_where(r->other_pc, kernel, where, sizeof where);
    if (where[0])
        snprintf(out, n, "\n    and the other thread's %s: in kernel %s%s, thread (%u,%u,%u)",
                 r->other_wr ? "write" : "read", kernel, where, r->other_tid.x, r->other_tid.y, r->other_tid.z);
}

/* The note of a race counting mode's sample saw (sim_launch_info.race_note). */
static void race_note(const sim_err_rec *r, const char *kernel)
{
    char where[600], other[700];
    rec_where(r, kernel, where, sizeof where);
    other_where(r, kernel, other, sizeof other);
    snprintf(last_info.race_note, sizeof last_info.race_note,
             "%s\n    in kernel %s%s, block (%u,%u,%u), thread (%u,%u,%u)%s; seen in counting mode's sample of the "
             "grid's first and last blocks, so its results may not be a GPU's; --detail checks every access and "
             "stops at the first race",
             r->text, kernel, where, r->block.x, r->block.y, r->block.z, r->thread.x, r->thread.y, r->thread.z, other);
}

/* The note of a race on global memory (sim_launch_info.global_race_note). */
static void global_race_note(const sim_err_rec *r, const char *kernel)
{
    char where[600], other[700];
    rec_where(r, kernel, where, sizeof where);
    other_where(r, kernel, other, sizeof other);
    snprintf(last_info.global_race_note, sizeof last_info.global_race_note,
             "%s\n    in kernel %s%s, block (%u,%u,%u), thread (%u,%u,%u)%s%s", r->text, kernel, where, r->block.x,
             r->block.y, r->block.z, r->thread.x, r->thread.y, r->thread.z,
             detailed_mode ? "" : "; seen in counting mode's sample (--detail checks every access)", other);
}

/* The note of a shuffle that read a lane not taking part (sim_launch_info.undef_note). */
static void undef_note(const sim_err_rec *r, const char *kernel)
{
    snprintf(last_info.undef_note, sizeof last_info.undef_note,
             "%s\n    in kernel %s, block (%u,%u,%u), thread (%u,%u,%u); the launch went on (a GPU does not fault "
             "either), but code that uses the value relies on what CUDA does not promise",
             r->text, kernel, r->block.x, r->block.y, r->block.z, r->thread.x, r->thread.y, r->thread.z);
}

int sim_launch(const simt_cfg *cfg, const char *kernel, void (*thunk)(const void *), const void *args)
{
    memset(&last_info, 0, sizeof last_info);
    pc_all_n = 0;
    snprintf(last_info.kernel, sizeof last_info.kernel, "%s", kernel);
    last_info.cfg = *cfg;
    if (env_settings() || check_cfg(cfg, kernel) || sim_memory_init()) {
        last_info.status = last_status;
        return last_status;
    }
    if (!tls_memsz)
        dl_iterate_phdr(find_tls, NULL);
    sim_access_init_segments();
    sim_fault_handler_install();
    if (atomic_load(&wd_interrupt)) { /* the run was interrupted: no launch after that one (a lesson's next) */
        sim_set_error(SIM_ERR_LAUNCH_TIMEOUT, "launch of %s not run: the run was interrupted (%s) during an earlier one",
                      kernel, atomic_load(&wd_interrupt) == SIGINT ? "SIGINT: Ctrl-C" : "SIGTERM");
        last_info.status = last_status;
        return last_status;
    }
    if (sim_l2_launch_begin(cfg, (uint64_t)cfg->grid.x * cfg->grid.y * cfg->grid.z)) {
        sim_set_error(SIM_ERR_MEMORY_ALLOCATION, "cannot set up the L2 model for %s (out of host memory)", kernel);
        last_info.status = last_status;
        return last_status;
    }
    if (env_timeout_s > 0 && wd_arm(env_timeout_s)) {
        last_info.status = last_status;
        return last_status;
    }
    if (env_timeout_s <= 0) { /* no watchdog: nothing stops the launch (on_interrupt, phase 2) */
        atomic_store(&wd_fired, 0);
        atomic_store(&launch_phase, 2);
    }

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    const uint64_t nblocks = (uint64_t)cfg->grid.x * cfg->grid.y * cfg->grid.z;
    const unsigned nthreads = cfg->block.x * cfg->block.y * cfg->block.z;
    const uint32_t nalloc = sim_arena.n_allocs;
    _Atomic uint64_t next_block = 0, abort_at = UINT64_MAX;
    atomic_store(&launch_faulted, 0);
    const uint64_t chunk = nblocks / ((uint64_t)sim_worker_count() * 256) + 1;
    sim_counters total;
    memset(&total, 0, sizeof total);
    /* the workers' most-hit atomic words, merged */
    struct sim_atom_word fp_all[SIM_FP_ATOM_SLOTS] = {{0, 0}}, int_all[SIM_FP_ATOM_SLOTS] = {{0, 0}};
    uint64_t *blk_work = sched_buffer(nblocks);
    sim_err_rec err, race, undef, grace;
    int has_err = 0, has_race = 0, has_undef = 0, has_grace = 0, setup_failed = 0;
    uint64_t blocks_run = 0;

#ifdef _OPENMP
#pragma omp parallel
#endif
    {
        sim_worker *w = worker_get();
        uintptr_t lo = 0, hi = 0;
        if (!w || tls_window(&lo, &hi)) {
#ifdef _OPENMP
#pragma omp atomic write
#endif
            setup_failed = w ? 2 : 1;
        } else {
            w->tls_lo = lo;
            w->tls_hi = hi;
            if (w->stack_bytes != stack_bytes_wanted())
                stacks_resize(w, stack_bytes_wanted());
            if (!w->shadow_tls) /* the TLS block has the same size on every thread */
                w->shadow_tls = calloc((hi - lo) / 4 + 1, sizeof(sim_shadow));
            w->dyn_win_lo = (uintptr_t)w->dyn_map;
            w->dyn_lo = (uintptr_t)w->dyn_map + SIM_GUARD_BYTES;
            w->dyn_hi = w->dyn_lo + cfg->shared_bytes;
            w->dyn_win_hi = w->dyn_lo + w->dyn_cap + SIM_GUARD_BYTES;
            w->detailed = detailed_mode && w->shadow_tls;
            w->glob_slow = w->detailed;
            window_limits(w);
            w->pcprof = w->detailed && line_profile;
            memset(&w->c, 0, sizeof w->c);
            memset(w->fp_atom, 0, sizeof w->fp_atom);
            memset(w->int_atom, 0, sizeof w->int_atom);
            memset(w->alloc_ctr, 0, sizeof(uint64_t[2]) * nalloc);
            w->has_err = 0;
            w->has_race = 0;
            w->has_undef = 0;
            w->has_grace = 0;
            w->l2_n = w->l2_done = 0;
            w->l2_nbatch = 0;
            w->l2_lim = w->l2_alloc < SIM_TRACE_CHUNK ? w->l2_alloc : SIM_TRACE_CHUNK;
            w->l2_last = w->l2_last2 = ~0ull;
            w->thunk = thunk;
            w->args = args;
            w->n_threads = nthreads;
            threads_init(w, cfg);
            w->block_dim = (dim3){cfg->block.x, cfg->block.y, cfg->block.z};
            w->grid_dim = (dim3){cfg->grid.x, cfg->grid.y, cfg->grid.z};
            w->cur = NULL;
            w->timed_out = 0;
            w->timeout_thread = NULL;
            w->in_launch = 1;
            uint64_t my_blocks = 0;
            sim_tls_worker = w;
            sim_tls_fast = w;
            /* blocks are taken `chunk` at a time, in increasing order: a shared
             * counter bounced between cores at every block costs more than
             * a small block; a few chunks per worker keep the load balanced */
            for (int stop = 0; !stop;) {
                uint64_t b0 = atomic_fetch_add(&next_block, chunk);
                for (uint64_t b = b0; b < b0 + chunk; b++) {
                    if (b >= nblocks || b > atomic_load_explicit(&abort_at, memory_order_relaxed) ||
                        w->timed_out || atomic_load_explicit(&wd_fired, memory_order_relaxed)) {
                        stop = 1;
                        break;
                    }
                    uint64_t sram0 = w->c.sram_read_bytes + w->c.sram_write_bytes;
                    w->blk_gacc = 0;
                    w->spins_after_fault = 0;
                    w->spin_pc = 0;
                    if ((b == 0 || b == nblocks - 1) && !w->detailed && sample_on)
                        sample_start(w);
                    run_block(w, b, cfg);
                    w->c.global_accesses += w->blk_gacc;
                    if (blk_work)
                        blk_work[b] = w->c.sram_read_bytes + w->c.sram_write_bytes - sram0 + 4 * w->blk_gacc;
                    if (!w->block_failed && !w->timed_out) /* finished: the timeout report counts these */
                        my_blocks++;
                    if (w->vol_thread) /* a volatile access's last thread ended the block */
                        sim_vol_fire(w, 0);
                    sim_l2_block_done(w, b);
                    if (w->block_failed) {
                        if (w->has_err)
                            atomic_store_explicit(&launch_faulted, 1, memory_order_relaxed);
                        uint64_t cur = atomic_load(&abort_at);
                        while (b < cur && !atomic_compare_exchange_weak(&abort_at, &cur, b))
                            ;
                    }
                }
            }
            sim_l2_worker_flush(w); /* the blocks it finished last */
            w->in_launch = 0;
            w->detailed &= ~SIM_DETAILED_TIMEOUT;
            w->glob_slow = w->detailed;
            sim_tls_worker = NULL;
            sim_tls_fast = &sim_idle_worker;
#ifdef _OPENMP
#pragma omp critical(sim_merge)
#endif
            {
                blocks_run += my_blocks;
                uint64_t *dst = (uint64_t *)&total, *src = (uint64_t *)&w->c;
                for (size_t i = 0; i < sizeof total / sizeof(uint64_t); i++)
                    dst[i] += src[i];
                for (uint32_t i = 1; i < nalloc; i++) {
                    sim_allocs[i].read_bytes += w->alloc_ctr[i][0];
                    sim_allocs[i].write_bytes += w->alloc_ctr[i][1];
                    total.hbm_read_bytes += w->alloc_ctr[i][0];
                    total.hbm_write_bytes += w->alloc_ctr[i][1];
                }
                if (w->pcprof)
                    sim_pc_merge(w, &pc_all, &pc_all_n, &pc_all_cap);
                atom_words_merge(fp_all, w->fp_atom);
                atom_words_merge(int_all, w->int_atom);
                if (w->has_err && (!has_err || w->err.block_linear < err.block_linear)) {
                    err = w->err;
                    has_err = 1;
                }
                if (w->has_race && (!has_race || w->race.block_linear < race.block_linear)) {
                    race = w->race;
                    has_race = 1;
                }
                if (w->has_undef && (!has_undef || w->undef.block_linear < undef.block_linear)) {
                    undef = w->undef;
                    has_undef = 1;
                }
                if (w->has_grace && (!has_grace || w->grace.block_linear < grace.block_linear)) {
                    grace = w->grace;
                    has_grace = 1;
                }
            }
        }
    }
    for (unsigned i = 0; i < SIM_FP_ATOM_SLOTS; i++) {
        if (fp_all[i].n > total.atom_fp_one_word)
            total.atom_fp_one_word = fp_all[i].n;
        if (int_all[i].n > total.atom_int_one_word)
            total.atom_int_one_word = int_all[i].n;
    }
    if (blk_work)
        sched_place(blk_work, blocks_run < nblocks ? 0 : nblocks, sim_get_device()->sm_count, &total);
    sim_l2_launch_end(&total); /* after sched_place: its background cleaning runs for the time model's time */
    int fired = env_timeout_s > 0 && atomic_load(&wd_fired);
    if (env_timeout_s > 0)
        wd_disarm();
    else
        atomic_store(&launch_phase, 0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    last_info.wall_ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
    last_info.c = total;
    if (has_race) /* counting mode's sample saw one: a note beside whatever the launch returns */
        race_note(&race, kernel);
    if (has_undef)
        undef_note(&undef, kernel);
    if (has_grace)
        global_race_note(&grace, kernel);
    if (setup_failed) {
        sim_set_error(SIM_ERR_MEMORY_ALLOCATION, "%s",
                      setup_failed == 1 ? "cannot set up a simulator worker (out of host memory)"
                                        : "simtlab's sim library must be linked into the executable itself (not a "
                                          "shared library): its shared-memory model uses the executable's TLS block");
        last_info.status = last_status;
        return last_status;
    }
    if (fired && !has_err && blocks_run < nblocks && atomic_load(&wd_interrupt)) {
        sim_set_error(SIM_ERR_LAUNCH_TIMEOUT, "launch of %s was interrupted (%s) after %llu of its %llu blocks", kernel,
                      atomic_load(&wd_interrupt) == SIGINT ? "SIGINT: Ctrl-C" : "SIGTERM",
                      (unsigned long long)blocks_run, (unsigned long long)nblocks);
        last_info.status = last_status;
        return last_status;
    }
    if (fired && !has_err && blocks_run < nblocks) { /* stopped between blocks */
        sim_set_error(SIM_ERR_LAUNCH_TIMEOUT,
                      "launch of %s ran longer than SIMTLAB_TIMEOUT=%ld s and was stopped after %llu of its %llu "
                      "blocks; set SIMTLAB_TIMEOUT to more seconds for a long kernel, or 0 to turn the watchdog off",
                      kernel, env_timeout_s, (unsigned long long)blocks_run, (unsigned long long)nblocks);
        last_info.status = last_status;
        return last_status;
    }
    if (has_err) {
        char where[600], other[700];
        rec_where(&err, kernel, where, sizeof where);
        other_where(&err, kernel, other, sizeof other);
        char progress[320] = "";
        if (err.status == SIM_ERR_LAUNCH_TIMEOUT && atomic_load(&wd_interrupt))
            snprintf(progress, sizeof progress, "\n    %llu of the grid's %llu blocks had finished",
                     (unsigned long long)blocks_run, (unsigned long long)nblocks);
        else if (err.status == SIM_ERR_LAUNCH_TIMEOUT) /* a long kernel or a hang: how far the grid got says which */
            snprintf(progress, sizeof progress,
                     "\n    %llu of the grid's %llu blocks had finished (a long kernel, not a hang, if this count grows "
                     "with SIMTLAB_TIMEOUT: every thread runs on this CPU, and a smaller problem may be the fix)",
                     (unsigned long long)blocks_run, (unsigned long long)nblocks);
        sim_set_error(err.status, "%s\n    in kernel %s%s, block (%u,%u,%u), thread (%u,%u,%u)%s%s", err.text, kernel,
                      where, err.block.x, err.block.y, err.block.z, err.thread.x, err.thread.y, err.thread.z, other,
                      progress);
        last_info.status = err.status;
        return err.status;
    }
    last_info.status = SIM_OK;
    return SIM_OK;
}
