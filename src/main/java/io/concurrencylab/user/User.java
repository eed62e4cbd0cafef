package io.concurrencylab.user;

import io.concurrencylab.error.ErrorCode;
import io.concurrencylab.error.ServiceException;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A row of {@code users}, the table of article 001 (schema: db/migration). A plain JPA entity (no Panache
 * superclass) so that the blocking and the reactive repository can both map it in the one persistence unit.
 */
@Entity
@Table(name = "users")
public class User {

    @Id
    @Column(length = 255)
    public String email;

    public String first;

    public String last;

    public String city;

    public String county;

    public Integer age;

    /** The answer for a verified token whose user does not exist, in either repository. */
    public static ServiceException notFound(String email) {
        return new ServiceException(ErrorCode.USER_NOT_FOUND, "No user " + email);
    }
}
