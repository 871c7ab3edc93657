// Throughput of the instructions a DTW cell is made of, in lane operations per clock per SM
// (which pipe bounds the FFMA / three-input-minimum cell). Each thread runs 8
// independent chains of one instruction (inline PTX, so nothing is folded), 64 warps per SM;
// the SM clock comes from clock64 inside the kernel. Device-only diagnostic:
//   nvcc -O3 -arch=sm_90 -o pipe_rates scripts/device/pipe_rates.cu && ./pipe_rates
#include <cstdio>
#include <cuda_fp16.h>

constexpr int kIter = 4096, kChains = 8, kBlock = 256, kBlocksPerSm = 8;

template <int OP>
__device__ __forceinline__ unsigned op(unsigned a, unsigned b, unsigned c) {
    unsigned d;
    if constexpr (OP == 0) asm volatile("fma.rn.f32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    if constexpr (OP == 1) asm volatile("add.f32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    if constexpr (OP == 2) asm volatile("min.f32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    if constexpr (OP == 3) asm volatile("min.s32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    if constexpr (OP == 4) asm volatile("{.reg .s32 t; min.s32 t, %1, %2; min.s32 %0, t, %3;}" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    if constexpr (OP == 5) asm volatile("{.reg .b32 t; min.s16x2 t, %1, %2; min.s16x2 %0, t, %3;}" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    if constexpr (OP == 6) asm volatile("fma.rn.f16x2 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    if constexpr (OP == 7) asm volatile("{.reg .f32 t; min.f32 t, %1, %2; min.f32 %0, t, %3;}" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
}

// OP 8: the sdtw cell, c = fma(y, -1, x); d = fma(c, c, vimin3(up, left, diag)).
template <int OP>
__global__ void __launch_bounds__(kBlock) rateKernel(unsigned* out, long long* cycles, unsigned seed) {
    unsigned v[kChains], b = seed * 3u + threadIdx.x, c = seed ^ 0x3f800000u;
#pragma unroll
    for (int k = 0; k < kChains; ++k) v[k] = seed + k * 7u + threadIdx.x;
    __syncthreads();
    const long long t0 = clock64();
    for (int i = 0; i < kIter; ++i) {
#pragma unroll
        for (int k = 0; k < kChains; ++k) {
            if constexpr (OP == 8) {
                const unsigned m = op<4>(v[k], b, c);
                const unsigned d = op<0>(b, 0xbf800000u, v[(k + 1) % kChains]);
                v[k] = op<0>(d, d, m);
            } else {
                v[k] = op<OP>(v[k], b, c);
            }
        }
    }
    __syncthreads();
    const long long t1 = clock64();
    unsigned r = 0;
#pragma unroll
    for (int k = 0; k < kChains; ++k) r ^= v[k];
    out[blockIdx.x * kBlock + threadIdx.x] = r;
    if (threadIdx.x == 0) cycles[blockIdx.x] = t1 - t0;
}

template <int OP>
void measure(const char* name, int sms, int opsPerItem) {
    const int blocks = sms * kBlocksPerSm;
    unsigned* out;
    long long* cyc;
    cudaMalloc(&out, sizeof(unsigned) * blocks * kBlock);
    cudaMalloc(&cyc, sizeof(long long) * blocks);
    rateKernel<OP><<<blocks, kBlock>>>(out, cyc, 1);
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    cudaEventRecord(e0);
    rateKernel<OP><<<blocks, kBlock>>>(out, cyc, 2);
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float ms = 0;
    cudaEventElapsedTime(&ms, e0, e1);
    long long* h = new long long[blocks];
    cudaMemcpy(h, cyc, sizeof(long long) * blocks, cudaMemcpyDeviceToHost);
    long long mx = 0;
    for (int i = 0; i < blocks; ++i) mx = h[i] > mx ? h[i] : mx;
    const double items = double(kIter) * kChains * kBlock * kBlocksPerSm;  // per SM
    std::printf("%-34s %8.1f lane-instr/clk/SM   %6.2f warp-instr/clk/SMSP   %.3f ms   %.2e items/s (whole GPU)\n", name,
                items * opsPerItem / mx, items * opsPerItem / mx / 128.0, ms, items * sms / (ms * 1e-3));
    delete[] h;
    cudaFree(out);
    cudaFree(cyc);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) std::printf("  error: %s\n", cudaGetErrorString(e));
}

int main() {
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    std::printf("%d SMs; items = one instruction per lane (or one sdtw cell for the last row)\n", sms);
    measure<0>("FFMA (fma.rn.f32)", sms, 1);
    measure<1>("FADD", sms, 1);
    measure<2>("FMNMX (min.f32)", sms, 1);
    measure<7>("two FMNMX (min.f32 x2)", sms, 2);
    measure<3>("IMNMX (min.s32)", sms, 1);
    measure<4>("VIMNMX3 (min.s32 x2 fused)", sms, 1);
    measure<5>("VIMNMX3 s16x2 (min.s16x2 x2)", sms, 1);
    measure<6>("HFMA2 (fma.rn.f16x2)", sms, 1);
    measure<8>("sdtw cell: FFMA + VIMNMX3 + FFMA", sms, 3);
    return 0;
}
