package io.seatlock.it;

import io.seatlock.lock.redis.RedisEndpoints;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * No string the library makes quotes a secret: every record of every published module whose components carry one
 * (a password, credentials, a URL or a seed list with a login in it, directly or in a nested record) is built with a
 * marker in each such component, and its {@code toString} must not contain the marker; every class that writes its own
 * {@code toString} and keeps a secret-named field is named here to be built too; and the messages of the URL and seed
 * checks, which refuse bad input, never quote it. The running application's side (start-up log, health, the locks
 * endpoint, a failure report) is {@code SecretsInAppOutputTest}'s.
 */
class SecretsInStringsTest {

    static final String MARKER = "Marker-S3cret-7f41";
    /** A component that is a secret itself. */
    private static final Pattern SECRET = Pattern.compile("(?i).*(password|secret|credential).*");
    /** A component that is a URL or seed list, which may carry a login. */
    private static final Pattern LOGIN_CARRIER = Pattern.compile("(?i).*(url|uri|nodes|seeds).*");
    private static final String URL_WITH_LOGIN = "redis://user:" + MARKER + "@127.0.0.1:6379/0";

    @TestFactory
    Stream<DynamicTest> noRecordOfTheLibraryPrintsASecretItCarries() throws Exception {
        List<DynamicTest> tests = new ArrayList<>();
        for (String module : LibraryClasses.MODULES) {
            for (String name : LibraryClasses.namesIn(module)) {
                Class<?> type = Class.forName(name, false, getClass().getClassLoader());
                if (!type.isRecord() || !carriesSecret(type)) {
                    continue;
                }
                tests.add(DynamicTest.dynamicTest(type.getName(), () -> {
                    Object record = build(type);
                    assertThat(record.toString()).as("%s.toString()", type.getName()).doesNotContain(MARKER);
                }));
            }
        }
        assertThat(tests).as("records that carry a secret, found by the walk").isNotEmpty();
        return tests.stream();
    }

    /** Each class (not a record) that writes its own {@code toString} and keeps a secret, built with the marker in it. */
    private static Map<Class<?>, List<Object>> classesWithSecrets() {
        RedisEndpoints.Node node = new RedisEndpoints.Node("127.0.0.1", 6379);
        return Map.of(RedisEndpoints.class, List.of(
                RedisEndpoints.of(URL_WITH_LOGIN),
                RedisEndpoints.of("redis-sentinel://user:" + MARKER + "@127.0.0.1:26379#master"),
                RedisEndpoints.clusterOf(List.of(URL_WITH_LOGIN)),
                RedisEndpoints.server(node).withLogin("user", MARKER).withTls(null),
                RedisEndpoints.sentinels(List.of(node), new RedisEndpoints.Sentinel("master", "watcher", MARKER))
                        .withLogin("user", MARKER)));
    }

    @Test
    void everyClassThatWritesItsOwnToStringAndKeepsASecretPrintsNoneOfIt() throws Exception {
        List<Class<?>> found = new ArrayList<>();
        for (String module : LibraryClasses.MODULES) {
            for (String name : LibraryClasses.namesIn(module)) {
                Class<?> type = Class.forName(name, false, getClass().getClassLoader());
                if (type.isRecord() || !declaresToString(type)) {
                    continue;
                }
                for (Field field : type.getDeclaredFields()) {
                    if (!Modifier.isStatic(field.getModifiers()) && (SECRET.matcher(field.getName()).matches()
                            || LOGIN_CARRIER.matcher(field.getName()).matches())) {
                        found.add(type);
                        break;
                    }
                }
            }
        }
        Map<Class<?>, List<Object>> built = classesWithSecrets();
        assertThat(found).as("classes whose own toString may print a secret field: build each in classesWithSecrets")
                .containsExactlyInAnyOrderElementsOf(built.keySet());
        built.forEach((type, instances) -> instances.forEach(instance ->
                assertThat(instance.toString()).as("%s.toString()", type.getName()).doesNotContain(MARKER)));
    }

    @Test
    void theChecksThatRefuseARedisUrlOrSeedNeverQuoteIt() {
        List<Runnable> refusals = List.of(
                () -> RedisEndpoints.of("redis://user:" + MARKER + "@127.0.0.1:notaport"),
                () -> RedisEndpoints.of("http://user:" + MARKER + "@127.0.0.1:6379"),
                () -> RedisEndpoints.of("redis://user:" + MARKER + "@:6379"),
                () -> RedisEndpoints.of("redis://user:" + MARKER + "@127.0.0.1:6379/db"),
                () -> RedisEndpoints.of("redis://user:" + MARKER + " @127.0.0.1:6379"),
                () -> RedisEndpoints.clusterOf(List.of("redis://user:" + MARKER + "@a:1", "redis://other:x@b:2")),
                () -> RedisEndpoints.clusterOf(List.of("redis://user:" + MARKER + "@a:bad")),
                () -> RedisEndpoints.clusterOf(List.of("redis://user:" + MARKER + "@a b:1")),
                () -> RedisEndpoints.clusterOf(List.of("http://user:" + MARKER + "@a:1")));
        for (Runnable refusal : refusals) {
            Throwable failure = catchThrowable(refusal::run);
            assertThat(failure).isInstanceOf(IllegalArgumentException.class);
            assertThat(failure.getMessage()).doesNotContain(MARKER);
        }
    }

    private static boolean declaresToString(Class<?> type) {
        try {
            type.getDeclaredMethod("toString");
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    /** Whether a component, or one of a nested record, carries a secret. */
    private static boolean carriesSecret(Class<?> record) {
        for (RecordComponent component : record.getRecordComponents()) {
            if (secretBearing(component) || component.getType().isRecord() && component.getType() != record
                    && carriesSecret(component.getType())) {
                return true;
            }
        }
        return false;
    }

    private static boolean secretBearing(RecordComponent component) {
        boolean text = component.getType() == String.class || component.getType() == List.class
                && elementType(component.getGenericType()) == String.class;
        return text && (SECRET.matcher(component.getName()).matches()
                || LOGIN_CARRIER.matcher(component.getName()).matches());
    }

    /** The record with the marker in every secret it carries and plain values elsewhere. */
    private static Object build(Class<?> record) throws Exception {
        RecordComponent[] components = record.getRecordComponents();
        Object[] values = new Object[components.length];
        for (int i = 0; i < components.length; i++) {
            values[i] = valueFor(components[i]);
        }
        Constructor<?> canonical = record.getDeclaredConstructor(
                Stream.of(components).map(RecordComponent::getType).toArray(Class<?>[]::new));
        canonical.setAccessible(true);
        return canonical.newInstance(values);
    }

    private static Object valueFor(RecordComponent component) throws Exception {
        Class<?> type = component.getType();
        String name = component.getName();
        if (type == String.class) {
            return SECRET.matcher(name).matches() ? MARKER
                    : LOGIN_CARRIER.matcher(name).matches() ? URL_WITH_LOGIN : "x";
        }
        if (type == List.class) {
            return secretBearing(component) ? List.of(URL_WITH_LOGIN) : List.of();
        }
        if (type.isRecord()) {
            return build(type);
        }
        if (type.isEnum()) {
            return type.getEnumConstants()[0];
        }
        Map<Class<?>, Object> plain = Map.of(int.class, 1, long.class, 1L, double.class, 0.01, boolean.class, false,
                Duration.class, Duration.ofSeconds(1));
        return plain.get(type); // anything else: null, as an optional part left out
    }

    private static Type elementType(Type list) {
        return list instanceof ParameterizedType parameterized ? parameterized.getActualTypeArguments()[0] : Object.class;
    }
}
