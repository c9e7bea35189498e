package com.example.shedlockuser;

import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** A ShedLock user: Spring Data Redis for its own use, ShedLock, and the starter for the provider. */
@SpringBootApplication
@EnableSchedulerLock(defaultLockAtMostFor = "PT30S")
public class ShedLockUserApplication {
}
