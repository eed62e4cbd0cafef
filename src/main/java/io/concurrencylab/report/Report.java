package io.concurrencylab.report;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/** A row of {@code reports}: the one write of a report request (schema: db/migration/V2__reports.sql). */
@Entity
@Table(name = "reports")
public class Report {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    public String email;

    @Column(name = "city_users")
    public long cityUsers;

    @Column(name = "county_users")
    public long countyUsers;

    @Column(name = "created_at")
    public Instant createdAt;

    public static Report of(UserReport report) {
        Report row = new Report();
        row.email = report.email();
        row.cityUsers = report.cityUsers();
        row.countyUsers = report.countyUsers();
        row.createdAt = Instant.now();
        return row;
    }
}
