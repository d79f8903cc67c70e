/* sim/run/cudart.c - the CUDA runtime API of simtlab_cudart.h over the
 * simulator, and what `simtlab run` reports about a program's launches: a
 * report for each failed launch, the per-line table of --lines after each
 * launch, a summary of every launch at exit (stderr: the program's stdout
 * stays its own), and --json.
 *
 * The driver (sim/run/run.c) passes its options in the environment:
 *   SIMTLAB_RUN_DETAIL=1   warp-level counters (sectors, wavefronts, conflicts)
 *   SIMTLAB_RUN_LINES=1    per-line counters (implies detail)
 *   SIMTLAB_RUN_JSON=PATH  one object per launch, written at exit
 *   SIMTLAB_RUN_ARCH=NAME  the device preset (sim_device_find)
 * A bad value is reported once and the launch fails with cudaErrorInvalidValue.
 */
#define _GNU_SOURCE
#include "simtlab_cudart.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <execinfo.h>
#include <string.h>
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

#include "kernel_json.h"
#include "launch.h"
#include "memory.h"
#include "run_report.h"

/* ---- options and state ------------------------------------------------------ */
#define SIMTLAB_CLOCK_KHZ 1755000LL /* cudaDeviceProp.clockRate, every preset; clock64()'s rate */
static int inited, opt_detail, opt_lines;
static const char *opt_json;
/* last_err: cudaGetLastError's; sticky_err: a kernel's fault once the program has seen it, which every
 * call answers from then on (a GPU's context is lost); pending_err: a kernel's fault the program has
 * not seen yet. CUDA shows a kernel's fault where the host waits for the GPU, not at its launch (the
 * kernel has not run when <<<>>> returns): the next call that waits (ENTER_SYNC: cudaDeviceSynchronize,
 * cudaStreamSynchronize, a synchronous cudaMemcpy, cudaFree, ...) makes it sticky, and
 * cudaGetLastError right after the launch returns cudaSuccess, as it does on a GPU. The simulator
 * runs the kernel inside <<<>>>, so without this a student's `cudaGetLastError()` after a launch
 * caught what only the synchronizing call catches on a GPU. */
static cudaError_t last_err, sticky_err, pending_err;
/* An Async call running its synchronous form (cudaMemcpy2DAsync -> cudaMemcpy2D, the symbol copies'
 * Async templates): no point where a pending fault shows (ASYNC_AS below) */
static _Thread_local int async_call;
void simtlab_async_call(int on) { async_call = on; }
#define ASYNC_AS(call)                                                                             \
    do {                                                                                           \
        async_call = 1;                                                                            \
        const cudaError_t async_e_ = (call);                                                       \
        async_call = 0;                                                                            \
        return async_e_;                                                                           \
    } while (0)
static double clock_ms; /* the simulated GPU's clock: when its queued work ends (see simtlab_cudart.h) */
static unsigned n_allocs;

static launch_rec *recs;
static size_t n_recs, cap_recs;

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("simtlab: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static void at_exit(void);
static void stop_in_host_code(int sig);
static int stop_may_wait(void);

static cudaError_t init(void)
{
    if (inited)
        return inited > 0 ? cudaSuccess : cudaErrorInitializationError;
    inited = 1;
    const char *v;
    if ((v = getenv("SIMTLAB_RUN_DETAIL")) && strcmp(v, "0"))
        opt_detail = 1;
    if ((v = getenv("SIMTLAB_RUN_LINES")) && strcmp(v, "0"))
        opt_lines = opt_detail = 1;
    if ((v = getenv("SIMTLAB_RUN_JSON")) && v[0])
        opt_json = v;
    if ((v = getenv("SIMTLAB_RUN_ARCH")) && v[0]) {
        const sim_device *d = sim_device_find(v);
        if (!d) {
            say("SIMTLAB_RUN_ARCH='%s' is not a device preset; use sm_80, sm_89, sm_90 or h200", v);
            inited = -1;
            return cudaErrorInitializationError;
        }
        sim_set_device(d);
    }
    sim_set_detailed(opt_detail);
    sim_set_line_profile(opt_lines);
    atexit(at_exit);
    if (sim_interrupt_hook(stop_in_host_code, stop_may_wait))
        say("%s; Ctrl-C in host code will end the program without the summary", sim_last_error());
    return cudaSuccess;
}

/* Runtime calls from simulated threads: host code a kernel's thread runs (a by-value
 * parameter's copy constructor and destructor run per thread here; a GPU runs neither on the
 * device). The OpenMP workers run threads at once, and the runtime and the simulator's
 * allocator are not thread-safe, so such calls take this lock (recursive: a call may make
 * another). Host threads take api_mu (below). */
static pthread_mutex_t kernel_mu = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static int kernel_lock(void)
{
    if (!sim_in_cuda_thread())
        return 0;
    pthread_mutex_lock(&kernel_mu);
    return 1;
}
static void kernel_unlock(int *held)
{
    if (*held)
        pthread_mutex_unlock(&kernel_mu);
}
/* ---- host threads -----------------------------------------------------------------------
 * A program's host threads may call the runtime at once (std::thread, OpenMP on the host). The
 * runtime's state (the host clock's counters below, the launch records, the last error) and the
 * simulator's allocator and launch are not thread-safe: one lock, api_mu, serialises the calls of
 * host threads, taken at a thread's outermost call (api_held counts its depth: a call may make
 * another) and held until it returns, a launch's simulation included, as a GPU's default stream
 * runs one thing at a time. Uncontended it is two atomic operations a call. Simulated threads'
 * calls take kernel_mu instead: the host thread that launched them holds api_mu meanwhile. */
static pthread_mutex_t api_mu = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local int api_held;
static _Atomic int api_stopping; /* stop_in_host_code is ending the program */
static int api_lock(void)
{
    if (sim_in_cuda_thread())
        return 0;
    if (api_held++ == 0) {
        /* no call starts once the program is being stopped: a thread calling the runtime in a loop
         * would take the lock again and again before the stopping thread (glibc's lock is not fair) */
        while (atomic_load_explicit(&api_stopping, memory_order_relaxed))
            pause(); /* until stop_in_host_code's _exit */
        pthread_mutex_lock(&api_mu);
    }
    return 1;
}
static void api_unlock(int *in)
{
    if (*in && --api_held == 0)
        pthread_mutex_unlock(&api_mu);
}

/* ---- the host's clock beside the GPU's --------------------------------------------------
 * An event is recorded when the GPU reaches it: after the work queued before it, and not before
 * the host queued it (an idle GPU's events time the host: olcf's hw8 times its CPU transpose
 * with events, which read 0 ms here before, "inf GB/s"). The host's clock is the program's own
 * time: wall time less what this runtime's calls took (a launch's simulation above all), plus
 * what the host waited at synchronizing calls for the GPU's clock. Under api_mu (host threads) or
 * kernel_mu (simulated threads, while the launching thread holds api_mu). With two host threads,
 * one's time inside a call is not the host's time for the other either: one clock for them all. */
static double host_t0, host_api_ms, host_wait_ms, api_entered;
static int api_depth;
static double wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}
static int api_enter(void)
{
    if (!api_lock())
        return 0;
    if (api_depth++ == 0) {
        api_entered = wall_ms();
        if (host_t0 == 0)
            host_t0 = api_entered;
    }
    return 1;
}
static void api_leave(int *in)
{
    if (*in && --api_depth == 0)
        host_api_ms += wall_ms() - api_entered;
    api_unlock(in);
}
/* The host's time on the GPU's clock: inside a call, when the call began. */
static double host_ms(void)
{
    return (api_depth ? api_entered : wall_ms()) - host_t0 - host_api_ms + host_wait_ms;
}
/* GPU work of ms queued now: it starts when the GPU is free and the host has queued it. */
static void gpu_work(double ms)
{
    const double h = host_ms();
    clock_ms = (clock_ms > h ? clock_ms : h) + ms;
}
/* A synchronizing call: the host waits until the GPU's clock. */
static void host_sync(void)
{
    const double h = host_ms();
    if (clock_ms > h)
        host_wait_ms += clock_ms - h;
}

/* A call's locks (kernel_mu in a simulated thread, api_mu in a host thread), held until it returns */
#define LOCKED()                                                                                  \
    __attribute__((cleanup(kernel_unlock))) int simtlab_held_ = kernel_lock();                    \
    (void)simtlab_held_;                                                                          \
    __attribute__((cleanup(api_unlock))) int simtlab_lock_ = api_lock();                          \
    (void)simtlab_lock_
/* Every API call starts here: the locks, the host clock, a sticky fault answers for all of them;
 * a call that waits for the GPU (sync) first makes a pending fault sticky (pending_err) */
#define ENTER_AS(sync)                                                                            \
    __attribute__((cleanup(kernel_unlock))) int simtlab_held_ = kernel_lock();                    \
    (void)simtlab_held_;                                                                          \
    __attribute__((cleanup(api_leave))) int simtlab_api_ = api_enter();                           \
    (void)simtlab_api_;                                                                           \
    do {                                                                                          \
        cudaError_t e_ = init();                                                                  \
        if ((sync) && !async_call && pending_err) {                                               \
            sticky_err = pending_err;                                                             \
            pending_err = cudaSuccess;                                                            \
        }                                                                                         \
        if (e_ == cudaSuccess && sticky_err)                                                      \
            e_ = sticky_err;                                                                      \
        if (e_)                                                                                   \
            return last_err = e_;                                                                 \
    } while (0)
#define ENTER() ENTER_AS(0)
#define ENTER_SYNC() ENTER_AS(1)

/* why, past the error's name where the simulator's message starts with it (it is said once) */
static const char *past_name(const char *why, const char *name)
{
    const size_t nl = strlen(name);
    return !strncmp(why, name, nl) && !strncmp(why + nl, ": ", 2) ? why + nl + 2 : why;
}

/* " at file:line" of the program's call into the runtime that is failing, from the stack: the
 * first frame whose source is not simtlab's own (sim/: the runtime and the simulator, whose
 * static libraries are linked into the program); "" where none has a line (no -g, a library). */
static void call_site(char *out, size_t n)
{
    const char *run_dir = strstr(__FILE__, "/sim/run/"); /* __FILE__'s .../sim/: the simulator's sources */
    const size_t sim_dir = run_dir ? (size_t)(run_dir - __FILE__) + 5 : 0;
    void *bt[24];
    const int depth = backtrace(bt, 24);
    uintptr_t pcs[24];
    sim_pc_source src[24];
    out[0] = 0;
    if (depth <= 1)
        return;
    for (int i = 1; i < depth; i++)
        pcs[i - 1] = (uintptr_t)bt[i] - 1; /* the call, not the instruction after it */
    if (sim_resolve_pcs(pcs, (size_t)(depth - 1), src))
        return;
    for (int i = 0; i < depth - 1; i++) {
        if (!src[i].line || !src[i].file[0])
            continue;
        if (sim_dir && !strncmp(src[i].file, __FILE__, sim_dir)) /* simtlab's own code: its caller next */
            continue;
        if (strstr(src[i].file, "/include/c++/") || !strncmp(src[i].file, "/usr/", 5)) /* std::, libc */
            return;
        const char *base = strrchr(src[i].file, '/') ? strrchr(src[i].file, '/') + 1 : src[i].file;
        snprintf(out, n, " at %s:%d", base, src[i].line);
        return;
    }
}

static cudaError_t fail(cudaError_t e, const char *fn, const char *why)
{
    const char *name = cudaGetErrorName(e);
    char at[320];
    call_site(at, sizeof at);
    why = past_name(why, name);
    const size_t colon = strcspn(why, ": ");
    if (!strncmp(why, "sim_", 4) && colon < 40 && why[colon] == ':' && why[colon + 1] == ' ' && why[colon + 2])
        why += colon + 2; /* the simulator's own function's name: the CUDA call is named already */
    say("%s%s returned %s: %s", fn, at, name, why);
    return last_err = e;
}

static cudaError_t of_status(sim_status s)
{
    switch (s) {
    case SIM_OK: return cudaSuccess;
    case SIM_ERR_INVALID_VALUE: return cudaErrorInvalidValue;
    case SIM_ERR_INVALID_CONFIGURATION: return cudaErrorInvalidConfiguration;
    case SIM_ERR_MEMORY_ALLOCATION: return cudaErrorMemoryAllocation;
    case SIM_ERR_INVALID_DEVICE_POINTER: return cudaErrorInvalidDevicePointer;
    case SIM_ERR_ILLEGAL_ADDRESS: return cudaErrorIllegalAddress;
    case SIM_ERR_MISALIGNED_ADDRESS: return cudaErrorMisalignedAddress;
    case SIM_ERR_LAUNCH_TIMEOUT: return cudaErrorLaunchTimeout;
    case SIM_ERR_ASSERT: return cudaErrorAssert;
    default: return cudaErrorLaunchFailure; /* divergent barrier, race, warp mask, stack, divide: see the report */
    }
}

/* clock() and clock64() in a kernel (cuda_runtime.h): the host's monotonic clock counted in
 * cycles of the clock rate cudaGetDeviceProperties reports, so a kernel that waits for N cycles
 * (NVIDIA's simpleHyperQ: clockRate x 10 ms) waits about N / rate seconds, as on a GPU (each read
 * first lets the block's other threads run: they wait together, not one after another), and two
 * reads in one thread never go back. Times taken with it are the simulator's, not a GPU's: the
 * simulator has no cycles (its time model predicts a kernel's time: docs/l2-model.md). Before
 * session 17 a kernel's clock() was the C library's, CPU microseconds: the sample's wait of
 * 17.6 million "cycles" took 17.6 s of CPU a kernel. */
long long simtlab_clock64(void)
{
    sim_clock_yield((uintptr_t)__builtin_return_address(0)); /* the block's other threads wait too */
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * SIMTLAB_CLOCK_KHZ * 1000 + (long long)t.tv_nsec * SIMTLAB_CLOCK_KHZ / 1000000;
}

/* assert() in a kernel: glibc's assert calls __assert_fail, which the program
 * takes from here (the executable's definition comes first): in a simulated
 * thread it is the simulator's report and cudaErrorAssert, as on a GPU; in
 * host code glibc's message and abort. */
void __assert_fail(const char *expr, const char *file, unsigned line, const char *func)
{
    sim_kernel_assert(expr, file, line, func);
    fprintf(stderr, "%s:%u: %s: Assertion `%s' failed.\n", file, line, func ? func : "?", expr);
    fflush(stderr);
    abort();
}

