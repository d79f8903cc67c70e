/* sim/shim/simtlab_cudart.h - the CUDA runtime API a course uses, over the
 * simulator (sim/launch.h, sim/memory.h). C: the functions are implemented
 * in sim/cudart.c; cuda_runtime.h (C++) adds what needs C++ (dim3's
 * constructors, templates, <<<>>> launches, the kernel-side names).
 *
 * Error codes are CUDA's own numbers, so a program that prints them prints
 * what it would print on a GPU. A kernel fault (illegal address, misaligned
 * access, launch failure, timeout) is sticky, as on a GPU: after it every
 * call returns it (the report was printed when the kernel ran).
 *
 * Time: cudaEventElapsedTime measures the simulated GPU's clock between two
 * events: each launch counts the time model's prediction for the preset's
 * chip (sim/timemodel.c, from the launch's counters), copies their bytes at
 * 25 GB/s. As on a GPU, an event is reached after the work queued before it
 * and not before the host queued it, so events around host code on an idle
 * GPU time that code: the host's clock is the program's own time, without
 * the time the simulation itself takes (sim/run/cudart.c, host_ms).
 */
#ifndef SIMTLAB_CUDART_H
#define SIMTLAB_CUDART_H
#define SIMTLAB_CUDART_VERSION 12000 /* cuda_runtime.h's CUDART_VERSION (the runtime API it follows) */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* inline PTX the rewriter turns into a call (sim/run/ptx.c): the cp.async family (inputs only:
 * n operands' bits, simtlab_ptx_bits), and ldmatrix and mma.sync, whose outputs come first as
 * (address, size) pairs, then nin inputs' bits */
void simtlab_ptx_asm(const char *tmpl, int n, ...);
void simtlab_ptx_asm_io(const char *file, int line, const char *tmpl, int nout, int nin, ...);

