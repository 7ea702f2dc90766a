/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The owner's state file: what a restarted service needs to put the table
 * back (each changed node's weight before, the auto switch) and to know
 * the jobs that still hold weights. Root's alone, saved before every
 * change, and bound to this boot: a file of another boot is dropped. */
#ifndef NUMACTL2_OWNER_STATE_H
#define NUMACTL2_OWNER_STATE_H

#include <stdbool.h>

#include "owner/book.h"

struct state_loaded {
	enum {
		STATE_NONE,		/* no file: a first start */
		STATE_LOADED,		/* this boot's: the book as it was */
		STATE_OTHER_BOOT,	/* another boot's: dropped */
		STATE_UNREADABLE,	/* not a state file: dropped */
	} how;
	unsigned gone;			/* holders whose job ended meanwhile */
	unsigned bad;			/* lines not understood, skipped */
};

int state_save(const char *path, const struct owner_book *b);
int state_load(const char *path, struct owner_book *b, struct state_loaded *how);

#endif
