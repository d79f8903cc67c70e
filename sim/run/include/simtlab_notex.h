/* sim/run/include/simtlab_notex.h - textures and surfaces here: the simulator has none (no texture
 * unit, no CUDA arrays). Their names are declared so that a use fails to build naming what is
 * unsupported in one static assertion, as simtlab_nofp8.h does for fp8: the
 * descriptor types are a template that cannot be completed, the functions return one. A .cu file
 * that names them is refused earlier, in one line, by the rewriter (rewrite.c features); this is
 * for the program's own headers, which the rewriter does not refuse (a header may name a feature
 * it never uses, as helper_cuda.h names cuBLAS's). Texture references (texture<T, dim, mode>)
 * are not declared: CUDA 12 removed them, nvcc 13 rejects them too, and `texture` is a fine name
 * for a program's own variable. */
#pragma once
namespace simtlab {
template <class Tag>
struct no_tex {
    static_assert(sizeof(Tag *) == 0, "simtlab run: textures and surfaces (texture objects, tex1D/tex2D/tex3D/"
                                    "tex1Dfetch, surf2Dread/surf2Dwrite, CUDA arrays) are not supported by the "
                                    "simulator; run the program on a GPU (simtlab run --mode cuda), or see "
                                    "docs/run.md for what simtlab run supports");
};
struct tex_tag;
} // namespace simtlab
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;
typedef struct cudaArray *cudaArray_t;
typedef const struct cudaArray *cudaArray_const_t;
typedef struct cudaMipmappedArray *cudaMipmappedArray_t;
typedef simtlab::no_tex<struct simtlab_resource_desc> cudaResourceDesc;
typedef simtlab::no_tex<struct simtlab_texture_desc> cudaTextureDesc;
typedef simtlab::no_tex<struct simtlab_resource_view_desc> cudaResourceViewDesc;
typedef simtlab::no_tex<struct simtlab_channel_desc> cudaChannelFormatDesc;
enum cudaTextureAddressMode { cudaAddressModeWrap, cudaAddressModeClamp, cudaAddressModeMirror, cudaAddressModeBorder };
enum cudaTextureFilterMode { cudaFilterModePoint, cudaFilterModeLinear };
enum cudaTextureReadMode { cudaReadModeElementType, cudaReadModeNormalizedFloat };
enum cudaResourceType { cudaResourceTypeArray, cudaResourceTypeMipmappedArray, cudaResourceTypeLinear,
                        cudaResourceTypePitch2D };
enum cudaChannelFormatKind { cudaChannelFormatKindSigned, cudaChannelFormatKindUnsigned, cudaChannelFormatKindFloat,
                             cudaChannelFormatKindNone };
enum cudaSurfaceBoundaryMode { cudaBoundaryModeZero, cudaBoundaryModeClamp, cudaBoundaryModeTrap };
/* a call needs its result type complete, which fails; T: tex2D<float>(...)'s explicit type */
#define SIMTLAB_NO_TEX_FN(name)                                                                               \
    template <class _SimT = simtlab::tex_tag, class... _SimA>                                                         \
    simtlab::no_tex<_SimT> name(_SimA...);
SIMTLAB_NO_TEX_FN(tex1D)
SIMTLAB_NO_TEX_FN(tex1Dfetch)
SIMTLAB_NO_TEX_FN(tex2D)
SIMTLAB_NO_TEX_FN(tex3D)
SIMTLAB_NO_TEX_FN(tex1DLayered)
SIMTLAB_NO_TEX_FN(tex2DLayered)
SIMTLAB_NO_TEX_FN(tex1DLod)
SIMTLAB_NO_TEX_FN(tex2DLod)
SIMTLAB_NO_TEX_FN(tex3DLod)
SIMTLAB_NO_TEX_FN(tex2Dgather)
SIMTLAB_NO_TEX_FN(texCubemap)
SIMTLAB_NO_TEX_FN(surf1Dread)
SIMTLAB_NO_TEX_FN(surf1Dwrite)
SIMTLAB_NO_TEX_FN(surf2Dread)
SIMTLAB_NO_TEX_FN(surf2Dwrite)
SIMTLAB_NO_TEX_FN(surf3Dread)
SIMTLAB_NO_TEX_FN(surf3Dwrite)
SIMTLAB_NO_TEX_FN(cudaCreateTextureObject)
SIMTLAB_NO_TEX_FN(cudaDestroyTextureObject)
SIMTLAB_NO_TEX_FN(cudaCreateSurfaceObject)
SIMTLAB_NO_TEX_FN(cudaDestroySurfaceObject)
SIMTLAB_NO_TEX_FN(cudaMallocArray)
SIMTLAB_NO_TEX_FN(cudaMalloc3DArray)
SIMTLAB_NO_TEX_FN(cudaFreeArray)
SIMTLAB_NO_TEX_FN(cudaMemcpyToArray)
SIMTLAB_NO_TEX_FN(cudaMemcpy2DToArray)
SIMTLAB_NO_TEX_FN(cudaMemcpyFromArray)
SIMTLAB_NO_TEX_FN(cudaMemcpy2DFromArray)
SIMTLAB_NO_TEX_FN(cudaCreateChannelDesc)
SIMTLAB_NO_TEX_FN(cudaGetChannelDesc)
#undef SIMTLAB_NO_TEX_FN
