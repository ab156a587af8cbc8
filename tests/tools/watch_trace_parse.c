/* SPDX-License-Identifier: MIT */
/* sigfd-watch --trace's reading of trace_pipe (tools/trace_parse.c), on
 * lines recorded here from Linux 6.18's tracefs (signal_generate,
 * sched_process_fork, a lost-events line), and lines made from the event's
 * "print fmt" where a machine cannot make one on demand (mark_victim, an
 * OOM kill), or with names that hold spaces, dashes and brackets. Then the
 * tree kept from fork events, with a pid taken again by an outsider. */
#include "check.h"
#include "../tools/trace_parse.h"

static void parse_ok(const char *line, struct trace_event *ev, enum trace_kind kind)
{
	if (trace_parse(line, ev) != 0 || ev->kind != kind) {
		fprintf(stderr, "parse: want kind %d for: %s\n", (int)kind, line);
		exit(1);
	}
}

int main(void)
{
	struct trace_event ev;

	parse_ok("              sh-17678   [000] d..1. 14831.422654: signal_generate: sig=9 "
		 "errno=0 code=0 comm=sh pid=17682 grp=1 res=0",
		 &ev, TRACE_SIGNAL);
	CHECK(ev.by == 17678 && !strcmp(ev.by_comm, "sh") && ev.sig == 9 && ev.code == 0 &&
	      ev.pid == 17682 && !strcmp(ev.comm, "sh") && ev.group == 1 && ev.result == 0);
	parse_ok("      sigfd-send-17683   [001] d..1. 14831.430038: signal_generate: sig=34 "
		 "errno=0 code=-1 comm=sh pid=17678 grp=1 res=0",
		 &ev, TRACE_SIGNAL);
	CHECK(ev.by == 17683 && !strcmp(ev.by_comm, "sigfd-send") && ev.sig == 34 &&
	      ev.code == -1 && ev.pid == 17678);
	/* A task name with a space, a dash and brackets; a target name holding
	 * " pid="; a thread-directed, already pending one. */
	parse_ok(" a-b [x] -9-4242    [001] d..2.  100.000001: signal_generate: sig=10 errno=0 "
		 "code=-6 comm=odd pid=1 name pid=77 grp=0 res=2",
		 &ev, TRACE_SIGNAL);
	CHECK(ev.by == 4242 && !strcmp(ev.by_comm, "a-b [x] -9") && ev.pid == 77 &&
	      !strcmp(ev.comm, "odd pid=1 name") && ev.group == 0 && ev.result == 2);
	CHECK(!strcmp(trace_result(2), "already-pending") && !strcmp(trace_result(9), "unknown"));
	/* The kernel's own, in an interrupt: "<idle>" or a lost name. */
	parse_ok("           <...>-0       [000] d.h2.  5.5: signal_generate: sig=14 errno=0 "
		 "code=128 comm=timeout pid=17684 grp=1 res=0",
		 &ev, TRACE_SIGNAL);
	CHECK(ev.by == 0 && !strcmp(ev.by_comm, "<...>") && ev.code == 128);

	parse_ok("     sigfd-watch-17811   [001] ..... 14832.396621: sched_process_fork: "
		 "comm=sigfd-watch pid=17811 child_comm=sigfd-watch child_pid=17812",
		 &ev, TRACE_FORK);
	CHECK(ev.pid == 17811 && ev.child == 17812 && ev.by == 17811);
	parse_ok(" wrapper-startup-10048   [001] ..... 14832.346377: sched_process_fork: "
		 "comm=wrapper-startup pid=10048 child_comm=wrapper-startup child_pid=17804",
		 &ev, TRACE_FORK);
	CHECK(ev.pid == 10048 && ev.child == 17804 && !strcmp(ev.by_comm, "wrapper-startup"));

	parse_ok("          stress-2001    [000] .....   77.1: mark_victim: pid=2001 comm=stress "
		 "total-vm=1049000kB anon-rss=1000000kB file-rss:0kB shmem-rss:0kB uid=0 "
		 "pgtables=2100kB oom_score_adj=0",
		 &ev, TRACE_OOM);
	CHECK(ev.pid == 2001 && !strcmp(ev.comm, "stress"));
	parse_ok("CPU:1 [LOST 82680 EVENTS]", &ev, TRACE_LOST);
	CHECK(ev.lost == 82680);
	parse_ok("     sigfd-watch-5177    [000] ..... 99.9: tracing_mark_write: sigfd-watch-sync 3",
		 &ev, TRACE_MARK);
	CHECK(ev.by == 5177 && !strcmp(ev.comm, "sigfd-watch-sync 3"));
	parse_ok("            bash-1     [000] ..... 1.0: sched_switch: prev_comm=bash", &ev,
		 TRACE_NONE);
	CHECK(trace_parse("            bash-1     [000] ..... 1.0: signal_generate: sig=", &ev) < 0);
	CHECK(trace_parse("no task here: signal_generate: sig=1 errno=0 code=0 comm=a pid=2 grp=1 res=0",
			  &ev) < 0);

	/* The tree: 100 is the root; 101 its child, 102 101's; 103 an
	 * outsider's. When an outsider's fork takes 101 again, 101 is out and
	 * 102 (already made) stays in. Threads are pids too. */
	struct trace_tree t;
	CHECK(tree_init(&t, 100, 4096) == 0);
	CHECK(tree_has(&t, 100) && !tree_has(&t, 101));
	tree_fork(&t, 100, 101);
	tree_fork(&t, 101, 102);
	tree_fork(&t, 50, 103);
	CHECK(tree_has(&t, 101) && tree_has(&t, 102) && !tree_has(&t, 103));
	tree_fork(&t, 50, 101);
	CHECK(!tree_has(&t, 101) && tree_has(&t, 102));
	tree_fork(&t, 102, 4096);
	tree_fork(&t, 102, 4097); /* above pid_max: ignored */
	CHECK(tree_has(&t, 4096) && !tree_has(&t, 4097) && !tree_has(&t, 0) && !tree_has(&t, -1));
	tree_free(&t);
	puts("watch_trace_parse: ok");
	return 0;
}
