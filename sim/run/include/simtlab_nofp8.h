/* sim/run/include/simtlab_nofp8.h - what cuda_fp8.h gives here: the simulator has no fp8
 * arithmetic (half and bfloat16 it has: cuda_fp16.h, cuda_bf16.h). Including it is fine; a use
 * fails to build, naming the unsupported type in one static assertion: the types are a template
 * that cannot be completed. (The toolkit's own header would clash with the shim's types and bury
 * that in hundreds of g++ errors.) Source files naming these types are refused earlier, in one
 * line, by the rewriter (rewrite.c features). */
#pragma once
namespace simtlab {
template <class Tag>
struct no_fp8 {
    static_assert(sizeof(Tag *) == 0, "simtlab run: fp8 (__nv_fp8_e4m3, __nv_fp8_e5m2, __nv_fp8x2_*, "
                                      "__nv_fp8x4_*) is not supported by the simulator; run the program on a GPU "
                                      "(simtlab run --mode cuda), or see docs/run.md for what simtlab run supports");
};
struct fp8_tag;
} // namespace simtlab
typedef simtlab::no_fp8<simtlab::fp8_tag> __nv_fp8_e4m3;
typedef simtlab::no_fp8<simtlab::fp8_tag> __nv_fp8_e5m2;
typedef simtlab::no_fp8<simtlab::fp8_tag> __nv_fp8x2_e4m3;
typedef simtlab::no_fp8<simtlab::fp8_tag> __nv_fp8x2_e5m2;
typedef simtlab::no_fp8<simtlab::fp8_tag> __nv_fp8x4_e4m3;
typedef simtlab::no_fp8<simtlab::fp8_tag> __nv_fp8x4_e5m2;
