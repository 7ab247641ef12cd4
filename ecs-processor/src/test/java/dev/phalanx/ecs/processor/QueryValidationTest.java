package dev.phalanx.ecs.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * One test per diagnostic code of {@code @GroupQuery} and {@code @ViewQuery}: each compiles a
 * declaration with exactly one problem and checks that there is exactly one error, with its code
 * and text, on the offending line.
 */
class QueryValidationTest {

  /** Components every test may list: two with fields, a get-only one, a tag and an in-place one. */
  private static final JavaFileObject COMPONENTS =
      JavaFileObjects.forSourceLines(
          "test.Components",
          "package test;",
          "import dev.phalanx.ecs.annotations.Component;",
          "final class Components {",
          "  private Components() {}",
          "  @Component public record Position(float x, float y) {}",
          "  @Component public record Velocity(float x, float y) {}",
          "  @Component public record Health(int hp) {}",
          "  @Component public record Frozen() {}",
          "  @Component(inPlaceDelete = true) public record Node(long parent) {}",
          "  @Component(pageSize = 256) public record Small(int value) {}",
          "  public record Plain(int value) {}",
          "  @Component(empty = dev.phalanx.ecs.annotations.Empty.STORE) public static final class"
              + " Token {}",
          "  @Component public record Entity(int id) {}",
          "  @Component public record Int(int value) {}",
          "}");

  private static Compilation compile(final JavaFileObject... sources) {
    final JavaFileObject[] all = new JavaFileObject[sources.length + 1];
    all[0] = COMPONENTS;
    System.arraycopy(sources, 0, all, 1, sources.length);
    return javac().withProcessors(new PhalanxProcessor()).compile(all);
  }

  private static JavaFileObject source(final String name, final String... lines) {
    final String[] all = new String[lines.length + 4];
    all[0] = "package test;";
    all[1] = "import dev.phalanx.ecs.annotations.GroupQuery;";
    all[2] = "import dev.phalanx.ecs.annotations.ViewQuery;";
    all[3] = "import test.Components.*;";
    System.arraycopy(lines, 0, all, 4, lines.length);
    return JavaFileObjects.forSourceLines("test." + name, all);
  }

  private static void assertSingleError(
      final JavaFileObject source, final String code, final String text, final String line) {
    final Compilation compilation = compile(source);
    assertThat(compilation).failed();
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining(code).inFile(source).onLineContaining(line);
    assertThat(compilation).hadErrorContaining(text);
  }

  @Test
  void validDeclarationsCompile() {
    final Compilation compilation =
        compile(
            source(
                "Movers",
                "@GroupQuery(owned = {Position.class, Velocity.class}, get = Health.class, exclude"
                    + " = Frozen.class)",
                "interface Movers {}"),
            source(
                "Watched",
                "@GroupQuery(get = {Position.class, Node.class})",
                "abstract class Watched {}"),
            source(
                "Visible",
                "@ViewQuery(include = {Position.class, Node.class}, exclude = Frozen.class)",
                "interface Visible {}"));
    assertThat(compilation).succeededWithoutWarnings();
    assertThat(compilation).generatedSourceFile("test.MoversQuery");
    assertThat(compilation).generatedSourceFile("test.WatchedQuery");
    assertThat(compilation).generatedSourceFile("test.VisibleQuery");
  }

  @Test
  void componentNamesThatClashWithKeywordsOrParametersCompile() {
    final Compilation compilation =
        javac()
            .withProcessors(new PhalanxProcessor())
            .withOptions("-Xlint:all", "-Werror")
            .compile(
                COMPONENTS,
                source(
                    "Odd",
                    "@ViewQuery(include = {Entity.class, Int.class, Token.class, Frozen.class})",
                    "interface Odd {}"),
                source(
                    "OddGroup",
                    "@GroupQuery(owned = {Entity.class, Int.class, Token.class, Frozen.class})",
                    "interface OddGroup {}"));
    assertThat(compilation).succeededWithoutWarnings();
    // Keywords and the visitor's own parameter names get a $ suffix; a stored field-less type is
    // passed as the instance itself, a tag not at all.
    assertThat(compilation)
        .generatedSourceFile("test.OddQuery")
        .contentsAsUtf8String()
        .contains(
            "void visit(long entity, Components_Entity_Cursor entity$, Components_Int_Cursor"
                + " int$,");
    assertThat(compilation)
        .generatedSourceFile("test.OddQuery")
        .contentsAsUtf8String()
        .contains("Components.Token token);");
  }

