/* bench/attention_c.c - plain C attention, the vs_plain_c side of bench_sim.
 *
 * O = softmax(Q K^T / sqrt(d)) V for one head, fp32, compiled with -O3
 * -march=native (bench/CMakeLists.txt) and parallel over rows with OpenMP on
 * exactly `threads` threads (the simulator's worker count in the same
 * measurement). Per row: the row of scores (each a dot product over d, a SIMD
 * reduction), its maximum, the exponentials and their sum, then P V with the
 * inner loop over d contiguous, and one division per element. No
 * simulator, no counting: what a performance engineer would write without
 * tiling for cache (Q, K, V of one head at N = 1024, d = 64 fit in L2). */
#include <math.h>
#include <stdlib.h>

#include "attention_c.h"

void attention_c(float *restrict o, const float *restrict q, const float *restrict k, const float *restrict v, int N,
                 int d, int threads)
{
    const float scale = 1.0f / sqrtf((float)d);
    (void)threads; /* without OpenMP: one thread */
#ifdef _OPENMP
#pragma omp parallel num_threads(threads)
#endif
    {
        float *s = malloc((size_t)N * sizeof *s);
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
        for (int i = 0; i < N; i++) {
            const float *qi = q + (size_t)i * d;
            float mx = -INFINITY;
            for (int j = 0; j < N; j++) {
                const float *kj = k + (size_t)j * d;
                float acc = 0.0f;
#ifdef _OPENMP
#pragma omp simd reduction(+ : acc)
#endif
                for (int c = 0; c < d; c++)
                    acc += qi[c] * kj[c];
                s[j] = acc * scale;
                mx = s[j] > mx ? s[j] : mx;
            }
            float sum = 0.0f;
            for (int j = 0; j < N; j++) {
                s[j] = expf(s[j] - mx);
                sum += s[j];
            }
            float *oi = o + (size_t)i * d;
            for (int c = 0; c < d; c++)
                oi[c] = 0.0f;
            for (int j = 0; j < N; j++) {
                const float p = s[j], *vj = v + (size_t)j * d;
                for (int c = 0; c < d; c++)
                    oi[c] += p * vj[c];
            }
            const float inv = 1.0f / sum;
            for (int c = 0; c < d; c++)
                oi[c] *= inv;
        }
        free(s);
    }
}
