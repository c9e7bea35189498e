package com.example.ownwrites;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/** A user's own service with its own tables: tickets, job captures, a leader's ledger. */
@SpringBootApplication
public class OwnWritesApplication {
}
