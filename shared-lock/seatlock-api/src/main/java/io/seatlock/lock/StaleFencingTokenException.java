package io.seatlock.lock;

/** Storage has already accepted a write with a newer fencing token for this resource. */
public class StaleFencingTokenException extends LockException {

    private final String resource;
    private final FencingToken token;

    public StaleFencingTokenException(String resource, FencingToken token, long newestAccepted) {
        super("write to '" + resource + "' with fencing token " + token
                + " rejected: storage has already accepted token " + newestAccepted);
        this.resource = resource;
        this.token = token;
    }

    public String resource() {
        return resource;
    }

    public FencingToken token() {
        return token;
    }
}
