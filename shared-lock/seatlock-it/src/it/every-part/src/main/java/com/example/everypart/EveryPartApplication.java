package com.example.everypart;

import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import java.util.concurrent.atomic.AtomicInteger;

@SpringBootApplication
@EnableScheduling
@EnableSchedulerLock(defaultLockAtMostFor = "30s")
public class EveryPartApplication {

    /** Runs of the scheduled report, which ShedLock guards with seatlock's provider. */
    public static final AtomicInteger REPORTS = new AtomicInteger();

    @Scheduled(fixedDelay = 50)
    @SchedulerLock(name = "every-part-report", lockAtLeastFor = "0s")
    void report() {
        REPORTS.incrementAndGet();
    }

    public static void main(String[] args) {
        SpringApplication.run(EveryPartApplication.class, args);
    }
}