/* ---- errors --------------------------------------------------------------------- */
/* CUDA 13's codes with its names and texts (what libcudart's cudaGetErrorName/String return) */
static const struct {
    cudaError_t e;
    const char *name, *text;
} errs[] = {
    {cudaSuccess, "cudaSuccess", "no error"},
    {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {cudaErrorInitializationError, "cudaErrorInitializationError", "initialization error"},
    {cudaErrorCudartUnloading, "cudaErrorCudartUnloading", "driver shutting down"},
    {cudaErrorProfilerDisabled, "cudaErrorProfilerDisabled", "profiler disabled while using external profiling tool"},
    {cudaErrorProfilerNotInitialized, "cudaErrorProfilerNotInitialized", "profiler not initialized: call cudaProfilerInitialize()"},
    {cudaErrorProfilerAlreadyStarted, "cudaErrorProfilerAlreadyStarted", "profiler already started"},
    {cudaErrorProfilerAlreadyStopped, "cudaErrorProfilerAlreadyStopped", "profiler already stopped"},
    {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
    {cudaErrorInvalidPitchValue, "cudaErrorInvalidPitchValue", "invalid pitch argument"},
    {cudaErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol"},
    {cudaErrorInvalidHostPointer, "cudaErrorInvalidHostPointer", "invalid host pointer"},
    {cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {cudaErrorInvalidTexture, "cudaErrorInvalidTexture", "invalid texture reference"},
    {cudaErrorInvalidTextureBinding, "cudaErrorInvalidTextureBinding", "texture is not bound to a pointer"},
    {cudaErrorInvalidChannelDescriptor, "cudaErrorInvalidChannelDescriptor", "invalid channel descriptor"},
    {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
    {cudaErrorAddressOfConstant, "cudaErrorAddressOfConstant", "invalid address of constant"},
    {cudaErrorTextureFetchFailed, "cudaErrorTextureFetchFailed", "fetch from texture failed"},
    {cudaErrorTextureNotBound, "cudaErrorTextureNotBound", "cannot fetch from a texture that is not bound"},
    {cudaErrorSynchronizationError, "cudaErrorSynchronizationError", "incorrect use of __syncthreads()"},
    {cudaErrorInvalidFilterSetting, "cudaErrorInvalidFilterSetting", "linear filtering not supported for non-float type"},
    {cudaErrorInvalidNormSetting, "cudaErrorInvalidNormSetting", "read as normalized float not supported for data type"},
    {cudaErrorMixedDeviceExecution, "cudaErrorMixedDeviceExecution", "device emulation mode and device execution mode cannot be mixed"},
    {cudaErrorNotYetImplemented, "cudaErrorNotYetImplemented", "feature not yet implemented"},
    {cudaErrorMemoryValueTooLarge, "cudaErrorMemoryValueTooLarge", "memory size or pointer value too large to fit in 32 bit"},
    {cudaErrorStubLibrary, "cudaErrorStubLibrary", "CUDA driver is a stub library"},
    {cudaErrorInsufficientDriver, "cudaErrorInsufficientDriver", "CUDA driver version is insufficient for CUDA runtime version"},
    {cudaErrorCallRequiresNewerDriver, "cudaErrorCallRequiresNewerDriver", "API call is not supported in the installed CUDA driver"},
    {cudaErrorInvalidSurface, "cudaErrorInvalidSurface", "invalid surface reference"},
    {cudaErrorDuplicateVariableName, "cudaErrorDuplicateVariableName", "duplicate global variable looked up by string name"},
    {cudaErrorDuplicateTextureName, "cudaErrorDuplicateTextureName", "duplicate texture looked up by string name"},
    {cudaErrorDuplicateSurfaceName, "cudaErrorDuplicateSurfaceName", "duplicate surface looked up by string name"},
    {cudaErrorDevicesUnavailable, "cudaErrorDevicesUnavailable", "CUDA-capable device(s) is/are busy or unavailable"},
    {cudaErrorIncompatibleDriverContext, "cudaErrorIncompatibleDriverContext", "incompatible driver context"},
    {cudaErrorMissingConfiguration, "cudaErrorMissingConfiguration", "__global__ function call is not configured"},
    {cudaErrorPriorLaunchFailure, "cudaErrorPriorLaunchFailure", "unspecified launch failure in prior launch"},
    {cudaErrorLaunchMaxDepthExceeded, "cudaErrorLaunchMaxDepthExceeded", "launch would exceed maximum depth of nested launches"},
    {cudaErrorLaunchFileScopedTex, "cudaErrorLaunchFileScopedTex", "launch failed because kernel uses unsupported, file-scoped textures (texture objects are supported)"},
    {cudaErrorLaunchFileScopedSurf, "cudaErrorLaunchFileScopedSurf", "launch failed because kernel uses unsupported, file-scoped surfaces (surface objects are supported)"},
    {cudaErrorSyncDepthExceeded, "cudaErrorSyncDepthExceeded", "cudaDeviceSynchronize failed because caller's grid depth exceeds cudaLimitDevRuntimeSyncDepth"},
    {cudaErrorLaunchPendingCountExceeded, "cudaErrorLaunchPendingCountExceeded", "launch failed because launch would exceed cudaLimitDevRuntimePendingLaunchCount"},
    {cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {cudaErrorDeviceNotLicensed, "cudaErrorDeviceNotLicensed", "device doesn't have valid Grid license"},
    {cudaErrorSoftwareValidityNotEstablished, "cudaErrorSoftwareValidityNotEstablished", "integrity checks failed"},
    {cudaErrorStartupFailure, "cudaErrorStartupFailure", "startup failure in cuda runtime"},
    {cudaErrorInvalidKernelImage, "cudaErrorInvalidKernelImage", "device kernel image is invalid"},
    {cudaErrorDeviceUninitialized, "cudaErrorDeviceUninitialized", "invalid device context"},
    {cudaErrorMapBufferObjectFailed, "cudaErrorMapBufferObjectFailed", "mapping of buffer object failed"},
    {cudaErrorUnmapBufferObjectFailed, "cudaErrorUnmapBufferObjectFailed", "unmapping of buffer object failed"},
    {cudaErrorArrayIsMapped, "cudaErrorArrayIsMapped", "array is mapped"},
    {cudaErrorAlreadyMapped, "cudaErrorAlreadyMapped", "resource already mapped"},
    {cudaErrorNoKernelImageForDevice, "cudaErrorNoKernelImageForDevice", "no kernel image is available for execution on the device"},
    {cudaErrorAlreadyAcquired, "cudaErrorAlreadyAcquired", "resource already acquired"},
    {cudaErrorNotMapped, "cudaErrorNotMapped", "resource not mapped"},
    {cudaErrorNotMappedAsArray, "cudaErrorNotMappedAsArray", "resource not mapped as array"},
    {cudaErrorNotMappedAsPointer, "cudaErrorNotMappedAsPointer", "resource not mapped as pointer"},
    {cudaErrorECCUncorrectable, "cudaErrorECCUncorrectable", "uncorrectable ECC error encountered"},
    {cudaErrorUnsupportedLimit, "cudaErrorUnsupportedLimit", "limit is not supported on this architecture"},
    {cudaErrorDeviceAlreadyInUse, "cudaErrorDeviceAlreadyInUse", "exclusive-thread device already in use by a different thread"},
    {cudaErrorPeerAccessUnsupported, "cudaErrorPeerAccessUnsupported", "peer access is not supported between these two devices"},
    {cudaErrorInvalidPtx, "cudaErrorInvalidPtx", "a PTX JIT compilation failed"},
    {cudaErrorInvalidGraphicsContext, "cudaErrorInvalidGraphicsContext", "invalid OpenGL or DirectX context"},
    {cudaErrorNvlinkUncorrectable, "cudaErrorNvlinkUncorrectable", "uncorrectable NVLink error detected during the execution"},
    {cudaErrorJitCompilerNotFound, "cudaErrorJitCompilerNotFound", "PTX JIT compiler library not found"},
    {cudaErrorUnsupportedPtxVersion, "cudaErrorUnsupportedPtxVersion", "the provided PTX was compiled with an unsupported toolchain."},
    {cudaErrorJitCompilationDisabled, "cudaErrorJitCompilationDisabled", "PTX JIT compilation was disabled"},
    {cudaErrorUnsupportedExecAffinity, "cudaErrorUnsupportedExecAffinity", "the provided execution affinity is not supported"},
    {cudaErrorUnsupportedDevSideSync, "cudaErrorUnsupportedDevSideSync", "the provided PTX contains unsupported call to cudaDeviceSynchronize"},
    {cudaErrorContained, "cudaErrorContained", "Invalid access of peer GPU memory over nvlink or a hardware error"},
    {cudaErrorInvalidSource, "cudaErrorInvalidSource", "device kernel image is invalid"},
    {cudaErrorFileNotFound, "cudaErrorFileNotFound", "file not found"},
    {cudaErrorSharedObjectSymbolNotFound, "cudaErrorSharedObjectSymbolNotFound", "shared object symbol not found"},
    {cudaErrorSharedObjectInitFailed, "cudaErrorSharedObjectInitFailed", "shared object initialization failed"},
    {cudaErrorOperatingSystem, "cudaErrorOperatingSystem", "OS call failed or operation not supported on this OS"},
    {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {cudaErrorIllegalState, "cudaErrorIllegalState", "the operation cannot be performed in the present state"},
    {cudaErrorLossyQuery, "cudaErrorLossyQuery", "attempted introspection would be semantically lossy"},
    {cudaErrorSymbolNotFound, "cudaErrorSymbolNotFound", "named symbol not found"},
    {cudaErrorNotReady, "cudaErrorNotReady", "device not ready"},
    {cudaErrorIllegalAddress, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
    {cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources", "too many resources requested for launch"},
    {cudaErrorLaunchTimeout, "cudaErrorLaunchTimeout", "the launch timed out and was terminated"},
    {cudaErrorLaunchIncompatibleTexturing, "cudaErrorLaunchIncompatibleTexturing", "launch uses incompatible texturing mode"},
    {cudaErrorPeerAccessAlreadyEnabled, "cudaErrorPeerAccessAlreadyEnabled", "peer access is already enabled"},
    {cudaErrorPeerAccessNotEnabled, "cudaErrorPeerAccessNotEnabled", "peer access has not been enabled"},
    {cudaErrorSetOnActiveProcess, "cudaErrorSetOnActiveProcess", "cannot set while device is active in this process"},
    {cudaErrorContextIsDestroyed, "cudaErrorContextIsDestroyed", "context is destroyed"},
    {cudaErrorAssert, "cudaErrorAssert", "device-side assert triggered"},
    {cudaErrorTooManyPeers, "cudaErrorTooManyPeers", "peer mapping resources exhausted"},
    {cudaErrorHostMemoryAlreadyRegistered, "cudaErrorHostMemoryAlreadyRegistered", "part or all of the requested memory range is already mapped"},
    {cudaErrorHostMemoryNotRegistered, "cudaErrorHostMemoryNotRegistered", "pointer does not correspond to a registered memory region"},
    {cudaErrorHardwareStackError, "cudaErrorHardwareStackError", "hardware stack error"},
    {cudaErrorIllegalInstruction, "cudaErrorIllegalInstruction", "an illegal instruction was encountered"},
    {cudaErrorMisalignedAddress, "cudaErrorMisalignedAddress", "misaligned address"},
    {cudaErrorInvalidAddressSpace, "cudaErrorInvalidAddressSpace", "operation not supported on global/shared address space"},
    {cudaErrorInvalidPc, "cudaErrorInvalidPc", "invalid program counter"},
    {cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {cudaErrorCooperativeLaunchTooLarge, "cudaErrorCooperativeLaunchTooLarge", "too many blocks in cooperative launch"},
    {cudaErrorTensorMemoryLeak, "cudaErrorTensorMemoryLeak", "tensor memory not completely freed"},
    {cudaErrorNotPermitted, "cudaErrorNotPermitted", "operation not permitted"},
    {cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported"},
    {cudaErrorSystemNotReady, "cudaErrorSystemNotReady", "system not yet initialized"},
    {cudaErrorSystemDriverMismatch, "cudaErrorSystemDriverMismatch", "system has unsupported display driver / cuda driver combination"},
    {cudaErrorCompatNotSupportedOnDevice, "cudaErrorCompatNotSupportedOnDevice", "forward compatibility was attempted on non supported HW"},
    {cudaErrorMpsConnectionFailed, "cudaErrorMpsConnectionFailed", "MPS client failed to connect to the MPS control daemon or the MPS server"},
    {cudaErrorMpsRpcFailure, "cudaErrorMpsRpcFailure", "the remote procedural call between the MPS server and the MPS client failed"},
    {cudaErrorMpsServerNotReady, "cudaErrorMpsServerNotReady", "MPS server is not ready to accept new MPS client requests"},
    {cudaErrorMpsMaxClientsReached, "cudaErrorMpsMaxClientsReached", "the hardware resources required to create MPS client have been exhausted"},
    {cudaErrorMpsMaxConnectionsReached, "cudaErrorMpsMaxConnectionsReached", "the hardware resources required to support device connections have been exhausted"},
    {cudaErrorMpsClientTerminated, "cudaErrorMpsClientTerminated", "the MPS client has been terminated by the server"},
    {cudaErrorCdpNotSupported, "cudaErrorCdpNotSupported", "is using CUDA Dynamic Parallelism, but the current configuration, like MPS, does not support it"},
    {cudaErrorCdpVersionMismatch, "cudaErrorCdpVersionMismatch", "unsupported interaction between different versions of CUDA Dynamic Parallelism"},
    {cudaErrorStreamCaptureUnsupported, "cudaErrorStreamCaptureUnsupported", "operation not permitted when stream is capturing"},
    {cudaErrorStreamCaptureInvalidated, "cudaErrorStreamCaptureInvalidated", "operation failed due to a previous error during capture"},
    {cudaErrorStreamCaptureMerge, "cudaErrorStreamCaptureMerge", "operation would result in a merge of separate capture sequences"},
    {cudaErrorStreamCaptureUnmatched, "cudaErrorStreamCaptureUnmatched", "capture was not ended in the same stream as it began"},
    {cudaErrorStreamCaptureUnjoined, "cudaErrorStreamCaptureUnjoined", "capturing stream has unjoined work"},
    {cudaErrorStreamCaptureIsolation, "cudaErrorStreamCaptureIsolation", "dependency created on uncaptured work in another stream"},
    {cudaErrorStreamCaptureImplicit, "cudaErrorStreamCaptureImplicit", "operation would make the legacy stream depend on a capturing blocking stream"},
    {cudaErrorCapturedEvent, "cudaErrorCapturedEvent", "operation not permitted on an event last recorded in a capturing stream"},
    {cudaErrorStreamCaptureWrongThread, "cudaErrorStreamCaptureWrongThread", "attempt to terminate a thread-local capture sequence from another thread"},
    {cudaErrorTimeout, "cudaErrorTimeout", "wait operation timed out"},
    {cudaErrorGraphExecUpdateFailure, "cudaErrorGraphExecUpdateFailure", "the graph update was not performed because it included changes which violated constraints specific to instantiated graph update"},
    {cudaErrorExternalDevice, "cudaErrorExternalDevice", "an async error has occured in external entity outside of CUDA"},
    {cudaErrorInvalidClusterSize, "cudaErrorInvalidClusterSize", "a kernel launch error has occurred due to cluster misconfiguration"},
    {cudaErrorFunctionNotLoaded, "cudaErrorFunctionNotLoaded", "the function handle is not loaded when calling an API that requires a loaded function"},
    {cudaErrorInvalidResourceType, "cudaErrorInvalidResourceType", "one or more resources passed in are not valid resource types for the operation"},
    {cudaErrorInvalidResourceConfiguration, "cudaErrorInvalidResourceConfiguration", "one or more resources are insufficient or non-applicable for the operation"},
    {cudaErrorUnknown, "cudaErrorUnknown", "unknown error"},
    {cudaErrorApiFailureBase, "cudaErrorApiFailureBase", "api failure base"},
};
const char *cudaGetErrorString(cudaError_t e)
{
    for (size_t i = 0; i < sizeof errs / sizeof errs[0]; i++)
        if (errs[i].e == e)
            return errs[i].text;
    return "unrecognized error code";
}
const char *cudaGetErrorName(cudaError_t e)
{
    for (size_t i = 0; i < sizeof errs / sizeof errs[0]; i++)
        if (errs[i].e == e)
            return errs[i].name;
    return "cudaErrorUnknown";
}
cudaError_t cudaGetLastError(void)
{
    LOCKED();
    init();
    cudaError_t e = sticky_err ? sticky_err : last_err;
    last_err = cudaSuccess;
    return e;
}
cudaError_t cudaPeekAtLastError(void)
{
    LOCKED();
    init();
    return sticky_err ? sticky_err : last_err;
}

/* ---- device --------------------------------------------------------------------- */
cudaError_t cudaGetDeviceCount(int *n)
{
    ENTER();
    if (!n)
        return fail(cudaErrorInvalidValue, "cudaGetDeviceCount", "count is NULL");
    *n = 1;
    return cudaSuccess;
}
cudaError_t cudaGetDevice(int *d)
{
    ENTER();
    if (!d)
        return fail(cudaErrorInvalidValue, "cudaGetDevice", "device is NULL");
    *d = 0;
    return cudaSuccess;
}
cudaError_t cudaSetDevice(int d)
{
    ENTER();
    if (d != 0) {
        char why[96];
        snprintf(why, sizeof why, "device %d: the simulator has one device, 0", d);
        return fail(cudaErrorInvalidDevice, "cudaSetDevice", why);
    }
    return cudaSuccess;
}
cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int dev)
{
    ENTER();
    if (!p || dev != 0)
        return fail(p ? cudaErrorInvalidDevice : cudaErrorInvalidValue, "cudaGetDeviceProperties",
                    p ? "the simulator has one device, 0" : "prop is NULL");
    const sim_device *d = sim_get_device();
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s (simtlab %s preset)", d->card, d->name);
    p->totalGlobalMem = (size_t)80 << 30;
    p->sharedMemPerBlock = d->shared_per_block;
    p->sharedMemPerBlockOptin = d->shared_per_block_optin;
    p->sharedMemPerMultiprocessor = d->shared_per_block_optin + 1024;
    p->regsPerBlock = p->regsPerMultiprocessor = 65536;
    p->warpSize = 32;
    p->memPitch = (size_t)2147483647;
    p->maxThreadsPerBlock = (int)d->max_threads_per_block;
    for (int i = 0; i < 3; i++) {
        p->maxThreadsDim[i] = (int)d->max_block[i];
        p->maxGridSize[i] = (int)d->max_grid[i];
    }
    p->clockRate = SIMTLAB_CLOCK_KHZ;
    p->totalConstMem = 65536;
    p->major = d->cc_major;
    p->minor = d->cc_minor;
    p->multiProcessorCount = d->sm_count;
    /* bus width and clock chosen so that 2 x clock x width / 8 is the preset's bandwidth */
    p->memoryBusWidth = 5120;
    p->memoryClockRate = (int)(d->hbm_bytes_per_s / (2.0 * 5120 / 8) / 1e3);
    p->l2CacheSize = (int)d->l2_bytes;
    p->maxThreadsPerMultiProcessor = d->cc_major == 8 && d->cc_minor == 9 ? 1536 : 2048;
    p->maxBlocksPerMultiProcessor = d->cc_major == 8 && d->cc_minor == 9 ? 24 : 32;
    p->concurrentKernels = p->managedMemory = p->unifiedAddressing = p->canMapHostMemory = 1;
    p->asyncEngineCount = 2;
    p->deviceOverlap = 1;
    p->reservedSharedMemPerBlock = 1024;
    p->streamPrioritiesSupported = 1; /* accepted, no effect: streams run in order here */
    p->globalL1CacheSupported = p->localL1CacheSupported = 1;
    p->singleToDoublePrecisionPerfRatio = 2;
    p->concurrentManagedAccess = 1;
    p->computePreemptionSupported = 1;
    p->hostRegisterSupported = 1;
    p->memoryPoolsSupported = 1; /* the default pool: cudaMallocAsync allocates at once */
    /* what the simulator does not do reads 0, so a program that checks skips it: kernels
     * reading pageable or registered host memory, grid-wide cooperative launches, clusters */
    p->pageableMemoryAccess = p->canUseHostPointerForRegisteredMem = p->cooperativeLaunch = 0;
    p->persistingL2CacheMaxSize = (int)(d->l2_bytes / 4 * 3);
    p->accessPolicyMaxWindowSize = 134213632; /* the A100's and H100's */
    p->textureAlignment = p->surfaceAlignment = 512;
    p->texturePitchAlignment = 32;
    return cudaSuccess;
}
/* CUDA graphs (below): what a capturing stream records */
struct simtlab_graph_node {
    enum { NODE_KERNEL, NODE_MEMCPY, NODE_MEMSET, NODE_HOST, NODE_EMPTY, NODE_MEMCPY3D, NODE_MEMSET2D } kind;
    char *name;       /* kernel: its launch's name (a copy), file and line, configuration, arguments */
    const char *file;
    int line, library;
    simtlab_dim3 grid, block;
    size_t shared;
    void (*thunk)(const void *);
    void *args;
    size_t args_size;
    void *dst;        /* memcpy, memset */
    const void *src;
    size_t n;
    cudaMemcpyKind k;
    int v;
    cudaHostFn_t fn;  /* host function */
    void *user;
    cudaMemcpy3DParms m3; /* cudaGraphAddMemcpyNode's copy */
    size_t pitch, width, height; /* cudaGraphAddMemsetNode's rows (dst, v: its value) */
    unsigned elem;    /* its element's bytes: 1, 2 or 4 */
    unsigned long long serial, orig; /* a node's number, never reused; an exec's node: the number of the
                                      * graph's node it was made from (a freed node's address may be reused) */
    struct simtlab_graph *owner; /* the graph it is in (its handle's check), and where */
    size_t index;
    size_t *deps, n_deps; /* the indexes of the nodes it depends on (cudaGraphAdd*Node, cudaGraphAddDependencies) */
};
struct capture;
static struct capture *capturing(cudaStream_t s);
static cudaError_t capture_node(struct capture *c, const char *call, const struct simtlab_graph_node *nd);
static cudaError_t capture_sync(cudaStream_t s, const char *call);
static cudaError_t capture_join(cudaStream_t s, cudaEvent_t e);
static cudaError_t capture_implicit(cudaStream_t s, const char *call);
static void capture_stream_gone(cudaStream_t s);
static unsigned long long capture_id(const struct capture *c);

cudaError_t cudaDeviceSynchronize(void)
{
    ENTER_SYNC();
    cudaError_t ce = capture_sync(NULL, "cudaDeviceSynchronize");
    if (ce)
        return ce;
    host_sync();
    return cudaSuccess;
}
cudaError_t cudaThreadSynchronize(void) { return cudaDeviceSynchronize(); }
/* The L1/shared split asked for: kept for cudaDeviceGetCacheConfig (the simulator's shared memory
 * is the preset's whatever the split; cudaDeviceReset forgets it) */
static cudaFuncCache cache_config = cudaFuncCachePreferNone;
cudaError_t cudaDeviceReset(void)
{
    LOCKED();
    init();
    sticky_err = pending_err = last_err = cudaSuccess; /* as on a GPU: a new context */
    cache_config = cudaFuncCachePreferNone;
    return cudaSuccess;
}
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache c)
{
    ENTER();
    if ((unsigned)c > 3) {
        char why[96];
        snprintf(why, sizeof why, "config %d: not a cudaFuncCache (0-3)", (int)c);
        return fail(cudaErrorInvalidValue, "cudaDeviceSetCacheConfig", why);
    }
    cache_config = c;
    return cudaSuccess;
}
cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache *c)
{
    ENTER();
    if (!c)
        return fail(cudaErrorInvalidValue, "cudaDeviceGetCacheConfig", "config is NULL");
    *c = cache_config;
    return cudaSuccess;
}

/* Device memory allocated by simulated threads in this run (a parameter copy's deep copy): their
 * own frees of it are done; frees of anything else there are not (free_in_kernel). Under
 * kernel_mu. */
static void **kernel_allocs;
static size_t n_kernel_allocs, cap_kernel_allocs;
static void kernel_alloc_note(void *p)
{
    if (!sim_in_cuda_thread() || !p)
        return;
    if (n_kernel_allocs == cap_kernel_allocs) {
        size_t cap = cap_kernel_allocs ? 2 * cap_kernel_allocs : 64;
        void **t = realloc(kernel_allocs, cap * sizeof *t);
        if (!t)
            return; /* not remembered: its free is skipped, the memory kept (a leak, not an error) */
        kernel_allocs = t, cap_kernel_allocs = cap;
    }
    kernel_allocs[n_kernel_allocs++] = p;
}
static int kernel_alloc_take(void *p)
{
    for (size_t i = n_kernel_allocs; i-- > 0;)
        if (kernel_allocs[i] == p) {
            kernel_allocs[i] = kernel_allocs[--n_kernel_allocs];
            return 1;
        }
    return 0;
}

/* ---- memory ----------------------------------------------------------------------- */
/* The pointer argument of the allocation call about to be made, as the program wrote it
 * (cuda_runtime.h's cudaMalloc macros: `&d_A`, `(void **)&d_A`), for its name in reports; taken
 * (and cleared) by the allocation. */
static _Thread_local const char *alloc_expr;
void simtlab_alloc_name(const char *expr) { alloc_expr = expr; }

/* The variable an allocation call's pointer argument names (`(void **)&d_A` -> d_A, `&buf[i]`,
 * `&this->p`), into out; "" when it is anything else (a function's result, arithmetic). */
static void alloc_var(const char *expr, char *out, size_t n)
{
    out[0] = 0;
    if (!expr)
        return;
    const char *a = expr;
    for (;;) { /* casts, '&', and parentheses around it */
        while (*a == ' ' || *a == '\t')
            a++;
        if (*a == '&' || *a == '*') {
            a++;
        } else if (!strncmp(a, "reinterpret_cast<", 17) || !strncmp(a, "static_cast<", 12)) {
            const char *p = strchr(a, '(');
            if (!p)
                return;
            a = p + 1;
        } else if (*a == '(') { /* a cast `(void **)` or a parenthesis */
            const char *c = strchr(a, ')');
            const char *inner = a + 1;
            while (*inner == ' ')
                inner++;
            const char *star = strchr(a, '*');
            if (c && (!strncmp(inner, "void", 4) || !strncmp(inner, "char", 4) || (star && star < c)))
                a = c + 1; /* a cast to a pointer type */
            else
                a = inner;
        } else {
            break;
        }
    }
    size_t len = 0, depth = 0;
    while (a[len] && (isalnum((unsigned char)a[len]) || a[len] == '_' || a[len] == '.' || a[len] == '[' ||
                      a[len] == ']' || (a[len] == '-' && a[len + 1] == '>') || (a[len] == '>' && len && a[len - 1] == '-') ||
                      (depth && a[len] != ')'))) {
        depth += (a[len] == '[') - (a[len] == ']');
        len++;
    }
    const char *rest = a + len; /* what follows may be closing parentheses only */
    while (*rest == ')' || *rest == ' ')
        rest++;
    if (!len || *rest || !(isalpha((unsigned char)*a) || *a == '_'))
        return;
    snprintf(out, n, "%.*s", (int)(len < n - 1 ? len : n - 1), a);
}

cudaError_t simtlab_malloc(void **p, size_t n, const char *what, const char *file, int line)
{
    char var[24]; /* the pointer's variable, cut to keep the rest of the 51 characters */
    alloc_var(alloc_expr, var, sizeof var);
    alloc_expr = NULL;
    ENTER();
    if (!what)
        what = "cudaMalloc";
    if (!p)
        return fail(cudaErrorInvalidValue, what, "the pointer to fill is NULL");
    char nm[320]; /* the name reports give the allocation: its variable and where it was made (sim_alloc keeps
                   * 51 characters) */
    const size_t keep = 51;
    char who[96];
    char ln0[16];
    snprintf(ln0, sizeof ln0, ":%d", line);
    if (var[0] && strlen(var) + 2 + strlen(what) + strlen(" at ") + strlen(ln0) + 8 <= keep)
        snprintf(who, sizeof who, "%s, %s", var, what); /* room for 8 characters of the file's name at least */
    else
        snprintf(who, sizeof who, "%s", what);
    const char *base = file && strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    if (base) { /* a long file name is cut, with a ~, so that the line stays */
        char ln[16];
        snprintf(ln, sizeof ln, ":%d", line);
        const size_t fixed = strlen(who) + strlen(" at ") + strlen(ln);
        const size_t room = fixed + 2 < keep ? keep - fixed : 2;
        if (strlen(base) > room)
            snprintf(nm, sizeof nm, "%s at %.*s~%s", who, (int)(room - 1), base, ln);
        else
            snprintf(nm, sizeof nm, "%s at %s%s", who, base, ln);
    } else
        snprintf(nm, sizeof nm, "%s #%u", who, n_allocs + 1);
    n_allocs++;
    if (n == 0) { /* CUDA: success, a NULL pointer */
        *p = NULL;
        return cudaSuccess;
    }
    sim_status s = sim_malloc(p, n, nm);
    if (s)
        return fail(of_status(s), what, sim_last_error());
    kernel_alloc_note(*p);
    return cudaSuccess;
}
cudaError_t simtlab_malloc_managed(void **p, size_t n, const char *file, int line)
{
    return simtlab_malloc(p, n, "cudaMallocManaged", file, line);
}
/* Pinned host memory (cudaMallocHost, cudaHostAlloc) lives in the simulator's arena, as on a GPU
 * with unified addressing, where a kernel may read and write it through the same pointer
 * (cudaHostGetDevicePointer gives it back). The host reads and writes it directly; copies treat
 * it as host memory (cudaMemcpyDefault too). A kernel's accesses to it are counted as global
 * memory and reach the L2 model's DRAM, where a GPU sends them over the host link. */
static struct pinned {
    void *p;
    unsigned flags;
} *pinned;
static size_t n_pinned, cap_pinned;
static struct pinned *pinned_of(const void *p)
{
    sim_alloc_info info;
    if (!p || sim_alloc_query(p, &info) != SIM_OK || info.freed)
        return NULL;
    for (size_t i = 0; i < n_pinned; i++)
        if (pinned[i].p == info.base)
            return &pinned[i];
    return NULL;
}
cudaError_t simtlab_malloc_host(void **p, size_t n, unsigned flags, const char *what)
{
    ENTER();
    if (!p)
        return fail(cudaErrorInvalidValue, what, "the pointer to fill is NULL");
    *p = NULL;
    if (flags & ~(unsigned)(cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined)) {
        char why[96];
        snprintf(why, sizeof why, "flags 0x%x: cudaHostAllocDefault, Portable, Mapped, WriteCombined (0-7)", flags);
        return fail(cudaErrorInvalidValue, what, why);
    }
    if (n_pinned == cap_pinned) {
        size_t cap = cap_pinned ? 2 * cap_pinned : 16;
        struct pinned *t = realloc(pinned, cap * sizeof *t);
        if (!t)
            return fail(cudaErrorMemoryAllocation, what, "out of host memory");
        pinned = t, cap_pinned = cap;
    }
    char nm[40];
    snprintf(nm, sizeof nm, "%s #%zu", what, n_pinned + 1);
    sim_status s = sim_malloc(p, n ? n : 1, nm);
    if (s)
        return fail(of_status(s), what, sim_last_error());
    pinned[n_pinned++] = (struct pinned){*p, flags};
    return cudaSuccess;
}
static int free_in_kernel(const char *fn, void *p);
cudaError_t cudaFreeHost(void *p)
{
    ENTER_SYNC();
    if (!p || free_in_kernel("cudaFreeHost", p))
        return cudaSuccess;
    struct pinned *k = pinned_of(p);
    if (!k || k->p != p)
        return fail(cudaErrorInvalidValue, "cudaFreeHost", "not a pointer cudaMallocHost or cudaHostAlloc returned");
    sim_status s = sim_free(p);
    *k = pinned[--n_pinned];
    return s ? fail(of_status(s), "cudaFreeHost", sim_last_error()) : cudaSuccess;
}
static size_t limits[7]; /* cudaDeviceSetLimit's, below */

/* ---- the device heap: malloc and free in kernels ------------------------------------------
 * One allocation of the arena (so kernels' accesses to it are device memory, counted and
 * checked as global memory), cut first-fit into blocks with a 16-byte header (their size and
 * whether in use; 16-byte aligned, as CUDA's), neighbours merged when freed. Workers run blocks
 * at once: a lock. */
static struct {
    char *base;
    size_t size;
    int wanted, made;
    pthread_mutex_t lock;
} heap = {.lock = PTHREAD_MUTEX_INITIALIZER};
typedef struct heap_hdr {
    size_t size; /* bytes of the block, header included */
    size_t used;
} heap_hdr;
int simtlab_want_device_heap(void) { return heap.wanted = 1; }
static int make_heap(char *why, size_t wn)
{
    if (heap.made || !heap.wanted)
        return 0;
    size_t size = limits[cudaLimitMallocHeapSize] & ~(size_t)15;
    if (size < 64)
        size = 64;
    void *p;
    if (sim_malloc(&p, size, "the device heap (malloc in kernels)")) {
        snprintf(why, wn, "the device heap, cudaLimitMallocHeapSize = %zu bytes, does not fit in the simulator's "
                 "device memory (%s); set a smaller one with cudaDeviceSetLimit before the first launch", size,
                 sim_last_error());
        return -1;
    }
    heap.made = 1;
    heap.base = p, heap.size = size;
    *(heap_hdr *)p = (heap_hdr){size, 0};
    return 0;
}
/* A block header that a kernel's write past its block did not break: at least a header and
 * 16 bytes, a multiple of 16, inside the heap. */
static int heap_hdr_ok(const char *b)
{
    const heap_hdr *h = (const heap_hdr *)b;
    return h->size >= sizeof(heap_hdr) + 16 && !(h->size & 15) && h->size <= (size_t)(heap.base + heap.size - b) &&
           h->used <= 1;
}
static void heap_corrupt(const char *b)
{
    char what[200];
    snprintf(what, sizeof what, "the device heap is corrupted at %p (offset %zu): a write past the end of a block "
             "that malloc() in a kernel returned overwrote the next block's header", (void *)b, (size_t)(b - heap.base));
    sim_kernel_trap(what, NULL, 0);
}
int simtlab_device_heap_owns(const void *p)
{
    return heap.base && (const char *)p >= heap.base && (const char *)p < heap.base + heap.size;
}
/* The next operator delete of form k after the program's own (cuda_runtime.h): libstdc++'s, or
 * the address sanitizer's where it is linked (it checks that what new allocated delete frees);
 * free() if there is none */
static void next_delete_free(void *p, ...) { free(p); }
void *simtlab_next_delete(unsigned k)
{
    static const char *const names[12] = {"_ZdlPv", "_ZdaPv", "_ZdlPvm", "_ZdaPvm",
                                          "_ZdlPvSt11align_val_t", "_ZdaPvSt11align_val_t",
                                          "_ZdlPvmSt11align_val_t", "_ZdaPvmSt11align_val_t",
                                          "_ZdlPvRKSt9nothrow_t", "_ZdaPvRKSt9nothrow_t",
                                          "_ZdlPvSt11align_val_tRKSt9nothrow_t", "_ZdaPvSt11align_val_tRKSt9nothrow_t"};
    static void *fn[12];
    if (k >= 12)
        return (void *)next_delete_free;
    void *f = __atomic_load_n(&fn[k], __ATOMIC_ACQUIRE);
    if (!f) {
        f = dlsym(RTLD_NEXT, names[k]);
        if (!f)
            f = (void *)next_delete_free;
        __atomic_store_n(&fn[k], f, __ATOMIC_RELEASE);
    }
    return f;
}
void *simtlab_device_malloc(size_t n)
{
    if (!sim_in_thread())
        return malloc(n);
    if (!heap.base || n == 0 || n > heap.size)
        return NULL;
    size_t need = sizeof(heap_hdr) + ((n + 15) & ~(size_t)15);
    void *got = NULL;
    const char *bad = NULL;
    pthread_mutex_lock(&heap.lock);
    for (char *b = heap.base; b < heap.base + heap.size; b += ((heap_hdr *)b)->size) {
        heap_hdr *h = (heap_hdr *)b;
        if (!heap_hdr_ok(b)) {
            bad = b;
            break;
        }
        if (h->used || h->size < need)
            continue;
        if (h->size - need >= sizeof(heap_hdr) + 16) { /* split: the rest stays free */
            *(heap_hdr *)(b + need) = (heap_hdr){h->size - need, 0};
            h->size = need;
        }
        h->used = 1;
        got = b + sizeof(heap_hdr);
        break;
    }
    pthread_mutex_unlock(&heap.lock);
    if (bad)
        heap_corrupt(bad); /* ends the block: does not return in a kernel */
    if (got) /* what other threads did to a freed block here is ordered before: no race */
        sim_global_forget((uintptr_t)got, need - sizeof(heap_hdr));
    return got; /* NULL when the heap is full, as on a GPU */
}
void simtlab_device_free(void *p)
{
    char *c = p;
    if (!p)
        return;
    if (!heap.base || c < heap.base || c >= heap.base + heap.size) {
        if (!sim_in_thread()) {
            free(p);
            return;
        }
        char what[160];
        snprintf(what, sizeof what, "free(%p) in a kernel: not a pointer that malloc() in a kernel returned", p);
        sim_kernel_trap(what, NULL, 0);
        return;
    }
    const char *bad = NULL;
    int found = 0, was_used = 0;
    pthread_mutex_lock(&heap.lock);
    for (char *b = heap.base; b < heap.base + heap.size; b += ((heap_hdr *)b)->size) { /* find it, merge free runs */
        heap_hdr *x = (heap_hdr *)b;
        if (!heap_hdr_ok(b)) {
            bad = b;
            break;
        }
        if (b + sizeof(heap_hdr) == c) {
            found = 1, was_used = (int)x->used;
            x->used = 0;
        }
        while (!x->used && b + x->size < heap.base + heap.size && heap_hdr_ok(b + x->size) &&
               !((heap_hdr *)(b + x->size))->used)
            x->size += ((heap_hdr *)(b + x->size))->size;
    }
    pthread_mutex_unlock(&heap.lock);
    if (bad) {
        heap_corrupt(bad);
        return;
    }
    if (!found || !was_used) {
        char what[200];
        snprintf(what, sizeof what, "free(%p) in a kernel: %s", p,
                 found ? "the block was freed already (a double free)"
                       : "inside the device heap but not the start of a block malloc() returned");
        if (sim_in_thread())
            sim_kernel_trap(what, NULL, 0);
    }
}

/* ---- memory pools: the default one; its attributes are kept --------------------------- */
struct simtlab_mempool {
    unsigned long long threshold;
    int follow, opportunistic, internal;
};
static struct simtlab_mempool default_pool = {0, 1, 1, 1};
static cudaMemPool_t current_pool = &default_pool; /* cudaDeviceSetMemPool's */
/* the pools cudaMemPoolCreate made, still there (a handle is checked against them) */
static struct pool_node { struct pool_node *next; struct simtlab_mempool pool; } *made_pools;
static int pool_known(cudaMemPool_t pool)
{
    if (pool == &default_pool)
        return 1;
    for (struct pool_node *n = made_pools; n; n = n->next)
        if (&n->pool == pool)
            return 1;
    return 0;
}
cudaError_t cudaMemPoolCreate(cudaMemPool_t *pool, const cudaMemPoolProps *props)
{
    ENTER();
    const char *why = !pool ? "pool is NULL" : !props ? "props is NULL"
                      : props->allocType != cudaMemAllocationTypePinned
                          ? "props->allocType must be cudaMemAllocationTypePinned"
                      : props->location.type != cudaMemLocationTypeDevice || props->location.id != 0
                          ? "props->location must be the device, {cudaMemLocationTypeDevice, 0}: the simulator has one"
                          : NULL;
    if (why)
        return fail(cudaErrorInvalidValue, "cudaMemPoolCreate", why);
    struct pool_node *n = malloc(sizeof *n);
    if (!n)
        return fail(cudaErrorMemoryAllocation, "cudaMemPoolCreate", "out of host memory");
    n->pool = (struct simtlab_mempool){0, 1, 1, 1};
    n->next = made_pools;
    made_pools = n;
    *pool = &n->pool;
    return cudaSuccess;
}
cudaError_t cudaMemPoolDestroy(cudaMemPool_t pool)
{
    ENTER();
    for (struct pool_node **p = &made_pools; *p; p = &(*p)->next)
        if (&(*p)->pool == pool) {
            struct pool_node *n = *p;
            *p = n->next;
            if (current_pool == &n->pool)
                current_pool = &default_pool;
            free(n);
            return cudaSuccess;
        }
    return fail(cudaErrorInvalidValue, "cudaMemPoolDestroy",
                pool == &default_pool ? "the device's default pool cannot be destroyed"
                                      : "not a pool cudaMemPoolCreate made (or destroyed already)");
}
cudaError_t cudaDeviceGetP2PAttribute(int *value, cudaDeviceP2PAttr attr, int src_dev, int dst_dev)
{
    (void)attr;
    ENTER();
    if (!value)
        return fail(cudaErrorInvalidValue, "cudaDeviceGetP2PAttribute", "value is NULL");
    return fail(cudaErrorInvalidDevice, "cudaDeviceGetP2PAttribute",
                src_dev == dst_dev && src_dev == 0
                    ? "the source and destination are the same device (the simulator has one, 0: no peer)"
                    : "the simulator has one device, 0: no peer");
}
cudaError_t simtlab_bad_pool(const char *fn)
{
    alloc_expr = NULL; /* the failed call's name: no later allocation's */
    return fail(cudaErrorInvalidValue, fn, "the memory pool is NULL");
}
cudaError_t cudaFreeAsync(void *p, cudaStream_t s)
{
    if (simtlab_capture_refuse(s, "cudaFreeAsync"))
        return cudaErrorStreamCaptureUnsupported;
    ASYNC_AS(cudaFree(p));
}
cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *pool, int device)
{
    ENTER();
    if (!pool || device != 0)
        return fail(pool ? cudaErrorInvalidDevice : cudaErrorInvalidValue, "cudaDeviceGetDefaultMemPool",
                    pool ? "the simulator has one device, 0" : "pool is NULL");
    *pool = &default_pool;
    return cudaSuccess;
}
cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *pool, int device)
{
    cudaError_t e = cudaDeviceGetDefaultMemPool(pool, device);
    if (!e)
        *pool = current_pool;
    return e;
}
cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t pool)
{
    ENTER();
    if (device != 0 || !pool_known(pool))
        return fail(cudaErrorInvalidValue, "cudaDeviceSetMemPool",
                    device != 0 ? "the simulator has one device, 0"
                                : "not the default pool (cudaDeviceGetDefaultMemPool) or one cudaMemPoolCreate made");
    current_pool = pool;
    return cudaSuccess;
}
static cudaError_t pool_attr(cudaMemPool_t pool, cudaMemPoolAttr attr, void *value, int set, const char *fn)
{
    ENTER();
    if (!pool_known(pool) || !value)
        return fail(cudaErrorInvalidValue, fn,
                    !pool ? "the memory pool is NULL"
                    : !pool_known(pool) ? "not the default pool (cudaDeviceGetDefaultMemPool) or one cudaMemPoolCreate made"
                                        : "value is NULL");
    int *flag = attr == cudaMemPoolReuseFollowEventDependencies   ? &pool->follow
                : attr == cudaMemPoolReuseAllowOpportunistic      ? &pool->opportunistic
                : attr == cudaMemPoolReuseAllowInternalDependencies ? &pool->internal
                                                                    : NULL;
    if (flag) {
        if (set)
            *flag = *(int *)value;
        else
            *(int *)value = *flag;
        return cudaSuccess;
    }
    switch (attr) {
    case cudaMemPoolAttrReleaseThreshold:
        if (set)
            pool->threshold = *(unsigned long long *)value;
        else
            *(unsigned long long *)value = pool->threshold;
        return cudaSuccess;
    case cudaMemPoolAttrReservedMemCurrent: case cudaMemPoolAttrReservedMemHigh:
    case cudaMemPoolAttrUsedMemCurrent: case cudaMemPoolAttrUsedMemHigh:
        if (set && ((attr != cudaMemPoolAttrReservedMemHigh && attr != cudaMemPoolAttrUsedMemHigh) ||
                    *(unsigned long long *)value != 0))
            return fail(cudaErrorInvalidValue, fn,
                        "of a pool's usage only the high marks (ReservedMemHigh, UsedMemHigh) can be set, to 0");
        if (!set)
            *(unsigned long long *)value = (unsigned long long)sim_bytes_in_use();
        return cudaSuccess;
    default: {
        char why[80];
        snprintf(why, sizeof why, "attribute %d is not a cudaMemPoolAttr (1-8)", (int)attr);
        return fail(cudaErrorInvalidValue, fn, why);
    }
    }
}
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void *value)
{
    return pool_attr(pool, attr, value, 1, "cudaMemPoolSetAttribute");
}
cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void *value)
{
    return pool_attr(pool, attr, value, 0, "cudaMemPoolGetAttribute");
}
cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, size_t keep)
{
    (void)keep;
    ENTER();
    return pool ? cudaSuccess : fail(cudaErrorInvalidValue, "cudaMemPoolTrimTo", "the memory pool is NULL");
}

cudaError_t cudaHostGetDevicePointer(void **dev, void *host, unsigned flags)
{
    ENTER();
    if (!dev || flags) {
        char why[64];
        snprintf(why, sizeof why, "flags %u: they must be 0", flags);
        return fail(cudaErrorInvalidValue, "cudaHostGetDevicePointer", dev ? why : "pDevice is NULL");
    }
    if (!pinned_of(host))
        return fail(cudaErrorInvalidValue, "cudaHostGetDevicePointer",
                    "not memory from cudaMallocHost or cudaHostAlloc (the simulator maps only those: "
                    "cudaHostRegister'ed memory stays the host's)");
    *dev = host; /* unified addressing: the same pointer */
    return cudaSuccess;
}
cudaError_t cudaHostGetFlags(unsigned *flags, void *host)
{
    ENTER();
    const struct pinned *k = pinned_of(host);
    if (!flags || !k)
        return fail(cudaErrorInvalidValue, "cudaHostGetFlags", flags ? "not memory from cudaHostAlloc" : "flags is NULL");
    *flags = k->flags | cudaHostAllocMapped; /* all pinned memory is mapped with unified addressing */
    return cudaSuccess;
}
/* cudaFree from a simulated thread: a by-value kernel parameter's destructor, which each
 * thread's copy runs here when the kernel returns (C++ runs it; a GPU copies parameters bitwise
 * and runs none on the device). CUDA by Example's Lock frees its mutex there: the first thread to
 * finish would free what the others still use. Not done, with a note once, unless a simulated
 * thread allocated it (a copy constructor's deep copy, freed by its own destructor). */
static int free_in_kernel(const char *fn, void *p)
{
    static int noted;
    if (!sim_in_cuda_thread() || kernel_alloc_take(p)) /* a thread's own deep copy: freed */
        return 0;
    if (!__atomic_exchange_n(&noted, 1, __ATOMIC_RELAXED))
        say("%s(%p) called in a kernel's thread (a by-value kernel parameter's destructor, which a GPU never "
            "runs on the device): not done; the program's own free after the launch still is",
            fn, p);
    return 1;
}

cudaError_t cudaFree(void *p)
{
    ENTER_SYNC();
    if (!p || free_in_kernel("cudaFree", p))
        return cudaSuccess;
    if (pinned_of(p))
        return fail(cudaErrorInvalidValue, "cudaFree",
                    "the pointer is pinned host memory (cudaMallocHost, cudaHostAlloc): free it with cudaFreeHost");
    sim_status s = sim_free(p);
    return s ? fail(of_status(s), "cudaFree", sim_last_error()) : cudaSuccess;
}
static int on_device(const void *p)
{
    sim_alloc_info info;
    return p && ((sim_alloc_query(p, &info) == SIM_OK && !pinned_of(p)) || sim_in_symbol(p, 1));
}
int simtlab_on_device(const void *p) { return on_device(p); }
static void copy_time(size_t n) { gpu_work((double)n / 25e9 * 1e3); }
/* sync: cudaMemcpy returns when the copy is done (the host waits for the GPU's clock); the
 * Async form only queues it */
static cudaError_t memcpy_on(void *dst, const void *src, size_t n, cudaMemcpyKind k, int sync)
{
    ENTER_AS(sync);
    if (n == 0)
        return cudaSuccess;
    if (!dst || !src)
        return fail(cudaErrorInvalidValue, "cudaMemcpy", dst ? "src is NULL" : "dst is NULL");
    if (k == cudaMemcpyDefault) /* unified addressing: the pointers say */
        k = on_device(dst) ? (on_device(src) ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice)
                           : (on_device(src) ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost);
    if (k == cudaMemcpyHostToHost) {
        memmove(dst, src, n);
        return cudaSuccess;
    }
    if (k != cudaMemcpyHostToDevice && k != cudaMemcpyDeviceToHost && k != cudaMemcpyDeviceToDevice) {
        char why[96];
        snprintf(why, sizeof why, "kind %d is not a cudaMemcpyKind (0-4)", (int)k);
        return fail(cudaErrorInvalidMemcpyDirection, "cudaMemcpy", why);
    }
    sim_status s = sim_memcpy(dst, src, n,
                              k == cudaMemcpyHostToDevice ? SIM_COPY_H2D
                              : k == cudaMemcpyDeviceToHost ? SIM_COPY_D2H
                                                            : SIM_COPY_D2D);
    if (s)
        return fail(of_status(s), "cudaMemcpy", sim_last_error());
    copy_time(n);
    if (sync)
        host_sync();
    return cudaSuccess;
}
cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, cudaMemcpyKind k) { return memcpy_on(dst, src, n, k, 1); }
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, cudaMemcpyKind k, cudaStream_t s)
{
    {
        ENTER(); /* the capture's state under the lock, as every call reads it */
        struct capture *c = capturing(s);
        if (!c && capture_implicit(s, "cudaMemcpyAsync"))
            return cudaErrorStreamCaptureImplicit;
        if (c)
            return capture_node(c, "cudaMemcpyAsync", &(struct simtlab_graph_node){.kind = NODE_MEMCPY, .dst = dst,
                                                                                  .src = src, .n = n, .k = k});
    }
    return memcpy_on(dst, src, n, k, 0);
}
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                         cudaMemcpyKind k)
{
    ENTER_SYNC();
    if (width > dpitch || width > spitch)
        return fail(cudaErrorInvalidValue, "cudaMemcpy2D", "width is larger than a pitch");
    for (size_t r = 0; r < height; r++) {
        cudaError_t e = cudaMemcpy((char *)dst + r * dpitch, (const char *)src + r * spitch, width, k);
        if (e)
            return e;
    }
    return cudaSuccess;
}
cudaError_t cudaMemset(void *p, int v, size_t n)
{
    ENTER();
    if (n == 0)
        return cudaSuccess;
    sim_status s = sim_memset(p, v, n);
    return s ? fail(of_status(s), "cudaMemset", sim_last_error()) : cudaSuccess;
}
cudaError_t cudaMemsetAsync(void *p, int v, size_t n, cudaStream_t s)
{
    {
        ENTER();
        struct capture *c = capturing(s);
        if (!c && capture_implicit(s, "cudaMemsetAsync"))
            return cudaErrorStreamCaptureImplicit;
        if (c)
            return capture_node(c, "cudaMemsetAsync",
                                &(struct simtlab_graph_node){.kind = NODE_MEMSET, .dst = p, .v = v, .n = n});
    }
    return cudaMemset(p, v, n);
}
cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes)
{
    ENTER();
    size_t total = (size_t)80 << 30, used = sim_bytes_in_use();
    /* the simulated device's memory is this machine's: a program that sizes its buffers by the
     * free memory (survey 5: 90 % of it) must not be told of more than the host has. Its
     * physical memory, not what is free now, so that free + used stays the same through a run
     * (a program may measure its own allocations by the difference) */
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0 && (size_t)pages * (size_t)page < total)
        total = (size_t)pages * (size_t)page;
    if (free_bytes)
        *free_bytes = used < total ? total - used : 0;
    if (total_bytes)
        *total_bytes = total;
    return cudaSuccess;
}
/* managed memory's hints: one memory here, so no effect, but a device that is not there fails as
 * on a GPU (cudaInvalidDeviceId: CUDA 13's cudaMemLocation of no type, cuda_runtime.h) */
