package dev.phalanx.ecs.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * Inputs a user may write that once broke the processor or the generated code: user classes that
 * shadow names the generated code uses, fields named like generated locals, components and queries
 * at the JVM's parameter limits, queries over invalid components, generated-name collisions, local
 * declarations, validating record constructors, deprecated components in queries and owning groups
 * of different registries. Each compiles under {@code -Xlint:all -Werror} or fails with exactly the
 * expected coded diagnostic, and none shows a stack trace.
 */
class InputsTest {

  private static Compilation compile(final JavaFileObject... sources) {
    return javac()
        .withProcessors(new PhalanxProcessor())
        .withOptions("-Xlint:all", "-Werror")
        .compile(sources);
  }

  private static JavaFileObject source(final String name, final String... lines) {
    return JavaFileObjects.forSourceLines("test." + name, lines);
  }

  private static JavaFileObject component(final String name, final String declaration) {
    return source(
        name,
        "package test;",
        "import dev.phalanx.ecs.annotations.Component;",
        "@Component",
        declaration);
  }

  private static String generated(final Compilation compilation, final String name) {
    try {
      return compilation.generatedSourceFile(name).orElseThrow().getCharContent(true).toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void assertNoTrace(final Compilation compilation) {
    for (final Diagnostic<? extends JavaFileObject> diagnostic : compilation.diagnostics()) {
      final String message = diagnostic.getMessage(null);
      assertFalse(
          message.contains("\tat ") || message.contains("Exception:"),
          "stack trace in: " + message);
    }
  }

  // -----------------------------------------------------------------------------------------------
  // Names.
  // -----------------------------------------------------------------------------------------------

  @Test
  void userClassesNamedLikeJavaLangOrImportedClassesShadowNothing() {
    final List<JavaFileObject> sources = new ArrayList<>();
    for (final String name :
        List.of(
            "Class",
            "Math",
            "String",
            "Override",
            "FunctionalInterface",
            "Generated",
            "List",
            "Arrays",
            "Object",
            "SuppressWarnings",
            "Integer",
            "Long",
            "ForkJoinPool",
            "Storage",
            "Registry")) {
      sources.add(source(name, "package test;", "final class " + name + " {}"));
    }
    sources.add(
        component(
            "Position", "public record Position(float x, float y, java.lang.String name) {}"));
    sources.add(
        component(
            "Velocity",
            "public final class Velocity { public float dx; public java.util.List<java.lang.String>"
                + " tags; }"));
    sources.add(component("Frozen", "public record Frozen() {}"));
    sources.add(
        source(
            "Queries",
            "package test;",
            "import dev.phalanx.ecs.annotations.GroupQuery;",
            "import dev.phalanx.ecs.annotations.ViewQuery;",
            "final class Queries {",
            "  private Queries() {}",
            "  @GroupQuery(owned = {Position.class, Velocity.class}, exclude = Frozen.class)"
                + " interface Movers {}",
            "  @GroupQuery(get = {Position.class, Frozen.class}) interface Still {}",
            "  @ViewQuery(include = {Position.class, Velocity.class}) interface Visible {}",
            "}"));
    final Compilation compilation = compile(sources.toArray(new JavaFileObject[0]));
    assertThat(compilation).succeededWithoutWarnings();
    assertTrue(generated(compilation, "test.Position_Storage").contains("import java.lang.Math;"));
    assertTrue(
        generated(compilation, "test.Queries_MoversQuery")
            .contains("import java.lang.FunctionalInterface;"));
  }

  @Test
  void fieldsNamedLikeGeneratedLocalsCompile() {
    final Compilation compilation =
        compile(
            component(
                "Odd",
                "public record Odd(int position$, int page$, int offset$, long entity, long"
                    + " entity$, int value) {}"));
    assertThat(compilation).succeededWithoutWarnings();
    final String storage = generated(compilation, "test.Odd_Storage");
    assertTrue(
        storage.contains(
            "final long entity$$, final int position$, final int page$, final int offset$"),
        storage);
    assertTrue(storage.contains("final int position$$ = prepareInsert(entity$$);"), storage);
  }

  @Test
  void fieldClashingWithAnInheritedRuntimeMethodIsRejected() {
    final JavaFileObject odd =
        component("Odd", "public record Odd(long entityWithIndex, float x) {}");
    final Compilation compilation = compile(odd);
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation)
        .hadErrorContaining(
            "[PhalanxReservedName] field 'entityWithIndex' would generate a method"
                + " 'entityWithIndex' with 1 parameter(s) on the storage")
        .inFile(odd)
        .onLineContaining("record Odd");
  }

  // -----------------------------------------------------------------------------------------------
  // Page sizes.
  // -----------------------------------------------------------------------------------------------

  @Test
  void pageSizeAboveTheRuntimeLimitIsRejected() {
    final JavaFileObject big =
        source(
            "Big",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "@Component(",
            "    pageSize = 131072)",
            "public record Big(int x) {}");
    final Compilation compilation = compile(big);
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation)
        .hadErrorContaining(
            "[PhalanxPageSize] pageSize must be a power of two from 1 to 65536,"
                + " got 131072: a page is allocated whole on first use")
        .inFile(big)
        .onLineContaining("pageSize = 131072");
  }

