package io.seatlock.lock.autoconfigure;

import org.apache.commons.logging.Log;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.util.ClassUtils;

/**
 * {@link Boot4SeatlockEnvironmentPostProcessor} on Spring Boot 3.5, which knows post-processors by this older interface.
 * Spring Boot 4 still loads those too, and runs the other one: here this one does nothing.
 */
@SuppressWarnings("removal") // the interface Boot 3.5 has; Boot 4 marks it for removal and loads the other one
class Boot3SeatlockEnvironmentPostProcessor implements org.springframework.boot.env.EnvironmentPostProcessor {

    private static final String BOOT_4_INTERFACE = "org.springframework.boot.EnvironmentPostProcessor";

    private final Log log;

    Boot3SeatlockEnvironmentPostProcessor(DeferredLogFactory logs) {
        this.log = logs.getLog(RenamedProperties.class);
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (ClassUtils.isPresent(BOOT_4_INTERFACE, application.getClassLoader())) {
            return;
        }
        SpringRedisClientTimeouts.apply(environment, application.getClassLoader());
        RenamedProperties.warn(environment, log);
    }
}
