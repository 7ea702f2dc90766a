/* SPDX-License-Identifier: GPL-2.0-or-later */
/* numactl2's version, licence and where bugs go, which --version prints
 * (a build may set its own version). */
#ifndef NUMACTL2_VERSION
#define NUMACTL2_VERSION "0.1.0"
#endif

#define NUMACTL2_LICENSE \
	"Copyright (C) 2026 numactl2 developers.\n" \
	"License GPLv2+: GNU GPL version 2 or later <https://gnu.org/licenses/gpl.html>.\n" \
	"This is free software: you are free to change and redistribute it.\n" \
	"There is NO WARRANTY, to the extent permitted by law.\n"

/* The project has no tracker of its own: whoever gave the user numactl2
 * takes the report, as the man page's REPORTING BUGS says. */
#define NUMACTL2_BUGS "How to report a bug: man numactl2, section REPORTING BUGS.\n"
