// SPDX-License-Identifier: GPL-2.0-or-later
/* Reading an ELF file the way the kernel and the dynamic loader do: the
 * ELF header, the program headers, the dynamic segment and the tables it
 * points at by address (mapped to file offsets through the PT_LOAD
 * segments). Each is read with pread() at the offset and length the
 * headers name, checked against the file's size and bounded: the file is
 * the user's, not to be trusted, and may be a 10 GB sparse file whose
 * size says nothing about what there is to read. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "job/elffile.h"

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define NATIVE_DATA ELFDATA2LSB
#else
#define NATIVE_DATA ELFDATA2MSB
#endif

/* The machine the kernel runs programs of (its elf_check_arch()). */
#if defined(__x86_64__)
#define NATIVE_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define NATIVE_MACHINE EM_AARCH64
#elif defined(__powerpc64__)
#define NATIVE_MACHINE EM_PPC64
#elif defined(__s390x__)
#define NATIVE_MACHINE EM_S390
#elif defined(__riscv) && __riscv_xlen == 64
#define NATIVE_MACHINE EM_RISCV
#elif defined(__loongarch64)
#define NATIVE_MACHINE EM_LOONGARCH
#else
#error "lib/job/elffile.c: name this architecture's ELF machine (EM_*)"
#endif

/* binfmt_elf's limit on the program headers (elf_read_phdrs). */
#define PHDRS_MAX 65536
/* A dynamic segment holds a few dozen entries (glibc's libc.so.6: 35). */
#define DYNAMIC_MAX (64 << 10)
/* libnuma defines 7 symbol versions, glibc's libc.so.6 about 45. */
#define VERDEFS_MAX 4096
/* The dynamic string table read for a name: a sanitizer runtime's thousands
 * of exported symbols fit in well under a MiB. */
#define DYNSTR_MAX (4 << 20)
#define SCAN_CHUNK (1 << 20)

static bool in_file(const struct elf_file *f, Elf64_Off off, Elf64_Xword len)
{
	return off <= (Elf64_Off)f->size && len <= (Elf64_Off)f->size - off;
}

/* Exactly len bytes at off: 0, -ENOEXEC past the end, -errno. */
static int read_at(const struct elf_file *f, Elf64_Off off, void *buf, size_t len)
{
	ssize_t n;

	if (!in_file(f, off, len))
		return -ENOEXEC;
	n = pread(f->fd, buf, len, (off_t)off);
	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -ENOEXEC;
}

/* What the kernel checks before it runs a file as a program or loads it
 * as an interpreter: ELF magic, this machine's class, byte order and
 * machine, an executable or shared object, program headers it reads. */
static bool ehdr_valid(const Elf64_Ehdr *eh)
{
	return memcmp(eh->e_ident, ELFMAG, SELFMAG) == 0 && eh->e_ident[EI_CLASS] == ELFCLASS64 &&
	       eh->e_ident[EI_DATA] == NATIVE_DATA && eh->e_machine == NATIVE_MACHINE &&
	       (eh->e_type == ET_EXEC || eh->e_type == ET_DYN) &&
	       eh->e_phentsize == sizeof(Elf64_Phdr) && eh->e_phnum > 0 &&
	       (size_t)eh->e_phnum * sizeof(Elf64_Phdr) <= PHDRS_MAX;
}

static int read_headers(struct elf_file *f)
{
	size_t len;
	int rc = read_at(f, 0, &f->eh, sizeof(f->eh));

	if (rc < 0)
		return rc;
	if (!ehdr_valid(&f->eh))
		return -ENOEXEC;
	len = (size_t)f->eh.e_phnum * sizeof(Elf64_Phdr);
	f->ph = malloc(len);
	if (!f->ph)
		return -ENOMEM;
	return read_at(f, f->eh.e_phoff, f->ph, len);
}

/* O_NONBLOCK: a FIFO (or a device) opens at once instead of waiting for a
 * writer, and is then refused for not being a regular file. */
