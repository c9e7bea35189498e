package io.seatlock.seats;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A page's EventSource, for tests: subscribes to a replica's seat-map stream and keeps every server-sent event it
 * gets, with no thread of its own (the JDK client hands it lines).
 */
final class MapStreamViewer implements AutoCloseable {

    /** One server-sent event: its type ("message" unless named), id and data line; {@code at} is when it arrived (nanoTime). */
    record Event(String type, String id, String data, long at) {
    }

    private static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static final Pattern SEAT = Pattern.compile("\\{\"seat\":\"([^\"]+)\",\"status\":\"([A-Z]+)\"}");

    private final List<Event> events = new CopyOnWriteArrayList<>();
    private final Map<String, String> seats = new ConcurrentHashMap<>();
    private final CompletableFuture<Void> ended = new CompletableFuture<>();
    private final HttpResponse.ResponseInfo response;
    private volatile Flow.Subscription subscription;

    MapStreamViewer(URI uri) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(uri).header("Accept", "text/event-stream").build();
        // The future sendAsync returns completes only with the body, i.e. when the stream ends; the head comes first.
        CompletableFuture<HttpResponse.ResponseInfo> head = new CompletableFuture<>();
        http.sendAsync(request, info -> {
            head.complete(info);
            return HttpResponse.BodySubscribers.fromLineSubscriber(new Lines());
        }).whenComplete((done, failed) -> head.completeExceptionally(
                failed != null ? failed : new IllegalStateException("the stream ended before its head")));
        response = head.get(10, TimeUnit.SECONDS);
    }

    int status() {
        return response.statusCode();
    }

    String header(String name) {
        return response.headers().firstValue(name).orElse(null);
    }

    List<Event> events() {
        return List.copyOf(events);
    }

    /**
     * A seat's status as the page would show it, every event applied in turn (the whole map, then the changes);
     * null before the first event.
     */
    String status(String seat) {
        return seats.get(seat);
    }

    /** Completes when the server ends the stream (or it fails). */
    CompletableFuture<Void> ended() {
        return ended;
    }

    @Override
    public void close() {
        Flow.Subscription s = subscription;
        if (s != null) {
            s.cancel();
        }
    }

    private final class Lines implements Flow.Subscriber<String> {
        private String type = "message";
        private String id;
        private String data;

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(String line) {
            if (line.isEmpty()) {
                if (data != null) {
                    for (Matcher m = SEAT.matcher(data); m.find(); ) {
                        seats.put(m.group(1), m.group(2));
                    }
                    events.add(new Event(type, id, data, System.nanoTime()));
                }
                data = null;
                type = "message";
            } else if (line.startsWith("event: ")) {
                type = line.substring(7);
            } else if (line.startsWith("id: ")) {
                id = line.substring(4);
            } else if (line.startsWith("data: ")) {
                data = line.substring(6);
            }
        }

        @Override
        public void onError(Throwable t) {
            ended.completeExceptionally(t);
        }

        @Override
        public void onComplete() {
            ended.complete(null);
        }
    }
}
