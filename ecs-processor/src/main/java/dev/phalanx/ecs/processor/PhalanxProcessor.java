package dev.phalanx.ecs.processor;

import com.google.auto.service.AutoService;
import dev.phalanx.ecs.processor.base.ValidationReport;
import dev.phalanx.ecs.processor.generation.CursorGenerator;
import dev.phalanx.ecs.processor.generation.NonOwningGroupQueryGenerator;
import dev.phalanx.ecs.processor.generation.OwningGroupQueryGenerator;
import dev.phalanx.ecs.processor.generation.ReadCursorGenerator;
import dev.phalanx.ecs.processor.generation.SourceFileGenerator;
import dev.phalanx.ecs.processor.generation.StorageGenerator;
import dev.phalanx.ecs.processor.generation.TraitsGenerator;
import dev.phalanx.ecs.processor.generation.ViewQueryGenerator;
import dev.phalanx.ecs.processor.model.ComponentModel;
import dev.phalanx.ecs.processor.model.QueryModel;
import dev.phalanx.ecs.processor.validation.ComponentValidator;
import dev.phalanx.ecs.processor.validation.Diagnostics;
import dev.phalanx.ecs.processor.validation.QueryValidator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.FilerException;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.Processor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;

/**
 * The Phalanx annotation processor: one pipeline for {@code @Component} classes (a storage, a
 * read-only cursor, a cursor and traits each) and {@code @GroupQuery}/{@code @ViewQuery}
 * declarations (a typed query each).
 *
 * <p>Each round: every component is validated once ({@link ComponentValidator}, results cached for
 * the round, so a query listing it reuses the result), queries are validated against those results
 * ({@link QueryValidator}) and owning groups against each other, local classes carrying the
 * annotations are reported ({@link LocalDeclarations}), then each valid model goes to the
 * generators that apply to it, one per kind of file. Every diagnostic goes through a {@link
 * ValidationReport}, coded and placed on the element. A declaration naming a type not resolved yet
 * (it may be generated in a later round) is retried in the next round; a component whose field
 * types never resolve is reported at the end, a query is left to javac's own error. A failure of
 * the processor itself is reported as {@code [PhalanxInternal]} on the declaration, never as a bare
 * stack trace.
 *
 * <p>The processor claims its own annotations (no other processor has a use for them): leaving them
 * unclaimed makes {@code -Xlint:all} warn "no processor claimed any of these annotations", which
 * breaks user builds with {@code -Werror}. For the same reason it also claims {@code
 * javax.annotation.processing.Generated}, which it puts on every generated class.
 *
 * <p>It is an isolating incremental processor for Gradle: every generated file has exactly one
 * originating element (the component or the query declaration) and depends only on what is
 * reachable from it; the runtime finds the generated traits by name, so there is no aggregated
 * index. The cross-declaration checks (generated name collisions, owning-group conflicts) see the
 * declarations compiled together, so an incremental build that recompiles one of two conflicting
 * declarations may miss a conflict; the registry still refuses it at run time.
 */
@AutoService(Processor.class)
public final class PhalanxProcessor extends AbstractProcessor {

  private ComponentValidator componentValidator;
  private QueryValidator queryValidator;
  private List<SourceFileGenerator<ComponentModel>> componentGenerators;
  private List<SourceFileGenerator<QueryModel>> queryGenerators;
  private LocalDeclarations locals;
  // Components validated this round, by qualified name.
  private final Map<String, ComponentValidator.Result> validated = new HashMap<>();
  // Generated class name -> what it was generated for, across rounds.
  private final Map<String, String> generated = new HashMap<>();
  // Top-level classes of the compilation's sources, across rounds (generated ones excepted).
  private final Set<String> declared = new HashSet<>();
  // Declarations whose types were not resolved yet, by qualified name.
  private final Set<String> deferredComponents = new LinkedHashSet<>();
  private final Set<String> deferredQueries = new LinkedHashSet<>();
  private final List<QueryModel> owningGroups = new ArrayList<>();

