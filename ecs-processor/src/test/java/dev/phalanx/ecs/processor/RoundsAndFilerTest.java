package dev.phalanx.ecs.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.Filer;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.Processor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * The processor across rounds and against its {@link Filer}: declarations naming types another
 * processor generates later, a file another processor already wrote, a failing filer, and the
 * originating element of every generated file (what Gradle's isolating mode relies on).
 */
class RoundsAndFilerTest {

  private static final JavaFileObject POSITION =
      JavaFileObjects.forSourceLines(
          "test.Position",
          "package test;",
          "import dev.phalanx.ecs.annotations.Component;",
          "@Component",
          "public record Position(float x, float y) {}");

  private static final JavaFileObject ON_SCREEN =
      JavaFileObjects.forSourceLines(
          "test.OnScreen",
          "package test;",
          "import dev.phalanx.ecs.annotations.ViewQuery;",
          "@ViewQuery(include = Position.class)",
          "interface OnScreen {}");

  /** Writes the given sources in its first round, as another code generator would. */
  private static final class Writing extends AbstractProcessor {
    private final Map<String, String> sources;
    private boolean done;

    Writing(final Map<String, String> sources) {
      this.sources = sources;
    }

    @Override
    public Set<String> getSupportedAnnotationTypes() {
      return Set.of("*");
    }

    @Override
    public SourceVersion getSupportedSourceVersion() {
      return SourceVersion.latestSupported();
    }

    @Override
    public boolean process(
        final Set<? extends TypeElement> annotations, final RoundEnvironment round) {
      if (!done) {
        done = true;
        for (final Map.Entry<String, String> source : sources.entrySet()) {
          try (Writer writer =
              processingEnv.getFiler().createSourceFile(source.getKey()).openWriter()) {
            writer.write(source.getValue());
          } catch (final IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      }
      return false;
    }
  }

  /**
   * Hands {@code processor} an environment whose filer goes through {@code filer}: the real filer
   * and the method's arguments in, the result out.
   */
  private static Processor withFiler(final Processor processor, final InvocationHandler filer) {
    return new AbstractProcessor() {
      @Override
      public synchronized void init(final ProcessingEnvironment environment) {
        super.init(environment);
        final Filer real = environment.getFiler();
        final Filer wrapped =
            (Filer)
                Proxy.newProxyInstance(
                    Filer.class.getClassLoader(),
                    new Class<?>[] {Filer.class},
                    (proxy, method, arguments) -> filer.invoke(real, method, arguments));
        processor.init(
            (ProcessingEnvironment)
                Proxy.newProxyInstance(
                    ProcessingEnvironment.class.getClassLoader(),
                    new Class<?>[] {ProcessingEnvironment.class},
                    (proxy, method, arguments) ->
                        "getFiler".equals(method.getName())
                            ? wrapped
                            : invoke(method, environment, arguments)));
      }

      @Override
      public Set<String> getSupportedAnnotationTypes() {
        return processor.getSupportedAnnotationTypes();
      }

      @Override
      public SourceVersion getSupportedSourceVersion() {
        return processor.getSupportedSourceVersion();
      }

      @Override
      public boolean process(
          final Set<? extends TypeElement> annotations, final RoundEnvironment round) {
        return processor.process(annotations, round);
      }
    };
  }

  private static Object invoke(
      final java.lang.reflect.Method method, final Object target, final Object[] arguments)
      throws Throwable {
    try {
      return method.invoke(target, arguments);
    } catch (final InvocationTargetException e) {
      throw e.getCause();
    }
  }

  @Test
  void declarationsNamingTypesGeneratedInALaterRoundAreGenerated() {
    final Map<String, String> later = new LinkedHashMap<>();
    later.put("test.Later", "package test; public final class Later {}");
    later.put("test.LaterBase", "package test; public class LaterBase { public int inherited; }");
    final Compilation compilation =
        javac()
            .withProcessors(new Writing(later), new PhalanxProcessor())
            .withOptions("-Xlint:all", "-Werror")
            .compile(
                JavaFileObjects.forSourceLines(
                    "test.Holder",
                    "package test;",
                    "import dev.phalanx.ecs.annotations.Component;",
                    "@Component",
                    "public record Holder(Later later) {}"),
                JavaFileObjects.forSourceLines(
                    "test.Derived",
                    "package test;",
                    "import dev.phalanx.ecs.annotations.Component;",
                    "@Component",
                    "public final class Derived extends LaterBase { public int own; }"),
                JavaFileObjects.forSourceLines(
                    "test.Holding",
                    "package test;",
                    "import dev.phalanx.ecs.annotations.ViewQuery;",
                    "@ViewQuery(include = Holder.class)",
                    "interface Holding {}"));
    assertThat(compilation).succeededWithoutWarnings();
    assertThat(compilation).generatedSourceFile("test.Holder_Storage");
    assertThat(compilation)
        .generatedSourceFile("test.Derived_Storage")
        .contentsAsUtf8String()
        .contains("final int v$0 = value.inherited;");
    assertThat(compilation).generatedSourceFile("test.HoldingQuery");
  }

  @Test
  void fileAnotherProcessorWroteFirstIsACollision() {
    final Compilation compilation =
        javac()
            .withProcessors(
                new Writing(
                    Map.of(
                        "test.Position_Storage", "package test; final class Position_Storage {}")),
                new PhalanxProcessor())
            .compile(POSITION);
    assertThat(compilation).failed();
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation)
        .hadErrorContaining(
            "[PhalanxNameCollision] the class test.Position_Storage generated for @Component"
                + " test.Position would have the same name as an existing class or file (")
        .inFile(POSITION)
        .onLineContaining("record Position");
  }

  @Test
  void failingFilerIsReportedAsAnInternalErrorOnTheDeclaration() {
    final Compilation compilation =
        javac()
            .withProcessors(
                withFiler(
                    new PhalanxProcessor(),
                    (real, method, arguments) -> {
                      if ("createSourceFile".equals(method.getName())) {
                        throw new IOException("disk full");
                      }
                      return invoke(method, real, arguments);
                    }))
            .compile(POSITION);
    assertThat(compilation).failed();
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation)
        .hadErrorContaining(
            "[PhalanxInternal] the Phalanx processor failed on test.Position"
                + " (java.io.IOException: disk full at ")
        .inFile(POSITION)
        .onLineContaining("record Position");
  }

  @Test
  void everyGeneratedFileOriginatesInItsDeclarationOnly() {
    final Map<String, List<String>> origins = new LinkedHashMap<>();
    final Compilation compilation =
        javac()
            .withProcessors(
                withFiler(
                    new PhalanxProcessor(),
                    (real, method, arguments) -> {
                      if ("createSourceFile".equals(method.getName())) {
                        final List<String> names = new ArrayList<>();
                        for (final Element element : (Element[]) arguments[1]) {
                          names.add(String.valueOf(element));
                        }
                        origins.put(arguments[0].toString(), names);
                      }
                      return invoke(method, real, arguments);
                    }))
            .compile(POSITION, ON_SCREEN);
    assertThat(compilation).succeededWithoutWarnings();
    final Map<String, List<String>> expected = new LinkedHashMap<>();
    expected.put("test.Position_Storage", List.of("test.Position"));
    expected.put("test.Position_ReadCursor", List.of("test.Position"));
    expected.put("test.Position_Cursor", List.of("test.Position"));
    expected.put("test.Position_Traits", List.of("test.Position"));
    expected.put("test.OnScreenQuery", List.of("test.OnScreen"));
    assertEquals(expected, origins);
  }
}
