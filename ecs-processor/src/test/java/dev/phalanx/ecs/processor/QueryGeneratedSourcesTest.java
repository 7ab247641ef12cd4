package dev.phalanx.ecs.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * Golden-file tests of the generated queries: each declaration compiles, with its components, under
 * {@code -Xlint:all -Werror}, and the generated query equals its golden, kept under {@code
 * src/test/resources/goldens/QueryGeneratedSourcesTest/<method>/<qualified name>.java}.
 *
 * <p>After an intended change to the generated code, regenerate the goldens with {@code mvn -pl
 * ecs-processor test -Dtest=QueryGeneratedSourcesTest -Dphalanx.updateGoldens=true} and review the
 * diff.
 */
class QueryGeneratedSourcesTest {

  private static final boolean UPDATE = Boolean.getBoolean("phalanx.updateGoldens");
  private static final Path GOLDENS =
      Path.of("src", "test", "resources", "goldens", "QueryGeneratedSourcesTest");

  private static final JavaFileObject POSITION =
      component("Position", "public record Position(float x, float y) {}");
  private static final JavaFileObject VELOCITY =
      component(
          "Velocity",
          "public final class Velocity {",
          "  public float x;",
          "  public float y;",
          "}");
  private static final JavaFileObject HEALTH =
      component("Health", "public record Health(int hp) {}");
  private static final JavaFileObject FROZEN = component("Frozen", "public record Frozen() {}");
  private static final JavaFileObject HEAT =
      JavaFileObjects.forSourceLines(
          "test.Heat",
          "package test;",
          "import dev.phalanx.ecs.annotations.Component;",
          "@Component(tracked = true)",
          "public record Heat(float celsius) {}");
  private static final JavaFileObject LABEL =
      component("Label", "public record Label(String text, java.util.List<String> tags) {}");

  @Test
  void owningGroup(final TestInfo test) {
    check(
        test,
        "test.MoversQuery",
        JavaFileObjects.forSourceLines(
            "test.Movers",
            "package test;",
            "import dev.phalanx.ecs.annotations.GroupQuery;",
            "@GroupQuery(owned = {Position.class, Velocity.class, Label.class}, get = Health.class,"
                + " exclude = Frozen.class)",
            "public interface Movers {}"));
  }

  @Test
  void trackedOwningGroup(final TestInfo test) {
    check(
        test,
        "test.WarmersQuery",
        JavaFileObjects.forSourceLines(
            "test.Warmers",
            "package test;",
            "import dev.phalanx.ecs.annotations.GroupQuery;",
            "@GroupQuery(owned = {Position.class, Heat.class})",
            "public interface Warmers {}"));
  }

  @Test
  void readOnlyOwningGroup(final TestInfo test) {
    // Heat, tracked and owned, is read-only: a Heat_ReadCursor in the visitor, its chunk arrays
    // documented read-only, and no pass stamps it, so eachChunkReadOnly is eachChunk.
    check(
        test,
        "test.ReadersQuery",
        JavaFileObjects.forSourceLines(
            "test.Readers",
            "package test;",
            "import dev.phalanx.ecs.annotations.GroupQuery;",
            "@GroupQuery(owned = {Position.class, Heat.class}, get = Label.class,"
                + " readOnly = {Heat.class, Label.class})",
            "public interface Readers {}"));
  }

  @Test
  void readOnlyView(final TestInfo test) {
    check(
        test,
        "test.ShownQuery",
        JavaFileObjects.forSourceLines(
            "test.Shown",
            "package test;",
            "import dev.phalanx.ecs.annotations.ViewQuery;",
            "@ViewQuery(include = {Position.class, Label.class}, readOnly = Label.class)",
            "interface Shown {}"));
  }

  @Test
  void trackedView(final TestInfo test) {
    check(
        test,
        "test.HotQuery",
        JavaFileObjects.forSourceLines(
            "test.Hot",
            "package test;",
            "import dev.phalanx.ecs.annotations.ViewQuery;",
            "@ViewQuery(include = {Heat.class, Health.class})",
            "public interface Hot {}"));
  }