static cudaError_t hint_device(const char *fn, int device)
{
    if (device == cudaInvalidDeviceId)
        return fail(cudaErrorInvalidValue, fn, "the location has no type (cudaMemLocationTypeInvalid)");
    if (device != 0 && device != cudaCpuDeviceId) {
        char why[96];
        snprintf(why, sizeof why, "device %d: the simulator has one device, 0 (or cudaCpuDeviceId, the host)", device);
        return fail(cudaErrorInvalidDevice, fn, why);
    }
    return cudaSuccess;
}
cudaError_t cudaMemPrefetchAsync(const void *p, size_t n, int device, cudaStream_t s)
{
    (void)p, (void)n, (void)s;
    ENTER();
    return hint_device("cudaMemPrefetchAsync", device);
}
cudaError_t cudaMemAdvise(const void *p, size_t n, cudaMemoryAdvise advice, int device)
{
    (void)p, (void)n, (void)advice;
    ENTER();
    return hint_device("cudaMemAdvise", device);
}
/* one memory here: managed memory needs no attaching to a stream */
cudaError_t cudaStreamAttachMemAsync(cudaStream_t s, void *p, size_t len, unsigned flags)
{
    (void)s, (void)p, (void)len, (void)flags;
    ENTER();
    return cudaSuccess;
}
cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t width, size_t height)
{
    const char *name = alloc_expr; /* simtlab_malloc's, below; no other allocation's if this one fails first */
    alloc_expr = NULL;
    ENTER();
    if (!pitch)
        return fail(cudaErrorInvalidValue, "cudaMallocPitch", "pitch is NULL");
    *pitch = (width + 511) / 512 * 512;
    if (height && *pitch > (size_t)-1 / height)
        return fail(cudaErrorMemoryAllocation, "cudaMallocPitch", "width x height overflows");
    alloc_expr = name;
    return simtlab_malloc(p, *pitch * height, "cudaMallocPitch", NULL, 0);
}
cudaError_t cudaMalloc3D(cudaPitchedPtr *p, cudaExtent e)
{
    ENTER();
    if (!p)
        return fail(cudaErrorInvalidValue, "cudaMalloc3D", "the pitched pointer is NULL");
    const size_t pitch = (e.width + 511) / 512 * 512;
    if (e.height && e.depth && pitch > (size_t)-1 / e.height / e.depth)
        return fail(cudaErrorMemoryAllocation, "cudaMalloc3D", "width x height x depth overflows");
    *p = make_cudaPitchedPtr(NULL, pitch, e.width, e.height);
    return simtlab_malloc(&p->ptr, pitch * e.height * e.depth, "cudaMalloc3D", NULL, 0);
}

