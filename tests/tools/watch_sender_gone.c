/* SPDX-License-Identifier: MIT */
/* sigfd-watch names no process for a sender that exited (and was reaped)
 * before its record was read: "pid=N sender=gone", where it used to print
 * the pid alone, or a stranger's name (tests/tools/watch_sender.h). */
#include "watch_sender.h"

int main(void)
{
	sender_scenario(0);
	return 0;
}
