package io.seatlock.lock.spi;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** For implementations: the default name of this process in owner tokens, elections and job records. */
public final class InstanceId {

    private InstanceId() {
    }

    /**
     * {@code <host>-<pid>}: unique per process even for replicas on one machine. The host is {@code HOSTNAME}
     * if set (a Kubernetes pod's name), else the local host name.
     *
     * @return this process's default instance id
     */
    public static String ofThisProcess() {
        return localHostName() + "-" + ProcessHandle.current().pid();
    }

    private static String localHostName() {
        String fromEnv = System.getenv("HOSTNAME");
        if (fromEnv != null && !fromEnv.isBlank()) {
            return fromEnv;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "unknown-host";
        }
    }
}