/* The byte at (x, y, z) of a pitched allocation: rows of pitch bytes, ysize rows a slice. */
static char *pitched_at(cudaPitchedPtr p, size_t x, size_t y, size_t z)
{
    return (char *)p.ptr + (z * p.ysize + y) * p.pitch + x;
}

/* Whether the box at pos of extent e (not empty) fits p: its rows within the pitch, its rows
 * within a slice when it spans slices, no offset overflowing, and, when p is device memory,
 * its last byte within p's allocation (cudaMemcpy's own check would take a row that lands in
 * another allocation). why: the reason otherwise. */
static int box_fits(cudaPitchedPtr p, cudaPos pos, cudaExtent e, const char *side, char *why, size_t n)
{
    size_t x_end, last_row, rows, off;
    /* one row at the start (height and depth 1): its pitch is never used, and may be 0 (a 1D copy
     * as NVIDIA's CUPTI graph sample writes its memcpy nodes; survey 22) */
    const int one_row = e.height == 1 && e.depth == 1 && !pos.y && !pos.z;
    if (__builtin_add_overflow(pos.x, e.width, &x_end) || (x_end > p.pitch && !one_row)) {
        snprintf(why, n, "the %s box's rows (x %zu + width %zu bytes) are wider than its pitch %zu", side, pos.x,
                 e.width, p.pitch);
        return 0;
    }
    if ((e.depth > 1 || pos.z) && (pos.y > p.ysize || e.height > p.ysize - pos.y)) {
        snprintf(why, n, "the %s box's rows (y %zu + height %zu) are more than a slice's %zu (ysize)", side, pos.y,
                 e.height, p.ysize);
        return 0;
    }
    if (__builtin_add_overflow(pos.z, e.depth - 1, &rows) || __builtin_mul_overflow(rows, p.ysize, &rows) ||
        __builtin_add_overflow(rows, pos.y, &rows) || __builtin_add_overflow(rows, e.height - 1, &last_row) ||
        __builtin_mul_overflow(last_row, p.pitch, &off) || __builtin_add_overflow(off, x_end, &off)) {
        snprintf(why, n, "the %s box's offsets overflow", side);
        return 0;
    }
    sim_alloc_info a;
    if (sim_alloc_query(p.ptr, &a) == SIM_OK) {
        if ((size_t)((char *)p.ptr - (char *)a.base) + off > a.bytes) {
            snprintf(why, n, "the %s box ends %zu bytes into its allocation %s of %zu bytes", side,
                     (size_t)((char *)p.ptr - (char *)a.base) + off, a.name ? a.name : "", a.bytes);
            return 0;
        }
    } else {
        sim_get_last_status(); /* host memory, the program's own: the query's status is no error */
    }
    return 1;
}

cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms *c)
{
    ENTER_SYNC();
    if (!c)
        return fail(cudaErrorInvalidValue, "cudaMemcpy3D", "the parameters are NULL");
    if (c->srcArray || c->dstArray)
        return fail(cudaErrorNotSupported, "cudaMemcpy3D",
                    "CUDA arrays are not supported by the simulator (no texture unit): copy between pitched "
                    "pointers (srcPtr, dstPtr)");
    const cudaExtent e = c->extent;
    if (!e.width || !e.height || !e.depth)
        return cudaSuccess;
    char why[200];
    if (!box_fits(c->srcPtr, c->srcPos, e, "source", why, sizeof why) ||
        !box_fits(c->dstPtr, c->dstPos, e, "destination", why, sizeof why))
        return fail(cudaErrorInvalidValue, "cudaMemcpy3D", why);
    for (size_t z = 0; z < e.depth; z++)
        for (size_t y = 0; y < e.height; y++) {
            cudaError_t r = cudaMemcpy(pitched_at(c->dstPtr, c->dstPos.x, c->dstPos.y + y, c->dstPos.z + z),
                                       pitched_at(c->srcPtr, c->srcPos.x, c->srcPos.y + y, c->srcPos.z + z),
                                       e.width, c->kind);
            if (r)
                return r;
        }
    return cudaSuccess;
}
cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms *c, cudaStream_t s)
{
    (void)s;
    ASYNC_AS(cudaMemcpy3D(c));
}
cudaError_t cudaMemset3D(cudaPitchedPtr p, int v, cudaExtent e)
{
    ENTER();
    if (!e.width || !e.height || !e.depth)
        return cudaSuccess;
    char why[200];
    if (!box_fits(p, make_cudaPos(0, 0, 0), e, "memset", why, sizeof why))
        return fail(cudaErrorInvalidValue, "cudaMemset3D", why);
    for (size_t z = 0; z < e.depth; z++)
        for (size_t y = 0; y < e.height; y++) {
            cudaError_t r = cudaMemset(pitched_at(p, 0, y, z), v, e.width);
            if (r)
                return r;
        }
    return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device)
{
    ENTER();
    cudaDeviceProp p;
    if (!value)
        return fail(cudaErrorInvalidValue, "cudaDeviceGetAttribute", "value is NULL");
    cudaError_t e = cudaGetDeviceProperties(&p, device);
    if (e)
        return e;
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: *value = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: *value = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: *value = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = (int)p.sharedMemPerBlock; break;
    case cudaDevAttrTotalConstantMemory: *value = (int)p.totalConstMem; break;
    case cudaDevAttrWarpSize: *value = p.warpSize; break;
    case cudaDevAttrMaxRegistersPerBlock: *value = p.regsPerBlock; break;
    case cudaDevAttrClockRate: *value = p.clockRate; break;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrKernelExecTimeout: *value = 0; break;
    case cudaDevAttrIntegrated: *value = 0; break;
    case cudaDevAttrCanMapHostMemory: *value = 1; break;
    case cudaDevAttrComputeMode: *value = cudaComputeModeDefault; break;
    case cudaDevAttrConcurrentKernels: *value = 1; break;
    case cudaDevAttrGpuOverlap: *value = 1; break;
    case cudaDevAttrAsyncEngineCount: *value = p.asyncEngineCount; break;
    case cudaDevAttrUnifiedAddressing: *value = 1; break;
    case cudaDevAttrMemoryClockRate: *value = p.memoryClockRate; break;
    case cudaDevAttrGlobalMemoryBusWidth: *value = p.memoryBusWidth; break;
    case cudaDevAttrL2CacheSize: *value = p.l2CacheSize; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = (int)p.sharedMemPerMultiprocessor; break;
    case cudaDevAttrManagedMemory: *value = 1; break;
    case cudaDevAttrConcurrentManagedAccess: *value = 1; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = (int)p.sharedMemPerBlockOptin; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *value = p.maxBlocksPerMultiProcessor; break;
    case cudaDevAttrMemoryPoolsSupported: *value = p.memoryPoolsSupported; break;
    case cudaDevAttrCooperativeLaunch: *value = p.cooperativeLaunch; break; /* 0: not simulated */
    case cudaDevAttrCooperativeMultiDeviceLaunch: *value = 0; break;
    default: {
        char why[96];
        snprintf(why, sizeof why, "attribute %d is not one the simulator answers (simtlab_cudart.h)", (int)attr);
        return fail(cudaErrorInvalidValue, "cudaDeviceGetAttribute", why);
    }
    }
    return cudaSuccess;
}
/* CUDA's defaults; accepted and kept (the L2 persisting size is clamped to
 * cudaDeviceProp.persistingL2CacheMaxSize as the driver clamps it). The stack size gives each
 * simulated thread at least that much stack from the next launch (sim_set_stack_limit: a CPU
 * frame is larger than a GPU's, so the simulator's own 64 KiB stays the least); the heap's is
 * the device heap's size (device_heap); the others have no effect. */
