package dev.phalanx.examples.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
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
 * Keeps docs/installation.md and {@code src/it/installation}, the user project that
 * maven-invoker-plugin builds and runs during {@code mvn install}, the same: the Maven block is in
 * that project's POM word for word (indentation aside), and its Java files are the page's Java
 * blocks, no more and no fewer. The Gradle block is not built here; it is checked for the same
 * coordinates and version. The README's short "Installation" section names the same version and
 * links to the page.
 */
class InstallationSectionTest {

  private static final Path PROJECT = Path.of("src", "it", "installation");
  private static final Path PAGE = Path.of("..", "docs", "installation.md");

  @Test
  void theMavenBlockIsThePomOfTheTestedProject() throws IOException {
    final List<String> xml = blocks("xml");
    assertEquals(1, xml.size(), "one xml block in " + PAGE);
    final String block = xml.get(0);
    assertTrue(
        block.contains("<phalanx.version>" + version() + "</phalanx.version>"),
        "the xml block names version " + version());
    final String pom =
        Files.readString(PROJECT.resolve("pom.xml")).replace("@project.version@", version());
    assertTrue(
        normalize(pom).contains(normalize(block)),
        "the xml block of " + PAGE + " is not, line for line, in " + PROJECT + "/pom.xml");
  }

  @Test
  void theJavaBlocksAreTheSourcesOfTheTestedProject() throws IOException {
    final List<String> blocks =
        blocks("java").stream().map(InstallationSectionTest::normalize).toList();
    final List<String> sources = new ArrayList<>();
    try (Stream<Path> files = Files.walk(PROJECT.resolve("src"))) {
      for (final Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
        sources.add(normalize(Files.readString(file)));
      }
    }
    // The tested project's sources, plus the module declaration of its modular twin.
    sources.add(
        normalize(
            Files.readString(
                PROJECT.resolveSibling("modular").resolve("src/main/java/module-info.java"))));
    assertEquals(blocks.size(), sources.size(), "as many java blocks as source files");
    for (final String source : sources) {
      assertTrue(blocks.contains(source), "no java block of " + PAGE + " is\n" + source);
    }
  }

  @Test
  void theGradleBlockUsesTheSameCoordinates() throws IOException {
    final List<String> gradle = blocks("kotlin");
    assertEquals(1, gradle.size(), "one kotlin block (build.gradle.kts) in " + PAGE);
    final String block = gradle.get(0);
    for (final String line :
        List.of(
            "implementation(\"dev.phalanx:ecs-runtime:" + version() + "\")",
            "compileOnly(\"dev.phalanx:ecs-annotations:" + version() + "\")",
            "annotationProcessor(\"dev.phalanx:ecs-processor:" + version() + "\")")) {
      assertTrue(block.contains(line), "the Gradle block lacks " + line);
    }
  }

  @Test
  void theReadmeNamesTheVersionAndLinksThePage() throws IOException {
    final String readme = Files.readString(Path.of("..", "README.md"));
    final int start = readme.indexOf("\n## Installation\n");
    assertTrue(start >= 0, "README.md has no \"## Installation\" section");
    final int end = readme.indexOf("\n## ", start + 1);
    final String section = readme.substring(start, end < 0 ? readme.length() : end);
    assertTrue(section.contains(version()), "the README's Installation names " + version());
    assertTrue(
        section.contains("(docs/installation.md)"), "the README's Installation links the page");
  }

  private static String version() {
    final String version = System.getProperty("phalanx.version");
    assertNotNull(version, "phalanx.version is set by examples/pom.xml's surefire configuration");
    return version;
  }

  /** The fenced blocks of one language in docs/installation.md. */
  private static List<String> blocks(final String language) throws IOException {
    final Matcher matcher =
        Pattern.compile("```" + language + "\\n(.*?)```", Pattern.DOTALL)
            .matcher(Files.readString(PAGE));
    final List<String> blocks = new ArrayList<>();
    while (matcher.find()) {
      blocks.add(matcher.group(1));
    }
    return blocks;
  }

  /** Drops indentation and blank lines. */
  private static String normalize(final String text) {
    final StringBuilder normalized = new StringBuilder();
    for (final String line : text.split("\n")) {
      final String trimmed = line.strip();
      if (!trimmed.isEmpty()) {
        normalized.append(trimmed).append('\n');
      }
    }
    return normalized.toString();
  }
}
