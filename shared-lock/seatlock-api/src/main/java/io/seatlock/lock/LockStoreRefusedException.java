package io.seatlock.lock;

/**
 * The lock's store answered and turned the lock down: a login or a permission refused, or a TLS handshake that
 * failed. Unlike an outage, no retry mends it: a setting must be fixed. Callers that treat any
 * {@link LockUnavailableException} alike need not tell it apart; health checks and logs say it as what it is.
 */
public class LockStoreRefusedException extends LockUnavailableException {
    /**
     * The store refused the lock.
     * @param message which lock group, and what the store said (never a credential)
     * @param cause   the client's error
     */
    public LockStoreRefusedException(String message, Throwable cause) {
        super(message, cause);
    }
}
