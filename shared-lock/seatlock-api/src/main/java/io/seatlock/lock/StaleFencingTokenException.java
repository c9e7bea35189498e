package io.seatlock.lock;

/** Storage has already accepted a write with a newer fencing token for this resource. */
public class StaleFencingTokenException extends LockException {

    /** What the refused write guarded. */
    private final String resource;
    /** The refused writer's token. */
    private final FencingToken token;

    /**
     * A refused write.
     * @param resource       what the write guarded
     * @param token          the writer's token
     * @param newestAccepted the newest token storage had accepted
     */
    public StaleFencingTokenException(String resource, FencingToken token, long newestAccepted) {
        super("write to '" + resource + "' with fencing token " + token
                + " rejected: storage has already accepted token " + newestAccepted);
        this.resource = resource;
        this.token = token;
    }

    /**
     * A refused write, with why in the store's terms (a lease that expired or passed to a newer grant, say).
     * @param resource what the write guarded
     * @param token    the writer's token
     * @param why      why storage refused it
     */
    public StaleFencingTokenException(String resource, FencingToken token, String why) {
        super("write to '" + resource + "' with fencing token " + token + " rejected: " + why);
        this.resource = resource;
        this.token = token;
    }

    /**
     * What the refused write guarded.
     * @return the resource
     */
    public String resource() {
        return resource;
    }

    /**
     * The refused writer's token.
     * @return the stale token
     */
    public FencingToken token() {
        return token;
    }
}
