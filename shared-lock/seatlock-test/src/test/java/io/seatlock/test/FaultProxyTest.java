package io.seatlock.test;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class FaultProxyTest {

    /** A port nothing listens on: bound, then let go. */
    private static int freePort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0)) {
            return probe.getLocalPort();
        }
    }

    @Test
    void aTargetThatRefusesConnectionsIsARefusalForTheClientNotABlackHole() throws Exception {
        try (FaultProxy proxy = new FaultProxy("127.0.0.1", freePort())) {
            for (int attempt = 0; attempt < 2; attempt++) { // and the proxy still accepts after one
                try (Socket client = new Socket(proxy.host(), proxy.port())) {
                    client.setSoTimeout((int) Duration.ofSeconds(10).toMillis());
                    client.getOutputStream().write("PING\r\n".getBytes());
                    InputStream in = client.getInputStream();
                    // Closed at once, as the target's refusal would be: before, the client waited for an answer.
                    assertThat(in.read()).isEqualTo(-1);
                }
            }
        }
    }
}
