package dev.phalanx.ecs.processor.generation;

import com.palantir.javapoet.AnnotationSpec;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.JavaFile;
import com.palantir.javapoet.TypeSpec;
import java.io.IOException;
import javax.annotation.processing.Filer;
import javax.lang.model.element.Element;
import javax.lang.model.util.Elements;

/**
 * The base of every generator, for components and queries alike: it adds what each generated file
 * carries (the {@code @Generated} annotation when the compilation has one, the originating element
 * for isolating incremental builds, the suppression of deprecation warnings when the code names
 * something deprecated) and writes the file with two-space indentation.
 *
 * <p>Every class the generated code names is written through {@code $T}, so JavaPoet imports it,
 * {@code java.lang} classes included: a single-type import shadows a class of the same simple name
 * in the generated file's package, so a user's {@code Math}, {@code String} or {@code Override}
 * beside the component cannot change what generated code means.
 *
 * @param <M> the validated model a file is generated from
 */
public abstract class SourceFileGenerator<M> {

  /** The processor named in {@code @Generated}. */
  public static final String PROCESSOR = "dev.phalanx.ecs.processor.PhalanxProcessor";

  /** The {@code @Generated} annotation put on generated classes when the compilation has it. */
  public static final String GENERATED = "javax.annotation.processing.Generated";

  private final ClassName generated;

  /**
   * Creates a generator.
   *
   * @param elements used to find out whether {@code javax.annotation.processing.Generated} exists
   */
  protected SourceFileGenerator(final Elements elements) {
    this.generated =
        null != elements.getTypeElement(GENERATED) ? ClassName.bestGuess(GENERATED) : null;
  }

  /**
   * Builds the file for {@code model}, without writing it.
   *
   * @param model the validated model
   * @return the file, annotated and with its originating element
   */
  public final JavaFile file(final M model) {
    final TypeSpec.Builder type = write(model).addOriginatingElement(originatingElement(model));
    if (null != generated) {
      type.addAnnotation(
          AnnotationSpec.builder(generated).addMember("value", "$S", PROCESSOR).build());
    }
    if (usesDeprecated(model)) {
      // The user chose to keep using the deprecated code; the generated copy of that choice must
      // not turn into warnings that fail -Werror builds.
      type.addAnnotation(
          AnnotationSpec.builder(SuppressWarnings.class)
              .addMember("value", "{$S, $S}", "deprecation", "removal")
              .build());
    }
    return JavaFile.builder(packageName(model), type.build()).indent("  ").build();
  }

  /**
   * Writes the file for {@code model} through {@code filer}.
   *
   * @param model the validated model
   * @param filer the compilation's filer
   * @throws IOException if the file cannot be written, for example because it already exists
   */
  public final void generate(final M model, final Filer filer) throws IOException {
    file(model).writeTo(filer);
  }

  /**
   * {@return whether this generator produces a file for {@code model}}
   *
   * @param model the validated model
   */
  public boolean applies(final M model) {
    return true;
  }

  /**
   * {@return whether the generated code names deprecated classes or members}
   *
   * @param model the validated model
   */
  protected abstract boolean usesDeprecated(M model);

  /**
   * {@return the class generated for {@code model}}
   *
   * @param model the validated model
   */
  public abstract ClassName generatedClass(M model);

  /**
   * {@return the class that the file is generated for}
   *
   * @param model the validated model
   */
  protected abstract Element originatingElement(M model);

  /**
   * {@return the package of the generated file}
   *
   * @param model the validated model
   */
  protected abstract String packageName(M model);

  /**
   * {@return the generated class, with its Javadoc and members}
   *
   * @param model the validated model
   */
  protected abstract TypeSpec.Builder write(M model);
}
