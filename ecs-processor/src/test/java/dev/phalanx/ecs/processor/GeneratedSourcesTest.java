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
import java.util.List;
import java.util.Optional;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * Golden-file tests: representative components compile with their generated classes under {@code
 * -Xlint:all -Werror}, and each generated file equals its golden, kept under {@code
 * src/test/resources/goldens/GeneratedSourcesTest/<method>/<qualified name>.java}.
 *
 * <p>After an intended change to the generated code, regenerate the goldens with {@code mvn -pl
 * ecs-processor test -Dtest=GeneratedSourcesTest -Dphalanx.updateGoldens=true} and review the diff.
 */
class GeneratedSourcesTest {

  private static final boolean UPDATE = Boolean.getBoolean("phalanx.updateGoldens");
  private static final Path GOLDENS =
      Path.of("src", "test", "resources", "goldens", "GeneratedSourcesTest");

  @Test
  void record(final TestInfo test) {
    check(
        test,
        List.of(
            "test.Position_Storage",
            "test.Position_ReadCursor",
            "test.Position_Cursor",
            "test.Position_Traits"),
        source(
            "Position",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "@Component",
            "public record Position(float x, float y) {}"));
  }

  @Test
  void tracked(final TestInfo test) {
    check(
        test,
        List.of(
            "test.Heat_Storage", "test.Heat_ReadCursor", "test.Heat_Cursor", "test.Heat_Traits"),
        source(
            "Heat",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "@Component(tracked = true)",
            "public record Heat(float celsius, int source) {}"));
  }

  @Test
  void mutableClass(final TestInfo test) {
    check(
        test,
        List.of(
            "test.Velocity_Storage",
            "test.Velocity_ReadCursor",
            "test.Velocity_Cursor",
            "test.Velocity_Traits"),
        source(
            "Velocity",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "@Component",
            "public class Velocity {",
            "  public float dx;",
            "  float dy;",
            "  private float spin;",
            "  public float getSpin() { return spin; }",
            "  public void setSpin(float spin) { this.spin = spin; }",
            "}"));
  }

  @Test
  void classWithAllFieldsConstructor(final TestInfo test) {
    check(
        test,
        List.of("test.Health_Storage"),
        source(
            "Health",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "@Component",
            "public final class Health {",
            "  private final int current;",
            "  private final int max;",
            "  public Health(int current, int max) { this.current = current; this.max = max; }",
            "  public int current() { return current; }",
            "  public int getMax() { return max; }",
            "}"));
  }

  @Test
  void allPrimitives(final TestInfo test) {
    check(
        test,
        List.of(
            "test.Primitives_Storage",
            "test.Primitives_ReadCursor",
            "test.Primitives_Cursor",
            "test.Primitives_Traits"),
        source(
            "Primitives",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "@Component(pageSize = 64)",
            "public record Primitives(boolean flag, byte tiny, short small, char letter, int"
                + " count,",
            "    long big, float ratio, double precise) {}"));
  }

  @Test
  void referenceAndEnumFields(final TestInfo test) {
    check(
        test,
        List.of(
            "test.Label_Storage",
            "test.Label_ReadCursor",
            "test.Label_Cursor",
            "test.Label_Traits"),
        source(
            "Label",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "import dev.phalanx.ecs.annotations.EntityRef;",
            "import java.util.List;",
            "import java.util.Map;",
            "@Component",
            "public record Label(String text, Color color, List<String> tags,",
            "    Map<String, List<Integer>> index2, int[][] grid, @EntityRef long owner) {",
            "  public enum Color { RED, GREEN }",
            "}"));
  }

  @Test
  void tag(final TestInfo test) {
    check(
        test,
        List.of("test.Frozen_Storage", "test.Frozen_Traits"),
        source(
            "Frozen",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "@Component",
            "public record Frozen() {}"));
  }

  @Test
  void tagWithoutConstructor(final TestInfo test) {
    check(
        test,
        List.of("test.Sealed_Storage"),
        source(
            "Sealed",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "import dev.phalanx.ecs.annotations.Empty;",
            "@Component(empty = Empty.TAG)",
            "public final class Sealed {",
            "  public static final Sealed INSTANCE = new Sealed();",
            "  private Sealed() {}",
            "}"));
  }

