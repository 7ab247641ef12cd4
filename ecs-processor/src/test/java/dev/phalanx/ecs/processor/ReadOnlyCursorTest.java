package dev.phalanx.ecs.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import javax.tools.JavaFileObject;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A component a query lists in {@code readOnly} reaches the query's visitor as {@code
 * Foo_ReadCursor}, which has no setter: a write through it is a compile error, for every kind of
 * query and for both visitor forms ({@code each}, {@code eachChangedSince}). Without {@code
 * readOnly} the same system compiles. Each kind of query is named by the annotation that declares
 * it.
 */
class ReadOnlyCursorTest {

  private static final String VIEW = "@ViewQuery(include = {Position.class, Heat.class}";
  private static final String OWNING = "@GroupQuery(owned = {Position.class, Heat.class}";
  private static final String NON_OWNING = "@GroupQuery(get = {Position.class, Heat.class}";

  private static final JavaFileObject COMPONENTS =
      JavaFileObjects.forSourceLines(
          "test.Components",
          "package test;",
          "import dev.phalanx.ecs.annotations.Component;",
          "final class Components {",
          "  private Components() {}",
          "  @Component public record Position(float x, float y) {}",
          "  @Component(tracked = true) public record Heat(float celsius) {}",
          "}");

  private static Compilation compile(final JavaFileObject... sources) {
    final JavaFileObject[] all = new JavaFileObject[sources.length + 1];
    all[0] = COMPONENTS;
    System.arraycopy(sources, 0, all, 1, sources.length);
    return javac()
        .withProcessors(new PhalanxProcessor())
        .withOptions("-Xlint:all", "-Werror")
        .compile(all);
  }

  /** The query {@code test.Hot}: {@code declaration} closed with {@code readOnly}, if any. */
  private static JavaFileObject query(final String declaration, final String readOnly) {
    return JavaFileObjects.forSourceLines(
        "test.Hot",
        "package test;",
        "import dev.phalanx.ecs.annotations.GroupQuery;",
        "import dev.phalanx.ecs.annotations.ViewQuery;",
        "import test.Components.*;",
        declaration + (readOnly.isEmpty() ? ")" : ", readOnly = " + readOnly + ")"),
        "interface Hot {}");
  }

  /**
   * A system whose visitor's body is {@code body}, over cursors {@code position} and {@code heat}.
   */
  private static JavaFileObject system(final String body) {
    return JavaFileObjects.forSourceLines(
        "test.HeatSystem",
        "package test;",
        "final class HeatSystem {",
        "  private final HotQuery query;",
        "  HeatSystem(HotQuery query) { this.query = query; }",
        "  void run() {",
        "    query.each((entity, position, heat) -> {",
        "      " + body,
        "    });",
        "  }",
        "  void changed(long tick) {",
        "    query.eachChangedSince(tick, (entity, position, heat) -> {",
        "      " + body,
        "    });",
        "  }",
        "}");
  }

  @ParameterizedTest
  @ValueSource(strings = {VIEW, OWNING, NON_OWNING})
  void setterOnAReadOnlyCursorDoesNotCompile(final String declaration) {
    final JavaFileObject system = system("heat.setCelsius(heat.celsius() + position.x());");
    final Compilation compilation = compile(query(declaration, "Heat.class"), system);
    assertThat(compilation).failed();
    // Once in each's visitor (line 7 of HeatSystem), once in eachChangedSince's (line 12).
    assertThat(compilation).hadErrorCount(2);
    for (final int line : new int[] {7, 12}) {
      assertThat(compilation).hadErrorContaining("cannot find symbol").inFile(system).onLine(line);
    }
    assertThat(compilation).hadErrorContaining("method setCelsius(float)");
    assertThat(compilation)
        .hadErrorContaining("variable heat of type test.Components_Heat_ReadCursor");
  }

  @ParameterizedTest
  @ValueSource(strings = {VIEW, OWNING, NON_OWNING})
  void sameSetterCompilesWithoutReadOnly(final String declaration) {
    final Compilation compilation =
        compile(query(declaration, ""), system("heat.setCelsius(heat.celsius() + position.x());"));
    assertThat(compilation).succeededWithoutWarnings();
  }

  @ParameterizedTest
  @ValueSource(strings = {VIEW, OWNING, NON_OWNING})
  void readOnlyCoversOnlyTheListedComponent(final String declaration) {
    // Position stays writable; Heat is read through every read member of its read-only cursor.
    final Compilation compilation =
        compile(
            query(declaration, "Heat.class"),
            system(
                "position.setX(heat.celsius() + heat.get().celsius()"
                    + " + (heat.changedSince(0L) ? 1f : 0f) + heat.currentEntity()"
                    + " + heat.currentPosition());"));
    assertThat(compilation).succeededWithoutWarnings();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "set(new Heat(1f))",
        "storage().setCelsius(entity, 1f)",
        "moveTo(0).setCelsius(1f)"
      })
  void aReadOnlyCursorHasNoOtherWayToWrite(final String call) {
    final JavaFileObject system = system("heat." + call + ";");
    final Compilation compilation = compile(query(VIEW, "Heat.class"), system);
    assertThat(compilation).failed();
    assertThat(compilation).hadErrorContaining("cannot find symbol").inFile(system);
  }

  @ParameterizedTest
  @ValueSource(strings = {"Heat.class", "{Position.class, Heat.class}"})
  void aWritableCursorIsAReadCursor(final String readOnly) {
    // Code that only reads takes the read-only type, and accepts the storage's own cursor too.
    final JavaFileObject reader =
        JavaFileObjects.forSourceLines(
            "test.Reader",
            "package test;",
            "final class Reader {",
            "  static float read(Components_Heat_ReadCursor heat) { return heat.celsius(); }",
            "  static float both(HotQuery query, long entity) {",
            "    Components_Heat_Cursor writable = query.heatStorage().cursor();",
            "    return read(writable.moveToEntity(entity)) + read(writable.moveTo(0));",
            "  }",
            "}");
    final Compilation compilation =
        compile(query(OWNING, readOnly), reader, system("Reader.read(heat);"));
    assertThat(compilation).succeededWithoutWarnings();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "final class Fake extends Components_Heat_ReadCursor {",
        "non-sealed class Fake extends Components_Heat_ReadCursor {"
      })
  void onlyTheGeneratedCursorExtendsTheReadCursor(final String declaration) {
    final JavaFileObject fake =
        JavaFileObjects.forSourceLines(
            "test.Fake", "package test;", declaration, "  Fake() { super(null); }", "}");
    final Compilation compilation = compile(query(VIEW, ""), fake);
    assertThat(compilation).failed();
    assertThat(compilation)
        .hadErrorContaining("class is not allowed to extend sealed class")
        .inFile(fake)
        .onLineContaining("class Fake");
  }
}
