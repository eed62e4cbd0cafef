package io.concurrencylab.support;

import java.util.List;
import java.util.Map;

/** The three concurrency models, as they appear in the URLs. Every behaviour is asserted for each. */
public final class Models {

    public static final List<String> ALL = List.of("virtual", "worker", "reactive");

    /** Where each model must run its request code, as {@link ThreadRecorder#currentKind()} names the thread. */
    public static final Map<String, String> THREAD_KIND = Map.of(
            "virtual", "virtual thread", "worker", "worker thread", "reactive", "event loop");

    private Models() {
    }
}