  @Test
  void emptyOptimizationDisabled(final TestInfo test) {
    check(
        test,
        List.of("test.Token_Storage", "test.Token_Traits"),
        source(
            "Token",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "import dev.phalanx.ecs.annotations.Empty;",
            "@Component(empty = Empty.STORE)",
            "public final class Token {}"));
  }

  @Test
  void inPlaceDelete(final TestInfo test) {
    check(
        test,
        List.of("test.Node_Storage", "test.Node_Traits"),
        source(
            "Node",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "import dev.phalanx.ecs.annotations.EntityRef;",
            "@Component(inPlaceDelete = true, pageSize = 128)",
            "public record Node(@EntityRef long entity, String name) {}"));
  }

  @Test
  void nestedComponent(final TestInfo test) {
    check(
        test,
        List.of("test.World_Gravity_Traits"),
        source(
            "World",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "public class World {",
            "  @Component",
            "  public record Gravity(double g) {}",
            "}"));
  }

  /**
   * The processor claims {@code @Relationship} too: with {@code -Xlint:processing} (in {@code
   * -Xlint:all}) an annotation no processor claims is a warning, which {@code -Werror} turns into a
   * failed build of the user's relationship kind.
   */
  @Test
  void aRelationshipKindCompilesWarningFree() {
    final Compilation compilation =
        javac()
            .withProcessors(new PhalanxProcessor())
            .withOptions("-Xlint:all", "-Werror")
            .compile(
                source(
                    "Docked",
                    "package test;",
                    "import dev.phalanx.ecs.annotations.Component;",
                    "import dev.phalanx.ecs.annotations.EntityRef;",
                    "import dev.phalanx.ecs.annotations.Relationship;",
                    "@Component",
                    "@Relationship",
                    "public record Docked(@EntityRef long carrier, int bay) {}"));
    assertThat(compilation).succeededWithoutWarnings();
  }

  @Test
  void deprecatedComponentAndFieldTypeStayWarningFree() {
    final Compilation compilation =
        javac()
            .withProcessors(new PhalanxProcessor())
            .withOptions("-Xlint:all", "-Werror")
            .compile(
                source(
                    "Old",
                    "package test;",
                    "@Deprecated(forRemoval = true)",
                    "public enum Old { A }"),
                source(
                    "Legacy",
                    "package test;",
                    "import dev.phalanx.ecs.annotations.Component;",
                    "@Deprecated",
                    "@Component",
                    "public record Legacy(@SuppressWarnings(\"removal\") Old old, int n) {}"));
    assertThat(compilation).succeededWithoutWarnings();
    assertThat(compilation)
        .generatedSourceFile("test.Legacy_Storage")
        .contentsAsUtf8String()
        .contains("@SuppressWarnings({\"deprecation\", \"removal\"})");
  }

  @Test
  void gradleIncrementalDeclarationIsIsolating() throws IOException {
    final Path declaration =
        Path.of(
            "src", "main", "resources", "META-INF", "gradle", "incremental.annotation.processors");
    assertTrue(
        Files.readAllLines(declaration, StandardCharsets.UTF_8)
            .contains("dev.phalanx.ecs.processor.PhalanxProcessor,isolating"));
  }

  private static JavaFileObject source(final String name, final String... lines) {
    return JavaFileObjects.forSourceLines("test." + name, lines);
  }

  private static void check(
      final TestInfo test, final List<String> generated, final JavaFileObject source) {
    final Compilation compilation =
        javac()
            .withProcessors(new PhalanxProcessor())
            .withOptions("-Xlint:all", "-Werror")
            .compile(source);
    assertThat(compilation).succeededWithoutWarnings();
    final Path folder = GOLDENS.resolve(test.getTestMethod().orElseThrow().getName());
    for (final String name : generated) {
      final Optional<JavaFileObject> file = compilation.generatedSourceFile(name);
      assertTrue(file.isPresent(), name + " was not generated");
      final String actual = read(file.get());
      final Path golden = folder.resolve(name + ".java");
      if (UPDATE) {
        write(golden, actual);
      }
      assertTrue(
          Files.exists(golden), "no golden " + golden + "; run with -Dphalanx.updateGoldens=true");
      assertEquals(readGolden(golden), actual, "generated " + name + " differs from " + golden);
    }
  }

  private static String read(final JavaFileObject file) {
    try {
      return file.getCharContent(true).toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String readGolden(final Path golden) {
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
