package io.seatlock.lock;

/**
 * A number that grows with every grant of one lock name, so storage can reject a write from a holder
 * whose lease has since passed to someone else (Kleppmann's fencing token).
 *
 * <p>Tokens are strictly increasing per lock name and never reused; each implementation says how it keeps them
 * increasing when its store forgets the last one (a restart, a failover, a restored backup).
 *
 * @param value the token's number
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
