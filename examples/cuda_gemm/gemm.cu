// A tiled single-precision matrix product C = A·B (N×N) for tuning on a GPU: the tile edge
// (TILE) and the outputs each thread computes (WORK, register blocking along rows) are macros,
// so they become user-declared knobs (-DTILE={value}, -DWORK={value}) beside nvcc's and
// ptxas's own knobs. The program fills A and B from a seed, times ITERS launches with CUDA
// events after WARMUP launches, writes {"time_ms": [...]} (one per launch) to the metrics
// path, and C as raw little-endian f32 to the output path.
//
// usage: gemm OUTPUT METRICS N SEED
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <cuda_runtime.h>

#ifndef TILE
#define TILE 16
#endif
#ifndef WORK
#define WORK 4
#endif

constexpr int kWarmup = 3;
constexpr int kIters = 20;

#define CHECK(call)                                                                   \
    do {                                                                              \
        cudaError_t err_ = (call);                                                    \
        if (err_ != cudaSuccess) {                                                    \
            std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
            std::exit(2);                                                             \
        }                                                                             \
    } while (0)

// Block (TILE, TILE) computes a (TILE*WORK) x TILE tile of C; thread (tx, ty) owns rows
// ty + r*TILE (r < WORK) of column tx.
__global__ void gemm(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int n) {
    __shared__ float as[TILE * WORK][TILE];
    __shared__ float bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int col = blockIdx.x * TILE + tx;
    int row0 = blockIdx.y * TILE * WORK + ty;
    float acc[WORK];
#pragma unroll
    for (int r = 0; r < WORK; ++r) acc[r] = 0.f;
    for (int k0 = 0; k0 < n; k0 += TILE) {
#pragma unroll
        for (int r = 0; r < WORK; ++r) {
            int row = row0 + r * TILE;
            as[ty + r * TILE][tx] = (row < n && k0 + tx < n) ? a[(size_t)row * n + k0 + tx] : 0.f;
        }
        bs[ty][tx] = (k0 + ty < n && col < n) ? b[(size_t)(k0 + ty) * n + col] : 0.f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k) {
            float bv = bs[k][tx];
#pragma unroll
            for (int r = 0; r < WORK; ++r) acc[r] += as[ty + r * TILE][k] * bv;
        }
        __syncthreads();
    }
#pragma unroll
    for (int r = 0; r < WORK; ++r) {
        int row = row0 + r * TILE;
        if (row < n && col < n) c[(size_t)row * n + col] = acc[r];
    }
}

static float next_value(uint64_t& state) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (float)((state >> 40) & 0xFFFFFF) / (float)0x1000000 - 0.5f;
}

int main(int argc, char** argv) {
    if (argc != 5) {
        std::fprintf(stderr, "usage: gemm OUTPUT METRICS N SEED\n");
        return 2;
    }
    int n = std::atoi(argv[3]);
    uint64_t state = std::strtoull(argv[4], nullptr, 10);
    size_t count = (size_t)n * n;
    std::vector<float> ha(count), hb(count), hc(count);
    for (auto& v : ha) v = next_value(state);
    for (auto& v : hb) v = next_value(state);
    float *da, *db, *dc;
    CHECK(cudaMalloc(&da, count * sizeof(float)));
    CHECK(cudaMalloc(&db, count * sizeof(float)));
    CHECK(cudaMalloc(&dc, count * sizeof(float)));
    CHECK(cudaMemcpy(da, ha.data(), count * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, hb.data(), count * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dc, 0xff, count * sizeof(float)));
    dim3 block(TILE, TILE);
    dim3 grid((n + TILE - 1) / TILE, (n + TILE * WORK - 1) / (TILE * WORK));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    for (int i = 0; i < kWarmup; ++i) gemm<<<grid, block>>>(da, db, dc, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::vector<float> times;
    for (int i = 0; i < kIters; ++i) {
        CHECK(cudaEventRecord(start));
        gemm<<<grid, block>>>(da, db, dc, n);
        CHECK(cudaEventRecord(stop));
        CHECK(cudaEventSynchronize(stop));
        CHECK(cudaGetLastError());
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, start, stop));
        times.push_back(ms);
    }
    CHECK(cudaMemcpy(hc.data(), dc, count * sizeof(float), cudaMemcpyDeviceToHost));
    FILE* out = std::fopen(argv[1], "wb");
    if (!out || std::fwrite(hc.data(), sizeof(float), count, out) != count) return 3;
    std::fclose(out);
    FILE* metrics = std::fopen(argv[2], "w");
    if (!metrics) return 3;
    std::fprintf(metrics, "{\"time_ms\": [");
    for (int i = 0; i < kIters; ++i) std::fprintf(metrics, "%s%.6f", i ? ", " : "", times[i]);
    std::fprintf(metrics, "]}\n");
    std::fclose(metrics);
    return 0;
}
