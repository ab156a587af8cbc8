/* SPDX-License-Identifier: MIT */
/* Shared by tests/tools/watch_sender_gone.c and tests/tools/watch_sender_reused.c:
 * sigfd-watch must never name the wrong process as a signal's sender.
 *
 * sigfd-watch -o FIFO CONT URG WINCH -- cat runs with its log on a FIFO this
 * test has filled, so it blocks writing its first line. While it is stopped
 * (SIGSTOP), this test sends SIGURG, and a child of it sends SIGWINCH and
 * exits and is reaped. SIGCONT then lets sigfd-watch read the three records
 * at once (with the moment it read them) and block on the full FIFO in the
 * first line. Meanwhile the pid of the gone sender may be taken by a new
 * process (reused). Once the FIFO is drained: SIGCONT and SIGURG name this
 * test; SIGWINCH says pid=SENDER sender=gone, never a name. */
#ifndef SIGFD_TEST_WATCH_SENDER_H
#define SIGFD_TEST_WATCH_SENDER_H

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>

#include "check.h"

/* Is pid blocked writing (write(2), or writev(2) as musl's stdio does)?
 * /proc/PID/syscall starts with the number. */
static inline int in_write(pid_t pid)
{
	char path[64], buf[64] = "";
	int fd, n;

	snprintf(path, sizeof path, "/proc/%d/syscall", (int)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	n = (int)read(fd, buf, sizeof buf - 1);
	close(fd);
	return n > 0 && (atoi(buf) == SYS_write || atoi(buf) == SYS_writev) &&
	       task_state(pid) == 'S';
}

/* Boot-time clock ticks, as /proc/PID/stat's starttime counts them. */
static inline unsigned long long boot_tick(void)
{
	struct timespec t;
	long hz = sysconf(_SC_CLK_TCK);

	CHECK(clock_gettime(CLOCK_BOOTTIME, &t) == 0);
	return (unsigned long long)t.tv_sec * (unsigned long long)hz +
	       (unsigned long long)t.tv_nsec / (1000000000ULL / (unsigned long long)hz);
}

/* A new process with pid want (ns_last_pid: our own pid namespace), which
 * waits for its pipe to close. Its pid, and the pipe's write end. */
static inline pid_t take_pid(pid_t want, int *hold)
{
	int p[2];
	char num[32];

	CHECK(pipe2(p, O_CLOEXEC) == 0);
	int fd = open("/proc/sys/kernel/ns_last_pid", O_WRONLY | O_CLOEXEC);
	CHECK(fd >= 0);
	int n = snprintf(num, sizeof num, "%d", (int)want - 1);
	CHECK(write(fd, num, (size_t)n) == n && close(fd) == 0);
	pid_t pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		char c;
		/* Only its pipe: a copy of COMMAND's stdin would keep it going. */
		for (int other = 3; other < 1024; other++)
			if (other != p[0])
				close(other);
		_exit(read(p[0], &c, 1) == 0 ? 0 : 1);
	}
	CHECK(close(p[0]) == 0);
	*hold = p[1];
	return pid;
}

static inline void sender_scenario(int reuse)
{
	char dir[] = "/tmp/watch_sender.XXXXXX", fifo[64], watch[4096], line[1024], comm[64];
	int cmd_in[2], err[2], reused_hold = -1;
	const char *build = getenv("BUILD");

	CHECK(build && mkdtemp(dir));
	snprintf(watch, sizeof watch, "%s/bin/sigfd-watch", build);
	snprintf(fifo, sizeof fifo, "%s/log", dir);
	CHECK(mkfifo(fifo, 0600) == 0);
	int log_r = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	int log_w = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	CHECK(log_r >= 0 && log_w >= 0);
	/* Full: sigfd-watch's first line will wait. */
	char filler[64];
	memset(filler, 'x', sizeof filler - 1);
	filler[sizeof filler - 1] = '\n';
	while (write(log_w, filler, sizeof filler) == (ssize_t)sizeof filler)
		;
	CHECK(errno == EAGAIN && close(log_w) == 0);

	CHECK(pipe2(cmd_in, O_CLOEXEC) == 0 && pipe2(err, O_CLOEXEC) == 0);
	pid_t w = fork();
	CHECK(w >= 0);
	if (w == 0) {
		CHECK(dup2(cmd_in[0], 0) == 0 && dup2(err[1], 2) == 2);
		execl(watch, watch, "-o", fifo, "CONT", "URG", "WINCH", "--", "cat", (char *)NULL);
		_exit(127);
	}
	CHECK(close(cmd_in[0]) == 0 && close(err[1]) == 0);
	FILE *ferr = fdopen(err[0], "r");
	CHECK(ferr != NULL);
	CHECK(fgets(line, sizeof line, ferr) && strstr(line, "watching pid"));
	CHECK(fgets(line, sizeof line, ferr) && strstr(line, "running pid"));

	CHECK(kill(w, SIGSTOP) == 0);
	WAIT_UNTIL(task_state(w) == 'T');
	CHECK(kill(w, SIGURG) == 0);
	pid_t sender = fork();
	CHECK(sender >= 0);
	if (sender == 0)
		_exit(kill(w, SIGWINCH) == 0 ? 0 : 1);
	reap_ok(sender); /* gone before sigfd-watch reads a thing */
	CHECK(kill(w, SIGCONT) == 0);
	WAIT_UNTIL(in_write(w)); /* all three read; the first line waits */
	if (reuse) {
		/* A tick later than the read, so the new process's start is
		 * after it even at /proc's resolution. */
		unsigned long long now = boot_tick();
		while (boot_tick() <= now)
			poll(NULL, 0, 1);
		CHECK(take_pid(sender, &reused_hold) == sender);
		char path[64];
		snprintf(path, sizeof path, "/proc/%d/comm", (int)sender);
		CHECK(access(path, F_OK) == 0); /* the pid is taken again */
	}

	/* Drain: the filler, then the three lines. */
	CHECK(fcntl(log_r, F_SETFL, 0) == 0);
	FILE *flog = fdopen(log_r, "r");
	CHECK(flog != NULL);
	FILE *f = fopen("/proc/self/comm", "r");
	CHECK(f && fgets(comm, sizeof comm, f) && fclose(f) == 0);
	comm[strcspn(comm, "\n")] = '\0';
	char want[128];
	const char *order[] = {"SIGCONT", "SIGURG", "SIGWINCH"};
	int seen = 0;
	while (seen < 3 && fgets(line, sizeof line, flog)) {
		if (line[0] == 'x')
			continue;
		CHECK(strstr(line, order[seen]) != NULL);
		if (seen < 2) {
			snprintf(want, sizeof want, " pid=%d comm=%s ", (int)getpid(), comm);
			CHECK(strstr(line, want) != NULL);
		} else {
			snprintf(want, sizeof want, " pid=%d sender=gone ", (int)sender);
			if (!strstr(line, want) || strstr(line, "comm=")) {
				fprintf(stderr, "want%sand no name: %s", want, line);
				exit(1);
			}
		}
		seen++;
	}
	CHECK(seen == 3);

	CHECK(close(cmd_in[1]) == 0); /* cat ends, and so does sigfd-watch */
	int st;
	CHECK(waitpid(w, &st, 0) == w);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		fprintf(stderr, "sigfd-watch: wait status 0x%x\n", st);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK(fgets(line, sizeof line, flog) == NULL);
	if (reuse) {
		pid_t r = sender;
		CHECK(close(reused_hold) == 0);
		reap_ok(r);
	}
	fclose(flog);
	fclose(ferr);
	CHECK(unlink(fifo) == 0 && rmdir(dir) == 0);
}

#endif
