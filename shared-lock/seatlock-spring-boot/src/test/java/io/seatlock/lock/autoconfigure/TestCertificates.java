package io.seatlock.lock.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A test CA and a server certificate for IP 127.0.0.1 signed by it, made with the JDK's own keytool (nothing to
 * install), as the PEM files a TLS {@code redis-server} reads.
 *
 * @param caCertificate the CA's certificate: what a client trusts
 * @param certificate   the server's certificate
 * @param key           the server's private key (PKCS#8)
 */
record TestCertificates(Path caCertificate, Path certificate, Path key) {

    private static final String STORE_PASSWORD = "test-only";

    /** Makes them in {@code dir}. */
    static TestCertificates in(Path dir) throws IOException, InterruptedException, GeneralSecurityException {
        keytool(dir, "-genkeypair", "-alias", "ca", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=seatlock-test-ca",
                "-ext", "bc:c", "-validity", "2", "-keystore", "ca.p12");
        keytool(dir, "-exportcert", "-alias", "ca", "-rfc", "-file", "ca.pem", "-keystore", "ca.p12");
        keytool(dir, "-genkeypair", "-alias", "server", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=127.0.0.1",
                "-validity", "2", "-keystore", "server.p12");
        keytool(dir, "-certreq", "-alias", "server", "-file", "server.csr", "-keystore", "server.p12");
        keytool(dir, "-gencert", "-alias", "ca", "-infile", "server.csr", "-outfile", "server.pem", "-rfc",
                "-ext", "SAN=IP:127.0.0.1", "-validity", "2", "-keystore", "ca.p12");
        KeyStore server = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(dir.resolve("server.p12"))) {
            server.load(in, STORE_PASSWORD.toCharArray());
        }
        byte[] key = server.getKey("server", STORE_PASSWORD.toCharArray()).getEncoded(); // PKCS#8
        Files.writeString(dir.resolve("server.key"), "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(key) + "\n-----END PRIVATE KEY-----\n");
        return new TestCertificates(dir.resolve("ca.pem"), dir.resolve("server.pem"), dir.resolve("server.key"));
    }

    /** redis.conf lines for a server on {@code ${tls-port}} with this certificate, not asking clients for one. */
    List<String> redisSettings() {
        return List.of("tls-port ${tls-port}", "tls-cert-file " + certificate, "tls-key-file " + key,
                "tls-ca-cert-file " + caCertificate, "tls-auth-clients no");
    }

    private static void keytool(Path dir, String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
        command.addAll(List.of(arguments));
        command.addAll(List.of("-storetype", "PKCS12", "-storepass", STORE_PASSWORD, "-noprompt"));
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException("keytool failed: " + String.join(" ", command));
        }
    }
}
