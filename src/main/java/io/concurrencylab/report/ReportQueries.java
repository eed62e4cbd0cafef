package io.concurrencylab.report;

/** The report's statements, shared by the blocking and the reactive stack (HQL over the one persistence unit). */
public final class ReportQueries {

    public static final String CITY_USERS = "select count(u) from User u where u.city = :value";
    public static final String CITY_AVERAGE_AGE = "select avg(u.age) from User u where u.city = :value";
    public static final String COUNTY_USERS = "select count(u) from User u where u.county = :value";
    public static final String COUNTY_YOUNGEST = "select min(u.age) from User u where u.county = :value";
    public static final String COUNTY_OLDEST = "select max(u.age) from User u where u.county = :value";
    public static final String SAME_AGE = "select count(u) from User u where u.age = :value";
    public static final String REPORTS_BEFORE = "select count(r) from Report r where r.email = :value";

    private ReportQueries() {
    }
}
