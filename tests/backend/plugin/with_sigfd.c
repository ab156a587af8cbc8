/* SPDX-License-Identifier: MIT */
/* A plugin with its own copy of libsigfd.a inside, for
 * tests/backend/forwarder_dlclose_plugin.c: it makes a share fd when asked. */
#include <signal.h>

#include "sigfd.h"

int plugin_share_fd(void);

int plugin_share_fd(void)
{
	sigset_t mask;

	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	return sigfd(&mask, SIGFD_SHARE | SIGFD_CLOEXEC);
}
