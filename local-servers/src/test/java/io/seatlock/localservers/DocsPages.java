package io.seatlock.localservers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
}
