// Lets the per-cell recurrences compile for the CPU (g++) and for the GPU (nvcc, hipcc).
#pragma once
#if defined(__CUDACC__) || defined(__HIPCC__)
#define WL_HD __host__ __device__ __forceinline__
#else
#define WL_HD inline
#endif
