/* bench/attention_c.h - plain C attention (attention_c.c) */
#ifndef BENCH_ATTENTION_C_H
#define BENCH_ATTENTION_C_H
/* o (N, d) = softmax(q k^T / sqrt(d)) v, one head, fp32, on `threads` OpenMP threads */
void attention_c(float *restrict o, const float *restrict q, const float *restrict k, const float *restrict v, int N,
                 int d, int threads);
#endif
