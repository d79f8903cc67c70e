/* sim/run/include/cuda_pipeline.h - CUDA's pipeline header: its primitives (cuda_pipeline_primitives.h) */
#pragma once
#include "cuda_pipeline_primitives.h"
