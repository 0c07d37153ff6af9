package org.leveldbj.stats;

import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import org.iq80.leveldb.Statistics;

/**
 * The registration of an open database's {@link DatabaseMBean} with the platform MBean server,
 * as {@code org.leveldbj:type=Database,name=<directory>}: the directory as the database was
 * opened with it, made absolute, and quoted ({@link ObjectName#quote}) when it holds a character
 * an object name does not allow unquoted ({@code , = : " * ?} or a line break). When that name
 * is taken (the same directory open twice in this JVM, which only separate in-memory
 * environments allow), the name gets {@code #2}, {@code #3}, ..., the first one free.
 *
 * <p>The system property {@value #PROPERTY}{@code =false}, read at each open, turns registration
 * off. A registration that fails (a security manager, a broken MBean server) is logged at
 * {@code WARNING} and does not fail the open.
 *
 * <p>Thread safety: {@link #close()} may be called by any thread, any number of times.
 * Requires: neither {@link #register} nor {@link #close} is called with the database lock held
 * (the MBean server has locks of its own).
 */
public final class JmxRegistration implements AutoCloseable {
    /** The system property that turns registration off when {@code false}. */
    public static final String PROPERTY = "leveldbj.jmx";
    /** The object names' domain. */
    public static final String DOMAIN = "org.leveldbj";
    private static final int MAX_INSTANCES = 10_000;
    private static final System.Logger LOG = System.getLogger(JmxRegistration.class.getName());

    private final MBeanServer server;
    private final ObjectName name;
    private final AtomicBoolean closed = new AtomicBoolean();

    private JmxRegistration(MBeanServer server, ObjectName name) {
        this.server = server;
        this.name = name;
    }

    /**
     * Registers the bean of a database, unless {@value #PROPERTY} is {@code false}.
     *
     * @param directory the database directory, absolute
     * @param statistics takes a snapshot of the database's figures
     * @return the registration, or {@code null} when registration is off or failed
     */
    public static JmxRegistration register(String directory, Supplier<Statistics> statistics) {
        if (!enabled()) {
            return null;
        }
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            DatabaseMBean bean = new DatabaseMBean(statistics);
            for (int instance = 1; instance <= MAX_INSTANCES; instance++) {
                ObjectName name = objectName(directory, instance);
                try {
                    server.registerMBean(bean, name);
                    return new JmxRegistration(server, name);
                } catch (InstanceAlreadyExistsException taken) {
                    // the same directory is open in another environment: try the next name
                }
            }
            LOG.log(System.Logger.Level.WARNING, "no JMX bean for database {0}: {1} beans of that name exist",
                    directory, MAX_INSTANCES);
        } catch (JMException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, () -> "no JMX bean for database " + directory, e);
        }
        return null;
    }

    /** @return whether {@value #PROPERTY} allows registration */
    static boolean enabled() {
        return !"false".equalsIgnoreCase(System.getProperty(PROPERTY, "true").trim());
    }

    /**
     * The object name of a database's bean.
     *
     * @param directory the database directory
     * @param instance 1 for the first database of that directory, 2 for a second, ...
     * @return {@code org.leveldbj:type=Database,name=<directory>[#instance]}
     * @throws MalformedObjectNameException never, for a quoted name
     */
    public static ObjectName objectName(String directory, int instance) throws MalformedObjectNameException {
        String value = instance == 1 ? directory : directory + "#" + instance;
        return new ObjectName(DOMAIN + ":type=Database,name=" + quoteIfNeeded(value));
    }

    private static String quoteIfNeeded(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == ',' || c == '=' || c == ':' || c == '"' || c == '*' || c == '?' || c == '\n' || c == '\r') {
                return ObjectName.quote(value);
            }
        }
        return value.isEmpty() ? ObjectName.quote(value) : value;
    }

    /** @return the bean's object name */
    public ObjectName name() {
        return name;
    }

    /** Unregisters the bean; does nothing the second time. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            server.unregisterMBean(name);
        } catch (InstanceNotFoundException gone) {
            // unregistered by someone else
        } catch (JMException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, () -> "unregistering the JMX bean " + name + " failed", e);
        }
    }
}
