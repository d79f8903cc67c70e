/* tests/kernels/warp_kernels.cu - kernels for tests/test_warp.c.
 *
 * What they are: each warp intrinsic called with a mask, a width and a lane
 * argument chosen by the test, so the test can compare every lane's result
 * with the CUDA Programming Guide's definition; the layout of warps in 2-D
 * blocks and in blocks that are not a multiple of 32; lanes that exit
 * before or while their warp-mates call; and the ways a warp intrinsic can be
 * misused (lanes that disagree, a mask without the caller).
 * Lanes whose bit is not in the mask do not call the intrinsic: they write a
 * sentinel and return, as CUDA requires of lanes outside a mask.
 */
#include "kernel.h"
#include "warp_kernels.h"

/* shfl_int / shfl_float / shfl_double: out[i] = the intrinsic `kind`
 * (WARP_SHFL_IDX/UP/DOWN/XOR) applied to in[i] with lane argument arg and
 * width; i is the global thread index of a 1-D launch. */
__global__ void shfl_int(int *out, const int *in, int kind, int arg, int width, unsigned mask)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x % 32;
    if (!(mask >> lane & 1)) {
        out[i] = WARP_SENTINEL;
        return;
    }
    int v = in[i], r;
    switch (kind) {
    case WARP_SHFL_IDX: r = __shfl_sync(mask, v, arg, width); break;
    case WARP_SHFL_UP: r = __shfl_up_sync(mask, v, (unsigned)arg, width); break;
    case WARP_SHFL_DOWN: r = __shfl_down_sync(mask, v, (unsigned)arg, width); break;
    default: r = __shfl_xor_sync(mask, v, arg, width); break;
    }
    out[i] = r;
}

__global__ void shfl_float(float *out, const float *in, int kind, int arg, int width, unsigned mask)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x % 32;
    if (!(mask >> lane & 1)) {
        out[i] = (float)WARP_SENTINEL;
        return;
    }
    float v = in[i], r;
    switch (kind) {
    case WARP_SHFL_IDX: r = __shfl_sync(mask, v, arg, width); break;
    case WARP_SHFL_UP: r = __shfl_up_sync(mask, v, (unsigned)arg, width); break;
    case WARP_SHFL_DOWN: r = __shfl_down_sync(mask, v, (unsigned)arg, width); break;
    default: r = __shfl_xor_sync(mask, v, arg, width); break;
    }
    out[i] = r;
}

__global__ void shfl_double(double *out, const double *in, int kind, int arg, int width, unsigned mask)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x % 32;
    if (!(mask >> lane & 1)) {
        out[i] = (double)WARP_SENTINEL;
        return;
    }
    double v = in[i], r;
    switch (kind) {
    case WARP_SHFL_IDX: r = __shfl_sync(mask, v, arg, width); break;
    case WARP_SHFL_UP: r = __shfl_up_sync(mask, v, (unsigned)arg, width); break;
    case WARP_SHFL_DOWN: r = __shfl_down_sync(mask, v, (unsigned)arg, width); break;
    default: r = __shfl_xor_sync(mask, v, arg, width); break;
    }
    out[i] = r;
}

/* votes: out[3*i .. 3*i+2] = __ballot_sync, __any_sync, __all_sync of
 * pred[i] over mask. */
__global__ void votes(unsigned *out, const int *pred, unsigned mask)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x % 32;
    if (!(mask >> lane & 1)) {
        out[3 * i] = out[3 * i + 1] = out[3 * i + 2] = WARP_SENTINEL;
        return;
    }
    int p = pred[i];
    out[3 * i] = __ballot_sync(mask, p);
    out[3 * i + 1] = (unsigned)__any_sync(mask, p);
    out[3 * i + 2] = (unsigned)__all_sync(mask, p);
}