  @Test
  void notAComponentIsRejected() {
    assertSingleError(
        source(
            "Movers",
            "@GroupQuery(",
            "    owned = {Position.class,",
            "        Plain.class})",
            "interface Movers {}"),
        "[PhalanxQueryUnknownComponent]",
        "test.Components.Plain (in owned) is not a @Component, so it has no generated storage:"
            + " annotate it with @Component, or remove it from the list",
        "Plain.class");
  }

  @Test
  void unresolvedClassIsLeftToJavac() {
    // The processor defers the declaration, then stays silent: only javac's own error remains.
    final JavaFileObject source =
        source(
            "Movers",
            "@GroupQuery(owned = {Position.class, Missing.class})",
            "interface Movers {}");
    final Compilation compilation = compile(source);
    assertThat(compilation).failed();
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation)
        .hadErrorContaining("cannot find symbol")
        .inFile(source)
        .onLineContaining("Missing.class");
  }

  @Test
  void typeListedTwiceIsRejected() {
    assertSingleError(
        source(
            "Movers",
            "@GroupQuery(owned = Position.class,",
            "    get = Position.class)",
            "interface Movers {}"),
        "[PhalanxQueryDuplicate]",
        "test.Components.Position is listed twice (in owned and in get): list each component once"
            + " (a component is either owned or get, not both)",
        "get = Position.class");
  }

  @Test
  void readOnlyTypeThatIsNotIncludedIsRejected() {
    assertSingleError(
        source(
            "Visible",
            "@ViewQuery(include = Position.class,",
            "    readOnly = Velocity.class)",
            "interface Visible {}"),
        "[PhalanxQueryReadOnly]",
        "test.Components.Velocity is listed in readOnly but not in include or optional: a query can"
            + " only read what it includes or looks up; add it to include or optional, or remove it"
            + " from readOnly",
        "readOnly = Velocity.class");
  }

  @Test
  void readOnlyTypeOfAGroupMustBeOwnedOrGot() {
    assertSingleError(
        source(
            "Movers",
            "@GroupQuery(owned = Position.class, exclude = Velocity.class,",
            "    readOnly = Velocity.class)",
            "interface Movers {}"),
        "[PhalanxQueryReadOnly]",
        "test.Components.Velocity is listed in readOnly but not in owned, get or optional: a query"
            + " can only read what it includes or looks up; add it to owned, get or optional, or"
            + " remove it from readOnly",
        "readOnly = Velocity.class");
  }

  @Test
  void optionalTermsCompileInViewsAndGroups() {
    // Optional terms of every kind (fields, tag, stored instance, in-place, read-only), in a view,
    // an owning and a non-owning group, compile warning-free; the visitor takes a cursor, a
    // boolean for the tag, the instance for the stored type.
    final Compilation compilation =
        javac()
            .withProcessors(new PhalanxProcessor())
            .withOptions("-Xlint:all", "-Werror")
            .compile(
                COMPONENTS,
                source(
                    "Seen",
                    "@ViewQuery(include = Position.class, optional = {Velocity.class,"
                        + " Frozen.class, Token.class, Node.class}, readOnly = Velocity.class)",
                    "interface Seen {}"),
                source(
                    "Moving",
                    "@GroupQuery(owned = Position.class, optional = Velocity.class)",
                    "interface Moving {}"),
                source(
                    "Looked",
                    "@GroupQuery(get = Position.class, optional = {Velocity.class, Frozen.class},"
                        + " readOnly = Position.class)",
                    "interface Looked {}"));
    assertThat(compilation).succeededWithoutWarnings();
    assertGenerated(
        compilation,
        "test.SeenQuery",
        "Components_Position_Cursor position,",
        "Components_Velocity_ReadCursor velocity,",
        "boolean frozen,",
        "Components.Token token,",
        "Components_Node_Cursor node);",
        "access.iterates(Components_Velocity_Traits.TYPE).reads(Components_Velocity_Traits.TYPE);",
        "access.iterates(Components_Frozen_Traits.TYPE).writes(Components_Frozen_Traits.TYPE);");
    assertGenerated(
        compilation,
        "test.MovingQuery",
        "Components_Velocity_Cursor velocity);",
        "access.iterates(Components_Velocity_Traits.TYPE).writes(Components_Velocity_Traits.TYPE);");
    assertGenerated(
        compilation,
        "test.LookedQuery",
        "Components_Position_ReadCursor position,",
        "Components_Velocity_Cursor velocity,",
        "boolean frozen);");
  }

  private static void assertGenerated(
      final Compilation compilation, final String query, final String... fragments) {
    for (final String fragment : fragments) {
      assertThat(compilation).generatedSourceFile(query).contentsAsUtf8String().contains(fragment);
    }
  }

  @Test
  void optionalTypeThatIsAlsoIncludedIsRejected() {
    assertSingleError(
        source(
            "Visible",
            "@ViewQuery(include = Position.class,",
            "    optional = Position.class)",
            "interface Visible {}"),
        "[PhalanxQueryOptional]",
        "test.Components.Position is both in optional and in include, so it would always be"
            + " present: remove it from optional, or from include to visit entities without it too",
        "optional = Position.class");
  }

  @Test
  void optionalTypeThatIsAlsoOwnedIsRejected() {
    assertSingleError(
        source(
            "Movers",
            "@GroupQuery(owned = Position.class,",
            "    optional = Position.class)",
            "interface Movers {}"),
        "[PhalanxQueryOptional]",
        "test.Components.Position is both in optional and in owned, so it would always be"
            + " present: remove it from optional, or from owned to visit entities without it too",
        "optional = Position.class");
  }

  @Test
  void optionalTypeThatIsAlsoGotIsRejected() {
    assertSingleError(
        source(
            "Movers",
            "@GroupQuery(get = Position.class,",
            "    optional = Position.class)",
            "interface Movers {}"),
        "[PhalanxQueryOptional]",
        "test.Components.Position is both in optional and in get, so it would always be"
            + " present: remove it from optional, or from get to visit entities without it too",
        "optional = Position.class");
  }

  @Test
  void optionalTypeThatIsAlsoExcludedIsRejected() {
    assertSingleError(
        source(
            "Visible",
            "@ViewQuery(include = Position.class, optional = Velocity.class,",
            "    exclude = Velocity.class)",
            "interface Visible {}"),
        "[PhalanxQueryOptional]",
        "test.Components.Velocity is both in optional and in exclude, so it would never be"
            + " present: remove it from optional, or from exclude to visit entities that have it"
            + " too",
        "exclude = Velocity.class");
  }

  @Test
  void optionalTypeListedTwiceIsRejected() {
    assertSingleError(
        source(
            "Visible",
            "@ViewQuery(include = Position.class, optional = {Velocity.class,",
            "    Velocity.class})",
            "interface Visible {}"),
        "[PhalanxQueryDuplicate]",
        "test.Components.Velocity is listed twice (in optional and in optional): list each"
            + " component once",
        "    Velocity.class})");
  }

  @Test
  void optionalTypeThatIsNotAComponentIsRejected() {
    assertSingleError(
        source(
            "Visible",
            "@ViewQuery(include = Position.class,",
            "    optional = Plain.class)",
            "interface Visible {}"),
        "[PhalanxQueryUnknownComponent]",
        "test.Components.Plain (in optional) is not a @Component, so it has no generated storage:"
            + " annotate it with @Component, or remove it from the list",
        "optional = Plain.class");
  }

  @Test
  void optionalTermsAloneIncludeNothing() {
    assertSingleError(
        source(
            "Visible",
            "@ViewQuery(include = {},",
            "    optional = Position.class)",
            "interface Visible {}"),
        "[PhalanxQueryEmpty]",
        "@ViewQuery includes no component: list at least one class in include",
        "interface Visible");
  }

  @Test
  void typeIncludedAndExcludedIsRejected() {
    assertSingleError(
        source(
            "Visible",
            "@ViewQuery(include = {Position.class, Velocity.class},",
            "    exclude = Velocity.class)",
            "interface Visible {}"),
        "[PhalanxQueryIncludedAndExcluded]",
        "test.Components.Velocity is both in include and in exclude, so no entity could match:"
            + " remove it from one of the two lists",
        "exclude = Velocity.class");
  }

  @Test
  void inPlaceComponentCannotBeOwned() {
    assertSingleError(
        source(
            "Tree",
            "@GroupQuery(owned = {Position.class,",
            "    Node.class})",
            "interface Tree {}"),
        "[PhalanxQueryOwnedInPlace]",
        "test.Components.Node uses in-place deletion (@Component(inPlaceDelete = true)), so its"
            + " elements must not move and a group cannot own it: move it to get, or drop"
            + " inPlaceDelete",
        "Node.class})");
  }

  @Test
  void ownedPageSizesMustAgree() {
    assertSingleError(
        source(
            "Mixed",
            "@GroupQuery(owned = {Position.class,",
            "    Small.class})",
            "interface Mixed {}"),
        "[PhalanxQueryPageSize]",
        "owned test.Components.Small has pageSize 256 but test.Components.Position has 4096",
        "Small.class})");
  }

  @Test
  void conflictingOwningGroupsAreRejected() {
    final JavaFileObject first =
        source(
            "Movers",
            "@GroupQuery(owned = {Position.class, Velocity.class})",
            "interface Movers {}");
    final JavaFileObject second =
        source(
            "Healers",
            "@GroupQuery(owned = {Position.class, Health.class})",
            "interface Healers {}");
    final Compilation compilation = compile(first, second);
    assertThat(compilation).failed();
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation)
        .hadErrorContaining(
            "[PhalanxQueryConflict] the owning group test.Healers <owned=[Position, Health],"
                + " get=[], exclude=[]> and the owning group test.Movers <owned=[Position,"
                + " Velocity], get=[], exclude=[]> both own test.Components.Position but are not"
                + " nested")
        .inFile(second)
        .onLineContaining("interface Healers");
  }

  @Test
  void nestedOwningGroupsAreAccepted() {
    final Compilation compilation =
        compile(
            source(
                "Movers",
                "@GroupQuery(owned = {Position.class, Velocity.class})",
                "interface Movers {}"),
            source(
                "LivingMovers",
                "@GroupQuery(owned = {Position.class, Velocity.class, Health.class}, exclude ="
                    + " Frozen.class)",
                "interface LivingMovers {}"),
            source(
                "Same",
                "@GroupQuery(owned = {Velocity.class, Position.class})",
                "interface Same {}"));
    assertThat(compilation).succeededWithoutWarnings();
  }

  @Test
  void rejectedOwningGroupConflictsWithNoLaterOne() {
    final JavaFileObject first =
        source(
            "Movers",
            "@GroupQuery(owned = Position.class, get = Velocity.class)",
            "interface Movers {}");
    final JavaFileObject second =
        source(
            "Healers",
            "@GroupQuery(owned = {Position.class, Health.class})",
            "interface Healers {}");
    // Shares Health with the rejected Healers only: it is generated.
    final JavaFileObject third =
        source(
            "Cold", "@GroupQuery(owned = Health.class, get = Frozen.class)", "interface Cold {}");
    final Compilation compilation = compile(first, second, third);
    assertThat(compilation).failed();
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation)
        .hadErrorContaining("[PhalanxQueryConflict] the owning group test.Healers")
        .inFile(second)
        .onLineContaining("interface Healers");
  }

  @Test
  void disjointOwningGroupsAreAcceptedAndPageByAnOwnedComponentWithFields() {
    final Compilation compilation =
        compile(
            source(
                "Marked",
                "@GroupQuery(owned = {Frozen.class, Position.class})",
                "interface Marked {}"),
            source("Tokens", "@GroupQuery(owned = Token.class)", "interface Tokens {}"));
    assertThat(compilation).succeededWithoutWarnings();
    assertThat(compilation)
        .generatedSourceFile("test.MarkedQuery")
        .contentsAsUtf8String()
        .contains("this.pageShift = positionStorage.pageShift();");
    assertThat(compilation)
        .generatedSourceFile("test.TokensQuery")
        .contentsAsUtf8String()
        .contains("this.pageShift = tokenStorage.pageShift();");
  }

  @Test
  void componentWithUnresolvedTypesIsLeftToItsOwnDiagnostic() {
    final JavaFileObject lost =
        JavaFileObjects.forSourceLines(
            "test.Lost",
            "package test;",
            "@dev.phalanx.ecs.annotations.Component",
            "public record Lost(Missing missing) {}");
    final Compilation compilation =
        compile(lost, source("Losing", "@ViewQuery(include = Lost.class)", "interface Losing {}"));
    assertThat(compilation).failed();
    assertThat(compilation).hadErrorCount(2);
    assertThat(compilation)
        .hadErrorContaining("cannot find symbol")
        .inFile(lost)
        .onLineContaining("Missing missing");
    assertThat(compilation).hadErrorContaining("[PhalanxMissingType] @Component test.Lost");
  }

  @Test
  void singleUnresolvedClassIsLeftToJavac() {
    final JavaFileObject source =
        source("Lone", "@ViewQuery(include = Missing.class)", "interface Lone {}");
    final Compilation compilation = compile(source);
    assertThat(compilation).failed();
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation)
        .hadErrorContaining("cannot find symbol")
        .inFile(source)
        .onLineContaining("Missing.class");
  }

  @Test
  void listOfTheWrongTypeIsLeftToJavac() {
    final JavaFileObject source =
        source("Numbers", "@ViewQuery(include = 3)", "interface Numbers {}");
    final Compilation compilation = compile(source);
    assertThat(compilation).failed();
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation)
        .hadErrorContaining("incompatible types")
        .inFile(source)
        .onLineContaining("include = 3");
  }

  @Test
  void concreteClassIsRejected() {
    assertSingleError(
        // Plain is no component: a second error if the validation went on past the kind.
        source("Movers", "@GroupQuery(owned = Plain.class)", "final class Movers {}"),
        "[PhalanxQueryKind]",
        "@GroupQuery cannot be applied to the concrete class test.Movers: annotate an interface (or"
            + " an abstract class) that only declares the query",
        "final class Movers");
  }

  @Test
  void bothAnnotationsAreRejected() {
    assertSingleError(
        source(
            "Movers",
            "@GroupQuery(owned = Position.class)",
            "@ViewQuery(include = Position.class)",
            "interface Movers {}"),
        "[PhalanxQueryKind]",
        "test.Movers carries both @GroupQuery and @ViewQuery",
        "interface Movers");
  }

  @Test
  void groupWithoutIncludedTypeIsRejected() {
    assertSingleError(
        source("Nothing", "@GroupQuery(exclude = Frozen.class)", "interface Nothing {}"),
        "[PhalanxQueryEmpty]",
        "@GroupQuery includes no component: list at least one class in owned or get",
        "interface Nothing");
  }

  @Test
  void viewWithoutIncludedTypeIsRejected() {
    assertSingleError(
        source(
            "Nothing", "@ViewQuery(include = {}, exclude = Frozen.class)", "interface Nothing {}"),
        "[PhalanxQueryEmpty]",
        "@ViewQuery includes no component: list at least one class in include",
        "interface Nothing");
  }
}
