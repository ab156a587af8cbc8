/* SPDX-License-Identifier: MIT */
/* Deadlines on CLOCK_MONOTONIC, as poll() timeouts (watch.h). */
#include <limits.h>
#include <time.h>

#include "watch.h"

int ms_until(const struct timespec *deadline)
{
	struct timespec now;
	long long ns;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ns = (long long)(deadline->tv_sec - now.tv_sec) * 1000000000LL +
	     (deadline->tv_nsec - now.tv_nsec);
	if (ns <= 0)
		return 0;
	ns = (ns + 999999) / 1000000; /* up: poll() must never return early */
	return ns > INT_MAX ? INT_MAX : (int)ns;
}

struct timespec deadline_after(const struct timespec *d)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	t.tv_sec += d->tv_sec;
	t.tv_nsec += d->tv_nsec;
	if (t.tv_nsec >= 1000000000L) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000L;
	}
	return t;
}
