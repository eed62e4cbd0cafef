/* The one JNI function of the Temurin 25.0.3 class library that the static libraries (built from 25.0.2) lack:
 * java.io.Console asks which standard streams are terminals, as a bitmask (stdin 1, stdout 2, stderr 4). */
#include <jni.h>
#include <unistd.h>

JNIEXPORT jint JNICALL Java_java_io_Console_ttyStatus(JNIEnv *env, jclass console) {
  return (isatty(STDIN_FILENO) ? 1 : 0) | (isatty(STDOUT_FILENO) ? 2 : 0) | (isatty(STDERR_FILENO) ? 4 : 0);
}
