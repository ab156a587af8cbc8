/* SPDX-License-Identifier: MIT */
/* A descriptor is never a window into a set-user-ID program. The creator,
 * at uid 65534, hands its descriptor to the parent (root) and execs a
 * set-user-ID-root copy of this program. The parent watches the creator's
 * effective uid in /proc, sends SIGUSR1 with the round's value as soon as
 * it shows 0 (the new credentials are installed: the exec is past its
 * point of no return), then reads the descriptor: end of file, never that
 * record. The new program finds SIGUSR1 pending with the value. The time
 * from the new credentials to the end of the exec is short, so each round
 * is one try at sending inside it; any record read fails the test. */
#include <grp.h>
#include <sys/stat.h>

#include "kmod_util.h"

#define ROUNDS 200
#define NOBODY 65534

static char image_path[] = "/tmp/sigfd-setuid-image";

/* The new program: set-user-ID root, its SIGUSR1 still blocked. */
static int new_image(const char *value)
{
	sigset_t usr1 = set_of(SIGUSR1);
	siginfo_t si;

	CHECK(geteuid() == 0 && getuid() == NOBODY);
	CHECK(sigwaitinfo(&usr1, &si) == SIGUSR1);
	CHECK(si.si_value.sival_int == atoi(value));
	return 0;
}

/* A set-user-ID-root copy of this program. */
static void make_image(void)
{
	char buf[65536];
	ssize_t n;
	int in = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	int out = open(image_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0700);

	CHECK(in >= 0 && out >= 0);
	while ((n = read(in, buf, sizeof buf)) > 0)
		CHECK(write(out, buf, (size_t)n) == n);
	CHECK(n == 0);
	CHECK(fchown(out, 0, 0) == 0 && fchmod(out, 04755) == 0);
	CHECK(close(in) == 0 && close(out) == 0);
}

/* The effective uid in a status file opened once (re-read from the start). */
static long effective_uid(int status)
{
	char buf[2048];
	ssize_t n = pread(status, buf, sizeof buf - 1, 0);
	char *uid;

	if (n <= 0)
		return -1; /* the process is gone */
	buf[n] = '\0';
	uid = strstr(buf, "\nUid:");
	if (!uid)
		return -1;
	strtol(uid + 5, &uid, 10); /* the real uid */
	return strtol(uid, NULL, 10);
}

/* One round: 1 if the descriptor gave the record sent to the new program. */
static int round_leaks(int value)
{
	sigset_t mask = set_of(SIGUSR1);
	int link[2], go[2], status;
	char path[64], c;
	pid_t creator;

	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, link) == 0);
	CHECK(pipe2(go, O_CLOEXEC) == 0);
	creator = fork();
	CHECK(creator >= 0);
	if (creator == 0) {
		char arg[16];

		CHECK(setgroups(0, NULL) == 0 && setgid(NOBODY) == 0 && setuid(NOBODY) == 0);
		int fd = sigfd(&mask, SIGFD_SHARE | SIGFD_CLOEXEC);
		CHECK(fd >= 0);
		send_fd(link[1], fd);
		CHECK(read(go[0], &c, 1) == 1);
		snprintf(arg, sizeof arg, "%d", value);
		execl(image_path, image_path, "image", arg, (char *)NULL);
		_exit(127);
	}
	int fd = recv_fd(link[0]);
	assert_kernel_fd(fd);
	snprintf(path, sizeof path, "/proc/%d/status", (int)creator);
	CHECK((status = open(path, O_RDONLY | O_CLOEXEC)) >= 0);
	CHECK(write(go[1], "g", 1) == 1);
	/* As soon as the new credentials show (-1: the creator is gone). */
	long euid;
	while ((euid = effective_uid(status)) == NOBODY)
		;
	CHECK(euid == 0);
	CHECK(sigqueue(creator, SIGUSR1, int_val(value)) == 0);

	struct pollfd p = { .fd = fd, .events = POLLIN };
	struct sigfd_siginfo r;
	ssize_t n;

	CHECK(poll(&p, 1, 10000) == 1); /* a record, or end of file */
	n = read(fd, &r, sizeof r);
	if (n == (ssize_t)sizeof r) {
		fprintf(stderr, "round %d: read the record sent to the set-user-ID program "
				"(signal %u, value %d)\n", value, r.ssi_signo, r.ssi_int);
		CHECK(kill(creator, SIGKILL) == 0); /* it waits for that SIGUSR1 */
		CHECK(waitpid(creator, NULL, 0) == creator);
	} else {
		CHECK(n == 0);
		reap_ok(creator);
	}
	CHECK(close(fd) == 0 && close(status) == 0);
	CHECK(close(go[0]) == 0 && close(go[1]) == 0);
	CHECK(close(link[0]) == 0 && close(link[1]) == 0);
	return n > 0;
}

int main(int argc, char **argv)
{
	sigset_t usr1 = set_of(SIGUSR1);
	int leaks = 0;

	if (argc == 3 && strcmp(argv[1], "image") == 0)
		return new_image(argv[2]);
	CHECK(getuid() == 0);
	block_only(&usr1);
	make_image();
	for (int i = 1; i <= ROUNDS; i++)
		leaks += round_leaks(i);
	CHECK(unlink(image_path) == 0);
	printf("setuid_exec_window: %d of %d rounds read the set-user-ID program's signal\n",
	       leaks, ROUNDS);
	CHECK(leaks == 0);
	return 0;
}