/* warp_layout: for any block shape, out[4*i ..] of thread i (global linear
 * index) = the linear index of lane 0 of its warp (by shuffle), the ballot of
 * (threadIdx.y odd), threadIdx.x * 1000 + threadIdx.y of the warp's last
 * existing lane, and __activemask(). Every lane of the block calls, with the
 * mask of the lanes that exist (__activemask() before any lane exits). */
__global__ void warp_layout(unsigned *out)
{
    unsigned nt = blockDim.x * blockDim.y * blockDim.z;
    unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    size_t i = (size_t)blockIdx.x * nt + t;
    unsigned m = __activemask();
    unsigned base = t & ~31u, last = nt - base > 32 ? 31 : nt - 1 - base;
    out[4 * i] = __shfl_sync(m, t, 0);
    out[4 * i + 1] = __ballot_sync(m, threadIdx.y & 1);
    out[4 * i + 2] = __shfl_sync(m, threadIdx.x * 1000 + threadIdx.y, (int)last);
    out[4 * i + 3] = m;
}

/* active_after_exit: lanes >= k return; the others record __activemask().
 * CUDA: "Threads which have exited the program are always marked as
 * inactive", and lanes on the other side of a divergent branch are inactive
 * too, so lanes < k see the mask of lanes < k. */
__global__ void active_after_exit(unsigned *out, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if ((int)(threadIdx.x % 32) >= k) {
        out[i] = WARP_SENTINEL;
        return;
    }
    out[i] = __activemask();
}

/* syncwarp_swap: the lanes of mask write s[t], then (use_sync 1)
 * __syncwarp(mask) or (use_sync 2) __syncwarp() or (0) nothing, then read
 * their neighbour's word s[t ^ 1]: out[i] = t ^ 1 only if the writes are
 * ordered before the reads (and the neighbour is in the mask). */
__global__ void syncwarp_swap(int *out, unsigned mask, int use_sync)
{
    __shared__ int s[1024];
    unsigned t = threadIdx.x, lane = t % 32;
    int i = blockIdx.x * blockDim.x + t;
    if (!(mask >> lane & 1)) {
        out[i] = WARP_SENTINEL;
        return;
    }
    s[t] = (int)t;
    if (use_sync == 1)
        __syncwarp(mask);
    else if (use_sync == 2)
        __syncwarp();
    out[i] = s[t ^ 1];
}

/* nested_masks: lanes 8-15 first shuffle among themselves (mask 0xff00), then
 * lanes 0-15 shuffle together (mask 0xffff), while lanes 0-7 already wait at
 * that second shuffle. Legal since Volta (independent thread scheduling):
 * the lanes of a mask only have to meet at the same intrinsic eventually.
 * out[t]: lanes 8-15 first hold v = l + (l ^ 1); then lane l < 16 takes the
 * v of lane l ^ 8; lanes >= 16 keep v = l. */
__global__ void nested_masks(int *out)
{
    unsigned lane = threadIdx.x % 32;
    int v = (int)lane;
    if (lane < 16) {
        if (lane >= 8)
            v += __shfl_xor_sync(0x0000ff00u, v, 1);
        v = __shfl_xor_sync(0x0000ffffu, v, 8);
    }
    out[threadIdx.x] = v;
}

/* ---- misuse: each of these must be reported (SIM_ERR_WARP_SYNC) --------- */

/* shfl_after_exit: lane `gone` exits; the others shuffle with the full mask,
 * which names it. */
__global__ void shfl_after_exit(int *out, int gone, int src)
{
    unsigned lane = threadIdx.x % 32;
    if ((int)lane == gone)
        return;
    out[threadIdx.x] = __shfl_sync(0xffffffffu, (int)lane, src); /* SITE:after_exit */
}

/* ballot_after_exit: lanes >= gone return first (gone 31: the last lane,
 * which the simulator runs after lanes 0-30 already wait), then the rest
 * vote with the full mask and meet at a full-mask __syncwarp. */
__global__ void ballot_after_exit(unsigned *out, int gone)
{
    unsigned lane = threadIdx.x % 32;
    if ((int)lane >= gone)
        return;
    unsigned b = __ballot_sync(0xffffffffu, 1);
    __syncwarp();
    out[threadIdx.x] = b;
}

