package dev.phalanx.ecs.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * One test per diagnostic code of {@code @Component} and {@code @EntityRef}: each compiles a
 * component with exactly one problem and checks that there is exactly one error, with its code and
 * text, on the offending line.
 */
class ComponentValidationTest {

  private static Compilation compile(final JavaFileObject... sources) {
    return javac().withProcessors(new PhalanxProcessor()).compile(sources);
  }

  private static JavaFileObject source(final String name, final String... lines) {
    return JavaFileObjects.forSourceLines("test." + name, lines);
  }

  private static void assertSingleError(
      final JavaFileObject source, final String code, final String text, final String line) {
    final Compilation compilation = compile(source);
    assertThat(compilation).failed();
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining(code).inFile(source).onLineContaining(line);
    assertThat(compilation).hadErrorContaining(text);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "interface Shape {}|PhalanxComponentKind|the interface test.Shape",
        "@interface Mark {}|PhalanxComponentKind|the annotation type test.Mark",
        "enum Mode { ON }|PhalanxComponentKind|the enum test.Mode (use it as a field type instead)",
        "abstract class Base { public int x; }|PhalanxComponentKind|the abstract class test.Base",
        "record Box<T>(T value) {}|PhalanxGeneric|remove the type parameters",
      })
  void kindOrGenericClassIsRejected(
      final String declaration, final String code, final String text) {
    // pageSize = 3 would be a second error if the validation went on past the class itself.
    final JavaFileObject source =
        source(
            "Declared",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "@Component(pageSize = 3)",
            declaration);
    assertSingleError(source, "[" + code + "]", text, declaration);
  }

  @Test
  void innerClassIsRejected() {
    final JavaFileObject source =
        source(
            "Outer",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "public class Outer {",
            "  @Component(pageSize = 3)",
            "  public class Inner { public int x; }",
            "}");
    assertSingleError(source, "[PhalanxInnerClass]", "declare it static", "class Inner");
  }

  @Test
  void privateClassIsRejected() {
    final JavaFileObject source =
        source(
            "Outer",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "public class Outer {",
            "  @Component(pageSize = 3)",
            "  private record Hidden(int x) {}",
            "}");
    assertSingleError(
        source,
        "[PhalanxPrivateClass]",
        "[PhalanxPrivateClass] @Component test.Outer.Hidden cannot be used by the generated classes"
            + " in its package because it is private: make it package-private or public",
        "record Hidden");
  }

  @Test
  void privateEnclosingClassIsNamed() {
    final JavaFileObject source =
        source(
            "Outer",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "public class Outer {",
            "  private static final class Box {",
            "    @Component",
            "    public record Shown(int x) {}",
            "  }",
            "}");
    assertSingleError(
        source,
        "[PhalanxPrivateClass]",
        "@Component test.Outer.Box.Shown cannot be used by the generated classes in its package"
            + " because its enclosing class Box is private: make it package-private or public",
        "record Shown");
  }

  @Test
  void pageSizeMustBeAPowerOfTwo() {
    final JavaFileObject source =
        source(
            "Big",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "@Component(",
            "    inPlaceDelete = true,",
            "    pageSize = 1000)",
            "public record Big(int x) {}");
    assertSingleError(source, "[PhalanxPageSize]", "got 1000: use 1024", "pageSize = 1000");
  }

  @Test
  void negativePageSizeIsRejected() {
    final JavaFileObject source =
        source(
            "Neg",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "@Component(pageSize = -4)",
            "public record Neg(int x) {}");
    assertSingleError(source, "[PhalanxPageSize]", "got -4", "pageSize = -4");
  }

  @Test
  void zeroPageSizeIsRejected() {
    final JavaFileObject source =
        source(
            "Zero",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "@Component(pageSize = 0)",
            "public record Zero(int x) {}");
    assertSingleError(source, "[PhalanxPageSize]", "got 0", "pageSize = 0");
  }

  @Test
  void fieldNameClashingWithCursorMemberIsRejected() {
    final JavaFileObject source =
        source(
            "Holder",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "@Component",
            "public record Holder(int storage) {}");
    assertSingleError(
        source,
        "[PhalanxReservedName]",
        "[PhalanxReservedName] field 'storage' would generate a method 'storage' with 0"
            + " parameter(s) on the cursor, which clashes with a member of the same name and"
            + " parameter count that the cursor already has: rename the field",
        "int storage");
  }

  @Test
  void trackedTagIsRejected() {
    final JavaFileObject source =
        source(
            "Seen",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "@Component(",
            "    tracked = true)",
            "public final class Seen {}");
    assertSingleError(source, "[PhalanxTrackedTag]", "Seen has no fields", "tracked = true");
  }

  @Test
  void forcedTagWithFieldsIsRejected() {
    final JavaFileObject source =
        source(
            "Heavy",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "import dev.phalanx.ecs.annotations.Empty;",
            "@Component(",
            "    empty = Empty.TAG)",
            "public record Heavy(int weight) {}");
    assertSingleError(
        source, "[PhalanxTagWithFields]", "has the instance field 'weight'", "empty = Empty.TAG");
  }

  @Test
  void privateFieldWithoutGetterIsRejected() {
    final JavaFileObject source =
        source(
            "Secret",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "@Component",
            "public class Secret {",
            "  public int visible;",
            "  private int hidden;",
            "}");
    assertSingleError(
        source,
        "[PhalanxPrivateField]",
        "add an accessible getter getHidden()",
        "private int hidden");
  }

  @Test
  void finalFieldWithoutAllFieldsConstructorIsRejected() {
    final JavaFileObject source =
        source(
            "Fixed",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "@Component",
            "public class Fixed {",
            "  public final int id;",
            "  public int value;",
            "  public Fixed() { id = 0; }",
            "}");
    assertSingleError(
        source, "[PhalanxUnwritableField]", "field 'id' is final", "public final int id");
  }

  @Test
  void classWithoutUsableConstructorIsRejected() {
    final JavaFileObject source =
        source(
            "Odd",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "@Component",
            "public class Odd {",
            "  public int x;",
            "  public Odd(String text) { x = text.length(); }",
            "}");
    assertSingleError(
        source,
        "[PhalanxConstructor]",
        "add a non-private constructor Odd(int x)",
        "public class Odd");
  }

  @Test
  void privateFieldTypeIsRejected() {
    final JavaFileObject source =
        source(
            "Holder",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "@Component",
            "public record Holder(",
            "    Holder.Secret secret) {",
            "  private record Secret() {}",
            "}");
    assertSingleError(source, "[PhalanxFieldType]", "Secret is private", "Holder.Secret secret");
  }

  @Test
  void arrayOfParameterizedTypeIsRejected() {
    final JavaFileObject source =
        source(
            "Lists",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "import java.util.List;",
            "@Component",
            "public record Lists(",
            "    List<String>[] lists) {}");
    assertSingleError(
        source,
        "[PhalanxFieldType]",
        "Java cannot create arrays of a parameterized type",
        "List<String>[] lists");
  }

  @Test
  void innerClassOfAParameterizedTypeIsRejected() {
    final JavaFileObject source =
        source(
            "Holder",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "class Outer<T> { public class In {} }",
            "@Component",
            "public final class Holder {",
            "  public Outer<String>.In in;",
            "}");
    assertSingleError(
        source,
        "[PhalanxFieldType]",
        "field 'in' has type test.Outer<java.lang.String>.In, which a generated storage cannot"
            + " hold: an inner class of a parameterized type; make the nested class static",
        "Outer<String>.In in");
  }

  @Test
  void privateTypeArgumentIsRejected() {
    final JavaFileObject source =
        source(
            "Bag",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "@Component",
            "public record Bag(",
            "    java.util.List<Bag.Secret> secrets) {",
            "  private static final class Secret {}",
            "}");
    assertSingleError(
        source,
        "[PhalanxFieldType]",
        "which a generated storage cannot hold: Secret is private; make it package-private or"
            + " public",
        "List<Bag.Secret> secrets");
  }

  @Test
  void boundsOfWildcardsAreChecked() {
    final JavaFileObject source =
        source(
            "Bounds",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "import java.util.List;",
            "@Component",
            "public record Bounds(",
            "    List<? extends Bounds.Secret> upper,",
            "    List<? super Bounds.Secret> lower,",
            "    List<?> any) {",
            "  private static final class Secret {}",
            "}");
    final Compilation compilation = compile(source);
    assertThat(compilation).failed();
    assertThat(compilation).hadErrorCount(2);
    assertThat(compilation)
        .hadErrorContaining("[PhalanxFieldType] field 'upper'")
        .inFile(source)
        .onLineContaining("upper");
    assertThat(compilation)
        .hadErrorContaining("[PhalanxFieldType] field 'lower'")
        .inFile(source)
        .onLineContaining("lower");
  }

  @Test
  void protectedNestedTypeOfASuperclassInAnotherPackageIsRejected() {
    final JavaFileObject base =
        JavaFileObjects.forSourceLines(
            "other.Base",
            "package other;",
            "public class Base {",
            "  protected static class Token {}",
            "}");
    final JavaFileObject source =
        source(
            "Child",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "@Component",
            "public final class Child extends other.Base {",
            "  public Token token;",
            "}");
    final Compilation compilation = compile(base, source);
    assertThat(compilation).failed();
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation)
        .hadErrorContaining(
            "[PhalanxFieldType] field 'token' has type other.Base.Token, which a generated storage"
                + " cannot hold: Token is not public and belongs to another package; make it"
                + " public")
        .inFile(source)
        .onLineContaining("Token token");
  }

  @Test
  void singleFieldOfTypeObjectIsRejected() {
    final JavaFileObject source =
        source(
            "Box",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "@Component",
            "public record Box(Object content) {}");
    assertSingleError(
        source,
        "[PhalanxReservedName]",
        "[PhalanxReservedName] field 'content' would generate emplace(long, java.lang.Object) and"
            + " replace(long, java.lang.Object), which clashes with emplace(long, Box) and"
            + " replace(long, Box) inherited from Storage: rename the field",
        "Object content");
  }

  @Test
  void privateFieldWithoutSetterIsReportedAsPrivate() {
    final JavaFileObject source =
        source(
            "Counter",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "@Component",
            "public final class Counter {",
            "  private int count;",
            "  public int getCount() { return count; }",
            "}");
    assertSingleError(
        source,
        "[PhalanxUnwritableField]",
        "[PhalanxUnwritableField] field 'count' is private, and no constructor takes every field:"
            + " make it non-final and non-private, add an accessible setCount(int)",
        "private int count");
  }

  @Test
  void packagePrivateFieldOfASuperclassInAnotherPackageNeedsAGetter() {
    final JavaFileObject base =
        JavaFileObjects.forSourceLines(
            "other.Base", "package other;", "public class Base {", "  int hidden;", "}");
    final JavaFileObject source =
        source(
            "Child",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "@Component",
            "public final class Child extends other.Base {",
            "  public int own;",
            "}");
    final Compilation compilation = compile(base, source);
    assertThat(compilation).failed();
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation)
        .hadErrorContaining("[PhalanxPrivateField] field 'hidden'")
        .inFile(base)
        .onLineContaining("int hidden");
  }

  @Test
  void fieldNameClashingWithStorageMemberIsRejected() {
    final JavaFileObject source =
        source(
            "Indexed",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "@Component",
            "public record Indexed(",
            "    int index) {}");
    assertSingleError(
        source,
        "[PhalanxReservedName]",
        "a method 'index' with 1 parameter(s) on the storage",
        "int index");
  }

  @Test
  void fieldNamesClashingWithEachOtherAreRejected() {
    final JavaFileObject source =
        source(
            "Twins",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "@Component",
            "public record Twins(int x,",
            "    int xAt) {}");
    assertSingleError(
        source, "[PhalanxReservedName]", "the accessors generated for field 'x'", "int xAt");
  }

  @Test
  void generatedNamesCollide() {
    final JavaFileObject nested =
        source(
            "Outer",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "public class Outer {",
            "  @Component",
            "  public record Inner(int x) {}",
            "}");
    final JavaFileObject flat =
        source(
            "Outer_Inner",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "@Component",
            "public record Outer_Inner(int y) {}");
    final Compilation compilation = compile(nested, flat);
    assertThat(compilation).failed();
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation)
        .hadErrorContaining("[PhalanxNameCollision] the class test.Outer_Inner_Storage")
        .inFile(flat)
        .onLineContaining("record Outer_Inner");
    assertThat(compilation).hadErrorContaining("the one generated for @Component test.Outer.Inner");
  }

  @Test
  void generatedNameCollidesWithHandWrittenClass() {
    final JavaFileObject component =
        source(
            "Pos",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "@Component",
            "public record Pos(int x) {}");
    final JavaFileObject handWritten =
        source("Pos_Traits", "package test;", "public class Pos_Traits {}");
    final Compilation compilation = compile(component, handWritten);
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation)
        .hadErrorContaining("[PhalanxNameCollision]")
        .inFile(component)
        .onLineContaining("record Pos");
  }

  @Test
  void readCursorNameCollidesWithHandWrittenClass() {
    final JavaFileObject component =
        source(
            "Pos",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "@Component",
            "public record Pos(int x) {}");
    final JavaFileObject handWritten =
        source("Pos_ReadCursor", "package test;", "public class Pos_ReadCursor {}");
    final Compilation compilation = compile(component, handWritten);
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation)
        .hadErrorContaining(
            "[PhalanxNameCollision] the class test.Pos_ReadCursor generated for @Component"
                + " test.Pos")
        .inFile(component)
        .onLineContaining("record Pos");
  }

  @Test
  void aRelationshipNeedsOneEntityRefField() {
    final JavaFileObject none =
        source(
            "Likes",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "import dev.phalanx.ecs.annotations.Relationship;",
            "@Component",
            "@Relationship",
            "public record Likes(long whom) {}");
    assertSingleError(
        none,
        "[PhalanxRelationshipTarget] @Relationship test.Likes has no @EntityRef field",
        "mark the long field that names the target @EntityRef",
        "public record Likes");
    final JavaFileObject two =
        source(
            "Between",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "import dev.phalanx.ecs.annotations.EntityRef;",
            "import dev.phalanx.ecs.annotations.Relationship;",
            "@Component",
            "@Relationship",
            "public record Between(@EntityRef long from, @EntityRef long to) {}");
    assertSingleError(
        two,
        "[PhalanxRelationshipTarget] @Relationship test.Between has 2 @EntityRef fields [from, to]",
        "declare one relationship per target",
        "public record Between");
  }

  @Test
  void aRelationshipDoesNotKeepInstancesWhole() {
    final JavaFileObject kept =
        source(
            "Friend",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "import dev.phalanx.ecs.annotations.Empty;",
            "import dev.phalanx.ecs.annotations.Relationship;",
            "@Component(empty = Empty.STORE)",
            "@Relationship",
            "public final class Friend {}");
    assertSingleError(
        kept,
        "[PhalanxRelationshipStorage] @Relationship test.Friend keeps its instances whole",
        "or make it a tag without fields (a pair kind)",
        "public final class Friend");
  }

  @Test
  void aRelationshipOnATagIsAPairKindThatDeclaresItself() {
    final JavaFileObject tag =
        source(
            "Likes",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "import dev.phalanx.ecs.annotations.Relationship;",
            "@Component",
            "@Relationship(onTargetDestroyed = Relationship.OnTargetDestroyed.REFUSE, acyclic ="
                + " true)",
            "public record Likes() {}");
    final Compilation compilation = compile(tag);
    assertThat(compilation).succeededWithoutWarnings();
    assertThat(compilation)
        .generatedSourceFile("test.Likes_Storage")
        .contentsAsUtf8String()
        .contains("extends PairStorage<Likes>");
    assertThat(compilation)
        .generatedSourceFile("test.Likes_Storage")
        .contentsAsUtf8String()
        .contains("super(type, new Likes(), OnTargetDestroyed.REFUSE, true);");
  }

  @Test
  void aRelationshipsTargetHasNoSetter() {
    final JavaFileObject source =
        source(
            "Orbits",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "import dev.phalanx.ecs.annotations.EntityRef;",
            "import dev.phalanx.ecs.annotations.Relationship;",
            "@Component",
            "@Relationship(onTargetDestroyed = Relationship.OnTargetDestroyed.DESTROY_SOURCES)",
            "public record Orbits(@EntityRef long star, float radius) {}");
    final JavaFileObject user =
        source(
            "Use",
            "package test;",
            "class Use {",
            "  void move(Orbits_Storage storage, long entity) {",
            "    storage.setStar(entity, 0L);",
            "  }",
            "}");
    final Compilation compilation = compile(source, user);
    assertThat(compilation).failed();
    assertThat(compilation).hadErrorContaining("setStar").inFile(user);
    assertThat(compile(source)).succeededWithoutWarnings();
  }

  @Test
  void entityRefMustBeLong() {
    final JavaFileObject source =
        source(
            "Link",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "import dev.phalanx.ecs.annotations.EntityRef;",
            "@Component",
            "public record Link(",
            "    @EntityRef int target) {}");
    assertSingleError(
        source, "[PhalanxEntityRefType]", "entity handles are long", "@EntityRef int target");
  }

  @Test
  void unresolvedFieldTypeIsReportedAfterTheCompilerError() {
    final JavaFileObject source =
        source(
            "Lost",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "@Component",
            "public record Lost(Missing missing) {}",
            "@Component",
            "record LostArray(Missing[] missing) {}",
            "@Component",
            "record LostArgument(java.util.List<Missing> missing) {}");
    final Compilation compilation = compile(source);
    assertThat(compilation).failed();
    // javac's own error on each unresolved type, then one [PhalanxMissingType] per component.
    assertThat(compilation).hadErrorCount(6);
    for (final String component : new String[] {"Lost", "LostArray", "LostArgument"}) {
      assertThat(compilation)
          .hadErrorContaining("[PhalanxMissingType] @Component test." + component + " ")
          .inFile(source)
          .onLineContaining("record " + component + "(");
    }
  }

  @Test
  void processingGoesOnAfterAnError() {
    final JavaFileObject bad =
        source(
            "Bad",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "@Component",
            "public record Bad<T>(T value) {}");
    final JavaFileObject worse =
        source(
            "Worse",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "@Component(pageSize = 3)",
            "public class Worse {",
            "  private int hidden;",
            "}");
    final Compilation compilation = compile(bad, worse);
    // Both classes are checked, and every problem of the second one is reported.
    assertThat(compilation).hadErrorCount(3);
    assertThat(compilation)
        .hadErrorContaining("[PhalanxGeneric]")
        .inFile(bad)
        .onLineContaining("record Bad");
    assertThat(compilation)
        .hadErrorContaining("[PhalanxPageSize]")
        .inFile(worse)
        .onLineContaining("pageSize = 3");
    assertThat(compilation)
        .hadErrorContaining("[PhalanxPrivateField]")
        .inFile(worse)
        .onLineContaining("int hidden");
  }
}
