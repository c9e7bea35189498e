package example;

import io.seatlock.localservers.IsolatedServers;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** Starts {@link ExampleApplication} replicas on a test class's own database and key prefix, and closes them. */
final class ExampleReplicas implements AutoCloseable {

    private final IsolatedServers servers;
    private final List<ConfigurableApplicationContext> started = new ArrayList<>();

    ExampleReplicas(IsolatedServers servers) {
        this.servers = servers;
    }

    ConfigurableApplicationContext start(String instance, String... extra) {
        return startAll(List.of(instance), extra).get(0);
    }

    /** Starts the replicas at the same moment, as a deployment does. */
    List<ConfigurableApplicationContext> startAll(List<String> instances, String... extra) {
        ExecutorService pool = Executors.newFixedThreadPool(instances.size());
        try {
            List<Future<ConfigurableApplicationContext>> starting = new ArrayList<>();
            for (String instance : instances) {
                starting.add(pool.submit(() -> new SpringApplicationBuilder(ExampleApplication.class)
                        .run(arguments(instance, extra))));
            }
            List<ConfigurableApplicationContext> contexts = new ArrayList<>();
            for (Future<ConfigurableApplicationContext> f : starting) {
                contexts.add(f.get(2, TimeUnit.MINUTES));
            }
            synchronized (started) {
                started.addAll(contexts);
            }
            return contexts;
        } catch (Exception e) {
            throw new IllegalStateException("replicas did not start", e);
        } finally {
            pool.shutdownNow();
        }
    }

    private String[] arguments(String instance, String... extra) {
        Map<String, String> p = new HashMap<>(servers.springProperties());
        p.put("seatlock.lock.instance-id", instance);
        p.put("spring.flyway.locations", "classpath:db/example,classpath:db/seatlock");
        p.put("spring.main.web-application-type", "none");
        p.put("spring.main.banner-mode", "off");
        List<String> args = new ArrayList<>(p.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue()).toList());
        for (String e : extra) {
            args.add("--" + e);
        }
        return args.toArray(String[]::new);
    }

    @Override
    public void close() {
        synchronized (started) {
            started.forEach(ConfigurableApplicationContext::close);
        }
    }
}
