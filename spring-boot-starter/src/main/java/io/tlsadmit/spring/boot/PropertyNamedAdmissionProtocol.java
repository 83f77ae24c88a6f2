package io.tlsadmit.spring.boot;

import io.tlsadmit.tomcat.AdmissionNioProtocol;
import org.apache.tomcat.util.IntrospectionUtils;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * The gated protocol as the starter has Tomcat create it. The gate checks its attributes when the connector
 * initialises and names the attribute it rejects ("maxFullHandshakesPerSecond must be ..."); a Spring Boot
 * user wrote a property, so the rejection is rethrown as an invalid {@code tlsadmit.*} property and Spring
 * Boot's failure report names it, with its value and where it was set (application.yml line, command line).
 * Everything else is {@link AdmissionNioProtocol}'s.
 */
public class PropertyNamedAdmissionProtocol extends AdmissionNioProtocol {

    @Override
    public void init() throws Exception {
        try {
            super.init();
        } catch (IllegalArgumentException e) {
            RuntimeException named = asPropertyFailure(e);
            throw named != null ? named : e;
        }
    }

    /**
     * The gate wraps the rejection (whose message starts with the attribute's name) in its own message
     * naming the connector; null when the failure is not about one of the starter's attributes.
     */
    private InvalidConfigurationPropertyValueException asPropertyFailure(IllegalArgumentException failure) {
        if (initFailure() == null || !(failure.getCause() instanceof IllegalArgumentException rejection)
                || rejection.getMessage() == null) {
            return null;
        }
        String message = rejection.getMessage();
        int space = message.indexOf(' ');
        String attribute = space > 0 ? message.substring(0, space) : message;
        if (!TlsAdmitProperties.CONNECTOR_ATTRIBUTES.contains(attribute)) {
            return null;
        }
        return new InvalidConfigurationPropertyValueException(TlsAdmitProperties.propertyOf(attribute),
                IntrospectionUtils.getProperty(this, attribute),
                "The gate rejected it: " + message + ".");
    }
}
