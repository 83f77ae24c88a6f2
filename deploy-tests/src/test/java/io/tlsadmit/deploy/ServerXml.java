package io.tlsadmit.deploy;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;

/**
 * A committed server.xml, read for the attributes others rely on: the compose image's ({@code deploy/tomcat/server.xml})
 * unless another is named (Kubernetes: {@code deploy/k8s/server.xml}).
 */
final class ServerXml {

    static final String PATH = "deploy/tomcat/server.xml";
    static final String VALVE = "io.tlsadmit.tomcat.TlsAdmissionValve";
    static final String GATED_PROTOCOL = "io.tlsadmit.tomcat.AdmissionNioProtocol";

    private final String path;
    private final Document document;

    private ServerXml(String path, Document document) {
        this.path = path;
        this.document = document;
    }

    static ServerXml load() {
        return load(PATH);
    }

    static ServerXml load(String path) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            return new ServerXml(path,
                    factory.newDocumentBuilder().parse(new InputSource(new StringReader(Repository.read(path)))));
        } catch (ParserConfigurationException | SAXException e) {
            throw new AssertionError(path + " is not well-formed XML: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Element valve() {
        for (Element valve : elements("Valve")) {
            if (VALVE.equals(valve.getAttribute("className"))) {
                return valve;
            }
        }
        throw new AssertionError(path + " has no " + VALVE);
    }

    /** The valve's attribute, or the valve's documented default when server.xml leaves it out. */
    String valveAttribute(String name, String byDefault) {
        String value = valve().getAttribute(name);
        return value.isEmpty() ? byDefault : value;
    }

    Element gatedConnector() {
        for (Element connector : elements("Connector")) {
            if (GATED_PROTOCOL.equals(connector.getAttribute("protocol"))) {
                return connector;
            }
        }
        throw new AssertionError(path + " has no connector with protocol " + GATED_PROTOCOL);
    }

    Element plainConnector() {
        for (Element connector : elements("Connector")) {
            if (!"true".equals(connector.getAttribute("SSLEnabled"))) {
                return connector;
            }
        }
        throw new AssertionError(path + " has no plain HTTP connector");
    }

    /** Every element, for checks that span the whole file (such as its ${...} placeholders). */
    List<Element> allElements() {
        return elements("*");
    }

    private List<Element> elements(String tag) {
        NodeList nodes = document.getElementsByTagName(tag);
        List<Element> elements = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            elements.add((Element) nodes.item(i));
        }
        return elements;
    }
}
