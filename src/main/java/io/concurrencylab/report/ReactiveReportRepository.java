package io.concurrencylab.report;

import static io.concurrencylab.report.ReportQueries.CITY_AVERAGE_AGE;
import static io.concurrencylab.report.ReportQueries.CITY_USERS;
import static io.concurrencylab.report.ReportQueries.COUNTY_OLDEST;
import static io.concurrencylab.report.ReportQueries.COUNTY_USERS;
import static io.concurrencylab.report.ReportQueries.COUNTY_YOUNGEST;
import static io.concurrencylab.report.ReportQueries.REPORTS_BEFORE;
import static io.concurrencylab.report.ReportQueries.SAME_AGE;

import io.concurrencylab.error.DatabaseDeadline;
import io.concurrencylab.error.DatabaseFailures;
import io.concurrencylab.user.User;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.hibernate.reactive.mutiny.Mutiny;

/**
 * The report with Hibernate Reactive: the same statements, one after the other on the transaction's one connection (a
 * reactive session runs one statement at a time), then the insert, all in one transaction.
 */
@ApplicationScoped
public class ReactiveReportRepository implements PanacheRepositoryBase<Report, Long> {

    private final DatabaseDeadline deadline;

    ReactiveReportRepository(DatabaseDeadline deadline) {
        this.deadline = deadline;
    }

    public Uni<UserReport> report(String email) {
        return deadline.bound(Panache.withTransaction(() -> Panache.getSession()
                .chain(session -> session.find(User.class, email)
                        .onItem().ifNull().failWith(() -> User.notFound(email))
                        .chain(user -> readings(session, user))
                        .call(report -> session.persist(Report.of(report))))))
                .onFailure().transform(DatabaseFailures::translate);
    }

    private static Uni<UserReport> readings(Mutiny.Session session, User user) {
        Readings r = new Readings();
        return one(session, CITY_USERS, user.city, Long.class).invoke(v -> r.cityUsers = v)
                .chain(() -> one(session, CITY_AVERAGE_AGE, user.city, Double.class)).invoke(v -> r.cityAverageAge = v)
                .chain(() -> one(session, COUNTY_USERS, user.county, Long.class)).invoke(v -> r.countyUsers = v)
                .chain(() -> one(session, COUNTY_YOUNGEST, user.county, Integer.class)).invoke(v -> r.countyYoungest = v)
                .chain(() -> one(session, COUNTY_OLDEST, user.county, Integer.class)).invoke(v -> r.countyOldest = v)
                .chain(() -> one(session, SAME_AGE, user.age, Long.class)).invoke(v -> r.sameAge = v)
                .chain(() -> one(session, REPORTS_BEFORE, user.email, Long.class))
                .map(reportsBefore -> new UserReport(user.email, user.city, r.cityUsers, r.cityAverageAge, user.county,
                        r.countyUsers, r.countyYoungest, r.countyOldest, r.sameAge, reportsBefore));
    }

    private static <T> Uni<T> one(Mutiny.Session session, String query, Object value, Class<T> type) {
        return session.createSelectionQuery(query, type).setParameter("value", value).getSingleResult();
    }

    /** What the earlier statements read, while the next ones run. */
    private static final class Readings {
        long cityUsers;
        double cityAverageAge;
        long countyUsers;
        int countyYoungest;
        int countyOldest;
        long sameAge;
    }
}