typedef enum cudaError { /* CUDA 13's codes, its values (driver_types.h) */
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInitializationError = 3,
    cudaErrorCudartUnloading = 4,
    cudaErrorProfilerDisabled = 5,
    cudaErrorProfilerNotInitialized = 6,
    cudaErrorProfilerAlreadyStarted = 7,
    cudaErrorProfilerAlreadyStopped = 8,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidPitchValue = 12,
    cudaErrorInvalidSymbol = 13,
    cudaErrorInvalidHostPointer = 16,
    cudaErrorInvalidDevicePointer = 17,
    cudaErrorInvalidTexture = 18,
    cudaErrorInvalidTextureBinding = 19,
    cudaErrorInvalidChannelDescriptor = 20,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorAddressOfConstant = 22,
    cudaErrorTextureFetchFailed = 23,
    cudaErrorTextureNotBound = 24,
    cudaErrorSynchronizationError = 25,
    cudaErrorInvalidFilterSetting = 26,
    cudaErrorInvalidNormSetting = 27,
    cudaErrorMixedDeviceExecution = 28,
    cudaErrorNotYetImplemented = 31,
    cudaErrorMemoryValueTooLarge = 32,
    cudaErrorStubLibrary = 34,
    cudaErrorInsufficientDriver = 35,
    cudaErrorCallRequiresNewerDriver = 36,
    cudaErrorInvalidSurface = 37,
    cudaErrorDuplicateVariableName = 43,
    cudaErrorDuplicateTextureName = 44,
    cudaErrorDuplicateSurfaceName = 45,
    cudaErrorDevicesUnavailable = 46,
    cudaErrorIncompatibleDriverContext = 49,
    cudaErrorMissingConfiguration = 52,
    cudaErrorPriorLaunchFailure = 53,
    cudaErrorLaunchMaxDepthExceeded = 65,
    cudaErrorLaunchFileScopedTex = 66,
    cudaErrorLaunchFileScopedSurf = 67,
    cudaErrorSyncDepthExceeded = 68,
    cudaErrorLaunchPendingCountExceeded = 69,
    cudaErrorInvalidDeviceFunction = 98,
    cudaErrorNoDevice = 100,
    cudaErrorInvalidDevice = 101,
    cudaErrorDeviceNotLicensed = 102,
    cudaErrorSoftwareValidityNotEstablished = 103,
    cudaErrorStartupFailure = 127,
    cudaErrorInvalidKernelImage = 200,
    cudaErrorDeviceUninitialized = 201,
    cudaErrorMapBufferObjectFailed = 205,
    cudaErrorUnmapBufferObjectFailed = 206,
    cudaErrorArrayIsMapped = 207,
    cudaErrorAlreadyMapped = 208,
    cudaErrorNoKernelImageForDevice = 209,
    cudaErrorAlreadyAcquired = 210,
    cudaErrorNotMapped = 211,
    cudaErrorNotMappedAsArray = 212,
    cudaErrorNotMappedAsPointer = 213,
    cudaErrorECCUncorrectable = 214,
    cudaErrorUnsupportedLimit = 215,
    cudaErrorDeviceAlreadyInUse = 216,
    cudaErrorPeerAccessUnsupported = 217,
    cudaErrorInvalidPtx = 218,
    cudaErrorInvalidGraphicsContext = 219,
    cudaErrorNvlinkUncorrectable = 220,
    cudaErrorJitCompilerNotFound = 221,
    cudaErrorUnsupportedPtxVersion = 222,
    cudaErrorJitCompilationDisabled = 223,
    cudaErrorUnsupportedExecAffinity = 224,
    cudaErrorUnsupportedDevSideSync = 225,
    cudaErrorContained = 226,
    cudaErrorInvalidSource = 300,
    cudaErrorFileNotFound = 301,
    cudaErrorSharedObjectSymbolNotFound = 302,
    cudaErrorSharedObjectInitFailed = 303,
    cudaErrorOperatingSystem = 304,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorIllegalState = 401,
    cudaErrorLossyQuery = 402,
    cudaErrorSymbolNotFound = 500,
    cudaErrorNotReady = 600,
    cudaErrorIllegalAddress = 700,
    cudaErrorLaunchOutOfResources = 701,
    cudaErrorLaunchTimeout = 702,
    cudaErrorLaunchIncompatibleTexturing = 703,
    cudaErrorPeerAccessAlreadyEnabled = 704,
    cudaErrorPeerAccessNotEnabled = 705,
    cudaErrorSetOnActiveProcess = 708,
    cudaErrorContextIsDestroyed = 709,
    cudaErrorAssert = 710,
    cudaErrorTooManyPeers = 711,
    cudaErrorHostMemoryAlreadyRegistered = 712,
    cudaErrorHostMemoryNotRegistered = 713,
    cudaErrorHardwareStackError = 714,
    cudaErrorIllegalInstruction = 715,
    cudaErrorMisalignedAddress = 716,
    cudaErrorInvalidAddressSpace = 717,
    cudaErrorInvalidPc = 718,
    cudaErrorLaunchFailure = 719,
    cudaErrorCooperativeLaunchTooLarge = 720,
    cudaErrorTensorMemoryLeak = 721,
    cudaErrorNotPermitted = 800,
    cudaErrorNotSupported = 801,
    cudaErrorSystemNotReady = 802,
    cudaErrorSystemDriverMismatch = 803,
    cudaErrorCompatNotSupportedOnDevice = 804,
    cudaErrorMpsConnectionFailed = 805,
    cudaErrorMpsRpcFailure = 806,
    cudaErrorMpsServerNotReady = 807,
    cudaErrorMpsMaxClientsReached = 808,
    cudaErrorMpsMaxConnectionsReached = 809,
    cudaErrorMpsClientTerminated = 810,
    cudaErrorCdpNotSupported = 811,
    cudaErrorCdpVersionMismatch = 812,
    cudaErrorStreamCaptureUnsupported = 900,
    cudaErrorStreamCaptureInvalidated = 901,
    cudaErrorStreamCaptureMerge = 902,
    cudaErrorStreamCaptureUnmatched = 903,
    cudaErrorStreamCaptureUnjoined = 904,
    cudaErrorStreamCaptureIsolation = 905,
    cudaErrorStreamCaptureImplicit = 906,
    cudaErrorCapturedEvent = 907,
    cudaErrorStreamCaptureWrongThread = 908,
    cudaErrorTimeout = 909,
    cudaErrorGraphExecUpdateFailure = 910,
    cudaErrorExternalDevice = 911,
    cudaErrorInvalidClusterSize = 912,
    cudaErrorFunctionNotLoaded = 913,
    cudaErrorInvalidResourceType = 914,
    cudaErrorInvalidResourceConfiguration = 915,
    cudaErrorUnknown = 999,
    cudaErrorApiFailureBase = 10000
} cudaError;
typedef cudaError cudaError_t;

typedef enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4
} cudaMemcpyKind;

typedef struct simtlab_stream *cudaStream_t;
/* CUDA's special handles: the legacy default stream and the thread's own (nvcc's --default-stream
 * per-thread); the simulator's launches all complete at once, so both are its default stream */
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
typedef struct simtlab_event *cudaEvent_t;

enum { cudaMemAttachGlobal = 1, cudaMemAttachHost = 2, cudaMemAttachSingle = 4 };
enum { cudaStreamDefault = 0, cudaStreamNonBlocking = 1 };
/* an event made with cudaEventInterprocess is an event of this process here (cudaIpc* itself is refused by name) */
enum { cudaEventDefault = 0, cudaEventBlockingSync = 1, cudaEventDisableTiming = 2, cudaEventInterprocess = 4 };
enum { cudaHostAllocDefault = 0, cudaHostAllocPortable = 1, cudaHostAllocMapped = 2, cudaHostAllocWriteCombined = 4 };
enum { cudaHostRegisterDefault = 0, cudaHostRegisterPortable = 1, cudaHostRegisterMapped = 2 };
enum { cudaDeviceScheduleAuto = 0, cudaDeviceScheduleSpin = 1, cudaDeviceScheduleYield = 2,
       cudaDeviceScheduleBlockingSync = 4, cudaDeviceBlockingSync = 4, cudaDeviceMapHost = 8 };
#define CUDART_CB

typedef enum cudaFuncAttribute {
    cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
    cudaFuncAttributePreferredSharedMemoryCarveout = 9
} cudaFuncAttribute;
/* the percentage of the unified L1/shared array preferred as shared memory: accepted, no effect
 * (a launch here may use the preset's shared memory whatever the split) */
