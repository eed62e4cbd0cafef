package io.concurrencylab.support;

import io.concurrencylab.Model.RequestThread;
import io.concurrencylab.aggregation.DownstreamCall;
import io.vertx.core.Context;
import jakarta.annotation.Priority;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Records on which kind of thread each downstream call is made (a test-only interceptor on the same binding as the
 * production one), and names the kind of the current thread for the repository spies of {@link ThreadModelTest}.
 */
@DownstreamCall
@Interceptor
@Priority(Interceptor.Priority.APPLICATION + 10)
public class ThreadRecorder {

    public static final List<String> DOWNSTREAM_CALLS = new CopyOnWriteArrayList<>();

    @AroundInvoke
    Object record(InvocationContext call) throws Exception {
        DOWNSTREAM_CALLS.add(call.getMethod().getName() + " on " + currentKind());
        return call.proceed();
    }

    /** virtual thread, worker thread, event loop, or the thread's own name if it is none of them. */
    public static String currentKind() {
        Thread thread = Thread.currentThread();
        if (thread.isVirtual()) {
            return name(RequestThread.VIRTUAL_THREAD);
        }
        if (Context.isOnEventLoopThread()) {
            return name(RequestThread.EVENT_LOOP);
        }
        if (thread.getName().startsWith("executor-thread-")) {
            return name(RequestThread.WORKER_THREAD);
        }
        return thread.getName();
    }

    /** "virtual thread", "worker thread", "event loop": how the recorded lists name a model's request thread. */
    static String name(RequestThread kind) {
        return kind.name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }
}
