/* sim/run/include/cudnn_frontend.h - cuDNN's C++ frontend is not in the simulator either: a program
 * whose build includes it (llm.c's dev kernels with -DENABLE_CUDNN) is refused here with one line,
 * as cudnn.h does, instead of g++'s "no such file". The rewrite does not report the include when
 * it sits in a branch the preprocessor surely drops (sim/run/rewrite.c, cond_line). */
#pragma once
#error "simtlab run: cuDNN (cudnn_frontend.h) is not supported by the simulator; run the program on a GPU (simtlab run --mode cuda), or build it without cuDNN (llm.c: leave ENABLE_CUDNN undefined); see docs/run.md"
