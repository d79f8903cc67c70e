/* sim/run/include/simtlab_cuda_std.h - libcu++'s cuda::std as the host's std: the cuda/std headers
 * of sim/run/include that map to a standard header (type_traits, cstdint, limits, utility, array,
 * tuple, cmath, ...) include the standard one and this, so that cuda::std::is_same_v,
 * cuda::std::numeric_limits<T>, ... name std's. The rest of libcu++ (cuda::std::atomic, barrier,
 * latch, semaphore, mdspan, span, ...) is refused (sim/run/rewrite.c). */
#pragma once
namespace cuda {
namespace std {
using namespace ::std;
}
} // namespace cuda