static size_t limits[7] = {1024, 1 << 20, 8 << 20, 2, 2048, 64, 0};
cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value)
{
    ENTER();
    if ((unsigned)limit > 6) {
        char why[96];
        snprintf(why, sizeof why, "limit %d: not a cudaLimit the simulator knows (0-6)", (int)limit);
        return fail(cudaErrorInvalidValue, "cudaDeviceSetLimit", why);
    }
    if (limit == cudaLimitMallocHeapSize && heap.made)
        return fail(cudaErrorInvalidValue, "cudaDeviceSetLimit",
                    "cudaLimitMallocHeapSize: the device heap is in use since the first launch; set it before");
    if (limit == cudaLimitStackSize) {
        int s = sim_set_stack_limit(value);
        if (s)
            return fail(of_status(s), "cudaDeviceSetLimit", sim_last_error());
    }
    if (limit == cudaLimitPersistingL2CacheSize) {
        size_t max = sim_get_device()->l2_bytes / 4 * 3;
        value = value < max ? value : max;
    }
    limits[limit] = value;
    return cudaSuccess;
}
cudaError_t cudaDeviceGetLimit(size_t *value, cudaLimit limit)
{
    ENTER();
    if (!value || (unsigned)limit > 6) {
        char why[96];
        snprintf(why, sizeof why, "limit %d: not a cudaLimit (0-6)", (int)limit);
        return fail(cudaErrorInvalidValue, "cudaDeviceGetLimit", value ? why : "value is NULL");
    }
    *value = limits[limit];
    return cudaSuccess;
}
cudaError_t cudaCtxResetPersistingL2Cache(void)
{
    ENTER();
    return cudaSuccess;
}
static unsigned device_flags;
cudaError_t cudaSetDeviceFlags(unsigned flags)
{
    ENTER();
    device_flags = flags; /* kept for cudaGetDeviceFlags; how a host thread waits changes nothing here */
    return cudaSuccess;
}
cudaError_t cudaHostRegister(void *p, size_t n, unsigned flags)
{
    (void)flags;
    ENTER();
    return p && n ? cudaSuccess : fail(cudaErrorInvalidValue, "cudaHostRegister", "a NULL pointer or 0 bytes");
}
cudaError_t cudaHostUnregister(void *p)
{
    ENTER();
    return p ? cudaSuccess : fail(cudaErrorInvalidValue, "cudaHostUnregister", "the pointer is NULL");
}
cudaError_t cudaLaunchHostFunc(cudaStream_t s, cudaHostFn_t fn, void *user)
{
    ENTER();
    if (!fn)
        return fail(cudaErrorInvalidValue, "cudaLaunchHostFunc", "the function is NULL");
    struct capture *c = capturing(s);
    if (c)
        return capture_node(c, "cudaLaunchHostFunc",
                            &(struct simtlab_graph_node){.kind = NODE_HOST, .fn = fn, .user = user});
    fn(user);
    return cudaSuccess;
}
cudaError_t cudaStreamAddCallback(cudaStream_t s, cudaStreamCallback_t fn, void *user, unsigned flags)
{
    (void)flags;
    ENTER();
    if (simtlab_capture_refuse(s, "cudaStreamAddCallback")) /* CUDA refuses it in a capture too */
        return cudaErrorStreamCaptureUnsupported;
    if (!fn)
        return fail(cudaErrorInvalidValue, "cudaStreamAddCallback", "the callback is NULL");
    fn(s, cudaSuccess, user);
    return cudaSuccess;
}
cudaError_t cudaDriverGetVersion(int *v)
{
    ENTER();
    if (v)
        *v = SIMTLAB_CUDART_VERSION;
    return v ? cudaSuccess : fail(cudaErrorInvalidValue, "cudaDriverGetVersion", "version is NULL");
}
cudaError_t cudaRuntimeGetVersion(int *v)
{
    ENTER();
    if (v)
        *v = SIMTLAB_CUDART_VERSION;
    return v ? cudaSuccess : fail(cudaErrorInvalidValue, "cudaRuntimeGetVersion", "version is NULL");
}
cudaError_t simtlab_occupancy(int *blocks, int block_size, size_t dyn_shared)
{
    ENTER();
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    if (!blocks || block_size <= 0 || block_size > p.maxThreadsPerBlock)
        return fail(cudaErrorInvalidValue, "cudaOccupancyMaxActiveBlocksPerMultiprocessor",
                    blocks ? "block size out of 1..maxThreadsPerBlock" : "numBlocks is NULL");
    int warps = (block_size + 31) / 32, by_threads = p.maxThreadsPerMultiProcessor / (warps * 32);
    int by_shared = dyn_shared ? (int)(p.sharedMemPerMultiprocessor / (dyn_shared + 1024)) : p.maxBlocksPerMultiProcessor;
    int b = by_threads < by_shared ? by_threads : by_shared;
    *blocks = b < p.maxBlocksPerMultiProcessor ? b : p.maxBlocksPerMultiProcessor;
    return cudaSuccess;
}
cudaError_t simtlab_memcpy_symbol(void *symbol, size_t symbol_size, const void *buf, size_t n, size_t offset,
                                  int to_symbol)
{
    ENTER_SYNC();
    const char *fn = to_symbol ? "cudaMemcpyToSymbol" : "cudaMemcpyFromSymbol";
    if (offset > symbol_size || n > symbol_size - offset) {
        char why[160];
        snprintf(why, sizeof why, "%zu bytes at offset %zu do not fit the symbol's %zu bytes", n, offset, symbol_size);
        return fail(cudaErrorInvalidValue, fn, why);
    }
    if (n && !buf)
        return fail(cudaErrorInvalidValue, fn, "the host buffer is NULL");
    if (to_symbol)
        memcpy((char *)symbol + offset, buf, n);
    else
        memcpy((void *)buf, (const char *)symbol + offset, n);
    copy_time(n);
    return cudaSuccess;
}
/* cudaGetSymbolAddress: the variable's own address (device and host share one address space
 * here), which copies and memsets then take as device memory, as a GPU does */
cudaError_t simtlab_symbol_address(void **p, void *symbol, size_t symbol_size)
{
    ENTER();
    if (!p)
        return fail(cudaErrorInvalidValue, "cudaGetSymbolAddress", "devPtr is NULL");
    sim_status s = sim_register_symbol(symbol, symbol_size);
    if (s)
        return fail(of_status(s), "cudaGetSymbolAddress", sim_last_error());
    *p = symbol;
    return cudaSuccess;
}
cudaError_t simtlab_func_set_attribute(int attr, int value)
{
    ENTER();
    if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
        sim_status s = value < 0 ? SIM_ERR_INVALID_VALUE : sim_set_max_dynamic_shared((size_t)value);
        if (s)
            return fail(of_status(s), "cudaFuncSetAttribute", sim_last_error());
    }
    if (attr == cudaFuncAttributePreferredSharedMemoryCarveout && (value < -1 || value > 100))
        return fail(cudaErrorInvalidValue, "cudaFuncSetAttribute",
                    "cudaFuncAttributePreferredSharedMemoryCarveout: a percentage from 0 to 100, or -1");
    return cudaSuccess;
}

/* ---- streams and events: launches run in order, at once ------------------------------ */
/* a stream's attributes are kept for cudaStreamGetAttribute; launches run in order whatever
 * they say (the default stream, 0, has its own) */
struct simtlab_stream {
    cudaStreamAttrValue window, sync, priority;
    unsigned flags;
    struct capture *cap;        /* the capture it began or joined, while cap->id is cap_id (records are reused) */
    unsigned long long cap_id;
};
static struct simtlab_stream default_stream, per_thread_stream; /* per-thread: a stream a capture may take */
/* a stream's record: the default stream's for NULL, cudaStreamLegacy and cudaStreamPerThread */
static struct simtlab_stream *stream_of(cudaStream_t s)
{
    return !s || s == cudaStreamLegacy ? &default_stream : s == cudaStreamPerThread ? &per_thread_stream : s;
}
struct simtlab_event { double t_ms; int recorded; unsigned flags; struct capture *cap; unsigned long long cap_id; };
cudaError_t cudaStreamCreate(cudaStream_t *s) { return cudaStreamCreateWithFlags(s, 0); }
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags)
{
    ENTER();
    if (!s)
        return fail(cudaErrorInvalidValue, "cudaStreamCreate", "stream is NULL");
    *s = calloc(1, sizeof **s);
    if (*s)
        (*s)->flags = flags;
    return *s ? cudaSuccess : fail(cudaErrorMemoryAllocation, "cudaStreamCreate", "out of host memory");
}
cudaError_t cudaStreamDestroy(cudaStream_t s)
{
    ENTER();
    capture_stream_gone(s);
    if (stream_of(s) != &default_stream && stream_of(s) != &per_thread_stream) /* the special handles are no allocation */
        free(s);
    return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t s)
{
    ENTER_SYNC();
    if (capturing(s))
        return capture_sync(s, "cudaStreamSynchronize");
    host_sync();
    return cudaSuccess;
}
cudaError_t cudaStreamQuery(cudaStream_t s)
{
    ENTER_SYNC();
    if (capturing(s))
        return capture_sync(s, "cudaStreamQuery");
    return cudaSuccess;
}
cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned flags)
{
    (void)flags;
    ENTER();
    return capture_join(s, e);
}
static cudaStreamAttrValue *stream_attr(cudaStream_t s, cudaStreamAttrID attr)
{
    struct simtlab_stream *t = stream_of(s);
    switch (attr) {
    case cudaStreamAttributeAccessPolicyWindow: return &t->window;
    case cudaStreamAttributeSynchronizationPolicy: return &t->sync;
    case cudaStreamAttributePriority: return &t->priority;
    default: return NULL;
    }
}
cudaError_t cudaStreamSetAttribute(cudaStream_t s, cudaStreamAttrID attr, const cudaStreamAttrValue *value)
{
    ENTER();
    cudaStreamAttrValue *to = stream_attr(s, attr);
    char why[160];
    if (!value)
        return fail(cudaErrorInvalidValue, "cudaStreamSetAttribute", "value is NULL");
    if (!to) {
        snprintf(why, sizeof why, "attribute %d: the simulator knows the access policy window (1), the "
                 "synchronization policy (3) and the priority (8)", (int)attr);
        return fail(cudaErrorInvalidValue, "cudaStreamSetAttribute", why);
    }
    if (attr == cudaStreamAttributeAccessPolicyWindow) {
        const cudaAccessPolicyWindow *w = &value->accessPolicyWindow;
        if (!(w->hitRatio >= 0.0f && w->hitRatio <= 1.0f)) {
            snprintf(why, sizeof why, "accessPolicyWindow.hitRatio %g: it must be within 0 and 1", (double)w->hitRatio);
            return fail(cudaErrorInvalidValue, "cudaStreamSetAttribute", why);
        }
        if (w->num_bytes > 134213632u) {
            snprintf(why, sizeof why, "accessPolicyWindow.num_bytes %zu: at most cudaDeviceProp."
                     "accessPolicyMaxWindowSize, 134213632", w->num_bytes);
            return fail(cudaErrorInvalidValue, "cudaStreamSetAttribute", why);
        }
        if ((unsigned)w->hitProp > 2 || (unsigned)w->missProp > 1) {
            snprintf(why, sizeof why, "accessPolicyWindow hitProp %d, missProp %d: hitProp a cudaAccessProperty "
                     "(0-2), missProp Normal or Streaming (0-1)", (int)w->hitProp, (int)w->missProp);
            return fail(cudaErrorInvalidValue, "cudaStreamSetAttribute", why);
        }
    }
    *to = *value;
    if (attr == cudaStreamAttributePriority) /* the range cudaDeviceGetStreamPriorityRange gives */
        to->priority = to->priority < -5 ? -5 : to->priority > 0 ? 0 : to->priority;
    return cudaSuccess;
}
cudaError_t cudaStreamGetAttribute(cudaStream_t s, cudaStreamAttrID attr, cudaStreamAttrValue *value)
{
    ENTER();
    const cudaStreamAttrValue *from = stream_attr(s, attr);
    if (!value || !from)
        return fail(cudaErrorInvalidValue, "cudaStreamGetAttribute",
                    value ? "not an attribute the simulator keeps (1, 3, 8)" : "value is NULL");
    *value = *from;
    return cudaSuccess;
}

/* ---- CUDA graphs, by stream capture ---------------------------------------------------------
 * Between cudaStreamBeginCapture and cudaStreamEndCapture the stream's work is recorded as nodes,
 * in the order it was issued: kernel launches (the launch's copy of its arguments, copied again, as
 * a graph keeps its kernels' parameters), cudaMemcpyAsync, cudaMemsetAsync, cudaLaunchHostFunc. A
 * stream that waits (cudaStreamWaitEvent) on an event recorded in a capturing stream joins that
 * capture: its work goes into the same graph, still in issue order, which is one order the
 * graph's dependencies allow (the simulator runs one thing at a time anyway). cudaGraphLaunch
 * runs an instantiated graph's nodes in that order. A synchronizing call on a capturing stream (or
 * cudaDeviceSynchronize during a capture not in relaxed mode) fails with
 * cudaErrorStreamCaptureUnsupported and invalidates the capture, as CUDA does. */
/* Every graph and exec the program holds, on a list: one it never destroys is still reachable at
 * its exit (LeakSanitizer, in the ASan build's tests, reports none), as a GPU's are kept too */
struct live {
    struct live *prev, *next;
};
static struct live live_objs = {&live_objs, &live_objs};
static void live_add(struct live *l)
{
    l->next = live_objs.next, l->prev = &live_objs;
    live_objs.next->prev = l, live_objs.next = l;
}
static void live_del(struct live *l)
{
    if (l->next)
        l->prev->next = l->next, l->next->prev = l->prev, l->next = l->prev = NULL;
}
struct simtlab_graph {
    struct live live; /* first: the list points at the graph's start */
    struct simtlab_graph_node **nodes; /* each allocated on its own: a cudaGraphNode_t stays valid */
    size_t n, cap;
};
struct simtlab_graph_exec {
    struct simtlab_graph g; /* first: its live is the exec's */
};
struct capture {
    struct capture *next; /* the records, in use or ended (reused: as many as ever ran at once) */
    cudaGraph_t g;
    cudaStream_t origin;
    unsigned long long id;
    cudaStreamCaptureMode mode;
    int active, invalid;
};
static struct capture *captures;
static unsigned long long capture_ids;
static _Thread_local cudaStreamCaptureMode thread_capture_mode; /* cudaThreadExchangeStreamCaptureMode */

/* the capture the stream's work goes to, or NULL */
static struct capture *capturing(cudaStream_t s)
{
    const struct simtlab_stream *t = stream_of(s);
    struct capture *c = t->cap;
    return c && c->active && c->id == t->cap_id ? c : NULL;
}
static void node_release(struct simtlab_graph_node *nd)
{
    if (nd->kind == NODE_KERNEL)
        free(nd->name), free(nd->args);
    free(nd->deps);
    free(nd);
}
static void graph_release(struct simtlab_graph *g)
{
    for (size_t i = 0; i < g->n; i++)
        node_release(g->nodes[i]);
    free(g->nodes);
    g->nodes = NULL;
    g->n = g->cap = 0;
}
/* an ended capture whose graph no one gets (invalidated, or its stream destroyed): the graph freed */
static void capture_drop(struct capture *c)
{
    c->active = 0;
    if (c->g) {
        graph_release(c->g);
        live_del(&c->g->live);
        free(c->g);
        c->g = NULL;
    }
}
/* a copy of nd appended to g (a kernel's name and arguments copied too, not its dependencies): the
 * new node, or NULL out of memory */
static struct simtlab_graph_node *graph_add(struct simtlab_graph *g, const struct simtlab_graph_node *nd)
{
    if (g->n == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 16;
        struct simtlab_graph_node **t = realloc(g->nodes, cap * sizeof *t);
        if (!t)
            return NULL;
        g->nodes = t;
        g->cap = cap;
    }
    struct simtlab_graph_node *c = malloc(sizeof *c);
    if (!c)
        return NULL;
    *c = *nd;
    c->deps = NULL, c->n_deps = 0;
    static unsigned long long serials; /* under the runtime's lock, as every graph call */
    c->owner = g, c->index = g->n, c->serial = ++serials;
    if (c->kind == NODE_KERNEL) {
        c->name = strdup(nd->name);
        /* as aligned as the launch's own block may need (an alignas(64) parameter, -march=native's
         * aligned vector moves) */
        c->args = aligned_alloc(64, (nd->args_size + 63) & ~(size_t)63 ? (nd->args_size + 63) & ~(size_t)63 : 64);
        if (!c->name || !c->args) {
            free(c->name), free(c->args), free(c);
            return NULL;
        }
        memcpy(c->args, nd->args, nd->args_size);
    }
    g->nodes[g->n++] = c;
    return c;
}
/* work issued to a capturing stream: recorded in its graph, not run */
static cudaError_t capture_node(struct capture *c, const char *call, const struct simtlab_graph_node *nd)
{
    if (c->invalid)
        return fail(cudaErrorStreamCaptureInvalidated, call,
                    "the stream's capture was invalidated by a synchronizing call during it (above)");
    struct simtlab_graph_node *a = graph_add(c->g, nd);
    if (a && a->index) { /* after the node issued before it (the simulator records one order: a chain) */
        a->deps = malloc(sizeof *a->deps);
        if (a->deps)
            a->deps[0] = a->index - 1, a->n_deps = 1;
    }
    return a ? cudaSuccess : fail(cudaErrorMemoryAllocation, call, "out of host memory for the graph");
}
static cudaError_t memset_rows(const struct simtlab_graph_node *nd);
/* the nodes, in order, as work on stream s: the first error (a kernel's fault comes at the next
 * synchronizing call, as for any launch; the copies and memsets are asynchronous calls, which do
 * not report it) */
