/* SPDX-License-Identifier: MIT */
/* io_uring and aio against the creator's exit: a flooded creator's
 * descriptor is read in another process by io_uring (four IORING_OP_READs
 * in flight, served by io-wq workers), by aio (IOCB_CMD_PREAD where the
 * descriptor supports it, the module's does not: EINVAL), waited on by aio
 * IOCB_CMD_POLL, and sized by FIONREAD in a loop; then the creator ends
 * (by _exit() or SIGKILL). Every other round the ring is closed with its
 * reads still in flight. The io_uring and aio reads must end with end of
 * file, and a plain read must then get it too. Usage: async_reads [seconds] */
#include <linux/aio_abi.h>
#include <linux/io_uring.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "stress.h"

#define IN_FLIGHT 4

static sigset_t mask;
static int shared_fd, early_close, creator_gone;
static long aio_unsupported, records;

static void got(long res, const struct sigfd_siginfo *r)
{
	if (res < 0) {
		CHECK(res == -EINTR || res == -EAGAIN || res == -ECANCELED);
		return;
	}
	stress_records_ok(r, res, &mask);
	__atomic_add_fetch(&records, res / (long)sizeof *r, __ATOMIC_RELAXED);
}

struct ring {
	int fd;
	unsigned *sq_tail, *sq_mask, *sq_array, *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
	void *sq, *cq;
	size_t sq_len, cq_len, sqes_len;
};

static void ring_open(struct ring *g)
{
	struct io_uring_params p;

	memset(&p, 0, sizeof p);
	g->fd = (int)syscall(__NR_io_uring_setup, 8, &p);
	CHECK(g->fd >= 0);
	g->sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned);
	g->cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	g->sqes_len = p.sq_entries * sizeof(struct io_uring_sqe);
	g->sq = mmap(NULL, g->sq_len, PROT_READ | PROT_WRITE, MAP_SHARED, g->fd, IORING_OFF_SQ_RING);
	g->cq = mmap(NULL, g->cq_len, PROT_READ | PROT_WRITE, MAP_SHARED, g->fd, IORING_OFF_CQ_RING);
	g->sqes = mmap(NULL, g->sqes_len, PROT_READ | PROT_WRITE, MAP_SHARED, g->fd, IORING_OFF_SQES);
	CHECK(g->sq != MAP_FAILED && g->cq != MAP_FAILED && g->sqes != MAP_FAILED);
	g->sq_tail = (unsigned *)((char *)g->sq + p.sq_off.tail);
	g->sq_mask = (unsigned *)((char *)g->sq + p.sq_off.ring_mask);
	g->sq_array = (unsigned *)((char *)g->sq + p.sq_off.array);
	g->cq_head = (unsigned *)((char *)g->cq + p.cq_off.head);
	g->cq_tail = (unsigned *)((char *)g->cq + p.cq_off.tail);
	g->cq_mask = (unsigned *)((char *)g->cq + p.cq_off.ring_mask);
	g->cqes = (struct io_uring_cqe *)((char *)g->cq + p.cq_off.cqes);
}

static void ring_close(struct ring *g)
{
	CHECK(munmap(g->sq, g->sq_len) == 0 && munmap(g->cq, g->cq_len) == 0);
	CHECK(munmap(g->sqes, g->sqes_len) == 0 && close(g->fd) == 0);
}

static void ring_read(struct ring *g, int fd, void *buf, unsigned len, unsigned slot)
{
	unsigned tail = *g->sq_tail, i = tail & *g->sq_mask;
	struct io_uring_sqe *sqe = &g->sqes[i];

	memset(sqe, 0, sizeof *sqe);
	sqe->opcode = IORING_OP_READ;
	sqe->fd = fd;
	sqe->addr = (uintptr_t)buf;
	sqe->len = len;
	sqe->user_data = slot;
	g->sq_array[i] = i;
	__atomic_store_n(g->sq_tail, tail + 1, __ATOMIC_RELEASE);
	CHECK(syscall(__NR_io_uring_enter, g->fd, 1, 0, 0, NULL, 0) == 1);
}

/* Four reads in flight, each made again when it completes, until end of
 * file (or, in an early-close round, until the creator is told to end:
 * then the ring goes with its reads in flight). */
