/* sim/run/include/simtlab_nohalf.h - what cuda_fp16.h, cuda_bf16.h and cuda_fp8.h give here:
 * the simulator has no half, bfloat16 or fp8 arithmetic. Including them is fine (many programs
 * include cuda_fp16.h and never use it, and nvcc builds those); a use fails to build, naming the
 * unsupported type in one static assertion: the types are a template that cannot be completed,
 * the intrinsics return one. (The toolkit's own headers would clash with the shim's types and
 * bury that in hundreds of g++ errors.) Source files naming these types are refused earlier, in
 * one line, by the rewriter (rewrite.c features). */
#pragma once
namespace simtlab {
template <class Tag>
struct no_half {
    static_assert(sizeof(Tag *) == 0, "simtlab run: half precision, bfloat16 and fp8 (__half, __nv_bfloat16, "
                                    "__nv_fp8_*) are not supported by the simulator; run the program on a GPU "
                                    "(simtlab run --mode cuda), or see docs/run.md for what simtlab run supports");
};
struct half_tag;
struct half2_tag;
struct bf16_tag;
struct bf162_tag;
struct fp8_tag;
} // namespace simtlab
typedef simtlab::no_half<simtlab::half_tag> __half;
typedef simtlab::no_half<simtlab::half2_tag> __half2;
typedef __half half;
typedef __half2 half2;
typedef simtlab::no_half<simtlab::bf16_tag> __nv_bfloat16;
typedef simtlab::no_half<simtlab::bf162_tag> __nv_bfloat162;
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;
typedef simtlab::no_half<simtlab::fp8_tag> __nv_fp8_e4m3;
typedef simtlab::no_half<simtlab::fp8_tag> __nv_fp8_e5m2;
/* the intrinsics a use starts with: a call needs its result type complete, which fails */
#define SIMTLAB_NO_HALF_FN(name)                                                                              \
    template <class... A>                                                                                     \
    __half name(A...);
SIMTLAB_NO_HALF_FN(__float2half)
SIMTLAB_NO_HALF_FN(__float2half_rn)
SIMTLAB_NO_HALF_FN(__half2float)
SIMTLAB_NO_HALF_FN(__float22half2_rn)
SIMTLAB_NO_HALF_FN(__half22float2)
SIMTLAB_NO_HALF_FN(__floats2half2_rn)
SIMTLAB_NO_HALF_FN(__halves2half2)
SIMTLAB_NO_HALF_FN(__low2float)
SIMTLAB_NO_HALF_FN(__high2float)
SIMTLAB_NO_HALF_FN(__hadd)
SIMTLAB_NO_HALF_FN(__hsub)
SIMTLAB_NO_HALF_FN(__hmul)
SIMTLAB_NO_HALF_FN(__hdiv)
SIMTLAB_NO_HALF_FN(__hfma)
SIMTLAB_NO_HALF_FN(__hmax)
SIMTLAB_NO_HALF_FN(__hmin)
SIMTLAB_NO_HALF_FN(__hadd2)
SIMTLAB_NO_HALF_FN(__hmul2)
SIMTLAB_NO_HALF_FN(__hfma2)
SIMTLAB_NO_HALF_FN(hexp)
SIMTLAB_NO_HALF_FN(hsqrt)
SIMTLAB_NO_HALF_FN(__float2bfloat16)
SIMTLAB_NO_HALF_FN(__float2bfloat16_rn)
SIMTLAB_NO_HALF_FN(__bfloat162float)
#undef SIMTLAB_NO_HALF_FN