static cudaError_t graph_run(const struct simtlab_graph *g, cudaStream_t s)
{
    for (size_t i = 0; i < g->n; i++) {
        const struct simtlab_graph_node *nd = g->nodes[i];
        cudaError_t e = cudaSuccess;
        const int was = async_call;
        async_call = 1;
        switch (nd->kind) {
        case NODE_KERNEL:
            if (nd->library)
                simtlab_launch_is_library();
            e = simtlab_launch(nd->name, nd->file, nd->line, nd->grid, nd->block, nd->shared, s, nd->thunk,
                               nd->args, nd->args_size);
            break;
        case NODE_MEMCPY: e = memcpy_on(nd->dst, nd->src, nd->n, nd->k, 0); break;
        case NODE_MEMSET: e = cudaMemset(nd->dst, nd->v, nd->n); break;
        case NODE_HOST: nd->fn(nd->user); break;
        case NODE_EMPTY: break;
        case NODE_MEMCPY3D: e = cudaMemcpy3D(&nd->m3); break;
        case NODE_MEMSET2D: e = memset_rows(nd); break;
        }
        async_call = was;
        if (e)
            return e;
    }
    return cudaSuccess;
}
cudaError_t cudaStreamBeginCapture(cudaStream_t s, cudaStreamCaptureMode mode)
{
    ENTER();
    if (stream_of(s) == &default_stream)
        return fail(cudaErrorStreamCaptureUnsupported, "cudaStreamBeginCapture",
                    "the legacy default stream (0) cannot be captured: create a stream (cudaStreamCreate), or use "
                    "cudaStreamPerThread, and capture that");
    if ((unsigned)mode > cudaStreamCaptureModeRelaxed) {
        char why[120];
        snprintf(why, sizeof why, "mode %d is no cudaStreamCaptureMode (0 global, 1 thread-local, 2 relaxed)",
                 (int)mode);
        return fail(cudaErrorInvalidValue, "cudaStreamBeginCapture", why);
    }
    if (capturing(s))
        return fail(cudaErrorIllegalState, "cudaStreamBeginCapture",
                    "the stream is capturing already (end it with cudaStreamEndCapture first)");
    struct capture *c = captures;
    while (c && c->active) /* an ended one's record (an event naming it sees the new id) */
        c = c->next;
    const int fresh = !c;
    cudaGraph_t g = calloc(1, sizeof *g);
    if (fresh)
        c = calloc(1, sizeof *c);
    if (!c || !g) {
        free(g);
        if (fresh)
            free(c);
        return fail(cudaErrorMemoryAllocation, "cudaStreamBeginCapture", "out of host memory");
    }
    live_add(&g->live);
    *c = (struct capture){fresh ? captures : c->next, g, s, ++capture_ids, mode, 1, 0};
    if (fresh)
        captures = c;
    stream_of(s)->cap = c;
    stream_of(s)->cap_id = c->id;
    return cudaSuccess;
}
cudaError_t cudaStreamEndCapture(cudaStream_t s, cudaGraph_t *graph)
{
    ENTER();
    if (!graph)
        return fail(cudaErrorInvalidValue, "cudaStreamEndCapture", "graph is NULL");
    struct capture *c = capturing(s);
    if (!c)
        return fail(cudaErrorIllegalState, "cudaStreamEndCapture",
                    "the stream is not capturing (cudaStreamBeginCapture starts a capture)");
    if (c->origin != s) { /* and the capture is invalidated, as on the H100 (scripts/gpu/s43.sh) */
        c->invalid = 1;
        return fail(cudaErrorStreamCaptureUnmatched, "cudaStreamEndCapture",
                    "this stream joined another stream's capture (it waited on an event recorded there): end the "
                    "capture on the stream that began it; the capture is invalidated");
    }
    c->active = 0;
    if (c->invalid) {
        capture_drop(c);
        *graph = NULL;
        return fail(cudaErrorStreamCaptureInvalidated, "cudaStreamEndCapture",
                    "a call during the capture invalidated it (above); no graph is made");
    }
    *graph = c->g;
    c->g = NULL;
    return cudaSuccess;
}
cudaError_t cudaStreamIsCapturing(cudaStream_t s, cudaStreamCaptureStatus *status)
{
    return simtlab_stream_capture_info(s, status, NULL, NULL);
}
cudaError_t simtlab_stream_capture_info(cudaStream_t s, cudaStreamCaptureStatus *status, unsigned long long *id,
                                        cudaGraph_t *graph)
{
    ENTER();
    if (!status)
        return fail(cudaErrorInvalidValue, "cudaStreamIsCapturing", "status is NULL");
    const struct capture *c = capturing(s);
    *status = !c ? cudaStreamCaptureStatusNone : c->invalid ? cudaStreamCaptureStatusInvalidated
                                                            : cudaStreamCaptureStatusActive;
    if (id)
        *id = c ? c->id : 0;
    if (graph)
        *graph = c ? c->g : NULL;
    return cudaSuccess;
}
cudaError_t cudaThreadExchangeStreamCaptureMode(cudaStreamCaptureMode *mode)
{
    ENTER();
    if (!mode || (unsigned)*mode > cudaStreamCaptureModeRelaxed)
        return fail(cudaErrorInvalidValue, "cudaThreadExchangeStreamCaptureMode", "mode is NULL or not 0-2");
    cudaStreamCaptureMode old = thread_capture_mode;
    thread_capture_mode = *mode;
    *mode = old;
    return cudaSuccess;
}
/* s is destroyed: a capture it began can no longer end, and ends here, its graph dropped (CUDA
 * invalidates it); one it joined goes on */
static void capture_stream_gone(cudaStream_t s)
{
    struct capture *c = capturing(s);
    if (!c || c->origin != s)
        return;
    capture_drop(c);
}
/* s waits on e: where e was recorded in a capturing stream, s joins that capture (a fork) */
static unsigned long long capture_id(const struct capture *c) { return c->id; }
static cudaError_t capture_join(cudaStream_t s, cudaEvent_t e)
{
    /* the capture the event was recorded in, if it still runs (its record is reused once it ends) */
    if (!e || !e->cap || !e->cap->active || e->cap->id != e->cap_id || stream_of(s) == &default_stream)
        return cudaSuccess;
    struct capture *mine = capturing(s);
    if (mine && mine != e->cap) { /* two captures would merge: CUDA refuses it, and so both end here */
        mine->invalid = e->cap->invalid = 1;
        return fail(cudaErrorStreamCaptureMerge, "cudaStreamWaitEvent",
                    "the stream is capturing, and the event was recorded in another stream's capture: two captures "
                    "cannot merge; both are invalidated");
    }
    stream_of(s)->cap = e->cap;
    stream_of(s)->cap_id = e->cap_id;
    return cudaSuccess;
}
/* A launch, copy or memset on the legacy default stream while a blocking stream captures: the
 * legacy stream would wait for the captured work (an implicit synchronization), which CUDA
 * refuses, invalidating the capture; a capture of a cudaStreamNonBlocking stream is not touched */
static cudaError_t capture_implicit(cudaStream_t s, const char *call)
{
    if (stream_of(s) != &default_stream)
        return cudaSuccess;
    int hit = 0;
    for (struct capture *c = captures; c; c = c->next)
        if (c->active && c->mode != cudaStreamCaptureModeRelaxed && !(stream_of(c->origin)->flags & cudaStreamNonBlocking))
            c->invalid = hit = 1;
    return hit ? fail(cudaErrorStreamCaptureImplicit, call,
                      "work on the legacy default stream (0) while a stream captures: it would wait for the "
                      "captured work (an implicit synchronization); the capture is invalidated. Issue it to the "
                      "capturing stream, or to a stream made with cudaStreamNonBlocking")
               : cudaSuccess;
}
/* Work the simulator does not record in a graph (stream-ordered allocation, cuBLAS, the other async
 * copies, a stream callback) issued to a capturing stream: it would run once, now, and be missing
 * from every launch of the graph. 1 (the capture invalidated, the reason said) or 0. */
int simtlab_capture_refuse(cudaStream_t s, const char *call)
{
    LOCKED();
    struct capture *c = capturing(s);
    if (!c)
        return 0;
    c->invalid = 1;
    char why[400];
    snprintf(why, sizeof why,
             "the stream is capturing, and the simulator records only kernel launches, cudaMemcpyAsync, "
             "cudaMemsetAsync and cudaLaunchHostFunc in a graph, not %s: the capture is invalidated (issue it "
             "before or after the capture)",
             call);
    (void)fail(cudaErrorStreamCaptureUnsupported, call, why);
    return 1;
}
/* A synchronizing call (call) on stream s (NULL: the device's): an error, and the capture
 * invalidated, where it would wait on work that is only being recorded */
static cudaError_t capture_sync(cudaStream_t s, const char *call)
{
    int hit = 0;
    for (struct capture *c = captures; c; c = c->next)
        if (c->active && (s ? capturing(s) == c : c->mode != cudaStreamCaptureModeRelaxed))
            c->invalid = hit = 1;
    if (!hit)
        return cudaSuccess;
    return fail(cudaErrorStreamCaptureUnsupported, call,
                s ? "the stream is capturing: its work runs when the graph is launched (cudaGraphLaunch), so there "
                    "is nothing to wait for; the capture is invalidated"
                  : "a stream is capturing (not in relaxed mode), and this would wait for its work, which runs "
                    "when the graph is launched; the capture is invalidated");
}
/* g's nodes in an order their dependencies allow, each before every node that depends on it, the
 * earlier added first where both may go (a captured graph: the order it was issued in): 0, -1 out of
 * memory, -2 a cycle */
static int graph_order(const struct simtlab_graph *g, size_t *order)
{
    int forward = 1; /* every dependency added before its node (a capture's, most explicit graphs'): as added */
    for (size_t i = 0; i < g->n && forward; i++)
        for (size_t d = 0; d < g->nodes[i]->n_deps; d++)
            forward &= g->nodes[i]->deps[d] < i;
    if (forward) {
        for (size_t i = 0; i < g->n; i++)
            order[i] = i;
        return 0;
    }
    unsigned char *done = calloc(g->n + 1, 1);
    if (!done)
        return -1;
    size_t k = 0;
    for (int progress = 1; k < g->n && progress;) {
        progress = 0;
        for (size_t i = 0; i < g->n; i++) {
            const struct simtlab_graph_node *nd = g->nodes[i];
            if (done[i])
                continue;
            size_t d = 0;
            while (d < nd->n_deps && done[nd->deps[d]])
                d++;
            if (d == nd->n_deps) {
                done[i] = 1, order[k++] = i, progress = 1;
                break; /* from the start again: the earliest added ready node goes next */
            }
        }
    }
    free(done);
    return k == g->n ? 0 : -2;
}
cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *exec, cudaGraph_t graph, unsigned long long flags)
{
    (void)flags; /* upload, auto-free, priorities: nothing to do on the simulator */
    ENTER();
    if (!exec || !graph)
        return fail(cudaErrorInvalidValue, "cudaGraphInstantiate", exec ? "the graph is NULL" : "exec is NULL");
    cudaGraphExec_t x = calloc(1, sizeof *x);
    size_t *order = malloc((graph->n + 1) * sizeof *order);
    const int o = x && order ? graph_order(graph, order) : -1;
    if (o == -2) {
        free(x), free(order);
        return fail(cudaErrorInvalidValue, "cudaGraphInstantiate",
                    "the graph's dependencies make a cycle (cudaGraphAddDependencies): no node of it can run first");
    }
    for (size_t i = 0; !o && i < graph->n; i++) {
        struct simtlab_graph_node *c = graph_add(&x->g, graph->nodes[order[i]]);
        if (!c) {
            graph_release(&x->g);
            free(x), x = NULL;
            break;
        }
        c->orig = graph->nodes[order[i]]->serial; /* cudaGraphExecKernelNodeSetParams finds it by this */
    }
    free(order);
    if (o || !x) {
        free(x);
        return fail(cudaErrorMemoryAllocation, "cudaGraphInstantiate", "out of host memory");
    }
    live_add(&x->g.live);
    *exec = x;
    return cudaSuccess;
}
cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t s)
{
    ENTER();
    if (!exec)
        return fail(cudaErrorInvalidResourceHandle, "cudaGraphLaunch", "the graph exec is NULL (not instantiated?)");
    struct capture *c = capturing(s);
    if (c) { /* launched into a capture: its nodes join the graph being made */
        for (size_t i = 0; i < exec->g.n; i++) {
            cudaError_t e = capture_node(c, "cudaGraphLaunch", exec->g.nodes[i]);
            if (e)
                return e;
        }
        return cudaSuccess;
    }
    if (capture_implicit(s, "cudaGraphLaunch")) /* the legacy stream while another captures */
        return cudaErrorStreamCaptureImplicit;
    return graph_run(&exec->g, s);
}
cudaError_t cudaGraphUpload(cudaGraphExec_t exec, cudaStream_t s)
{
    (void)s;
    ENTER();
    return exec ? cudaSuccess : fail(cudaErrorInvalidResourceHandle, "cudaGraphUpload", "the graph exec is NULL");
}
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec)
{
    ENTER();
    if (exec) {
        graph_release(&exec->g);
        live_del(&exec->g.live);
        free(exec);
    }
    return cudaSuccess;
}
cudaError_t cudaGraphDestroy(cudaGraph_t graph)
{
    ENTER();
    if (graph) {
        graph_release(graph);
        live_del(&graph->live);
        free(graph);
    }
    return cudaSuccess;
}
cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *n)
{
    ENTER();
    if (!graph || !n)
        return fail(cudaErrorInvalidValue, "cudaGraphGetNodes", graph ? "numNodes is NULL" : "the graph is NULL");
    if (!nodes) {
        *n = graph->n;
        return cudaSuccess;
    }
    for (size_t i = 0; i < *n; i++) /* the slots past the graph's nodes NULL, as CUDA's */
        nodes[i] = i < graph->n ? graph->nodes[i] : NULL;
    *n = *n < graph->n ? *n : graph->n;
    return cudaSuccess;
}

