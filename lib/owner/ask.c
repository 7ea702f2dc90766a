// SPDX-License-Identifier: GPL-2.0-or-later
/* Asking the table's owner (numactl2d): connect, send one ask with the
 * job's pidfd, read the answers before a deadline. A service that does not
 * answer in time is an error, never a wait without end. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "libnumactl2.h"
#include "owner/wire.h"
#include "sysfile/sysfile.h"

/* The socket: the test build's service listens where the tests say. */
const char *owner_socket_path(void)
{
	return SYSFILE_WRITTEN_DIR(OWNER_SOCKET_LIVE, "NUMACTL2_OWNER_SOCKET");
}

/* A full backlog says EAGAIN at once (a Unix socket's non-blocking
 * connect does not wait): another user flooding the service must not make
 * this run fail, so it tries again, 1 ms apart, until the deadline. */
static int connect_in_time(int fd, const struct sockaddr_un *sa)
{
	const struct timespec ms = { .tv_nsec = 1000000 };

	for (int tries = 0; tries < OWNER_ASK_TIMEOUT_MS; tries++) {
		if (connect(fd, (const struct sockaddr *)sa, sizeof(*sa)) == 0)
			return 0;
		if (errno != EAGAIN)
			return -1;
		nanosleep(&ms, NULL);
	}
	errno = ETIMEDOUT;
	return -1;
}

/* A connection, or -ENOENT / -ECONNREFUSED when no service listens. */
static int owner_connect(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	const char *path = owner_socket_path();
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	if (connect_in_time(fd, &sa) < 0) {
		int rc = -errno;

		close(fd);
		return rc;
	}
	return fd;
}

bool owner_listening(void)
{
	int fd = owner_connect();

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* A service that refuses a connection (a limit) answers and closes it at
 * once, before it reads the ask or even before the ask is sent: the send
 * then fails, and the first read says the reset, yet the answer is still
 * there to read. */
static int send_ask(int fd, const struct owner_ask *k, int pidfd)
{
	int rc = owner_send(fd, k, sizeof(*k), pidfd);

	return rc == -EPIPE || rc == -ECONNRESET ? 0 : rc;
}

/* The next answer, before TIMEOUT_MS: 0, -ETIMEDOUT, or -errno. */
static int next_answer(int fd, struct owner_answer *a, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	bool reset = false;
	int rc;

	for (;;) {
		rc = owner_recv(fd, a, sizeof(*a), NULL);
		/* The reset is said once: the answer comes after it. */
		if (rc == -ECONNRESET && !reset) {
			reset = true;
			continue;
		}
		if (rc != -EAGAIN)
			break;
		rc = poll(&p, 1, timeout_ms);
		if (rc == 0)
			return -ETIMEDOUT;
		if (rc < 0 && errno != EINTR)
			return -errno;
	}
	if (rc == 0 && !owner_answer_valid(a))
		return -EBADMSG;
	return rc;
}

/* One ask and its one answer. */
int owner_call(const struct owner_ask *k, int pidfd, int timeout_ms, struct owner_answer *a)
{
	int fd = owner_connect();
	int rc;

	if (fd < 0)
		return fd;
	rc = send_ask(fd, k, pidfd);
	if (rc == 0)
		rc = next_answer(fd, a, timeout_ms);
	close(fd);
	return rc;
}

/* OWNER_ROWS: HMAT as the service read it. 0, -ENODATA (with the
 * service's reason in r->err), or -errno. */
int owner_rows_read(int timeout_ms, struct owner_rows *r)
{
	struct owner_ask k = { .version = OWNER_WIRE_VERSION, .op = OWNER_ROWS };
	struct pollfd p = { .events = POLLIN };
	int fd = owner_connect();
	int rc;

	if (fd < 0)
		return fd;
	p.fd = fd;
	rc = owner_send(fd, &k, sizeof(k), -1);
	while (rc == 0 && (rc = owner_recv(fd, r, sizeof(*r), NULL)) == -EAGAIN)
		rc = poll(&p, 1, timeout_ms) > 0 ? 0 : -ETIMEDOUT;
	close(fd);
	if (rc == 0 && (r->version != OWNER_WIRE_VERSION || r->verdict != OWNER_GRANTED))
		rc = r->version == OWNER_WIRE_VERSION ? -ENODATA : -EBADMSG;
	return rc;
}

/* OWNER_LIST: each holder to EACH, until OWNER_END. */
int owner_list(int timeout_ms, void (*each)(const struct owner_answer *a, void *arg), void *arg)
{
	struct owner_ask k = { .version = OWNER_WIRE_VERSION, .op = OWNER_LIST };
	struct owner_answer a;
	int fd = owner_connect();
	int rc;

	if (fd < 0)
		return fd;
	rc = send_ask(fd, &k, -1);
	while (rc == 0 && (rc = next_answer(fd, &a, timeout_ms)) == 0 && a.verdict == OWNER_HOLDER)
		each(&a, arg);
	if (rc == 0 && a.verdict != OWNER_END)
		rc = -EBADMSG;
	close(fd);
	return rc;
}
