package com.example.mariadbonly;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/** A user's own service on MariaDB alone: its tickets, and the lock's leases, in one database. */
@SpringBootApplication
public class MariaDbOnlyApplication {
}
