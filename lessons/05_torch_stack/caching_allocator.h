/* lessons/05_torch_stack/caching_allocator.h - PyTorch's CUDA caching allocator, in C.
 *
 * What it is: the block/segment bookkeeping of c10/cuda/CUDACachingAllocator.cpp
 * (PyTorch 2.x, default settings), rule for rule, over a pluggable "device"
 * that hands out segments (cudaMalloc) and takes them back (cudaFree): a
 * simulated device (ca_sim_device, addresses and a capacity, no memory) or,
 * in lesson05.c, the real cudaMalloc. The rules, each named as in PyTorch:
 *
 *   kMinBlockSize  = 512 B   round_size: every request is rounded up to a multiple of 512
 *   kSmallSize     = 1 MiB   get_pool: rounded sizes <= 1 MiB use the small pool
 *   kSmallBuffer   = 2 MiB   get_allocation_size: a small-pool segment is 2 MiB
 *   kLargeBuffer   = 20 MiB  get_allocation_size: 1 MiB < size < 10 MiB get a 20 MiB segment
 *   kMinLargeAlloc = 10 MiB  get_allocation_size: from here on the segment is the request...
 *   kRoundLarge    = 2 MiB   ...rounded up to a multiple of 2 MiB
 *   best fit       get_free_block: the smallest free block of the request's pool and
 *                  stream that is >= the rounded size; equal sizes: the lower address
 *   split          should_split: the rest of the block becomes a free block if it is
 *                  >= 512 B (small pool) or > 1 MiB (large pool); else the whole block
 *                  is handed out, and counts as allocated
 *   merge          free_block/try_merge_blocks: a freed block merges with its free
 *                  neighbours in the same segment
 *   per stream     a block belongs to the stream of its segment; a free block is
 *                  reused only by requests on that stream
 *   empty_cache    release_cached_blocks: every segment without an allocated block is
 *                  cudaFree'd; a segment with one live block stays whole
 *   OOM retry      malloc: when cudaMalloc fails, release_cached_blocks, then try once more
 *
 * What it is not: a memory manager for host code (no data moves); thread-safe;
 * PyTorch's optional settings (max_split_size_mb, roundup_power2_divisions,
 * expandable_segments, garbage_collection_threshold), CUDA graph pools or
 * record_stream events (a block used on another stream is not modelled).
 *
 * Figures (PyTorch's names): allocated = torch.cuda.memory_allocated() = sum of the
 * sizes of the blocks handed out (the rounded size, or the whole block when it was
 * not split); requested = the callers' own sizes; reserved =
 * torch.cuda.memory_reserved() = sum of segment sizes; nvidia-smi shows the
 * process's reserved + its CUDA context (CA_CONTEXT_BYTES, an assumption).
 *
 * Errors: functions return CA_OK or a negative ca_status with the reason in
 * a->err; none prints or exits.
 */
#ifndef LESSON05_CACHING_ALLOCATOR_H
#define LESSON05_CACHING_ALLOCATOR_H
#include <stddef.h>
#include <stdint.h>

#define CA_KIB (1024ull)
#define CA_MIB (1024ull * 1024ull)

/* PyTorch's constants (CUDACachingAllocator.cpp / CachingDeviceAllocator.h). */
#define CA_MIN_BLOCK_SIZE (512ull)         /* kMinBlockSize: all sizes are rounded to at least 512 bytes */
#define CA_SMALL_SIZE (1ull * CA_MIB)      /* kSmallSize: largest "small" allocation is 1 MiB */
#define CA_SMALL_BUFFER (2ull * CA_MIB)    /* kSmallBuffer: "small" allocations are packed in 2 MiB blocks */
#define CA_LARGE_BUFFER (20ull * CA_MIB)   /* kLargeBuffer: "large" allocations may be packed in 20 MiB blocks */
#define CA_MIN_LARGE_ALLOC (10ull * CA_MIB)/* kMinLargeAlloc: allocations between 1 and 10 MiB may use kLargeBuffer */
#define CA_ROUND_LARGE (2ull * CA_MIB)     /* kRoundLarge: round up large allocations to 2 MiB */

