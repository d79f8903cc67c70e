/* lessons/05_torch_stack/alloc_trace.h - traces of tensor allocations, and their replay
 * through the caching allocator (caching_allocator.h).
 *
 * A trace is text, one step a line:
 *   alloc NAME BYTES [STREAM]   a tensor of BYTES on STREAM (0..7, default 0)
 *   free NAME                   the tensor's memory goes back to the cache
 *   empty_cache                 torch.cuda.empty_cache()
 *   # text                      a heading, printed above the steps that follow
 * BYTES is a whole number, optionally with a unit: KiB MiB GiB (also k m g:
 * powers of 1024) or KB MB GB (powers of 1000): 3000000, 4MiB, 1.5MiB.
 * Text after a '#' on a step's line is a comment. Names are up to 31
 * characters; a name is live from its alloc to its free.
 *
 * A file (--trace) is read a line at a time: at most CA_TRACE_MAX_BYTES bytes,
 * CA_TRACE_MAX_STEPS steps and headings, lines of CA_TRACE_MAX_LINE characters;
 * a NUL byte ends it as "not a text trace" (so /dev/zero is refused at once).
 *
 * Not here: printing. The lesson prints each step; the tests replay traces.
 */
#ifndef LESSON05_ALLOC_TRACE_H
#define LESSON05_ALLOC_TRACE_H
#include <stddef.h>
#include <stdint.h>

#include "caching_allocator.h"

#define CA_TRACE_MAX_BYTES (1 << 20) /* 1 MiB */
#define CA_TRACE_MAX_STEPS 20000
#define CA_TRACE_MAX_LINE 511

typedef enum ca_trace_kind { CA_TRACE_ALLOC, CA_TRACE_FREE, CA_TRACE_EMPTY_CACHE, CA_TRACE_HEADING } ca_trace_kind;

typedef struct ca_trace_op {
    ca_trace_kind kind;
    char name[32];   /* alloc, free */
    uint64_t bytes;  /* alloc */
    int stream;      /* alloc */
    int line;        /* in the source text, from 1 */
    char text[160];  /* the step as written (a heading: its text), comments dropped */
} ca_trace_op;

typedef struct ca_trace {
    ca_trace_op *ops;
    int n, cap;
    int steps;       /* ops that are not headings */
} ca_trace;

/* The built-in trace: a training step of a small model, the next batch on
 * a second stream, then empty_cache; it shows why nvidia-smi shows more than
 * torch.cuda.memory_allocated(). */
extern const char ca_trace_default[];

/* Parses text (named `source` in messages) into t. Checks names as it goes:
 * an alloc of a live name or a free of a name that is not live is an error.
 * Returns 0, or -1 with "source:line: what was wrong (the text)" in err. */
int ca_trace_parse(ca_trace *t, const char *text, const char *source, char *err, size_t n);
/* Reads and parses a file; -1 with the reason (file or parse) in err. */
int ca_trace_load(ca_trace *t, const char *path, char *err, size_t n);
void ca_trace_free(ca_trace *t);

/* Replays steps through an allocator, keeping the live tensors by name. */
typedef struct ca_live {
    char name[32];
    ca_block *block; /* NULL for a 0-byte tensor */
    uint64_t bytes;
    int stream;
} ca_live;

typedef struct ca_replay {
    ca_allocator *a;
    ca_live *live;
    int n_live, cap_live;
    /* kept by ca_replay_step, for the incremental check */
    void *names, *blocks;        /* name -> live index; block -> live index (hash tables) */
    int touched;                 /* the live index the last step allocated, or -1 */
    uint64_t live_size, live_bytes; /* the live tensors' block sizes and requests, summed */
    char step_err[160];          /* what the last step broke that the check must report */
} ca_replay;

void ca_replay_init(ca_replay *r, ca_allocator *a);
/* Runs one op (a heading does nothing). Returns the allocator's status
 * (CA_ERR_OOM with PyTorch's message in err), or CA_ERR_INVALID for a name
 * that is not live / already live. */
int ca_replay_step(ca_replay *r, const ca_trace_op *op, char *err, size_t n);
/* ca_check, and every live tensor owns one allocated block no other has,
 * of at least its bytes, on its stream. 1 when all hold, else 0 with why.
 * O(segments^2 + blocks + live tensors): ca_check compares segment pairs. */
int ca_replay_check(const ca_replay *r, char *why, size_t n);
/* After a step: full ? ca_replay_check : the incremental check, O(1): the
 * tensor the step allocated owns its block alone, and the allocator's
 * allocated/requested totals equal the live tensors' (kept as they change).
 * Replays run the full check when ca_replay_full_check_due: at every step
 * while the allocator has at most CA_REPLAY_FULL_CHECK_SEGMENTS segments and
 * CA_REPLAY_FULL_CHECK_BLOCKS blocks, beyond that at steps 1, 2, 4, 8, ... and the last, so a trace of n steps
 * costs about one full check at n, not n of them. */
int ca_replay_check_step(const ca_replay *r, int full, char *why, size_t n);
#define CA_REPLAY_FULL_CHECK_SEGMENTS 32
#define CA_REPLAY_FULL_CHECK_BLOCKS 256
int ca_replay_full_check_due(const ca_replay *r, int step, int steps); /* step from 0 */
/* Runs a whole trace, checking after each step (ca_replay_check_step); returns 0, the first
 * failing step's status (negative), or 1 when a check failed (why in err).
 * For the tests. */
int ca_replay_all(ca_replay *r, const ca_trace *t, char *err, size_t n);
const ca_live *ca_replay_find(const ca_replay *r, const char *name);
void ca_replay_free(ca_replay *r);
#endif
