package io.concurrencylab.user;

import io.concurrencylab.error.DatabaseDeadline;
import io.concurrencylab.error.DatabaseFailures;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** Non-blocking access to {@link User} (Hibernate Reactive over the reactive MySQL client). */
@ApplicationScoped
public class ReactiveUserRepository implements PanacheRepositoryBase<User, String> {

    private final DatabaseDeadline deadline;

    ReactiveUserRepository(DatabaseDeadline deadline) {
        this.deadline = deadline;
    }

    public Uni<UserView> findViewByEmail(String email) {
        // The session is opened here rather than with @WithSession so that a failure to get a connection, which
        // happens when the session opens, is translated too, and the deadline bounds that wait as well.
        return deadline.bound(Panache.withSession(() -> findById(email)))
                .onFailure().transform(DatabaseFailures::translate)
                .onItem().ifNull().failWith(() -> User.notFound(email))
                .map(UserView::of);
    }
}
