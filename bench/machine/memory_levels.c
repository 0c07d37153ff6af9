/*
 * Times passes of random 8-byte reads over an anonymous buffer, one line per pass.
 *
 * A benchmark's ratio of two scans can only be trusted to the degree that the machine runs the
 * same work at the same speed from one moment to the next. This program has no JVM, no files
 * and no LevelDB in it: every pass does identical work (the same number of reads at addresses
 * from the same generator), so any difference between passes is the machine's. On a virtual
 * machine whose memory the host remaps or migrates, the passes fall into distinct levels that
 * change within one process.
 *
 * Usage: memory_levels [passes] [megabytes] [reads per pass]   (defaults: 24 40 2000000)
 * Output: "pass N ms T" per pass, then the fastest, median and slowest pass and slowest/fastest.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

static long positive(const char *arg, const char *what) {
    char *end;
    long v = strtol(arg, &end, 10);
    if (*arg == '\0' || *end != '\0' || v <= 0) {
        fprintf(stderr, "memory_levels: %s must be a positive number: %s\n", what, arg);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv) {
    long passes = argc > 1 ? positive(argv[1], "passes") : 24;
    long megabytes = argc > 2 ? positive(argv[2], "megabytes") : 40;
    long reads = argc > 3 ? positive(argv[3], "reads per pass") : 2000000;
    size_t bytes = (size_t) megabytes << 20;
    unsigned char *buffer = malloc(bytes);
    double *times = malloc(sizeof(double) * (size_t) passes);
    if (buffer == NULL || times == NULL) {
        fprintf(stderr, "memory_levels: cannot allocate %ld MiB\n", megabytes);
        return 1;
    }
    for (size_t i = 0; i < bytes; i++) {
        buffer[i] = (unsigned char) (i * 131);
    }
    volatile uint64_t sink = 0;
    for (long p = 0; p < passes; p++) {
        uint64_t state = 12345; /* the same addresses in every pass */
        uint64_t sum = 0;
        double start = now_ms();
        for (long i = 0; i < reads; i++) {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            uint64_t word;
            memcpy(&word, buffer + (state >> 17) % (bytes - 8), 8);
            sum += word;
        }
        times[p] = now_ms() - start;
        sink += sum;
        printf("pass %ld ms %.1f\n", p + 1, times[p]);
        fflush(stdout);
    }
    qsort(times, (size_t) passes, sizeof(double), by_value);
    printf("fastest %.1f median %.1f slowest %.1f slowest/fastest %.2f\n", times[0],
           times[passes / 2], times[passes - 1], times[passes - 1] / times[0]);
    free(times);
    free(buffer);
    return 0;
}
