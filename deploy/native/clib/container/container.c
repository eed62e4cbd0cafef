/* The image's view of the cgroup it runs in (cgroup v1 or v2): its CPU quota and its memory limit and use, as the
 * builder's Java side asks for them (ContainerLibrary: svm_container_*). HotSpot's own cgroup code does the same for
 * a JVM; this is a small reading of the same files. A value of -1 means "no limit", -2 "cannot be read".
 * Tests point lab_container_use_proc at a fake /proc/self (its cgroup and mountinfo name the fake cgroup tree). */
#define _GNU_SOURCE
#include <limits.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The Java side's ABI version and its answers (ContainerLibrary.java). */
#define LAB_CONTAINER_VERSION 240100
#define LAB_NOT_CONTAINERIZED 0
#define LAB_CONTAINERIZED 1
#define LAB_LIBRARY_TOO_OLD 2
#define LAB_LIBRARY_TOO_NEW 3

#define NO_LIMIT (-1)
#define UNREADABLE (-2)

typedef struct {
  char cpu[PATH_MAX];    /* the process's folder of the cpu controller, "" when there is none */
  char memory[PATH_MAX]; /* ... of the memory controller */
  char cpu_root[PATH_MAX], memory_root[PATH_MAX]; /* the mount points: a limit is looked for up to them */
  int v2;
} cgroup_paths;

static cgroup_paths paths;

/* Where /proc/self/cgroup and /proc/self/mountinfo are read from: a copy, so the caller's string may go away. */
static char proc_dir[PATH_MAX] = "/proc/self";

/* The test hook: dir stands in for /proc/self from the next svm_container_initialize on; NULL restores it. */
void lab_container_use_proc(const char *dir) {
  snprintf(proc_dir, sizeof(proc_dir), "%s", dir != NULL ? dir : "/proc/self");
}

/* A file of /proc/self, or of the folder the test hook named, opened for reading. */
static FILE *open_proc(const char *name) {
  char path[PATH_MAX + 16];
  snprintf(path, sizeof(path), "%s/%s", proc_dir, name);
  return fopen(path, "r");
}

long long svm_container_memory_limit_in_bytes(void);

/* Whether a comma-separated list (of controllers, of mount options) holds name. */
static int listed(const char *list, const char *name) {
  size_t n = strlen(name);
  for (const char *p = list; p != NULL && *p != '\0'; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
    if (strncmp(p, name, n) == 0 && (p[n] == ',' || p[n] == '\0')) {
      return 1;
    }
  }
  return 0;
}

/* The cgroup of this process for a v1 controller, or its v2 cgroup when controller is NULL (/proc/self/cgroup). */
static int own_cgroup(const char *controller, char *out, size_t size) {
  FILE *f = open_proc("cgroup");
  if (f == NULL) {
    return 0;
  }
  char line[4096];
  int found = 0;
  while (!found && fgets(line, sizeof(line), f) != NULL) {
    char *list = strchr(line, ':'), *path = list ? strchr(list + 1, ':') : NULL;
    if (path == NULL) {
      continue;
    }
    *path++ = '\0';
    list++;
    path[strcspn(path, "\n")] = '\0';
    if (controller == NULL ? *list == '\0' : listed(list, controller)) {
      snprintf(out, size, "%s", path);
      found = 1;
    }
  }
  fclose(f);
  return found;
}

