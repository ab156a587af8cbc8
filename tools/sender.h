/* SPDX-License-Identifier: MIT */
/* Who a record's sender was, read from /proc after the fact without naming
 * a process that took its pid since: a process counts only if it started no
 * later than the clock tick at which the record had been read. */
#ifndef SIGFD_TOOLS_SENDER_H
#define SIGFD_TOOLS_SENDER_H

#include <stddef.h>
#include <stdint.h>

/* Now, in the clock ticks of /proc/PID/stat's starttime (CLOCK_BOOTTIME). */
unsigned long long sender_tick_now(void);

enum sender_state { SENDER_NAMED, SENDER_GONE, SENDER_UNKNOWN };

/* Whether /proc is our pid namespace's: as pid 1 of one made without
 * mounting its own, it shows the parent namespace's processes, whose pids
 * mean others here. Read once. */
int sender_proc_is_ours(void);

/* Whether pid still holds the process that sent a record read at tick
 * read_tick: SENDER_NAMED with its command name in buf, SENDER_GONE when no
 * process has that pid or it started later, SENDER_UNKNOWN when /proc cannot
 * tell (not mounted, not readable, another namespace's). */
enum sender_state sender_name(uint32_t pid, unsigned long long read_tick, char *buf, size_t size);

#endif
