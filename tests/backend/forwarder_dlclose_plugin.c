/* SPDX-License-Identifier: MIT */
/* A plugin that carries its own copy of libsigfd.a, loaded with dlopen()
 * and unloaded with dlclose(), leaves nothing of it behind: the main thread
 * then calls pthread_exit() and the process ends with status 0. The
 * library's thread-specific key (whose destructor lives in the plugin)
 * crashed that exit (issue 25: SIGSEGV, 50 of 50), even when the plugin
 * never made a share fd. Both: a plugin that made one and closed it, and
 * one that made none. */
#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>

#include "share_util.h"

static char plugin[PATH_MAX];

static void run_child(bool open_one)
{
	int status;
	pid_t child = fork();

	CHECK(child >= 0);
	if (child == 0) {
		void *h = dlopen(plugin, RTLD_NOW | RTLD_LOCAL);

		if (!h) {
			fprintf(stderr, "dlopen %s: %s\n", plugin, dlerror());
			_exit(2);
		}
		if (open_one) {
			int (*share_fd)(void) = (int (*)(void))dlsym(h, "plugin_share_fd");
			int fd;

			CHECK(share_fd != NULL);
			fd = share_fd();
			CHECK(fd >= 0);
			CHECK(close(fd) == 0);
		}
		CHECK(dlclose(h) == 0);
		leak_check_off();
		pthread_exit(NULL);
	}
	CHECK(waitpid(child, &status, 0) == child);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fprintf(stderr, "%s: status %#x (killed by %d)\n",
			open_one ? "with a share fd" : "without", status,
			WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

int main(void)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);

#ifndef __GLIBC__
	puts("SKIPPED: this C library's dlclose() unloads nothing (musl): nothing to check");
	return 77;
#endif
	if (UNDER_TSAN) {
		puts("SKIPPED: under ThreadSanitizer a process whose main thread calls pthread_exit() never ends, library or not (its own background thread lives on)");
		return 77;
	}
	CHECK(n > 0);
	exe[n] = 0;
	snprintf(plugin, sizeof plugin, "%s/plugin/with_sigfd.so", dirname(exe));
	for (int i = 0; i < 10; i++) {
		run_child(false);
		run_child(true);
	}
	puts("20 processes ended by pthread_exit() after dlclose(), each with status 0");
	return 0;
}
