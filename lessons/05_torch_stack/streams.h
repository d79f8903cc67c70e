/* lessons/05_torch_stack/streams.h - a discrete-event model of CUDA streams.
 *
 * What it is: a program of ops (kernels, host-to-device and device-to-host
 * copies, event record and wait), each on a stream, in the order the host
 * issued them; st_simulate gives every op a start and an end under these
 * rules (CUDA's, simplified):
 *   - a stream is an in-order queue: an op starts after the previous op of
 *     its stream has ended;
 *   - ops of different streams run concurrently when they use different
 *     engines: one compute engine (kernels run one at a time: each kernel of
 *     this lesson has enough blocks to fill every SM), one copy engine for
 *     host-to-device, one for device-to-host (GPUs since Fermi's Tesla parts
 *     have two copy engines, one per direction);
 *   - an engine that two ready ops want goes to the one that became ready
 *     first (ties: the one issued first);
 *   - durations come from the device preset's roofline: a kernel takes
 *     max(bytes / HBM bandwidth, flops / fp32 peak); a copy takes bytes / the
 *     PCIe bandwidth; record and wait take no time;
 *   - a wait (cudaStreamWaitEvent) holds its stream until the op before the
 *     latest record of that event, issued before the wait, has ended; with
 *     no such record it waits for nothing, as in CUDA.
 * What it is not: a model of launch latency, of kernels sharing SMs, of L2,
 * of pageable-memory staging or of PCIe contention between directions.
 */
#ifndef LESSON05_STREAMS_H
#define LESSON05_STREAMS_H
#include <stddef.h>
#include <stdio.h>

#define ST_MAX_OPS 256
#define ST_MAX_STREAMS 8
#define ST_MAX_EVENTS 64

typedef enum st_kind { ST_KERNEL, ST_H2D, ST_D2H, ST_RECORD, ST_WAIT } st_kind;
typedef enum st_engine { ST_ENG_NONE = -1, ST_ENG_COMPUTE, ST_ENG_H2D, ST_ENG_D2H, ST_NENGINES } st_engine;

typedef struct st_op {
    st_kind kind;
    int stream;
    int chunk;      /* the lesson's buffer index (kernels, copies); -1 otherwise */
    int event;      /* record, wait */
    double bytes;   /* kernel: HBM bytes read + written; copy: bytes over PCIe */
    double flops;   /* kernel */
    char name[24];
    /* filled by st_simulate (seconds from the start), or by a measurement: */
    double start, end;
    int waits_for;  /* wait: the op whose end it waits for, -1 none */
} st_op;

typedef struct st_machine {
    double hbm_bytes_per_s, fp32_flops_per_s, pcie_bytes_per_s;
} st_machine;

typedef struct st_program {
    st_op op[ST_MAX_OPS]; /* in host issue order */
    int n;
    int n_streams;        /* 1 + the highest stream used */
    double makespan;      /* the last end, after st_simulate */
} st_program;

void st_init(st_program *p);
/* Append an op; return its index, or -1 when the program is full or the
 * stream / event is out of range. */
int st_kernel(st_program *p, int stream, const char *name, int chunk, double bytes, double flops);
int st_copy(st_program *p, st_kind dir, int stream, const char *name, int chunk, double bytes);
int st_record(st_program *p, int stream, int event);
int st_wait(st_program *p, int stream, int event);

st_engine st_engine_of(st_kind k);
const char *st_engine_name(st_engine e); /* "compute", "H2D copy", "D2H copy" */
/* The op's duration in seconds under the roofline above. */
double st_duration(const st_machine *m, const st_op *op);
/* 1 when a kernel's flops term exceeds its bytes term. */
int st_compute_bound(const st_machine *m, const st_op *op);

/* Fills start and end of every op and the makespan. Never fails. */
void st_simulate(st_program *p, const st_machine *m);
/* Seconds an engine is busy (the sum of its ops' durations). */
double st_engine_busy(const st_program *p, st_engine e);
/* Checks a timeline. Always: ops of one stream in issue order without
 * overlap, ends >= starts, waits end no earlier than what they wait for,
 * all within tol seconds. model != 0 adds: each duration is st_duration
 * (within a relative 1e-9), no engine runs two ops at once, the makespan is
 * the last end and at least the busiest engine's time. Returns 1 when
 * consistent, else 0 with the first violation in why. */
int st_check(const st_program *p, const st_machine *m, int model, double tol, char *why, size_t n);
/* One row per stream of `width` columns over [0, t_end]: H/h host-to-device,
 * K/k kernel, D/d device-to-host (upper case for even chunks, lower case for
 * odd, so neighbours can be told apart), '.' idle; then a time axis. */
void st_print_timeline(FILE *f, const st_program *p, double t_end, int width, const char *indent);
#endif