int elf_open(const char *path, struct elf_file *f)
{
	struct stat st;
	int rc;

	memset(f, 0, sizeof(*f));
	f->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (f->fd < 0)
		return -errno;
	if (fstat(f->fd, &st) < 0)
		rc = -errno;
	else if (!S_ISREG(st.st_mode))
		rc = -ENOEXEC;
	else {
		f->size = st.st_size;
		rc = read_headers(f);
	}
	if (rc < 0)
		elf_close(f);
	return rc;
}

void elf_close(struct elf_file *f)
{
	if (f->fd >= 0)
		close(f->fd);
	free(f->ph);
	f->ph = NULL;
	f->fd = -1;
}

/* The first program header of type TYPE, or NULL. */
static const Elf64_Phdr *phdr_of(const struct elf_file *f, Elf64_Word type)
{
	for (unsigned i = 0; i < f->eh.e_phnum; i++)
		if (f->ph[i].p_type == type)
			return &f->ph[i];
	return NULL;
}

/* As binfmt_elf: at most PATH_MAX bytes, ending with its NUL. */
int elf_interp(const struct elf_file *f, char *buf, size_t len)
{
	const Elf64_Phdr *ph = phdr_of(f, PT_INTERP);
	int rc;

	if (!ph)
		return -ENOENT;
	if (ph->p_filesz < 2)
		return -ENOEXEC;
	if (ph->p_filesz > len)
		return -ENAMETOOLONG;
	rc = read_at(f, ph->p_offset, buf, ph->p_filesz);
	if (rc < 0)
		return rc;
	return buf[ph->p_filesz - 1] == '\0' && strlen(buf) > 0 ? 0 : -ENOEXEC;
}

/* The file offset of the address ADDR (in a PT_LOAD segment's file part),
 * or 0 when none holds it (offset 0 is the ELF header, never a table). */
static Elf64_Off offset_of(const struct elf_file *f, Elf64_Addr addr)
{
	for (unsigned i = 0; i < f->eh.e_phnum; i++) {
		const Elf64_Phdr *ph = &f->ph[i];

		if (ph->p_type == PT_LOAD && addr >= ph->p_vaddr && addr - ph->p_vaddr < ph->p_filesz)
			return addr - ph->p_vaddr + ph->p_offset;
	}
	return 0;
}

struct verdefs {
	Elf64_Off strtab, verdef;	/* file offsets */
	Elf64_Xword strsz, count;
};

static void take_dyn(const struct elf_file *f, const Elf64_Dyn *d, struct verdefs *v)
{
	if (d->d_tag == DT_STRTAB)
		v->strtab = offset_of(f, d->d_un.d_ptr);
	else if (d->d_tag == DT_STRSZ)
		v->strsz = d->d_un.d_val;
	else if (d->d_tag == DT_VERDEF)
		v->verdef = offset_of(f, d->d_un.d_ptr);
	else if (d->d_tag == DT_VERDEFNUM)
		v->count = d->d_un.d_val;
}

/* DT_STRTAB, DT_STRSZ, DT_VERDEF and DT_VERDEFNUM from the dynamic segment:
 * 0, -ENOENT without one, -ENOEXEC without a string table in the file. */
static int read_dynamic(const struct elf_file *f, struct verdefs *v)
{
	const Elf64_Phdr *ph = phdr_of(f, PT_DYNAMIC);
	Elf64_Dyn *d;
	size_t n;
	int rc;

	memset(v, 0, sizeof(*v));
	if (!ph)
		return -ENOENT;
	n = (ph->p_filesz < DYNAMIC_MAX ? ph->p_filesz : DYNAMIC_MAX) / sizeof(*d);
	d = malloc(n * sizeof(*d) + 1);
	if (!d)
		return -ENOMEM;
	rc = read_at(f, ph->p_offset, d, n * sizeof(*d));
	for (size_t i = 0; rc == 0 && i < n && d[i].d_tag != DT_NULL; i++)
		take_dyn(f, &d[i], v);
	free(d);
	if (rc < 0)
		return rc;
	return v->strtab && v->count <= VERDEFS_MAX && in_file(f, v->strtab, v->strsz) ? 0 :
												-ENOEXEC;
}

/* Is the name of the version definition VD at OFF (its first Verdaux)
 * NAME? 1, 0 or -ENOEXEC. Only NAME's length is read of the string table. */
