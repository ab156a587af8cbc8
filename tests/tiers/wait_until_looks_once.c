/* SPDX-License-Identifier: MIT */
/* WAIT_UNTIL judges by the look that ended its wait: a condition that held
 * and then stopped holding (a task asleep in a poll() that the module wakes
 * every 10 ms to look again) passes, and is looked at only until it held.
 * A condition that never holds still fails, after its last look. */
#define WAIT_UNTIL_LOOKS 3

#include "check.h"

static int looks;

static int true_at_first_look_only(void)
{
	return looks++ == 0;
}

static int never(void)
{
	return 0;
}

int main(void)
{
	int status;
	pid_t child;

	WAIT_UNTIL(true_at_first_look_only());
	CHECK(looks == 1);

	child = fork();
	CHECK(child >= 0);
	if (child == 0) {
		WAIT_UNTIL(never());
		_exit(0);
	}
	CHECK(waitpid(child, &status, 0) == child);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 1);
	return 0;
}
