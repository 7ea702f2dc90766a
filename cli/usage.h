/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --help, --version and usage errors (one line naming what is wrong, then
 * where help is, exit 1). */
#ifndef NUMACTL2_USAGE_H
#define NUMACTL2_USAGE_H

#include "parse.h"

/* --help and --version, on stdout; both exit 0. */
void cli_usage(void) __attribute__((noreturn));
void cli_version(void) __attribute__((noreturn));

void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
void usage_parse_error(const struct parse_err *e, const char *what) __attribute__((noreturn));

#endif
