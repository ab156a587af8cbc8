/* SPDX-License-Identifier: MIT */
/* sigfd-watch does not name the process that took a gone sender's pid
 * after the record was read: it started later, so it cannot have sent it
 * (tests/watch_sender.h). The pid is taken again on purpose, through
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

int main(void)
{
	uid_t uid = geteuid();
	gid_t gid = getegid();
	int flags = CLONE_NEWPID | CLONE_NEWNS | (uid ? CLONE_NEWUSER : 0);

	if (unshare(flags) < 0) {
		printf("cannot make a pid namespace: %s\n", strerror(errno));
		return 77;
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
		leak_check_off(); /* checked by the parent */
		CHECK(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0);
		CHECK(mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) == 0);
		sender_scenario(1);
		_exit(0);
	}
	reap_ok(init);
	return 0;
}
