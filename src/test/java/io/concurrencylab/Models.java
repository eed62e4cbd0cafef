package io.concurrencylab;

import java.util.List;

/** The three concurrency models, as they appear in the URLs. Every behaviour is asserted for each. */
public final class Models {

    public static final List<String> ALL = List.of("virtual", "worker", "reactive");

    private Models() {
    }
}
