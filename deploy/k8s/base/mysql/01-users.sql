-- Run once by the MySQL image on an empty data directory (/docker-entrypoint-initdb.d), in Kubernetes
-- (ConfigMap mysql-init, generated from this file by deploy/k8s/base/kustomization.yaml) and in
-- deploy/compose.yaml. The app creates the same table itself if it is missing and seeds it when it is
-- empty: keep both definitions in step (io.concurrencylab.data.UserSeeder). Portable MySQL 8 / MariaDB.
CREATE DATABASE IF NOT EXISTS lab CHARACTER SET utf8mb4;
USE lab;
CREATE TABLE IF NOT EXISTS users (
  email varchar(255) NOT NULL PRIMARY KEY,
  first varchar(255),
  last varchar(255),
  city varchar(255),
  county varchar(255),
  age int
);
