/* The JDK's static libraries were built against glibc 2.38, whose headers map scanf and strtol to the C23 names
 * __isoc23_*. An older glibc (Debian 12 has 2.36) lacks those names; the C23 change (0b binary input) is not used by
 * the JDK's callers, so the classic functions serve them. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

long __isoc23_strtol(const char *s, char **end, int base) {
  return strtol(s, end, base);
}

int __isoc23_vsscanf(const char *s, const char *format, va_list args) {
  return vsscanf(s, format, args);
}

int __isoc23_sscanf(const char *s, const char *format, ...) {
  va_list args;
  va_start(args, format);
  int n = vsscanf(s, format, args);
  va_end(args);
  return n;
}

int __isoc23_fscanf(FILE *stream, const char *format, ...) {
  va_list args;
  va_start(args, format);
  int n = vfscanf(stream, format, args);
  va_end(args);
  return n;
}