enum cudaSharedCarveout {
    cudaSharedmemCarveoutDefault = -1,
    cudaSharedmemCarveoutMaxShared = 100,
    cudaSharedmemCarveoutMaxL1 = 0
};
typedef enum cudaFuncCache {
    cudaFuncCachePreferNone = 0,
    cudaFuncCachePreferShared = 1,
    cudaFuncCachePreferL1 = 2,
    cudaFuncCachePreferEqual = 3
} cudaFuncCache;

/* The fields of cudaDeviceProp a course reads, from the selected preset. */
typedef struct cudaDeviceProp {
    char name[256];
    size_t totalGlobalMem;
    size_t sharedMemPerBlock;
    int regsPerBlock;
    int warpSize;
    size_t memPitch;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    int clockRate;          /* kHz */
    size_t totalConstMem;
    int major, minor;
    int multiProcessorCount;
    int memoryClockRate;    /* kHz */
    int memoryBusWidth;     /* bits */
    int l2CacheSize;
    int maxThreadsPerMultiProcessor;
    int maxBlocksPerMultiProcessor;
    size_t sharedMemPerMultiprocessor;
    size_t sharedMemPerBlockOptin;
    int regsPerMultiprocessor;
    int concurrentKernels;
    int managedMemory;
    int unifiedAddressing;
    int computeMode;
    int integrated;
    int canMapHostMemory;
    int asyncEngineCount;
    int deviceOverlap;
    int kernelExecTimeoutEnabled;
    int ECCEnabled;
    int pciBusID, pciDeviceID, pciDomainID;
    /* the rest of CUDA 12's fields, so that a program that reads one compiles; those the
     * simulator has no notion of read 0 (sim/run/cudart.c cudaGetDeviceProperties) */
    char uuid[16];
    char luid[8];
    unsigned luidDeviceNodeMask;
    size_t textureAlignment, texturePitchAlignment, surfaceAlignment;
    int maxTexture1D, maxTexture1DMipmap, maxTexture1DLinear;
    int maxTexture2D[2], maxTexture2DMipmap[2], maxTexture2DLinear[3], maxTexture2DGather[2];
    int maxTexture3D[3], maxTexture3DAlt[3], maxTextureCubemap;
    int maxTexture1DLayered[2], maxTexture2DLayered[3], maxTextureCubemapLayered[2];
    int maxSurface1D, maxSurface2D[2], maxSurface3D[3], maxSurface1DLayered[2], maxSurface2DLayered[3];
    int maxSurfaceCubemap, maxSurfaceCubemapLayered[2];
    int tccDriver;
    int streamPrioritiesSupported;
    int globalL1CacheSupported, localL1CacheSupported;
    int isMultiGpuBoard, multiGpuBoardGroupID;
    int hostNativeAtomicSupported;
    int singleToDoublePrecisionPerfRatio;
    int pageableMemoryAccess, concurrentManagedAccess;
    int computePreemptionSupported;
    int canUseHostPointerForRegisteredMem;
    int cooperativeLaunch, cooperativeMultiDeviceLaunch;
    int pageableMemoryAccessUsesHostPageTables, directManagedMemAccessFromHost;
    int persistingL2CacheMaxSize; /* bytes; access policy windows are accepted, the L2 model ignores them */
    int accessPolicyMaxWindowSize;
    size_t reservedSharedMemPerBlock;
    int hostRegisterSupported, sparseCudaArraySupported, hostRegisterReadOnlySupported;
    int timelineSemaphoreInteropSupported, memoryPoolsSupported;
    int gpuDirectRDMASupported;
    unsigned gpuDirectRDMAFlushWritesOptions;
    int gpuDirectRDMAWritesOrdering;
    unsigned memoryPoolSupportedHandleTypes;
    int deferredMappingCudaArraySupported, ipcEventSupported, clusterLaunch, unifiedFunctionPointers;
} cudaDeviceProp;

/* L2 persistence (access policy windows): accepted and kept, so that a program that sets them
 * runs; the simulator's L2 model has no persisting lines, so they change no count (docs/run.md) */
typedef enum cudaAccessProperty {
    cudaAccessPropertyNormal = 0, cudaAccessPropertyStreaming = 1, cudaAccessPropertyPersisting = 2
} cudaAccessProperty;
typedef struct cudaAccessPolicyWindow {
    void *base_ptr;
    size_t num_bytes;
    float hitRatio;
    cudaAccessProperty hitProp, missProp;
} cudaAccessPolicyWindow;
typedef enum cudaLaunchAttributeID {
    cudaLaunchAttributeIgnore = 0, cudaLaunchAttributeAccessPolicyWindow = 1, cudaLaunchAttributeCooperative = 2,
    cudaLaunchAttributeSynchronizationPolicy = 3, cudaLaunchAttributePriority = 8
} cudaLaunchAttributeID;
typedef cudaLaunchAttributeID cudaStreamAttrID;
#define cudaStreamAttributeAccessPolicyWindow cudaLaunchAttributeAccessPolicyWindow
#define cudaStreamAttributeSynchronizationPolicy cudaLaunchAttributeSynchronizationPolicy
#define cudaStreamAttributePriority cudaLaunchAttributePriority
typedef union cudaLaunchAttributeValue {
    char pad[64];
    cudaAccessPolicyWindow accessPolicyWindow;
    int cooperative;
    int syncPolicy;
    int priority;
} cudaLaunchAttributeValue;
typedef cudaLaunchAttributeValue cudaStreamAttrValue;

