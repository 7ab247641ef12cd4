package dev.phalanx.ecs.processor;

import com.google.auto.service.AutoService;
import dev.phalanx.ecs.processor.generation.QueryGenerator;
import dev.phalanx.ecs.processor.model.QueryModel;
import dev.phalanx.ecs.processor.validation.QueryValidator;
import dev.phalanx.ecs.processor.validation.ValidationReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.Processor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import javax.tools.Diagnostic;

/**
 * Generates a typed query class for each {@code @GroupQuery} and {@code @ViewQuery} declaration.
 *
 * <p>Phases: {@link QueryValidator} checks a declaration and builds its {@link QueryModel} (reusing
 * the component validator for the listed {@code @Component} classes), owning groups are checked
 * against the ones accepted earlier in the compilation, then {@link QueryGenerator} writes the class.
 * A declaration listing a class that does not resolve yet is retried in the next round, and left to
 * javac's own error if it never resolves.
 *
 * <p>Isolating for incremental builds: each query depends on its declaration only. The conflict
 * check between owning groups sees the declarations compiled together, so an incremental build that
 * recompiles one of two conflicting declarations may miss it; the registry still refuses the
 * conflict at run time.
 *
 * <p>Claims its two annotations (no other processor has a use for them): left unclaimed, they make
 * {@code -Xlint:all} warn "no processor claimed any of these annotations", which breaks user builds
 * with {@code -Werror}.
 */
@AutoService(Processor.class)
public final class PhalanxQueryProcessor extends AbstractProcessor {

  private final Set<String> deferred = new LinkedHashSet<>();
  private final List<QueryModel> owningGroups = new ArrayList<>();

  @Override
  public Set<String> getSupportedAnnotationTypes() {
    return Set.of(QueryValidator.GROUP_QUERY, QueryValidator.VIEW_QUERY);
  }

  @Override
  public SourceVersion getSupportedSourceVersion() {
    return SourceVersion.latestSupported();
  }

  @Override
  public boolean process(final Set<? extends TypeElement> annotations, final RoundEnvironment round) {
    final Set<TypeElement> declarations = new LinkedHashSet<>();
    for (final String name : deferred) {
      final TypeElement type = processingEnv.getElementUtils().getTypeElement(name);
      if (null != type) {
        declarations.add(type);
      }
    }
    deferred.clear();
    for (final TypeElement annotation : annotations) {
      for (final Element element : round.getElementsAnnotatedWith(annotation)) {
        if (element instanceof TypeElement) {
          declarations.add((TypeElement) element);
        }
      }
    }
    for (final TypeElement declaration : declarations) {
      try {
        process(declaration, round.processingOver());
      } catch (final RuntimeException | IOException e) {
        final StringWriter trace = new StringWriter();
        e.printStackTrace(new PrintWriter(trace));
        processingEnv.getMessager().printMessage(
            Diagnostic.Kind.ERROR,
            "[PhalanxQueryInternal] the query processor failed on " + declaration + "; please report it: " + trace,
            declaration);
      }
    }
    return true;
  }

  private void process(final TypeElement declaration, final boolean last) throws IOException {
    final QueryValidator validator =
        new QueryValidator(processingEnv.getElementUtils(), processingEnv.getTypeUtils());
    final QueryValidator.Result result = validator.validate(declaration);
    if (result.missingTypes()) {
      if (!last) {
        deferred.add(declaration.getQualifiedName().toString());
      }
      return;
    }
    final ValidationReport report = result.report();
    if (report.isClean() && QueryModel.Kind.OWNING_GROUP == result.model().kind()
        && QueryValidator.checkConflicts(result, owningGroups, report)) {
      owningGroups.add(result.model());
    }
    if (!report.isClean()) {
      report.printMessagesTo(processingEnv.getMessager());
      return;
    }
    new QueryGenerator(processingEnv.getElementUtils()).generate(result.model(), processingEnv.getFiler());
  }
}
