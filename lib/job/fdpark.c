// SPDX-License-Identifier: GPL-2.0-or-later
/* Parking descriptors on a socket (fdpark.h): one message of one byte for
 * each, so that any number fits the per-message limit (SCM_MAX_FD). */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "job/fdpark.h"

struct one_fd {
	struct msghdr msg;
	struct iovec iov;
	char byte;
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
};

static void one_fd_init(struct one_fd *m)
{
	memset(m, 0, sizeof(*m));
	m->iov.iov_base = &m->byte;
	m->iov.iov_len = 1;
	m->msg.msg_iov = &m->iov;
	m->msg.msg_iovlen = 1;
	m->msg.msg_control = m->u.buf;
	m->msg.msg_controllen = sizeof(m->u.buf);
}

static int send_fd(int sock, int fd)
{
	struct one_fd m;
	struct cmsghdr *c;

	one_fd_init(&m);
	c = CMSG_FIRSTHDR(&m.msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	return sendmsg(sock, &m.msg, MSG_NOSIGNAL) == 1 ? 0 : -errno;
}

static int recv_fd(int sock)
{
	struct one_fd m;
	struct cmsghdr *c;
	int fd;

	one_fd_init(&m);
	if (recvmsg(sock, &m.msg, MSG_CMSG_CLOEXEC) != 1)
		return -EIO;
	c = CMSG_FIRSTHDR(&m.msg);
	if (!c || c->cmsg_type != SCM_RIGHTS || c->cmsg_len != CMSG_LEN(sizeof(int)))
		return -EIO;
	memcpy(&fd, CMSG_DATA(c), sizeof(int));
	return fd;
}

int fd_park(const int *fd, unsigned n)
{
	int sv[2], rc = 0;

	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv) < 0)
		return -errno;
	for (unsigned i = 0; rc == 0 && i < n; i++)
		if (fd[i] >= 0)
			rc = send_fd(sv[1], fd[i]);
	close(sv[1]);
	if (rc < 0) {
		close(sv[0]);
		return rc;
	}
	for (unsigned i = 0; i < n; i++)
		if (fd[i] >= 0)
			close(fd[i]);
	return sv[0];
}

int fd_unpark(int park, int *fd, unsigned n)
{
	int rc = 0;

	for (unsigned i = 0; i < n; i++) {
		if (fd[i] < 0)
			continue;
		fd[i] = rc < 0 ? -1 : recv_fd(park);
		if (fd[i] < 0 && rc == 0)
			rc = fd[i];
		if (fd[i] < 0)
			fd[i] = -1;
	}
	close(park);
	return rc;
}
