/* What a first touch of a page costs on this machine: maps SIZE_MB of anonymous memory, writes
 * one byte per 4 KB page, unmaps it, three times (sleeping WAIT seconds between rounds), and
 * prints the time per page. Usage: cc -O2 page-touch.c -o page-touch && ./page-touch 4096 0
 * On the benchmark VM: 3-4 us per page in the first round, 1.2-1.6 us once the guest reuses
 * pages it freed (bare metal: about 0.1-0.3 us). Measured in session 6: benchmarks/README.md at 372afe2. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s SIZE_MB WAIT_SECONDS\n", argv[0]); return 2; }
    size_t n = (size_t)atol(argv[1]) << 20;
    int wait = atoi(argv[2]);
    for (int round = 0; round < 3; round++) {
        char *p = mmap(0, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) { perror("mmap"); return 1; }
        double t = now();
        for (size_t i = 0; i < n; i += 4096) p[i] = 1;
        double d = now() - t;
        printf("round %d: %.3f s, %.2f us per page\n", round, d, d * 1e6 / (n / 4096));
        munmap(p, n);
        sleep(wait);
    }
    return 0;
}
