package io.seatlock.lock.redis;

import org.jspecify.annotations.Nullable;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Owner tokens: a random UUID-form value, then {@code @instance-id}, built in one buffer. Unique, not secret:
 * anyone who can read Redis can read the token anyway; SecureRandom would contend.
 */
final class OwnerTokens {

    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.ISO_8859_1);
    private static final int RANDOM_PART = 36;
    /**
     * What a waiter appends to the holder's owner token in Redis, so that the holder's release announces itself
     * (the holder's own compare accepts it; a lua string without quotes or backslashes).
     */
    static final String WAITED = "|waited";

    private final String suffix;
    /** The suffix as one byte per character, or null if the instance id has characters beyond Latin-1. */
    private final byte @Nullable [] latin1Suffix;

    OwnerTokens(String instanceId) {
        this.suffix = "@" + instanceId;
        this.latin1Suffix = StandardCharsets.ISO_8859_1.newEncoder().canEncode(suffix)
                ? suffix.getBytes(StandardCharsets.ISO_8859_1) : null;
    }

    /** Built in bytes, not chars: a Latin-1 string is stored as bytes, so this is the only copy made. */
    String next() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        byte[] token = new byte[RANDOM_PART + (latin1Suffix == null ? 0 : latin1Suffix.length)];
        long high = random.nextLong();
        long low = random.nextLong();
        hex(high >>> 32, token, 0, 8);
        token[8] = '-';
        hex(high >>> 16, token, 9, 4);
        token[13] = '-';
        hex(high, token, 14, 4);
        token[18] = '-';
        hex(low >>> 48, token, 19, 4);
        token[23] = '-';
        hex(low, token, 24, 12);
        if (latin1Suffix == null) {
            return new String(token, StandardCharsets.ISO_8859_1) + suffix;
        }
        System.arraycopy(latin1Suffix, 0, token, RANDOM_PART, latin1Suffix.length);
        return new String(token, StandardCharsets.ISO_8859_1);
    }

    /** The instance id inside an owner token as Redis holds it (the part after its '@', without a waiter's mark). */
    static String instanceOf(String ownerToken) {
        String token = ownerToken.endsWith(WAITED) ? ownerToken.substring(0, ownerToken.length() - WAITED.length()) : ownerToken;
        int at = token.indexOf('@');
        return at >= 0 ? token.substring(at + 1) : token;
    }

    private static void hex(long value, byte[] into, int at, int digits) {
        for (int i = digits - 1; i >= 0; i--) {
            into[at + i] = HEX[(int) (value & 0xF)];
            value >>>= 4;
        }
    }
}
