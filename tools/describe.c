/* SPDX-License-Identifier: MIT */
/* Turning one sigfd record into text or JSON. The record's fields are the
 * kernel's; the words, names and escaping are ours (docs/sigfd-watch.1). */
#include <inttypes.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "describe.h"
#include "sender.h"
#include "signame.h"

/* Codes any signal can carry: who sent it rather than why. */
static const char *generic_origin(int code)
{
	switch (code) {
	case SI_USER: return "kill";
	case SI_QUEUE: return "sigqueue";
	case SI_TIMER: return "timer";
	case SI_MESGQ: return "mesgq";
	case SI_ASYNCIO: return "asyncio";
#ifdef SI_SIGIO
	case SI_SIGIO: return "sigio";
#endif
#ifdef SI_TKILL
	case SI_TKILL: return "tkill";
#endif
#ifdef SI_DETHREAD
	case SI_DETHREAD: return "dethread";
#endif
#ifdef SI_ASYNCNL
	case SI_ASYNCNL: return "asyncnl";
#endif
#ifdef SI_KERNEL
	case SI_KERNEL: return "kernel";
#endif
	}
	return NULL;
}

/* SIGCHLD's own codes; NULL when the record is no child report (a SIGCHLD
 * sent with kill(1) is a "kill"). */
static const char *child_origin(const struct sigfd_siginfo *r)
{
	if (r->ssi_signo != SIGCHLD)
		return NULL;
	switch (r->ssi_code) {
	case CLD_EXITED: return "child-exited";
	case CLD_KILLED: return "child-killed";
	case CLD_DUMPED: return "child-dumped";
	case CLD_TRAPPED: return "child-trapped";
	case CLD_STOPPED: return "child-stopped";
	case CLD_CONTINUED: return "child-continued";
	}
	return NULL;
}

/* fcntl(F_SETSIG) sends these with SIGIO or any signal it was given. */
static const char *poll_origin(int code)
{
	switch (code) {
#ifdef POLL_IN
	case POLL_IN: return "poll-in";
	case POLL_OUT: return "poll-out";
	case POLL_MSG: return "poll-msg";
	case POLL_ERR: return "poll-err";
	case POLL_PRI: return "poll-pri";
	case POLL_HUP: return "poll-hup";
#endif
	}
	return NULL;
}

const char *describe_origin(const struct sigfd_siginfo *r)
{
	const char *o = generic_origin(r->ssi_code);

	if (o)
		return o;
	if ((o = child_origin(r)))
		return o;
	if (r->ssi_code > 0) {
		/* Faults and traps: a synchronous one kills instead of queueing,
		 * so these come from rt_sigqueueinfo() or a debugger. */
		switch (r->ssi_signo) {
		case SIGSEGV: case SIGBUS: case SIGILL: case SIGFPE: return "fault";
		case SIGTRAP: return "trap";
		case SIGSYS: return "seccomp";
		case SIGCHLD: return "unknown";
		}
		if ((o = poll_origin(r->ssi_code)))
			return o;
	}
	return "unknown";
}

/* Codes whose record carries the sender's union sigval. */
static int carries_value(int code)
{
	return code == SI_QUEUE || code == SI_TIMER || code == SI_MESGQ || code == SI_ASYNCIO
#ifdef SI_ASYNCNL
	       || code == SI_ASYNCNL
#endif
		;
}

/* Length of the valid UTF-8 sequence starting at s (at least 2 bytes), or 0:
 * names are passed through when they are valid UTF-8, escaped otherwise. */
static size_t utf8_seq(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		if (s[0] == 0xe0)
			lo = 0xa0; /* overlong */
		if (s[0] == 0xed)
			hi = 0x9f; /* surrogates */
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		if (s[0] == 0xf0)
			lo = 0x90;
		if (s[0] == 0xf4)
			hi = 0x8f; /* above U+10FFFF */
	} else
		return 0;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

/* Text fields are KEY=VALUE words: space, backslash, control bytes and
 * invalid UTF-8 become \xHH so a value never splits or hides. */
static void text_string(FILE *out, const char *str)
{
	for (const unsigned char *s = (const unsigned char *)str; *s;) {
		size_t n = *s >= 0x80 ? utf8_seq(s) : 0;
		if (n) {
			fwrite(s, 1, n, out);
			s += n;
		} else if (*s > 0x20 && *s < 0x7f && *s != '\\')
			putc(*s++, out);
		else
			fprintf(out, "\\x%02x", *s++);
	}
}

