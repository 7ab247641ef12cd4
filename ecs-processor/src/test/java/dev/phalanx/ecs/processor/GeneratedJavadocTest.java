package dev.phalanx.ecs.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.tools.DocumentationTool;
import javax.tools.JavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the javadoc tool with {@code -Xdoclint:all -Werror} (stricter than the javadoc plugin's
 * defaults) over everything the processor generates for components of every storage kind and for
 * every kind of query, so that a user project can build its Javadoc jar: no missing {@code @param}
 * or {@code @return}, no misplaced heading, no broken link.
 */
class GeneratedJavadocTest {

  @Test
  void generatedJavadocPassesDoclint(@TempDir final Path directory) throws IOException {
    final List<JavaFileObject> inputs =
        List.of(
            source(
                "Position",
                "/** A position. */ @Component public record Position(float x, float y) {}"),
            source(
                "Velocity",
                "/** A velocity. */ @Component(inPlaceDelete = true) public final class Velocity {"
                    + " /** X. */ public float dx; }"),
            source(
                "Label",
                "/** A label. */ @Component public record Label(String text, java.util.List<String>"
                    + " tags, @dev.phalanx.ecs.annotations.EntityRef long owner) {}"),
            source("Frozen", "/** A tag. */ @Component public record Frozen() {}"),
            source(
                "Token",
                "/** Kept. */ @Component(empty = dev.phalanx.ecs.annotations.Empty.STORE)"
                    + " public final class Token { /** Creates one. */ public Token() {} }"),
            source(
                "Queries",
                "/** Queries. */ public final class Queries { private Queries() {} /** Owning. */"
                    + " @dev.phalanx.ecs.annotations.GroupQuery(owned = {Position.class,"
                    + " Label.class}, get = Velocity.class, exclude = Frozen.class, readOnly ="
                    + " {Label.class, Velocity.class}) public interface Movers {} /** Non-owning."
                    + " */ @dev.phalanx.ecs.annotations.GroupQuery(get = {Velocity.class,"
                    + " Token.class}, readOnly = Velocity.class) public interface Watched {} /**"
                    + " View. */ @dev.phalanx.ecs.annotations.ViewQuery(include = {Position.class,"
                    + " Token.class, Frozen.class}, exclude = Label.class, readOnly ="
                    + " Position.class) public interface Visible {} /** Optional view. */"
                    + " @dev.phalanx.ecs.annotations.ViewQuery(include = Velocity.class, optional ="
                    + " {Position.class, Label.class, Frozen.class, Token.class}, readOnly ="
                    + " Label.class) public interface Seen {} /** Optional group. */"
                    + " @dev.phalanx.ecs.annotations.GroupQuery(owned = {Position.class,"
                    + " Label.class}, get = Velocity.class, exclude = Frozen.class, optional ="
                    + " Token.class) public interface Lifted {} }"));
    final Compilation compilation = javac().withProcessors(new PhalanxProcessor()).compile(inputs);
    assertThat(compilation).succeededWithoutWarnings();

    final Path sources = Files.createDirectories(directory.resolve("src/test"));
    for (final JavaFileObject input : inputs) {
      Files.writeString(
          sources.resolve(simpleName(input) + ".java"),
          input.getCharContent(true),
          StandardCharsets.UTF_8);
    }
    final Path generated = Files.createDirectories(directory.resolve("generated/test"));
    final List<Path> documented = new ArrayList<>();
    for (final JavaFileObject file : compilation.generatedSourceFiles()) {
      final Path path = generated.resolve(simpleName(file) + ".java");
      Files.writeString(path, file.getCharContent(true), StandardCharsets.UTF_8);
      documented.add(path);
    }
    assertEquals(
        4 + 4 + 4 + 2 + 2 + 5,
        documented.size(),
        "one file per storage, read cursor, cursor, traits and query");

    final DocumentationTool javadoc = ToolProvider.getSystemDocumentationTool();
    final StringWriter output = new StringWriter();
    try (var files = javadoc.getStandardFileManager(null, null, StandardCharsets.UTF_8)) {
      final boolean ok =
          javadoc
              .getTask(
                  output,
                  files,
                  null,
                  null,
                  List.of(
                      "-Xdoclint:all",
                      "-Werror",
                      "-quiet",
                      "-notimestamp",
                      "-sourcepath",
                      directory.resolve("src")
                          + java.io.File.pathSeparator
                          + directory.resolve("generated"),
                      "-classpath",
                      System.getProperty("java.class.path"),
                      "-d",
                      directory.resolve("out").toString()),
                  files.getJavaFileObjectsFromPaths(documented))
              .call();
      assertTrue(ok && !output.toString().contains("warning"), "javadoc reported:\n" + output);
    }
  }

  private static JavaFileObject source(final String name, final String declaration) {
    return JavaFileObjects.forSourceLines(
        "test." + name,
        "package test;",
        "import dev.phalanx.ecs.annotations.Component;",
        declaration);
  }

  private static String simpleName(final JavaFileObject file) {
    final String name = file.getName();
    return name.substring(name.lastIndexOf('/') + 1, name.length() - ".java".length());
  }
}
