/* SPDX-License-Identifier: MIT */
/* Order statistics: percentiles of latency samples, medians of per-round
 * figures and ratios. */
#include <math.h>
#include <stdlib.h>

#include "bench.h"

int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Linear interpolation between closest ranks; v sorted ascending. */
double pct_sorted(const int64_t *v, size_t n, double p)
{
	if (n == 0)
		return NAN;
	double pos = p / 100.0 * (double)(n - 1);
	size_t i = (size_t)pos;
	if (i + 1 >= n)
		return (double)v[n - 1];
	double f = pos - (double)i;
	return (double)v[i] * (1.0 - f) + (double)v[i + 1] * f;
}

double median_of(double *v, int n)
{
	if (n <= 0)
		return NAN;
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}
