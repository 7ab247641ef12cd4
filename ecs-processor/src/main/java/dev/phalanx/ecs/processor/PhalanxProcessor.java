package dev.phalanx.ecs.processor;

import com.google.auto.service.AutoService;
import dev.phalanx.ecs.processor.generation.CursorGenerator;
import dev.phalanx.ecs.processor.generation.Names;
import dev.phalanx.ecs.processor.generation.SourceFileGenerator;
import dev.phalanx.ecs.processor.generation.StorageGenerator;
import dev.phalanx.ecs.processor.generation.TraitsGenerator;
import dev.phalanx.ecs.processor.model.ComponentModel;
import dev.phalanx.ecs.processor.validation.ComponentValidator;
import dev.phalanx.ecs.processor.validation.Diagnostics;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.Processor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import javax.tools.Diagnostic;

/**
 * Generates a struct-of-arrays storage, a cursor and the traits for every {@code @Component} class.
 *
 * <p>Each class is validated, then generated from its validated model; errors are reported on the
 * offending element with a {@code [PhalanxXxx]} code and processing goes on with the next class. A
 * class whose field types are not resolved yet is retried in the next round, and reported only if
 * they never resolve. The processor claims its own two annotations (no other processor has a use
 * for them): leaving them unclaimed makes {@code -Xlint:all} warn "no processor claimed any of these
 * annotations", which breaks user builds with {@code -Werror}. For the same reason it also claims
 * {@code javax.annotation.processing.Generated}, which it puts on every generated class and which no
 * processor has a use for (it is source-retained and informational).
 *
 * <p>It is an isolating incremental processor for Gradle: every generated file has exactly one
 * originating element, the component class, and depends on nothing else; the runtime finds the
 * generated traits by name, so there is no aggregated index. The only cross-class check, the name
 * collision check, looks at the classes of the current compilation.
 */
@AutoService(Processor.class)
public final class PhalanxProcessor extends AbstractProcessor {

  private ComponentValidator validator;
  private List<SourceFileGenerator<ComponentModel>> generators;
  // Generated class name -> the component it was generated for, across rounds.
  private final Map<String, String> generated = new HashMap<>();
  // Components whose field types were not resolved yet, by qualified name.
  private final Set<String> deferred = new LinkedHashSet<>();

  /** Creates the processor; the compiler calls {@link #init} next. */
  public PhalanxProcessor() {}

  @Override
  public synchronized void init(final ProcessingEnvironment environment) {
    super.init(environment);
    validator = new ComponentValidator(environment.getElementUtils(), environment.getTypeUtils());
    generators = List.of(
        new StorageGenerator(environment.getElementUtils()),
        new CursorGenerator(environment.getElementUtils()),
        new TraitsGenerator(environment.getElementUtils()));
  }

  @Override
  public Set<String> getSupportedAnnotationTypes() {
    return Set.of(ComponentValidator.COMPONENT, ComponentValidator.ENTITY_REF, SourceFileGenerator.GENERATED);
  }

  @Override
  public SourceVersion getSupportedSourceVersion() {
    return SourceVersion.latestSupported();
  }

  @Override
  public boolean process(final Set<? extends TypeElement> annotations, final RoundEnvironment round) {
    final List<TypeElement> work = new ArrayList<>();
    for (final String name : deferred) {
      final TypeElement type = processingEnv.getElementUtils().getTypeElement(name);
      if (null != type) {
        work.add(type);
      }
    }
    deferred.clear();
    final TypeElement annotation = processingEnv.getElementUtils().getTypeElement(ComponentValidator.COMPONENT);
    if (null != annotation) {
      for (final Element element : round.getElementsAnnotatedWith(annotation)) {
        if (element instanceof TypeElement type && !work.contains(type)) {
          work.add(type);
        }
      }
    }
    for (final TypeElement type : work) {
      try {
        process(type, round);
      } catch (RuntimeException | IOException e) {
        final StringWriter trace = new StringWriter();
        e.printStackTrace(new PrintWriter(trace));
        processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR,
            "Phalanx processor failed on " + type.getQualifiedName() + "; please report it: " + trace, type);
      }
    }
    if (round.processingOver()) {
      for (final String name : deferred) {
        final TypeElement type = processingEnv.getElementUtils().getTypeElement(name);
        processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR, Diagnostics.missingType(name), type);
      }
      deferred.clear();
    }
    return true;
  }

  private void process(final TypeElement type, final RoundEnvironment round) throws IOException {
    final ComponentValidator.Result result = validator.validate(type);
    if (result.missingTypes()) {
      deferred.add(type.getQualifiedName().toString());
      return;
    }
    result.report().printMessagesTo(processingEnv.getMessager());
    final ComponentModel model = result.model();
    if (null == model || !claimNames(type, round)) {
      return;
    }
    for (final SourceFileGenerator<ComponentModel> generator : generators) {
      if (generator.applies(model)) {
        generator.generate(model, processingEnv.getFiler());
      }
    }
  }

  /**
   * Reserves the names of the classes generated for {@code type}; reports a collision with another
   * component, or with a class written by hand in this compilation, and returns false then.
   */
  private boolean claimNames(final TypeElement type, final RoundEnvironment round) {
    final String component = type.getQualifiedName().toString();
    for (final String name : Names.generatedClasses(type)) {
      final String owner = generated.get(name);
      String other = null;
      if (null != owner && !owner.equals(component)) {
        other = "the one generated for @Component " + owner;
      } else if (null == owner && declaredInSource(name, round)) {
        other = "the class " + name + " declared in this compilation";
      }
      if (null != other) {
        processingEnv.getMessager().printMessage(
            Diagnostic.Kind.ERROR, Diagnostics.nameCollision(name, component, other), type);
        return false;
      }
    }
    for (final String name : Names.generatedClasses(type)) {
      generated.put(name, component);
    }
    return true;
  }

  private static boolean declaredInSource(final String name, final RoundEnvironment round) {
    for (final Element root : round.getRootElements()) {
      if (root instanceof TypeElement type && type.getQualifiedName().contentEquals(name)) {
        return true;
      }
    }
    return false;
  }
}
