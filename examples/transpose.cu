// transpose.cu - out = in^T for an n x n matrix, three ways (after Mark
// Harris's "An Efficient Matrix Transpose in CUDA C/C++"): 32 x 8 threads
// move a 32 x 32 tile, four rows each.
//   naive   reads rows, writes columns: each warp's store touches 32 sectors
//   tiled   stages the tile in shared memory: both global sides coalesced,
//           but reading a tile column hits one bank 32 times (32-way conflict)
//   padded  the same with a 33-float row: the column read is conflict-free
//   ./simtlab run examples/transpose.cu --lines [-- n]    (n a multiple of 32)
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "check.h"

#define TILE 32
#define ROWS 8

__global__ void transpose_naive(const float *in, float *out, int n)
{
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[x * n + (y + j)] = in[(y + j) * n + x];
}

__global__ void transpose_tiled(const float *in, float *out, int n)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x; // the transposed block
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transpose_padded(const float *in, float *out, int n)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1024;
    if (n <= 0 || n % TILE) {
        fprintf(stderr, "usage: transpose [n, a positive multiple of %d]\n", TILE);
        return 2;
    }
    size_t bytes = (size_t)n * n * sizeof(float);
    std::vector<float> in((size_t)n * n), out((size_t)n * n);
    for (size_t i = 0; i < in.size(); i++)
        in[i] = (float)i;
    float *din, *dout;
    CHECK(cudaMalloc(&din, bytes));
    CHECK(cudaMalloc(&dout, bytes));
    CHECK(cudaMemcpy(din, in.data(), bytes, cudaMemcpyHostToDevice));
    dim3 grid(n / TILE, n / TILE), block(TILE, ROWS);
    const char *names[3] = {"naive", "tiled", "padded"};
    int failed = 0;
    for (int v = 0; v < 3; v++) {
        CHECK(cudaMemset(dout, 0, bytes));
        if (v == 0)
            transpose_naive<<<grid, block>>>(din, dout, n);
        else if (v == 1)
            transpose_tiled<<<grid, block>>>(din, dout, n);
        else
            transpose_padded<<<grid, block>>>(din, dout, n);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(out.data(), dout, bytes, cudaMemcpyDeviceToHost));
        int bad = 0;
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++)
                bad += out[(size_t)r * n + c] != in[(size_t)c * n + r];
        printf("transpose %s: n = %d, %s\n", names[v], n, bad ? "WRONG" : "correct");
        failed |= bad != 0;
    }
    CHECK(cudaFree(din));
    CHECK(cudaFree(dout));
    return failed;
}
