/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One ACPI table from /sys/firmware/acpi/tables, read whole and checked
 * (signature, length, checksum) before anyone parses it (acpitable.c). */
#ifndef NUMACTL2_ACPITABLE_H
#define NUMACTL2_ACPITABLE_H

#include <stddef.h>
#include <stdint.h>

#define ACPI_HEADER_LEN 36
/* HMAT and SRAT of a large machine are a few KB; anything past this is not one. */
#define ACPI_TABLE_MAX (1024 * 1024)

struct acpi_table {
	unsigned char *buf;
	size_t len;		/* the header's length: every byte checked */
	uint8_t revision;
};

const char *acpi_tables_dir(void);
/* Reads the table SIG ("HMAT", "SRAT"). Returns 0, a negative errno from
 * open or read (-EACCES when not root), -EFBIG (over ACPI_TABLE_MAX) or
 * -EBADMSG (wrong signature, a length that lies, a bad checksum). */
int acpi_table_read(const char *sig, struct acpi_table *t);
void acpi_table_free(struct acpi_table *t);

/* Little-endian fields; the caller has checked that they are in bounds. */
static inline uint32_t acpi_u16(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static inline uint32_t acpi_u32(const unsigned char *p)
{
	return acpi_u16(p) | (uint32_t)acpi_u16(p + 2) << 16;
}

static inline uint64_t acpi_u64(const unsigned char *p)
{
	return (uint64_t)acpi_u32(p) | (uint64_t)acpi_u32(p + 4) << 32;
}

#endif
