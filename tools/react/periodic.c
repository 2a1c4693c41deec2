// SPDX-License-Identifier: GPL-2.0-only
/*
 * periodic: a fixed-work periodic load, one task, for comparing governors
 * on a duty cycle (the periodic tasks ARM's LISA generates with rt-app;
 * rt-app itself did not run to completion in the test guest).  Every
 * 16 ms period the task does DUTY_PCT % of a period's worth of work at the
 * rate LOOPS_PER_MS was measured at, then sleeps until the next period
 * begins (clock_nanosleep, TIMER_ABSTIME); a slow CPU takes longer and
 * misses periods rather than doing less.  Prints "periodic missed M of N":
 * the periods whose work ended after the period did (the next one then
 * starts at once).
 *
 * Usage: periodic DUTY_PCT PERIODS LOOPS_PER_MS
 *        periodic --calibrate    (prints "loops_per_ms N" at the current
 *                                 frequency: run it at the top)
 * Build: make -C tools/react (a static binary: the guest has no libc)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PERIOD_NS	16000000LL
#define CALIBRATE_LOOPS	10000000UL

/*
 * The work: a multiply-add chain the compiler cannot drop or vectorize;
 * its end goes to a global another unit could read, so it is kept.
 */
unsigned long periodic_sink;

static void work(unsigned long loops)
{
	unsigned long i, x = periodic_sink;

	for (i = 0; i < loops; i++)
		x = x * 1103515245UL + 12345UL;
	periodic_sink = x;
}

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv)
{
	unsigned long loops_per_ms, loops;
	long long start, end;
	struct timespec next;
	int duty, n, i, missed = 0;

	if (argc == 2 && !strcmp(argv[1], "--calibrate")) {
		start = now_ns();
		work(CALIBRATE_LOOPS);
		end = now_ns();
		if (end <= start)
			return 1;
		printf("loops_per_ms %llu\n",
		       CALIBRATE_LOOPS * 1000000ULL / (unsigned long long)(end - start));
		return 0;
	}
	if (argc != 4) {
		fprintf(stderr,
			"usage: periodic DUTY_PCT PERIODS LOOPS_PER_MS | periodic --calibrate\n");
		return 2;
	}
	duty = atoi(argv[1]);
	n = atoi(argv[2]);
	loops_per_ms = strtoul(argv[3], NULL, 10);
	if (duty < 1 || duty > 100 || n < 1 || !loops_per_ms) {
		fprintf(stderr, "periodic: DUTY_PCT 1..100, PERIODS and LOOPS_PER_MS above 0\n");
		return 2;
	}
	loops = loops_per_ms * (PERIOD_NS / 1000000) * duty / 100;

	end = now_ns();
	for (i = 0; i < n; i++) {
		work(loops);
		end += PERIOD_NS;
		start = now_ns();
		if (start > end) {
			missed++;
			end = start;
			continue;
		}
		next.tv_sec = end / 1000000000LL;
		next.tv_nsec = end % 1000000000LL;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
	printf("periodic missed %d of %d\n", missed, n);
	return 0;
}
