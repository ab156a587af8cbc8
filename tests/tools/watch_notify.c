/* SPDX-License-Identifier: MIT */
/* sigfd-watch -- COMMAND under systemd's Type=notify: NOTIFY_SOCKET reaches
 * COMMAND as set, and COMMAND's "READY=1" reaches the socket from COMMAND's
 * own pid, a child of sigfd-watch and not sigfd-watch (the service's main
 * process). So systemd's default NotifyAccess=main would drop it: the unit
 * needs NotifyAccess=all (sigfd-watch(1) ENVIRONMENT, examples/systemd/).
 * The socket is a fake: a datagram socket of our own with SO_PASSCRED, which
 * is how systemd learns the sender's pid. Also through an abstract socket
 * ("@NAME"), which systemd uses too. COMMAND is this program ("notify"). */
#include <stddef.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "check.h"

/* The address NOTIFY_SOCKET names: a path, or '@' for the abstract space. */
static socklen_t address(const char *name, struct sockaddr_un *sa)
{
	size_t len = strlen(name);

	memset(sa, 0, sizeof *sa);
	sa->sun_family = AF_UNIX;
	CHECK(len > 0 && len < sizeof sa->sun_path);
	memcpy(sa->sun_path, name, len);
	if (name[0] == '@')
		sa->sun_path[0] = '\0';
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len + (name[0] == '@' ? 0 : 1));
}

/* COMMAND: what sd_notify(0, "READY=1") sends, with our pids added. */
static int notify(const char *want)
{
	const char *name = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sa;
	char msg[128];
	int s, len;

	leak_check_off();
	if (!name || strcmp(name, want) != 0) {
		fprintf(stderr, "NOTIFY_SOCKET is '%s', want '%s'\n", name ? name : "(unset)", want);
		return 1;
	}
	socklen_t salen = address(name, &sa);
	CHECK((s = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0)) >= 0);
	len = snprintf(msg, sizeof msg, "READY=1\nX_PID=%ld\nX_PPID=%ld", (long)getpid(),
		       (long)getppid());
	CHECK(sendto(s, msg, (size_t)len, 0, (struct sockaddr *)&sa, salen) == len);
	close(s);
	return 0;
}

static void one(const char *self, const char *name)
{
	struct sockaddr_un sa;
	socklen_t salen = address(name, &sa);
	int s, one = 1, status;
	char watch[4096], msg[256];
	const char *build = getenv("BUILD");
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(struct ucred))];
	} ctl;
	struct iovec iov = {.iov_base = msg, .iov_len = sizeof msg - 1};
	struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf,
			    .msg_controllen = sizeof ctl.buf};
	struct ucred cred;
	long pid = 0, ppid = 0;

	CHECK(build != NULL);
	snprintf(watch, sizeof watch, "%s/bin/sigfd-watch", build);
	CHECK((s = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0)) >= 0);
	CHECK(setsockopt(s, SOL_SOCKET, SO_PASSCRED, &one, sizeof one) == 0);
	CHECK(bind(s, (struct sockaddr *)&sa, salen) == 0);
	pid_t w = fork();
	CHECK(w >= 0);
	if (w == 0) {
		setenv("NOTIFY_SOCKET", name, 1);
		execl(watch, watch, "-q", "--", self, "notify", name, (char *)NULL);
		_exit(127);
	}
	struct pollfd p = {.fd = s, .events = POLLIN};
	CHECK(poll(&p, 1, 10000) == 1); /* generous: a loaded machine */
	ssize_t n = recvmsg(s, &mh, 0);
	CHECK(n > 0);
	msg[n] = '\0';
	struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
	CHECK(c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_CREDENTIALS);
	memcpy(&cred, CMSG_DATA(c), sizeof cred);
	CHECK(strncmp(msg, "READY=1\n", 8) == 0);
	CHECK(sscanf(msg, "READY=1\nX_PID=%ld\nX_PPID=%ld", &pid, &ppid) == 2);
	CHECK(waitpid(w, &status, 0) == w);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* From COMMAND, sigfd-watch's child: not from the main process. */
	CHECK(cred.pid == (pid_t)pid);
	CHECK(ppid == (long)w);
	CHECK(cred.pid != w);
	close(s);
	printf("%s: READY=1 from pid %ld, sigfd-watch is %ld: NotifyAccess=all needed\n", name,
	       (long)cred.pid, (long)w);
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/watch_notify.XXXXXX", path[64], abstract[64];

	if (argc == 3 && strcmp(argv[1], "notify") == 0)
		return notify(argv[2]);
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof path, "%s/notify", dir);
	snprintf(abstract, sizeof abstract, "@sigfd-watch-notify-%ld", (long)getpid());
	one(argv[0], path);
	one(argv[0], abstract);
	unlink(path);
	rmdir(dir);
	return 0;
}
