/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The table's owner at work (numactl2d), as its files share it: one event loop over the socket,
 * its connections and the pidfds of the jobs that hold weights. No client
 * can hold it up: every socket is non-blocking, every connection has a
 * deadline, and each user has a bound on connections and holds. */
#ifndef NUMACTL2_OWNER_SERVER_H
#define NUMACTL2_OWNER_SERVER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "libnumactl2.h"
#include "owner/book.h"
#include "owner/rules.h"
#include "owner/wire.h"

/* The bounds, numactl2d(8). */
#define OWNER_ASK_MS 2000		/* to send the ask, or read the answers */
#define OWNER_WAIT_MAX_MS (3600u * 1000)	/* the longest wait for a holder */
#define OWNER_USER_CONNS 8		/* open connections of a user who is not root */
#define OWNER_USER_GRANTS 64		/* holds of a user who is not root */
#define OWNER_CONNS 1024		/* open connections in all */
#define OWNER_GRANTS 8192		/* holds in all */

struct owner_conn;

struct owner_server {
	int listen_fd;
	int epfd;
	int signal_fd;
	const char *state_path;
	struct owner_book book;
	struct owner_rules rules;
	nc2_owner_log_fn *log;
	struct owner_conn **conn;
	unsigned nconn;
	/* Connections and grants ended in this round of events, freed after
	 * it: a later event of the round may still name one. */
	struct owner_grave {
		void *p;
		void (*release)(void *p);
	} *grave;
	unsigned ngrave, gravecap;
	bool stop;
	struct owner_rows *rows;	/* HMAT's, read at the first OWNER_ROWS */
	int lock_fd;			/* the state file's lock: one service at a time */
	unsigned long long listen_paused_until;	/* out of descriptors: accept later */
	bool once;			/* root's own owner for one ask (once.c): ends
					 * with its connection */
	struct book_putback resumed;	/* what the start put back of the jobs that
					 * ended while no owner ran */
};

/* How an owner opens: its state, rules and log; how long it waits for
 * the state's lock (0: a service asks once); whether it puts back what the
 * jobs that ended held (a dry run does not). */
struct owner_open {
	const char *state_path, *rules_path;
	nc2_owner_log_fn *log;
	int lock_wait_ms;
	bool settle;
	bool once;
};

int owner_server_open(struct owner_server *s, const struct owner_open *o);
int owner_server_take(struct owner_server *s, int fd);

/* Root's own owner where no service listens (once.c). */
const char *owner_dir(void);
int owner_call_here(const struct owner_ask *k, int pidfd, struct owner_answer *a);
int owner_settle_here(struct book_putback *pb);
int owner_list_here(void (*each)(const struct owner_answer *a, void *arg), void *arg);
int owner_server_start(struct owner_server *s, int listen_fd, const char *state_path,
		       const char *rules_path, nc2_owner_log_fn *log);
int owner_server_run(struct owner_server *s);
void owner_server_end(struct owner_server *s);

/* serve.c and ask handling (grantask.c) */
struct owner_conn {
	int fd;
	pid_t pid;
	uid_t uid;
	int peer_pidfd;			/* -1 where the kernel has no SO_PEERPIDFD */
	struct owner_caller caller;
	unsigned long long deadline_ms;
	enum { CONN_ASKING, CONN_WAITING, CONN_LISTING } state;
	struct owner_ask ask;
	struct grant *grant;		/* a lease being waited for */
	unsigned sent;			/* OWNER_LIST: the holders sent so far */
};

/* What an epoll event is about: the low bits of its pointer (conns.c). */
enum ev_kind { EV_LISTEN, EV_SIGNAL, EV_CONN, EV_GRANT };

uint64_t owner_tag(void *p, enum ev_kind k);
int owner_epoll_add(struct owner_server *s, int fd, uint32_t events, uint64_t data);
bool owner_conn_open(const struct owner_server *s, const struct owner_conn *c);
void owner_grave_empty(struct owner_server *s);
unsigned long long owner_now_ms(void);
void owner_answer(struct owner_server *s, struct owner_conn *c, const struct owner_answer *a);
void owner_conn_close(struct owner_server *s, struct owner_conn *c);
void owner_conn_free(void *p);
bool owner_peer_is(const struct owner_conn *c, pid_t pid);
void owner_bury_grant(struct owner_server *s, struct grant *g);
void owner_handle_ask(struct owner_server *s, struct owner_conn *c, int pidfd);
bool owner_try_lease(struct owner_server *s, struct owner_conn *c);
void owner_lease_ask(struct owner_server *s, struct owner_conn *c, int pidfd);
void owner_refuse(struct owner_server *s, struct owner_conn *c, enum owner_verdict v,
		  int err, unsigned node, const char *why);
void owner_save_or_log(struct owner_server *s);
void owner_job_ended(struct owner_server *s, struct grant *g);
void owner_retry_waiting(struct owner_server *s);
int owner_watch_grant(struct owner_server *s, struct grant *g);
int owner_conn_send_list(struct owner_server *s, struct owner_conn *c);
void owner_holder_answer(const struct grant *g, struct owner_answer *a);

#endif
