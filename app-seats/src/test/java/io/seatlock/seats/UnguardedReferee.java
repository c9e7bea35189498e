package io.seatlock.seats;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.support.GenericApplicationContext;

import javax.sql.DataSource;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.util.function.Consumer;

/**
 * Test only: turns a replica into an app that trusts its lock, with the {@code buyer IS NULL} guard and the
 * unique booking dropped. It rewrites the referee's SQL on its way to the driver (a wrapped DataSource),
 * so the application itself has no switch for it. The 14C test and the fault suite use it to show the
 * lock alone double-books.
 */
public final class UnguardedReferee {

    private UnguardedReferee() {
    }

    /** Registers the rewriting DataSource wrapper in a replica's context. */
    public static Consumer<GenericApplicationContext> install() {
        return context -> context.registerBean("unguardedReferee", BeanPostProcessor.class, () -> new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String name) {
                return bean instanceof DataSource dataSource ? unguarded(dataSource) : bean;
            }
        });
    }

    static String rewrite(String sql) {
        if (sql.startsWith("UPDATE seats SET buyer_email")) {
            return sql.replace(" AND buyer_email IS NULL", "");
        }
        if (sql.startsWith("INSERT INTO bookings")) {
            return sql + " ON CONFLICT (event_id, seat_label) DO UPDATE SET id = EXCLUDED.id, buyer_email ="
                    + " EXCLUDED.buyer_email, buyer_name = EXCLUDED.buyer_name, fencing_token = EXCLUDED.fencing_token";
        }
        return sql;
    }

    private static DataSource unguarded(DataSource target) {
        return proxy(DataSource.class, target, (proxy, method, args) -> {
            Object result = invoke(target, method, args);
            return result instanceof Connection c ? proxy(Connection.class, c, rewriting(c)) : result;
        });
    }

    private static InvocationHandler rewriting(Connection target) {
        return (proxy, method, args) -> {
            if (method.getName().startsWith("prepare") && args != null && args.length > 0 && args[0] instanceof String sql) {
                args = args.clone();
                args[0] = rewrite(sql);
            }
            return invoke(target, method, args);
        };
    }

    private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> T proxy(Class<T> type, T target, InvocationHandler handler) {
        return (T) Proxy.newProxyInstance(UnguardedReferee.class.getClassLoader(), new Class<?>[] {type}, handler);
    }
}