enum { cudaCpuDeviceId = -1, cudaInvalidDeviceId = -2 };
typedef enum cudaComputeMode {
    cudaComputeModeDefault = 0, cudaComputeModeExclusive = 1, cudaComputeModeProhibited = 2,
    cudaComputeModeExclusiveProcess = 3
} cudaComputeMode;
/* the toolkit's driver_types.h guard: helper headers (NVIDIA's samples' helper_cuda.h) test it */
#ifndef __DRIVER_TYPES_H__
#define __DRIVER_TYPES_H__
#endif
typedef enum cudaMemoryAdvise {
    cudaMemAdviseSetReadMostly = 1, cudaMemAdviseUnsetReadMostly = 2, cudaMemAdviseSetPreferredLocation = 3,
    cudaMemAdviseUnsetPreferredLocation = 4, cudaMemAdviseSetAccessedBy = 5, cudaMemAdviseUnsetAccessedBy = 6
} cudaMemoryAdvise;
typedef enum cudaLimit {
    cudaLimitStackSize = 0, cudaLimitPrintfFifoSize = 1, cudaLimitMallocHeapSize = 2,
    cudaLimitDevRuntimeSyncDepth = 3, cudaLimitDevRuntimePendingLaunchCount = 4,
    cudaLimitMaxL2FetchGranularity = 5, cudaLimitPersistingL2CacheSize = 6
} cudaLimit;
/* The attributes cudaDeviceGetAttribute answers (CUDA's numbers); others: cudaErrorInvalidValue. */
typedef enum cudaDeviceAttr {
    cudaDevAttrMaxThreadsPerBlock = 1, cudaDevAttrMaxBlockDimX = 2, cudaDevAttrMaxBlockDimY = 3,
    cudaDevAttrMaxBlockDimZ = 4, cudaDevAttrMaxGridDimX = 5, cudaDevAttrMaxGridDimY = 6, cudaDevAttrMaxGridDimZ = 7,
    cudaDevAttrMaxSharedMemoryPerBlock = 8, cudaDevAttrTotalConstantMemory = 9, cudaDevAttrWarpSize = 10,
    cudaDevAttrMaxRegistersPerBlock = 12, cudaDevAttrClockRate = 13, cudaDevAttrMultiProcessorCount = 16,
    cudaDevAttrKernelExecTimeout = 17, cudaDevAttrIntegrated = 18, cudaDevAttrCanMapHostMemory = 19,
    cudaDevAttrComputeMode = 20, cudaDevAttrConcurrentKernels = 31, cudaDevAttrUnifiedAddressing = 41,
    cudaDevAttrGpuOverlap = 15, cudaDevAttrAsyncEngineCount = 40,
    cudaDevAttrMemoryClockRate = 36, cudaDevAttrGlobalMemoryBusWidth = 37, cudaDevAttrL2CacheSize = 38,
    cudaDevAttrMaxThreadsPerMultiProcessor = 39, cudaDevAttrComputeCapabilityMajor = 75,
    cudaDevAttrComputeCapabilityMinor = 76, cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
    cudaDevAttrManagedMemory = 83, cudaDevAttrConcurrentManagedAccess = 89, cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
    cudaDevAttrCooperativeLaunch = 95, cudaDevAttrCooperativeMultiDeviceLaunch = 96, /* 0: not simulated */
    cudaDevAttrMaxBlocksPerMultiprocessor = 106, cudaDevAttrMemoryPoolsSupported = 115
} cudaDeviceAttr;

const char *cudaGetErrorString(cudaError_t e);
const char *cudaGetErrorName(cudaError_t e);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);