/* two_rdv_exit: lanes 0-14 shuffle with mask 0x0000ffff, lanes 16-31 vote
 * with mask 0xffff8000, and lane 15, which both masks name, polls a volatile
 * word (after 256 reads it lets the others run: they reach their intrinsics)
 * and returns: its exit completes both rendezvous. */
__global__ void two_rdv_exit(unsigned *out)
{
    unsigned lane = threadIdx.x % 32;
    if (lane == 15) {
        volatile unsigned *poll = out + 64;
        unsigned seen = 0;
        for (int i = 0; i < 1000; i++)
            seen += *poll;
        out[threadIdx.x] = seen;
        return;
    }
    if (lane < 15)
        out[threadIdx.x] = (unsigned)__shfl_sync(0x0000ffffu, (int)lane * 10, (int)(lane + 1) % 15);
    else
        out[threadIdx.x] = __ballot_sync(0xffff8000u, lane & 1);
}

/* many_groups: warp-aggregated atomics' pattern (there __match_any_sync
 * finds the groups): the warp splits into `groups` groups (lane % groups),
 * and each shuffles its leader's value with its own mask: lanes
 * 0..groups-1 open a rendezvous each, all pending at once (16 of them at
 * groups = 16). */
__global__ void many_groups(int *out, int groups)
{
    unsigned lane = threadIdx.x % 32, mask = 0;
    for (unsigned k = 0; k < 32; k++)
        if (k % (unsigned)groups == lane % (unsigned)groups)
            mask |= 1u << k;
    int leader = __ffs((int)mask) - 1;
    out[threadIdx.x] = __shfl_sync(mask, (int)lane * 3, leader);
}

/* mask_mismatch: lanes < 16 call with the full mask, lanes >= 16 with a
 * mask that lacks lane 0. */
__global__ void mask_mismatch(int *out)
{
    unsigned lane = threadIdx.x % 32;
    unsigned m = lane < 16 ? 0xffffffffu : 0xfffffffeu;
    out[threadIdx.x] = __shfl_sync(m, (int)lane, 16); /* SITE:mismatch */
}

/* vote_mismatch: half the warp votes with __ballot_sync, half with __any_sync. */
__global__ void vote_mismatch(unsigned *out)
{
    unsigned lane = threadIdx.x % 32;
    if (lane < 16)
        out[threadIdx.x] = __ballot_sync(0xffffffffu, 1);
    else
        out[threadIdx.x] = (unsigned)__any_sync(0xffffffffu, 1);
}

/* width_mismatch: half the warp shuffles with width 16, half with width 32. */
__global__ void width_mismatch(int *out)
{
    unsigned lane = threadIdx.x % 32;
    out[threadIdx.x] = __shfl_xor_sync(0xffffffffu, (int)lane, 1, lane < 16 ? 16 : 32);
}

/* mask_without_caller: every lane passes mask 0x1, which names only lane 0. */
__global__ void mask_without_caller(int *out)
{
    out[threadIdx.x] = __shfl_sync(0x1u, (int)threadIdx.x, 0);
}

/* shfl_vs_barrier: lanes < 16 wait at a shuffle naming the whole warp while
 * lanes >= 16 wait at __syncthreads. */
__global__ void shfl_vs_barrier(int *out)
{
    unsigned lane = threadIdx.x % 32;
    if (lane < 16)
        out[threadIdx.x] = __shfl_sync(0xffffffffu, (int)lane, 0);
    else
        __syncthreads();
}

/* full_mask_partial_warp: the full mask in a block whose last warp is partial. */
__global__ void full_mask_partial_warp(unsigned *out)
{
    out[threadIdx.x] = __ballot_sync(0xffffffffu, 1);
}

