-- Article 003's report: several statements in one transaction, one of them an insert, so that a request holds
-- its pooled connection for a realistic time. The two indexes keep the city and county counts from scanning
-- the whole users table.
CREATE INDEX users_city ON users (city);
CREATE INDEX users_county ON users (county);
CREATE TABLE reports (
  id           BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
  email        VARCHAR(255) COLLATE utf8mb4_bin NOT NULL,
  city_users   BIGINT       NOT NULL,
  county_users BIGINT       NOT NULL,
  created_at   TIMESTAMP(3) NOT NULL,
  KEY reports_email (email)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
