/* cuda/counters.cu - hardware counters of one kernel launch, in process,
 * through CUPTI's range profiler (cupti_range_profiler.h, CUDA 12.6+).
 *
 * Auto range (one range per kernel) with kernel replay: CUPTI replays the
 * launch as many times as the metrics need passes, saving and restoring the
 * memory it writes, so a counted launch gives correct results but a longer
 * wall time; timings are taken apart from counted launches (be_time).
 * The metrics are the ones DESIGN.md sets beside the simulator's counters.
 * A .cu file only because CUPTI's host header is C++; it has no kernels.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dlfcn.h>

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>

#include "cuda_backend.h"

/* The metric list: the eleven base metrics, L2's lookup misses of L1's sectors,
 * the three atomic ones, then the two LDGSTS ones (sm_80 and later). A device
 * whose profiler does not know the lookup-miss or the atomic metrics keeps the
 * others (open_impl retries without them). */
static const char *metric_names[] = {
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "lts__t_sectors_srcunit_tex_op_read.sum",
    "lts__t_sectors_srcunit_tex_op_write.sum",
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
    "gpu__time_duration.sum",
};
#define NBASE (sizeof metric_names / sizeof metric_names[0])
static const char *atom_metric_names[] = {
    "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum",
};
static const char *ldgsts_metric_names[] = {
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum",
};
/* L1's sectors that missed L2 (the GPU's L2 hit rate beside the model's) */
static const char *miss_metric_name = "lts__t_sectors_srcunit_tex_lookup_miss.sum";
#define NMETRICS (NBASE + 3 + 2 + 1)

struct cuda_counters {
    CUcontext ctx;
    CUpti_Profiler_Host_Object *host;
    CUpti_RangeProfiler_Object *rp;
    uint8_t *config, *data;
    size_t config_size, data_size;
    size_t nmetrics;  /* entries of names */
    const char *names[NMETRICS];
    int i_atom, i_ldgsts, i_miss; /* index of the first atomic / LDGSTS / lookup-miss metric in names, -1 if absent */
};

static void build_names(cuda_counters *c, int with_atom, int with_ldgsts, int with_miss)
{
    size_t k = 0;
    for (size_t i = 0; i < NBASE; i++)
        c->names[k++] = metric_names[i];
    c->i_atom = c->i_ldgsts = c->i_miss = -1;
    if (with_miss) {
        c->i_miss = (int)k;
        c->names[k++] = miss_metric_name;
    }
    if (with_atom) {
        c->i_atom = (int)k;
        for (size_t i = 0; i < 3; i++)
            c->names[k++] = atom_metric_names[i];
    }
    if (with_ldgsts) {
        c->i_ldgsts = (int)k;
        for (size_t i = 0; i < 2; i++)
            c->names[k++] = ldgsts_metric_names[i];
    }
    c->nmetrics = k;
}

/* Fills why with a message for a failed CUPTI call; returns -1. */
static int cupti_fail(CUptiResult r, const char *call, char *why, size_t n)
{
    const char *s = NULL;
    cuptiGetResultString(r, &s);
    if (r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES || r == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES)
        snprintf(why, n,
                 "hardware counters are not permitted (ERR_NVGPUCTRPERM, from %s): run as root, or reload the "
                 "NVIDIA driver with NVreg_RestrictProfilingToAdminUsers=0 "
                 "(https://developer.nvidia.com/ERR_NVGPUCTRPERM); results and times are still reported",
                 call);
    else
        snprintf(why, n, "hardware counters unavailable: %s failed: %s (%d); results and times are still reported",
                 call, s ? s : "unknown CUPTI error", (int)r);
    return -1;
}

#define CUPTI_TRY(call, params)                                                                   \
    do {                                                                                          \
        CUptiResult r_ = call(params);                                                            \
        if (r_ != CUPTI_SUCCESS)                                                                  \
            return cupti_fail(r_, #call, why, n);                                                 \
    } while (0)

/* A CUPTI parameter struct v of type T: zeroed, its structSize set (CUPTI's
 * ABI check), the rest filled in by the caller. */
#define CUPTI_PARAMS(T, v)                                                                        \
    T v;                                                                                          \
    memset(&v, 0, sizeof v);                                                                      \
    v.structSize = T##_STRUCT_SIZE

/* The profiler wants the driver's context. The driver library is opened at
 * run time, so that simtlab binaries start on machines with no driver. */
static int current_context(CUcontext *ctx)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!lib)
        lib = dlopen("libcuda.so.1", RTLD_NOW);
    if (!lib)
        return -1;
    CUresult (*get)(CUcontext *) = (CUresult(*)(CUcontext *))dlsym(lib, "cuCtxGetCurrent");
    return get && get(ctx) == CUDA_SUCCESS && *ctx ? 0 : -1;
}

