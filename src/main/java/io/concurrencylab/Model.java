package io.concurrencylab;

import java.util.Optional;

/**
 * The concurrency models, the one list of them in Java: each serves the same endpoints under {@code /{path}/...} from
 * its own package ({@code io.concurrencylab.virtual}, ...), its request code running on one kind of thread. The k6
 * scripts, the bench and the Prometheus rules list them too; {@code ModelListsTest} holds those lists to this one, and
 * docs/adding-a-model.md says what else a new model needs.
 */
public enum Model {

    VIRTUAL("virtual", RequestThread.VIRTUAL_THREAD),
    WORKER("worker", RequestThread.WORKER_THREAD),
    REACTIVE("reactive", RequestThread.EVENT_LOOP);

    /** Where a model runs its request code. */
    public enum RequestThread {
        /** A virtual thread per request ({@code @RunOnVirtualThread}). */
        VIRTUAL_THREAD,
        /** A thread of Quarkus' worker pool ({@code @Blocking}). */
        WORKER_THREAD,
        /** The Vert.x event loop that received the request (code that returns {@code Uni}). */
        EVENT_LOOP
    }

    private final String path;
    private final RequestThread runsOn;
    private final String packageName;

    Model(String path, RequestThread runsOn) {
        this.path = path;
        this.runsOn = runsOn;
        this.packageName = Model.class.getPackageName() + "." + path;
    }

    /** The first segment of the model's URLs, and the last of its package's name. */
    public String path() {
        return path;
    }

    public RequestThread runsOn() {
        return runsOn;
    }

    /** The model whose package holds a resource class, if any. */
    public static Optional<Model> ofResource(Class<?> resource) {
        for (Model model : values()) {
            if (model.packageName.equals(resource.getPackageName())) {
                return Optional.of(model);
            }
        }
        return Optional.empty();
    }
}
