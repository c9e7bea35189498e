package io.seatlock.jobs;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A request to a replica on loopback, bounded, for probes, actuator and API checks. */
final class ReplicaHttp {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private ReplicaHttp() {
    }

    static HttpResponse<String> get(int port, String path, Duration timeout) throws IOException, InterruptedException {
        return send(port, path, "GET", timeout);
    }

    static HttpResponse<String> send(int port, String path, String method, Duration timeout)
            throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(timeout)
                .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }
}
