package io.tlsadmit.tomcat;

import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Statistic;
import io.micrometer.core.instrument.Tag;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import javax.management.ReflectionException;
import org.apache.juli.logging.Log;
import org.apache.juli.logging.LogFactory;

/**
 * Every meter of the valve's registry as an MBean, so a JMX console (jconsole, VisualVM, Tomcat's
 * manager) shows what the Prometheus endpoint shows: one MBean per meter and tag set, named
 * {@code io.tlsadmit:type=Metric,engine=Catalina,name=tlsadmit.connections,decision=refused,verdict=NEW},
 * whose read-only attributes are the meter's live measurements ({@code Count}, {@code Value},
 * {@code TotalTime} in seconds, ...). Written here rather than taken from Micrometer's JMX registry,
 * which would bring Dropwizard Metrics and SLF4J into every Tomcat's {@code lib/}.
 */
final class MeterMBeans implements AutoCloseable {

    private static final Log log = LogFactory.getLog(MeterMBeans.class);

    private final MBeanServer server;
    private final String engine;
    private final List<ObjectName> registered = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    /** Registers the registry's meters now and any added later, until {@link #close()}. */
    MeterMBeans(MeterRegistry registry, MBeanServer server, String engine) {
        this.server = server;
        this.engine = engine;
        registry.config().onMeterAdded(this::register);
        registry.forEachMeter(this::register);
    }

    static ObjectName name(Meter.Id id, String engine) throws MalformedObjectNameException {
        Map<String, String> keys = new LinkedHashMap<>();
        keys.put("type", "Metric");
        keys.put("engine", value(engine));
        keys.put("name", value(id.getName()));
        for (Tag tag : id.getTagsAsIterable()) {
            // a tag may not replace the keys that place the MBean
            String key = keys.containsKey(tag.getKey()) ? "tag." + tag.getKey() : tag.getKey();
            keys.put(key, value(tag.getValue()));
        }
        StringBuilder name = new StringBuilder(AdmissionNioProtocol.JMX_DOMAIN).append(':');
        keys.forEach((key, value) -> name.append(key).append('=').append(value).append(','));
        name.setLength(name.length() - 1);
        return new ObjectName(name.toString());
    }

    /** Quotes a value only when it holds a character an unquoted ObjectName value may not. */
    private static String value(String raw) {
        for (int i = 0; i < raw.length(); i++) {
            if (",=:\"*?\n".indexOf(raw.charAt(i)) >= 0) {
                return ObjectName.quote(raw);
            }
        }
        return raw.isEmpty() ? ObjectName.quote(raw) : raw;
    }

    /** {@code TOTAL_TIME} becomes {@code TotalTime}. */
    static String attributeName(Statistic statistic) {
        StringBuilder name = new StringBuilder();
        for (String word : statistic.name().split("_")) {
            name.append(word.charAt(0)).append(word.substring(1).toLowerCase(Locale.ROOT));
        }
        return name.toString();
    }

    private void register(Meter meter) {
        if (closed) {
            return;
        }
        try {
            ObjectName name = name(meter.getId(), engine);
            server.registerMBean(new MeterMBean(meter), name);
            registered.add(name);
        } catch (InstanceAlreadyExistsException e) {
            // a second valve in another Engine of the same name, or a listener racing forEachMeter
            log.debug("tlsadmit: MBean for meter " + meter.getId() + " exists already");
        } catch (JMException | RuntimeException e) {
            log.warn("tlsadmit: cannot register an MBean for meter " + meter.getId() + ": " + e);
        }
    }

    @Override
    public void close() {
        closed = true;
        for (ObjectName name : registered) {
            try {
                server.unregisterMBean(name);
            } catch (InstanceNotFoundException e) {
                // someone else removed it: nothing left to do
            } catch (JMException e) {
                log.warn("tlsadmit: cannot unregister " + name + ": " + e);
            }
        }
        registered.clear();
    }

    /** One meter: an attribute per measurement, read when asked. */
    private static final class MeterMBean implements DynamicMBean {

        private final Meter meter;
        private final MBeanInfo info;

        MeterMBean(Meter meter) {
            this.meter = meter;
            String description = meter.getId().getDescription() == null ? meter.getId().getName()
                    : meter.getId().getDescription();
            List<MBeanAttributeInfo> attributes = new ArrayList<>();
            for (Measurement measurement : meter.measure()) {
                String unit = meter.getId().getBaseUnit();
                attributes.add(new MBeanAttributeInfo(attributeName(measurement.getStatistic()), "double",
                        description + (unit == null ? "" : " (" + unit + ")"), true, false, false));
            }
            this.info = new MBeanInfo(meter.getClass().getName(), description,
                    attributes.toArray(new MBeanAttributeInfo[0]), null, null, null);
        }

        @Override
        public Object getAttribute(String attribute) throws AttributeNotFoundException {
            for (Measurement measurement : meter.measure()) {
                if (attributeName(measurement.getStatistic()).equals(attribute)) {
                    return measurement.getValue();
                }
            }
            throw new AttributeNotFoundException(attribute);
        }

        @Override
        public AttributeList getAttributes(String[] attributes) {
            AttributeList values = new AttributeList();
            for (Measurement measurement : meter.measure()) {
                String name = attributeName(measurement.getStatistic());
                for (String wanted : attributes) {
                    if (wanted.equals(name)) {
                        values.add(new Attribute(name, measurement.getValue()));
                    }
                }
            }
            return values;
        }

        @Override
        public void setAttribute(Attribute attribute) throws AttributeNotFoundException {
            throw new AttributeNotFoundException(attribute.getName() + " is read-only");
        }

        @Override
        public AttributeList setAttributes(AttributeList attributes) {
            return new AttributeList();
        }

        @Override
        public Object invoke(String actionName, Object[] params, String[] signature) throws ReflectionException {
            throw new ReflectionException(new NoSuchMethodException(actionName));
        }

        @Override
        public MBeanInfo getMBeanInfo() {
            return info;
        }
    }
}