  /** Creates the processor; the compiler calls {@link #init} next. */
  public PhalanxProcessor() {}

  @Override
  public synchronized void init(final ProcessingEnvironment environment) {
    super.init(environment);
    componentValidator =
        new ComponentValidator(environment.getElementUtils(), environment.getTypeUtils());
    queryValidator = new QueryValidator(environment.getElementUtils(), this::component);
    componentGenerators =
        List.of(
            new StorageGenerator(environment.getElementUtils()),
            new ReadCursorGenerator(environment.getElementUtils()),
            new CursorGenerator(environment.getElementUtils()),
            new TraitsGenerator(environment.getElementUtils()));
    queryGenerators =
        List.of(
            new OwningGroupQueryGenerator(environment.getElementUtils()),
            new NonOwningGroupQueryGenerator(environment.getElementUtils()),
            new ViewQueryGenerator(environment.getElementUtils()));
    locals = LocalDeclarations.of(environment);
  }

  @Override
  public Set<String> getSupportedAnnotationTypes() {
    return Set.of(
        ComponentValidator.COMPONENT,
        ComponentValidator.ENTITY_REF,
        ComponentValidator.RELATIONSHIP,
        QueryValidator.GROUP_QUERY,
        QueryValidator.VIEW_QUERY,
        SourceFileGenerator.GENERATED);
  }

  @Override
  public SourceVersion getSupportedSourceVersion() {
    return SourceVersion.latestSupported();
  }

  // DoNotClaimAnnotations: claiming is deliberate, see the class comment (-Xlint:processing and
  // -Werror in user builds).
  @SuppressWarnings("DoNotClaimAnnotations")
  @Override
  public boolean process(
      final Set<? extends TypeElement> annotations, final RoundEnvironment round) {
    validated.clear();
    for (final Element root : round.getRootElements()) {
      if (root instanceof TypeElement type
          && !generated.containsKey(type.getQualifiedName().toString())) {
        declared.add(type.getQualifiedName().toString());
      }
    }
    final List<TypeElement> components =
        collect(deferredComponents, round, ComponentValidator.COMPONENT);
    final List<TypeElement> queries =
        collect(deferredQueries, round, QueryValidator.GROUP_QUERY, QueryValidator.VIEW_QUERY);
    final ValidationReport localReport = new ValidationReport();
    locals.report(round.getRootElements(), localReport);
    localReport.printMessagesTo(processingEnv.getMessager());
    for (final TypeElement type : components) {
      guarded(type, () -> processComponent(type));
    }
    for (final TypeElement declaration : queries) {
      guarded(declaration, () -> processQuery(declaration, round.processingOver()));
    }
    if (round.processingOver()) {
      final ValidationReport report = new ValidationReport();
      for (final String name : deferredComponents) {
        final TypeElement type = processingEnv.getElementUtils().getTypeElement(name);
        report.error(Diagnostics.missingType(name), type);
      }
      report.printMessagesTo(processingEnv.getMessager());
      deferredComponents.clear();
      deferredQueries.clear();
    }
    return true;
  }

  /** Returns the declarations deferred earlier and those annotated in this round, each once. */
  private List<TypeElement> collect(
      final Set<String> deferred, final RoundEnvironment round, final String... names) {
    final Set<TypeElement> work = new LinkedHashSet<>();
    for (final String name : deferred) {
      final TypeElement type = processingEnv.getElementUtils().getTypeElement(name);
      if (null != type) {
        work.add(type);
      }
    }
    deferred.clear();
    for (final String name : names) {
      final TypeElement annotation = processingEnv.getElementUtils().getTypeElement(name);
      if (null != annotation) {
        for (final Element element : round.getElementsAnnotatedWith(annotation)) {
          if (element instanceof TypeElement type) {
            work.add(type);
          }
        }
      }
    }
    return new ArrayList<>(work);
  }

