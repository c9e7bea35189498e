package io.seatlock.localservers;

import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The least-privilege Redis ACL exactly as docs/redis.md documents it (its one {@code ACL SETUSER} line), so
 * tests prove the documented rules and not a copy that could drift from them.
 */
public final class DocumentedAcl {

    private DocumentedAcl() {
    }

    /** The words after {@code ACL SETUSER} in the first such line of docs/redis.md: user name first, then the rules. */
    public static List<String> setUserArguments() {
        return setUserLines().get(0);
    }

    /** Creates the documented user on {@code redis} (a server the test owns). */
    public static void apply(RedisServer redis) {
        setUser(redis, setUserArguments());
    }

    /**
     * Creates the documented user on {@code node} of a Redis Cluster: the README's first line, then its second, which
     * adds what the clients need to read the cluster's layout.
     */
    public static void applyForCluster(RedisServer node) {
        List<List<String>> lines = setUserLines();
        if (lines.size() < 2) {
            throw new IllegalStateException("docs/redis.md has no second ACL SETUSER line, for a Redis Cluster");
        }
        setUser(node, lines.get(0));
        setUser(node, lines.get(1));
    }

    private static void setUser(RedisServer redis, List<String> arguments) {
        String reply = redis.with(r -> {
            CommandArgs<String, String> args = new CommandArgs<>(StringCodec.UTF8).add("SETUSER");
            arguments.forEach(args::add);
            return r.dispatch(CommandType.ACL, new StatusOutput<>(StringCodec.UTF8), args);
        });
        if (!"OK".equals(reply)) {
            throw new IllegalStateException("ACL SETUSER answered " + reply);
        }
    }

    /** Each {@code ACL SETUSER} line of docs/redis.md, as the words after {@code ACL SETUSER}, in order. */
    private static List<List<String>> setUserLines() {
        try {
            List<List<String>> lines = Files.readAllLines(readme()).stream().map(String::strip)
                    .filter(l -> l.startsWith("ACL SETUSER ")).map(l -> {
                        List<String> words = Arrays.asList(l.split("\\s+"));
                        return words.subList(2, words.size());
                    }).toList();
            if (lines.isEmpty()) {
                throw new IllegalStateException("docs/redis.md has no ACL SETUSER line");
            }
            return lines;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The password in the documented rule ({@code >secret}). */
    public static String password() {
        return setUserArguments().stream().filter(w -> w.startsWith(">")).findFirst().orElseThrow().substring(1);
    }

    private static Path readme() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("docs").resolve("redis.md");
            if (Files.exists(candidate) && Files.exists(dir.resolve("shared-lock"))) {
                return candidate;
            }
        }
        throw new IllegalStateException("docs/redis.md of the project not found above " + Path.of("").toAbsolutePath());
    }
}
