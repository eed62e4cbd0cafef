/* The JVM_* functions that the JDK's static libraries call on the paths a native image takes: sockets, time, errors.
 * A native image has no HotSpot; each one does here what HotSpot's does, on Linux. Signatures follow the JDK's jvm.h. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <jni.h>
#include <netdb.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* The JVM interface version of JDK 25 (jvm.h's JVM_INTERFACE_VERSION). */
JNIEXPORT jint JNICALL JVM_GetInterfaceVersion(void) {
  return 6;
}

/* The CPUs this process may run on: its affinity mask (cpusets), as HotSpot counts them. */
JNIEXPORT jint JNICALL JVM_ActiveProcessorCount(void) {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    return CPU_COUNT(&set);
  }
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (jint) n : 1;
}

/* The JDK's libraries are linked into the image, not loaded as shared objects. */
JNIEXPORT jboolean JNICALL JVM_IsStaticallyLinked(void) {
  return JNI_TRUE;
}

/* A symbol of a loaded library, or of the image itself (RTLD_DEFAULT: it is linked with --export-dynamic). */
JNIEXPORT void *JNICALL JVM_FindLibraryEntry(void *handle, const char *name) {
  return dlsym(handle, name);
}

JNIEXPORT jint JNICALL JVM_InitializeSocketLibrary(void) {
  return 0;
}

JNIEXPORT jint JNICALL JVM_Socket(jint domain, jint type, jint protocol) {
  return socket(domain, type, protocol);
}

JNIEXPORT jint JNICALL JVM_SocketClose(jint fd) {
  return close(fd);
}

JNIEXPORT jint JNICALL JVM_SocketShutdown(jint fd, jint howto) {
  return shutdown(fd, howto);
}

JNIEXPORT jint JNICALL JVM_Send(jint fd, char *buf, jint nBytes, jint flags) {
  return (jint) send(fd, buf, (size_t) nBytes, flags);
}

JNIEXPORT jint JNICALL JVM_Listen(jint fd, jint count) {
  return listen(fd, count);
}

JNIEXPORT jint JNICALL JVM_Connect(jint fd, struct sockaddr *him, jint len) {
  return connect(fd, him, (socklen_t) len);
}

JNIEXPORT jint JNICALL JVM_GetSockName(jint fd, struct sockaddr *him, int *len) {
  return getsockname(fd, him, (socklen_t *) len);
}

JNIEXPORT jint JNICALL JVM_GetSockOpt(jint fd, int level, int optname, char *optval, int *optlen) {
  return getsockopt(fd, level, optname, optval, (socklen_t *) optlen);
}

JNIEXPORT jint JNICALL JVM_SetSockOpt(jint fd, int level, int optname, const char *optval, int optlen) {
  return setsockopt(fd, level, optname, optval, (socklen_t) optlen);
}

/* 1 with the number of bytes readable without blocking in *pbytes, 0 on error (HotSpot's contract). */
JNIEXPORT jint JNICALL JVM_SocketAvailable(jint fd, jint *pbytes) {
  int n;
  if (ioctl(fd, FIONREAD, &n) < 0) {
    return 0;
  }
  *pbytes = n;
  return 1;
}

JNIEXPORT int JNICALL JVM_GetHostName(char *name, int namelen) {
  return gethostname(name, (size_t) namelen);
}

JNIEXPORT jlong JNICALL JVM_CurrentTimeMillis(JNIEnv *env, jclass ignored) {
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  return (jlong) now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

JNIEXPORT jlong JNICALL JVM_NanoTime(JNIEnv *env, jclass ignored) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (jlong) now.tv_sec * 1000000000 + now.tv_nsec;
}

/* Nanoseconds from offset_secs to now, or -1 when that does not fit in 2^32 seconds (java.lang.VM's contract). */
JNIEXPORT jlong JNICALL JVM_GetNanoTimeAdjustment(JNIEnv *env, jclass ignored, jlong offset_secs) {
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  jlong seconds = (jlong) now.tv_sec - offset_secs;
  if (seconds >= 0x100000000LL || seconds <= -0x100000000LL) {
    return -1;
  }
  return seconds * 1000000000 + now.tv_nsec;
}

JNIEXPORT void JNICALL JVM_BeforeHalt(void) {
}

JNIEXPORT void JNICALL JVM_Halt(jint code) {
  exit(code);
}

/* The text of the last error (errno) into buf; its length, or 0 when there is none. */
JNIEXPORT jint JNICALL JVM_GetLastErrorString(char *buf, int len) {
  if (errno == 0 || len <= 0) {
    return 0;
  }
  const char *text = strerror(errno);
  size_t n = strlen(text);
  if (n >= (size_t) len) {
    n = (size_t) len - 1;
  }
  memcpy(buf, text, n);
  buf[n] = '\0';
  return (jint) n;
}

JNIEXPORT jstring JNICALL JVM_GetTemporaryDirectory(JNIEnv *env) {
  return (*env)->NewStringUTF(env, "/tmp");
}

/* The image calls it once as it starts, which keeps this library linked in: nothing else to do. */
JNIEXPORT void JNICALL initialize(void) {
}

JNIEXPORT int jio_vsnprintf(char *str, size_t count, const char *fmt, va_list args) {
  if ((intptr_t) count <= 0) {
    return -1;
  }
  int n = vsnprintf(str, count, fmt, args);
  return n < 0 || (size_t) n >= count ? -1 : n;
}

JNIEXPORT int jio_snprintf(char *str, size_t count, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  int n = jio_vsnprintf(str, count, fmt, args);
  va_end(args);
  return n;
}

JNIEXPORT int jio_fprintf(FILE *stream, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  int n = vfprintf(stream, fmt, args);
  va_end(args);
  return n;
}

JNIEXPORT int jio_vfprintf(FILE *stream, const char *fmt, va_list args) {
  return vfprintf(stream, fmt, args);
}
