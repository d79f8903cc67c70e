/* sim/run/include/thrust/unique.h - Thrust is not in the simulator: a program that includes this header, from any
 * of its files or headers, is refused here with one line (g++ would say only "No such file"). */
#pragma once
#error "simtlab run: Thrust is not supported by the simulator; run the program on a GPU (simtlab run --mode cuda), or see docs/run.md for what simtlab run supports"
