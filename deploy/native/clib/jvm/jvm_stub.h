/* A JVM_* function this libjvm does not implement: it names itself and aborts, so a reached stub is never silent. */
#ifndef LAB_JVM_STUB_H
#define LAB_JVM_STUB_H

#include <stdio.h>
#include <stdlib.h>

static inline void lab_jvm_unimplemented(const char *name) {
  fprintf(stderr, "%s: not implemented by this GraalVM home's libjvm (deploy/native/clib/jvm)\n", name);
  abort();
}

#define LAB_JVM_STUB(name) \
  __attribute__((visibility("default"))) void name(void) { lab_jvm_unimplemented(#name); }

#endif
