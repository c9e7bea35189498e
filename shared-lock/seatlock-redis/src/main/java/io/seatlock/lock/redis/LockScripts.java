package io.seatlock.lock.redis;

import io.seatlock.lock.redis.spi.RedisCommand;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * The Lua scripts of the lock, called by {@code EVALSHA}; a {@code NOSCRIPT} reply (after
 * {@code SCRIPT FLUSH} or a restart) makes the transport load the script again and retry once.
 * Pattern: https://redis.io/docs/latest/develop/clients/patterns/distributed-locks/
 */
enum LockScripts {

    /**
     * KEYS: lock, fence (same hash slot). ARGV: owner token, ttl ms, fence lifetime ms, the highest token
     * this client was granted for the name (0 if none). Returns the fencing token, or 0 if the lock is held.
     * The token is max(last token + 1, server time in microseconds, the client's highest + 1), so it stays
     * strictly increasing even if Redis forgets the fence; that is also why
     * the fence may expire a while after the last grant instead of piling up one key per name forever.
     */
    ACQUIRE("""
            if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
              return 0
            end
            """ + Fragments.GRANT),

    /**
     * ACQUIRE behind a look at the decided marker. KEYS: lock, fence, decided marker (one hash slot).
     * ARGV as ACQUIRE. Returns the fencing token; -1 if the marker is there (nothing taken); if the lock is
     * held, -(2 + its PTTL in ms), so a busy answer says how long the holder's lease still runs.
     */
    ACQUIRE_UNLESS_DECIDED("""
            if redis.call('EXISTS', KEYS[3]) == 1 then
              return -1
            end
            if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
              local pttl = redis.call('PTTL', KEYS[1])
              if pttl < 0 then pttl = 0 end
              return -2 - pttl
            end
            """ + Fragments.GRANT),

    /**
     * ACQUIRE for the first in line. KEYS: lock, fence, line, line-alive (one hash slot). ARGV as ACQUIRE, then the
     * waiter's id and how long (ms) it is taken to be alive after this call. Drops the waiters no longer alive, puts
     * this one in line if it is not (at Redis' time in µs), renews its life, and grants only when it is first in line
     * and the lock is free, taking it out of the line. Returns the fencing token, or 0.
     */
    ACQUIRE_IN_ORDER("""
            local t = redis.call('TIME')
            local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
            for _, gone in ipairs(redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', now_ms)) do
              redis.call('ZREM', KEYS[3], gone)
              redis.call('ZREM', KEYS[4], gone)
            end
            if not redis.call('ZSCORE', KEYS[3], ARGV[5]) then
              redis.call('ZADD', KEYS[3], tonumber(t[1]) * 1000000 + tonumber(t[2]), ARGV[5])
            end
            local alive = tonumber(ARGV[6])
            redis.call('ZADD', KEYS[4], now_ms + alive, ARGV[5])
            redis.call('PEXPIRE', KEYS[3], alive * 2)
            redis.call('PEXPIRE', KEYS[4], alive * 2)
            if redis.call('ZRANGE', KEYS[3], 0, 0)[1] ~= ARGV[5] then
              return 0
            end
            if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
              return 0
            end
            redis.call('ZREM', KEYS[3], ARGV[5])
            redis.call('ZREM', KEYS[4], ARGV[5])
            """ + Fragments.GRANT),

    /**
     * Takes a waiter out of the line (it gave up). KEYS: line, line-alive. ARGV: the waiter's id. Returns 1 if it
     * was in line.
     */
    LEAVE_LINE("""
            redis.call('ZREM', KEYS[2], ARGV[1])
            return redis.call('ZREM', KEYS[1], ARGV[1])
            """),

    /**
     * Leaves the decided marker, then compare-and-deletes as RELEASE. KEYS: lock, decided marker. ARGV: owner
     * token, marker ttl ms. The marker is set even if the lock is no longer ours: the work is
     * done either way.
     */
    RELEASE_DECIDED("""
            redis.call('SET', KEYS[2], '1', 'PX', ARGV[2])
            """ + Fragments.RELEASE),

