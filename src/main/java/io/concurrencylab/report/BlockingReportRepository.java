package io.concurrencylab.report;

import static io.concurrencylab.report.ReportQueries.CITY_AVERAGE_AGE;
import static io.concurrencylab.report.ReportQueries.CITY_USERS;
import static io.concurrencylab.report.ReportQueries.COUNTY_OLDEST;
import static io.concurrencylab.report.ReportQueries.COUNTY_USERS;
import static io.concurrencylab.report.ReportQueries.COUNTY_YOUNGEST;
import static io.concurrencylab.report.ReportQueries.REPORTS_BEFORE;
import static io.concurrencylab.report.ReportQueries.SAME_AGE;

import io.concurrencylab.error.DatabaseFailures;
import io.concurrencylab.user.BlockingUserRepository;
import io.concurrencylab.user.User;
import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

/**
 * The report in blocking style (Hibernate ORM over JDBC), for the virtual and worker models: one connection held
 * throughout.
 */
@ApplicationScoped
public class BlockingReportRepository implements PanacheRepositoryBase<Report, Long> {

    private final BlockingUserRepository users;

    BlockingReportRepository(BlockingUserRepository users) {
        this.users = users;
    }

    @Transactional
    public UserReport report(String email) {
        try {
            User user = users.findById(email);
            if (user == null) {
                throw User.notFound(email);
            }
            EntityManager em = getEntityManager();
            UserReport report = new UserReport(email, user.city, count(em, CITY_USERS, user.city),
                    em.createQuery(CITY_AVERAGE_AGE, Double.class).setParameter("value", user.city).getSingleResult(),
                    user.county, count(em, COUNTY_USERS, user.county),
                    age(em, COUNTY_YOUNGEST, user.county), age(em, COUNTY_OLDEST, user.county),
                    count(em, SAME_AGE, user.age), count(em, REPORTS_BEFORE, email));
            persist(Report.of(report));
            return report;
        } catch (RuntimeException e) {
            throw DatabaseFailures.translate(e);
        }
    }

    private static long count(EntityManager em, String query, Object value) {
        return em.createQuery(query, Long.class).setParameter("value", value).getSingleResult();
    }

    private static int age(EntityManager em, String query, Object value) {
        return em.createQuery(query, Integer.class).setParameter("value", value).getSingleResult();
    }
}
