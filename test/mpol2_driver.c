// SPDX-License-Identifier: GPL-2.0-or-later
/* Feeds a /sys/kernel/mm/mempolicy/syscalls text (stdin) to
 * mpol2_parse_syscalls() for one ABI and prints what numactl2 would call:
 * "set=N get=N mbind=N", or "none" (exit 1) when it would call nothing.
 *   mpol2_driver ABI */
#include <stdio.h>
#include <string.h>

#include "policy/mpol2.h"

int main(int argc, char **argv)
{
	static char buf[4096];
	struct mpol2_numbers nr;
	size_t n;

	if (argc != 2) {
		fprintf(stderr, "usage: mpol2_driver ABI <syscalls-text\n");
		return 2;
	}
	n = fread(buf, 1, sizeof(buf) - 1, stdin);
	buf[n] = '\0';
	if (!mpol2_parse_syscalls(buf, argv[1], &nr)) {
		printf("none\n");
		return 1;
	}
	printf("set=%ld get=%ld mbind=%ld\n", nr.set, nr.get, nr.mbind);
	return 0;
}
