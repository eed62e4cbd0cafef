package io.concurrencylab.user;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;

/** Blocking access to {@link User} (Hibernate ORM over JDBC), shared by the virtual and worker models. */
@ApplicationScoped
public class UserRepository implements PanacheRepositoryBase<User, String> {

    public UserView findViewByEmail(String email) {
        return findByIdOptional(email).map(UserView::of).orElseThrow(() -> new UserNotFoundException(email));
    }
}
