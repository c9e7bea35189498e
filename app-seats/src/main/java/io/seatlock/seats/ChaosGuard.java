package io.seatlock.seats;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.core.env.Environment;
import org.springframework.core.env.Profiles;
import org.springframework.stereotype.Component;

/** Refuses to start with fault injection switched on outside the explicit {@code chaos} profile. */
@Component
class ChaosGuard implements InitializingBean {

    private final SeatsProperties properties;
    private final Environment environment;

    ChaosGuard(SeatsProperties properties, Environment environment) {
        this.properties = properties;
        this.environment = environment;
    }

    @Override
    public void afterPropertiesSet() {
        if (properties.chaos().unguardedWrite() && !environment.acceptsProfiles(Profiles.of("chaos"))) {
            throw new IllegalStateException("seats.chaos.unguarded-write may only be set with the 'chaos' profile active");
        }
    }
}
