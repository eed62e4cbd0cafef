package io.concurrencylab.user;

import io.concurrencylab.error.DatabaseFailures;
import io.concurrencylab.error.ErrorCode;
import io.concurrencylab.error.ServiceException;
import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;

/** Blocking access to {@link User} (Hibernate ORM over JDBC), shared by the virtual and worker models. */
@ApplicationScoped
public class UserRepository implements PanacheRepositoryBase<User, String> {

    public UserView findViewByEmail(String email) {
        User user;
        try {
            user = findById(email);
        } catch (RuntimeException e) {
            throw DatabaseFailures.translated(e);
        }
        if (user == null) {
            throw notFound(email);
        }
        return UserView.of(user);
    }

    /** The answer for a verified token whose user does not exist, shared with the reactive repository. */
    public static ServiceException notFound(String email) {
        return new ServiceException(ErrorCode.USER_NOT_FOUND, "No user " + email);
    }
}