static void json_string(FILE *out, const char *str)
{
	putc('"', out);
	for (const unsigned char *s = (const unsigned char *)str; *s;) {
		size_t n = *s >= 0x80 ? utf8_seq(s) : 0;
		if (n) {
			fwrite(s, 1, n, out);
			s += n;
			continue;
		}
		switch (*s) {
		case '"': fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\t': fputs("\\t", out); break;
		case '\r': fputs("\\r", out); break;
		default:
			if (*s >= 0x80)
				fputs("\\ufffd", out); /* JSON text must be UTF-8 */
			else if (*s < 0x20 || *s == 0x7f)
				fprintf(out, "\\u%04x", *s);
			else
				putc(*s, out);
		}
		s++;
	}
	putc('"', out);
}

void describe_string(FILE *out, const char *str, int json)
{
	(json ? json_string : text_string)(out, str);
}

/* The user name of uid, or NULL. The last answer is kept: most records come
 * from one user, and each getpwuid() may read /etc/passwd. */
static const char *user_of(uint32_t uid)
{
	static char name[256];
	static uint32_t cached_uid;
	static int cached; /* 0 none, 1 name, -1 no such user */
	struct passwd *pw;

	if (cached && cached_uid == uid)
		return cached > 0 ? name : NULL;
	pw = getpwuid((uid_t)uid);
	cached_uid = uid;
	cached = pw && strlen(pw->pw_name) < sizeof name ? 1 : -1;
	if (cached > 0)
		strcpy(name, pw->pw_name);
	return cached > 0 ? name : NULL;
}

/* comm=NAME, or sender=gone (sender.h); in JSON, "comm" or "sender". */
static void sender_field(FILE *out, const struct sigfd_siginfo *r, const struct describe_extra *x,
			 int json)
{
	char comm[64];

	if (!r->ssi_pid)
		return;
	switch (sender_name(r->ssi_pid, x->read_tick, comm, sizeof comm)) {
	case SENDER_NAMED:
		fputs(json ? ",\"comm\":" : " comm=", out);
		(json ? json_string : text_string)(out, comm);
		break;
	case SENDER_GONE:
		fputs(json ? ",\"sender\":\"gone\"" : " sender=gone", out);
		break;
	case SENDER_UNKNOWN:
		break;
	}
}

/* A sender is worth naming when there is one: kernel-made records carry
 * pid 0 and uid 0, and "uid=0 user=root" there would mislead. */
static int has_sender(const struct sigfd_siginfo *r)
{
	return r->ssi_pid || r->ssi_uid;
}

