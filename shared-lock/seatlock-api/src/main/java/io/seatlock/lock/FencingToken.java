package io.seatlock.lock;

/**
 * A number that grows with every grant of one lock name, so storage can reject a write from a holder
 * whose lease has since passed to someone else (Kleppmann's fencing token).
 *
 * <p>Tokens are strictly increasing per lock name and never reused: the acquire script takes
 * {@code max(last token + 1, Redis server time in microseconds)}, so even a Redis restart that forgets
 * the last token does not hand out a smaller one (unless the Redis server's clock is behind the last grant's).
 */
public record FencingToken(long value) implements Comparable<FencingToken> {

    /**
     * Validates the token.
     *
     * @param value the token's number, positive
     * @throws IllegalArgumentException if {@code value} is not positive
     */
    public FencingToken {
        if (value <= 0) {
            throw new IllegalArgumentException("fencing token must be positive, was " + value);
        }
    }

    /**
     * Whether this token was granted after {@code other}.
     * @param other another token of the same lock name
     * @return true if this one is newer
     */
    public boolean isNewerThan(FencingToken other) {
        return value > other.value;
    }

    @Override
    public int compareTo(FencingToken other) {
        return Long.compare(value, other.value);
    }

    @Override
    public String toString() {
        return Long.toString(value);
    }
}
