// SPDX-License-Identifier: GPL-2.0-or-later
/* Reading an ACPI table that the firmware wrote and the kernel exports:
 * bounded, and checked the way the kernel checks it before use. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bandwidth/acpitable.h"
#include "sysfile/sysfile.h"

#define ACPI_TABLES "/sys/firmware/acpi/tables"

/* The live directory; in the test build NUMACTL2_ACPI_TABLES's, a directory
 * of table files (test/lib/mkhmat.py writes them) for the host tests. */
const char *acpi_tables_dir(void)
{
	return SYSFILE_DIR(ACPI_TABLES, "NUMACTL2_ACPI_TABLES");
}

/* Up to ACPI_TABLE_MAX + 1 bytes of PATH into a new buffer. */
static int read_file(const char *path, unsigned char **buf, size_t *len)
{
	FILE *f = fopen(path, "re");
	int rc = 0;

	if (!f)
		return -errno;
	*buf = malloc(ACPI_TABLE_MAX + 1);
	if (!*buf)
		rc = -ENOMEM;
	else
		*len = fread(*buf, 1, ACPI_TABLE_MAX + 1, f);
	if (rc == 0 && ferror(f))
		rc = -EIO;
	if (rc == 0 && *len > ACPI_TABLE_MAX)
		rc = -EFBIG;
	fclose(f);
	/* Exactly what was read: a parser that reads past it is caught by
	 * ASan (test/fuzz_acpi.c), not handed the rest of a 1 MiB buffer. */
	if (rc == 0) {
		unsigned char *fit = realloc(*buf, *len ? *len : 1);

		if (fit)
			*buf = fit;
	}
	if (rc < 0) {
		free(*buf);
		*buf = NULL;
	}
	return rc;
}

/* The header's signature and length, and the checksum over that length. */
static bool header_ok(const char *sig, const unsigned char *buf, size_t got)
{
	uint32_t len;
	unsigned char sum = 0;

	if (got < ACPI_HEADER_LEN || memcmp(buf, sig, 4) != 0)
		return false;
	len = acpi_u32(buf + 4);
	if (len < ACPI_HEADER_LEN || len > got)
		return false;
	for (uint32_t i = 0; i < len; i++)
		sum = (unsigned char)(sum + buf[i]);
	return sum == 0;
}

int acpi_table_read(const char *sig, struct acpi_table *t)
{
	char path[512];
	size_t got = 0;
	int rc;

	*t = (struct acpi_table){ 0 };
	snprintf(path, sizeof(path), "%s/%s", acpi_tables_dir(), sig);
	rc = read_file(path, &t->buf, &got);
	if (rc < 0)
		return rc;
	if (!header_ok(sig, t->buf, got)) {
		acpi_table_free(t);
		return -EBADMSG;
	}
	t->len = acpi_u32(t->buf + 4);
	t->revision = t->buf[8];
	return 0;
}

void acpi_table_free(struct acpi_table *t)
{
	free(t->buf);
	*t = (struct acpi_table){ 0 };
}