  /** Validates {@code type} once per round. */
  private ComponentValidator.Result component(final TypeElement type) {
    return validated.computeIfAbsent(
        type.getQualifiedName().toString(), name -> componentValidator.validate(type));
  }

  private void processComponent(final TypeElement type) throws IOException {
    final ComponentValidator.Result result = component(type);
    if (result.missingTypes()) {
      deferredComponents.add(type.getQualifiedName().toString());
      return;
    }
    final ValidationReport report = result.report();
    final ComponentModel model = result.model();
    if (null != model) {
      generate(
          model, type, null, "@Component " + type.getQualifiedName(), componentGenerators, report);
    }
    report.printMessagesTo(processingEnv.getMessager());
  }

  private void processQuery(final TypeElement declaration, final boolean last) throws IOException {
    final QueryValidator.Result result = queryValidator.validate(declaration);
    if (result.missingTypes()) {
      if (!last) {
        deferredQueries.add(declaration.getQualifiedName().toString());
      }
      return;
    }
    final ValidationReport report = result.report();
    final QueryModel model = result.model();
    if (null != model
        && QueryModel.Kind.OWNING_GROUP == model.kind()
        && QueryValidator.checkConflicts(result, owningGroups, report)) {
      owningGroups.add(model);
    }
    if (report.isClean()) {
      final String what =
          (QueryModel.Kind.VIEW == model.kind() ? "@ViewQuery " : "@GroupQuery ")
              + declaration.getQualifiedName();
      generate(model, declaration, result.annotation(), what, queryGenerators, report);
    }
    report.printMessagesTo(processingEnv.getMessager());
  }

  /**
   * Claims the names of the classes the applicable generators write for {@code model}, then writes
   * them; a name taken by another declaration or by a class of the compilation is reported instead.
   */
  private <M> void generate(
      final M model,
      final TypeElement element,
      final AnnotationMirror annotation,
      final String what,
      final List<SourceFileGenerator<M>> generators,
      final ValidationReport report)
      throws IOException {
    final List<SourceFileGenerator<M>> applicable = new ArrayList<>();
    for (final SourceFileGenerator<M> generator : generators) {
      if (generator.applies(model)) {
        applicable.add(generator);
      }
    }
    for (final SourceFileGenerator<M> generator : applicable) {
      final String name = generator.generatedClass(model).canonicalName();
      final String owner = generated.get(name);
      if (null != owner && !owner.equals(what)) {
        report.error(
            Diagnostics.nameCollision(name, what, "the one generated for " + owner),
            element,
            annotation,
            null);
        return;
      }
      if (null == owner && declared.contains(name)) {
        report.error(
            Diagnostics.nameCollision(
                name, what, "the class " + name + " declared in this compilation"),
            element,
            annotation,
            null);
        return;
      }
    }
    for (final SourceFileGenerator<M> generator : applicable) {
      final String name = generator.generatedClass(model).canonicalName();
      if (null != generated.putIfAbsent(name, what)) {
        continue; // Generated in an earlier round.
      }
      try {
        generator.generate(model, processingEnv.getFiler());
      } catch (final FilerException e) {
        // The name exists outside this compilation's sources (a class on the class path, or a file
        // another processor wrote): the same collision, found late.
        report.error(
            Diagnostics.nameCollision(
                name, what, "an existing class or file (" + e.getMessage() + ")"),
            element,
            annotation,
            null);
        return;
      }
    }
  }

  /** A step of the pipeline that may fail. */
  private interface Step {
    void run() throws IOException;
  }

  /**
   * Runs {@code step}, reporting a failure of the processor itself as a coded error on {@code
   * element}.
   */
  private void guarded(final TypeElement element, final Step step) {
    try {
      step.run();
    } catch (final IOException | RuntimeException e) {
      final ValidationReport report = new ValidationReport();
      report.error(Diagnostics.internal(element.getQualifiedName().toString(), e), element);
      report.printMessagesTo(processingEnv.getMessager());
    }
  }
}
