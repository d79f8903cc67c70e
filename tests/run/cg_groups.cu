// tests/run/cg_groups.cu - cooperative groups beyond the fixed tiles of cg.cu, each
// result against the host's (exit 1 on a mismatch):
//  - cg::thread_group: a shared-memory sum over the whole block and over a dynamic
//    tiled_partition(block, n) (n = 16 in 64 threads; n = 32 in 48, whose second tile
//    has 16), and tiled_partition(tile, 4)'s ranks and sizes;
//  - cg::reduce with plus, less, greater, bit_and/or/xor and a lambda, the scans,
//    shfl, any and all on thread_block_tile<32>, <16>, <4> and the two-warp <64>
//    (every lane's result);
//  - cg::coalesced_threads() in a divergent branch: an aggregated atomicAdd, a reduce,
//    an exclusive scan and tiles of 4, by rank among the lanes that took the branch.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <algorithm>
#include <cstdio>
#include <vector>
namespace cg = cooperative_groups;

static int bad = 0;
static void check(const char *what, int i, long long got, long long want)
{
    if (got != want && bad++ < 12)
        printf("%s[%d] = %lld, expected %lld\n", what, i, got, want);
}
static int value(int i) { return (i * 37 + 11) % 101 - 50; }

// ---- thread_group -------------------------------------------------------------
// the sum of v over g, in rank 0 (any size: each step folds the upper half onto the lower)
__device__ int group_sum(cg::thread_group g, int *work, int v)
{
    unsigned r = g.thread_rank();
    for (unsigned n = g.size(); n > 1; n = (n + 1) / 2) {
        unsigned half = (n + 1) / 2;
        work[r] = v;
        g.sync();
        if (r + half < n)
            v += work[r + half];
        g.sync();
    }
    return v;
}

__global__ void group_sums(const int *in, int *block_sum, int *tile_sum, int *quarter, unsigned n)
{
    __shared__ int work[64];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_group all = block;
    unsigned i = blockIdx.x * block.size() + block.thread_rank();
    int v = in[i];
    int s = group_sum(all, work, v);
    if (all.thread_rank() == 0)
        block_sum[blockIdx.x] = s;
    block.sync();
    cg::thread_group tile = cg::tiled_partition(block, n);
    unsigned first = block.thread_rank() - tile.thread_rank();
    s = group_sum(tile, work + first, v);
    if (tile.thread_rank() == 0)
        tile_sum[blockIdx.x * ((block.size() + n - 1) / n) + first / n] = s;
    cg::thread_group q = cg::tiled_partition(tile, 4);
    quarter[i] = (int)(q.size() * 100 + q.thread_rank());
}