/* ---- the explicit graph API: nodes added one by one, with their dependencies ------------------- */
/* A memset node's rows: width elements of elem bytes, each the value's low bytes, pitch apart */
static cudaError_t memset_rows(const struct simtlab_graph_node *nd)
{
    unsigned char *row = malloc(nd->width * nd->elem + 1);
    if (!row)
        return fail(cudaErrorMemoryAllocation, "cudaGraphLaunch", "out of host memory for a memset node's row");
    for (size_t i = 0; i < nd->width; i++)
        memcpy(row + i * nd->elem, &nd->v, nd->elem); /* little-endian: the value's low bytes */
    cudaError_t e = cudaSuccess;
    for (size_t r = 0; r < nd->height && !e; r++)
        e = memcpy_on((char *)nd->dst + r * nd->pitch, row, nd->width * nd->elem, cudaMemcpyHostToDevice, 0);
    free(row);
    return e;
}
/* node in graph g? (its handle's check: a node of another graph, or none) */
static int node_in(cudaGraph_t g, cudaGraphNode_t node)
{
    return node && node->owner == g && node->index < g->n && g->nodes[node->index] == node;
}
/* nd added to g after deps[0..n): *out the node; the call's error else */
static cudaError_t add_node(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t n,
                            const struct simtlab_graph_node *nd, const char *call)
{
    if (!out || !g)
        return fail(cudaErrorInvalidValue, call, g ? "pGraphNode is NULL" : "the graph is NULL");
    if (n && !deps)
        return fail(cudaErrorInvalidValue, call, "pDependencies is NULL, and numDependencies is not 0");
    for (size_t i = 0; i < n; i++)
        if (!node_in(g, deps[i])) {
            char why[160];
            snprintf(why, sizeof why, "dependency %zu is %s", i, deps[i] ? "a node of another graph" : "NULL");
            return fail(cudaErrorInvalidValue, call, why);
        }
    size_t *d = n ? malloc(n * sizeof *d) : NULL;
    struct simtlab_graph_node *c = n && !d ? NULL : graph_add(g, nd);
    if (!c) {
        free(d);
        return fail(cudaErrorMemoryAllocation, call, "out of host memory for the graph");
    }
    for (size_t i = 0; i < n; i++)
        d[i] = deps[i]->index;
    c->deps = d, c->n_deps = n;
    *out = c;
    return cudaSuccess;
}
cudaError_t cudaGraphCreate(cudaGraph_t *g, unsigned flags)
{
    ENTER();
    if (!g)
        return fail(cudaErrorInvalidValue, "cudaGraphCreate", "pGraph is NULL");
    if (flags)
        return fail(cudaErrorInvalidValue, "cudaGraphCreate", "flags must be 0");
    *g = calloc(1, sizeof **g);
    if (!*g)
        return fail(cudaErrorMemoryAllocation, "cudaGraphCreate", "out of host memory");
    live_add(&(*g)->live);
    return cudaSuccess;
}
cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *node, cudaGraph_t g, const cudaGraphNode_t *deps, size_t n)
{
    ENTER();
    return add_node(node, g, deps, n, &(struct simtlab_graph_node){.kind = NODE_EMPTY}, "cudaGraphAddEmptyNode");
}
cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *node, cudaGraph_t g, const cudaGraphNode_t *deps, size_t n,
                                 const cudaHostNodeParams *p)
{
    ENTER();
    if (!p || !p->fn)
        return fail(cudaErrorInvalidValue, "cudaGraphAddHostNode", p ? "the host function is NULL" : "pNodeParams is NULL");
    return add_node(node, g, deps, n, &(struct simtlab_graph_node){.kind = NODE_HOST, .fn = p->fn, .user = p->userData},
                    "cudaGraphAddHostNode");
}
cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *node, cudaGraph_t g, const cudaGraphNode_t *deps, size_t n,
                                   const cudaMemsetParams *p)
{
    ENTER();
    if (!p)
        return fail(cudaErrorInvalidValue, "cudaGraphAddMemsetNode", "pMemsetParams is NULL");
    if (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4) {
        char why[120];
        snprintf(why, sizeof why, "elementSize %u: a memset node sets elements of 1, 2 or 4 bytes", p->elementSize);
        return fail(cudaErrorInvalidValue, "cudaGraphAddMemsetNode", why);
    }
    if (p->height > 1 && p->pitch < p->width * p->elementSize) {
        char why[160];
        snprintf(why, sizeof why, "pitch %zu is less than a row's %zu bytes (width %zu x elementSize %u)", p->pitch,
                 p->width * p->elementSize, p->width, p->elementSize);
        return fail(cudaErrorInvalidValue, "cudaGraphAddMemsetNode", why);
    }
    sim_alloc_info a;
    if (sim_alloc_query(p->dst, &a) != SIM_OK) {
        sim_get_last_status();
        return fail(cudaErrorInvalidValue, "cudaGraphAddMemsetNode",
                    "dst is not device memory (a memset node sets memory from cudaMalloc)");
    }
    const size_t rows = p->height ? p->height : 1, end = (size_t)((char *)p->dst - (char *)a.base) +
                                                          (rows - 1) * (rows > 1 ? p->pitch : 0) +
                                                          p->width * p->elementSize;
    if (end > a.bytes) {
        char why[300];
        snprintf(why, sizeof why, "its rows end %zu bytes into the allocation %s of %zu bytes", end,
                 a.name ? a.name : "", a.bytes);
        return fail(cudaErrorInvalidValue, "cudaGraphAddMemsetNode", why);
    }
    return add_node(node, g, deps, n,
                    &(struct simtlab_graph_node){.kind = NODE_MEMSET2D, .dst = p->dst, .v = (int)p->value,
                                                 .pitch = p->height > 1 ? p->pitch : p->width * p->elementSize,
                                                 .width = p->width, .height = p->height ? p->height : 1,
                                                 .elem = p->elementSize},
                    "cudaGraphAddMemsetNode");
}
cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *node, cudaGraph_t g, const cudaGraphNode_t *deps, size_t n,
                                   const cudaMemcpy3DParms *p)
{
    ENTER();
    if (!p)
        return fail(cudaErrorInvalidValue, "cudaGraphAddMemcpyNode", "pCopyParams is NULL");
    if (p->srcArray || p->dstArray)
        return fail(cudaErrorNotSupported, "cudaGraphAddMemcpyNode",
                    "CUDA arrays are not supported by the simulator (no texture unit): copy between pitched "
                    "pointers (srcPtr, dstPtr)");
    char why[200];
    if (p->extent.width && p->extent.height && p->extent.depth &&
        (!box_fits(p->srcPtr, p->srcPos, p->extent, "source", why, sizeof why) ||
         !box_fits(p->dstPtr, p->dstPos, p->extent, "destination", why, sizeof why)))
        return fail(cudaErrorInvalidValue, "cudaGraphAddMemcpyNode", why);
    return add_node(node, g, deps, n, &(struct simtlab_graph_node){.kind = NODE_MEMCPY3D, .m3 = *p},
                    "cudaGraphAddMemcpyNode");
}
cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *node, cudaGraph_t g, const cudaGraphNode_t *deps, size_t n,
                                     void *dst, const void *src, size_t count, cudaMemcpyKind kind)
{
    ENTER();
    if ((unsigned)kind > cudaMemcpyDefault)
        return fail(cudaErrorInvalidMemcpyDirection, "cudaGraphAddMemcpyNode1D", "kind is no cudaMemcpyKind");
    return add_node(node, g, deps, n,
                    &(struct simtlab_graph_node){.kind = NODE_MEMCPY, .dst = dst, .src = src, .n = count, .k = kind},
                    "cudaGraphAddMemcpyNode1D");
}
cudaError_t simtlab_graph_add_deps(cudaGraph_t g, const cudaGraphNode_t *from, const cudaGraphNode_t *to, size_t n)
{
    ENTER();
    if (!g)
        return fail(cudaErrorInvalidValue, "cudaGraphAddDependencies", "the graph is NULL");
    if (n && (!from || !to))
        return fail(cudaErrorInvalidValue, "cudaGraphAddDependencies", "from or to is NULL");
    for (size_t i = 0; i < n; i++)
        if (!node_in(g, from[i]) || !node_in(g, to[i]) || from[i] == to[i]) {
            char why[160];
            snprintf(why, sizeof why, "edge %zu: %s", i,
                     from[i] == to[i] && from[i] ? "a node cannot depend on itself" : "a node NULL or of another graph");
            return fail(cudaErrorInvalidValue, "cudaGraphAddDependencies", why);
        }
    for (size_t i = 0; i < n; i++) {
        struct simtlab_graph_node *t = to[i];
        int have = 0;
        for (size_t d = 0; d < t->n_deps; d++)
            have |= t->deps[d] == from[i]->index;
        if (have)
            continue;
        size_t *nd = realloc(t->deps, (t->n_deps + 1) * sizeof *nd);
        if (!nd)
            return fail(cudaErrorMemoryAllocation, "cudaGraphAddDependencies", "out of host memory");
        nd[t->n_deps++] = from[i]->index;
        t->deps = nd;
    }
    return cudaSuccess;
}
cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType *t)
{
    ENTER();
    if (!node || !t)
        return fail(cudaErrorInvalidValue, "cudaGraphNodeGetType", node ? "pType is NULL" : "the node is NULL");
    static const cudaGraphNodeType type[] = {
        [NODE_KERNEL] = cudaGraphNodeTypeKernel, [NODE_MEMCPY] = cudaGraphNodeTypeMemcpy,
        [NODE_MEMSET] = cudaGraphNodeTypeMemset, [NODE_HOST] = cudaGraphNodeTypeHost,
        [NODE_EMPTY] = cudaGraphNodeTypeEmpty,   [NODE_MEMCPY3D] = cudaGraphNodeTypeMemcpy,
        [NODE_MEMSET2D] = cudaGraphNodeTypeMemset};
    *t = type[node->kind];
    return cudaSuccess;
}
cudaError_t cudaGraphGetRootNodes(cudaGraph_t g, cudaGraphNode_t *nodes, size_t *n)
{
    ENTER();
    if (!g || !n)
        return fail(cudaErrorInvalidValue, "cudaGraphGetRootNodes", g ? "pNumRootNodes is NULL" : "the graph is NULL");
    size_t k = 0;
    for (size_t i = 0; i < g->n; i++)
        if (!g->nodes[i]->n_deps) {
            if (nodes && k < *n)
                nodes[k] = g->nodes[i];
            k++;
        }
    if (nodes)
        for (size_t i = k; i < *n; i++)
            nodes[i] = NULL;
    *n = nodes && *n < k ? *n : k;
    return cudaSuccess;
}
cudaError_t cudaGraphClone(cudaGraph_t *clone, cudaGraph_t g)
{
    ENTER();
    if (!clone || !g)
        return fail(cudaErrorInvalidValue, "cudaGraphClone", g ? "pGraphClone is NULL" : "the graph is NULL");
    cudaGraph_t c = calloc(1, sizeof *c);
    int ok = c != NULL;
    for (size_t i = 0; ok && i < g->n; i++) {
        struct simtlab_graph_node *nd = graph_add(c, g->nodes[i]);
        ok = nd && (!g->nodes[i]->n_deps || (nd->deps = malloc(g->nodes[i]->n_deps * sizeof *nd->deps)));
        if (ok && g->nodes[i]->n_deps) {
            memcpy(nd->deps, g->nodes[i]->deps, g->nodes[i]->n_deps * sizeof *nd->deps);
            nd->n_deps = g->nodes[i]->n_deps;
        }
    }
    if (!ok) {
        if (c)
            graph_release(c);
        free(c);
        return fail(cudaErrorMemoryAllocation, "cudaGraphClone", "out of host memory");
    }
    live_add(&c->live);
    *clone = c;
    return cudaSuccess;
}
/* A kernel node: the shim calls begin, then launches the kernel through its typed path (the
 * arguments read by its parameter types, as cudaLaunchKernel's), which simtlab_launch records into
 * the graph instead of running (record), then end with the launch's result. */
static _Thread_local struct {
    cudaGraph_t g;
    cudaGraphNode_t *out;
    const cudaGraphNode_t *deps;
    size_t n;
    cudaError_t e;
    struct simtlab_graph_node *target; /* a kernel node's new parameters (set_begin): replaced at the end */
    struct simtlab_graph tmp;          /* where they are recorded first */
    cudaGraphNode_t tmp_node;
} record;
cudaError_t simtlab_graph_record_begin(cudaGraphNode_t *node, cudaGraph_t g, const cudaGraphNode_t *deps, size_t n,
                                       const void *func)
{
    ENTER();
    if (!func)
        return fail(cudaErrorInvalidDeviceFunction, "cudaGraphAddKernelNode", "the kernel (func) is NULL");
    if (!node || !g)
        return fail(cudaErrorInvalidValue, "cudaGraphAddKernelNode", g ? "pGraphNode is NULL" : "the graph is NULL");
    for (size_t i = 0; i < n; i++)
        if (!deps || !node_in(g, deps[i]))
            return fail(cudaErrorInvalidValue, "cudaGraphAddKernelNode", "a dependency is NULL or of another graph");
    record.g = g, record.out = node, record.deps = deps, record.n = n, record.e = cudaErrorUnknown;
    return cudaSuccess;
}
cudaError_t simtlab_graph_record_end(cudaError_t launch)
{
    const cudaError_t e = launch ? launch : record.e;
    record.g = NULL; /* first: nothing after this records, whatever ENTER finds */
    struct simtlab_graph_node *t = record.target;
    record.target = NULL;
    if (t) { /* a set: the recorded node's launch replaces the target's, which keeps its place and edges */
        if (!e && record.tmp.n == 1) {
            struct simtlab_graph_node *nd = record.tmp.nodes[0];
            free(t->name), free(t->args);
            t->name = nd->name, t->file = nd->file, t->line = nd->line, t->library = nd->library;
            t->grid = nd->grid, t->block = nd->block, t->shared = nd->shared;
            t->thunk = nd->thunk, t->args = nd->args, t->args_size = nd->args_size;
            nd->name = NULL, nd->args = NULL; /* now the target's */
        }
        graph_release(&record.tmp);
    }
    return e;
}
/* cudaGraphKernelNodeSetParams (x NULL: the graph's node) and cudaGraphExecKernelNodeSetParams (the
 * exec's node made from it): the new launch is recorded as a kernel node's is, then replaces the
 * node's kernel, configuration and arguments (simtlab_graph_record_end) */
cudaError_t simtlab_graph_kernel_set_begin(cudaGraphExec_t x, cudaGraphNode_t node, const void *func)
{
    ENTER();
    const char *call = x ? "cudaGraphExecKernelNodeSetParams" : "cudaGraphKernelNodeSetParams";
    if (!func)
        return fail(cudaErrorInvalidDeviceFunction, call, "the kernel (func) is NULL");
    if (!node)
        return fail(cudaErrorInvalidValue, call, "the node is NULL");
    struct simtlab_graph_node *t = NULL;
    if (x) {
        for (size_t i = 0; i < x->g.n && !t; i++)
            if (x->g.nodes[i]->orig == node->serial)
                t = x->g.nodes[i];
        if (!t)
            return fail(cudaErrorInvalidValue, call, "the node is not one of the graph the exec was instantiated from");
    } else {
        t = node;
    }
    if (t->kind != NODE_KERNEL)
        return fail(cudaErrorInvalidValue, call, "the node is not a kernel node");
    graph_release(&record.tmp);
    record.g = &record.tmp, record.out = &record.tmp_node, record.deps = NULL, record.n = 0;
    record.e = cudaErrorUnknown;
    record.target = t;
    return cudaSuccess;
}
cudaError_t simtlab_graph_kernel_untyped(const char *file, int line)
{
    char why[500];
    const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    snprintf(why, sizeof why,
             "at %s:%d the kernel node's func is a void pointer, and the simulator needs the kernel's parameter "
             "types to read kernelParams (a GPU's driver has them from the kernel's metadata): assign the kernel "
             "itself, `params.func = kernel;` (the cast `(void *)kernel` is dropped by simtlab run where it is "
             "written so)",
             base, line);
    return fail(cudaErrorInvalidDeviceFunction, "cudaGraphAddKernelNode", why);
}

cudaError_t cudaEventCreate(cudaEvent_t *e) { return cudaEventCreateWithFlags(e, 0); }
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags)
{
    ENTER();
    if (!e)
        return fail(cudaErrorInvalidValue, "cudaEventCreate", "event is NULL");
    if (flags & ~(unsigned)(cudaEventBlockingSync | cudaEventDisableTiming | cudaEventInterprocess)) {
        char why[128];
        snprintf(why, sizeof why, "flags 0x%x: not cudaEvent* flags (cudaEventBlockingSync 1, cudaEventDisableTiming 2, "
                 "cudaEventInterprocess 4)", flags);
        return fail(cudaErrorInvalidValue, "cudaEventCreateWithFlags", why);
    }
    /* an interprocess event is an event in this process too (CUDA IPC itself, cudaIpc*, is refused
     * by name when the program is built); CUDA asks for it without timing */
    if ((flags & cudaEventInterprocess) && !(flags & cudaEventDisableTiming))
        return fail(cudaErrorInvalidValue, "cudaEventCreateWithFlags",
                    "cudaEventInterprocess needs cudaEventDisableTiming with it, as CUDA says: pass "
                    "cudaEventInterprocess | cudaEventDisableTiming");
    *e = calloc(1, sizeof **e);
    if (!*e)
        return fail(cudaErrorMemoryAllocation, "cudaEventCreate", "out of host memory");
    (*e)->flags = flags;
    return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t e)
{
    ENTER();
    free(e);
    return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s)
{
    ENTER();
    if (!e)
        return fail(cudaErrorInvalidResourceHandle, "cudaEventRecord", "the event is NULL (not created?)");
    e->cap = capturing(s); /* in a capture: a point in the graph that other streams may wait on */
    if (e->cap) {
        e->cap_id = capture_id(e->cap);
        return cudaSuccess;
    }
    const double h = host_ms();
    e->t_ms = clock_ms > h ? clock_ms : h;
    e->recorded = 1;
    return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t e)
{
    ENTER_SYNC();
    if (!e)
        return fail(cudaErrorInvalidResourceHandle, "cudaEventSynchronize", "the event is NULL");
    const double h = host_ms();
    if (e->recorded && e->t_ms > h)
        host_wait_ms += e->t_ms - h;
    return cudaSuccess;
}
cudaError_t cudaEventQuery(cudaEvent_t e)
{
    ENTER_SYNC();
    return e ? cudaSuccess : fail(cudaErrorInvalidResourceHandle, "cudaEventQuery", "the event is NULL");
}
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b)
{
    ENTER_SYNC();
    if (!ms || !a || !b)
        return fail(!ms ? cudaErrorInvalidValue : cudaErrorInvalidResourceHandle, "cudaEventElapsedTime",
                    !ms ? "ms is NULL" : "an event is NULL");
    if (!a->recorded || !b->recorded)
        return fail(cudaErrorInvalidResourceHandle, "cudaEventElapsedTime", "an event was not recorded");
    if ((a->flags | b->flags) & cudaEventDisableTiming)
        return fail(cudaErrorInvalidResourceHandle, "cudaEventElapsedTime", "an event has cudaEventDisableTiming");
    *ms = (float)(b->t_ms - a->t_ms);
    return cudaSuccess;
}

/* ---- launches ---------------------------------------------------------------------------- */
/* The kernels a note was said for (once a kernel, 8 kernels at most). */
typedef struct note_said {
    char kernel[8][64];
    int n;
} note_said;

static int note_first(note_said *ns, const char *kernel)
{
    for (int k = 0; k < ns->n; k++)
        if (!strncmp(ns->kernel[k], kernel, sizeof ns->kernel[k] - 1))
            return 0;
    if (ns->n == 8)
        return 0;
    snprintf(ns->kernel[ns->n++], sizeof ns->kernel[0], "%s", kernel);
    return 1;
}

/* ---- cudaLaunchKernel (cuda_runtime.h) ---------------------------------------------------- */
cudaError_t simtlab_api_fail(cudaError_t e, const char *fn, const char *why) { return fail(e, fn, why); }

/* The kernel as the call wrote it: the macro's whole argument text up to the first comma outside
 * brackets, a cast to a void pointer and an & dropped ("(void *)k" and "reinterpret_cast<const
 * void *>(&k)" give "k"; "k<float, 4>" stays), kept once for the process (reports name it). */
const char *simtlab_launch_name(const char *text)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static struct name_node { struct name_node *next; char s[]; } *names;
    size_t end = 0;
    for (int depth = 0; text[end] && !(depth == 0 && text[end] == ','); end++)
        if (!(text[end] == '>' && end && text[end - 1] == '-')) /* `p->k` */
            depth += strchr("(<[", text[end]) ? 1 : strchr(")>]", text[end]) ? -1 : 0;
    const char *b = text, *e = text + end;
    const char *close = NULL;
    for (const char *c = b; c < e; c++)
        if (*c == ')')
            close = c;
    if (close && memmem(b, (size_t)(close - b), "void", 4)) { /* a cast: "(T)k" or "x_cast<T>(k)" */
        if (*b == '(')
            b = close + 1;
        else if ((b = memchr(b, '(', (size_t)(close - b))) != NULL)
            b++, e = close;
        else
            b = text;
    }
    while (b < e && (*b == ' ' || *b == '\t' || *b == '&' || *b == '\n'))
        b++;
    while (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n'))
        e--;
    if (e == b)
        b = "(cudaLaunchKernel)", e = b + strlen(b);
    pthread_mutex_lock(&lock);
    struct name_node *n = names;
    for (; n; n = n->next)
        if (strlen(n->s) == (size_t)(e - b) && !memcmp(n->s, b, (size_t)(e - b)))
            break;
    if (!n && (n = malloc(sizeof *n + (size_t)(e - b) + 1)) != NULL) {
        memcpy(n->s, b, (size_t)(e - b));
        n->s[e - b] = 0;
        n->next = names;
        names = n;
    }
    pthread_mutex_unlock(&lock);
    return n ? n->s : "(cudaLaunchKernel)";
}

/* A launch through a function pointer variable (`kernel<<<...>>>` with `void (*kernel)(int *)`,
 * gpu-mode's lecture 8) is named by the function it points to, not the variable: the launch's
 * closure holds just that pointer (SIMTLAB_KCALL_ captures by value), and the pointer is the start
 * of a function in kernel code (sim_kernel_name_at). One addr2line a pointer; kept for the run. */
