package io.seatlock.lock.spi;

import io.seatlock.lock.FencingToken;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.OverlapImpact;

import java.util.Objects;

/**
 * What every implementation's lease is the same in: the request it was granted for, its owner token and its fencing
 * token. The state (held, released, lost) and the clock are each implementation's own.
 */
public abstract class GrantedLease implements LockLease {

    private final LockSpec spec;
    private final String owner;
    private final FencingToken token;

    /**
     * A granted lease.
     *
     * @param spec  the checked request
     * @param owner the owner token the store keeps
     * @param token the grant's fencing token
     */
    protected GrantedLease(LockSpec spec, String owner, FencingToken token) {
        this.spec = Objects.requireNonNull(spec, "spec");
        this.owner = Objects.requireNonNull(owner, "owner");
        this.token = Objects.requireNonNull(token, "token");
    }

    /**
     * The checked request this lease was granted for.
     *
     * @return its name, ttl and impact
     */
    protected final LockSpec spec() {
        return spec;
    }

    @Override
    public final String name() {
        return spec.name();
    }

    @Override
    public final String ownerToken() {
        return owner;
    }

    @Override
    public final FencingToken fencingToken() {
        return token;
    }

    @Override
    public final OverlapImpact impact() {
        return spec.impact();
    }

    @Override
    public final boolean renew() {
        return renew(spec.ttl());
    }
}