cudaError_t cudaGetDeviceCount(int *n);
cudaError_t cudaGetDevice(int *d);
cudaError_t cudaSetDevice(int d);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int d);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaThreadSynchronize(void);
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache c);
cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache *c);
cudaError_t cudaFree(void *p);
cudaError_t cudaFreeHost(void *p);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, cudaMemcpyKind k);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, cudaMemcpyKind k, cudaStream_t s);
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height, cudaMemcpyKind k);
cudaError_t cudaMemset(void *p, int v, size_t n);
cudaError_t cudaMemsetAsync(void *p, int v, size_t n, cudaStream_t s);
cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes);
cudaError_t cudaMemPrefetchAsync(const void *p, size_t n, int device, cudaStream_t s);
cudaError_t cudaMemAdvise(const void *p, size_t n, cudaMemoryAdvise advice, int device); /* accepted, no effect */
/* CUDA 13's forms of the two take a location (cuda_runtime.h: C++ overloads) */
typedef enum cudaMemLocationType {
    cudaMemLocationTypeInvalid = 0, cudaMemLocationTypeDevice = 1, cudaMemLocationTypeHost = 2,
    cudaMemLocationTypeHostNuma = 3, cudaMemLocationTypeHostNumaCurrent = 4
} cudaMemLocationType;
typedef struct cudaMemLocation {
    cudaMemLocationType type;
    int id;
} cudaMemLocation;
cudaError_t cudaStreamAttachMemAsync(cudaStream_t s, void *p, size_t len, unsigned flags); /* accepted, no effect */
cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t width, size_t height); /* rows of 512-byte multiples */
/* 3-D pitched memory: widths in bytes; CUDA arrays (srcArray, dstArray) are not supported */
typedef struct cudaExtent {
    size_t width, height, depth;
} cudaExtent;
typedef struct cudaPos {
    size_t x, y, z;
} cudaPos;
typedef struct cudaPitchedPtr {
    void *ptr;
    size_t pitch, xsize, ysize;
} cudaPitchedPtr;
typedef struct cudaMemcpy3DParms {
    struct cudaArray *srcArray;
    cudaPos srcPos;
    cudaPitchedPtr srcPtr;
    struct cudaArray *dstArray;
    cudaPos dstPos;
    cudaPitchedPtr dstPtr;
    cudaExtent extent;
    cudaMemcpyKind kind;
} cudaMemcpy3DParms;
static inline cudaExtent make_cudaExtent(size_t w, size_t h, size_t d)
{
    cudaExtent e = {w, h, d};
    return e;
}
static inline cudaPos make_cudaPos(size_t x, size_t y, size_t z)
{
    cudaPos p = {x, y, z};
    return p;
}
static inline cudaPitchedPtr make_cudaPitchedPtr(void *d, size_t pitch, size_t xsize, size_t ysize)
{
    cudaPitchedPtr p = {d, pitch, xsize, ysize};
    return p;
}
cudaError_t cudaMalloc3D(cudaPitchedPtr *p, cudaExtent e); /* rows of 512-byte multiples, as cudaMallocPitch */
cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms *p);
cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms *p, cudaStream_t s);
cudaError_t cudaMemset3D(cudaPitchedPtr p, int v, cudaExtent e);
cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device);
cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value); /* stack and heap sizes apply; the rest are kept */
cudaError_t cudaDeviceGetLimit(size_t *value, cudaLimit limit);
cudaError_t cudaSetDeviceFlags(unsigned flags);
/* page-locking is a no-op here; a kernel still may not read registered host memory (docs/run.md) */
cudaError_t cudaHostRegister(void *p, size_t n, unsigned flags);
cudaError_t cudaHostUnregister(void *p);
/* host callbacks run at once, in order: every launch and copy before them has completed */
typedef void (*cudaHostFn_t)(void *user);
typedef void (*cudaStreamCallback_t)(cudaStream_t s, cudaError_t status, void *user);
cudaError_t cudaLaunchHostFunc(cudaStream_t s, cudaHostFn_t fn, void *user);
cudaError_t cudaStreamAddCallback(cudaStream_t s, cudaStreamCallback_t fn, void *user, unsigned flags);
cudaError_t cudaDriverGetVersion(int *v);
cudaError_t cudaRuntimeGetVersion(int *v);
/* the preset's residency for a kernel of block_size threads and dyn_shared bytes (static shared
 * memory and registers are not known to the simulator: threads, blocks and dynamic shared only) */
cudaError_t simtlab_occupancy(int *blocks, int block_size, size_t dyn_shared);

cudaError_t cudaStreamCreate(cudaStream_t *s);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags);
cudaError_t cudaStreamDestroy(cudaStream_t s);
cudaError_t cudaStreamSynchronize(cudaStream_t s);
cudaError_t cudaStreamQuery(cudaStream_t s);
cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned flags);
cudaError_t cudaStreamSetAttribute(cudaStream_t s, cudaStreamAttrID attr, const cudaStreamAttrValue *value);
cudaError_t cudaStreamGetAttribute(cudaStream_t s, cudaStreamAttrID attr, cudaStreamAttrValue *value);
cudaError_t cudaCtxResetPersistingL2Cache(void); /* accepted: no line persists in the L2 model */

/* CUDA graphs by stream capture (docs/run.md "CUDA graphs"): between cudaStreamBeginCapture and
 * cudaStreamEndCapture a stream's kernel launches, cudaMemcpyAsync, cudaMemsetAsync and
 * cudaLaunchHostFunc are recorded, not run (a stream that waits on an event recorded in a capturing
 * stream joins its capture); cudaGraphLaunch runs them again, in the order they were recorded. The
 * explicit graph API builds one node by node (cudaGraphCreate, cudaGraphAdd{Kernel, Memcpy,
 * Memcpy1D, Memset, Host, Empty}Node, cudaGraphAddDependencies, cudaGraphClone); an instantiated
 * graph runs its nodes in an order their dependencies allow, the earlier added first; a kernel
 * node's parameters may be set again (cudaGraphKernelNodeSetParams, cudaGraphExecKernelNodeSetParams).
 * The other parameter getters and setters, child graphs, event nodes and cudaGraphExecUpdate are
 * not supported (the rewriter names them). */
