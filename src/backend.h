/* The interface every sigfd backend implements. The public entry points in
 * sigfd.c validate arguments and then call exactly one backend. */
#ifndef SIGFD_BACKEND_H
#define SIGFD_BACKEND_H

#include <signal.h>

/* Local mode: the fd reports the reader's own signals. mask has SIGKILL
 * and SIGSTOP removed; flags are validated SIGFD_NONBLOCK|SIGFD_CLOEXEC. */
int sigfd_local_open(const sigset_t *mask, unsigned long flags);
/* 0 on success; -1 with errno EINVAL when fd is not a local sigfd. */
int sigfd_local_setmask(int fd, const sigset_t *mask);

#endif
