/* SPDX-License-Identifier: MIT */
/* sigfd-watch does not name the process that took a gone sender's pid
 * after the record was read: it started later, so it cannot have sent it
 * (tests/tools/watch_sender.h). The pid is taken again on purpose, through
 * /proc/sys/kernel/ns_last_pid in a pid namespace of this test's own (and
 * a user namespace when not root); where namespaces cannot be made, the
 * test is SKIPPED. */
#include <sched.h>
#include <sys/mount.h>

#include "watch_sender.h"

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

/* In a child, so that this process's own children (LeakSanitizer's tracer
 * among them) are not made in the namespace once its init has gone: the
 * namespaces, their init, the scenario. 77 where they cannot be made. */
static _Noreturn void in_namespaces(void)
{
	uid_t uid = geteuid();
	gid_t gid = getegid();
	int flags = CLONE_NEWPID | CLONE_NEWNS | (uid ? CLONE_NEWUSER : 0);

	leak_check_off(); /* checked by the parent */
	if (unshare(flags) < 0) {
		printf("cannot make a pid namespace: %s\n", strerror(errno));
		_exit(77);
	}
	if (uid) {
		char map[64];
		snprintf(map, sizeof map, "0 %d 1", (int)uid);
		CHECK(write_file("/proc/self/setgroups", "deny") == 0);
		CHECK(write_file("/proc/self/uid_map", map) == 0);
		snprintf(map, sizeof map, "0 %d 1", (int)gid);
		CHECK(write_file("/proc/self/gid_map", map) == 0);
	}
	pid_t init = fork(); /* pid 1 of the new namespace */
	CHECK(init >= 0);
	if (init == 0) {
		CHECK(mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) == 0);
		CHECK(mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) == 0);
		sender_scenario(1);
		_exit(0);
	}
	int st;
	CHECK(waitpid(init, &st, 0) == init);
	_exit(WIFEXITED(st) ? WEXITSTATUS(st) : 1);
}

int main(void)
{
	int st;

	fflush(stdout);
	pid_t child = fork();
	CHECK(child >= 0);
	if (child == 0)
		in_namespaces();
	CHECK(waitpid(child, &st, 0) == child);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 77)
		return 77;
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	return 0;
}