typedef struct simtlab_graph *cudaGraph_t;
typedef struct simtlab_graph_exec *cudaGraphExec_t;
typedef struct simtlab_graph_node *cudaGraphNode_t;
typedef enum cudaStreamCaptureMode {
    cudaStreamCaptureModeGlobal = 0, cudaStreamCaptureModeThreadLocal = 1, cudaStreamCaptureModeRelaxed = 2
} cudaStreamCaptureMode;
typedef enum cudaStreamCaptureStatus {
    cudaStreamCaptureStatusNone = 0, cudaStreamCaptureStatusActive = 1, cudaStreamCaptureStatusInvalidated = 2
} cudaStreamCaptureStatus;
enum cudaGraphInstantiateFlags {
    cudaGraphInstantiateFlagAutoFreeOnLaunch = 1, cudaGraphInstantiateFlagUpload = 2,
    cudaGraphInstantiateFlagDeviceLaunch = 4, cudaGraphInstantiateFlagUseNodePriority = 8
};
cudaError_t cudaStreamBeginCapture(cudaStream_t s, cudaStreamCaptureMode mode);
cudaError_t cudaStreamEndCapture(cudaStream_t s, cudaGraph_t *graph);
cudaError_t cudaStreamIsCapturing(cudaStream_t s, cudaStreamCaptureStatus *status);
cudaError_t simtlab_stream_capture_info(cudaStream_t s, cudaStreamCaptureStatus *status, unsigned long long *id,
                                        cudaGraph_t *graph);
cudaError_t cudaThreadExchangeStreamCaptureMode(cudaStreamCaptureMode *mode);
cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *exec, cudaGraph_t graph, unsigned long long flags);
cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t s);
cudaError_t cudaGraphUpload(cudaGraphExec_t exec, cudaStream_t s);
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec);
cudaError_t cudaGraphDestroy(cudaGraph_t graph);
cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *n);
typedef enum cudaGraphNodeType {
    cudaGraphNodeTypeKernel = 0, cudaGraphNodeTypeMemcpy = 1, cudaGraphNodeTypeMemset = 2, cudaGraphNodeTypeHost = 3,
    cudaGraphNodeTypeGraph = 4, cudaGraphNodeTypeEmpty = 5, cudaGraphNodeTypeWaitEvent = 6,
    cudaGraphNodeTypeEventRecord = 7
} cudaGraphNodeType;
typedef struct cudaMemsetParams {
    void *dst;
    size_t pitch;
    unsigned int value, elementSize;
    size_t width, height;
} cudaMemsetParams;
typedef struct cudaHostNodeParams {
    cudaHostFn_t fn;
    void *userData;
} cudaHostNodeParams;
typedef struct cudaGraphEdgeData { /* CUDA 12.3's; only the default edge (all 0) is taken */
    unsigned char from_port, to_port, type, reserved[5];
} cudaGraphEdgeData;
cudaError_t cudaGraphCreate(cudaGraph_t *g, unsigned flags);
cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *node, cudaGraph_t g, const cudaGraphNode_t *deps, size_t n);
cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *node, cudaGraph_t g, const cudaGraphNode_t *deps, size_t n,
                                 const cudaHostNodeParams *p);
cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *node, cudaGraph_t g, const cudaGraphNode_t *deps, size_t n,
                                   const cudaMemsetParams *p);
cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *node, cudaGraph_t g, const cudaGraphNode_t *deps, size_t n,
                                   const cudaMemcpy3DParms *p);
cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *node, cudaGraph_t g, const cudaGraphNode_t *deps, size_t n,
                                     void *dst, const void *src, size_t count, cudaMemcpyKind kind);
cudaError_t simtlab_graph_add_deps(cudaGraph_t g, const cudaGraphNode_t *from, const cudaGraphNode_t *to, size_t n);
cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType *t);
cudaError_t cudaGraphGetRootNodes(cudaGraph_t g, cudaGraphNode_t *nodes, size_t *n);
cudaError_t cudaGraphClone(cudaGraph_t *clone, cudaGraph_t g);
/* cudaGraphAddKernelNode (cuda_runtime.h): the node recorded from the kernel's typed launch */
cudaError_t simtlab_graph_record_begin(cudaGraphNode_t *node, cudaGraph_t g, const cudaGraphNode_t *deps, size_t n,
                                       const void *func);
cudaError_t simtlab_graph_record_end(cudaError_t launch);
cudaError_t simtlab_graph_kernel_untyped(const char *file, int line);
cudaError_t simtlab_graph_kernel_set_begin(cudaGraphExec_t x, cudaGraphNode_t node, const void *func);
/* work a graph does not record (stream-ordered allocation, cuBLAS, ...) on a capturing stream: 1,
 * the capture invalidated and the reason said (cudaErrorStreamCaptureUnsupported); else 0 */
int simtlab_capture_refuse(cudaStream_t s, const char *call);

/* Memory pools: the device's default and those cudaMemPoolCreate makes; cudaMallocAsync and cudaFreeAsync (cuda_runtime.h)
 * allocate and free at once (streams run in order). Attributes are kept, with no effect. */
