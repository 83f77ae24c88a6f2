package io.tlsadmit.loadtests.run;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * Reads the gate's truth from the server: {@code tlsadmit_*} counters at the valve's metrics path. Scraped
 * before and after a run; the difference is what the run did. Scrape over a plain-HTTP connector when the TLS
 * one runs with a budget of 0, or the scrape itself would be a refused new handshake.
 */
public final class ServerMetrics {

    public static final String CONNECTIONS = "tlsadmit_connections_total";
    public static final String HANDSHAKES = "tlsadmit_handshakes_total";
    public static final String SESSION_GRACE = "tlsadmit_session_grace_total";

    private final String url;

    public ServerMetrics(String url) {
        this.url = url;
    }

    /** The exposition text now, or "" (and a line on stderr) when the server has none. */
    public String scrape() {
        if (url.isEmpty()) {
            return "";
        }
        try {
            HttpClient client = HttpClient.newBuilder().sslContext(trustingContext())
                    .connectTimeout(Duration.ofSeconds(5)).build();
            HttpResponse<String> response = client.send(
                    HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                System.err.println("rubis: metrics at " + url + " answered " + response.statusCode());
                return "";
            }
            return response.body();
        } catch (IOException e) {
            System.err.println("rubis: cannot read metrics at " + url + ": " + e);
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    /** The load test's server has a test certificate; the scrape checks nothing about it, like the users. */
    private static SSLContext trustingContext() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {new X509TrustManager() {
                @Override
                public void checkClientTrusted(X509Certificate[] chain, String authType) {
                }

                @Override
                public void checkServerTrusted(X509Certificate[] chain, String authType) {
                }

                @Override
                public X509Certificate[] getAcceptedIssuers() {
                    return new X509Certificate[0];
                }
            }}, new SecureRandom());
            return context;
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
