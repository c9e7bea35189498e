package io.seatlock.jobs;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/** An app-jobs replica in the test's JVM, its properties given as command-line arguments (above application.yml). */
public final class JobsReplica {

    private JobsReplica() {
    }

    public static ConfigurableApplicationContext start(Map<String, String> properties) {
        return start(new SpringApplicationBuilder(JobsApplication.class), properties);
    }

    /** {@code app}: {@link JobsApplication} with whatever the test adds to it. */
    public static ConfigurableApplicationContext start(SpringApplicationBuilder app, Map<String, String> properties) {
        return app.run(properties.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue())
                .toArray(String[]::new));
    }

    /**
     * Starts {@code count} replicas at the same moment, each on a thread of its own, as a rollout may: they race for
     * the migration gate, the schedule and the leader term.
     *
     * @param count      how many
     * @param namePrefix each replica's name is this and its number, from 1
     * @param start      starts the replica of a name
     * @return the replicas, in the order of their numbers
     */
    public static List<ConfigurableApplicationContext> startAtOnce(int count, String namePrefix,
                                                                   Function<String, ConfigurableApplicationContext> start)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(count);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<ConfigurableApplicationContext>> starting = new ArrayList<>();
            for (int i = 1; i <= count; i++) {
                String name = namePrefix + i;
                starting.add(pool.submit(() -> {
                    go.await();
                    return start.apply(name);
                }));
            }
            go.countDown();
            List<ConfigurableApplicationContext> started = new ArrayList<>();
            for (Future<ConfigurableApplicationContext> replica : starting) {
                started.add(replica.get(3, TimeUnit.MINUTES));
            }
            return started;
        } finally {
            pool.shutdown();
        }
    }

    /** The port a replica started with {@code server.port=0} listens on. */
    public static int port(ConfigurableApplicationContext replica) {
        return Integer.parseInt(replica.getEnvironment().getRequiredProperty("local.server.port"));
    }
}
