package org.leveldbj.stats;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.ImmutableDescriptor;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanException;
import javax.management.MBeanInfo;
import javax.management.ReflectionException;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.Metric;
import org.iq80.leveldb.Statistics;

/**
 * The JMX bean of an open database: one read-only attribute per {@link Metric}, named
 * {@link Metric#attributeName()}, of type {@code long}, or {@code long[]} (one value per level)
 * for a per-level figure. The attributes are generated from the metric list, so they are exactly
 * the figures of {@link Statistics}; each carries the JMX descriptor field {@code units}
 * ({@code bytes}, {@code ns}, or none for counts) and says in its description whether it is a
 * counter or a gauge. Reading several attributes at once ({@link #getAttributes}) takes one
 * snapshot for all of them.
 *
 * <p>Thread safety: safe for concurrent use; every read takes a fresh snapshot from the
 * database, which takes no database lock.
 */
public final class DatabaseMBean implements DynamicMBean {
    private static final Map<String, Metric> BY_ATTRIBUTE = new HashMap<>();
    private static final MBeanInfo INFO;

    static {
        Metric[] metrics = Metric.values();
        MBeanAttributeInfo[] attributes = new MBeanAttributeInfo[metrics.length];
        for (Metric m : metrics) {
            BY_ATTRIBUTE.put(m.attributeName(), m);
            String units = m.unit() == Metric.Unit.BYTES ? "bytes" : m.unit() == Metric.Unit.NANOSECONDS ? "ns" : "";
            String kind = m.kind() == Metric.Kind.COUNTER ? "counter since the database opened" : "gauge";
            String description = m.description() + " (" + kind + (units.isEmpty() ? "" : ", " + units)
                    + (m.perLevel() ? ", one value per level" : "") + "; " + m.key() + ")";
            ImmutableDescriptor descriptor = units.isEmpty() ? ImmutableDescriptor.EMPTY_DESCRIPTOR
                    : new ImmutableDescriptor("units=" + units);
            attributes[m.ordinal()] = new MBeanAttributeInfo(m.attributeName(), m.perLevel() ? "[J" : "long",
                    description, true, false, false, descriptor);
        }
        INFO = new MBeanInfo(DatabaseMBean.class.getName(),
                "An open leveldbj database: its statistics (org.iq80.leveldb.Metric lists them)", attributes, null,
                null, null);
    }

    private final Supplier<Statistics> statistics;

    /**
     * Creates the bean of a database.
     *
     * @param statistics takes a snapshot of the database's figures
     */
    public DatabaseMBean(Supplier<Statistics> statistics) {
        this.statistics = statistics;
    }

    @Override
    public Object getAttribute(String attribute) throws AttributeNotFoundException, MBeanException {
        Metric m = metric(attribute);
        return value(snapshot(), m);
    }

    @Override
    public AttributeList getAttributes(String[] attributes) {
        AttributeList list = new AttributeList();
        Statistics stats;
        try {
            stats = snapshot();
        } catch (MBeanException e) {
            return list; // closed meanwhile: no attribute can be read
        }
        for (String name : attributes) {
            Metric m = BY_ATTRIBUTE.get(name);
            if (m != null) {
                list.add(new Attribute(name, value(stats, m)));
            }
        }
        return list;
    }

    @Override
    public void setAttribute(Attribute attribute) throws AttributeNotFoundException {
        metric(attribute.getName());
        throw new AttributeNotFoundException(attribute.getName() + " is read-only");
    }

    @Override
    public AttributeList setAttributes(AttributeList attributes) {
        return new AttributeList();
    }

    @Override
    public Object invoke(String actionName, Object[] params, String[] signature) throws ReflectionException {
        throw new ReflectionException(new NoSuchMethodException(actionName), "the bean has no operations");
    }

    @Override
    public MBeanInfo getMBeanInfo() {
        return INFO;
    }

    private static Metric metric(String attribute) throws AttributeNotFoundException {
        Metric m = attribute == null ? null : BY_ATTRIBUTE.get(attribute);
        if (m == null) {
            throw new AttributeNotFoundException("no attribute " + attribute);
        }
        return m;
    }

    private Statistics snapshot() throws MBeanException {
        try {
            return statistics.get();
        } catch (DBException e) {
            throw new MBeanException(e, "the database cannot be read: " + e.getMessage());
        }
    }

    private static Object value(Statistics stats, Metric m) {
        return m.perLevel() ? stats.perLevel(m) : Long.valueOf(stats.get(m));
    }
}
