package io.seatlock.seats;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.seatlock.localservers.IsolatedServers;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/** One running app-seats instance on its own port, sharing the test class's PostgreSQL and Redis. */
public final class SeatsReplica implements AutoCloseable {

    private static final HttpClient http = HttpClient.newHttpClient();

    private final ConfigurableApplicationContext context;
    private final int port;

    private SeatsReplica(ConfigurableApplicationContext context) {
        this.context = context;
        this.port = Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
    }

    public static SeatsReplica start(String name, IsolatedServers servers, int smtpPort, Map<String, String> extra,
                                     String... profiles) {
        return startWith(name, servers, smtpPort, null, extra, profiles);
    }

    /**
     * As above, with beans of the test's own registered first: a mail sender that injects a fault, or
     * {@link UnguardedReferee#install()}.
     */
    public static SeatsReplica startWith(String name, IsolatedServers servers, int smtpPort,
                                         Consumer<GenericApplicationContext> testBeans, Map<String, String> extra,
                                         String... profiles) {
        Map<String, String> properties = new HashMap<>(servers.springProperties());
        properties.put("server.port", "0");
        properties.put("spring.mail.host", "127.0.0.1");
        properties.put("spring.mail.port", Integer.toString(smtpPort));
        properties.put("seatlock.lock.instance-id", name);
        properties.put("seats.relay.interval", "100ms");
        properties.putAll(extra);
        SpringApplicationBuilder builder = new SpringApplicationBuilder(SeatsApplication.class).profiles(profiles);
        if (testBeans != null) {
            builder.initializers(c -> testBeans.accept((GenericApplicationContext) c));
        }
        // As command-line arguments, so they win over application.yml.
        String[] args = properties.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue())
                .toArray(String[]::new);
        return new SeatsReplica(builder.run(args));
    }

    public HttpResponse<String> book(String event, String seat, String json) {
        return postBooking(event, seat, json);
    }

    /** A booking with these headers, given as name, value, name, value... (a name given twice sends two lines). */
    public HttpResponse<String> postBooking(String event, String seat, String json, String... headers) {
        return post("/api/events/" + event + "/seats/" + seat + "/booking", json, headers);
    }

    /** A JSON body to {@code path}, with these headers as in {@link #postBooking}. */
    public HttpResponse<String> post(String path, String json, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json");
        for (int i = 0; i + 1 < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return send(request.POST(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    /** A booking with an {@code Idempotency-Key} header, as a client that may retry sends it. */
    public HttpResponse<String> book(String event, String seat, String buyer, String name, String idempotencyKey) {
        return postBooking(event, seat, "{\"buyer\":\"" + buyer + "\",\"name\":\"" + name + "\"}",
                "Idempotency-Key", idempotencyKey);
    }

    public HttpResponse<String> book(String event, String seat, String buyer, String name) {
        return book(event, seat, "{\"buyer\":\"" + buyer + "\",\"name\":\"" + name + "\"}");
    }

    public HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(uri(path)).GET().build());
    }

    /** A GET with headers, given as name, value, name, value... */
    public HttpResponse<String> get(String path, String... headers) {
        return send(HttpRequest.newBuilder(uri(path)).headers(headers).GET().build());
    }

    public URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    public double counter(String name, String... tags) {
        var counter = context.getBean(MeterRegistry.class).find(name).tags(tags).counter();
        return counter == null ? 0 : counter.count();
    }

    /** How many times the timers with these tags recorded (served requests, say, of any status unless one is named). */
    public long timed(String name, String... tags) {
        return context.getBean(MeterRegistry.class).find(name).tags(tags).timers().stream().mapToLong(Timer::count).sum();
    }

    public double gauge(String name) {
        return context.getBean(MeterRegistry.class).get(name).gauge().value();
    }

    public ConfigurableApplicationContext context() {
        return context;
    }

    static HttpResponse<String> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        context.close();
    }
}