/* Where the controller's hierarchy is mounted (/proc/self/mountinfo) and the folder of cgroup path in it. */
static int locate(const char *controller, const char *cgroup, char *dir, char *root) {
  FILE *f = open_proc("mountinfo");
  if (f == NULL) {
    return 0;
  }
  char line[4096];
  int found = 0;
  while (!found && fgets(line, sizeof(line), f) != NULL) {
    char mount_root[PATH_MAX], mount_point[PATH_MAX], fs[64], options[1024];
    char *sep = strstr(line, " - ");
    if (sep == NULL || sscanf(line, "%*d %*d %*s %4095s %4095s", mount_root, mount_point) != 2
        || sscanf(sep + 3, "%63s %*s %1023s", fs, options) != 2) {
      continue;
    }
    int v2 = strcmp(fs, "cgroup2") == 0;
    if (!(controller == NULL ? v2 : strcmp(fs, "cgroup") == 0)) {
      continue;
    }
    if (controller != NULL && !listed(options, controller)) {
      continue;
    }
    /* the mount shows the hierarchy from mount_root down: a container sees its own cgroup as "/" */
    size_t n = strlen(mount_root);
    /* a group outside the mount's root (/docker/abcdef beside /docker/abc) is read at the mount point */
    const char *below = strcmp(mount_root, "/") == 0 ? cgroup
                        : strncmp(cgroup, mount_root, n) == 0 && (cgroup[n] == '/' || cgroup[n] == '\0') ? cgroup + n
                        : "";
    snprintf(root, PATH_MAX, "%s", mount_point);
    snprintf(dir, PATH_MAX, "%s%s", mount_point, below);
    found = 1;
  }
  fclose(f);
  return found;
}

/* A number from a cgroup file: "max" is no limit; 0 when the file cannot be read. */
static int read_value(const char *dir, const char *file, long long *value) {
  char path[PATH_MAX + 64], text[128];
  snprintf(path, sizeof(path), "%s/%s", dir, file);
  FILE *f = fopen(path, "r");
  if (f == NULL) {
    return 0;
  }
  char *ok = fgets(text, sizeof(text), f);
  fclose(f);
  if (ok == NULL) {
    return 0;
  }
  *value = strncmp(text, "max", 3) == 0 ? NO_LIMIT : atoll(text);
  return 1;
}

/* One field of memory.stat (anon, file, rss, cache); UNREADABLE when absent. */
static long long stat_field(const char *name) {
  char path[PATH_MAX + 16], line[256];
  snprintf(path, sizeof(path), "%s/memory.stat", paths.memory);
  FILE *f = fopen(path, "r");
  long long value = UNREADABLE;
  size_t n = strlen(name);
  while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
    if (strncmp(line, name, n) == 0 && line[n] == ' ') {
      value = atoll(line + n + 1);
      break;
    }
  }
  if (f != NULL) {
    fclose(f);
  }
  return value;
}

static long long physical_memory(void) {
  return (long long) sysconf(_SC_PHYS_PAGES) * sysconf(_SC_PAGESIZE);
}

/* A memory limit of the process's cgroup or of one above it (the lowest wins), NO_LIMIT when there is none.
 * cgroup v1 writes "no limit" as a huge number, so anything at or above the machine's memory counts as none. */
static long long memory_limit(const char *file) {
  if (paths.memory[0] == '\0') {
    return UNREADABLE;
  }
  char dir[PATH_MAX];
  snprintf(dir, sizeof(dir), "%s", paths.memory);
  long long lowest = NO_LIMIT, value;
  for (;;) {
    if (read_value(dir, file, &value) && value > 0 && value < physical_memory() && (lowest < 0 || value < lowest)) {
      lowest = value;
    }
    char *slash = strrchr(dir, '/');
    if (strcmp(dir, paths.memory_root) == 0 || slash == NULL || slash == dir) {
      return lowest;
    }
    *slash = '\0';
  }
}

/* The CPU quota in CPUs (rounded up) of the process's cgroup or one above it, 0 when there is none. */
static int quota_cpus(void) {
  if (paths.cpu[0] == '\0') {
    return 0;
  }
  char dir[PATH_MAX];
  snprintf(dir, sizeof(dir), "%s", paths.cpu);
  int lowest = 0;
  for (;;) {
    long long quota = NO_LIMIT, period = 0;
    if (paths.v2) {
      char path[PATH_MAX + 16], text[64];
      snprintf(path, sizeof(path), "%s/cpu.max", dir);
      FILE *f = fopen(path, "r");
      if (f != NULL) {
        if (fgets(text, sizeof(text), f) != NULL && strncmp(text, "max", 3) != 0) {
          sscanf(text, "%lld %lld", &quota, &period);
        }
        fclose(f);
      }
    } else {
      read_value(dir, "cpu.cfs_quota_us", &quota);
      read_value(dir, "cpu.cfs_period_us", &period);
    }
    if (quota > 0 && period > 0) {
      int cpus = (int) ((quota + period - 1) / period);
      if (lowest == 0 || cpus < lowest) {
        lowest = cpus;
      }
    }
    char *slash = strrchr(dir, '/');
    if (strcmp(dir, paths.cpu_root) == 0 || slash == NULL || slash == dir) {
      return lowest;
    }
    *slash = '\0';
  }
}

