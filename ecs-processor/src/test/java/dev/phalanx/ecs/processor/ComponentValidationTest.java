package dev.phalanx.ecs.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

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

  @Test
  void interfaceIsRejected() {
    final JavaFileObject source =
        source(
            "Shape",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "@Component",
            "public interface Shape {}");
    assertSingleError(
        source,
        "[PhalanxComponentKind]",
        "cannot be applied to the interface test.Shape",
        "interface Shape");
  }

  @Test
  void enumIsRejected() {
    final JavaFileObject source =
        source(
            "Mode",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "@Component",
            "public enum Mode { ON, OFF }");
    assertSingleError(
        source, "[PhalanxComponentKind]", "use it as a field type instead", "enum Mode");
  }

  @Test
  void abstractClassIsRejected() {
    final JavaFileObject source =
        source(
            "Base",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "@Component",
            "public abstract class Base { public int x; }");
    assertSingleError(
        source, "[PhalanxComponentKind]", "the abstract class test.Base", "abstract class Base");
  }

  @Test
  void genericComponentIsRejected() {
    final JavaFileObject source =
        source(
            "Box",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "@Component",
            "public record Box<T>(T value) {}");
    assertSingleError(source, "[PhalanxGeneric]", "remove the type parameters", "record Box");
  }

  @Test
  void innerClassIsRejected() {
    final JavaFileObject source =
        source(
            "Outer",
            "package test;",
            "import dev.phalanx.ecs.annotations.Component;",
            "public class Outer {",
            "  @Component",
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
            "  @Component",
            "  private record Hidden(int x) {}",
            "}");
    assertSingleError(
        source, "[PhalanxPrivateClass]", "make it package-private or public", "record Hidden");
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
            "public record Lost(Missing missing) {}");
    final Compilation compilation = compile(source);
    assertThat(compilation).failed();
    assertThat(compilation).hadErrorContaining("[PhalanxMissingType] @Component test.Lost");
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
