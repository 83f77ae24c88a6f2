package io.tlsadmit.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * What {@code mvn install} publishes under {@code io.tlsadmit:tlsadmit-tomcat}: the drop-in jar as the main
 * artifact, whose pom gives its users none of the libraries it bundles, and the unshaded classes beside it. The
 * build installs into a private repository before the integration tests (valve/pom.xml); the other ITs run Tomcat
 * on the main artifact taken from there.
 */
class InstalledArtifactIT {

    private static final String VERSION = System.getProperty("tlsadmit.version");
    private static final Path DIRECTORY = Path.of(System.getProperty("tlsadmit.installed.repository"))
            .resolve("io/tlsadmit/tlsadmit-tomcat").resolve(VERSION);

    /** Compiled only where the build found a JDK 22+ javac (valve/pom.xml, tlsadmit.ffm.jdk). */
    private static final boolean OPENSSL_GATE_BUILT = !Boolean.getBoolean("tlsadmit.ffm.skip");
    private static final String OPENSSL_GATE = "META-INF/versions/22/io/tlsadmit/tomcat/GatedOpenSslImplementation.class";

    @Test
    void theMainArtifactIsTheDropInJar() throws Exception {
        Path jar = DIRECTORY.resolve("tlsadmit-tomcat-" + VERSION + ".jar");
        assertTrue(Files.isRegularFile(jar), jar + " after install");
        try (JarFile file = new JarFile(jar.toFile())) {
            for (String entry : List.of("io/tlsadmit/tomcat/TlsAdmissionValve.class",
                    "io/tlsadmit/tomcat/AdmissionNioProtocol.class",
                    "io/tlsadmit/gate/ConnectorGate.class",
                    "io/tlsadmit/classifier/ClientHelloClassifier.class",
                    "io/tlsadmit/peek/NativePeek.class",
                    "io/tlsadmit/shaded/micrometer/prometheusmetrics/PrometheusMeterRegistry.class",
                    "META-INF/native/linux-x86_64/libtlsadmit_peek.so",
                    "META-INF/LICENSE", "META-INF/NOTICE-tlsadmit")) {
                assertNotNull(file.getEntry(entry), entry + " in " + jar);
            }
            assertTrue(file.stream().noneMatch(e -> e.getName().startsWith("io/micrometer/")),
                    "Micrometer relocated, not beside the host's");
            assertEquals(VERSION, file.getManifest().getMainAttributes().getValue("Implementation-Version"));
            if (OPENSSL_GATE_BUILT) {
                assertNotNull(file.getEntry(OPENSSL_GATE), OPENSSL_GATE + " in " + jar);
            }
            // without it Java 22+ would not look in META-INF/versions/22, and the OpenSSL gate would not load
            assertEquals("true", file.getManifest().getMainAttributes().getValue("Multi-Release"));
        }
    }

    @Test
    void itsPomBringsNoSecondCopyOfWhatTheJarBundles() throws Exception {
        Path pom = DIRECTORY.resolve("tlsadmit-tomcat-" + VERSION + ".pom");
        Element project = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile())
                .getDocumentElement();
        assertEquals("tlsadmit-tomcat", text(project, "artifactId"));
        List<String> transitive = new ArrayList<>();
        NodeList dependencies = project.getElementsByTagName("dependency");
        for (int i = 0; i < dependencies.getLength(); i++) {
            Element dependency = (Element) dependencies.item(i);
            boolean inherited = !"true".equals(text(dependency, "optional"))
                    && List.of("", "compile", "runtime").contains(text(dependency, "scope"));
            if (inherited) {
                transitive.add(text(dependency, "groupId") + ":" + text(dependency, "artifactId"));
            }
        }
        assertEquals(List.of(), transitive, "dependencies a user of " + pom.getFileName() + " would get");
    }

    @Test
    void theUnshadedClassesAreAttachedForBuildsThatBringTheLibraries() throws Exception {
        Path jar = DIRECTORY.resolve("tlsadmit-tomcat-" + VERSION + "-unshaded.jar");
        try (JarFile file = new JarFile(jar.toFile())) {
            assertNotNull(file.getEntry("io/tlsadmit/tomcat/TlsAdmissionValve.class"));
            assertFalse(file.stream().anyMatch(e -> e.getName().startsWith("io/tlsadmit/shaded/")
                    || e.getName().startsWith("io/tlsadmit/classifier/")
                    || e.getName().startsWith("io/tlsadmit/gate/")), "nothing bundled in " + jar);
        }
    }

    private static String text(Element parent, String child) {
        NodeList nodes = parent.getElementsByTagName(child);
        for (int i = 0; i < nodes.getLength(); i++) {
            if (nodes.item(i).getParentNode() == parent) {
                return nodes.item(i).getTextContent().trim();
            }
        }
        return "";
    }
}