static int affinity_cpus(void) {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    return CPU_COUNT(&set);
  }
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (int) n : 1;
}

/* "Containerized" here means the process has a CPU quota or a memory limit of its own to honour, in a container or a
 * cgroup made by hand (a CPU budget): the image then sizes itself from those, as a JVM does. */
int svm_container_initialize(int version) {
  if (version > LAB_CONTAINER_VERSION) {
    return LAB_LIBRARY_TOO_OLD;
  }
  if (version < LAB_CONTAINER_VERSION) {
    return LAB_LIBRARY_TOO_NEW;
  }
  char cgroup[PATH_MAX];
  memset(&paths, 0, sizeof(paths));
  if (own_cgroup("cpu", cgroup, sizeof(cgroup))) {
    locate("cpu", cgroup, paths.cpu, paths.cpu_root);
  }
  if (own_cgroup("memory", cgroup, sizeof(cgroup))) {
    locate("memory", cgroup, paths.memory, paths.memory_root);
  }
  if (paths.cpu[0] == '\0' && paths.memory[0] == '\0' && own_cgroup(NULL, cgroup, sizeof(cgroup))
      && locate(NULL, cgroup, paths.cpu, paths.cpu_root)) {
    paths.v2 = 1;
    strcpy(paths.memory, paths.cpu);
    strcpy(paths.memory_root, paths.cpu_root);
  }
  int limited = quota_cpus() > 0 || memory_limit(paths.v2 ? "memory.max" : "memory.limit_in_bytes") > 0;
  return limited ? LAB_CONTAINERIZED : LAB_NOT_CONTAINERIZED;
}

/* The memory this process may use: its cgroup's limit where it has one (what a JVM calls physical memory in a
 * container; the image sizes its heap from it), else the machine's. */
long long svm_container_physical_memory(void) {
  long long limit = svm_container_memory_limit_in_bytes();
  return limit > 0 ? limit : physical_memory();
}

long long svm_container_memory_limit_in_bytes(void) {
  return memory_limit(paths.v2 ? "memory.max" : "memory.limit_in_bytes");
}

long long svm_container_memory_and_swap_limit_in_bytes(void) {
  long long memory = svm_container_memory_limit_in_bytes();
  if (!paths.v2) {
    long long both = memory_limit("memory.memsw.limit_in_bytes");
    return both > 0 ? both : memory;
  }
  long long swap = memory_limit("memory.swap.max");
  return memory > 0 && swap >= 0 ? memory + swap : memory;
}

long long svm_container_memory_soft_limit_in_bytes(void) {
  return memory_limit(paths.v2 ? "memory.low" : "memory.soft_limit_in_bytes");
}

static long long own_value(const char *file) {
  long long value;
  return paths.memory[0] != '\0' && read_value(paths.memory, file, &value) ? value : UNREADABLE;
}

long long svm_container_memory_usage_in_bytes(void) {
  return own_value(paths.v2 ? "memory.current" : "memory.usage_in_bytes");
}

long long svm_container_memory_max_usage_in_bytes(void) {
  return own_value(paths.v2 ? "memory.peak" : "memory.max_usage_in_bytes");
}

long long svm_container_rss_usage_in_bytes(void) {
  return stat_field(paths.v2 ? "anon" : "rss");
}

long long svm_container_cache_usage_in_bytes(void) {
  return stat_field(paths.v2 ? "file" : "cache");
}

/* The CPUs this process may use: its affinity mask, capped by its CPU quota (HotSpot's answer since JDK 19, which
 * no longer reads cpu.shares). */
int svm_container_active_processor_count(void) {
  int cpus = affinity_cpus(), quota = quota_cpus();
  return quota > 0 && quota < cpus ? quota : cpus;
}
