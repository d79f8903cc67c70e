/* sim/run/include/nvml.h - NVML (the management library: clocks, power, temperatures of a real
 * GPU) is not in the simulator: a program that includes this header, from any of its files or
 * headers, is refused here with one line (g++ would say only "No such file"). */
#pragma once
#error "simtlab run: NVML (nvml.h, the GPU management library) is not supported by the simulator: it reads a real GPU's clocks and sensors; run the program on a GPU (simtlab run --mode cuda), or see docs/run.md for what simtlab run supports"
