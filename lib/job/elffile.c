/* Reading an ELF file the way the dynamic loader does: program headers,
 * the dynamic segment, and the tables it points at by address (mapped to
 * file offsets through the PT_LOAD segments). Every offset is checked
 * against the file's size: the file is the user's, not to be trusted. */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "job/elffile.h"

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define NATIVE_DATA ELFDATA2LSB
#else
#define NATIVE_DATA ELFDATA2MSB
#endif

static bool in_file(const struct elf_file *f, Elf64_Off off, size_t len)
{
	return off <= f->size && len <= f->size - off;
}

static const Elf64_Ehdr *ehdr(const struct elf_file *f)
{
	return (const Elf64_Ehdr *)f->map;
}

static bool elf_valid(const struct elf_file *f)
{
	const Elf64_Ehdr *eh = ehdr(f);

	return f->size >= sizeof(*eh) && memcmp(eh->e_ident, ELFMAG, SELFMAG) == 0 &&
	       eh->e_ident[EI_CLASS] == ELFCLASS64 && eh->e_ident[EI_DATA] == NATIVE_DATA &&
	       eh->e_phentsize == sizeof(Elf64_Phdr) &&
	       in_file(f, eh->e_phoff, (size_t)eh->e_phnum * sizeof(Elf64_Phdr));
}

int elf_open(const char *path, struct elf_file *f)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;

	f->map = NULL;
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size < (off_t)sizeof(Elf64_Ehdr)) {
		close(fd);
		return -ENOEXEC;
	}
	f->size = (size_t)st.st_size;
	f->map = mmap(NULL, f->size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (f->map == MAP_FAILED) {
		f->map = NULL;
		return -errno;
	}
	if (elf_valid(f))
		return 0;
	elf_close(f);
	return -ENOEXEC;
}

void elf_close(struct elf_file *f)
{
	if (f->map)
		munmap((void *)f->map, f->size);
	f->map = NULL;
}

/* The first program header of type TYPE, or NULL. */
static const Elf64_Phdr *phdr_of(const struct elf_file *f, Elf64_Word type)
{
	const Elf64_Phdr *ph = (const Elf64_Phdr *)(f->map + ehdr(f)->e_phoff);

	for (unsigned i = 0; i < ehdr(f)->e_phnum; i++)
		if (ph[i].p_type == type)
			return &ph[i];
	return NULL;
}

int elf_interp(const struct elf_file *f, char *buf, size_t len)
{
	const Elf64_Phdr *ph = phdr_of(f, PT_INTERP);
	size_t n;

	if (!ph)
		return -ENOENT;
	if (!in_file(f, ph->p_offset, ph->p_filesz) || ph->p_filesz == 0)
		return -ENOEXEC;
	n = strnlen((const char *)f->map + ph->p_offset, ph->p_filesz);
	if (n >= len)
		return -ENAMETOOLONG;
	memcpy(buf, f->map + ph->p_offset, n);
	buf[n] = '\0';
	return n ? 0 : -ENOEXEC;
}

/* The file offset of the address ADDR (in a PT_LOAD segment's file part),
 * or 0 when none holds it (offset 0 is the ELF header, never a table). */
static Elf64_Off offset_of(const struct elf_file *f, Elf64_Addr addr)
{
	const Elf64_Phdr *ph = (const Elf64_Phdr *)(f->map + ehdr(f)->e_phoff);

	for (unsigned i = 0; i < ehdr(f)->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && addr >= ph[i].p_vaddr &&
		    addr - ph[i].p_vaddr < ph[i].p_filesz)
			return addr - ph[i].p_vaddr + ph[i].p_offset;
	return 0;
}

struct verdefs {
	Elf64_Off strtab, verdef;	/* file offsets */
	Elf64_Xword strsz, count;
};

/* DT_STRTAB, DT_STRSZ, DT_VERDEF and DT_VERDEFNUM from the dynamic segment:
 * 0, -ENOENT without one, -ENOEXEC without a string table in the file. */
static int read_dynamic(const struct elf_file *f, struct verdefs *v)
{
	const Elf64_Phdr *ph = phdr_of(f, PT_DYNAMIC);
	const Elf64_Dyn *d;

	memset(v, 0, sizeof(*v));
	if (!ph)
		return -ENOENT;
	if (!in_file(f, ph->p_offset, ph->p_filesz))
		return -ENOEXEC;
	d = (const Elf64_Dyn *)(f->map + ph->p_offset);
	for (size_t i = 0; i < ph->p_filesz / sizeof(*d) && d[i].d_tag != DT_NULL; i++) {
		if (d[i].d_tag == DT_STRTAB)
			v->strtab = offset_of(f, d[i].d_un.d_ptr);
		else if (d[i].d_tag == DT_STRSZ)
			v->strsz = d[i].d_un.d_val;
		else if (d[i].d_tag == DT_VERDEF)
			v->verdef = offset_of(f, d[i].d_un.d_ptr);
		else if (d[i].d_tag == DT_VERDEFNUM)
			v->count = d[i].d_un.d_val;
	}
	return v->strtab && in_file(f, v->strtab, v->strsz) ? 0 : -ENOEXEC;
}

/* The name of the version definition at OFF (its first Verdaux), or NULL. */
static const char *verdef_name(const struct elf_file *f, const struct verdefs *v,
			       const Elf64_Verdef *vd, Elf64_Off off)
{
	const Elf64_Verdaux *aux;
	const char *s;

	if (vd->vd_cnt == 0 || !in_file(f, off + vd->vd_aux, sizeof(*aux)))
		return NULL;
	aux = (const Elf64_Verdaux *)(f->map + off + vd->vd_aux);
	if (aux->vda_name >= v->strsz)
		return NULL;
	s = (const char *)f->map + v->strtab + aux->vda_name;
	return strnlen(s, v->strsz - aux->vda_name) < v->strsz - aux->vda_name ? s : NULL;
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
		const Elf64_Verdef *vd = (const Elf64_Verdef *)(f->map + off);
		const char *s;

		if (!in_file(f, off, sizeof(*vd)))
			return -ENOEXEC;
		s = verdef_name(f, &v, vd, off);
		if (!s)
			return -ENOEXEC;
		if (strcmp(s, name) == 0)
			return 1;
		if (vd->vd_next == 0)
			break;
		off += vd->vd_next;
	}
	return 0;
}

bool elf_contains(const struct elf_file *f, const char *bytes)
{
	return memmem(f->map, f->size, bytes, strlen(bytes)) != NULL;
}

bool elf_dynstr_has(const struct elf_file *f, const char *prefix)
{
	size_t len = strlen(prefix);
	struct verdefs v;
	const char *s, *end;

	if (read_dynamic(f, &v) < 0)
		return false;
	s = (const char *)f->map + v.strtab;
	end = s + v.strsz;
	for (; s < end; s += strnlen(s, (size_t)(end - s)) + 1)
		if ((size_t)(end - s) > len && strncmp(s, prefix, len) == 0)
			return true;
	return false;
}
