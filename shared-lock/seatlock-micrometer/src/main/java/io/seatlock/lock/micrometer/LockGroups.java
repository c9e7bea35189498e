package io.seatlock.lock.micrometer;

import io.seatlock.lock.spi.LockListeners;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The one cardinality rule of the lock's meters and observations: a lock's group (its name up to the first {@code :},
 * so {@code seat:14C} is group {@code seat}) is a tag value, and at most {@link #DEFAULT_MAX} groups (or the number
 * given) are tagged per application; the first ones seen keep their own tag, every further group is tagged
 * {@value #OVERFLOW}, and the first overflow is logged once. A per-item lock named {@code <group>:<item>} adds no
 * series; a name without a {@code :} is a group of its own, so per-item names of that kind ({@code order-42}) end in
 * {@value #OVERFLOW} after the cap. Share one instance between the metrics and the observations, so both tag the same
 * groups.
 */
public final class LockGroups {

    /** The most groups tagged by default: as Spring Boot's cap on HTTP URI tags, 100. */
    public static final int DEFAULT_MAX = 100;
    /** The tag of every group past the cap. */
    public static final String OVERFLOW = "other";

    private static final System.Logger LOG = System.getLogger(LockGroups.class.getName());

    private final int max;
    private final Set<String> tagged = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean warned = new AtomicBoolean();

    /** At most {@link #DEFAULT_MAX} groups. */
    public LockGroups() {
        this(DEFAULT_MAX);
    }

    /**
     * At most {@code max} groups.
     *
     * @param max the cap, at least 1
     * @throws IllegalArgumentException for a cap below 1
     */
    public LockGroups(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("the group cap must be at least 1, was " + max);
        }
        this.max = max;
    }

    /**
     * The tag of a lock's group.
     *
     * @param group the group, as a {@link io.seatlock.lock.LockListener} hears it
     * @return {@code group}, or {@value #OVERFLOW} once the cap's worth of other groups are tagged
     */
    public String tagOf(String group) {
        if (tagged.contains(group)) {
            return group;
        }
        if (tagged.size() < max) { // once full, a further group's every call takes no monitor
            synchronized (tagged) {
                if (tagged.size() < max) {
                    tagged.add(group);
                    return group;
                }
            }
        }
        if (warned.compareAndSet(false, true)) {
            LOG.log(System.Logger.Level.WARNING, "lock metrics and observations tag " + max + " groups, the most they "
                    + "tag; further groups ('" + group + "' first) are tagged " + OVERFLOW + ". A group is a lock name "
                    + "up to its first ':': name per-item locks <group>:<item>, as seat:14C");
        }
        return OVERFLOW;
    }

    /**
     * The tag of a lock name's group.
     *
     * @param name a lock name or a fence's resource
     * @return the tag of its group
     */
    public String tagOfName(String name) {
        return tagOf(LockListeners.groupOf(name));
    }
}
