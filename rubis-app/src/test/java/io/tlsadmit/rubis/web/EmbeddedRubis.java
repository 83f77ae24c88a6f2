package io.tlsadmit.rubis.web;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;
import org.apache.catalina.Context;
import org.apache.catalina.WebResourceRoot;
import org.apache.catalina.startup.Tomcat;
import org.apache.catalina.webresources.DirResourceSet;
import org.apache.catalina.webresources.StandardRoot;
import org.apache.tomcat.util.descriptor.web.ContextResource;

/**
 * The webapp in an embedded Tomcat on a free port, with its DataSource from Tomcat's own pool pointed at a test
 * database. It serves src/main/webapp, the compiled classes and the images the build drew, as the WAR would.
 */
public final class EmbeddedRubis implements AutoCloseable {

    public static final double SCALE = 0.002;
    public static final long SEED = 42;

    private final Tomcat tomcat;
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final int port;

    private EmbeddedRubis(Tomcat tomcat) {
        this.tomcat = tomcat;
        this.port = tomcat.getConnector().getLocalPort();
    }

    public static EmbeddedRubis start(TestDatabase database, Path workDirectory) throws Exception {
        Path module = Path.of(System.getProperty("user.dir"));
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(Files.createDirectories(workDirectory.resolve("tomcat")).toString());
        tomcat.setPort(0);
        tomcat.getConnector().setProperty("address", "127.0.0.1");
        tomcat.enableNaming();
        // Tomcat's default web.xml would add a JSP servlet this test classpath has no Jasper for
        tomcat.setAddDefaultWebXmlToWebapp(false);
        Context context = tomcat.addWebapp("/rubis", module.resolve("src/main/webapp").toString());
        Tomcat.addServlet(context, "default", "org.apache.catalina.servlets.DefaultServlet");
        context.addServletMappingDecoded("/", "default");
        context.addMimeMapping("html", "text/html");
        context.addMimeMapping("jpg", "image/jpeg");
        // the test wires its own DataSource instead of the WAR's H2 file under catalina.base
        context.setConfigFile(null);
        context.setParentClassLoader(EmbeddedRubis.class.getClassLoader());
        context.addParameter("rubis.scale", String.valueOf(SCALE));
        context.addParameter("rubis.seed", String.valueOf(SEED));
        context.getNamingResources().addResource(dataSource(database));

        WebResourceRoot resources = new StandardRoot(context);
        resources.addPreResources(new DirResourceSet(resources, "/WEB-INF/classes",
                module.resolve("target/classes").toString(), "/"));
        File images = module.resolve("target/generated-webapp/images").toFile();
        if (!images.isDirectory()) {
            throw new IllegalStateException("no images in " + images + ": run the build's process-classes phase");
        }
        resources.addPreResources(new DirResourceSet(resources, "/images", images.toString(), "/"));
        context.setResources(resources);

        tomcat.start();
        if (!context.getState().isAvailable()) {
            tomcat.stop();
            tomcat.destroy();
            throw new IllegalStateException("the rubis webapp did not start; see the log");
        }
        return new EmbeddedRubis(tomcat);
    }

    private static ContextResource dataSource(TestDatabase database) {
        ContextResource resource = new ContextResource();
        resource.setName("jdbc/rubis");
        resource.setType("javax.sql.DataSource");
        resource.setAuth("Container");
        resource.setCloseMethod("close");
        resource.setProperty("factory", "org.apache.tomcat.dbcp.dbcp2.BasicDataSourceFactory");
        resource.setProperty("driverClassName", database.driverClassName());
        resource.setProperty("url", database.url());
        resource.setProperty("username", database.user());
        resource.setProperty("password", database.password());
        resource.setProperty("maxTotal", "60");
        resource.setProperty("maxWaitMillis", "10000");
        return resource;
    }

    public URI uri(String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + port + "/rubis/" + pathAndQuery);
    }

    public HttpResponse<String> get(String pathAndQuery) {
        return send(HttpRequest.newBuilder(uri(pathAndQuery)).GET().build());
    }

    public HttpResponse<byte[]> getBytes(String pathAndQuery) {
        try {
            return client.send(HttpRequest.newBuilder(uri(pathAndQuery)).GET().build(),
                    HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** POSTs a form to an interaction, e.g. {@code post("StoreBid", form("itemId", 3, ...))}. */
    public HttpResponse<String> post(String interaction, Map<String, Object> form) {
        StringJoiner body = new StringJoiner("&");
        form.forEach((name, value) -> body.add(URLEncoder.encode(name, StandardCharsets.UTF_8) + "="
                + URLEncoder.encode(String.valueOf(value), StandardCharsets.UTF_8)));
        return send(HttpRequest.newBuilder(uri("servlet/" + interaction))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                .build());
    }

    public HttpResponse<String> send(HttpRequest request) {
        try {
            return client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("request failed: " + request.uri(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public static Map<String, Object> form(Object... namesAndValues) {
        Map<String, Object> form = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            form.put((String) namesAndValues[i], namesAndValues[i + 1]);
        }
        return form;
    }

    @Override
    public void close() throws Exception {
        tomcat.stop();
        tomcat.destroy();
    }
}
