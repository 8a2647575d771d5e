/* Dense single-precision matrix multiply C = A * B (M x K times K x N), cache-blocked
 * i-k-j loop nest. Usage: kernel INPUT OUTPUT METRICS
 * INPUT holds "M N K SEED"; A and B are generated from SEED with a fixed LCG.
 * OUTPUT receives C as raw little-endian float32, row-major (M*N values).
 * METRICS receives {"time_ms": [t]} with the multiply's own time (generation and I/O are
 * excluded). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BLOCK 64

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static float next_value(uint64_t *state)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (float)((*state >> 40) & 0xFFFF) / 65536.0f - 0.5f;
}

static void matmul(int m, int n, int k, const float *restrict a, const float *restrict b,
                   float *restrict c)
{
    memset(c, 0, sizeof(float) * (size_t)m * n);
    for (int ii = 0; ii < m; ii += BLOCK)
        for (int kk = 0; kk < k; kk += BLOCK)
            for (int jj = 0; jj < n; jj += BLOCK) {
                int i_end = ii + BLOCK < m ? ii + BLOCK : m;
                int k_end = kk + BLOCK < k ? kk + BLOCK : k;
                int j_end = jj + BLOCK < n ? jj + BLOCK : n;
                for (int i = ii; i < i_end; ++i)
                    for (int p = kk; p < k_end; ++p) {
                        float aip = a[(size_t)i * k + p];
                        const float *brow = b + (size_t)p * n;
                        float *crow = c + (size_t)i * n;
                        for (int j = jj; j < j_end; ++j)
                            crow[j] += aip * brow[j];
                    }
            }
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s INPUT OUTPUT METRICS\n", argv[0]);
        return 2;
    }
    int m, n, k;
    unsigned long long seed;
    FILE *in = fopen(argv[1], "r");
    if (!in || fscanf(in, "%d %d %d %llu", &m, &n, &k, &seed) != 4 || m <= 0 || n <= 0 || k <= 0) {
        fprintf(stderr, "cannot read 'M N K SEED' from %s\n", argv[1]);
        return 2;
    }
    fclose(in);
    float *a = malloc(sizeof(float) * (size_t)m * k);
    float *b = malloc(sizeof(float) * (size_t)k * n);
    float *c = malloc(sizeof(float) * (size_t)m * n);
    if (!a || !b || !c) {
        fprintf(stderr, "out of memory\n");
        return 2;
    }
    uint64_t state = seed;
    for (size_t i = 0; i < (size_t)m * k; ++i) a[i] = next_value(&state);
    for (size_t i = 0; i < (size_t)k * n; ++i) b[i] = next_value(&state);

    double start = now_ms();
    matmul(m, n, k, a, b, c);
    double elapsed = now_ms() - start;

    FILE *out = fopen(argv[2], "wb");
    if (!out || fwrite(c, sizeof(float), (size_t)m * n, out) != (size_t)m * n || fclose(out) != 0) {
        fprintf(stderr, "cannot write %s\n", argv[2]);
        return 2;
    }
    FILE *metrics = fopen(argv[3], "w");
    if (!metrics) {
        fprintf(stderr, "cannot write %s\n", argv[3]);
        return 2;
    }
    fprintf(metrics, "{\"time_ms\": [%.6f]}\n", elapsed);
    fclose(metrics);
    free(a);
    free(b);
    free(c);
    return 0;
}