  @Test
  void optionalView(final TestInfo test) {
    // Optional terms of each kind: a cursor or null (Velocity), a read-only one (Label), a tag's
    // presence (Frozen); eachChangedSince tests the included tracked Heat only.
    check(
        test,
        "test.WarmQuery",
        JavaFileObjects.forSourceLines(
            "test.Warm",
            "package test;",
            "import dev.phalanx.ecs.annotations.ViewQuery;",
            "@ViewQuery(include = Heat.class, optional = {Velocity.class, Frozen.class,"
                + " Label.class}, readOnly = Label.class)",
            "interface Warm {}"));
  }

  @Test
  void optionalOwningGroup(final TestInfo test) {
    check(
        test,
        "test.HurtQuery",
        JavaFileObjects.forSourceLines(
            "test.Hurt",
            "package test;",
            "import dev.phalanx.ecs.annotations.GroupQuery;",
            "@GroupQuery(owned = Position.class, optional = Health.class)",
            "interface Hurt {}"));
  }

  @Test
  void optionalNonOwningGroup(final TestInfo test) {
    // The optional cursors' alignments are remembered across passes, as the included one's.
    check(
        test,
        "test.DriftQuery",
        JavaFileObjects.forSourceLines(
            "test.Drift",
            "package test;",
            "import dev.phalanx.ecs.annotations.GroupQuery;",
            "@GroupQuery(get = Position.class, optional = {Velocity.class, Frozen.class})",
            "interface Drift {}"));
  }

  @Test
  void nonOwningGroup(final TestInfo test) {
    check(
        test,
        "test.Systems_HealthyQuery",
        JavaFileObjects.forSourceLines(
            "test.Systems",
            "package test;",
            "import dev.phalanx.ecs.annotations.GroupQuery;",
            "public final class Systems {",
            "  private Systems() {}",
            "  @GroupQuery(get = {Health.class, Frozen.class})",
            "  abstract static class Healthy {}",
            "}"));
  }

  @Test
  void view(final TestInfo test) {
    check(
        test,
        "test.VisibleQuery",
        JavaFileObjects.forSourceLines(
            "test.Visible",
            "package test;",
            "import dev.phalanx.ecs.annotations.ViewQuery;",
            "@ViewQuery(include = {Position.class, Label.class}, exclude = Frozen.class)",
            "interface Visible {}"));
  }

  @Test
  void gradleIncrementalDeclarationListsOneIsolatingProcessor() throws IOException {
    final Path declaration =
        Path.of(
            "src", "main", "resources", "META-INF", "gradle", "incremental.annotation.processors");
    assertEquals(
        java.util.List.of("dev.phalanx.ecs.processor.PhalanxProcessor,isolating"),
        Files.readAllLines(declaration, StandardCharsets.UTF_8));
  }

  private static JavaFileObject component(final String name, final String... lines) {
    final String[] all = new String[lines.length + 3];
    all[0] = "package test;";
    all[1] = "import dev.phalanx.ecs.annotations.Component;";
    all[2] = "@Component";
    System.arraycopy(lines, 0, all, 3, lines.length);
    return JavaFileObjects.forSourceLines("test." + name, all);
  }

  private static void check(
      final TestInfo test, final String generated, final JavaFileObject declaration) {
    final Compilation compilation =
        javac()
            .withProcessors(new PhalanxProcessor())
            .withOptions("-Xlint:all", "-Werror")
            .compile(POSITION, VELOCITY, HEALTH, FROZEN, LABEL, HEAT, declaration);
    assertThat(compilation).succeededWithoutWarnings();
    final Optional<JavaFileObject> file = compilation.generatedSourceFile(generated);
    assertTrue(file.isPresent(), generated + " was not generated");
    final String actual = read(file.get());
    final Path golden =
        GOLDENS.resolve(test.getTestMethod().orElseThrow().getName()).resolve(generated + ".java");
    if (UPDATE) {
      write(golden, actual);
    }
    assertTrue(
        Files.exists(golden), "no golden " + golden + "; run with -Dphalanx.updateGoldens=true");
    assertEquals(read(golden), actual, "generated " + generated + " differs from " + golden);
  }

  private static String read(final JavaFileObject file) {
    try {
      return file.getCharContent(true).toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String read(final Path golden) {
    try {
      return Files.readString(golden, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void write(final Path golden, final String text) {
    try {
      Files.createDirectories(golden.getParent());
      Files.writeString(golden, text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
