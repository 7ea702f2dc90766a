// SPDX-License-Identifier: GPL-2.0-or-later
/* The memory the calling process may still take under its memory cgroup:
 * the least, from its cgroup up to the hierarchy's root, of the limit less
 * the usage (v2: memory.max less memory.current; v1: memory.limit_in_bytes
 * less memory.usage_in_bytes). --measure checks it before it allocates, so
 * that a small cgroup refuses it instead of killing it. */
#include <errno.h>
#include <limits.h>
#include <mntent.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "libnumactl2.h"
#include "parse.h"
#include "sysfile/sysfile.h"

/* Is WORD one of the comma-separated LIST? */
static bool has_word(const char *list, const char *word)
{
	size_t len = strlen(word);

	for (const char *p = list; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (strncmp(p, word, len) == 0 && (p[len] == ',' || p[len] == '\0'))
			return true;
	return false;
}

/* This process's cgroup in the v1 memory hierarchy, or (V2) the unified one,
 * from /proc/self/cgroup ("ID:CONTROLLERS:PATH"). */
static int own_cgroup(bool v2, char *path, size_t len)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	char line[PATH_MAX + 128];
	int rc = -ENOENT;

	if (!f)
		return -errno;
	while (rc < 0 && fgets(line, sizeof(line), f)) {
		char *ctl = strchr(line, ':'), *p = ctl ? strchr(ctl + 1, ':') : NULL;

		if (!p)
			continue;
		*p++ = '\0';
		p[strcspn(p, "\n")] = '\0';
		if (v2 ? ctl[1] == '\0' : has_word(ctl + 1, "memory"))
			rc = snprintf(path, len, "%s", p) < (int)len ? 0 : -ENAMETOOLONG;
	}
	fclose(f);
	return rc;
}

/* Where that hierarchy is mounted, from /proc/self/mounts. */
static int hierarchy_mount(bool v2, char *dir, size_t len)
{
	FILE *f = setmntent("/proc/self/mounts", "re");
	struct mntent *m;
	int rc = -ENOENT;

	if (!f)
		return -errno;
	while (rc < 0 && (m = getmntent(f)))
		if (v2 ? strcmp(m->mnt_type, "cgroup2") == 0 :
			 strcmp(m->mnt_type, "cgroup") == 0 && hasmntopt(m, "memory"))
			rc = snprintf(dir, len, "%s", m->mnt_dir) < (int)len ? 0 : -ENAMETOOLONG;
	endmntent(f);
	return rc;
}

/* A byte count in DIR/NAME; "max" is no limit. false when there is none. */
static bool read_bytes(const char *dir, const char *name, unsigned long long *v)
{
	char path[PATH_MAX], buf[64];
	unsigned long n;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path) ||
	    sysfile_read_line(path, buf, sizeof(buf)) < 0)
		return false;
	if (strcmp(buf, "max") == 0) {
		*v = MEMCG_UNLIMITED;
		return true;
	}
	if (nc2_parse_ulong(buf, ULONG_MAX, &n) < 0)
		return false;
	*v = n;
	return true;
}

/* The least room from DIR up to ROOT, the hierarchy's mount. */
static unsigned long long room_up(char *dir, const char *root, const char *limit_file,
				  const char *usage_file)
{
	unsigned long long room = MEMCG_UNLIMITED, limit, usage;
	size_t root_len = strlen(root);

	for (;;) {
		char *slash;

		if (read_bytes(dir, limit_file, &limit) && limit != MEMCG_UNLIMITED &&
		    read_bytes(dir, usage_file, &usage)) {
			unsigned long long left = limit > usage ? limit - usage : 0;

			room = left < room ? left : room;
		}
		slash = strrchr(dir, '/');
		if (strlen(dir) <= root_len || !slash || (size_t)(slash - dir) < root_len)
			return room;
		*slash = '\0';
	}
}

/* One hierarchy's room; MEMCG_UNLIMITED where it is not mounted. */
static unsigned long long hierarchy_room(bool v2)
{
	char cg[PATH_MAX], root[PATH_MAX], dir[2 * PATH_MAX];

	if (own_cgroup(v2, cg, sizeof(cg)) < 0 || hierarchy_mount(v2, root, sizeof(root)) < 0)
		return MEMCG_UNLIMITED;
	snprintf(dir, sizeof(dir), "%s%s", root, strcmp(cg, "/") == 0 ? "" : cg);
	return v2 ? room_up(dir, root, "memory.max", "memory.current") :
		    room_up(dir, root, "memory.limit_in_bytes", "memory.usage_in_bytes");
}

unsigned long long nc2_memcg_room(void)
{
	unsigned long long v1 = hierarchy_room(false), v2 = hierarchy_room(true);

	return v1 < v2 ? v1 : v2;
}
