-- The users of article 001, looked up by the email claim of a token. Portable between MySQL 8 and
-- MariaDB 10.11/11.x. The character set is stated here, not left to the server's default (latin1 on a
-- default MariaDB), so that any valid email, ASCII or not, is an ordinary lookup; the key compares
-- exactly (binary), as a Java string does.
CREATE TABLE users (
  email  VARCHAR(255) COLLATE utf8mb4_bin NOT NULL PRIMARY KEY,
  first  VARCHAR(255),
  last   VARCHAR(255),
  city   VARCHAR(255),
  county VARCHAR(255),
  age    INT
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
