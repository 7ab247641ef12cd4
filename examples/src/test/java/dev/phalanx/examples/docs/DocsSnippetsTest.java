package dev.phalanx.examples.docs;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps docs/ and the README true to the code: every {@code java} code block of a page must appear,
 * line for line (indentation aside), in a source file of this module, where the compiler and the
 * tests check it.
 */
class DocsSnippetsTest {

  private static final Pattern BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);

  @Test
  void everyJavaBlockOfTheGuideIsCompiledCode() throws IOException {
    final Path docs = Path.of("..", "docs");
    assertTrue(Files.isDirectory(docs), "docs/ not found from " + Path.of("").toAbsolutePath());
    final String sources = normalize(allSources());
    final List<String> missing = new ArrayList<>();
    int blocks = 0;
    try (Stream<Path> pages =
        Stream.concat(Files.list(docs), Stream.of(Path.of("..", "README.md")))) {
      for (final Path page : pages.filter(p -> p.toString().endsWith(".md")).toList()) {
        final Matcher matcher = BLOCK.matcher(Files.readString(page));
        while (matcher.find()) {
          blocks++;
          if (!sources.contains(normalize(matcher.group(1)))) {
            missing.add(page.getFileName() + ":\n" + matcher.group(1));
          }
        }
      }
    }
    assertTrue(blocks > 0, "no java block found in docs/");
    assertFalse(
        !missing.isEmpty(), "blocks not found in compiled sources:\n" + String.join("\n", missing));
  }

  private static String allSources() throws IOException {
    final StringBuilder text = new StringBuilder();
    // Hand-written sources, and what the annotation processors generated from them (also compiled);
    // src/it holds the installation page's project, which maven-invoker-plugin compiles and runs.
    for (final String root :
        List.of(
            "src/main/java",
            "src/test/java",
            "src/it",
            "target/generated-sources/annotations",
            "target/generated-test-sources/test-annotations")) {
      final Path path = Path.of(root);
      if (!Files.isDirectory(path)) {
        continue;
      }
      try (Stream<Path> files = Files.walk(path)) {
        for (final Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
          text.append(Files.readString(file)).append('\n');
        }
      }
    }
    return text.toString();
  }

  /** Drops indentation and blank lines, so that a block matches wherever it is nested. */
  private static String normalize(final String code) {
    final StringBuilder text = new StringBuilder();
    for (final String line : code.split("\n")) {
      final String trimmed = line.strip();
      if (!trimmed.isEmpty()) {
        text.append(trimmed).append('\n');
      }
    }
    return text.toString();
  }
}
