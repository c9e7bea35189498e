package io.seatlock.lock.redis.jedis;

import io.seatlock.lock.redis.spi.RedisCommand;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.args.Rawable;

import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import java.util.List;

/**
 * {@code EVALSHA sha numkeys keys... args...} as Jedis writes it, each argument encoded once: Jedis' own wrappers for a
 * {@code String} or a {@code byte[]} copy it once more, and the hot path's allocation is mostly its arguments. The SHA
 * and the key count are encoded once, on their first use. Jedis' protocol writer reads a command through
 * {@link #size()} and {@link #iterator()} only, so the arguments live in an array of their own, refilled for each
 * script: each connection of the standalone pool keeps one (a connection sends one command at a time, and Jedis has
 * written the arguments out before {@code sendCommand} returns), where a {@link CommandArguments} per command cost a
 * list that grows as it is filled, about 0.2 KB a lock pair.
 */
final class EvalshaArguments extends CommandArguments implements Iterator<Rawable> {

    /** The lock's scripts' SHAs, encoded: a handful, each sent with every call of its script. */
    private static final Map<String, Argument> SHAS = new ConcurrentHashMap<>();
    private static final Argument[] KEY_COUNTS = IntStream.range(0, 4).mapToObj(n -> Argument.of(Integer.toString(n)))
            .toArray(Argument[]::new);

    /** Grown to the longest script call this instance has carried, so one made for a single call is just its size. */
    private Rawable[] arguments = new Rawable[0];
    private int size;
    private int next;

    EvalshaArguments() {
        super(Protocol.Command.EVALSHA);
    }

    /** These arguments, now for {@code script}. */
    EvalshaArguments fill(RedisCommand.Script script) {
        List<String> keys = script.keys();
        List<String> values = script.args();
        int needed = 3 + keys.size() + values.size();
        if (arguments.length < needed) {
            arguments = new Rawable[needed];
        }
        arguments[0] = Protocol.Command.EVALSHA;
        arguments[1] = SHAS.computeIfAbsent(script.sha(), Argument::of);
        arguments[2] = keys.size() < KEY_COUNTS.length ? KEY_COUNTS[keys.size()] : Argument.of(Integer.toString(keys.size()));
        int at = 3;
        for (int i = 0; i < keys.size(); i++) { // indexed: no iterator on the hot path
            arguments[at++] = Argument.of(keys.get(i));
        }
        for (int i = 0; i < values.size(); i++) {
            arguments[at++] = Argument.of(values.get(i));
        }
        size = needed;
        return this;
    }

    @Override
    public int size() {
        return size;
    }

    /** Itself, from the first argument: one reader at a time, the connection's. */
    @Override
    public Iterator<Rawable> iterator() {
        next = 0;
        return this;
    }

    @Override
    public boolean hasNext() {
        return next < size;
    }

    @Override
    public Rawable next() {
        if (next >= size) {
            throw new NoSuchElementException();
        }
        return arguments[next++];
    }

    /** A command argument Jedis writes as it is, without copying it. */
    private record Argument(byte[] raw) implements Rawable {
        static Argument of(String text) {
            return new Argument(text.getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public byte[] getRaw() {
            return raw;
        }
    }
}