static void *uring_reader(void *arg)
{
	static struct sigfd_siginfo buf[IN_FLIGHT][4];
	int in_flight = 0, eof = 0;
	struct ring g;

	(void)arg;
	ring_open(&g);
	for (unsigned s = 0; s < IN_FLIGHT; s++, in_flight++)
		ring_read(&g, shared_fd, buf[s], sizeof buf[s], s);
	while (in_flight > 0) {
		if (early_close && __atomic_load_n(&creator_gone, __ATOMIC_SEQ_CST))
			break;
		/* Completions that found the ring full wait in the kernel's
		 * overflow list until io_uring_enter() asks for events. */
		poll_events(g.fd, POLLIN, 100);
		CHECK(syscall(__NR_io_uring_enter, g.fd, 0, 0, IORING_ENTER_GETEVENTS, NULL, 0) == 0);
		unsigned head = *g.cq_head;
		while (head != __atomic_load_n(g.cq_tail, __ATOMIC_ACQUIRE)) {
			struct io_uring_cqe *c = &g.cqes[head & *g.cq_mask];

			got(c->res, buf[c->user_data]);
			in_flight--;
			eof |= c->res == 0;
			if (!eof) {
				ring_read(&g, shared_fd, buf[c->user_data], sizeof buf[0],
					  (unsigned)c->user_data);
				in_flight++;
			}
			head++;
		}
		__atomic_store_n(g.cq_head, head, __ATOMIC_RELEASE);
	}
	ring_close(&g);
	return NULL;
}

static long aio_one(aio_context_t ctx, struct iocb *cb)
{
	struct iocb *cbs[1] = { cb };
	struct io_event ev;
	struct timespec tick = { .tv_nsec = 100000000 };

	if (syscall(__NR_io_submit, ctx, 1, cbs) != 1)
		return -errno;
	while (syscall(__NR_io_getevents, ctx, 1, 1, &ev, &tick) != 1)
		if (__atomic_load_n(&creator_gone, __ATOMIC_SEQ_CST) && cb->aio_lio_opcode == IOCB_CMD_POLL)
			return -ECANCELED; /* io_destroy() takes it back */
	return (long)ev.res;
}

/* aio reads until end of file, where the descriptor has read_iter. */
static void *aio_reader(void *arg)
{
	struct sigfd_siginfo r[4];
	struct iocb cb = { .aio_lio_opcode = IOCB_CMD_PREAD, .aio_fildes = (unsigned)shared_fd,
			   .aio_buf = (uintptr_t)r, .aio_nbytes = sizeof r };
	aio_context_t ctx = 0;
	long res;

	(void)arg;
	CHECK(syscall(__NR_io_setup, 4, &ctx) == 0);
	while ((res = aio_one(ctx, &cb)) != 0) {
		if (res == -EINVAL) {
			__atomic_add_fetch(&aio_unsupported, 1, __ATOMIC_SEQ_CST);
			break;
		}
		got(res, r);
	}
	CHECK(syscall(__NR_io_destroy, ctx) == 0);
	return NULL;
}

/* aio polls until the creator is gone, the last one perhaps cancelled. */
static void *aio_poller(void *arg)
{
	struct iocb cb = { .aio_lio_opcode = IOCB_CMD_POLL, .aio_fildes = (unsigned)shared_fd,
			   .aio_buf = POLLIN };
	aio_context_t ctx = 0;
	long res;

	(void)arg;
	CHECK(syscall(__NR_io_setup, 4, &ctx) == 0);
	while (!__atomic_load_n(&creator_gone, __ATOMIC_SEQ_CST)) {
		res = aio_one(ctx, &cb);
		CHECK(res == -ECANCELED || (res & (POLLIN | POLLHUP)));
	}
	CHECK(syscall(__NR_io_destroy, ctx) == 0);
	return NULL;
}

static void *sizer(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&creator_gone, __ATOMIC_SEQ_CST)) {
		int n = queued_bytes(shared_fd);

		CHECK(n >= 0 && n % (int)sizeof(struct sigfd_siginfo) == 0);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	void *(*jobs[])(void *) = { uring_reader, aio_reader, aio_poller, sizer };
	long rounds = 0;
	int link[2];

	mask = stress_start(argc, argv, SIGRTMIN + 5, link);
	for (; stress_running(); rounds++) {
		struct stress_creator creator;
		pthread_t t[4];
		pid_t sender;

		shared_fd = stress_creator_start(&creator, link, &mask);
		sender = stress_flood(creator.pid, SIGRTMIN + 5);
		early_close = rounds / 2 % 2;
		creator_gone = 0;
		for (int i = 0; i < 4; i++)
			CHECK(pthread_create(&t[i], NULL, jobs[i], NULL) == 0);
		stress_burn(5 + rounds % 4 * 5);
		stress_creator_end(&creator, rounds % 2);
		__atomic_store_n(&creator_gone, 1, __ATOMIC_SEQ_CST);
		for (int i = 0; i < 4; i++)
			stress_join(t[i], "an async_reads job");
		records += stress_read_eof(shared_fd, &mask, "async_reads");
		stress_stop(sender);
		CHECK(close(shared_fd) == 0);
	}
	close_pair(link);
	printf("async_reads: aio read refused (EINVAL: no read_iter) in %ld rounds\n", aio_unsupported);
	stress_done("async_reads", rounds, records);
	return 0;
}
