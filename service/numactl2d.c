// SPDX-License-Identifier: GPL-2.0-or-later
/* numactl2d: the one owner of the kernel's global weighted-interleave
 * table. Users' numactl2 runs ask it for weights over a Unix socket; it
 * grants them under the admin's rules, holds each grant until the job ends
 * and then puts the table back (docs/service.md, numactl2d(8)). Started by
 * systemd's numactl2.socket, or by root with --socket. */
#define _GNU_SOURCE
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <syslog.h>
#include <unistd.h>

#include "cli/version.h"
#include "libnumactl2.h"
#include "msg/reqerror.h"

#define LISTEN_FDS_START 3

static bool to_stderr;

static void __attribute__((format(printf, 2, 3))) say(int priority, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (to_stderr) {
		fputs("numactl2d: ", stderr);
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
	} else {
		vsyslog(priority, fmt, ap);
	}
	va_end(ap);
}

static void __attribute__((noreturn)) usage(int status)
{
	FILE *out = status ? stderr : stdout;

	if (status) {
		fputs("Try 'numactl2d --help' for more information.\n", out);
		exit(status);
	}
	fputs("Usage: numactl2d [OPTION]...\n"
	      "The owner of the kernel's global interleave weights: grants numactl2 runs of\n"
	      "any user the weights the admin's rules allow, and puts them back when the job\n"
	      "ends.\n\n"
	      "Options:\n"
	      "  --socket=PATH  listen on PATH (default: the socket systemd passes, or\n"
	      "                 " OWNER_SOCKET_LIVE ")\n"
	      "  --state=FILE   keep the holders and the table as it was in FILE\n"
	      "                 (default " OWNER_STATE_LIVE ")\n"
	      "  --rules=FILE   the admin's rules (default " OWNER_RULES_FILE ")\n"
	      "  --stderr       log to stderr, not to the system log\n"
	      "  --help         display this help and exit\n"
	      "  --version      output version information and exit\n", out);
	exit(0);
}

/* systemd's socket, when it started this service for it. */
static int passed_socket(void)
{
	const char *pid = getenv("LISTEN_PID"), *fds = getenv("LISTEN_FDS");

	if (!pid || !fds || atoi(pid) != getpid() || atoi(fds) != 1)
		return -1;
	unsetenv("LISTEN_PID");
	unsetenv("LISTEN_FDS");
	unsetenv("LISTEN_FDNAMES");
	return LISTEN_FDS_START;
}

/* PATH's directory must be root's and written by root alone: a socket
 * another user could replace would take every user's asks. */
static void check_dir(const char *path)
{
	char dir[sizeof(((struct sockaddr_un *)0)->sun_path)];
	struct stat st;
	char *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		errx(1, "--socket: '%s' needs a directory of its own", path);
	*slash = '\0';
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		err(1, "cannot make '%s'", dir);
	if (lstat(dir, &st) < 0)
		err(1, "cannot read '%s'", dir);
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 022))
		errx(1, "'%s' must be a directory of this user's that no one else can write", dir);
}

/* The socket appears at PATH only once any user may connect to it and it
 * listens: bound under a name of its own in the same directory, made
 * 0666 (who asks is the socket's to say, SO_PEERCRED), listening, then
 * linked to PATH, which fails if another service took PATH meanwhile. A
 * client that finds PATH is served, never refused by the mode the bind
 * gave it or by a socket that does not listen yet. */
static void bind_ready(int fd, struct sockaddr_un *sa, const char *path)
{
	char tmp[sizeof(sa->sun_path)];

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.%d", path, (int)getpid()) >= sizeof(tmp))
		errx(1, "--socket: '%s' is too long", path);
	(void)unlink(tmp);
	strcpy(sa->sun_path, tmp);
	if (bind(fd, (struct sockaddr *)sa, sizeof(*sa)) < 0)
		err(1, "cannot listen on '%s'", path);
	if (chmod(tmp, 0666) < 0 || listen(fd, 128) < 0 || link(tmp, path) < 0) {
		int saved = errno;

		(void)unlink(tmp);
		errno = saved;
		if (saved == EEXIST)
			errx(1, "another numactl2d listens on '%s'", path);
		err(1, "cannot listen on '%s'", path);
	}
	(void)unlink(tmp);
}

/* Serves until SIGTERM or SIGINT; the reason, in msg/'s words, when it cannot. */
static int serve(int fd, const char *state, const char *rules)
{
	struct nc2_error *e = nc2_error_new();
	char msg[REQ_MSG_MAX];

	if (!e)
		errx(1, "out of memory");
	if (nc2_owner_serve(fd, state, rules, say, e) < 0) {
		msg_error(msg, sizeof(msg), e, NULL);
		errx(1, "%s", msg);
	}
	nc2_error_free(e);
	return 0;
}

static int listen_on(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat st;
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path))
		errx(1, "--socket: '%s' is too long", path);
	check_dir(path);
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		err(1, "cannot listen on '%s'", path);
	/* A socket left by an ended service goes; a live one is another's. */
	if (lstat(path, &st) == 0 && S_ISSOCK(st.st_mode)) {
		if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0 || errno == EAGAIN)
			errx(1, "another numactl2d listens on '%s'", path);
		(void)unlink(path);
	}
	bind_ready(fd, &sa, path);
	return fd;
}

/* Each holder is a pidfd and each client a socket: as many as the hard
 * limit allows (numactl2.service raises it, LimitNOFILE=). */
static void raise_fd_limit(void)
{
	struct rlimit r;

	if (getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur < r.rlim_max) {
		r.rlim_cur = r.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &r);
	}
}

int main(int argc, char **argv)
{
	enum { OPT_SOCKET = 256, OPT_STATE, OPT_RULES, OPT_STDERR, OPT_HELP, OPT_VERSION };
	static const struct option longopts[] = {
		{ "socket",  required_argument, NULL, OPT_SOCKET },
		{ "state",   required_argument, NULL, OPT_STATE },
		{ "rules",   required_argument, NULL, OPT_RULES },
		{ "stderr",  no_argument,       NULL, OPT_STDERR },
		{ "help",    no_argument,       NULL, OPT_HELP },
		{ "version", no_argument,       NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	const char *socket_path = NULL, *state = OWNER_STATE_LIVE, *rules = OWNER_RULES_FILE;
	int c, fd;

	while ((c = getopt_long(argc, argv, "+", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_SOCKET: socket_path = optarg; break;
		case OPT_STATE: state = optarg; break;
		case OPT_RULES: rules = optarg; break;
		case OPT_STDERR: to_stderr = true; break;
		case OPT_HELP: usage(0);
		case OPT_VERSION: puts("numactl2d " NUMACTL2_VERSION); return 0;
		default: usage(1);
		}
	}
	if (optind < argc) {
		warnx("unexpected argument '%s'", argv[optind]);
		usage(1);
	}
	if (geteuid() != 0)
		errx(1, "must run as root: it writes the kernel's weight table");
	raise_fd_limit();
	openlog("numactl2d", LOG_PID, LOG_DAEMON);
	fd = socket_path ? -1 : passed_socket();
	if (fd < 0)
		fd = listen_on(socket_path ? socket_path : OWNER_SOCKET_LIVE);
	return serve(fd, state, rules);
}
