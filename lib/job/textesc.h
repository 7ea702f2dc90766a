/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Text a job chose (its name, its command, a path in its maps) written
 * where root reads it: on a terminal, or in JSON. */
#ifndef NUMACTL2_TEXTESC_H
#define NUMACTL2_TEXTESC_H

#include <stdio.h>

/* STR as printable text: C0 controls, DEL, C1 controls (U+0080-U+009F)
 * and bytes that are not UTF-8 as \xNN, a backslash as \\; the rest of
 * UTF-8 as it is. */
void text_print_escaped(FILE *f, const char *str);

/* STR as a JSON string, quotes included: '"' and '\' escaped, controls
 * (C0, DEL, C1) as \u00NN, bytes that are not UTF-8 as \ufffd. */
void text_print_json(FILE *f, const char *str);

#endif
