/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The wording both front ends share: the numactl2 CLI (cli/) and the Slurm
 * plugin (slurm/). Each function writes one message into the buffer it is
 * given, without the "numactl2: " prefix; the front end prints it (warnx,
 * slurm_error) and decides how to end. Nothing here prints or exits. */
#ifndef NUMACTL2_MSG_H
#define NUMACTL2_MSG_H

#include <stdbool.h>
#include <stddef.h>

#include "libnumactl2.h"

#define MSG_MAX 1024

/* Room for --weights=auto's notice of BW_MAX_NODES nodes (msg_auto_notice()). */
#define MSG_AUTO_NOTICE_MAX (MSG_MAX + NC2_AUTO_SAID_MAX)

/* Why the kernel's auto weights stay off until reboot once a node is written. */
#define MSG_AUTO_GONE_WHY "no node has access0 bandwidth to turn them back on"

void msg_node_list(char *buf, size_t len, const char *arg, const char *why);
void msg_node_absent(char *buf, size_t len, const char *arg, const char *node,
		     const struct bitmask *have);
void msg_node_refused(char *buf, size_t len, const char *arg, const char *why);
void msg_too_long(char *buf, size_t len, const char *option, size_t got, size_t max);
void msg_one_node(char *buf, size_t len, const struct policy *p);
void msg_auto_switched_off(char *buf, size_t len, const struct table_said *t);
void msg_undone(char *buf, size_t len, const char *stays);
bool msg_table_changed(char *buf, size_t len, const struct table_said *t);
void msg_auto_notice(char *buf, size_t len, const struct nc2_auto_notice *an);

#endif
