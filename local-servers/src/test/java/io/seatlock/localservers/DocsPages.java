package io.seatlock.localservers;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/** The product's pages: README.md, every page of docs/, bench/README.md and CHANGELOG.md. */
final class DocsPages {

    static final Path ROOT = Path.of("..").toAbsolutePath().normalize(); // surefire runs in local-servers

    private DocsPages() {
    }

    static List<Path> all() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("bench/README.md"),
                ROOT.resolve("CHANGELOG.md")));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(page -> page.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    /** Folders a build writes into while the tests run, or that hold no source of the repository's. */
    private static final Set<String> NOT_SOURCES = Set.of("target", ".git", "node_modules");

    /**
     * Every {@code .java} file of the repository. Build output is not walked at all: a build running beside (or this
     * one's other test forks) writes and deletes files there while the walk goes on.
     */
    static List<Path> javaSources() throws IOException {
        List<Path> found = new ArrayList<>();
        Files.walkFileTree(ROOT, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                Path name = dir.getFileName();
                return name != null && NOT_SOURCES.contains(name.toString()) ? FileVisitResult.SKIP_SUBTREE
                        : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                if (file.toString().endsWith(".java")) {
                    found.add(file);
                }
                return FileVisitResult.CONTINUE;
            }
        });
        return found;
    }
}
