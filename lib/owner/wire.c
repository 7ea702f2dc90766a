// SPDX-License-Identifier: GPL-2.0-or-later
/* Sending and receiving the owner's messages: exactly one whole message,
 * at most one descriptor with it, never blocking (the callers poll), and
 * nothing that is not ours kept: a stray descriptor is closed. */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "owner/wire.h"

int owner_send(int fd, const void *msg, unsigned len, int pass_fd)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} c;
	struct iovec iov = { .iov_base = (void *)msg, .iov_len = len };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t n;

	if (pass_fd >= 0) {
		memset(&c, 0, sizeof(c));
		m.msg_control = c.buf;
		m.msg_controllen = sizeof(c.buf);
		c.h.cmsg_level = SOL_SOCKET;
		c.h.cmsg_type = SCM_RIGHTS;
		c.h.cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(&c.h), &pass_fd, sizeof(int));
	}
	n = sendmsg(fd, &m, MSG_NOSIGNAL | MSG_DONTWAIT);
	if (n < 0)
		return -errno;
	return (unsigned)n == len ? 0 : -EMSGSIZE;
}

/* The descriptors that came with a message: the first one kept where the
 * caller wants one, every other closed. */
static void take_fds(struct msghdr *m, int *passed_fd)
{
	for (struct cmsghdr *h = CMSG_FIRSTHDR(m); h; h = CMSG_NXTHDR(m, h)) {
		size_t n;

		if (h->cmsg_level != SOL_SOCKET || h->cmsg_type != SCM_RIGHTS)
			continue;
		n = (h->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < n; i++) {
			int fd;

			memcpy(&fd, CMSG_DATA(h) + i * sizeof(int), sizeof(int));
			if (passed_fd && *passed_fd < 0)
				*passed_fd = fd;
			else
				close(fd);
		}
	}
}

/* One message of exactly LEN bytes: 0, -EAGAIN when none is there yet,
 * -EBADMSG for a message of another size (cut or padded), -EPIPE at the
 * peer's end, or -errno. */
int owner_recv(int fd, void *msg, unsigned len, int *passed_fd)
{
	char cbuf[CMSG_SPACE(4 * sizeof(int))];
	struct iovec iov = { .iov_base = msg, .iov_len = len };
	struct msghdr m = {
		.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	ssize_t n;

	if (passed_fd)
		*passed_fd = -1;
	n = recvmsg(fd, &m, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
	if (n < 0)
		return -errno;
	take_fds(&m, passed_fd);
	if (n == 0)
		return -EPIPE;
	if ((unsigned)n != len || (m.msg_flags & (MSG_TRUNC | MSG_CTRUNC))) {
		if (passed_fd && *passed_fd >= 0)
			close(*passed_fd);
		if (passed_fd)
			*passed_fd = -1;
		return -EBADMSG;
	}
	return 0;
}

bool owner_ask_valid(const struct owner_ask *a)
{
	if (a->version != OWNER_WIRE_VERSION || (a->flags & ~OWNER_FLAGS))
		return false;
	/* A change no job holds has nobody to put it back: it stays. */
	if ((a->flags & OWNER_NO_JOB) && !(a->flags & OWNER_KEEP))
		return false;
	return a->op >= OWNER_LEASE && a->op <= OWNER_AUTO;
}

bool owner_answer_valid(const struct owner_answer *a)
{
	return a->version == OWNER_WIRE_VERSION && a->verdict <= OWNER_AUTO_LOST &&
	       a->node < OWNER_NODES && a->auto_off <= OWNER_AUTO_OFF_UNTIL_REBOOT &&
	       memchr(a->text, 0, sizeof(a->text));
}
