/* SPDX-License-Identifier: MIT */
/* The creator dies while others wait on its descriptor: a blocked reader
 * gets end of file, a poller and an epoll set get POLLIN|POLLHUP, first when
 * it exits on its own, then when it is killed. Its sighand is freed while
 * we still hold the descriptor (the POLLFREE path). */
#include <pthread.h>
#include <sys/epoll.h>

#include "kmod_util.h"

static pid_t creator;

static void *kill_later(void *arg)
{
	(void)arg;
	WAIT_ASLEEP(creator);
	poll(NULL, 0, 50); /* let the main thread reach poll() */
	CHECK(kill(creator, SIGKILL) == 0);
	return NULL;
}

/* A child that creates a descriptor, hands it over and waits to die. */
static int spawn_creator(int link[2], int go[2])
{
	sigset_t mask = set_of(SIGUSR1);

	creator = fork();
	CHECK(creator >= 0);
	if (creator == 0) {
		char c;
		int fd = sigfd(&mask, SIGFD_SHARE);
		CHECK(fd >= 0);
		send_fd(link[1], fd);
		CHECK(close(go[1]) == 0);
		CHECK(read(go[0], &c, 1) >= 0);
		_exit(0);
	}
	return recv_fd(link[0]);
}

int main(void)
{
	sigset_t mask = set_of(SIGUSR1);
	struct sigfd_siginfo r;
	struct epoll_event ev = { .events = EPOLLIN };
	int link[2], go[2], fd, ep;
	pthread_t t;

	block_only(&mask);
	CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, link) == 0);

	/* Exit on its own while we are blocked in read(). */
	CHECK(pipe(go) == 0);
	fd = spawn_creator(link, go);
	assert_kernel_fd(fd);
	ep = epoll_create1(0);
	CHECK(ep >= 0 && epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) == 0);
	CHECK(epoll_wait(ep, &ev, 1, 0) == 0);
	CHECK(close(go[1]) == 0); /* the creator's read returns 0: it exits */
	CHECK(read(fd, &r, sizeof r) == 0);
	reap_ok(creator);
	CHECK(epoll_wait(ep, &ev, 1, 5000) == 1 && (ev.events & (EPOLLIN | EPOLLHUP)) == (EPOLLIN | EPOLLHUP));
	struct pollfd p = { .fd = fd, .events = POLLIN };
	CHECK(poll(&p, 1, 0) == 1 && p.revents == (POLLIN | POLLHUP));
	CHECK(read(fd, &r, sizeof r) == 0);
	CHECK(close(ep) == 0 && close(fd) == 0 && close(go[0]) == 0);

	/* Killed while we sit in poll(). */
	CHECK(pipe(go) == 0);
	fd = spawn_creator(link, go);
	CHECK(pthread_create(&t, NULL, kill_later, &creator) == 0);
	p.fd = fd;
	CHECK(poll(&p, 1, 10000) == 1 && p.revents == (POLLIN | POLLHUP));
	CHECK(pthread_join(t, NULL) == 0);
	int status;
	CHECK(waitpid(creator, &status, 0) == creator && WIFSIGNALED(status));
	CHECK(read(fd, &r, sizeof r) == 0);
	CHECK(close(fd) == 0);
	close_pair(go);
	close_pair(link);
	return 0;
}
