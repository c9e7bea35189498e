package io.seatlock.lock.redis;

/**
 * The one place the Redis key layout is written. Every key of a lock carries its name as the Redis Cluster
 * hash tag ({@code {name}}), so the lock, its fencing counter and its decided marker share one slot and the
 * scripts that touch them together are legal on a cluster.
 *
 * <ul>
 *   <li>{@code <prefix>lock:{<name>}}: the lock, holding the owner token, with the lease's ttl;</li>
 *   <li>{@code <prefix>fence:{<name>}}: the newest fencing token granted, kept an hour after its last lease;</li>
 *   <li>{@code <prefix>decided:{<name>}}: the "decided" marker a holder may leave on release;</li>
 *   <li>{@code <prefix>line:{<name>}} and {@code <prefix>line-alive:{<name>}}: the line of waiters in order of
 *   arrival ({@code acquireInOrder}), and until when each is taken to be alive, both sorted sets;</li>
 *   <li>{@code <prefix>released:{<name>}}: the pub/sub channel a release announces itself on when someone
 *   waits for the lock (not a key).</li>
 * </ul>
 *
 * @param prefix put before every key, e.g. {@code seatlock:}; no braces
 */
public record RedisKeys(String prefix) {

    private static final String LOCK = "lock:{";
    private static final String RELEASED = "released:{";
    /**
     * Lua: {@code released_channel(lock_key)}, the release channel of a lock key, for the scripts that announce a
     * release (so a release need not send it). A prefix has no braces, so a key's first brace opens the name.
     */
    static final String RELEASED_CHANNEL_LUA = """
            local function released_channel(lock_key)
              local brace = string.find(lock_key, '{', 1, true)
              return string.sub(lock_key, 1, brace - %d) .. '%s' .. string.sub(lock_key, brace + 1)
            end
            """.formatted(LOCK.length(), RELEASED);

    /**
     * Checks the prefix.
     *
     * @param prefix put before every key; no braces
     * @throws IllegalArgumentException if it is null or has braces
     */
    public RedisKeys {
        if (prefix == null || prefix.indexOf('{') >= 0 || prefix.indexOf('}') >= 0) {
            throw new IllegalArgumentException("key prefix must not be null or contain braces: " + prefix);
        }
    }

    /**
     * The lock's key.
     *
     * @param name the lock's name
     * @return {@code <prefix>lock:{<name>}}
     */
    public String lock(String name) {
        return prefix + LOCK + name + "}";
    }

    /**
     * The key of the lock's fencing counter.
     *
     * @param name the lock's name
     * @return {@code <prefix>fence:{<name>}}
     */
    public String fence(String name) {
        return prefix + "fence:{" + name + "}";
    }

    /**
     * The key of the line of waiters in order of arrival (a sorted set: each waiter by its arrival, in µs of Redis'
     * clock).
     *
     * @param name the lock's name
     * @return {@code <prefix>line:{<name>}}
     */
    public String line(String name) {
        return prefix + "line:{" + name + "}";
    }

    /**
     * The key of when each waiter in line is last taken to be alive (a sorted set: each waiter by a time of Redis'
     * clock in ms; one past it is dropped from the line).
     *
     * @param name the lock's name
     * @return {@code <prefix>line-alive:{<name>}}
     */
    public String lineAlive(String name) {
        return prefix + "line-alive:{" + name + "}";
    }

    /**
     * The key of the lock's decided marker.
     *
     * @param name the lock's name
     * @return {@code <prefix>decided:{<name>}}
     */
    public String decided(String name) {
        return prefix + "decided:{" + name + "}";
    }

    /**
     * The channel a release of the lock is announced on, when someone waits for it.
     *
     * @param name the lock's name
     * @return {@code <prefix>released:{<name>}}
     */
    public String released(String name) {
        return prefix + RELEASED + name + "}";
    }

    /** A PSUBSCRIBE pattern for every lock's release channel under this prefix. */
    String releasedPattern() {
        return globEscaped(prefix) + "released:*"; // as an ACL channel rule would be written (PSUBSCRIBE is checked literally)
    }

    /** The lock name inside a release channel, or null if the channel is not one. */
    String nameOfReleased(String channel) {
        String start = prefix + RELEASED;
        return channel.startsWith(start) && channel.endsWith("}") ? channel.substring(start.length(), channel.length() - 1) : null;
    }

    /** A SCAN pattern for the locks whose names start with {@code namePrefix}, every character of it taken literally. */
    String lockPattern(String namePrefix) {
        return globEscaped(prefix) + LOCK + globEscaped(namePrefix) + "*";
    }

    /** Key prefixes and names may hold characters that Redis patterns read as wildcards: {@code * ? [ ] \}. */
    private static String globEscaped(String text) {
        StringBuilder escaped = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') {
                escaped.append('\\');
            }
            escaped.append(c);
        }
        return escaped.toString();
    }

    /** The lock name inside a lock key. */
    String nameOfLock(String lockKey) {
        return lockKey.substring(prefix.length() + LOCK.length(), lockKey.length() - 1);
    }
}
