package io.seatlock.seats.seats;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.seatlock.seats.SeatsProperties;
import io.seatlock.seats.booking.SeatNotFound;
import io.seatlock.seats.seats.SeatMap.MapView;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The seat map pushed to open pages as server-sent events: a page that subscribes gets the whole map at once,
 * then a "change" event with the seats whose status changed whenever the map does, so an on-sale crowd costs a
 * replica one small write per viewer per change, not one request per viewer every 2 s. The maps are the shared
 * snapshots of {@link SeatMap}; each change is serialized once and written as the same bytes to every viewer of the
 * event, so Redis and PostgreSQL see no more than they do for viewers who poll.
 *
 * <p>No thread ever waits on a viewer: frames go out through the servlet container's non-blocking output. A
 * viewer whose connection cannot take more keeps one pending frame, replaced by newer ones, written once the
 * connection drains; one that has taken nothing for {@link #STUCK_AFTER_SECONDS} is closed. A frozen or black-holed
 * viewer therefore costs one frame of memory for a while, never a thread or another viewer's updates.
 */
@Component
class SeatMapStream implements SmartLifecycle {

    // Whole seconds, so that the API's description (an annotation) states the same figures.
    /** A viewer that could not take a frame for this long is closed (its page reconnects if it is alive). */
    static final int STUCK_AFTER_SECONDS = 10;
    /**
     * A comment line to a viewer that got nothing for this long: a page that went away is only noticed when a write
     * to it fails (the second after it left), and proxies close connections that stay quiet.
     */
    static final int HEARTBEAT_SECONDS = 5;
    /** Told to the page's EventSource with every whole map: how long to wait before reconnecting. */
    static final int RECONNECT_SECONDS = 2;
    /** The pushes never run more often than this, whatever {@code seats.map-max-age} is. */
    private static final Duration MIN_TICK = Duration.ofMillis(100);
    private static final byte[] HEARTBEAT_FRAME = ":\n\n".getBytes(StandardCharsets.US_ASCII);
    private static final Log log = LogFactory.getLog(SeatMapStream.class);

    private final SeatMap seatMap;
    private final Duration tick;
    private final int maxViewers;
    private final Duration lifetime;
    private final Map<String, Topic> topics = new ConcurrentHashMap<>();
    private final AtomicInteger viewers = new AtomicInteger();
    private volatile ScheduledExecutorService pushes;

    SeatMapStream(SeatMap seatMap, SeatsProperties properties, MeterRegistry meters) {
        this.seatMap = seatMap;
        this.tick = properties.mapMaxAge().compareTo(MIN_TICK) < 0 ? MIN_TICK : properties.mapMaxAge();
        this.maxViewers = properties.mapMaxViewers();
        this.lifetime = properties.mapStreamLifetime();
        Gauge.builder("seats.map.viewers", viewers, AtomicInteger::get)
                .description("pages this replica pushes the seat map to now").register(meters);
    }

    /**
     * Starts streaming the event's map on this request: validates, answers 200 with the first frame and returns;
     * the request stays open (asynchronously, holding no thread) until the viewer leaves, is stuck, or the stream's
     * lifetime ends.
     */
    void subscribe(String event, HttpServletRequest request, HttpServletResponse response) throws IOException {
        ScheduledExecutorService running = pushes;
        if (running == null) {
            throw new MapStreamFull("this replica is not streaming maps right now");
        }
        MapView first = seatMap.seats(event);
        if (!first.found()) {
            throw new SeatNotFound("event " + event);
        }
        if (viewers.incrementAndGet() > maxViewers) {
            viewers.decrementAndGet();
            throw new MapStreamFull("this replica streams the map to " + maxViewers + " viewers already");
        }
        Viewer viewer;
        try {
            response.setStatus(HttpServletResponse.SC_OK);
            response.setContentType("text/event-stream");
            response.setCharacterEncoding(StandardCharsets.UTF_8.name());
            response.setHeader("Cache-Control", "no-cache");
            response.setHeader("Connection", "close"); // an ended stream closes its connection: the page reconnects anew
            // The container's own request and response: Spring MVC's wrapper of the response guards writes for its own
            // async handling, which this is not.
            AsyncContext context = request.startAsync();
            context.setTimeout(lifetime.toMillis()); // the stream's end: onTimeout completes it
            viewer = new Viewer(event, context, context.getResponse().getOutputStream());
            context.addListener(viewer);
        } catch (IOException | RuntimeException e) {
            viewers.decrementAndGet();
            throw e;
        }
        byte[] firstFrame = frame(first);
        viewer.offer(first, firstFrame);
        topics.compute(event, (name, topic) -> {
            Topic joined = topic != null ? topic : new Topic(name);
            joined.viewers.add(viewer);
            if (joined.schedule == null) {
                joined.due = new Due(first, firstFrame, null, null); // the first push sends the change from this map
                joined.schedule = running.scheduleWithFixedDelay(() -> push(joined), tick.toMillis(), tick.toMillis(),
                        TimeUnit.MILLISECONDS);
            }
            return joined;
        });
        try {
            viewer.out.setWriteListener(viewer); // the container then calls onWritePossible, which writes the first frame
        } catch (RuntimeException e) {
            viewer.close();
            throw e;
        }
    }

    /** One round for one event: the current map to every viewer that has an older one; heartbeats; stuck viewers out. */
    private void push(Topic topic) {
        try {
            pushOnce(topic);
        } catch (RuntimeException e) { // a scheduled task that throws is never run again
            log.warn("seat map push for " + topic.event + " failed; the next round tries again", e);
        }
    }

    private void pushOnce(Topic topic) {
        MapView map;
        try {
            map = seatMap.seats(topic.event);
        } catch (RuntimeException e) {
            log.debug("seat map of " + topic.event + " not refreshed; its viewers keep the last one", e);
            map = null;
        }
        if (map != null && !map.found()) {
            topic.viewers.forEach(Viewer::close); // the event is gone; a page that reconnects hears 404
            return;
        }
        Due due = topic.due; // set when the topic was made, from its first viewer's map
        if (map != null && !map.etag().equals(due.map().etag())) {
            MapView current = map;
            byte[] change = seatMap.changes(due.map(), current)
                    .map(json -> frame(current.etag(), "change", json)).orElse(null);
            due = new Due(current, frame(current), due.map().etag(), change);
            topic.due = due;
        }
        long now = System.nanoTime();
        for (Viewer viewer : topic.viewers) {
            if (viewer.stuckFor(now) > TimeUnit.SECONDS.toNanos(STUCK_AFTER_SECONDS)) {
                viewer.close();
            } else if (!due.map().etag().equals(viewer.offeredEtag())) {
                if (due.change() == null || !viewer.offerChange(due.change(), due.changedFrom(), due.map().etag())) {
                    viewer.offer(due.map(), due.frame());
                }
            } else if (viewer.silentFor(now) > TimeUnit.SECONDS.toNanos(HEARTBEAT_SECONDS)) {
                viewer.heartbeat();
            }
        }
    }

    /** The whole map as one server-sent event: one data line, its ETag as the event id, and the reconnect delay. */
    private static byte[] frame(MapView map) {
        return frame(map.etag(), null, map.json());
    }

    /** One server-sent event: {@code data} on one line, {@code id} as its id, of type {@code event} (none: a whole map). */
    private static byte[] frame(String id, String event, byte[] data) {
        String kind = event == null ? "retry: " + TimeUnit.SECONDS.toMillis(RECONNECT_SECONDS) + "\n"
                : "event: " + event + "\n";
        byte[] head = (kind + "id: " + id + "\ndata: ").getBytes(StandardCharsets.US_ASCII);
        byte[] frame = new byte[head.length + data.length + 2];
        System.arraycopy(head, 0, frame, 0, head.length);
        System.arraycopy(data, 0, frame, head.length, data.length);
        frame[frame.length - 2] = '\n';
        frame[frame.length - 1] = '\n';
        return frame;
    }

    private void left(Viewer viewer) {
        viewers.decrementAndGet();
        topics.computeIfPresent(viewer.event, (name, topic) -> {
            topic.viewers.remove(viewer);
            if (!topic.viewers.isEmpty()) {
                return topic;
            }
            topic.schedule.cancel(false);
            return null;
        });
    }

    /**
     * The map a topic's viewers are due: whole, as a frame, and as the change from the map due before, when the two
     * list the same seats.
     */
    private record Due(MapView map, byte[] frame, String changedFrom, byte[] change) {
    }

    /** The viewers of one event on this replica, and the map they are due (only its push task sets it). */
    private static final class Topic {
        final String event;
        final Set<Viewer> viewers = ConcurrentHashMap.newKeySet();
        ScheduledFuture<?> schedule;
        volatile Due due;

        Topic(String event) {
            this.event = event;
        }
    }

    /**
     * One open page. Writes happen under its monitor, from the push task or the container's write callback, and never
     * block: {@code isReady()} false means the container calls {@link #onWritePossible()} once the connection drains.
     */
    private final class Viewer implements WriteListener, AsyncListener {
        final String event;
        final AsyncContext context;
        final ServletOutputStream out;
        private byte[] pending;
        private String offeredEtag;
        private boolean unflushed;
        private boolean closed;
        private boolean listening;
        private long notReadySince;
        private long lastWrite = System.nanoTime();

        Viewer(String event, AsyncContext context, ServletOutputStream out) {
            this.event = event;
            this.context = context;
            this.out = out;
        }

        /** Makes {@code frame}, the whole {@code map}, the next one written, replacing one not written yet. */
        void offer(MapView map, byte[] frame) {
            enqueue(frame, map.etag(), false);
        }

        /**
         * Writes {@code change} next if this viewer has, or is being written, exactly the map {@code from} and nothing
         * waits to be written; false if it needs the whole map instead.
         */
        boolean offerChange(byte[] change, String from, String to) {
            synchronized (this) {
                if (!closed && (pending != null || !from.equals(offeredEtag))) {
                    return false;
                }
            }
            enqueue(change, to, true);
            return true;
        }

        /** A comment line, unless a frame is still pending (which it must not replace). */
        void heartbeat() {
            enqueue(HEARTBEAT_FRAME, null, true);
        }

        private void enqueue(byte[] frame, String etag, boolean unlessPending) {
            boolean failed;
            synchronized (this) {
                if (closed || unlessPending && pending != null) {
                    return;
                }
                pending = frame;
                if (etag != null) {
                    offeredEtag = etag;
                }
                failed = listening && !drain(); // until the container's first callback, the output is not yet non-blocking
            }
            if (failed) {
                close();
            }
        }

        @Override
        public void onWritePossible() {
            boolean failed;
            synchronized (this) {
                listening = true;
                failed = !closed && !drain();
            }
            if (failed) {
                close();
            }
        }

        /** Writes what is pending while the connection takes it; false if the connection failed. */
        private boolean drain() {
            try {
                while (out.isReady()) {
                    if (unflushed) {
                        out.flush();
                        unflushed = false;
                    } else if (pending != null) {
                        out.write(pending);
                        pending = null;
                        unflushed = true;
                        lastWrite = System.nanoTime();
                    } else {
                        notReadySince = 0;
                        return true;
                    }
                }
                if (notReadySince == 0) {
                    notReadySince = System.nanoTime();
                }
                return true;
            } catch (IOException | RuntimeException e) {
                return false;
            }
        }

        synchronized String offeredEtag() {
            return offeredEtag;
        }

        /** How long this viewer's connection has been unable to take more (0 if it can). */
        synchronized long stuckFor(long now) {
            return notReadySince == 0 ? 0 : now - notReadySince;
        }

        synchronized long silentFor(long now) {
            return now - lastWrite;
        }

        /**
         * Ends the stream: the viewer leaves its topic, and the response completes. The container's error callbacks
         * call this too: a listener that leaves an errored request incomplete hands it to the container's error
         * handling (an error page, where an application has one).
         */
        void close() {
            forget();
            try {
                context.complete();
            } catch (IllegalStateException e) {
                // already completed
            }
        }

        /** The viewer leaves its topic (once); nothing more is written to it. */
        private void forget() {
            synchronized (this) {
                if (closed) {
                    return;
                }
                closed = true;
                pending = null;
            }
            left(this);
        }

        @Override
        public void onError(Throwable t) {
            close();
        }

        @Override
        public void onComplete(AsyncEvent event) {
            forget();
        }

        @Override
        public void onTimeout(AsyncEvent event) {
            close();
        }

        @Override
        public void onError(AsyncEvent event) {
            close();
        }

        @Override
        public void onStartAsync(AsyncEvent event) {
            // not restarted
        }
    }

    @Override
    public void start() {
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(2, runnable -> {
            Thread thread = new Thread(runnable, "seat-map-push");
            thread.setDaemon(true);
            return thread;
        });
        executor.setRemoveOnCancelPolicy(true);
        pushes = executor;
    }

    /** Ends every stream before the web server's graceful shutdown waits for open requests; pages reconnect elsewhere. */
    @Override
    public void stop() {
        ScheduledExecutorService running = pushes;
        pushes = null;
        if (running != null) {
            running.shutdownNow();
        }
        topics.values().forEach(topic -> topic.viewers.forEach(Viewer::close));
    }

    @Override
    public boolean isRunning() {
        return pushes != null;
    }
}
