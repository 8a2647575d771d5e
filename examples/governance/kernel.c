/* Calibrate a float signal with a cubic, then sum it in blocks, skipping dropouts (NaN or
 * infinite values: a sensor fault, an overflow upstream). The calibration is what a tuner
 * speeds up: GCC 12 vectorises it at -O3 (the -O2 cost model does not). -ffast-math also
 * assumes that no value is NaN or infinite, which folds the isfinite() test of the sums away:
 * on clean data every route prints the same sums, on data with NaN and Inf the fast-math
 * routes print NaN. The spec's promotion-only boundary case holds such data.
 * Usage: kernel INPUT METRICS
 * INPUT holds "N REPEATS SEED SPECIALS": N values from a seeded generator, SPECIALS of them
 * replaced by NaN, +Inf and -Inf in turn; the kernel runs REPEATS times.
 * stdout receives 64 block sums of y (text); METRICS receives {"time_ms": [...]}, one time
 * per repeat. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The timed stage: a cubic calibration of every value (no branch: GCC vectorises it at -O3). */
static void calibrate(const float *restrict x, float *restrict y, long n)
{
    for (long i = 0; i < n; ++i) y[i] = ((0.125f * x[i] - 0.5f) * x[i] + 1.5f) * x[i] + 0.25f;
}

/* The untimed stage: block sums that skip dropouts (values that are NaN or infinite). */
static double finite_sum(const float *y, long from, long to)
{
    double sum = 0;
    for (long i = from; i < to; ++i)
        if (isfinite(y[i])) sum += y[i];
    return sum;
}

static void fill(float *x, long n, unsigned long long seed, long specials)
{
    uint64_t state = seed;
    for (long i = 0; i < n; ++i) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        x[i] = (float)((double)(state >> 11) / 9007199254740992.0 * 2.0 - 1.0);
    }
    const float special[3] = {NAN, INFINITY, -INFINITY};
    for (long k = 0; k < specials && n > 0; ++k) x[(k * 7919) % n] = special[k % 3];
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s INPUT METRICS\n", argv[0]);
        return 2;
    }
    long n, repeats, specials;
    unsigned long long seed;
    FILE *in = fopen(argv[1], "r");
    if (!in || fscanf(in, "%ld %ld %llu %ld", &n, &repeats, &seed, &specials) != 4 || n < 64 || repeats < 1) {
        fprintf(stderr, "%s: expected 'N REPEATS SEED SPECIALS' with N >= 64, REPEATS >= 1\n", argv[1]);
        return 2;
    }
    fclose(in);
    float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    double *times = malloc(repeats * sizeof *times);
    if (!x || !y || !times) return 3;
    fill(x, n, seed, specials);
    for (long r = 0; r < repeats; ++r) {
        double start = now_ms();
        calibrate(x, y, n);
        times[r] = now_ms() - start;
    }
    long block = n / 64;
    for (long b = 0; b < 64; ++b) {
        printf("%.12g\n", finite_sum(y, b * block, (b + 1) * block));
    }
    FILE *metrics = fopen(argv[2], "w");
    if (!metrics) return 4;
    fprintf(metrics, "{\"time_ms\": [");
    for (long r = 0; r < repeats; ++r) fprintf(metrics, "%s%.6f", r ? ", " : "", times[r]);
    fprintf(metrics, "]}\n");
    fclose(metrics);
    free(x);
    free(y);
    free(times);
    return 0;
}
