/* sim/run/include/cublas_v2.h - cuBLAS's v2 API on the simulator: cublas_api.h says what it holds. */
#pragma once
#include "cublas_api.h"
