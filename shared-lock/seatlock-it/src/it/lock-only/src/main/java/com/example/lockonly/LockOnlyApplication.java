package com.example.lockonly;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The smallest user: the starter, seatlock.lock.redis-url, nothing else. */
@SpringBootApplication
public class LockOnlyApplication {
}