static void run_group_sums(unsigned threads, unsigned n)
{
    const unsigned blocks = 2, total = blocks * threads, tiles = (threads + n - 1) / n;
    std::vector<int> h(total), bs(blocks), ts(blocks * tiles), qs(total);
    for (unsigned i = 0; i < total; i++)
        h[i] = value((int)i);
    int *in, *b, *t, *q;
    cudaMalloc(&in, total * sizeof(int));
    cudaMalloc(&b, blocks * sizeof(int));
    cudaMalloc(&t, blocks * tiles * sizeof(int));
    cudaMalloc(&q, total * sizeof(int));
    cudaMemcpy(in, h.data(), total * sizeof(int), cudaMemcpyHostToDevice);
    group_sums<<<blocks, threads>>>(in, b, t, q, n);
    cudaMemcpy(bs.data(), b, blocks * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(ts.data(), t, blocks * tiles * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(qs.data(), q, total * sizeof(int), cudaMemcpyDeviceToHost);
    for (unsigned blk = 0; blk < blocks; blk++) {
        int want = 0;
        for (unsigned r = 0; r < threads; r++)
            want += h[blk * threads + r];
        check("thread_group block sum", (int)blk, bs[blk], want);
        for (unsigned k = 0; k < tiles; k++) {
            want = 0;
            for (unsigned r = k * n; r < (k + 1) * n && r < threads; r++)
                want += h[blk * threads + r];
            check("dynamic tile sum", (int)(blk * tiles + k), ts[blk * tiles + k], want);
        }
        for (unsigned r = 0; r < threads; r++)
            check("tile of a tile", (int)(blk * threads + r), qs[blk * threads + r], 4 * 100 + r % n % 4);
    }
    cudaFree(in);
    cudaFree(b);
    cudaFree(t);
    cudaFree(q);
}

// ---- cg::reduce and the scans on fixed tiles ------------------------------------------
struct results {
    int sum, lo, hi;
    unsigned band, bor, bxor;
    long long squares;
    int incl, excl, incl_max, meta, second, any, all;
};

template <unsigned N>
__global__ void tile_reduce(const int *in, results *out)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<N> t = cg::tiled_partition<N>(block);
    unsigned i = blockIdx.x * block.size() + block.thread_rank();
    int v = in[i];
    unsigned u = (unsigned)v * 2654435761u;
    results r;
    r.sum = cg::reduce(t, v, cg::plus<int>());
    r.lo = cg::reduce(t, v, cg::less<int>());
    r.hi = cg::reduce(t, v, cg::greater<int>());
    r.band = cg::reduce(t, u, cg::bit_and<unsigned>());
    r.bor = cg::reduce(t, u, cg::bit_or<unsigned>());
    r.bxor = cg::reduce(t, u, cg::bit_xor<unsigned>());
    r.squares = cg::reduce(t, (long long)v * v, [](long long a, long long b) { return a + b; });
    r.incl = cg::inclusive_scan(t, v);
    r.excl = cg::exclusive_scan(t, v, cg::plus<int>());
    r.incl_max = cg::inclusive_scan(t, v, cg::greater<int>());
    r.meta = (int)(t.meta_group_rank() * 1000 + t.meta_group_size());
    r.second = t.shfl(v, 1 % N);
    r.any = t.any(v > 40);
    r.all = t.all(v > -40);
    out[i] = r;
}

template <unsigned N>
static void run_tile_reduce()
{
    const unsigned blocks = 2, threads = 128, total = blocks * threads;
    std::vector<int> h(total);
    std::vector<results> got(total);
    for (unsigned i = 0; i < total; i++)
        h[i] = value((int)(i * 3 + N));
    int *in;
    results *out;
    cudaMalloc(&in, total * sizeof(int));
    cudaMalloc(&out, total * sizeof(results));
    cudaMemcpy(in, h.data(), total * sizeof(int), cudaMemcpyHostToDevice);
    tile_reduce<N><<<blocks, threads>>>(in, out);
    cudaMemcpy(got.data(), out, total * sizeof(results), cudaMemcpyDeviceToHost);
    char what[64];
    for (unsigned i = 0; i < total; i++) {
        unsigned first = i / N * N;
        results w{0, h[first], h[first], 0xffffffffu, 0, 0, 0, 0, 0, h[first], 0, h[first + 1 % N], 0, 1};
        for (unsigned k = first; k < first + N; k++) {
            unsigned u = (unsigned)h[k] * 2654435761u;
            w.sum += h[k];
            w.lo = std::min(w.lo, h[k]);
            w.hi = std::max(w.hi, h[k]);
            w.band &= u;
            w.bor |= u;
            w.bxor ^= u;
            w.squares += (long long)h[k] * h[k];
            w.any |= h[k] > 40;
            w.all &= h[k] > -40;
            if (k < i)
                w.excl += h[k];
            if (k <= i)
                w.incl_max = std::max(w.incl_max, h[k]);
        }
        w.incl = w.excl + h[i];
        w.meta = (int)(i % threads / N * 1000 + threads / N);
        const results &g = got[i];
#define CHECK(field)                                                                                                   \
    snprintf(what, sizeof what, "tile<%u> " #field, N);                                                                \
    check(what, (int)i, (long long)g.field, (long long)w.field)
        CHECK(sum);
        CHECK(lo);
        CHECK(hi);
        CHECK(band);
        CHECK(bor);
        CHECK(bxor);
        CHECK(squares);
        CHECK(incl);
        CHECK(excl);
        CHECK(incl_max);
        CHECK(meta);
        CHECK(second);
        CHECK(any);
        CHECK(all);
#undef CHECK
    }
    cudaFree(in);
    cudaFree(out);
}

// ---- coalesced groups ---------------------------------------------------------------------
__global__ void coalesced(const int *in, int *count, int *slots, int *sum, int *before, int *quarter)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    if (v % 3 == 0) {
        cg::coalesced_group g = cg::coalesced_threads();
        int base = 0;
        if (g.thread_rank() == 0)
            base = atomicAdd(count, (int)g.size());
        base = g.shfl(base, 0);
        slots[base + g.thread_rank()] = (int)i;
        sum[i] = cg::reduce(g, v, cg::plus<int>());
        before[i] = cg::exclusive_scan(g, v);
        cg::coalesced_group q = cg::tiled_partition(g, 4);
        quarter[i] = cg::reduce(q, 1, cg::plus<int>()) * 100 + (int)q.thread_rank();
    }
}

static void run_coalesced()
{
    const unsigned blocks = 2, threads = 64, total = blocks * threads;
    std::vector<int> h(total), s(total), b(total), q(total), slots(total);
    for (unsigned i = 0; i < total; i++)
        h[i] = value((int)(i * 7));
    int *in, *count, *sl, *su, *be, *qu, n = 0;
    cudaMalloc(&in, total * sizeof(int));
    cudaMalloc(&count, sizeof(int));
    cudaMalloc(&sl, total * sizeof(int));
    cudaMalloc(&su, total * sizeof(int));
    cudaMalloc(&be, total * sizeof(int));
    cudaMalloc(&qu, total * sizeof(int));
    cudaMemcpy(in, h.data(), total * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemset(count, 0, sizeof(int));
    coalesced<<<blocks, threads>>>(in, count, sl, su, be, qu);
    cudaMemcpy(&n, count, sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(slots.data(), sl, total * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(s.data(), su, total * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(b.data(), be, total * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(q.data(), qu, total * sizeof(int), cudaMemcpyDeviceToHost);
    std::vector<int> want;
    for (unsigned i = 0; i < total; i++)
        if (h[i] % 3 == 0)
            want.push_back((int)i);
    check("coalesced count", 0, n, (long long)want.size());
    if (n == (int)want.size()) {
        std::sort(slots.begin(), slots.begin() + n);
        for (int k = 0; k < n; k++)
            check("coalesced slots", k, slots[k], want[k]);
    }
    for (unsigned w = 0; w < total / 32; w++) {
        std::vector<unsigned> lanes; /* the lanes that took the branch, by rank */
        int warp_sum = 0;
        for (unsigned i = w * 32; i < w * 32 + 32; i++)
            if (h[i] % 3 == 0)
                lanes.push_back(i), warp_sum += h[i];
        int prefix = 0;
        for (unsigned k = 0; k < lanes.size(); k++) {
            unsigned i = lanes[k], size = std::min<unsigned>(4, (unsigned)lanes.size() - k / 4 * 4);
            check("coalesced reduce", (int)i, s[i], warp_sum);
            check("coalesced exclusive_scan", (int)i, b[i], prefix);
            check("coalesced tile of 4", (int)i, q[i], size * 100 + k % 4);
            prefix += h[i];
        }
    }
    cudaFree(in);
    cudaFree(count);
    cudaFree(sl);
    cudaFree(su);
    cudaFree(be);
    cudaFree(qu);
}

int main()
{
    run_group_sums(64, 16);
    run_group_sums(48, 32);
    run_tile_reduce<32>();
    run_tile_reduce<16>();
    run_tile_reduce<4>();
    run_tile_reduce<64>();
    run_coalesced();
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess)
        printf("cg_groups: %s\n", cudaGetErrorName(e)), bad++;
    printf("cg_groups: %s\n", bad ? "WRONG" : "correct");
    return bad != 0;
}
