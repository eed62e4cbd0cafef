/*
 * The attach listener's socket work, for an image built with jcmd support (quarkus.native.monitoring=jcmd): jcmd
 * drops .attach_pid<pid> and sends SIGQUIT; the image then listens on a Unix socket, /tmp/.java_pid<pid>, for its
 * commands. Only a peer of the image's own user (or root) is served.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

static bool trusted(uid_t uid, gid_t gid, bool check_gid) {
  return uid == 0 || (uid == geteuid() && (!check_gid || gid == getegid()));
}

static int stat_retrying(const char *path, struct stat *st) {
  int rc;
  while ((rc = stat(path, st)) == -1 && errno == EINTR) {
  }
  return rc;
}

/* A socket file left by an earlier process of the same pid would be mistaken for ours. */
void svm_attach_startup(char *path) {
  struct stat st;
  if (stat_retrying(path, &st) == 0) {
    unlink(path);
  }
}

void svm_attach_listener_cleanup(int listener, char *path) {
  if (listener != -1) {
    shutdown(listener, SHUT_RDWR);
    close(listener);
  }
  if (path != NULL) {
    unlink(path);
  }
}

/* False once someone removed the socket file: the listener must then be made again. */
bool svm_attach_check_socket_file(char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

/* The trigger file counts only if the image's own user (or root) made it. */
bool svm_attach_is_init_trigger(char *path) {
  struct stat st;
  return stat_retrying(path, &st) == 0 && trusted(st.st_uid, 0, false);
}

/*
 * Binds under a temporary name, readable and writable by the owner alone, then renames it into place: jcmd never sees
 * a socket it may not use yet. The listening descriptor, or -1.
 */
int svm_attach_create_listener(char *path) {
  struct sockaddr_un address;
  char staging[sizeof(address.sun_path)];
  if (snprintf(staging, sizeof(staging), "%s.tmp", path) >= (int) sizeof(staging)) {
    return -1;
  }
  int listener = socket(AF_UNIX, SOCK_STREAM, 0);
  if (listener == -1) {
    return -1;
  }
  memset(&address, 0, sizeof(address));
  address.sun_family = AF_UNIX;
  memcpy(address.sun_path, staging, strlen(staging) + 1);
  unlink(staging);
  bool ready = bind(listener, (struct sockaddr *) &address, sizeof(address)) == 0
      && listen(listener, 5) == 0
      && chmod(staging, S_IRUSR | S_IWUSR) == 0
      && chown(staging, geteuid(), getegid()) == 0
      && rename(staging, path) == 0;
  if (!ready) {
    close(listener);
    unlink(staging);
    return -1;
  }
  return listener;
}

/* The next connection from a trusted peer; others are closed unread. -1 when accepting fails. */
int svm_attach_wait_for_request(int listener) {
  for (;;) {
    int peer = accept(listener, NULL, NULL);
    if (peer == -1) {
      if (errno == EINTR) {
        continue;
      }
      return -1;
    }
    struct ucred credentials;
    socklen_t size = sizeof(credentials);
    if (getsockopt(peer, SOL_SOCKET, SO_PEERCRED, &credentials, &size) == 0
        && trusted(credentials.uid, credentials.gid, true)) {
      return peer;
    }
    close(peer);
  }
}

void svm_attach_shutdown_socket(int socket) {
  shutdown(socket, SHUT_RDWR);
}
