package io.seatlock.lock.redis.jedis;

import io.seatlock.lock.internal.DaemonThreads;
import org.jspecify.annotations.Nullable;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.providers.ConnectionProvider;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Makes a transport's connection provider by one shared attempt on a thread of its own (a Sentinel or Cluster provider
 * asks its nodes as it is made): callers each wait only until their own deadline; a failed attempt is forgotten, so
 * the next call makes another.
 */
final class SharedConnect {

    private static final ThreadFactory CONNECTING = DaemonThreads.named("seatlock-jedis-connect");

    private final Supplier<ConnectionProvider> connect;
    private final Consumer<ConnectionProvider> made;
    private final Duration connectTimeout;
    private final AtomicReference<@Nullable CompletableFuture<ConnectionProvider>> attempt = new AtomicReference<>();

    /**
     * @param connect        makes the provider
     * @param made           told the provider once made, before any caller gets it
     * @param connectTimeout named when a caller's deadline passes first
     */
    SharedConnect(Supplier<ConnectionProvider> connect, Consumer<ConnectionProvider> made, Duration connectTimeout) {
        this.connect = connect;
        this.made = made;
        this.connectTimeout = connectTimeout;
    }

    /** The provider, made now or by the attempt under way, by {@code deadline}. */
    ConnectionProvider await(long deadline) {
        CompletableFuture<ConnectionProvider> current;
        while (true) {
            current = attempt.get();
            if (current != null && !current.isCompletedExceptionally()) {
                break;
            }
            CompletableFuture<ConnectionProvider> fresh = new CompletableFuture<>();
            if (attempt.compareAndSet(current, fresh)) {
                // Whatever making it throws, an Error too (a class missing from the class path), fails this attempt
                // at once, and the next call makes another.
                CompletableFuture.supplyAsync(connect, command -> CONNECTING.newThread(command).start())
                        .whenComplete((provider, error) -> {
                            if (error != null) {
                                fresh.completeExceptionally(error); // get() below unwraps supplyAsync's CompletionException
                            } else {
                                made.accept(provider);
                                fresh.complete(provider);
                            }
                        });
                current = fresh;
                break;
            }
        }
        try {
            return current.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JedisConnectionException("interrupted while connecting", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime : new JedisConnectionException(e.getCause());
        } catch (TimeoutException e) {
            throw new JedisConnectionException("could not connect before the call's deadline (connect timeout "
                    + connectTimeout + ")");
        }
    }
}
