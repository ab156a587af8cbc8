/* Share mode in user space: not built yet. */
#include <errno.h>

#include "backend.h"

int sigfd_share_user_open(const sigset_t *mask, unsigned long flags)
{
	(void)mask;
	(void)flags;
	errno = ENOSYS;
	return -1;
}

int sigfd_share_user_setmask(int fd, const sigset_t *mask)
{
	(void)fd;
	(void)mask;
	return SIGFD_NOT_MINE;
}