static int verdef_is(const struct elf_file *f, const struct verdefs *v, const Elf64_Verdef *vd,
		     Elf64_Off off, const char *name)
{
	char s[64];
	size_t want = strlen(name) + 1;
	Elf64_Verdaux aux;
	int rc;

	if (vd->vd_cnt == 0 || want > sizeof(s))
		return -ENOEXEC;
	rc = read_at(f, off + vd->vd_aux, &aux, sizeof(aux));
	if (rc < 0)
		return rc;
	if (aux.vda_name >= v->strsz)
		return -ENOEXEC;
	if (v->strsz - aux.vda_name < want)
		return 0;
	rc = read_at(f, v->strtab + aux.vda_name, s, want);
	return rc < 0 ? rc : memcmp(s, name, want) == 0;
}

int elf_defines_version(const struct elf_file *f, const char *name)
{
	struct verdefs v;
	Elf64_Off off;
	int rc = read_dynamic(f, &v);

	if (rc == 0 && (!v.verdef || !v.count))
		rc = -ENOENT;
	if (rc < 0)
		return rc;
	off = v.verdef;
	for (Elf64_Xword i = 0; i < v.count; i++) {
		Elf64_Verdef vd;

		rc = read_at(f, off, &vd, sizeof(vd));
		if (rc == 0)
			rc = verdef_is(f, &v, &vd, off, name);
		if (rc != 0)
			return rc;
		if (vd.vd_next == 0)
			break;
		off += vd.vd_next;
	}
	return 0;
}

/* The file part of one segment, a chunk at a time; a match across two
 * chunks is found through the overlap carried over. */
static int scan_range(const struct elf_file *f, Elf64_Off off, Elf64_Xword len, char *buf,
		      const char *bytes)
{
	size_t keep = strlen(bytes) - 1, have = 0, carry;

	while (len > 0) {
		size_t n = len < SCAN_CHUNK ? len : SCAN_CHUNK;
		int rc = read_at(f, off, buf + have, n);

		if (rc < 0)
			return rc;
		if (memmem(buf, have + n, bytes, keep + 1))
			return 1;
		carry = have + n < keep ? have + n : keep;
		memmove(buf, buf + have + n - carry, carry);
		have = carry;
		off += n;
		len -= n;
	}
	return 0;
}

int elf_contains(const struct elf_file *f, const char *bytes, unsigned long max)
{
	Elf64_Xword total = 0;
	char *buf;
	int rc = 0;

	for (unsigned i = 0; i < f->eh.e_phnum; i++)
		if (f->ph[i].p_type == PT_LOAD && !(f->ph[i].p_flags & PF_W))
			total += f->ph[i].p_filesz < max ? f->ph[i].p_filesz : max;
	if (total > max)
		return -EFBIG;
	buf = malloc(SCAN_CHUNK + strlen(bytes));
	if (!buf)
		return -ENOMEM;
	for (unsigned i = 0; rc == 0 && i < f->eh.e_phnum; i++) {
		const Elf64_Phdr *ph = &f->ph[i];

		if (ph->p_type == PT_LOAD && !(ph->p_flags & PF_W))
			rc = scan_range(f, ph->p_offset, ph->p_filesz, buf, bytes);
	}
	free(buf);
	return rc;
}

/* Does a string of the first len bytes at buf start with prefix? */
static bool strings_have(const char *buf, size_t len, const char *prefix)
{
	size_t plen = strlen(prefix);

	for (const char *s = buf, *end = buf + len; s < end; s += strnlen(s, (size_t)(end - s)) + 1)
		if ((size_t)(end - s) > plen && strncmp(s, prefix, plen) == 0)
			return true;
	return false;
}

int elf_dynstr_has(const struct elf_file *f, const char *prefix)
{
	struct verdefs v;
	size_t len;
	char *buf;
	int rc = read_dynamic(f, &v);

	if (rc < 0)
		return rc;
	len = v.strsz < DYNSTR_MAX ? v.strsz : DYNSTR_MAX;
	buf = malloc(len + 1);
	if (!buf)
		return -ENOMEM;
	rc = read_at(f, v.strtab, buf, len);
	buf[len] = '\0';
	if (rc == 0)
		rc = strings_have(buf, len, prefix);
	free(buf);
	return rc;
}
