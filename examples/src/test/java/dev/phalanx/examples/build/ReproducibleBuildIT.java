package dev.phalanx.examples.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Two builds of one commit give byte-identical library jars (classes, sources, Javadoc, the shaded
 * processor, and the optional inspector). The first build is the one running this test: the reactor
 * built the library modules before this one. The second runs here, offline, on a copy of their
 * sources in another directory, so that neither a time nor a path may leak into a jar. Costs one
 * Maven run of about ten seconds.
 *
 * <p>Run by maven-failsafe-plugin, which passes {@code maven.home} and {@code local.repository}.
 * Compared with jars that an earlier build left behind (for example {@code mvn -pl examples verify}
 * after a source change), it fails: run {@code mvn clean install} then.
 */
class ReproducibleBuildIT {

  private static final List<String> LIBRARIES =
      List.of("ecs-annotations", "ecs-runtime", "ecs-processor", "ecs-inspector");
  private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");

  @Test
  void twoBuildsOfOneCommitGiveIdenticalLibraryJars() throws IOException, InterruptedException {
    final Path root = Path.of("..").toAbsolutePath().normalize();
    final Path copy = Path.of("target", "reproducibility").toAbsolutePath();
    deleteRecursively(copy);
    copySources(root, copy);

    final Path log = copy.resolve("build.log");
    final int exit = maven(copy, log);
    assertEquals(0, exit, () -> "the second build failed; its log:\n" + tail(log));

    final List<String> differences = new ArrayList<>();
    for (final String library : LIBRARIES) {
      final Path first = root.resolve(library).resolve("target");
      final Path second = copy.resolve(library).resolve("target");
      final TreeSet<String> jars = jars(first, library);
      assertFalse(jars.isEmpty(), "no jar in " + first + ": build the library modules first");
      assertEquals(jars, jars(second, library), library + ": the two builds made other jars");
      for (final String jar : jars) {
        if (!Arrays.equals(
            Files.readAllBytes(first.resolve(jar)), Files.readAllBytes(second.resolve(jar)))) {
          differences.add(library + "/target/" + jar);
        }
      }
    }
    assertTrue(
        differences.isEmpty(),
        () ->
            "not byte-identical after a second build (compare "
                + "with the copy in "
                + copy
                + "; after a source change without `mvn clean`, stale "
                + "output can be the cause): "
                + differences);
  }

  /** The root files, every module's POM (the reactor reads them all), the libraries' sources. */
  private static void copySources(final Path root, final Path copy) throws IOException {
    Files.createDirectories(copy);
    try (Stream<Path> files = Files.list(root)) {
      for (final Path file :
          files
              .filter(Files::isRegularFile)
              .filter(f -> !f.getFileName().toString().startsWith("."))
              .toList()) {
        Files.copy(file, copy.resolve(file.getFileName()));
      }
    }
    if (Files.isDirectory(root.resolve(".mvn"))) {
      copyTree(root.resolve(".mvn"), copy.resolve(".mvn"));
    }
    final Matcher modules = MODULE.matcher(Files.readString(root.resolve("pom.xml")));
    while (modules.find()) {
      final String module = modules.group(1).strip();
      Files.createDirectories(copy.resolve(module));
      Files.copy(root.resolve(module).resolve("pom.xml"), copy.resolve(module).resolve("pom.xml"));
    }
    for (final String library : LIBRARIES) {
      copyTree(
          root.resolve(library).resolve("src").resolve("main"),
          copy.resolve(library).resolve("src").resolve("main"));
    }
  }

  private static int maven(final Path directory, final Path log)
      throws IOException, InterruptedException {
    final String home = System.getProperty("maven.home");
    final String repository = System.getProperty("local.repository");
    assertTrue(
        home != null && repository != null,
        "run by maven-failsafe-plugin, which sets maven.home and local.repository");
    final boolean windows = System.getProperty("os.name").startsWith("Windows");
    final Path mvn = Path.of(home, "bin", windows ? "mvn.cmd" : "mvn");
    final ProcessBuilder builder =
        new ProcessBuilder(
                mvn.toString(),
                "-B",
                "-q",
                "-o",
                "-Dmaven.repo.local=" + repository,
                "-Dmaven.test.skip=true",
                "-pl",
                String.join(",", LIBRARIES),
                "package")
            .directory(directory.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    // The JDK that runs this test is the one of the first build; the second must use it too.
    builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
    final Process process = builder.start();
    if (!process.waitFor(10, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      fail("the second build took more than 10 minutes; its log:\n" + tail(log));
    }
    return process.exitValue();
  }

  /** The jars that are installed and published: not shade's {@code original-} input. */
  private static TreeSet<String> jars(final Path directory, final String artifactId)
      throws IOException {
    if (!Files.isDirectory(directory)) {
      return new TreeSet<>();
    }
    try (Stream<Path> files = Files.list(directory)) {
      return files
          .map(f -> f.getFileName().toString())
          .filter(name -> name.startsWith(artifactId + "-") && name.endsWith(".jar"))
          .collect(Collectors.toCollection(TreeSet::new));
    }
  }

  private static String tail(final Path log) {
    try {
      final List<String> lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
    } catch (final IOException e) {
      return "(no log: " + e + ")";
    }
  }

  private static void copyTree(final Path from, final Path to) throws IOException {
    try (Stream<Path> paths = Files.walk(from)) {
      for (final Path path : paths.toList()) {
        final Path target = to.resolve(from.relativize(path).toString());
        if (Files.isDirectory(path)) {
          Files.createDirectories(target);
        } else {
          Files.copy(path, target, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }

  private static void deleteRecursively(final Path directory) throws IOException {
    if (!Files.exists(directory)) {
      return;
    }
    Files.walkFileTree(
        directory,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(final Path file, final BasicFileAttributes attributes)
              throws IOException {
            Files.delete(file);
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult postVisitDirectory(final Path dir, final IOException e)
              throws IOException {
            if (e != null) {
              throw e;
            }
            Files.delete(dir);
            return FileVisitResult.CONTINUE;
          }
        });
  }
}
