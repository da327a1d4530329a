/* An arithoh-equivalent for the real stack's L2, written for nestvp (not byte-unixbench code).
 * Integer arithmetic on locals whose result is never used, kept from being optimised away by
 * `volatile`; the loop stops after WINDOW seconds of CLOCK_MONOTONIC (checked every CHECK
 * iterations) and prints the iteration count.
 * Usage: arithoh WINDOW_SECONDS [EXTRA_SECONDS [TAG]]
 * prints "ARITHOH TAG ITERATIONS ELAPSED_NS" after WINDOW_SECONDS, then goes on with the same
 * loop for EXTRA_SECONDS without counting (so the load stays on while L1 reads its counters). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHECK 4096UL

static long long now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s WINDOW_SECONDS [EXTRA_SECONDS [TAG]]\n", argv[0]);
        return 2;
    }
    double window = atof(argv[1]);
    double extra = argc > 2 ? atof(argv[2]) : 0.0;
    const char *tag = argc > 3 ? argv[3] : "-";
    long long start = now_ns(), end = start + (long long)(window * 1e9), t = start;
    long long stop = end + (long long)(extra * 1e9);
    unsigned long iterations = 0, reported = 0;
    long long elapsed = 0;
    volatile int x, y, z;

    while (t < stop) {
        for (unsigned long i = 0; i < CHECK; i++) {
            /* The arithoh body: add, subtract, multiply, divide on locals, result unused. */
            x = 0;
            y = 1;
            z = 2;
            x = x + y;
            y = x - y;
            z = x * z + y;
            x = z / (y + 1);
        }
        iterations += CHECK;
        t = now_ns();
        if (!reported && t >= end) {
            reported = 1;
            elapsed = t - start;
            printf("ARITHOH %s %lu %lld\n", tag, iterations, elapsed);
            fflush(stdout);
        }
    }
    return 0;
}