const char *simtlab_launch_fname(const char *text, const void *closure)
{
    void *p;
    memcpy(&p, closure, sizeof p);
    static struct {
        void *p;
        const char *name;
    } seen[64];
    static int n_seen;
    for (int i = 0; i < n_seen; i++)
        if (seen[i].p == p)
            return seen[i].name ? seen[i].name : text;
    char name[256];
    const char *got = sim_kernel_name_at(p, name, sizeof name) ? NULL : simtlab_launch_name(name);
    if (n_seen < 64)
        seen[n_seen].p = p, seen[n_seen++].name = got;
    return got ? got : text;
}

cudaError_t simtlab_launch_untyped(const char *kernel, const char *file, int line)
{
    char why[600];
    const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    snprintf(why, sizeof why,
             "at %s:%d the kernel %s comes as a void pointer, and the simulator needs its parameter types to read "
             "args (a GPU's driver has them from the kernel's metadata): pass the kernel itself, "
             "cudaLaunchKernel(%s, ...), which CUDA's C++ overload takes too, or launch it with <<<>>>",
             base, line, kernel, kernel);
    return fail(cudaErrorInvalidDeviceFunction, "cudaLaunchKernel", why);
}

static _Thread_local int next_is_library; /* simtlab_launch_is_library: for the launch's record */
void simtlab_launch_is_library(void) { next_is_library = 1; }

cudaError_t simtlab_launch(const char *kernel, const char *file, int line, simtlab_dim3 grid, simtlab_dim3 block,
                           size_t shared, cudaStream_t stream, void (*thunk)(const void *), const void *args,
                           size_t args_size)
{
    const int library = next_is_library;
    next_is_library = 0;
    ENTER();
    const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    if (sim_in_cuda_thread()) { /* a launch from a simulated thread: a kernel inside the running one */
        static int said;
        if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
            say("kernel %s launched at %s:%d from inside a kernel's thread (dynamic parallelism, or a host "
                "function launched with <<<>>>): simtlab runs kernels from host code only; this launch and any "
                "like it return cudaErrorNotSupported (said once)",
                kernel, base, line);
        return cudaErrorNotSupported; /* the host's last error stays the outer launch's */
    }
    if (record.g) { /* cudaGraphAddKernelNode's: a node of its graph, not a launch */
        record.e = add_node(record.out, record.g, record.deps, record.n,
                            &(struct simtlab_graph_node){.kind = NODE_KERNEL, .name = (char *)kernel, .file = file,
                                                         .line = line, .library = library, .grid = grid,
                                                         .block = block, .shared = shared, .thunk = thunk,
                                                         .args = (void *)args, .args_size = args_size},
                            "cudaGraphAddKernelNode");
        return record.e;
    }
    if (pending_err) { /* an earlier kernel faulted: on a GPU its context is lost, and what is queued never runs */
        static int said;
        if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
            say("kernel %s (launched at %s:%d) does not run: an earlier kernel's fault (above) has ended the GPU "
                "context, as on a GPU, where the program sees it at its next call that waits for the GPU (said once)",
                kernel, base, line);
        return cudaSuccess;
    }
    struct capture *cap = capturing(stream);
    if (!cap && capture_implicit(stream, "the launch"))
        return cudaErrorStreamCaptureImplicit;
    if (cap) /* recorded in the stream's graph; it runs at cudaGraphLaunch */
        return capture_node(cap, "the launch",
                            &(struct simtlab_graph_node){.kind = NODE_KERNEL, .name = (char *)kernel, .file = file,
                                                         .line = line, .library = library, .grid = grid,
                                                         .block = block, .shared = shared, .thunk = thunk,
                                                         .args = (void *)args, .args_size = args_size});
    simt_cfg cfg = {{grid.x, grid.y, grid.z}, {block.x, block.y, block.z}, shared, NULL, 0};
    char heap_why[600];
    if (make_heap(heap_why, sizeof heap_why))
        return fail(cudaErrorMemoryAllocation, "the launch", heap_why);
    /* the launch's copy of its arguments (the shim's launch::call): the threads read it as a
     * GPU reads its parameter space (a parameter's copy constructor, a reference to a copy) */
    sim_set_launch_params(args, args_size);
    sim_status s = (sim_status)sim_launch(&cfg, kernel, thunk, args);
    sim_set_launch_params(NULL, 0);
    const sim_launch_info *li = sim_last_launch();
    cudaError_t e = of_status(s);
    if (s) {
        if (s == SIM_ERR_INVALID_CONFIGURATION || s == SIM_ERR_INVALID_VALUE) {
            const char *name = cudaGetErrorName(e);
            say("launch of %s at %s:%d failed with %s: %s", kernel, base, line, name, past_name(sim_last_error(), name));
        }
        else {
            say("kernel %s (launched at %s:%d) failed; the program sees %s at its next call that waits for the "
                "GPU (cudaDeviceSynchronize, cudaMemcpy, ...), and from every call after it:\n%s",
                kernel, base, line, cudaGetErrorName(e), sim_last_error());
            pending_err = e;
            e = cudaSuccess; /* the launch itself succeeded */
        }
        last_err = e;
        sim_get_last_status();
    }
    /* notes: said, not failed, once a kernel each; after a fault too, where a race before it is
     * often the fault's cause (a published index overwritten with no barrier, then read: survey 21) */
    static note_said race_said, undef_said, grace_said;
    const char *how = s ? "failed (above); before that" : "ran;";
    if (li->race_note[0] && note_first(&race_said, kernel))
        say("kernel %s (launched at %s:%d) %s counting mode's sample saw this (said once a kernel):\n%s", kernel,
            base, line, how, li->race_note);
    if (li->undef_note[0] && note_first(&undef_said, kernel))
        say("kernel %s (launched at %s:%d) %s it read an undefined value (said once a kernel):\n%s", kernel, base,
            line, how, li->undef_note);
    if (li->global_race_note[0] && note_first(&grace_said, kernel))
        say("kernel %s (launched at %s:%d) %s its threads race on global memory (said once a kernel):\n%s", kernel,
            base, line, how, li->global_race_note);
    /* the launch's simulated GPU time: the time model's prediction for the preset's chip
     * (sim/timemodel.c; docs/run.md says how close it comes) */
    const int ran = s != SIM_ERR_INVALID_CONFIGURATION && s != SIM_ERR_INVALID_VALUE; /* a grid of 0: no time */
    const double ms = ran ? sim_time_model(sim_get_device(), &cfg, &li->c, 0).seconds * 1e3 : 0;
    if (!s || pending_err)
        gpu_work(ms);
    if (n_recs == cap_recs) {
        size_t cap = cap_recs ? cap_recs * 2 : 64;
        launch_rec *r = realloc(recs, cap * sizeof *r);
        if (!r) {
            say("out of host memory for the record of launch %zu (%s); it is left out of the summary", n_recs + 1,
                kernel);
            return e;
        }
        recs = r;
        cap_recs = cap;
    }
    launch_rec *r = &recs[n_recs++];
    memset(r, 0, sizeof *r);
    r->library = library;
    snprintf(r->k.name, sizeof r->k.name, "%s", kernel);
    r->k.cfg = cfg;
    r->k.status = (int)s;
    r->k.sim = li->c;
    r->k.time_ms = li->wall_ms;
    snprintf(r->file, sizeof r->file, "%s", base);
    r->line = line;
    r->sim_ms = ms;
    if (opt_lines)
        run_lines_report(r->k.name, n_recs, &r->lines, &r->n_lines);
    if (sim_interrupted()) { /* Ctrl-C or SIGTERM stopped it: the summary so far (at_exit), then end
                              * as the signal would have ended the program */
        say("interrupted in kernel %s (launched at %s:%d); the launches so far:", kernel, base, line);
        exit(128 + sim_interrupted());
    }
    return e;
}

/* ---- Ctrl-C or SIGTERM in host code ----------------------------------------------------------
 * From the first runtime call on, SIGINT and SIGTERM outside launches (a loop in the program's
 * host code, a sleep) end the program as during a launch: the summary of the launches so far
 * (and --json), then the signal's status, 128 + n. Called on the simulator's own thread, not in
 * the signal handler (sim_interrupt_hook): the runtime call another host thread is making, if any,
 * ends first, and none starts after (api_lock). _exit, not exit: the program's atexit handlers and static
 * destructors would run while its threads go on (the signal's default action runs none either);
 * its stdout is flushed unless another thread is writing it. */
static void stop_in_host_code(int sig)
{
    atomic_store(&api_stopping, 1);
    api_held++; /* taken here, past api_lock's wait */
    pthread_mutex_lock(&api_mu);
    say("interrupted (%s) in host code; the launches so far:", sig == SIGINT ? "SIGINT: Ctrl-C" : "SIGTERM");
    at_exit();
    if (!ftrylockfile(stdout)) {
        fflush_unlocked(stdout);
        funlockfile(stdout);
    }
    _exit(128 + sig);
}
/* In the signal handler (async-signal-safe: a thread-local read): the interrupted thread may wait
 * there for stop_in_host_code unless it is inside a runtime call, whose lock stop needs. */
static int stop_may_wait(void) { return api_held == 0; }

/* ---- at exit: the summary and --json ------------------------------------------------------- */
static void at_exit(void)
{
    /* after a runtime call another host thread is making (it may append a launch); once */
    LOCKED();
    static int done;
    if (done)
        return;
    done = 1;
    run_summary(stderr, recs, n_recs, opt_detail);
    const char *tsv = getenv("SIMTLAB_RUN_TSV"); /* --mode compare: for the driver (run_cuda.c read_tsv) */
    if (tsv && tsv[0]) {
        FILE *f = fopen(tsv, "w");
        for (size_t i = 0; f && i < n_recs; i++) {
            const be_kernel *k = &recs[i].k;
            fprintf(f, "%s%s\t%u\t%u\t%u\t%u\t%u\t%u\t%d", recs[i].library ? "@" : "", k->name, k->cfg.grid.x,
                    k->cfg.grid.y, k->cfg.grid.z,
                    k->cfg.block.x, k->cfg.block.y, k->cfg.block.z, k->status);
            const uint64_t *c = (const uint64_t *)&k->sim;
            for (size_t x = 0; x < sizeof k->sim / sizeof(uint64_t); x++)
                fprintf(f, "\t%llu", (unsigned long long)c[x]);
            fputc('\n', f);
        }
        if (!f || fclose(f))
            say("cannot write %s: %s", tsv, strerror(errno));
    }
    if (opt_json) {
        FILE *f = fopen(opt_json, "w");
        if (!f) {
            say("--json %s: %s", opt_json, strerror(errno));
            return;
        }
        json j;
        json_open(&j, f);
        json_str(&j, "tool", "simtlab run");
        json_str(&j, "mode", "sim");
        json_str(&j, "device", sim_get_device()->name);
        json_bool(&j, "detailed", opt_detail);
        json_arr(&j, "kernels");
        for (size_t i = 0; i < n_recs; i++) {
            const launch_rec *r = &recs[i];
            json_obj(&j, NULL);
            lesson_json_kernel_fields(&j, &r->k, opt_detail);
            json_str(&j, "file", r->file);
            json_int(&j, "line", r->line);
            json_num(&j, "simulated_ms", r->sim_ms);
            if (opt_lines)
                run_lines_json(&j, r->lines, r->n_lines);
            json_end(&j);
        }
        json_end_arr(&j);
        json_close(&j);
        if (fclose(f))
            say("--json %s: %s", opt_json, strerror(errno));
    }
}

/* ---- what a pointer is; kernels' attributes; the rest of the runtime's small calls ---------- */
cudaError_t cudaPointerGetAttributes(cudaPointerAttributes *a, const void *p)
{
    ENTER();
    if (!a)
        return fail(cudaErrorInvalidValue, "cudaPointerGetAttributes", "attributes is NULL");
    sim_alloc_info info;
    memset(a, 0, sizeof *a);
    a->device = -2; /* cudaInvalidDeviceId, as CUDA 11+ says of unregistered memory */
    if (!p || sim_alloc_query(p, &info) != SIM_OK || info.freed) {
        a->type = cudaMemoryTypeUnregistered;
        a->hostPointer = (void *)p;
        return cudaSuccess;
    }
    a->device = 0;
    a->devicePointer = (void *)p;
    if (pinned_of(p))
        a->type = cudaMemoryTypeHost, a->hostPointer = (void *)p;
    else if (info.name && (!strncmp(info.name, "cudaMallocManaged ", 18) || /* simtlab_malloc's name: */
                           strstr(info.name, ", cudaMallocManaged ")))      /* "[var, ]what at file:line" */
        a->type = cudaMemoryTypeManaged, a->hostPointer = (void *)p;
    else
        a->type = cudaMemoryTypeDevice;
    return cudaSuccess;
}
cudaError_t simtlab_func_get_attributes(cudaFuncAttributes *a)
{
    ENTER();
    if (!a)
        return fail(cudaErrorInvalidValue, "cudaFuncGetAttributes", "attributes is NULL");
    const sim_device *d = sim_get_device();
    memset(a, 0, sizeof *a);
    a->maxThreadsPerBlock = (int)d->max_threads_per_block;
    a->ptxVersion = a->binaryVersion = d->cc_major * 10 + d->cc_minor;
    a->maxDynamicSharedSizeBytes = (int)sim_get_max_dynamic_shared();
    a->preferredShmemCarveout = -1;
    return cudaSuccess;
}
static cudaSharedMemConfig bank_config = cudaSharedMemBankSizeDefault;
cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig c)
{
    ENTER();
    if ((unsigned)c > 2) {
        char why[96];
        snprintf(why, sizeof why, "config %d: not a cudaSharedMemConfig (0-2)", (int)c);
        return fail(cudaErrorInvalidValue, "cudaDeviceSetSharedMemConfig", why);
    }
    bank_config = c; /* kept; the banks stay 4 bytes wide, as on sm_50 and later */
    return cudaSuccess;
}
cudaError_t cudaDeviceGetSharedMemConfig(cudaSharedMemConfig *c)
{
    ENTER();
    if (!c)
        return fail(cudaErrorInvalidValue, "cudaDeviceGetSharedMemConfig", "config is NULL");
    *c = cudaSharedMemBankSizeFourByte;
    return cudaSuccess;
}
cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned flags, int priority)
{
    cudaError_t e = cudaStreamCreateWithFlags(s, flags);
    if (!e)
        (*s)->priority.priority = priority < -5 ? -5 : priority > 0 ? 0 : priority;
    return e;
}
cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest)
{
    ENTER();
    if (least)
        *least = 0;
    if (greatest)
        *greatest = -5; /* the H100's range; streams run in order here whatever their priority */
    return cudaSuccess;
}
cudaError_t cudaStreamGetFlags(cudaStream_t s, unsigned *flags)
{
    ENTER();
    if (!flags)
        return fail(cudaErrorInvalidValue, "cudaStreamGetFlags", "flags is NULL");
    *flags = stream_of(s)->flags;
    return cudaSuccess;
}
cudaError_t cudaStreamGetPriority(cudaStream_t s, int *priority)
{
    ENTER();
    if (!priority)
        return fail(cudaErrorInvalidValue, "cudaStreamGetPriority", "priority is NULL");
    *priority = stream_of(s)->priority.priority;
    return cudaSuccess;
}
cudaError_t cudaMemset2D(void *p, size_t pitch, int v, size_t width, size_t height)
{
    ENTER();
    if (width > pitch) {
        char why[120];
        snprintf(why, sizeof why, "width %zu bytes is larger than the pitch, %zu", width, pitch);
        return fail(cudaErrorInvalidValue, "cudaMemset2D", why);
    }
    for (size_t r = 0; r < height; r++) {
        cudaError_t e = cudaMemset((char *)p + r * pitch, v, width);
        if (e)
            return e;
    }
    return cudaSuccess;
}
cudaError_t cudaMemset2DAsync(void *p, size_t pitch, int v, size_t width, size_t height, cudaStream_t s)
{
    (void)s;
    return cudaMemset2D(p, pitch, v, width, height);
}
cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                              cudaMemcpyKind k, cudaStream_t s)
{
    (void)s;
    ASYNC_AS(cudaMemcpy2D(dst, dpitch, src, spitch, width, height, k));
}
cudaError_t cudaMemcpyPeer(void *dst, int dst_dev, const void *src, int src_dev, size_t n)
{
    ENTER_SYNC();
    if (dst_dev != 0 || src_dev != 0)
        return fail(cudaErrorInvalidDevice, "cudaMemcpyPeer", "the simulator has one device, 0");
    return cudaMemcpy(dst, src, n, cudaMemcpyDeviceToDevice);
}
cudaError_t cudaMemcpyPeerAsync(void *dst, int dst_dev, const void *src, int src_dev, size_t n, cudaStream_t s)
{
    (void)s; /* streams run in order here: the copy is done when this returns */
    ASYNC_AS(cudaMemcpyPeer(dst, dst_dev, src, src_dev, n));
}
cudaError_t cudaDeviceCanAccessPeer(int *can, int dev, int peer)
{
    ENTER();
    if (!can || dev != 0 || peer != 0)
        return fail(can ? cudaErrorInvalidDevice : cudaErrorInvalidValue, "cudaDeviceCanAccessPeer",
                    can ? "the simulator has one device, 0" : "canAccessPeer is NULL");
    *can = 0; /* a device is not its own peer */
    return cudaSuccess;
}
cudaError_t cudaDeviceEnablePeerAccess(int peer, unsigned flags)
{
    (void)flags;
    ENTER();
    (void)peer;
    return fail(cudaErrorInvalidDevice, "cudaDeviceEnablePeerAccess", "the simulator has one device: no peer");
}
cudaError_t cudaDeviceDisablePeerAccess(int peer)
{
    ENTER();
    (void)peer;
    return fail(cudaErrorInvalidDevice, "cudaDeviceDisablePeerAccess", "the simulator has one device: no peer");
}
cudaError_t cudaGetDeviceFlags(unsigned *flags)
{
    ENTER();
    if (!flags)
        return fail(cudaErrorInvalidValue, "cudaGetDeviceFlags", "flags is NULL");
    *flags = device_flags | cudaDeviceMapHost;
    return cudaSuccess;
}
cudaError_t cudaChooseDevice(int *dev, const cudaDeviceProp *want)
{
    ENTER();
    if (!dev || !want)
        return fail(cudaErrorInvalidValue, "cudaChooseDevice", dev ? "prop is NULL" : "device is NULL");
    *dev = 0;
    return cudaSuccess;
}
cudaError_t cudaDeviceGetPCIBusId(char *id, int len, int dev)
{
    ENTER();
    if (!id || len <= 0 || dev != 0)
        return fail(dev ? cudaErrorInvalidDevice : cudaErrorInvalidValue, "cudaDeviceGetPCIBusId",
                    dev ? "the simulator has one device, 0" : "pciBusId is NULL or len <= 0");
    snprintf(id, (size_t)len, "0000:00:00.0");
    return cudaSuccess;
}
cudaError_t cudaThreadExit(void) { return cudaDeviceReset(); }
