/* Sliding-window sums over a double array with a huge dynamic range. The array is made of
 * blocks of BLOCK elements; window w sums blocks w .. w + SPAN - 1 (SPAN * BLOCK elements). The plain left-to-right loop
 * is latency bound (one add after another); -ffast-math lets GCC reassociate and vectorise
 * it, which is faster but rounds differently. The data makes that visible: pairs of huge
 * values (+-1e13 .. 1e16, both of a pair inside one block) that cancel exactly, mixed with
 * small values (1e-8 .. 1e2): each sum is dominated by the rounding of small terms added
 * while a huge one is pending (catastrophic cancellation), which any reordering changes.
 * Usage: kernel INPUT METRICS
 * INPUT holds "BLOCK SPAN WINDOWS SEED [SCALE]"; SCALE (default 1) multiplies every value
 * (SCALE = 1e-300 pushes the small values into the subnormal range).
 * stdout receives the WINDOWS sums divided by SCALE as text, one per line (so the printed
 * numbers stay far from the underflow range whatever SCALE is).
 * METRICS receives {"time_ms": [t]} with the summation's own time. */
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

static uint64_t next_bits(uint64_t *state)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return *state >> 11;
}

static double window_sum(const double *x, long length)
{
    double sum = 0.0;
    for (long i = 0; i < length; ++i) sum += x[i];
    return sum;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s INPUT METRICS\n", argv[0]);
        return 2;
    }
    long block, span, windows;
    unsigned long long seed;
    double scale = 1.0;
    FILE *in = fopen(argv[1], "r");
    if (!in || fscanf(in, "%ld %ld %ld %llu", &block, &span, &windows, &seed) != 4 ||
        block < 2 || span <= 0 || windows <= 0) {
        fprintf(stderr, "cannot read 'BLOCK SPAN WINDOWS SEED [SCALE]' (BLOCK >= 2) from %s\n",
                argv[1]);
        return 2;
    }
    if (fscanf(in, "%lf", &scale) != 1) scale = 1.0;
    fclose(in);
    long total = block * (span + windows - 1);
    long length = block * span;
    long gap = block / 2 < 97 ? block / 2 : 97;
    double *x = malloc(sizeof(double) * (size_t)total);
    double *sums = malloc(sizeof(double) * (size_t)windows);
    if (!x || !sums) {
        fprintf(stderr, "out of memory\n");
        return 2;
    }
    uint64_t state = seed;
    for (long i = 0; i < total; ++i) {
        double mantissa = 1.0 + (double)(next_bits(&state) % 1000000) / 1000000.0;
        double sign = (next_bits(&state) & 1) ? -1.0 : 1.0;
        int exponent = -8 + (int)(next_bits(&state) % 11);
        x[i] = sign * mantissa * pow(10.0, exponent) * scale;
    }
    for (long b = 0; b < total; b += block)
        for (long i = b; i + gap < b + block; i += 211) {
            double huge = (1.0 + (double)(next_bits(&state) % 1000) / 1000.0) *
                          pow(10.0, 13 + (int)(next_bits(&state) % 4)) * scale;
            x[i] = huge;
            x[i + gap] = -huge;
        }

    double start = now_ms();
    for (long w = 0; w < windows; ++w) sums[w] = window_sum(x + w * block, length);
    double elapsed = now_ms() - start;

    for (long w = 0; w < windows; ++w) printf("%.17g\n", sums[w] / scale);
    FILE *metrics = fopen(argv[2], "w");
    if (!metrics) {
        fprintf(stderr, "cannot write %s\n", argv[2]);
        return 2;
    }
    fprintf(metrics, "{\"time_ms\": [%.6f]}\n", elapsed);
    fclose(metrics);
    free(x);
    free(sums);
    return 0;
}
