/* Small process and thread facts the image's Java side asks of C. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

extern char **environ;

char **getEnviron(void) {
  return environ;
}

void exitWithMessage(int status, const char *message) {
  fputs(message, stderr);
  exit(status);
}

pid_t getThreadId(void) {
  return (pid_t) syscall(SYS_gettid);
}

/* A thread's user CPU time in nanoseconds, from /proc (field 14, utime, in clock ticks); -1 when unreadable. */
long getThreadUserTimeSlow(pid_t tid) {
  char path[64], line[1024];
  snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int) tid);
  FILE *f = fopen(path, "r");
  if (f == NULL) {
    return -1;
  }
  char *ok = fgets(line, sizeof(line), f);
  fclose(f);
  /* the command name (field 2) may hold spaces and parentheses: the fields after it follow its last ')' */
  char *after = ok ? strrchr(line, ')') : NULL;
  unsigned long utime;
  if (after == NULL || sscanf(after + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu", &utime) != 1) {
    return -1;
  }
  return (long) (utime * (1000000000.0 / sysconf(_SC_CLK_TCK)));
}
