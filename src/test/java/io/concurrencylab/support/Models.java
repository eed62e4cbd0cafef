package io.concurrencylab.support;

import io.concurrencylab.Model;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The concurrency models as they appear in the URLs, from {@link Model}. Every behaviour is asserted for each. */
public final class Models {

    public static final List<String> ALL = Arrays.stream(Model.values()).map(Model::path).toList();

    /** Where each model must run its request code, as {@link ThreadRecorder#currentKind()} names the thread. */
    public static final Map<String, String> THREAD_KIND = Arrays.stream(Model.values())
            .collect(Collectors.toUnmodifiableMap(Model::path, model -> ThreadRecorder.name(model.runsOn())));

    private Models() {
    }
}
