// scripts/gpu/probe_rd.cuh - the read kernel the standalone L2 probes share (dirty_probe.cu,
// wlines_probe.cu): a grid-stride sum over count floats, kept alive by a store that never happens.
#pragma once
#include <cstddef>

__global__ void rd(const float *p, size_t count, float *sink)
{
    float acc = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x)
        acc += p[i];
    if (acc == -12345.f)
        sink[0] = acc;
}
