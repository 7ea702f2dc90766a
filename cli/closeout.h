/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The check at the end of each run that prints: stdout reached its file. */
#ifndef NUMACTL2_CLOSEOUT_H
#define NUMACTL2_CLOSEOUT_H

/* status, or 1 after "write error" when stdout could not be written. */
int close_stdout(int status);

#endif