/* The CUDA context's own device memory, which nvidia-smi counts for the
 * process but torch.cuda.memory_reserved() does not: an ASSUMPTION of about
 * 500 MiB on an H100/H200 with a recent driver. It varies with the driver,
 * the GPU, CUDA_MODULE_LOADING (lazy loading keeps it smaller) and the
 * libraries a process loads (cuBLAS, cuDNN and NCCL add their own
 * workspaces and kernels). `lesson 5 --mode cuda` measures it with
 * cudaMemGetInfo before the first allocation. */
#define CA_CONTEXT_BYTES (500ull * CA_MIB)

typedef enum ca_status {
    CA_OK = 0,
    CA_ERR_OOM = -1,     /* cudaMalloc failed, also after releasing the cache */
    CA_ERR_INVALID = -2, /* a bad argument: freeing a free or foreign block, a bad stream */
    CA_ERR_DEVICE = -3,  /* the device's free failed, or host memory ran out */
} ca_status;

typedef enum ca_pool { CA_POOL_SMALL, CA_POOL_LARGE } ca_pool;

/* Why a segment has the size it has (get_allocation_size). */
typedef enum ca_seg_rule {
    CA_SEG_SMALL_BUFFER, /* rounded size <= kSmallSize: a 2 MiB segment */
    CA_SEG_LARGE_BUFFER, /* kSmallSize < size < kMinLargeAlloc: a 20 MiB segment */
    CA_SEG_ROUND_LARGE,  /* size >= kMinLargeAlloc: the size rounded up to 2 MiB */
} ca_seg_rule;

#define CA_MAX_STREAMS 8

typedef struct ca_segment ca_segment;

/* A block: a piece of one segment, free or handed out. */
typedef struct ca_block {
    uint64_t addr;      /* device address */
    uint64_t size;      /* bytes; a multiple of 512 */
    uint64_t requested; /* the caller's size (allocated blocks; 0 when free) */
    int stream;         /* the segment's stream */
    int allocated;
    struct ca_block *prev, *next; /* neighbours in the segment, by address */
    ca_segment *seg;
} ca_block;

/* A segment: one cudaMalloc. Its blocks tile it, in address order. */
struct ca_segment {
    uint64_t addr, size;
    int stream;
    ca_pool pool;
    unsigned id;        /* 1, 2, ... in the order they were cudaMalloc'ed */
    ca_block *head;     /* lowest address */
    ca_segment *next;   /* the allocator's list, in cudaMalloc order */
};

/* The device under the allocator. malloc returns 0 and the address, or -1
 * when the device is out of memory; free returns 0 or -1. */
typedef struct ca_device {
    int (*malloc)(void *ctx, uint64_t bytes, uint64_t *addr);
    int (*free)(void *ctx, uint64_t addr, uint64_t bytes);
    void *ctx;
} ca_device;

/* What the last call did, for the lesson's "what happened" column. */
typedef enum ca_action_kind { CA_ACT_NONE, CA_ACT_MALLOC, CA_ACT_FREE, CA_ACT_EMPTY_CACHE } ca_action_kind;
typedef struct ca_action {
    ca_action_kind kind;
    int stream;
    ca_pool pool;
    uint64_t requested, rounded; /* malloc: the caller's size and round_size of it */
    int reused;                  /* malloc: best fit found a cached block */
    uint64_t found_size;         /* malloc: the size of the block found or cudaMalloc'ed */
    uint64_t new_segment;        /* malloc: bytes cudaMalloc'ed (0 when reused) */
    ca_seg_rule seg_rule;        /* malloc: why new_segment has its size */
    unsigned segment_id;         /* malloc, free: the block's segment */
    int split;                   /* malloc: the rest became a free block of `remainder` bytes */
    uint64_t remainder;          /* malloc: block size - rounded (split off or kept) */
    uint64_t block_size;         /* malloc: the size handed out (counts in allocated); free: freed */
    int retried;                 /* malloc: cudaMalloc failed, the cache was released, retried */
    int merged_prev, merged_next;/* free: merged with the free neighbour below / above */
    uint64_t merged_size;        /* free: the free block after merging */
    int released_segments;       /* empty_cache or the OOM retry: segments cudaFree'd */
    uint64_t released_bytes;
    int oom;                     /* malloc failed */
} ca_action;

typedef struct ca_allocator {
    ca_device dev;
    ca_segment *segments;
    uint64_t allocated, requested, reserved;
    uint64_t peak_allocated, peak_reserved;
    unsigned long n_cuda_malloc, n_cuda_free, n_alloc_retries, n_ooms;
    unsigned next_segment_id;
    ca_action last;
    char err[256];
} ca_allocator;