void describe_text(FILE *out, const struct sigfd_siginfo *r, const struct describe_extra *x)
{
	char name[SIGNAME_MAX], tbuf[16];
	const char *origin = describe_origin(r), *s;
	const struct timespec *when = &x->when;
	struct tm tm;
	time_t t = when->tv_sec;

	if (!localtime_r(&t, &tm) || !strftime(tbuf, sizeof tbuf, "%H:%M:%S", &tm))
		strcpy(tbuf, "??:??:??");
	fprintf(out, "%s.%06ld %s %s", tbuf, (long)(when->tv_nsec / 1000),
		signame_of((int)r->ssi_signo, name), origin);
	if (r->ssi_pid) {
		fprintf(out, " pid=%" PRIu32, r->ssi_pid);
		sender_field(out, r, x, 0);
	}
	if (has_sender(r)) {
		fprintf(out, " uid=%" PRIu32, r->ssi_uid);
		if ((s = user_of(r->ssi_uid))) {
			fputs(" user=", out);
			text_string(out, s);
		}
	}
	if (child_origin(r)) {
		if (r->ssi_code == CLD_EXITED)
			fprintf(out, " status=%" PRId32, r->ssi_status);
		else
			fprintf(out, " status=%s", signame_of(r->ssi_status, name));
	} else if (r->ssi_status)
		fprintf(out, " status=%" PRId32, r->ssi_status);
	if (carries_value(r->ssi_code) || r->ssi_int || r->ssi_ptr) {
		fprintf(out, " value=%" PRId32, r->ssi_int);
		/* The pointer only when it says more than the int did. */
		if (r->ssi_ptr != (uint64_t)(uint32_t)r->ssi_int)
			fprintf(out, " ptr=0x%" PRIx64, r->ssi_ptr);
	}
	if (r->ssi_code == SI_TIMER || r->ssi_tid)
		fprintf(out, " timer=%" PRIu32, r->ssi_tid);
	if (r->ssi_code == SI_TIMER || r->ssi_overrun)
		fprintf(out, " overrun=%" PRIu32, r->ssi_overrun);
	if (poll_origin(r->ssi_code) && !strncmp(origin, "poll-", 5))
		fprintf(out, " fd=%" PRId32 " band=0x%" PRIx32, r->ssi_fd, r->ssi_band);
	else {
		if (r->ssi_fd)
			fprintf(out, " fd=%" PRId32, r->ssi_fd);
		if (r->ssi_band)
			fprintf(out, " band=0x%" PRIx32, r->ssi_band);
	}
	if (!strcmp(origin, "unknown") || !strcmp(origin, "fault") || !strcmp(origin, "trap") ||
	    !strcmp(origin, "seccomp"))
		fprintf(out, " code=%" PRId32, r->ssi_code);
	if (r->ssi_addr)
		fprintf(out, " addr=0x%" PRIx64, r->ssi_addr);
	if (r->ssi_errno)
		fprintf(out, " errno=%" PRId32, r->ssi_errno);
	if (r->ssi_trapno)
		fprintf(out, " trapno=%" PRIu32, r->ssi_trapno);
	if (r->ssi_syscall)
		fprintf(out, " syscall=%" PRId32, r->ssi_syscall);
	if (r->ssi_arch)
		fprintf(out, " arch=0x%" PRIx32, r->ssi_arch);
	if (x->passed_as == 0)
		fputs(" passed=none", out);
	else if (x->passed_as > 0)
		fprintf(out, " passed=%s", signame_of(x->passed_as, name));
	putc('\n', out);
}

/* JSON: decoded names next to the raw field they explain. */
#define JU(field) \
	do { if (r->field) fprintf(out, ",\"" #field "\":%" PRIu64, (uint64_t)r->field); } while (0)
#define JI(field) \
	do { if (r->field) fprintf(out, ",\"" #field "\":%" PRId64, (int64_t)r->field); } while (0)

void describe_json(FILE *out, const struct sigfd_siginfo *r, const struct describe_extra *x)
{
	char name[SIGNAME_MAX];
	const struct timespec *when = &x->when;
	const char *s;

	fprintf(out, "{\"time\":%lld.%06ld,\"signal\":", (long long)when->tv_sec,
		(long)(when->tv_nsec / 1000));
	json_string(out, signame_of((int)r->ssi_signo, name));
	fputs(",\"origin\":", out);
	json_string(out, describe_origin(r));
	/* signo, code, pid and uid always: 0 means something for each. */
	fprintf(out, ",\"ssi_signo\":%" PRIu32 ",\"ssi_code\":%" PRId32 ",\"ssi_pid\":%" PRIu32,
		r->ssi_signo, r->ssi_code, r->ssi_pid);
	sender_field(out, r, x, 1);
	fprintf(out, ",\"ssi_uid\":%" PRIu32, r->ssi_uid);
	if (has_sender(r) && (s = user_of(r->ssi_uid))) {
		fputs(",\"user\":", out);
		json_string(out, s);
	}
	JI(ssi_errno);
	JI(ssi_fd);
	JU(ssi_tid);
	JU(ssi_band);
	JU(ssi_overrun);
	JU(ssi_trapno);
	JI(ssi_status);
	if (child_origin(r)) {
		if (r->ssi_code == CLD_EXITED)
			fprintf(out, ",\"exit_status\":%" PRId32, r->ssi_status);
		else {
			fputs(",\"status_signal\":", out);
			json_string(out, signame_of(r->ssi_status, name));
		}
	}
	JI(ssi_int);
	JU(ssi_ptr);
	JU(ssi_utime);
	JU(ssi_stime);
	JU(ssi_addr);
	JU(ssi_addr_lsb);
	JI(ssi_syscall);
	JU(ssi_call_addr);
	JU(ssi_arch);
	if (x->passed_as == 0)
		fputs(",\"passed\":null", out);
	else if (x->passed_as > 0) {
		fputs(",\"passed\":", out);
		json_string(out, signame_of(x->passed_as, name));
	}
	fputs("}\n", out);
}
