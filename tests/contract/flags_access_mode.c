/* SPDX-License-Identifier: MIT */
/* fcntl(F_GETFL) on a sigfd gives O_RDWR, as on a signalfd, in every mode
 * (the user-space backend's share fd is a socket, O_RDWR too). */
#include "check.h"

int main(void)
{
	sigset_t usr1 = set_of(SIGUSR1);
	block_only(&usr1);
	int fd = sigfd(&usr1, test_mode() | SIGFD_CLOEXEC);
	CHECK(fd >= 0);
	int fl = fcntl(fd, F_GETFL);
	CHECK(fl >= 0);
	CHECK(close(fd) == 0);
	if ((fl & O_ACCMODE) != O_RDWR) {
		printf("F_GETFL access mode %d, not O_RDWR\n", fl & O_ACCMODE);
		return 1;
	}
	return 0;
}
