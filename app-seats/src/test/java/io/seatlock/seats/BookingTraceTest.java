package io.seatlock.seats;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetupTest;
import io.micrometer.tracing.test.simple.SimpleSpan;
import io.micrometer.tracing.test.simple.SimpleTracer;
import io.seatlock.localservers.IsolatedServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An operator follows a booking in its trace: with Micrometer Tracing on the class path, the seat's acquire is a child
 * span of the request's, and the lease it held is one too.
 */
class BookingTraceTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("BookingTraceTest");

    private static final GreenMail mail = new GreenMail(ServerSetupTest.SMTP.dynamicPort());
    private static final SimpleTracer tracer = new SimpleTracer();
    private static SeatsReplica app;

    @BeforeAll
    static void start() {
        mail.start();
        app = SeatsReplica.startWith("traced", servers, mail.getSmtp().getPort(),
                context -> context.registerBean(SimpleTracer.class, () -> tracer), Map.of("seats.relay.interval", "1h"));
    }

    @AfterAll
    static void stop() {
        app.close();
        mail.stop();
    }

    @Test
    void theSeatsAcquireAndLeaseAreChildSpansOfTheBookingRequest() {
        HttpResponse<String> booked = app.book("concert", "9C", "ida@example.com", "Ida");
        assertThat(booked.statusCode()).isEqualTo(201);

        SimpleSpan request = await().atMost(Duration.ofSeconds(10)).until(() -> spans().stream()
                .filter(s -> s.getTags().getOrDefault("uri", "").equals("/api/events/{event}/seats/{seat}/booking"))
                .findFirst().orElse(null), java.util.Objects::nonNull);
        SimpleSpan acquire = spans().stream().filter(s -> s.getName().equals("seatlock acquire seat")).findFirst()
                .orElseThrow(() -> new AssertionError("no acquire span among " + names()));
        SimpleSpan lease = spans().stream().filter(s -> s.getName().equals("seatlock lease seat")).findFirst()
                .orElseThrow(() -> new AssertionError("no lease span among " + names()));

        assertThat(acquire.context().traceId()).isEqualTo(request.context().traceId());
        assertThat(acquire.context().parentId()).isEqualTo(request.context().spanId());
        assertThat(acquire.getTags()).containsEntry("seatlock.lock.group", "seat")
                .containsEntry("seatlock.outcome", "acquired").containsEntry("seatlock.lock.name", "seat:concert:9C");
        assertThat(lease.context().traceId()).isEqualTo(request.context().traceId());
        assertThat(lease.getTags()).containsEntry("seatlock.outcome", "released");
    }

    private static List<SimpleSpan> spans() {
        return List.copyOf(tracer.getSpans());
    }

    private static List<String> names() {
        return spans().stream().map(SimpleSpan::getName).toList();
    }
}