LAUNCHER(shfl_int, (int *, out), (const int *, in), (int, kind), (int, arg), (int, width), (unsigned, mask))
LAUNCHER(shfl_float, (float *, out), (const float *, in), (int, kind), (int, arg), (int, width), (unsigned, mask))
LAUNCHER(shfl_double, (double *, out), (const double *, in), (int, kind), (int, arg), (int, width), (unsigned, mask))
LAUNCHER(votes, (unsigned *, out), (const int *, pred), (unsigned, mask))
LAUNCHER(warp_layout, (unsigned *, out))
LAUNCHER(active_after_exit, (unsigned *, out), (int, k))
LAUNCHER(syncwarp_swap, (int *, out), (unsigned, mask), (int, use_sync))
LAUNCHER(nested_masks, (int *, out))
LAUNCHER(shfl_after_exit, (int *, out), (int, gone), (int, src))
LAUNCHER(ballot_after_exit, (unsigned *, out), (int, gone))
LAUNCHER(two_rdv_exit, (unsigned *, out))
LAUNCHER(many_groups, (int *, out), (int, groups))
LAUNCHER(mask_mismatch, (int *, out))
LAUNCHER(vote_mismatch, (unsigned *, out))
LAUNCHER(width_mismatch, (int *, out))
LAUNCHER(mask_without_caller, (int *, out))
LAUNCHER(shfl_vs_barrier, (int *, out))
LAUNCHER(full_mask_partial_warp, (unsigned *, out))

/* mma_tile: one warp's D = A B + D by mma_tf32 (three = 0) or mma_tf32x3
 * (three = 1: the operands split by tf32_round). Misuses: three = 2, lanes
 * 0-15 calling one and lanes 16-31 the other; three = 3, both halves
 * mma_tf32 but at two call sites; three = 4, lane 5's accumulator pointer
 * past the end of D. A is 16 x 8, B is 8 x 8, D is 16 x 8, all row-major;
 * the lanes gather their fragments. */
__global__ void mma_tile(float *D, const float *A, const float *B, int three)
{
    const int lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
    float a[4] = {A[g * 8 + t], A[(g + 8) * 8 + t], A[g * 8 + t + 4], A[(g + 8) * 8 + t + 4]};
    float b[2] = {B[t * 8 + g], B[(t + 4) * 8 + g]};
    float d[4] = {D[g * 8 + 2 * t], D[g * 8 + 2 * t + 1], D[(g + 8) * 8 + 2 * t], D[(g + 8) * 8 + 2 * t + 1]};
    if (three == 1 || (three == 2 && lane >= 16)) {
        float ab[4], as[4], bb[2], bs[2];
        UNROLL
        for (int i = 0; i < 4; i++) {
            ab[i] = tf32_round(a[i]);
            as[i] = a[i] - ab[i];
        }
        UNROLL
        for (int i = 0; i < 2; i++) {
            bb[i] = tf32_round(b[i]);
            bs[i] = b[i] - bb[i];
        }
        mma_tf32x3(d, ab, as, bb, bs);
    } else if (three == 3 && lane < 16) {
        mma_tf32(d, a, b);
    } else if (three == 4) {
        mma_tf32(lane == 5 ? D + 16 * 8 + 2 : d, a, b);
    } else if (three == 5) {
        if (lane == 1)
            return; /* after lane 0 reached the mma: lane 2 is the first to join without it */
        mma_tf32(d, a, b);
    } else {
        mma_tf32(d, a, b);
    }
    if (threadIdx.x < 32) {
        D[g * 8 + 2 * t] = d[0];
        D[g * 8 + 2 * t + 1] = d[1];
        D[(g + 8) * 8 + 2 * t] = d[2];
        D[(g + 8) * 8 + 2 * t + 1] = d[3];
    }
}
LAUNCHER(mma_tile, (float *, D), (const float *, A), (const float *, B), (int, three))

/* tf32_round_of: out[i] = tf32_round(in[i]). */
__global__ void tf32_round_of(float *out, const float *in, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tf32_round(in[i]);
}
LAUNCHER(tf32_round_of, (float *, out), (const float *, in), (int, n))
