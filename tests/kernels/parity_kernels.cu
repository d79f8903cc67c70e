/* tests/kernels/parity_kernels.cu - histograms, the atomics a course starts
 * with, for the parity tests (compiled for the simulator and by nvcc).
 *   hist_red:    bins[in[i] % nbins] += 1 by atomicAdd, result unused: the
 *                GPU issues a RED (sectors under ..._global_op_red)
 *   hist_atom:   the same, keeping the old value: an ATOM (..._op_atom)
 *   hist_shared: per-block bins in shared memory (ATOMS, wavefronts under
 *                ..._shared_op_atom), then one global atomicAdd per bin
 * nbins <= 1024 (hist_shared's shared array). */
#include "kernel.h"
#include "parity_kernels.h"

__global__ void hist_red(unsigned *bins, const int *in, int n, int nbins)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&bins[in[i] % nbins], 1u);
}

__global__ void hist_atom(unsigned *bins, unsigned *old, const int *in, int n, int nbins)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        old[i] = atomicAdd(&bins[in[i] % nbins], 1u);
}

__global__ void hist_shared(unsigned *bins, const int *in, int n, int nbins)
{
    __shared__ unsigned local[1024];
    for (int b = threadIdx.x; b < nbins; b += blockDim.x)
        local[b] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&local[in[i] % nbins], 1u);
    __syncthreads();
    /* every bin, zeros too: an access under a condition inside a loop is
     * grouped by the simulator by occurrence, not by iteration (docs/NOTES.md,
     * "Left for later"), which the GPU's count would not match */
    for (int b = threadIdx.x; b < nbins; b += blockDim.x)
        atomicAdd(&bins[b], local[b]);
}

LAUNCHER(hist_red, (unsigned *, bins), (const int *, in), (int, n), (int, nbins))
LAUNCHER(hist_atom, (unsigned *, bins), (unsigned *, old), (const int *, in), (int, n), (int, nbins))
LAUNCHER(hist_shared, (unsigned *, bins), (const int *, in), (int, n), (int, nbins))
