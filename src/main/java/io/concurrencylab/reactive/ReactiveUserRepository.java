package io.concurrencylab.reactive;

import io.concurrencylab.user.User;
import io.concurrencylab.user.UserNotFoundException;
import io.concurrencylab.user.UserView;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** Non-blocking access to {@link User} (Hibernate Reactive over the reactive MySQL client). */
@ApplicationScoped
public class ReactiveUserRepository implements PanacheRepositoryBase<User, String> {

    @WithSession
    public Uni<UserView> findViewByEmail(String email) {
        return findById(email)
                .onItem().ifNull().failWith(() -> new UserNotFoundException(email))
                .map(UserView::of);
    }
}
