package io.tlsadmit.spring.boot;

import io.micrometer.core.instrument.binder.MeterBinder;
import io.tlsadmit.tomcat.AdmissionNioProtocol;
import org.apache.catalina.startup.Tomcat;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.context.annotation.Bean;

/**
 * tlsadmit in a servlet application on embedded Tomcat: the HTTPS connector gated, the valve in the
 * engine, the gate's meters in the application's registry. {@code tlsadmit.enabled=false} switches all
 * of it off. Reactive (WebFlux) servers on Tomcat are not covered: not tested.
 */
@AutoConfiguration
@ConditionalOnClass({Tomcat.class, TomcatServletWebServerFactory.class, AdmissionNioProtocol.class})
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnBooleanProperty(name = TlsAdmitProperties.PREFIX + ".enabled", matchIfMissing = true)
@EnableConfigurationProperties(TlsAdmitProperties.class)
public class TlsAdmitAutoConfiguration {

    @Bean
    GatedTomcatCustomizer tlsAdmitTomcatCustomizer(TlsAdmitProperties properties) {
        return new GatedTomcatCustomizer(properties);
    }

    /** Applied by Spring Boot to its registries when Actuator's metrics are there; unused otherwise. */
    @Bean
    MeterBinder tlsAdmitMeterBinder(GatedTomcatCustomizer customizer) {
        return new TlsAdmitMeterBinder(customizer);
    }
}
