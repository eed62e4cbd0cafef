/* The default time zone's ID as Linux knows it: $TZ, /etc/timezone, or the zoneinfo file /etc/localtime links to.
 * Returns a malloc'ed string the caller frees, or NULL (Java then uses GMT). tzmappings is for Windows: unused. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *zone_from_path(const char *path) {
  const char *marker = strstr(path, "zoneinfo/");
  return marker != NULL && marker[9] != '\0' ? strdup(marker + 9) : NULL;
}

char *SVM_FindJavaTZmd(const char *tzmappings, int length) {
  const char *tz = getenv("TZ");
  if (tz != NULL && *tz != '\0') {
    if (*tz == ':') {
      tz++;
    }
    char *zone = zone_from_path(tz);
    return zone != NULL ? zone : strdup(tz);
  }
  char line[256];
  FILE *f = fopen("/etc/timezone", "r");
  if (f != NULL) {
    char *ok = fgets(line, sizeof(line), f);
    fclose(f);
    if (ok != NULL) {
      line[strcspn(line, " \t\r\n")] = '\0';
      if (line[0] != '\0') {
        return strdup(line);
      }
    }
  }
  char target[PATH_MAX];
  ssize_t n = readlink("/etc/localtime", target, sizeof(target) - 1);
  if (n > 0) {
    target[n] = '\0';
    return zone_from_path(target);
  }
  return NULL;
}
