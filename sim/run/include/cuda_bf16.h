/* sim/run/include/cuda_bf16.h - the simulator has no half-precision arithmetic: including this header is
 * fine, using its types fails to build with one message (simtlab_nohalf.h). */
#pragma once
#include "simtlab_nohalf.h"
