/* Fixed-argument doors to C functions with variable arguments, which the image's Java side cannot call directly. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>

int fprintfSD(FILE *stream, const char *format, char *arg0, int arg1) {
  return fprintf(stream, format, arg0, arg1);
}

int openSII(const char *pathname, int flags, int mode) {
  return open(pathname, flags, mode);
}

void *mremapP(void *old_address, size_t old_size, size_t new_size, int flags, void *new_address) {
  return mremap(old_address, old_size, new_size, flags, new_address);
}
