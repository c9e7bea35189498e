package io.seatlock.lock.autoconfigure;

import org.apache.commons.logging.Log;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.env.ConfigurableEnvironment;

import java.util.Map;

/**
 * Properties of seatlock's development versions that it no longer reads: one set still changes nothing, so the
 * start-up log names it and the property to use instead (the configuration metadata marks each deprecated too).
 */
class RenamedProperties implements EnvironmentPostProcessor {

    /** Old name to new name; the values mean the same. */
    static final Map<String, String> RENAMED = Map.of(
            "seatlock.lock.shedlock", "seatlock.shedlock.enabled",
            "seatlock.jobs.enabled", "seatlock.slots.enabled");

    private final Log log;

    RenamedProperties(DeferredLogFactory logs) {
        this.log = logs.getLog(RenamedProperties.class);
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        RENAMED.forEach((old, current) -> {
            if (environment.containsProperty(old)) {
                log.warn("seatlock no longer reads the property " + old + ", which is set here and changes nothing: use "
                        + current + " instead.");
            }
        });
    }
}