typedef struct ca_stats {
    uint64_t allocated;      /* torch.cuda.memory_allocated() */
    uint64_t requested;      /* sum of the callers' sizes of live blocks */
    uint64_t reserved;       /* torch.cuda.memory_reserved() */
    uint64_t reserved_small, reserved_large;
    uint64_t free;           /* reserved - allocated: cached, not handed out */
    uint64_t largest_free;   /* the largest free block (any pool, any stream) */
    double fragmentation;    /* 1 - largest_free / free; 0 when nothing is free */
    int segments, blocks, live_blocks;
    uint64_t peak_allocated, peak_reserved;
    unsigned long cuda_mallocs, cuda_frees, alloc_retries, ooms;
} ca_stats;

/* ---- the rules, one function each (pure; the tests call them) ----------- */
uint64_t ca_round_size(uint64_t bytes);                 /* round_size */
ca_pool ca_get_pool(uint64_t rounded);                  /* get_pool */
uint64_t ca_get_allocation_size(uint64_t rounded);      /* get_allocation_size */
ca_seg_rule ca_get_allocation_rule(uint64_t rounded);
int ca_should_split(ca_pool pool, uint64_t block_size, uint64_t rounded); /* should_split */

/* ---- the allocator ------------------------------------------------------ */
/* Starts an empty allocator over dev (copied). Never fails. */
void ca_init(ca_allocator *a, const ca_device *dev);
/* cudaFree's every segment, live blocks included (the process ends), and
 * frees the bookkeeping. Returns CA_OK, or CA_ERR_DEVICE if a free failed. */
int ca_destroy(ca_allocator *a);
/* malloc(bytes, stream): *out is the block handed out. bytes 0 returns
 * CA_OK with *out = NULL, as PyTorch returns a null pointer for empty
 * tensors. CA_ERR_OOM with PyTorch's message in a->err when the device
 * cannot give a segment even after releasing the cache; CA_ERR_INVALID for
 * a stream outside 0..CA_MAX_STREAMS-1. */
int ca_malloc(ca_allocator *a, uint64_t bytes, int stream, ca_block **out);
/* Frees a block from ca_malloc (NULL is a no-op). The block may merge with
 * its neighbours: the pointer is invalid afterwards. CA_ERR_INVALID if it
 * is not an allocated block of this allocator. */
int ca_free(ca_allocator *a, ca_block *b);
/* torch.cuda.empty_cache(): cudaFree's every segment that holds no
 * allocated block. Returns CA_OK, or CA_ERR_DEVICE. */
int ca_empty_cache(ca_allocator *a);
ca_stats ca_get_stats(const ca_allocator *a);
/* Checks every invariant: blocks tile their segment (contiguous, sizes
 * multiples of 512, same stream, back links), no two free neighbours,
 * small segments are 2 MiB, allocated/requested/reserved equal the sums of
 * their parts, allocated <= reserved, segments do not overlap. Returns 1
 * when all hold, else 0 with the first violation in why. */
int ca_check(const ca_allocator *a, char *why, size_t n);
/* One line on what the last call did ("cudaMalloc 20.00 MiB segment #2
 * (1 MiB < 2.86 MiB < 10 MiB: kLargeBuffer); split: 17.14 MiB left free"). */
const char *ca_action_str(const ca_action *act, char *buf, size_t n);
/* "20.00 MiB", "4.00 KiB", "512 B" */
const char *ca_mib(uint64_t bytes, char *buf, size_t n);

/* ---- a simulated device ---------------------------------------------------
 * Hands out addresses from CA_SIM_BASE upwards, each segment 2 MiB aligned
 * (every segment size here is a multiple of 2 MiB), never reusing an
 * address; fails when the segments in use would exceed `capacity` bytes
 * (0 = no limit). */
#define CA_SIM_BASE 0x7f0000000000ull
typedef struct ca_sim_device {
    uint64_t capacity, used, next_addr;
    unsigned long mallocs, frees;
} ca_sim_device;
/* Fills *dev with a simulated device whose state is *sd. */
void ca_sim_device_init(ca_sim_device *sd, uint64_t capacity, ca_device *dev);
#endif
