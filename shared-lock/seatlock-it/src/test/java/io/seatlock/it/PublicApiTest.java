package io.seatlock.it;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each published module's public signatures, one line per public (or protected) type and member, are committed in
 * {@code <module>/api/<module>.api}: a change to them shows in review as a change to that file. This test fails when
 * the compiled classes and the file differ, naming the lines; {@code bin/update-api} writes the files anew. The
 * internal packages are no API and are left out; no signature that is may name one of their types.
 */
class PublicApiTest {

    /**
     * The library's own helpers' packages ({@code io.seatlock.lock.internal}, and a store family's shared part such as
     * {@code io.seatlock.lock.jdbc.internal}): public to its modules, API of none.
     */
    private static final java.util.regex.Pattern INTERNAL = java.util.regex.Pattern.compile(
            "io\\.seatlock\\.lock\\.(\\w+\\.)?internal\\b");


    @TestFactory
    Stream<DynamicTest> eachModulesPublicSignaturesAreTheCommittedOnes() {
        return LibraryClasses.MODULES.stream().map(module -> DynamicTest.dynamicTest(module, () -> {
            Path file = apiFile(module);
            List<String> actual = signatures(module);
            if (Boolean.getBoolean("seatlock.api.update")) {
                Files.createDirectories(file.getParent());
                Files.write(file, actual, StandardCharsets.UTF_8);
            }
            assertThat(file).as("%s: run bin/update-api", file).exists();
            List<String> committed = Files.readAllLines(file, StandardCharsets.UTF_8);
            Set<String> added = new TreeSet<>(actual);
            committed.forEach(added::remove);
            Set<String> removed = new TreeSet<>(committed);
            actual.forEach(removed::remove);
            assertThat(actual).as("public signatures of %s that name one of the library's internal types", module)
                    .noneMatch(line -> INTERNAL.matcher(line).find());
            assertThat(added).as("public signatures of %s not in %s (bin/update-api writes it anew)", module, file)
                    .isEmpty();
            assertThat(removed).as("signatures in %s that %s no longer has (bin/update-api writes it anew)", file,
                    module).isEmpty();
        }));
    }

    private static Path apiFile(String module) {
        return LibraryClasses.LIBRARY.resolve(module).resolve("api").resolve(module + ".api");
    }

    /** Every public or protected type of the module by name, each followed by such members as it declares, sorted. */
    static List<String> signatures(String module) throws IOException, ClassNotFoundException {
        Path classes = LibraryClasses.classesOf(module);
        List<String> names = LibraryClasses.namesIn(module);
        List<String> lines = new ArrayList<>();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
                PublicApiTest.class.getClassLoader())) {
            for (String name : names) {
                Class<?> type = Class.forName(name, false, loader);
                if (!visible(type) || INTERNAL.matcher(type.getPackageName()).lookingAt()) {
                    continue;
                }
                lines.add(typeLine(type));
                List<Member> members = new ArrayList<>();
                members.addAll(List.of(type.getDeclaredConstructors()));
                members.addAll(List.of(type.getDeclaredMethods()));
                members.addAll(List.of(type.getDeclaredFields()));
                Set<String> declared = new TreeSet<>();
                for (Member member : members) {
                    if (exposed(member)) {
                        declared.add("  " + memberLine(member));
                    }
                }
                lines.addAll(declared);
            }
        }
        return lines;
    }

    /** Reachable from outside the module: public or protected, and so is every type around it. */
    private static boolean visible(Class<?> type) {
        for (Class<?> t = type; t != null; t = t.getDeclaringClass()) {
            if (t.isAnonymousClass() || t.isLocalClass() || t.isSynthetic()
                    || !(Modifier.isPublic(t.getModifiers()) || Modifier.isProtected(t.getModifiers()))) {
                return false;
            }
        }
        return true;
    }

    private static boolean exposed(Member member) {
        int modifiers = member.getModifiers();
        boolean bridge = member instanceof Method method && method.isBridge();
        return !member.isSynthetic() && !bridge && (Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers));
    }

    private static String typeLine(Class<?> type) {
        // Java 17's toGenericString leaves sealed and non-sealed out, later ones print them: the permits clause says it
        StringBuilder line = new StringBuilder(type.toGenericString().replace("non-sealed ", "").replace("sealed ", ""));
        if (type.getGenericSuperclass() != null && type.getSuperclass() != Object.class && !type.isEnum()
                && !type.isRecord()) {
            line.append(" extends ").append(type.getGenericSuperclass().getTypeName());
        }
        if (type.getGenericInterfaces().length > 0) {
            line.append(type.isInterface() ? " extends " : " implements ");
            line.append(String.join(", ", Stream.of(type.getGenericInterfaces()).map(t -> t.getTypeName()).toList()));
        }
        if (type.isSealed()) {
            line.append(" permits ").append(String.join(", ",
                    Stream.of(type.getPermittedSubclasses()).map(Class::getName).sorted().toList()));
        }
        return line.toString();
    }

    private static String memberLine(Member member) {
        if (member instanceof Field field) {
            return field.toGenericString();
        }
        if (member instanceof Constructor<?> constructor) {
            return constructor.toGenericString();
        }
        return ((Executable) member).toGenericString();
    }
}