static int open_impl(cuda_counters *c, char *why, size_t n)
{
    cudaFree(0); /* make the runtime's primary context current */
    if (current_context(&c->ctx)) {
        snprintf(why, n, "hardware counters unavailable: no current CUDA context (driver not loaded?)");
        return -1;
    }
    CUpti_Profiler_Initialize_Params init = {CUpti_Profiler_Initialize_Params_STRUCT_SIZE, NULL};
    CUPTI_TRY(cuptiProfilerInitialize, &init);
    int dev = 0;
    cudaGetDevice(&dev);
    CUpti_Device_GetChipName_Params chip = {CUpti_Device_GetChipName_Params_STRUCT_SIZE, NULL, (size_t)dev, NULL};
    CUPTI_TRY(cuptiDeviceGetChipName, &chip);
    int major = 0;
    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
    /* no LDGSTS before sm_80: those metrics do not exist there */
    /* the optional metrics: the atomic ones and the lookup misses, then the lookup misses
     * alone, then the atomic ones alone, then neither */
    for (int opt = 3;; opt--) {
        const int with_atom = opt & 1;
        build_names(c, with_atom, major >= 8, (opt & 2) != 0);
        CUPTI_PARAMS(CUpti_Profiler_Host_Initialize_Params, hi);
        hi.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
        hi.pChipName = chip.pChipName;
        CUPTI_TRY(cuptiProfilerHostInitialize, &hi);
        c->host = hi.pHostObject;

        CUPTI_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params, add);
        add.pHostObject = c->host;
        add.ppMetricNames = c->names;
        add.numMetrics = c->nmetrics;
        CUptiResult r = cuptiProfilerHostConfigAddMetrics(&add);
        if (r == CUPTI_SUCCESS)
            break;
        CUPTI_PARAMS(CUpti_Profiler_Host_Deinitialize_Params, d);
        d.pHostObject = c->host;
        cuptiProfilerHostDeinitialize(&d);
        c->host = NULL;
        if (opt == 0) /* the base metrics themselves failed */
            return cupti_fail(r, "cuptiProfilerHostConfigAddMetrics", why, n);
    }

    CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params, cs);
    cs.pHostObject = c->host;
    CUPTI_TRY(cuptiProfilerHostGetConfigImageSize, &cs);
    c->config_size = cs.configImageSize;
    c->config = (uint8_t *)malloc(c->config_size);
    if (!c->config) {
        snprintf(why, n, "hardware counters unavailable: out of host memory");
        return -1;
    }
    CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImage_Params, ci);
    ci.pHostObject = c->host;
    ci.configImageSize = c->config_size;
    ci.pConfigImage = c->config;
    CUPTI_TRY(cuptiProfilerHostGetConfigImage, &ci);

    CUPTI_PARAMS(CUpti_RangeProfiler_Enable_Params, en);
    en.ctx = c->ctx;
    CUPTI_TRY(cuptiRangeProfilerEnable, &en);
    c->rp = en.pRangeProfilerObject;

    CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params, ds);
    ds.pRangeProfilerObject = c->rp;
    ds.pMetricNames = c->names;
    ds.numMetrics = c->nmetrics;
    ds.maxNumOfRanges = 1;
    ds.maxNumRangeTreeNodes = 1;
    CUPTI_TRY(cuptiRangeProfilerGetCounterDataSize, &ds);
    c->data_size = ds.counterDataSize;
    c->data = (uint8_t *)malloc(c->data_size);
    if (!c->data) {
        snprintf(why, n, "hardware counters unavailable: out of host memory");
        return -1;
    }
    return 0;
}

cuda_counters *cuda_counters_open(char *why, size_t n)
{
    cuda_counters *c = (cuda_counters *)calloc(1, sizeof *c);
    if (!c) {
        snprintf(why, n, "hardware counters unavailable: out of host memory");
        return NULL;
    }
    if (open_impl(c, why, n)) {
        cuda_counters_close(c);
        return NULL;
    }
    why[0] = 0;
    return c;
}

