/* sim/run/include/cublas.h - cuBLAS is not in the simulator: a program that includes this header, from any
 * of its files or headers, is refused here with one line (the toolkit's own header would clash
 * with the shim's types and bury that in hundreds of g++ errors). */
#pragma once /* one refusal however many of the program's headers include it */
#error "simtlab run: cuBLAS is not supported by the simulator; run the program on a GPU (simtlab run --mode cuda), or see docs/run.md for what simtlab run supports"
