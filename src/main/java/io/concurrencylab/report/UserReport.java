package io.concurrencylab.report;

/**
 * The JSON answer of {@code POST /{model}/users/me/report}: the token's user among the others, from eight reads and one
 * insert in one transaction. {@code reportsBefore} counts this user's earlier reports.
 */
public record UserReport(String email, String city, long cityUsers, double cityAverageAge, String county,
        long countyUsers, int countyYoungest, int countyOldest, long sameAge, long reportsBefore) {
}