int cuda_counters_begin(cuda_counters *c, char *why, size_t n)
{
    CUPTI_PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params, di);
    di.pRangeProfilerObject = c->rp;
    di.counterDataSize = c->data_size;
    di.pCounterData = c->data;
    CUPTI_TRY(cuptiRangeProfilerCounterDataImageInitialize, &di);

    CUPTI_PARAMS(CUpti_RangeProfiler_SetConfig_Params, sc);
    sc.pRangeProfilerObject = c->rp;
    sc.configSize = c->config_size;
    sc.pConfig = c->config;
    sc.counterDataImageSize = c->data_size;
    sc.pCounterDataImage = c->data;
    sc.range = CUPTI_AutoRange;
    sc.replayMode = CUPTI_KernelReplay;
    sc.maxRangesPerPass = 1;
    sc.numNestingLevels = 1;
    sc.minNestingLevel = 1;
    sc.passIndex = 0;
    sc.targetNestingLevel = 1;
    CUPTI_TRY(cuptiRangeProfilerSetConfig, &sc);

    CUPTI_PARAMS(CUpti_RangeProfiler_Start_Params, st);
    st.pRangeProfilerObject = c->rp;
    CUPTI_TRY(cuptiRangeProfilerStart, &st);
    return 0;
}

int cuda_counters_end(cuda_counters *c, hw_counters *hw, char *why, size_t n)
{
    memset(hw, 0, sizeof *hw);
    cudaDeviceSynchronize();
    CUPTI_PARAMS(CUpti_RangeProfiler_Stop_Params, sp);
    sp.pRangeProfilerObject = c->rp;
    CUPTI_TRY(cuptiRangeProfilerStop, &sp);
    if (!sp.isAllPassSubmitted) {
        snprintf(why, n, "hardware counters: the profiler needed more passes than kernel replay gave");
        return -1;
    }
    CUPTI_PARAMS(CUpti_RangeProfiler_DecodeData_Params, dd);
    dd.pRangeProfilerObject = c->rp;
    CUPTI_TRY(cuptiRangeProfilerDecodeData, &dd);

    CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataInfo_Params, info);
    info.pCounterDataImage = c->data;
    info.counterDataImageSize = c->data_size;
    CUPTI_TRY(cuptiRangeProfilerGetCounterDataInfo, &info);
    if (info.numTotalRanges < 1) {
        snprintf(why, n, "hardware counters: no range was recorded for the launch");
        return -1;
    }
    double v[NMETRICS] = {0};
    CUPTI_PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params, ev);
    ev.pHostObject = c->host;
    ev.pCounterDataImage = c->data;
    ev.counterDataImageSize = c->data_size;
    ev.rangeIndex = 0;
    ev.ppMetricNames = c->names;
    ev.numMetrics = c->nmetrics;
    ev.pMetricValues = v;
    CUPTI_TRY(cuptiProfilerHostEvaluateToGpuValues, &ev);
    hw->l1_ld_sectors = (uint64_t)(v[0] + 0.5);
    hw->l1_st_sectors = (uint64_t)(v[1] + 0.5);
    hw->shared_ld_wavefronts = (uint64_t)(v[2] + 0.5);
    hw->shared_st_wavefronts = (uint64_t)(v[3] + 0.5);
    hw->shared_ld_conflicts = (uint64_t)(v[4] + 0.5);
    hw->shared_st_conflicts = (uint64_t)(v[5] + 0.5);
    hw->l2_read_sectors = (uint64_t)(v[6] + 0.5);
    hw->l2_write_sectors = (uint64_t)(v[7] + 0.5);
    hw->dram_read_bytes = (uint64_t)(v[8] + 0.5);
    hw->dram_write_bytes = (uint64_t)(v[9] + 0.5);
    hw->gpu_time_ns = v[10];
    if (c->i_atom >= 0) {
        hw->atom_sectors = (uint64_t)(v[c->i_atom] + 0.5);
        hw->red_sectors = (uint64_t)(v[c->i_atom + 1] + 0.5);
        hw->shared_atom_wavefronts = (uint64_t)(v[c->i_atom + 2] + 0.5);
        hw->atom_valid = 1;
    }
    if (c->i_ldgsts >= 0) {
        hw->ldgsts_sectors = (uint64_t)(v[c->i_ldgsts] + 0.5);
        hw->ldgsts_conflicts = (uint64_t)(v[c->i_ldgsts + 1] + 0.5);
    }
    if (c->i_miss >= 0) {
        hw->l2_miss_sectors = (uint64_t)(v[c->i_miss] + 0.5);
        hw->l2_miss_valid = 1;
    }
    hw->valid = 1;
    return 0;
}

void cuda_counters_close(cuda_counters *c)
{
    if (!c)
        return;
    if (c->rp) {
        CUPTI_PARAMS(CUpti_RangeProfiler_Disable_Params, d);
        d.pRangeProfilerObject = c->rp;
        cuptiRangeProfilerDisable(&d);
    }
    if (c->host) {
        CUPTI_PARAMS(CUpti_Profiler_Host_Deinitialize_Params, d);
        d.pHostObject = c->host;
        cuptiProfilerHostDeinitialize(&d);
    }
    free(c->config);
    free(c->data);
    free(c);
}
