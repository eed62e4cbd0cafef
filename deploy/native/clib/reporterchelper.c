/* The builder's progress report asks two things of the machine it runs on (JNI, com.oracle.svm.hosted.ProgressReporterCHelper). */
#include <jni.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <unistd.h>

/* The terminal's width in columns, 0 when stdout is not a terminal (the report then keeps its default width). */
JNIEXPORT jint JNICALL Java_com_oracle_svm_hosted_ProgressReporterCHelper_getTerminalWindowColumns0(JNIEnv *env, jclass c) {
  struct winsize size;
  return ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 ? size.ws_col : 0;
}

/* The builder's peak resident set size in bytes (Linux counts ru_maxrss in KiB), -1 if unknown. */
JNIEXPORT jlong JNICALL Java_com_oracle_svm_hosted_ProgressReporterCHelper_getPeakRSS0(JNIEnv *env, jclass c) {
  struct rusage usage;
  return getrusage(RUSAGE_SELF, &usage) == 0 ? (jlong) usage.ru_maxrss * 1024 : -1;
}