  @Test
  void pageSizeAtTheRuntimeLimitIsAccepted() {
    assertThat(
            compile(
                source(
                    "Big",
                    "package test;",
                    "import dev.phalanx.ecs.annotations.Component;",
                    "@Component(pageSize = 65536)",
                    "public record Big(int x) {}")))
        .succeededWithoutWarnings();
  }

  // -----------------------------------------------------------------------------------------------
  // Wide components and queries.
  // -----------------------------------------------------------------------------------------------

  private static String fields(
      final String type, final int count, final String separator, final String suffix) {
    final List<String> fields = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      fields.add(type + " f" + i + suffix);
    }
    return String.join(separator, fields);
  }

  @Test
  void recordAtTheParameterLimitKeepsItsTypedForms() {
    // this (1) + entity (2) + 126 longs (252) = 255 slots.
    final Compilation compilation =
        compile(component("Wide", "public record Wide(" + fields("long", 126, ", ", "") + ") {}"));
    assertThat(compilation).succeededWithoutWarnings();
    assertTrue(
        generated(compilation, "test.Wide_Storage")
            .contains("public void emplace(final long entity, final long f0"));
  }

  @Test
  void recordOfDoublesAtTheParameterLimitKeepsItsTypedForms() {
    // this (1) + entity (2) + 126 doubles (252) = 255 slots: doubles take two slots, like longs.
    final Compilation compilation =
        compile(
            component("Wide", "public record Wide(" + fields("double", 126, ", ", "") + ") {}"));
    assertThat(compilation).succeededWithoutWarnings();
    final String storage = generated(compilation, "test.Wide_Storage");
    assertTrue(storage.contains("public void emplace(final long entity, final double f0"));
    assertFalse(storage.contains("public void emplace(final CommandBuffer commands"));
  }

  @Test
  void recordOneSlotBelowTheLimitKeepsItsRecordingForm() {
    // The recording emplace takes the command buffer too: this (1) + commands (1) + entity (2) +
    // 125 longs (250) + 1 int (1) = 255 slots.
    final Compilation compilation =
        compile(
            component(
                "Wide", "public record Wide(" + fields("long", 125, ", ", "") + ", int last) {}"));
    assertThat(compilation).succeededWithoutWarnings();
    assertTrue(
        generated(compilation, "test.Wide_Storage")
            .contains("public void emplace(final CommandBuffer commands, final long entity,"));
  }

  private static final String TYPED_INSERT =
      "public void insert(final long[] entities, final int from, final int to, final ";
  private static final String COLUMNS_INSERT =
      "public void insertColumns(final long[] entities, final int from, final int to, final ";

  /** Compiles one component, {@code test.name}, and returns its generated storage's source. */
  private static String storageOf(final String name, final String declaration) {
    return generated(compile(component(name, declaration)), "test." + name + "_Storage");
  }

  @Test
  void bulkInsertIsGeneratedUpToTheParameterLimit() {
    // insert takes one slot more than emplace: this (1) + entities, from, to (3) + 125 longs (250)
    // + 1 int (1) = 255 slots; one long more and it is left out.
    final String atTheLimit =
        storageOf("Wide", "public record Wide(" + fields("long", 125, ", ", "") + ", int last) {}");
    assertTrue(atTheLimit.contains(TYPED_INSERT + "long f0"));
    final String pastTheLimit =
        storageOf("Wide", "public record Wide(" + fields("long", 126, ", ", "") + ") {}");
    assertFalse(pastTheLimit.contains(TYPED_INSERT));
  }

  @Test
  void columnInsertIsGeneratedUpToTheParameterLimit() {
    // this (1) + entities, from, to (3) + one array per field: 251 fields fit, 252 do not.
    final String atTheLimit =
        storageOf("Ints", "public final class Ints {" + fields(" public int", 251, "", ";") + " }");
    assertTrue(atTheLimit.contains(COLUMNS_INSERT + "int[] f0"));
    final String pastTheLimit =
        storageOf("Ints", "public final class Ints {" + fields(" public int", 252, "", ";") + " }");
    assertFalse(pastTheLimit.contains(COLUMNS_INSERT));
  }

  @Test
  void componentsOfOneFieldGetATypedBulkInsert() {
    // Beside the inherited insert(entities, from, to, T). A single field of type Object or of the
    // component's own class, whose typed forms would clash with the inherited ones, is refused
    // ([PhalanxReservedName], ComponentValidationTest); a first field of type Object is not.
    final Compilation single = compile(component("Mass", "public record Mass(float value) {}"));
    assertThat(single).succeededWithoutWarnings();
    assertTrue(generated(single, "test.Mass_Storage").contains(TYPED_INSERT + "float value"));
    final Compilation two =
        compile(component("Pair", "public record Pair(Object tag, int count) {}"));
    assertThat(two).succeededWithoutWarnings();
    final String pair = generated(two, "test.Pair_Storage");
    assertTrue(pair.contains(TYPED_INSERT + "Object tag"));
    // A recorded Object is read back without a cast, which -Xlint:all would call redundant.
    assertTrue(pair.contains("final Object tag = recorded.nextRef();"), pair);
  }

  @Test
  void recordOfTheMostLongsJavaAllowsCompilesWithoutTypedForms() {
    final Compilation compilation =
        compile(component("Wide", "public record Wide(" + fields("long", 127, ", ", "") + ") {}"));
    assertThat(compilation).succeededWithoutWarnings();
    final String storage = generated(compilation, "test.Wide_Storage");
    assertFalse(storage.contains("public void emplace(final long entity, final long f0"));
    assertTrue(
        storage.contains("are not generated: they would take 257 parameter slots, more than the"),
        storage);
  }

  @Test
  void classesWithHundredsOfFieldsCompile() {
    assertThat(
            compile(
                component(
                    "Longs",
                    "public final class Longs {" + fields(" public long", 200, "", ";") + " }")))
        .succeededWithoutWarnings();
    assertThat(
            compile(
                component(
                    "Ints",
                    "public final class Ints {" + fields(" public int", 300, "", ";") + " }")))
        .succeededWithoutWarnings();
  }

  @Test
  void owningGroupWhoseChunkWouldBeTooWideCompilesWithoutChunkForms() {
    final Compilation compilation =
        compile(
            component("A", "public final class A {" + fields(" public int", 130, "", ";") + " }"),
            component("B", "public final class B {" + fields(" public float", 130, "", ";") + " }"),
            source(
                "Both",
                "package test;",
                "@dev.phalanx.ecs.annotations.GroupQuery(owned = {A.class, B.class})",
                "interface Both {}"));
    assertThat(compilation).succeededWithoutWarnings();
    final String query = generated(compilation, "test.BothQuery");
    assertFalse(query.contains("eachChunk(final Chunk"));
    assertTrue(
        query.contains(
            "The chunk forms are not\n * generated: their body would take 263 parameter slots"),
        query);
  }

  @Test
  void owningGroupWhoseChunkIsAtTheLimitKeepsChunkForms() {
    // this (1) + from, to (2) + 252 arrays = 255 slots.
    final Compilation compilation =
        compile(
            component("A", "public final class A {" + fields(" public int", 126, "", ";") + " }"),
            component("B", "public final class B {" + fields(" public float", 126, "", ";") + " }"),
            source(
                "Both",
                "package test;",
                "@dev.phalanx.ecs.annotations.GroupQuery(owned = {A.class, B.class})",
                "interface Both {}"));
    assertThat(compilation).succeededWithoutWarnings();
    assertTrue(
        generated(compilation, "test.BothQuery")
            .contains("public void eachChunk(final Chunk chunk)"));
  }

  /**
   * The generated owning-group query over an A of {@code ints} and a B of {@code floats} fields.
   */
  private static String wideGroupQuery(final int ints, final int floats) {
    final Compilation compilation =
        compile(
            component("A", "public final class A {" + fields(" public int", ints, "", ";") + " }"),
            component(
                "B", "public final class B {" + fields(" public float", floats, "", ";") + " }"),
            source(
                "Both",
                "package test;",
                "@dev.phalanx.ecs.annotations.GroupQuery(owned = {A.class, B.class})",
                "interface Both {}"));
    assertThat(compilation).succeededWithoutWarnings();
    return generated(compilation, "test.BothQuery");
  }

  @Test
  void entityAndCommandChunksAreGeneratedUpToTheParameterLimit() {
    // EntityChunk.visit: this (1) + from, to (2) + entities, pageStart (2) + 250 arrays = 255;
    // CommandChunk.visit takes the command buffer too, so 249 arrays.
    final String entityAtTheLimit = wideGroupQuery(125, 125);
    assertTrue(entityAtTheLimit.contains("interface EntityChunk"));
    assertFalse(entityAtTheLimit.contains("interface CommandChunk"));
    final String commandAtTheLimit = wideGroupQuery(125, 124);
    assertTrue(commandAtTheLimit.contains("interface CommandChunk"));
    assertFalse(wideGroupQuery(126, 125).contains("interface EntityChunk"));
  }

  /** A view over {@code count} components without fields, and the components. */
  private static List<JavaFileObject> wideView(final int count) {
    final List<JavaFileObject> sources = new ArrayList<>();
    final List<String> listed = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      sources.add(
          source(
              "C" + i,
              "package test;",
              "@dev.phalanx.ecs.annotations.Component(empty ="
                  + " dev.phalanx.ecs.annotations.Empty.STORE)",
              "public final class C" + i + " {}"));
      listed.add("C" + i + ".class");
    }
    sources.add(
        source(
            "All",
            "package test;",
            "@dev.phalanx.ecs.annotations.ViewQuery(include = {" + String.join(", ", listed) + "})",
            "interface All {}"));
    return sources;
  }

  @Test
  void viewWhoseVisitorIsAtTheLimitCompiles() {
    // this (1) + entity (2) + 252 cursors = 255 slots.
    final Compilation compilation = compile(wideView(252).toArray(new JavaFileObject[0]));
    assertThat(compilation).succeededWithoutWarnings();
    assertThat(compilation).generatedSourceFile("test.AllQuery");
  }

  @Test
  void viewWhoseVisitorWouldBeTooWideIsRejected() {
    final List<JavaFileObject> sources = wideView(253);
    final JavaFileObject view = sources.get(sources.size() - 1);
    final Compilation compilation = compile(sources.toArray(new JavaFileObject[0]));
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation)
        .hadErrorContaining(
            "[PhalanxQueryTooWide] @ViewQuery hands 255 parameter slots to its Visitor")
        .inFile(view)
        .onLineContaining("interface All");
  }

  // -----------------------------------------------------------------------------------------------
  // Queries over invalid components; generated-name collisions.
  // -----------------------------------------------------------------------------------------------

  @Test
  void queryListingAComponentWithErrorsReportsADiagnostic() {
    final JavaFileObject broken =
        source(
            "Broken",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "@Component",
            "public final class Broken { private int hidden; }");
    final JavaFileObject query =
        source(
            "Uses",
            "package test;",
            "@dev.phalanx.ecs.annotations.GroupQuery(",
            "    owned = Broken.class)",
            "interface Uses {}");
    final Compilation compilation = compile(broken, query);
    assertNoTrace(compilation);
    assertThat(compilation).hadErrorCount(2);
    assertThat(compilation)
        .hadErrorContaining("[PhalanxPrivateField]")
        .inFile(broken)
        .onLineContaining("hidden");
    assertThat(compilation)
        .hadErrorContaining(
            "[PhalanxQueryInvalidComponent] test.Broken (in owned) has errors of its own")
        .inFile(query)
        .onLineContaining("owned = Broken.class");
  }

  @Test
  void queryNamedLikeAHandWrittenClassIsRejected() {
    final JavaFileObject moving =
        source(
            "Moving",
            "package test;",
            "@dev.phalanx.ecs.annotations.ViewQuery(include = Position.class)",
            "interface Moving {}");
    final Compilation compilation =
        compile(
            component("Position", "public record Position(float x) {}"),
            moving,
            source("MovingQuery", "package test;", "final class MovingQuery {}"));
    assertNoTrace(compilation);
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation)
        .hadErrorContaining(
            "[PhalanxNameCollision] the class test.MovingQuery generated for @ViewQuery test.Moving"
                + " would have the same name as the class test.MovingQuery declared in this"
                + " compilation")
        .inFile(moving)
        .onLineContaining("interface Moving");
  }

  @Test
  void queryNamedLikeAComponentIsRejected() {
    final JavaFileObject foo =
        source(
            "Foo",
            "package test;",
            "@dev.phalanx.ecs.annotations.ViewQuery(include = FooQuery.class)",
            "interface Foo {}");
    final Compilation compilation =
        compile(component("FooQuery", "public record FooQuery(float x) {}"), foo);
    assertNoTrace(compilation);
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation)
        .hadErrorContaining(
            "[PhalanxNameCollision] the class test.FooQuery generated for" + " @ViewQuery test.Foo")
        .inFile(foo)
        .onLineContaining("interface Foo");
  }

  @Test
  void nestedAndFlatQueriesWithOneGeneratedNameAreRejected() {
    final JavaFileObject outer =
        source(
            "Outer",
            "package test;",
            "final class Outer {",
            "  private Outer() {}",
            "  @dev.phalanx.ecs.annotations.ViewQuery(include = Position.class)",
            "  interface Foo {}",
            "}");
    final JavaFileObject flat =
        source(
            "Outer_Foo",
            "package test;",
            "@dev.phalanx.ecs.annotations.ViewQuery(include = Position.class)",
            "interface Outer_Foo {}");
    final Compilation compilation =
        compile(component("Position", "public record Position(float x) {}"), outer, flat);
    assertNoTrace(compilation);
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation)
        .hadErrorContaining(
            "[PhalanxNameCollision] the class test.Outer_FooQuery generated for"
                + " @ViewQuery test.");
    assertThat(compilation)
        .hadErrorContaining("would have the same name as the one generated for @ViewQuery test.");
  }

  // -----------------------------------------------------------------------------------------------
  // Local declarations.
  // -----------------------------------------------------------------------------------------------

  @Test
  void componentOnALocalRecordIsRejected() {
    final JavaFileObject systems =
        source(
            "Systems",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "final class Systems {",
            "  void run() {",
            "    @Component",
            "    record Local(float x) {}",
            "  }",
            "}");
    // javac runs the processor only for a compilation where one of its annotations is visible on a
    // class it enters: here Position.
    final Compilation compilation =
        compile(component("Position", "public record Position(float x) {}"), systems);
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation)
        .hadErrorContaining("[PhalanxInnerClass] @Component Local is a local class")
        .inFile(systems)
        .onLineContaining("@Component");
  }

  @Test
  void queryOnALocalInterfaceIsRejected() {
    final JavaFileObject systems =
        source(
            "Systems",
            "package test;",
            "final class Systems {",
            "  static final Runnable RUN = () -> {",
            "    @dev.phalanx.ecs.annotations.ViewQuery(include = Position.class)",
            "    interface Local {}",
            "  };",
            "}");
    final Compilation compilation =
        compile(component("Position", "public record Position(float x) {}"), systems);
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation)
        .hadErrorContaining(
            "[PhalanxQueryKind] @ViewQuery cannot be applied to the local class Local")
        .inFile(systems)
        .onLineContaining("@dev.phalanx.ecs.annotations.ViewQuery");
  }

  @Test
  void localClassesAreToldApartFromMembersAfterLambdasAndAnonymousClasses() {
    final JavaFileObject systems =
        source(
            "Systems",
            "package test;",
            "import dev.phalanx.ecs.annotations.*;",
            "final class Systems {",
            "  static final Runnable BLOCK = () -> {};",
            "  static final Runnable EXPRESSION = () -> System.out.println();",
            "  static final Object ANONYMOUS = new Object() {",
            "    @Component class InAnonymous { public float x; }",
            "  };",
            "  @Component public record Member(float x) {}",
            "}");
    final Compilation compilation = compile(systems);
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation)
        .hadErrorContaining("[PhalanxInnerClass] @Component InAnonymous is a local class")
        .inFile(systems)
        .onLineContaining("class InAnonymous");
  }

  @Test
  void localClassesWithOtherAnnotationsAreNotReported() {
    // Component here is the user's own annotation: the file imports another Phalanx annotation,
    // not this one. The class in the unnamed package has no package name at all.
    final Compilation compilation =
        compile(
            component("Position", "public record Position(float x) {}"),
            source(
                "Tools",
                "package test;",
                "import dev.phalanx.ecs.annotations.EntityRef;",
                "final class Tools {",
                "  @interface Component {}",
                "  void run() {",
                "    @Component class Mine {}",
                "    @Deprecated class Old {}",
                "  }",
                "}"),
            JavaFileObjects.forSourceLines(
                "Loose",
                "final class Loose {",
                "  void run() {",
                "    class Inner {}",
                "  }",
                "}"));
    assertThat(compilation).succeededWithoutWarnings();
  }

  // -----------------------------------------------------------------------------------------------
  // Validating constructors.
  // -----------------------------------------------------------------------------------------------

  @Test
  void recordWithAValidatingConstructorGetsAWarning() {
    // A suppression of something else leaves the warning.
    final JavaFileObject health =
        component(
            "Health",
            "@SuppressWarnings(\"unchecked\") public record Health(int hp) { public Health { if (hp"
                + " < 0) throw new IllegalArgumentException(); } }");
    final Compilation compilation = javac().withProcessors(new PhalanxProcessor()).compile(health);
    assertThat(compilation).succeeded();
    assertThat(compilation).hadWarningCount(1);
    assertThat(compilation)
        .hadWarningContaining(
            "[PhalanxValidatingConstructor] record test.Health declares its"
                + " canonical constructor")
        .inFile(health)
        .onLineContaining("record Health");
  }

  @Test
  void validatingConstructorWarningCanBeSuppressed() {
    final Compilation compilation =
        compile(
            source(
                "Health",
                "package test;",
                "import dev.phalanx.ecs.annotations.Component;",
                "@Component",
                "@SuppressWarnings(\"PhalanxValidatingConstructor\")",
                "public record Health(int hp) { public Health { if (hp < 0) throw new"
                    + " IllegalArgumentException(); } }"));
    assertThat(compilation).succeededWithoutWarnings();
  }

  @Test
  void everyPhalanxWarningCanBeSuppressedOnAnEnclosingClass() {
    assertThat(
            compile(
                source(
                    "Holder",
                    "package test;",
                    "import dev.phalanx.ecs.annotations.Component;",
                    "@SuppressWarnings({\"unchecked\", \"phalanx\"})",
                    "final class Holder {",
                    "  @Component",
                    "  public record Health(int hp) {",
                    "    public Health { if (hp < 0) throw new IllegalArgumentException(); }",
                    "  }",
                    "}")))
        .succeededWithoutWarnings();
  }

  @Test
  void recordWithAnotherConstructorOfTheSameArityGetsNoWarning() {
    assertThat(
            compile(
                component(
                    "Health",
                    "public record Health(int hp) {"
                        + " public Health(final String hp) { this(Integer.parseInt(hp)); } }")))
        .succeededWithoutWarnings();
  }

  @Test
  void recordWithoutItsOwnConstructorGetsNoWarning() {
    assertThat(
            compile(
                component(
                    "Health", "public record Health(int hp) { public Health() { this(1); } }")))
        .succeededWithoutWarnings();
  }

  @Test
  void internalFailuresAreCodedAndNameTheDeclaration() {
    final IllegalStateException deep = new IllegalStateException("boom");
    deep.setStackTrace(
        new StackTraceElement[] {
          new StackTraceElement("a.A", "f", "A.java", 1),
          new StackTraceElement("b.B", "g", "B.java", 2),
          new StackTraceElement("c.C", "h", "C.java", 3),
          new StackTraceElement("d.D", "i", "D.java", 4),
        });
    assertEquals(
        "[PhalanxInternal] the Phalanx processor failed on test.Position"
            + " (java.lang.IllegalStateException: boom at a.A.f(A.java:1) < b.B.g(B.java:2) <"
            + " c.C.h(C.java:3)); this is a bug of the processor, not of your code: please report"
            + " it with this message",
        dev.phalanx.ecs.processor.validation.Diagnostics.internal("test.Position", deep));
    final IllegalStateException shallow = new IllegalStateException("boom");
    shallow.setStackTrace(new StackTraceElement[] {new StackTraceElement("a.A", "f", "A.java", 1)});
    assertEquals(
        "[PhalanxInternal] the Phalanx processor failed on test.Position"
            + " (java.lang.IllegalStateException: boom at a.A.f(A.java:1)); this is a bug of the"
            + " processor, not of your code: please report it with this message",
        dev.phalanx.ecs.processor.validation.Diagnostics.internal("test.Position", shallow));
  }

  // -----------------------------------------------------------------------------------------------
  // Accessors and inheritance.
  // -----------------------------------------------------------------------------------------------

  @Test
  void fieldsInheritedFromAnotherPackageAreReadThroughWhatIsAccessible() {
    final Compilation compilation =
        compile(
            JavaFileObjects.forSourceLines(
                "other.Base",
                "package other;",
                "public class Base {",
                "  public int shared;",
                "  int hidden;",
                "  public int getHidden() { return hidden; }",
                "  public void setHidden(final int hidden) { this.hidden = hidden; }",
                "}"),
            component("Child", "public final class Child extends other.Base { public int own; }"));
    assertThat(compilation).succeededWithoutWarnings();
    final String storage = generated(compilation, "test.Child_Storage");
    assertTrue(storage.contains("final int v$0 = value.shared;"), storage);
    assertTrue(storage.contains("final int v$1 = value.getHidden();"), storage);
    assertTrue(storage.contains("final int v$2 = value.own;"), storage);
    assertTrue(storage.contains("value.setHidden(hiddenPages[page][offset]);"), storage);
  }

  @Test
  void publicMembersOfANonPublicSuperclassInAnotherPackageAreUsedDirectly() {
    final Compilation compilation =
        compile(
            JavaFileObjects.forSourceLines(
                "other.Hidden",
                "package other;",
                "class Hidden {",
                "  public int shown;",
                "  private int kept;",
                "  public int getKept() { return kept; }",
                "  public void setKept(final int kept) { this.kept = kept; }",
                "}"),
            JavaFileObjects.forSourceLines(
                "other.Base", "package other;", "public class Base extends Hidden {}"),
            component("Child", "public final class Child extends other.Base {}"));
    assertThat(compilation).succeededWithoutWarnings();
    final String storage = generated(compilation, "test.Child_Storage");
    assertTrue(storage.contains("final int v$0 = value.shown;"), storage);
    assertTrue(storage.contains("final int v$1 = value.getKept();"), storage);
  }

  @Test
  void privateBooleanIsReadThroughItsIsGetter() {
    final Compilation compilation =
        compile(
            component(
                "Alive",
                "public final class Alive {"
                    + " private boolean alive;"
                    + " public boolean isAlive() { return alive; }"
                    + " public void setAlive(final boolean alive) { this.alive = alive; } }"));
    assertThat(compilation).succeededWithoutWarnings();
    assertTrue(
        generated(compilation, "test.Alive_Storage")
            .contains("final boolean v$0 = value.isAlive();"));
  }

  @Test
  void componentsOfOneSimpleNameGetNumberedVisitorParameters() {
    final List<JavaFileObject> sources = new ArrayList<>();
    for (final String pkg : List.of("a", "b", "c")) {
      sources.add(
          JavaFileObjects.forSourceLines(
              pkg + ".Position",
              "package " + pkg + ";",
              "@dev.phalanx.ecs.annotations.Component",
              "public record Position(float x) {}"));
    }
    sources.add(
        source(
            "Everywhere",
            "package test;",
            "@dev.phalanx.ecs.annotations.ViewQuery(",
            "    include = {a.Position.class, b.Position.class, c.Position.class})",
            "interface Everywhere {}"));
    final Compilation compilation = compile(sources.toArray(new JavaFileObject[0]));
    assertThat(compilation).succeededWithoutWarnings();
    final String query = generated(compilation, "test.EverywhereQuery");
    assertTrue(
        query
            .replaceAll("\\s+", " ")
            .contains(
                "void visit(long entity, Position_Cursor position, b.Position_Cursor position2,"
                    + " c.Position_Cursor position3);"),
        query);
  }

  // -----------------------------------------------------------------------------------------------
  // Deprecation; registries.
  // -----------------------------------------------------------------------------------------------

  @Test
  void queryListingADeprecatedComponentStaysWarningFree() {
    final Compilation compilation =
        compile(
            source(
                "Legacy",
                "package test;",
                "import dev.phalanx.ecs.annotations.Component;",
                "@Deprecated",
                "@Component",
                "public record Legacy(int n) {}"),
            source(
                "Token",
                "package test;",
                "import dev.phalanx.ecs.annotations.Component;",
                "@Deprecated",
                "@Component(empty = dev.phalanx.ecs.annotations.Empty.STORE)",
                "public final class Token {}"),
            source(
                "Olds",
                "package test;",
                "@SuppressWarnings(\"deprecation\")",
                "@dev.phalanx.ecs.annotations.GroupQuery(owned = Legacy.class, get = Token.class)",
                "interface Olds {}"));
    assertThat(compilation).succeededWithoutWarnings();
    assertTrue(
        generated(compilation, "test.OldsQuery")
            .contains("@SuppressWarnings({\"deprecation\", \"removal\"})"));
  }

  @Test
  void everyKindOfDeprecatedUseInAComponentStaysWarningFree() {
    final Compilation compilation =
        compile(
            source(
                "Old",
                "package test;",
                "@Deprecated",
                "public final class Old {",
                "  public static final class Inner {}",
                "}"),
            component(
                "Direct", "@SuppressWarnings(\"deprecation\") public record Direct(Old old) {}"),
            component(
                "Array", "@SuppressWarnings(\"deprecation\") public record Array(Old[] olds) {}"),
            component(
                "Nested",
                "@SuppressWarnings(\"deprecation\") public record Nested(Old.Inner inner) {}"),
            component(
                "Argument",
                "@SuppressWarnings(\"deprecation\")"
                    + " public record Argument(java.util.List<Old> olds) {}"),
            component(
                "Upper",
                "@SuppressWarnings(\"deprecation\")"
                    + " public record Upper(java.util.List<? extends Old> olds) {}"),
            component(
                "Lower",
                "@SuppressWarnings(\"deprecation\")"
                    + " public record Lower(java.util.List<? super Old> olds) {}"),
            component(
                "Getter",
                "public final class Getter {"
                    + " private int n;"
                    + " public Getter(final int n) { this.n = n; }"
                    + " @Deprecated public int getN() { return n; } }"),
            component(
                "Built",
                "public final class Built {"
                    + " public final int n;"
                    + " @Deprecated public Built(final int n) { this.n = n; } }"));
    assertThat(compilation).succeededWithoutWarnings();
  }

  @Test
  void wildcardWithoutDeprecatedBoundSuppressesNothing() {
    final Compilation compilation =
        compile(
            component("Sizes", "public record Sizes(java.util.List<? extends Number> sizes) {}"));
    assertThat(compilation).succeededWithoutWarnings();
    final String storage = generated(compilation, "test.Sizes_Storage");
    assertFalse(storage.contains("\"deprecation\""), storage);
  }

  @Test
  void owningGroupsOfDifferentRegistriesMayOwnOneType() {
    final List<JavaFileObject> sources =
        List.of(
            component("Position", "public record Position(float x) {}"),
            component("Velocity", "public record Velocity(float x) {}"),
            component("Health", "public record Health(int hp) {}"),
            source(
                "Physics",
                "package test;",
                "@dev.phalanx.ecs.annotations.GroupQuery(owned = {Position.class, Velocity.class},"
                    + " registry = \"physics\")",
                "interface Physics {}"),
            source(
                "Render",
                "package test;",
                "@dev.phalanx.ecs.annotations.GroupQuery(owned = {Position.class, Health.class},"
                    + " registry = \"render\")",
                "interface Render {}"));
    assertThat(compile(sources.toArray(new JavaFileObject[0]))).succeededWithoutWarnings();
  }

  @Test
  void owningGroupsOfOneNamedRegistryStillConflict() {
    final JavaFileObject render =
        source(
            "Render",
            "package test;",
            "@dev.phalanx.ecs.annotations.GroupQuery(owned = {Position.class, Health.class},"
                + " registry = \"world\")",
            "interface Render {}");
    final Compilation compilation =
        compile(
            component("Position", "public record Position(float x) {}"),
            component("Velocity", "public record Velocity(float x) {}"),
            component("Health", "public record Health(int hp) {}"),
            source(
                "Physics",
                "package test;",
                "@dev.phalanx.ecs.annotations.GroupQuery(owned = {Position.class, Velocity.class},"
                    + " registry = \"world\")",
                "interface Physics {}"),
            render);
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation)
        .hadErrorContaining(
            "[PhalanxQueryConflict] the owning group test.Render (registry \"world\")")
        .inFile(render)
        .onLineContaining("interface Render");
    assertThat(compilation).hadErrorContaining("registry = \"physics\"");
    assertEquals(1, compilation.errors().size());
  }
}
