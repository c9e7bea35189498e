package io.seatlock.lock.autoconfigure;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.Environment;

/**
 * Spring Boot's report when the application needs a piece of seatlock's storage side (job slots, a fence) on a
 * database they do not run on, which is why none was registered: it names the database and the supported ones, where
 * Boot alone would only say that no such bean exists.
 */
class UnsupportedDatabaseFailureAnalyzer extends AbstractFailureAnalyzer<NoSuchBeanDefinitionException> {

    private final Environment environment;

    UnsupportedDatabaseFailureAnalyzer(Environment environment) {
        this.environment = environment;
    }

    @Override
    protected @Nullable FailureAnalysis analyze(Throwable rootFailure, NoSuchBeanDefinitionException cause) {
        ResolvableType type = cause.getResolvableType();
        Class<?> wanted = type == null ? null : type.resolve();
        String url = environment.getProperty("spring.datasource.url");
        if (wanted == null || !isStorageSide(wanted) || url == null || url.isBlank()) {
            return null;
        }
        String kind = SpringDatabase.kindOf(url);
        if (StorePool.SUPPORTED.contains(kind)) {
            return null;
        }
        return new FailureAnalysis("The application needs a " + wanted.getSimpleName() + ", but seatlock's job slots "
                + "and fences run on " + StorePool.SUPPORTED_NAMES + ", and the application's database "
                + "(spring.datasource.url) is " + kind + ".", "Keep the application's job slots and fenced writes in a "
                + StorePool.SUPPORTED_NAMES + " database, or define a bean of that type of your own.", cause);
    }

    private static boolean isStorageSide(Class<?> wanted) {
        return wanted.getName().equals("io.seatlock.lock.Fence") || wanted.getPackageName().equals("io.seatlock.lock.slots")
                || wanted.getPackageName().equals("io.seatlock.lock.fencing");
    }
}
