/* SPDX-License-Identifier: MIT */
/* Signals the program keeps for itself. A process-directed signal that a
 * live thread leaves unblocked is the kernel's to deliver to such a thread
 * (its handler, its default action: an end, a core dump, a stop), whatever
 * the action and whatever the state of the process (stopped, traced, a
 * thread in vfork()); the forwarding thread's signalfd takes it first as
 * often as not. So the forwarding thread asks, after each read and for the
 * signals it read, which of them some live thread leaves unblocked at that
 * moment, and gives those back to the kernel. Nothing is modelled and
 * nothing is kept from one look to the next: each thread's mask is SigBlk
 * in its status file, read anew (tasks.c); only the files stay open. */
#include "share_usual.h"
#include "tasks.h"

struct unblocked_walk {
	sigbits check, unblocked;
};

/* Adds what t leaves unblocked; done once all of check is. The forwarding
 * threads of other copies of the library block every signal they can. */
static bool add_unblocked(const struct task *t, void *arg)
{
	struct unblocked_walk *walk = arg;

	if (!t) /* a new listing: what the last one saw stays true */
		return false;
	if (t->live && !t->forwarder)
		walk->unblocked |= t->unblocked;
	return !(walk->check & ~walk->unblocked);
}

/* The forwarding thread's: the files are in its own table. */
static struct task_watch watch = { .dir = -1 };

/* The first look only: /proc/self/task opens and lists. */
static bool stop_at_once(const struct task *t, void *unused)
{
	(void)t;
	(void)unused;
	return true;
}

int share_usual_start(int base)
{
	tasks_watch_forget(&watch, base);
	return tasks_watch_each(&watch, stop_at_once, NULL) < 0 ? -1 : 0;
}

sigbits share_meant_for_program(sigbits bits)
{
	struct unblocked_walk walk = { bits, 0 };

	if (!bits)
		return 0;
	(void)tasks_watch_each(&watch, add_unblocked, &walk);
	return bits & walk.unblocked;
}