typedef struct simtlab_mempool *cudaMemPool_t;
typedef enum cudaMemPoolAttr {
    cudaMemPoolReuseFollowEventDependencies = 1, cudaMemPoolReuseAllowOpportunistic = 2,
    cudaMemPoolReuseAllowInternalDependencies = 3, cudaMemPoolAttrReleaseThreshold = 4,
    cudaMemPoolAttrReservedMemCurrent = 5, cudaMemPoolAttrReservedMemHigh = 6,
    cudaMemPoolAttrUsedMemCurrent = 7, cudaMemPoolAttrUsedMemHigh = 8
} cudaMemPoolAttr;
cudaError_t cudaFreeAsync(void *p, cudaStream_t s);
cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *pool, int device);
cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *pool, int device);
cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t pool);
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void *value);
cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void *value);
cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, size_t min_bytes_to_keep);
/* more pools (cudaMemPoolCreate): each keeps its own attributes and allocates from the one arena */
typedef enum cudaMemAllocationType { cudaMemAllocationTypeInvalid = 0, cudaMemAllocationTypePinned = 1 } cudaMemAllocationType;
typedef enum cudaMemAllocationHandleType {
    cudaMemHandleTypeNone = 0, cudaMemHandleTypePosixFileDescriptor = 1, cudaMemHandleTypeWin32 = 2,
    cudaMemHandleTypeWin32Kmt = 4, cudaMemHandleTypeFabric = 8
} cudaMemAllocationHandleType;
typedef struct cudaMemPoolProps { /* cudaMemLocation: above */
    cudaMemAllocationType allocType;
    cudaMemAllocationHandleType handleTypes;
    cudaMemLocation location;
    void *win32SecurityAttributes;
    size_t maxSize;
    unsigned short usage;
    unsigned char reserved[54];
} cudaMemPoolProps;
cudaError_t cudaMemPoolCreate(cudaMemPool_t *pool, const cudaMemPoolProps *props);
cudaError_t cudaMemPoolDestroy(cudaMemPool_t pool);
/* peers: the simulator has one device, so there is no pair to ask about */
typedef enum cudaDeviceP2PAttr {
    cudaDevP2PAttrPerformanceRank = 1, cudaDevP2PAttrAccessSupported = 2, cudaDevP2PAttrNativeAtomicSupported = 3,
    cudaDevP2PAttrCudaArrayAccessSupported = 4
} cudaDeviceP2PAttr;
cudaError_t cudaDeviceGetP2PAttribute(int *value, cudaDeviceP2PAttr attr, int src_dev, int dst_dev);
cudaError_t simtlab_bad_pool(const char *fn); /* cudaErrorInvalidValue: a NULL pool */

/* What a pointer is (cudaPointerGetAttributes): arena memory is device (cudaMalloc*), managed
 * (cudaMallocManaged) or pinned host memory (cudaMallocHost, cudaHostAlloc); anything else is
 * unregistered host memory. */
typedef enum cudaMemoryType {
    cudaMemoryTypeUnregistered = 0, cudaMemoryTypeHost = 1, cudaMemoryTypeDevice = 2, cudaMemoryTypeManaged = 3
} cudaMemoryType;
typedef struct cudaPointerAttributes {
    cudaMemoryType type;
    int device;
    void *devicePointer;
    void *hostPointer;
} cudaPointerAttributes;
cudaError_t cudaPointerGetAttributes(cudaPointerAttributes *a, const void *p);
/* A kernel's attributes (cudaFuncGetAttributes): what the simulator knows; registers, local and
 * static shared memory it does not see (0; docs/run.md) */
typedef struct cudaFuncAttributes {
    size_t sharedSizeBytes, constSizeBytes, localSizeBytes;
    int maxThreadsPerBlock, numRegs, ptxVersion, binaryVersion, cacheModeCA, maxDynamicSharedSizeBytes;
    int preferredShmemCarveout, clusterDimMustBeSet, requiredClusterWidth, requiredClusterHeight,
        requiredClusterDepth, clusterSchedulingPolicyPreference, nonPortableClusterSizeAllowed;
} cudaFuncAttributes;
cudaError_t simtlab_func_get_attributes(cudaFuncAttributes *a);
typedef enum cudaSharedMemConfig {
    cudaSharedMemBankSizeDefault = 0, cudaSharedMemBankSizeFourByte = 1, cudaSharedMemBankSizeEightByte = 2
} cudaSharedMemConfig;
cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig c); /* accepted: 4-byte banks (sm_90) */
cudaError_t cudaDeviceGetSharedMemConfig(cudaSharedMemConfig *c);
cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned flags, int priority);
cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest);
cudaError_t cudaStreamGetFlags(cudaStream_t s, unsigned *flags);
cudaError_t cudaStreamGetPriority(cudaStream_t s, int *priority);
cudaError_t cudaMemset2D(void *p, size_t pitch, int v, size_t width, size_t height);
cudaError_t cudaMemset2DAsync(void *p, size_t pitch, int v, size_t width, size_t height, cudaStream_t s);
cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                              cudaMemcpyKind k, cudaStream_t s);
cudaError_t cudaMemcpyPeer(void *dst, int dst_dev, const void *src, int src_dev, size_t n);
cudaError_t cudaDeviceCanAccessPeer(int *can, int dev, int peer);
cudaError_t cudaDeviceEnablePeerAccess(int peer, unsigned flags);
cudaError_t cudaMemcpyPeerAsync(void *dst, int dst_dev, const void *src, int src_dev, size_t n, cudaStream_t s);
cudaError_t cudaDeviceDisablePeerAccess(int peer);
cudaError_t cudaGetDeviceFlags(unsigned *flags);
cudaError_t cudaChooseDevice(int *dev, const cudaDeviceProp *want);
cudaError_t cudaDeviceGetPCIBusId(char *id, int len, int dev);
cudaError_t cudaThreadExit(void);

