/* 2-D heat equation, Jacobi iteration on a ROWS x COLS double-precision grid with fixed
 * (Dirichlet) borders: u' = u + ALPHA * (north + south + east + west - 4u).
 * Usage: kernel INPUT METRICS
 * INPUT holds "ROWS COLS STEPS SEED"; the initial grid is generated from SEED (a few hot
 * spots on a cool plate, the top border held hot).
 * stdout receives the output as text: every 8th row and column of the final grid (always
 * including the last interior row and column), one number per line, then the grid's sum.
 * METRICS receives {"time_ms": [t]} with the iteration's own time. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ALPHA 0.2

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void step(int rows, int cols, const double *restrict in, double *restrict out)
{
    for (int i = 1; i < rows - 1; ++i) {
        const double *up = in + (size_t)(i - 1) * cols;
        const double *mid = in + (size_t)i * cols;
        const double *down = in + (size_t)(i + 1) * cols;
        double *dst = out + (size_t)i * cols;
        for (int j = 1; j < cols - 1; ++j)
            dst[j] = mid[j] + ALPHA * (up[j] + down[j] + mid[j - 1] + mid[j + 1] - 4.0 * mid[j]);
    }
}

static int sampled(int index, int size)
{
    return index % 8 == 0 || index == size - 2;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s INPUT METRICS\n", argv[0]);
        return 2;
    }
    int rows, cols, steps;
    unsigned long long seed;
    FILE *in = fopen(argv[1], "r");
    if (!in || fscanf(in, "%d %d %d %llu", &rows, &cols, &steps, &seed) != 4 || rows < 3 ||
        cols < 3 || steps < 0) {
        fprintf(stderr, "cannot read 'ROWS COLS STEPS SEED' (ROWS, COLS >= 3) from %s\n", argv[1]);
        return 2;
    }
    fclose(in);
    size_t cells = (size_t)rows * cols;
    double *a = calloc(cells, sizeof(double));
    double *b = calloc(cells, sizeof(double));
    if (!a || !b) {
        fprintf(stderr, "out of memory\n");
        return 2;
    }
    uint64_t state = seed;
    for (int j = 0; j < cols; ++j) a[j] = 100.0;
    for (int spot = 0; spot < 16; ++spot) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        int i = 1 + (int)((state >> 33) % (uint64_t)(rows - 2));
        int j = 1 + (int)((state >> 13) % (uint64_t)(cols - 2));
        a[(size_t)i * cols + j] = 50.0 + (double)(state >> 58);
    }
    memcpy(b, a, cells * sizeof(double));

    double start = now_ms();
    for (int s = 0; s < steps; ++s) {
        step(rows, cols, a, b);
        double *t = a;
        a = b;
        b = t;
    }
    double elapsed = now_ms() - start;

    double sum = 0.0;
    for (size_t c = 0; c < cells; ++c) sum += a[c];
    for (int i = 1; i < rows - 1; ++i)
        if (sampled(i, rows))
            for (int j = 1; j < cols - 1; ++j)
                if (sampled(j, cols)) printf("%.17g\n", a[(size_t)i * cols + j]);
    printf("%.17g\n", sum);

    FILE *metrics = fopen(argv[2], "w");
    if (!metrics) {
        fprintf(stderr, "cannot write %s\n", argv[2]);
        return 2;
    }
    fprintf(metrics, "{\"time_ms\": [%.6f]}\n", elapsed);
    fclose(metrics);
    free(a);
    free(b);
    return 0;
}
