/* sun.misc.Signal for the image: the C handler counts each signal and wakes the Java dispatcher thread, which waits on
 * a semaphore and then takes the pending signals one at a time. Only async-signal-safe calls run in the handler. */
#include <errno.h>
#include <semaphore.h>
#include <signal.h>
#include <stdbool.h>

static volatile long pending[NSIG];
static sem_t wakeup;
static bool opened;

static void count_signal(int signal) {
  if (signal > 0 && signal < NSIG) {
    __atomic_add_fetch(&pending[signal], 1, __ATOMIC_SEQ_CST);
    sem_post(&wakeup);
  }
}

int cSunMiscSignal_open(void) {
  if (opened) {
    return 0;
  }
  if (sem_init(&wakeup, 0, 0) != 0) {
    return -1;
  }
  opened = true;
  return 0;
}

int cSunMiscSignal_close(void) {
  if (!opened) {
    return 0;
  }
  opened = false;
  return sem_destroy(&wakeup);
}

int cSunMiscSignal_awaitSemaphore(void) {
  int r;
  while ((r = sem_wait(&wakeup)) != 0 && errno == EINTR) {
  }
  return r;
}

int cSunMiscSignal_signalSemaphore(void) {
  return sem_post(&wakeup);
}

bool cSunMiscSignal_signalRangeCheck(int index) {
  return index > 0 && index < NSIG;
}

/* A signal that arrived and was not taken yet (its count goes down by one), or -1 when there is none. */
int cSunMiscSignal_checkPendingSignal(void) {
  for (int signal = 1; signal < NSIG; signal++) {
    long n = __atomic_load_n(&pending[signal], __ATOMIC_SEQ_CST);
    while (n > 0) {
      if (__atomic_compare_exchange_n(&pending[signal], &n, n - 1, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
        return signal;
      }
    }
  }
  return -1;
}

typedef void (*signal_handler)(int);

signal_handler cSunMiscSignal_signalHandlerFunctionPointer(void) {
  return count_signal;
}
