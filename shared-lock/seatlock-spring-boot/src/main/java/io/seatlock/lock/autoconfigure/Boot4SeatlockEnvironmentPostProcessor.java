package io.seatlock.lock.autoconfigure;

import org.apache.commons.logging.Log;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * What seatlock adds to the environment before the application context starts, on Spring Boot 4: Spring Data Redis'
 * client bounded as the lock is ({@link SpringRedisClientTimeouts}), and a warning for each property it no longer
 * reads ({@link RenamedProperties}).
 */
class Boot4SeatlockEnvironmentPostProcessor implements EnvironmentPostProcessor {

    private final Log log;

    Boot4SeatlockEnvironmentPostProcessor(DeferredLogFactory logs) {
        this.log = logs.getLog(RenamedProperties.class);
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        SpringRedisClientTimeouts.apply(environment, application.getClassLoader());
        RenamedProperties.warn(environment, log);
    }
}
