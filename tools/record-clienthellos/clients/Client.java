// A plain JSSE client for the recorder: opens `count` connections in one JVM with one
// SSLContext, so the second and later connections offer the session cached by the first.
// Run with the source launcher: java Client.java HOST PORT SNI CA_PEM COUNT PATH
import java.io.ByteArrayOutputStream;
import java.io.FileInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

public class Client {
    public static void main(String[] args) throws Exception {
        String host = args[0];
        int port = Integer.parseInt(args[1]);
        String sni = args[2];
        int count = Integer.parseInt(args[4]);
        String path = args[5];

        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        try (InputStream pem = new FileInputStream(args[3])) {
            trust.setCertificateEntry("recorder", CertificateFactory.getInstance("X.509").generateCertificate(pem));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, tmf.getTrustManagers(), null);

        System.out.println("client-version: Java " + System.getProperty("java.version") + " ("
                + System.getProperty("java.runtime.version") + ", " + System.getProperty("java.vm.vendor") + ") JSSE");
        for (int i = 1; i <= count; i++) {
            // Connect the TCP socket to the literal address ourselves, but give JSSE the host
            // name: it is used for SNI and as the session-cache key, as for any real client.
            Socket tcp = new Socket();
            tcp.connect(new InetSocketAddress(host, port), 10_000);
            try (SSLSocket tls = (SSLSocket) context.getSocketFactory().createSocket(tcp, sni, port, true)) {
                tls.setSoTimeout(10_000);
                tls.startHandshake();
                OutputStream out = tls.getOutputStream();
                out.write(("GET /" + path + " HTTP/1.0\r\nHost: " + sni + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                // Read to EOF so that TLS 1.3 NewSessionTicket messages are processed.
                ByteArrayOutputStream body = new ByteArrayOutputStream();
                tls.getInputStream().transferTo(body);
                System.out.println("connection " + i + ": " + tls.getSession().getProtocol() + " "
                        + body.size() + " bytes");
            }
        }
    }
}
