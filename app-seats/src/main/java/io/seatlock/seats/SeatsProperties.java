package io.seatlock.seats;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Email;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.time.Duration;

/**
 * {@code seats.*}.
 *
 * @param holdTtl        how long the bouncer's lock on a seat lives if its holder vanishes
 * @param bouncerEnabled ask Redis first (true), or let PostgreSQL alone decide every attempt
 * @param relay          the e-mail outbox relay
 * @param mapMaxAge      how old a seat map may be before the next view refreshes it (every viewer of an
 *                       event shares one; a view never gets one older than {@link #MAP_NEVER_OLDER_THAN}); also
 *                       how often the map is pushed to pages that stream it
 * @param mapMaxViewers  how many pages this replica streams the map to at once; more get 503 and poll instead.
 *                       Each holds a connection (no thread), so keep it well below
 *                       {@code server.tomcat.max-connections} (8192), which bookings need too
 * @param mapStreamLifetime how long a page's map stream lasts before the replica ends it; the page's EventSource
 *                       then reconnects, to whichever replica the balancer picks, so streams spread again after a
 *                       deploy or a scale-out
 */
@ConfigurationProperties("seats")
@Validated
public record SeatsProperties(@DefaultValue("10s") @NotNull Duration holdTtl,
                              @DefaultValue("true") boolean bouncerEnabled,
                              @DefaultValue @Valid Relay relay,
                              @DefaultValue("500ms") @NotNull Duration mapMaxAge,
                              @DefaultValue("4000") @Min(1) int mapMaxViewers,
                              @DefaultValue(DEFAULT_MAP_STREAM_LIFETIME) @NotNull Duration mapStreamLifetime) {

    /** The promise to viewers: a seat map served while another view refreshes it is at most this old. */
    public static final Duration MAP_NEVER_OLDER_THAN = Duration.ofSeconds(2);

    /** {@code seats.map-stream-lifetime} unless configured (also stated in the API's description). */
    public static final String DEFAULT_MAP_STREAM_LIFETIME = "10m";

    /** Checks what a record component constraint cannot say. */
    public SeatsProperties {
        if (mapMaxAge != null && mapMaxAge.compareTo(MAP_NEVER_OLDER_THAN) > 0) {
            throw new IllegalArgumentException("seats.map-max-age must not exceed " + MAP_NEVER_OLDER_THAN
                    + ", was " + mapMaxAge);
        }
        if (mapStreamLifetime != null && mapStreamLifetime.toMillis() < 1) {
            // the servlet container reads an async timeout of 0 or less as "never"
            throw new IllegalArgumentException("seats.map-stream-lifetime must be at least 1ms, was " + mapStreamLifetime);
        }
    }

    /**
     * Where {@code @Scheduled} reads these settings from (SpEL on this bean), so each is declared once, here.
     * The bean name is the one {@code @ConfigurationPropertiesScan} gives a properties record.
     */
    public static final String BEAN = "seats-io.seatlock.seats.SeatsProperties";

    /**
     * @param interval   pause between relay rounds
     * @param batchSize  rows sent per round, each claimed and marked on its own
     * @param claimLease how long a claimed row stays with its relay; longer than one send (SMTP timeouts)
     * @param maxBackoff   longest pause between attempts of a failing row (it is never given up), and longest
     *                     pause of a replica whose sends keep failing
     * @param failurePause how long a replica whose send failed stops claiming rows, so others deliver them;
     *                     doubles per consecutive failure up to max-backoff, and always outlasts the back-off the
     *                     failed row was given; back to none after a sent row
     * @param from         sender address
     */
    public record Relay(@DefaultValue("500ms") Duration interval,
                        @DefaultValue("20") @Min(1) @Max(500) int batchSize,
                        @DefaultValue("60s") @NotNull Duration claimLease,
                        @DefaultValue("10m") @NotNull Duration maxBackoff,
                        @DefaultValue("5s") @NotNull Duration failurePause,
                        @DefaultValue("tickets@seatlock.example") @Email String from) {
    }
}
