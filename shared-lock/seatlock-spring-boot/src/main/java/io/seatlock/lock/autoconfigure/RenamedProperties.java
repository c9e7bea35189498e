package io.seatlock.lock.autoconfigure;

import org.apache.commons.logging.Log;
import org.springframework.core.env.ConfigurableEnvironment;

import java.util.Map;

/**
 * Properties of seatlock's development versions that it no longer reads: one set still changes nothing, so the
 * start-up log names it and the property to use instead (the configuration metadata marks each deprecated too).
 */
final class RenamedProperties {

    /** Old name to new name; the values mean the same. */
    static final Map<String, String> RENAMED = Map.of(
            "seatlock.lock.shedlock", "seatlock.shedlock.enabled",
            "seatlock.jobs.enabled", "seatlock.slots.enabled");

    private RenamedProperties() {
    }

    static void warn(ConfigurableEnvironment environment, Log log) {
        RENAMED.forEach((old, current) -> {
            if (environment.containsProperty(old)) {
                log.warn("seatlock no longer reads the property " + old + ", which is set here and changes nothing: use "
                        + current + " instead.");
            }
        });
    }
}
