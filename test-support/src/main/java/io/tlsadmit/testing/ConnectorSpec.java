package io.tlsadmit.testing;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One {@code <Connector>} of a test server: plain HTTP or TLS with a {@link TestKeystore}. The port is
 * chosen when the server is built; every connector listens on 127.0.0.1 only.
 */
public final class ConnectorSpec {

    private final String name;
    private final TestKeystore keystore;
    private final Map<String, String> attributes = new LinkedHashMap<>();
    private final Map<String, String> sslHostConfig = new LinkedHashMap<>();
    private final StringBuilder nested = new StringBuilder();

    private ConnectorSpec(String name, TestKeystore keystore) {
        this.name = name;
        this.keystore = keystore;
        attributes.put("protocol", "org.apache.coyote.http11.Http11NioProtocol");
        attributes.put("connectionTimeout", "10000");
        attributes.put("maxThreads", "20");
    }

    /** A plain HTTP/1.1 NIO connector called {@code name} (the name only finds its port again). */
    public static ConnectorSpec http(String name) {
        return new ConnectorSpec(name, null);
    }

    /** A TLS HTTP/1.1 NIO connector serving the keystore's certificate, JSSE unless told otherwise. */
    public static ConnectorSpec https(String name, TestKeystore keystore) {
        ConnectorSpec spec = new ConnectorSpec(name, keystore);
        spec.attributes.put("SSLEnabled", "true");
        spec.attributes.put("scheme", "https");
        spec.attributes.put("secure", "true");
        return spec;
    }

    public ConnectorSpec protocol(String protocolClassName) {
        return attribute("protocol", protocolClassName);
    }

    /** Any connector attribute, written verbatim (XML-escaped) into server.xml. */
    public ConnectorSpec attribute(String attribute, String value) {
        attributes.put(attribute, value);
        return this;
    }

    /** An attribute of the connector's {@code <SSLHostConfig>}, e.g. {@code protocols}. */
    public ConnectorSpec sslHostConfig(String attribute, String value) {
        sslHostConfig.put(attribute, value);
        return this;
    }

    /** Raw XML inside the {@code <Connector>}, e.g. {@code <UpgradeProtocol className="org.apache.coyote.http2.Http2Protocol"/>}. */
    public ConnectorSpec nested(String xml) {
        nested.append("      ").append(xml).append('\n');
        return this;
    }

    public String name() {
        return name;
    }

    public boolean isTls() {
        return keystore != null;
    }

    String toXml(int port) {
        StringBuilder xml = new StringBuilder("    <Connector port=\"").append(port).append("\" address=\"127.0.0.1\"");
        attributes.forEach((k, v) -> xml.append(' ').append(k).append("=\"").append(Xml.escape(v)).append('"'));
        if (keystore == null && nested.length() == 0) {
            return xml.append("/>\n").toString();
        }
        xml.append(">\n").append(nested);
        if (keystore == null) {
            return xml.append("    </Connector>\n").toString();
        }
        xml.append("      <SSLHostConfig");
        sslHostConfig.forEach((k, v) -> xml.append(' ').append(k).append("=\"").append(Xml.escape(v)).append('"'));
        xml.append(">\n        <Certificate certificateKeystoreFile=\"").append(Xml.escape(keystore.path().toString()))
                .append("\" certificateKeystorePassword=\"").append(Xml.escape(keystore.password()))
                .append("\" certificateKeystoreType=\"PKCS12\" type=\"").append(keystore.keyType().tomcatType())
                .append("\"/>\n      </SSLHostConfig>\n    </Connector>\n");
        return xml.toString();
    }
}