cudaError_t cudaEventCreate(cudaEvent_t *e);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags);
cudaError_t cudaEventDestroy(cudaEvent_t e);
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s);
cudaError_t cudaEventSynchronize(cudaEvent_t e);
cudaError_t cudaEventQuery(cudaEvent_t e);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);

/* The untyped forms; cuda_runtime.h adds CUDA's templates over them. */
/* what: "cudaMalloc" (NULL) or "cudaMallocManaged"; file, line: the call (the allocation's name in reports) */
cudaError_t simtlab_malloc(void **p, size_t n, const char *what, const char *file, int line);
cudaError_t simtlab_malloc_managed(void **p, size_t n, const char *file, int line);
/* The next allocation's pointer argument as written (`&d_A`), for its name in reports: the C
 * macros below pass it, and in C++ the rewriter puts the call before each cudaMalloc-like call
 * (sim/run/rewrite_atomics.c, name_allocations) */
void simtlab_alloc_name(const char *expr);
/* on: the calls until off are an Async call's synchronous form (no point where a pending fault shows) */
void simtlab_async_call(int on);
/* cudaMalloc and cudaMallocManaged from C (C++ uses cuda_runtime.h's templates) */
#ifndef __cplusplus
#define cudaMalloc(p, n) (simtlab_alloc_name(#p), simtlab_malloc((void **)(p), (n), "cudaMalloc", __FILE__, __LINE__))
#define cudaMallocManaged(p, n, ...) \
    (simtlab_alloc_name(#p), simtlab_malloc_managed((void **)(p), (n), __FILE__, __LINE__))
#endif
/* what: "cudaMallocHost" or "cudaHostAlloc"; pinned memory is in the simulator's arena: kernels may
 * use it (cudaHostGetDevicePointer gives the same pointer), copies treat it as host memory */
cudaError_t simtlab_malloc_host(void **p, size_t n, unsigned flags, const char *what);
cudaError_t cudaHostGetDevicePointer(void **dev, void *host, unsigned flags);
cudaError_t cudaHostGetFlags(unsigned *flags, void *host);
cudaError_t simtlab_memcpy_symbol(void *symbol, size_t symbol_size, const void *src, size_t n, size_t offset, int to_symbol);
cudaError_t simtlab_symbol_address(void **p, void *symbol, size_t symbol_size);
cudaError_t simtlab_func_set_attribute(int attr, int value);
/* malloc() and free() in device code (the rewriter renames them, sim/run/rewrite.c): inside a
 * kernel from the device heap, cudaLimitMallocHeapSize bytes (8 MiB unless set before the first
 * launch), NULL when it is full; from host code the C library's. A file that calls them registers
 * the heap at start-up (simtlab_want_device_heap), so it exists before the first launch. */
void *simtlab_device_malloc(size_t n);
void simtlab_device_free(void *p);
int simtlab_want_device_heap(void);
/* for the program's operator delete (cuda_runtime.h): whether p is in the device heap, and the next
 * definition of operator delete's form k (0 (void *), 1 [], 2 sized, 3 sized [], 4 aligned, 5
 * aligned [], 6 sized aligned, 7 its [], 8 nothrow, 9 its [], 10 aligned nothrow, 11 its []) */
int simtlab_device_heap_owns(const void *p);
void *simtlab_next_delete(unsigned k);
/* clock64() in a kernel: the host's monotonic clock in cycles of cudaDeviceProp.clockRate */
long long simtlab_clock64(void);

/* What the <<<>>> launch calls: checks, runs the grid, records and reports
 * the launch (--json, --lines, the summary), returns the launch's error. */
typedef struct simtlab_dim3 { unsigned x, y, z; } simtlab_dim3;
/* cudaLaunchKernel (cuda_runtime.h): the kernel's name from the call's text, kept for the launch's
 * reports; the error of a kernel passed as a void pointer; an API error with its message */
const char *simtlab_launch_name(const char *call_text);
/* The name of a launch whose kernel expression's closure holds one pointer: the function it
 * points to when that is a kernel, else text (sim/run/cudart.c). */
const char *simtlab_launch_fname(const char *text, const void *closure);
cudaError_t simtlab_launch_untyped(const char *kernel, const char *file, int line);
cudaError_t simtlab_api_fail(cudaError_t e, const char *fn, const char *why);
/* Whether p is device memory (an allocation, not pinned host memory, or a __device__ variable). */
int simtlab_on_device(const void *p);
/* The next simtlab_launch of this host thread is a library call's (cuBLAS, sim/run/cublas.c). */
void simtlab_launch_is_library(void);
cudaError_t simtlab_launch(const char *kernel, const char *file, int line, simtlab_dim3 grid, simtlab_dim3 block,
                           size_t shared, cudaStream_t stream, void (*thunk)(const void *), const void *args,
                           size_t args_size);

#ifdef __cplusplus
}
#endif
#endif /* SIMTLAB_CUDART_H */
