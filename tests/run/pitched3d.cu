// tests/run/pitched3d.cu - 3-D pitched memory (survey 7's D10: HeCBench pitch, cuda-training's
// memcpy3d): cudaMalloc3D's rows are 512-byte multiples; a kernel fills a W x H x D box through
// the pitched pointer; cudaMemcpy3D copies a sub-box (positions in bytes and rows) to the host and
// back; cudaMemset3D clears it; boxes that do not fit and a CUDA array in the parameters are
// refused.
#include <cstdio>

__global__ void fill(cudaPitchedPtr p, int w, int h, int d)
{
    int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
    if (x < w && y < h && z < d) {
        char *slice = (char *)p.ptr + (size_t)z * p.pitch * p.ysize;
        ((float *)(slice + (size_t)y * p.pitch))[x] = (float)(x + 10 * y + 100 * z);
    }
}

int main()
{
    const int w = 5, h = 4, d = 3;
    cudaExtent ext = make_cudaExtent(w * sizeof(float), h, d);
    cudaPitchedPtr p;
    int bad = cudaMalloc3D(&p, ext) != cudaSuccess || p.pitch != 512 || p.xsize != w * sizeof(float) || p.ysize != h;
    fill<<<1, dim3(w, h, d)>>>(p, w, h, d);
    // the sub-box x 1..3, y 1..2, z 1..2 to a host box of 3 x 2 x 2
    float out[2][2][3];
    cudaMemcpy3DParms c = {0};
    c.srcPtr = p;
    c.srcPos = make_cudaPos(1 * sizeof(float), 1, 1);
    c.dstPtr = make_cudaPitchedPtr(out, 3 * sizeof(float), 3, 2);
    c.extent = make_cudaExtent(3 * sizeof(float), 2, 2);
    c.kind = cudaMemcpyDeviceToHost;
    bad += cudaMemcpy3D(&c) != cudaSuccess;
    for (int z = 0; z < 2; z++)
        for (int y = 0; y < 2; y++)
            for (int x = 0; x < 3; x++)
                bad += out[z][y][x] != (float)((x + 1) + 10 * (y + 1) + 100 * (z + 1));
    // clear the device box, copy the host box back to its corner, read the whole box
    bad += cudaMemset3D(p, 0, ext) != cudaSuccess;
    cudaMemcpy3DParms back = {0};
    back.srcPtr = c.dstPtr;
    back.dstPtr = p;
    back.extent = c.extent;
    back.kind = cudaMemcpyHostToDevice;
    bad += cudaMemcpy3D(&back) != cudaSuccess;
    float all[3][4][5];
    cudaMemcpy3DParms whole = {0};
    whole.srcPtr = p;
    whole.dstPtr = make_cudaPitchedPtr(all, w * sizeof(float), w, h);
    whole.extent = ext;
    whole.kind = cudaMemcpyDeviceToHost;
    bad += cudaMemcpy3D(&whole) != cudaSuccess;
    for (int z = 0; z < d; z++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                bad += all[z][y][x] != (z < 2 && y < 2 && x < 3 ? out[z][y][x] : 0.0f);
    // boxes that do not fit: past the allocation's last slice (it used to land in the next
    // allocation), a wrapped x position, more rows than a slice; nothing is written
    float *next;
    cudaMalloc(&next, 64);
    cudaMemset(next, 0, 64);
    cudaMemcpy3DParms past = back;
    past.dstPos = make_cudaPos(0, 0, 64);
    bad += cudaMemcpy3D(&past) != cudaErrorInvalidValue;
    past.dstPos = make_cudaPos((size_t)-8, 0, 0);
    bad += cudaMemcpy3D(&past) != cudaErrorInvalidValue;
    bad += cudaMemset3D(p, 1, make_cudaExtent(16, h + 1, 2)) != cudaErrorInvalidValue;
    float nh[16];
    cudaMemcpy(nh, next, 64, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 16; i++)
        bad += nh[i] != 0.0f;
    (void)cudaGetLastError();
    // a CUDA array: refused
    cudaMemcpy3DParms arr = whole;
    arr.srcArray = (cudaArray_t)1;
    cudaError_t e = cudaMemcpy3D(&arr);
    bad += e == cudaSuccess;
    (void)cudaGetLastError();
    printf("pitched3d: %s (array copy: %s)\n", bad ? "WRONG" : "correct", cudaGetErrorName(e));
    return bad != 0;
}
