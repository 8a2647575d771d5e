/* Memory-bound STREAM-style loops (copy, scale, add, triad) over three double arrays much
 * larger than the caches: the time is set by memory bandwidth, so compiler knobs are
 * expected to gain little and the default route will likely stay.
 * Usage: kernel INPUT METRICS
 * INPUT holds "N ITERATIONS SEED": array length, passes of the four loops, seed of the
 * initial values (uniform in [0, 1)).
 * stdout receives the output as text: the sums of the three arrays, then 64 samples of the
 * first array spread evenly over it (with repeats when N < 64), one number per line.
 * METRICS receives {"time_ms": [t]} with the loops' own time; first-touch page faults
 * happen during initialisation and are excluded. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define SCALAR 0.4

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void stream_pass(long n, double *restrict a, double *restrict b, double *restrict c)
{
    for (long i = 0; i < n; ++i) c[i] = a[i];
    for (long i = 0; i < n; ++i) b[i] = SCALAR * c[i];
    for (long i = 0; i < n; ++i) c[i] = a[i] + b[i];
    for (long i = 0; i < n; ++i) a[i] = b[i] + SCALAR * c[i];
}

static double sum(long n, const double *x)
{
    double s = 0.0;
    for (long i = 0; i < n; ++i) s += x[i];
    return s;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s INPUT METRICS\n", argv[0]);
        return 2;
    }
    long n, iterations;
    unsigned long long seed;
    FILE *in = fopen(argv[1], "r");
    if (!in || fscanf(in, "%ld %ld %llu", &n, &iterations, &seed) != 3 || n <= 0 ||
        iterations < 0) {
        fprintf(stderr, "cannot read 'N ITERATIONS SEED' from %s\n", argv[1]);
        return 2;
    }
    fclose(in);
    double *a = malloc(sizeof(double) * (size_t)n);
    double *b = malloc(sizeof(double) * (size_t)n);
    double *c = malloc(sizeof(double) * (size_t)n);
    if (!a || !b || !c) {
        fprintf(stderr, "out of memory\n");
        return 2;
    }
    uint64_t state = seed;
    for (long i = 0; i < n; ++i) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        a[i] = (double)(state >> 11) / 9007199254740992.0;
        b[i] = 0.0;
        c[i] = 0.0;
    }

    double start = now_ms();
    for (long it = 0; it < iterations; ++it) stream_pass(n, a, b, c);
    double elapsed = now_ms() - start;

    printf("%.17g\n%.17g\n%.17g\n", sum(n, a), sum(n, b), sum(n, c));
    for (long k = 0; k < 64; ++k) printf("%.17g\n", a[k * n / 64]);
    FILE *metrics = fopen(argv[2], "w");
    if (!metrics) {
        fprintf(stderr, "cannot write %s\n", argv[2]);
        return 2;
    }
    fprintf(metrics, "{\"time_ms\": [%.6f]}\n", elapsed);
    fclose(metrics);
    free(a);
    free(b);
    free(c);
    return 0;
}
