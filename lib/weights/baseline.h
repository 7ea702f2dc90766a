/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The global table as it was before the jobs that changed it (baseline.c):
 * saved by the first, put back once the last of them has ended. */
#ifndef NUMACTL2_BASELINE_H
#define NUMACTL2_BASELINE_H

#include <stdbool.h>
#include <stdint.h>

#include "weights/table.h"

/* Every nodeN weight and the auto switch, as they were. */
struct baseline {
	unsigned count;			/* weight[] has that many entries */
	uint8_t *weight;		/* 0: the node had no weight file */
	enum gw_auto auto_mode;
};

const char *baseline_dir(void);
bool baseline_present(void);
bool baseline_writable(void);
int baseline_save(void);
int baseline_read(struct baseline *b);
int baseline_write(const struct baseline *b);
void baseline_free(struct baseline *b);
void baseline_remove(void);

#endif
