package io.seatlock.lock.redis;

import io.seatlock.lock.internal.Causes;

import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.concurrent.TimeoutException;

/**
 * Why Redis could not be used, in words an operator can act on, whatever the client library: refused, timed out
 * (connecting or waiting for an answer), an unknown host, a failed TLS handshake, a login Redis turned down. Read from
 * the whole chain of causes, since each client wraps the socket's own exception in one of its own.
 */
final class UnavailableReason {

    /** How Redis turns a login down: ACL users, a missing AUTH, a user without the right, the old single password. */
    private static final String[] LOGIN_REFUSALS = {"WRONGPASS", "NOAUTH", "NOPERM", "ERR INVALID PASSWORD"};

    private UnavailableReason() {
    }

    /**
     * @param error      what the call failed with
     * @param connecting whether the lock had never reached Redis yet (a time-out then is one of connecting)
     */
    static String of(Throwable error, boolean connecting) {
        String detail = withRootCause(error);
        boolean timedOut = false;
        for (Throwable cause : Causes.of(error)) { // Jedis keeps each address's refusal as a suppressed one
            String message = cause.getMessage() == null ? "" : cause.getMessage();
            String upper = message.toUpperCase(Locale.ROOT);
            int refusal = loginRefusalAt(upper);
            if (refusal >= 0) {
                return "authentication failed (" + message.substring(refusal) + ")";
            }
            if (cause instanceof javax.net.ssl.SSLException) {
                return "TLS handshake failed (" + message + ")";
            }
            if (cause instanceof ConnectException) {
                return "connection refused (" + detail + ")";
            }
            if (cause instanceof UnknownHostException) {
                return "unknown host (" + message + ")";
            }
            // Netty's ConnectTimeoutException is matched by name: the lock core does not depend on Netty
            timedOut |= cause instanceof TimeoutException || cause instanceof SocketTimeoutException
                    || cause.getClass().getSimpleName().equals("ConnectTimeoutException") || upper.contains("TIMED OUT");
        }
        if (timedOut) {
            return (connecting ? "timed out connecting (" : "timed out waiting for an answer (") + detail + ")";
        }
        return detail;
    }

    /**
     * Whether Redis answered and turned the lock down in a way no retry mends: a login or a permission refused, or a
     * TLS handshake that failed (a certificate not trusted, no protocol or cipher in common). A fix of the settings is
     * needed; an outage, however long, heals by itself.
     */
    static boolean isRefusal(Throwable error) {
        for (Throwable cause : Causes.of(error)) {
            String message = cause.getMessage() == null ? "" : cause.getMessage();
            if (loginRefusalAt(message.toUpperCase(Locale.ROOT)) >= 0
                    || cause instanceof javax.net.ssl.SSLHandshakeException) {
                return true;
            }
        }
        return false;
    }

    /** Where in an upper-cased message Redis' login refusal starts, or -1. */
    private static int loginRefusalAt(String upper) {
        for (String refusal : LOGIN_REFUSALS) {
            int at = upper.indexOf(refusal);
            if (at >= 0) {
                return at;
            }
        }
        return -1;
    }

    /** The error's message, and its root cause's where that says more (clients wrap the socket's words). */
    private static String withRootCause(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String top = message(error);
        return root == error || top.contains(message(root)) ? top : top + ": " + message(root);
    }

    private static String message(Throwable error) {
        return error.getMessage() != null ? error.getMessage() : error.getClass().getName();
    }
}
