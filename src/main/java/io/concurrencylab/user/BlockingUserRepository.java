package io.concurrencylab.user;

import io.concurrencylab.error.DatabaseFailures;
import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;

/** Blocking access to {@link User} (Hibernate ORM over JDBC), shared by the virtual and worker models. */
@ApplicationScoped
public class BlockingUserRepository implements PanacheRepositoryBase<User, String> {

    public UserView findViewByEmail(String email) {
        User user;
        try {
            user = findById(email);
        } catch (RuntimeException e) {
            throw DatabaseFailures.translate(e);
        }
        if (user == null) {
            throw User.notFound(email);
        }
        return UserView.of(user);
    }
}
