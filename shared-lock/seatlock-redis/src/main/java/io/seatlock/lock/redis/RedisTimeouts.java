package io.seatlock.lock.redis;

import io.seatlock.lock.internal.Durations;

import java.time.Duration;

/**
 * The two bounds of every Redis call of the lock. Connecting is bounded on its own: a replica that starts cold (class
 * loading, the client's threads, a TLS handshake, the first script load) may need far longer for its first connection
 * than a warm one needs for a command, and must not take that for a Redis that is down.
 *
 * <ul>
 *     <li>{@code connect}: how long the client may take to make a connection (TCP, TLS, login), and how long a call
 *     made before the lock first reached Redis waits for that connection, on top of its command timeout;</li>
 *     <li>{@code command}: how long any other call waits for its answer, a reconnect included.</li>
 * </ul>
 *
 * @param connect longest wait for a connection while the lock has never reached Redis; positive
 * @param command longest wait for an answer once it has; positive
 */
public record RedisTimeouts(Duration connect, Duration command) {

    /** The connect bound unless one is given: a cold replica beside others on a busy two-core machine meets it. */
    public static final Duration DEFAULT_CONNECT = Duration.ofSeconds(10);
    /** The command bound unless one is given. */
    public static final Duration DEFAULT_COMMAND = Duration.ofSeconds(2);

    /**
     * Checks both bounds.
     *
     * @param connect longest wait for a connection while the lock has never reached Redis; positive
     * @param command longest wait for an answer once it has; positive
     * @throws IllegalArgumentException unless both are positive
     */
    public RedisTimeouts {
        Durations.requirePositive(command, "the command timeout");
        Durations.requirePositive(connect, "the connect timeout");
    }

    /**
     * The given command bound, and {@link #DEFAULT_CONNECT} (or the command bound, where that is longer) to connect.
     *
     * @param command longest wait for an answer; positive
     * @return the bounds
     * @throws IllegalArgumentException unless {@code command} is positive
     */
    public static RedisTimeouts of(Duration command) {
        Durations.requirePositive(command, "the command timeout");
        return new RedisTimeouts(command.compareTo(DEFAULT_CONNECT) > 0 ? command : DEFAULT_CONNECT, command);
    }

}
