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
 * The least-privilege Redis ACL exactly as README.md documents it (its one {@code ACL SETUSER} line), so
 * tests prove the documented rules and not a copy that could drift from them.
 */
public final class DocumentedAcl {

    private DocumentedAcl() {
    }

    /** The words after {@code ACL SETUSER}: user name first, then the rules. */
    public static List<String> setUserArguments() {
        try {
            List<String> lines = Files.readAllLines(readme());
            String line = lines.stream().map(String::strip).filter(l -> l.startsWith("ACL SETUSER ")).findFirst()
                    .orElseThrow(() -> new IllegalStateException("README.md has no ACL SETUSER line"));
            List<String> words = Arrays.asList(line.split("\\s+"));
            return words.subList(2, words.size());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Creates the documented user on {@code redis} (a server the test owns). */
    public static void apply(RedisServer redis) {
        String reply = redis.with(r -> {
            CommandArgs<String, String> args = new CommandArgs<>(StringCodec.UTF8).add("SETUSER");
            setUserArguments().forEach(args::add);
            return r.dispatch(CommandType.ACL, new StatusOutput<>(StringCodec.UTF8), args);
        });
        if (!"OK".equals(reply)) {
            throw new IllegalStateException("ACL SETUSER answered " + reply);
        }
    }

    /** The password in the documented rule ({@code >secret}). */
    public static String password() {
        return setUserArguments().stream().filter(w -> w.startsWith(">")).findFirst().orElseThrow().substring(1);
    }

    private static Path readme() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("README.md");
            if (Files.exists(candidate) && Files.exists(dir.resolve("shared-lock"))) {
                return candidate;
            }
        }
        throw new IllegalStateException("README.md of the project not found above " + Path.of("").toAbsolutePath());
    }
}
