/* sim/memory.h - simulated device memory (HBM): cudaMalloc & co.
 *
 * Device allocations live in one arena of reserved address space, each on
 * its own 64 KiB-aligned pages with unmapped red zones between them, and
 * carry a name for reports ("S", "P", "d_x"). Freed addresses and
 * allocation records are reused only once fresh ones run out, oldest freed
 * first (a quarantine), so a use after a recent free is caught and names the
 * freed buffer, while a program may allocate and free in a loop for ever.
 * Host<->device copies are counted apart from kernel traffic (they model
 * PCIe, not HBM).
 *
 * All functions return a sim_status (sim/launch.h) and never exit.
 */
#ifndef SIMTLAB_MEMORY_H
#define SIMTLAB_MEMORY_H

#include <stddef.h>
#include <stdint.h>

#include "launch.h"

typedef enum sim_copy_kind {
    SIM_COPY_H2D, /* cudaMemcpyHostToDevice */
    SIM_COPY_D2H, /* cudaMemcpyDeviceToHost */
    SIM_COPY_D2D  /* cudaMemcpyDeviceToDevice */
} sim_copy_kind;

/* Allocates bytes (> 0) of device memory named name (copied; NULL gives
 * "alloc#N"). Fails with SIM_ERR_MEMORY_ALLOCATION when neither the arena's
 * fresh space nor a freed range fits it, or when 65534 allocations are live. */
sim_status sim_malloc(void **ptr, size_t bytes, const char *name);
/* Frees an allocation; SIM_ERR_INVALID_DEVICE_POINTER if ptr is not the
 * start of a live allocation. sim_free(NULL) is a no-op. */
sim_status sim_free(void *ptr);
/* Copies within and across the arena; checks both ranges. */
sim_status sim_memcpy(void *dst, const void *src, size_t bytes, sim_copy_kind kind);
sim_status sim_memset(void *ptr, int value, size_t bytes);

/* A __device__ variable of the program (outside the arena), as the runtime learns its address
 * (cudaGetSymbolAddress): sim_memcpy and sim_memset then take ranges inside it as device
 * memory, as a GPU copies it. Returns SIM_ERR_MEMORY_ALLOCATION when the table is full. */
sim_status sim_register_symbol(const void *ptr, size_t bytes);
/* 1 when [ptr, ptr + bytes) lies inside one registered __device__ variable. */
int sim_in_symbol(const void *ptr, size_t bytes);

/* What one allocation has seen since sim_reset_counters(). */
typedef struct sim_alloc_info {
    const char *name;
    void *base;
    size_t bytes;
    int freed;
    uint64_t read_bytes, write_bytes; /* by kernels */
} sim_alloc_info;

/* Fills info for the allocation that contains ptr; SIM_ERR_INVALID_DEVICE_POINTER otherwise. */
sim_status sim_alloc_query(const void *ptr, sim_alloc_info *info);

typedef struct sim_copy_counters {
    uint64_t h2d_bytes, d2h_bytes, d2d_bytes;
} sim_copy_counters;
sim_copy_counters sim_copy_totals(void);

/* Zeroes per-allocation kernel counters and copy totals. */
void sim_reset_counters(void);

/* Bytes of device memory currently allocated. */
size_t sim_bytes_in_use(void);

/* Device memory lives in the host's: sim_malloc refuses (SIM_ERR_MEMORY_ALLOCATION, the host's
 * figures in the message) an allocation that, with the live ones not yet touched, is more than
 * the host has available (/proc/meminfo's MemAvailable, less a reserve), where Linux would kill
 * the process once it touched them. On by default; off (0) lets allocations reserve address
 * space only (tests that fill the 256 GiB arena). Returns the previous setting. */
int sim_set_host_memory_check(int on);

#endif /* SIMTLAB_MEMORY_H */