    /**
     * Compare-and-delete, announcing the release on the lock's channel if someone waits. KEYS: lock. ARGV:
     * owner token. Returns 1 if it was ours and is gone.
     */
    RELEASE(Fragments.RELEASE),

    /**
     * Compare-and-PEXPIRE. KEYS: lock. ARGV: owner token, ttl ms. Returns 1 if it was ours (waited for or not).
     */
    EXTEND(Fragments.waited("""
            local holder = redis.call('GET', KEYS[1])
            if holder == ARGV[1] or holder == ARGV[1] .. WAITED then
              return redis.call('PEXPIRE', KEYS[1], ARGV[2])
            end
            return 0
            """)),

    /**
     * Marks a held lock as waited for, so that its release announces itself. KEYS: lock. Returns 1 if the lock
     * is held (now marked), 0 if it is free (nothing to wait for).
     */
    MARK_WAITED(Fragments.waited("""
            local holder = redis.call('GET', KEYS[1])
            if not holder then
              return 0
            end
            if string.sub(holder, -string.len(WAITED)) ~= WAITED then
              redis.call('SET', KEYS[1], holder .. WAITED, 'KEEPTTL')
            end
            return 1
            """));

    /**
     * The grant both acquire scripts end with, once the lock key is set: the token is
     * max(last + 1, server time in µs, the client's highest + 1), and the fence key is read and written in
     * one {@code SET ... GET} that also renews its lifetime. Only when the time does not win (a grant in the
     * same microsecond, a fence ahead of this server's clock, a client that saw a larger token before a
     * failover) does a second {@code SET} store the larger token. A value that is not a number counts as no
     * value, as a forgotten fence does. The server's microsecond is written as its seconds and its microseconds
     * padded to six digits, not through {@code string.format} (about a tenth of the script's time on Redis 7.0).
     */
    private static final class Fragments {
        /**
         * Compare-and-delete of KEYS[1] for owner ARGV[1]; a lock marked as waited for is announced on its
         * release channel (a lock nobody waits for costs no PUBLISH). Returns 1 if it was ours and is gone.
         */
        static final String RELEASE = waited(RedisKeys.RELEASED_CHANNEL_LUA + """
                local holder = redis.call('GET', KEYS[1])
                if holder == ARGV[1] then
                  return redis.call('DEL', KEYS[1])
                end
                if holder == ARGV[1] .. WAITED then
                  redis.call('DEL', KEYS[1])
                  redis.call('PUBLISH', released_channel(KEYS[1]), '')
                  return 1
                end
                return 0
                """);

        /** A script that knows the suffix a waiter appends to the holder's owner token (a Lua local, WAITED). */
        static String waited(String script) {
            return "local WAITED = '" + OwnerTokens.WAITED + "'\n" + script;
        }

        static final String GRANT = """
                local now = redis.call('TIME')
                local now_text = now[1] .. string.sub('00000', #now[2]) .. now[2]
                local now_us = tonumber(now_text)
                local last = tonumber(redis.call('SET', KEYS[2], now_text, 'PX', ARGV[3], 'GET'))
                local token = now_us
                if last and last >= token then
                  token = last + 1
                end
                local seen = tonumber(ARGV[4])
                if seen and seen >= token then
                  token = seen + 1
                end
                if token ~= now_us then
                  redis.call('SET', KEYS[2], string.format('%.0f', token), 'PX', ARGV[3])
                end
                return token
                """;
    }

    private final String source;
    private final String sha;

    LockScripts(String source) {
        this.source = source;
        this.sha = sha1(source);
    }

    /** The script with its keys and arguments, as a transport sends it ({@code EVALSHA}, loaded again on NOSCRIPT). */
    RedisCommand.Script command(List<String> keys, List<String> args) {
        return new RedisCommand.Script(sha, source, keys, args);
    }

    private static String sha1(String source) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(source.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required by every JVM", e);
        }
    }
}
