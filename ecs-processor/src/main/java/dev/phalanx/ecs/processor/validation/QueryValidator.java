package dev.phalanx.ecs.processor.validation;

import dev.phalanx.ecs.processor.base.Names;
import dev.phalanx.ecs.processor.base.ValidationReport;
import dev.phalanx.ecs.processor.model.ComponentModel;
import dev.phalanx.ecs.processor.model.QueryModel;
import dev.phalanx.ecs.processor.model.StorageKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;

/**
 * Checks one {@code @GroupQuery} or {@code @ViewQuery} declaration and builds its {@link
 * QueryModel}.
 *
 * <p>Every check runs, so that all problems of a declaration surface in one compilation. A listed
 * class that does not resolve (javac reports it) or a component whose own field types are not
 * resolved yet makes the result {@linkplain Result#missingTypes() incomplete}: the processor
 * retries the declaration in the next round and stays silent if it never resolves, leaving the
 * error to javac or to the component processor.
 */
public final class QueryValidator {

  /** Qualified name of {@code @GroupQuery}. */
  public static final String GROUP_QUERY = "dev.phalanx.ecs.annotations.GroupQuery";

  /** Qualified name of {@code @ViewQuery}. */
  public static final String VIEW_QUERY = "dev.phalanx.ecs.annotations.ViewQuery";

  private final Elements elements;
  private final Function<TypeElement, ComponentValidator.Result> components;

  /**
   * The outcome of a validation.
   *
   * @param model the model, or {@code null} if the report has errors or types are missing
   * @param annotation the query annotation, where conflicts with other declarations are reported
   * @param report the errors found
   * @param missingTypes whether a type was not resolved (retry in a later round)
   */
  public record Result(
      QueryModel model,
      AnnotationMirror annotation,
      ValidationReport report,
      boolean missingTypes) {}

  /** The list of optional terms. */
  private static final String OPTIONAL = "optional";

  /** The list of excluded components. */
  private static final String EXCLUDE = "exclude";

  /** Parameter slots of an interface method: the JVM's 255, less one for {@code this}. */
  private static final int MAX_INTERFACE_SLOTS = 254;

  /** One listed class and where it was listed. */
  private record Listed(
      TypeElement type, String list, AnnotationValue value, ComponentModel model) {}

  /**
   * Creates a validator.
   *
   * @param elements the compiler's element utilities
   * @param components the validation of a listed {@code @Component} class; the processor passes its
   *     per-round cache, so that each component is validated once per round
   */
  public QueryValidator(
      final Elements elements, final Function<TypeElement, ComponentValidator.Result> components) {
    this.elements = elements;
    this.components = components;
  }

  /**
   * Validates {@code declaration}, annotated with {@code @GroupQuery} or {@code @ViewQuery}.
   *
   * @param declaration the annotated interface or abstract class
   * @return the model if {@code declaration} is valid, the query annotation, and the diagnostics
   *     found
   */
  public Result validate(final TypeElement declaration) {
    final ValidationReport report = new ValidationReport();
    final AnnotationMirror group = findAnnotation(declaration, GROUP_QUERY);
    final AnnotationMirror view = findAnnotation(declaration, VIEW_QUERY);
    final AnnotationMirror annotation = null != group ? group : view;
    final String name = null != group ? "@GroupQuery" : "@ViewQuery";
    if (null != group && null != view) {
      report.error(
          QueryDiagnostics.both(declaration.getQualifiedName().toString()),
          declaration,
          view,
          null);
      return new Result(null, annotation, report, false);
    }
    if (!checkKind(declaration, name, annotation, report)) {
      return new Result(null, annotation, report, false);
    }

    final List<String> lists =
        null != group
            ? List.of("owned", "get", OPTIONAL, EXCLUDE)
            : List.of("include", OPTIONAL, EXCLUDE);
    final Map<String, List<Listed>> listed = new HashMap<>();
    boolean missing = false;
    for (final String list : lists) {
      final List<Listed> entries = new ArrayList<>();
      missing |= collectListed(declaration, annotation, list, entries, report);
      listed.put(list, entries);
    }

    checkDuplicates(declaration, annotation, lists, listed, report);
    final List<Listed> included = new ArrayList<>();
    for (final String list : lists) {
      if (!EXCLUDE.equals(list) && !OPTIONAL.equals(list)) {
        included.addAll(listed.get(list));
      }
    }
    final List<Listed> readable = new ArrayList<>(included);
    readable.addAll(listed.get(OPTIONAL));
    final String includeLists = null != group ? "owned or get" : "include";
    if (included.isEmpty() && !missing && report.isClean()) {
      report.error(QueryDiagnostics.empty(name, includeLists), declaration, annotation, null);
    }
    if (null != group) {
      checkOwned(declaration, annotation, listed.get("owned"), report);
    }
    final Set<String> readOnly = new HashSet<>();
    missing |=
        collectReadOnly(
            declaration,
            annotation,
            readable,
            null != group ? "owned, get or optional" : "include or optional",
            readOnly,
            report);
    if (!report.isClean() || missing) {
      return new Result(null, annotation, report, missing && report.isClean());
    }
    return modelled(declaration, annotation, null != group, name, listed, readOnly, report);
  }

  /**
   * Resolves the classes of one list of the query annotation into {@code entries}, reporting a
   * class that is not a component or not a valid one.
   *
   * @return whether a type was not resolved (the declaration is retried in a later round)
   */
  private boolean collectListed(
      final TypeElement declaration,
      final AnnotationMirror annotation,
      final String list,
      final List<Listed> entries,
      final ValidationReport report) {
    boolean missing = false;
    for (final AnnotationValue value : values(annotation, list)) {
      final Object raw = value.getValue();
      if (!(raw instanceof TypeMirror type) || TypeKind.ERROR == type.getKind()) {
        // An unresolved class literal: javac reports it; it may also be generated in a later
        // round.
        missing = true;
        continue;
      }
      if (TypeKind.DECLARED != type.getKind()
          || null
              == findAnnotation(((DeclaredType) type).asElement(), ComponentValidator.COMPONENT)) {
        report.error(
            QueryDiagnostics.unknownComponent(type.toString(), list),
            declaration,
            annotation,
            value);
        continue;
      }
      final TypeElement element = (TypeElement) ((DeclaredType) type).asElement();
      final ComponentValidator.Result component = components.apply(element);
      missing |= component.missingTypes();
      if (null == component.model() && !component.missingTypes()) {
        // Its own errors are reported on it; say here why this query is not generated.
        report.error(
            QueryDiagnostics.invalidComponent(type.toString(), list),
            declaration,
            annotation,
            value);
        continue;
      }
      entries.add(new Listed(element, list, value, component.model()));
    }
    return missing;
  }

  /**
   * Collects the qualified names listed in {@code readOnly} into {@code readOnly}, reporting one
   * that the query neither includes nor lists as optional.
   *
   * @param readable the included and optional classes
   * @param readableLists the lists a read-only class must be in, as the diagnostic names them
   * @return whether a type was not resolved (the declaration is retried in a later round)
   */
  private boolean collectReadOnly(
      final TypeElement declaration,
      final AnnotationMirror annotation,
      final List<Listed> readable,
      final String readableLists,
      final Set<String> readOnly,
      final ValidationReport report) {
    boolean missing = false;
    for (final AnnotationValue value : values(annotation, "readOnly")) {
      if (!(value.getValue() instanceof TypeMirror type) || TypeKind.DECLARED != type.getKind()) {
        missing = true;
        continue;
      }
      final String key =
          ((TypeElement) ((DeclaredType) type).asElement()).getQualifiedName().toString();
      boolean isReadable = false;
      for (final Listed entry : readable) {
        isReadable |= entry.type().getQualifiedName().contentEquals(key);
      }
      if (!isReadable) {
        report.error(
            QueryDiagnostics.readOnlyNotIncluded(key, readableLists),
            declaration,
            annotation,
            value);
      }
      readOnly.add(key);
    }
    return missing;
  }

  /**
   * Builds the model of a declaration found valid, unless its visitor would take more parameter
   * slots than an interface method may.
   */
  private Result modelled(
      final TypeElement declaration,
      final AnnotationMirror annotation,
      final boolean isGroup,
      final String name,
      final Map<String, List<Listed>> listed,
      final Set<String> readOnly,
      final ValidationReport report) {
    final List<ComponentModel> owned = models(isGroup ? listed.get("owned") : List.of());
    final QueryModel.Kind kind =
        !isGroup
            ? QueryModel.Kind.VIEW
            : owned.isEmpty() ? QueryModel.Kind.NON_OWNING_GROUP : QueryModel.Kind.OWNING_GROUP;
    final String registry = isGroup ? (String) value(annotation, "registry").getValue() : "";
    final QueryModel model =
        new QueryModel(
            declaration,
            kind,
            Names.packageOf(declaration),
            Names.flatName(declaration),
            owned,
            models(listed.get(isGroup ? "get" : "include")),
            models(listed.get(OPTIONAL)),
            models(listed.get(EXCLUDE)),
            registry,
            readOnly);
    int visited = 2;
    for (final ComponentModel component : model.included()) {
      visited += StorageKind.TAG == component.kind() ? 0 : 1;
    }
    // An optional component is always passed: its cursor, instance, or a tag's presence.
    visited += model.optional().size();
    if (visited > MAX_INTERFACE_SLOTS) {
      report.error(QueryDiagnostics.tooWide(name, visited), declaration, annotation, null);
      return new Result(null, annotation, report, false);
    }
    return new Result(model, annotation, report, false);
  }

  /**
   * Checks {@code candidate}, an owning group, against the owning groups {@code earlier} accepted
   * in this compilation, and reports a conflict on the candidate's annotation.
   *
   * @param candidate a valid owning group's validation result
   * @param earlier the owning groups accepted before it in this compilation
   * @param report where a conflict is recorded
   * @return whether no conflict was found
   */
  public static boolean checkConflicts(
      final Result candidate, final List<QueryModel> earlier, final ValidationReport report) {
    final QueryModel model = candidate.model();
    for (final QueryModel other : earlier) {
      if (!model.registry().equals(other.registry())) {
        continue;
      }
      final String shared = sharedOwned(model, other);
      if (null != shared && !extendsGroup(model, other) && !extendsGroup(other, model)) {
        report.error(
            QueryDiagnostics.conflict(describe(model), describe(other), shared),
            model.element(),
            candidate.annotation(),
            null);
        return false;
      }
    }
    return true;
  }

  // -----------------------------------------------------------------------------------------------
  // Checks.
  // -----------------------------------------------------------------------------------------------

  private static boolean checkKind(
      final TypeElement declaration,
      final String name,
      final AnnotationMirror annotation,
      final ValidationReport report) {
    final String qualified = declaration.getQualifiedName().toString();
    final String what;
    switch (declaration.getKind()) {
      case INTERFACE -> {
        return true;
      }
      case CLASS -> {
        if (declaration.getModifiers().contains(Modifier.ABSTRACT)) {
          return true;
        }
        what = "the concrete class " + qualified;
      }
      case ANNOTATION_TYPE -> what = "the annotation type " + qualified;
      case ENUM -> what = "the enum " + qualified;
      case RECORD -> what = "the record " + qualified;
      default -> what = qualified;
    }
    report.error(QueryDiagnostics.kind(name, what), declaration, annotation, null);
    return false;
  }

  private static void checkDuplicates(
      final TypeElement declaration,
      final AnnotationMirror annotation,
      final List<String> lists,
      final Map<String, List<Listed>> listed,
      final ValidationReport report) {
    final Map<String, Listed> seen = new HashMap<>();
    for (final String list : lists) {
      for (final Listed entry : listed.get(list)) {
        final String key = entry.type().getQualifiedName().toString();
        final Listed first = seen.putIfAbsent(key, entry);
        if (null == first) {
          continue;
        }
        report.error(listedAgain(key, first.list(), list), declaration, annotation, entry.value());
      }
    }
  }

  /**
   * The message for a class listed in {@code first}, then again in {@code second}: a duplicate, or
   * a contradiction between an optional term and an included or excluded one, or between an
   * included and an excluded one.
   */
  private static String listedAgain(final String key, final String first, final String second) {
    if (first.equals(second)) {
      return QueryDiagnostics.duplicate(key, first, second);
    }
    if (OPTIONAL.equals(first) || OPTIONAL.equals(second)) {
      return QueryDiagnostics.optionalAndRequired(key, OPTIONAL.equals(first) ? second : first);
    }
    if (EXCLUDE.equals(first) || EXCLUDE.equals(second)) {
      return QueryDiagnostics.includedAndExcluded(key, EXCLUDE.equals(first) ? second : first);
    }
    return QueryDiagnostics.duplicate(key, first, second);
  }

  private static void checkOwned(
      final TypeElement declaration,
      final AnnotationMirror annotation,
      final List<Listed> owned,
      final ValidationReport report) {
    Listed paged = null;
    for (final Listed entry : owned) {
      final ComponentModel model = entry.model();
      if (null == model) {
        continue;
      }
      if (model.inPlaceDelete()) {
        report.error(
            QueryDiagnostics.ownedInPlace(entry.type().getQualifiedName().toString()),
            declaration,
            annotation,
            entry.value());
      } else if (!model.fields().isEmpty()) {
        if (null == paged) {
          paged = entry;
        } else if (paged.model().pageSize() != model.pageSize()) {
          report.error(
              QueryDiagnostics.pageSize(
                  entry.type().getQualifiedName().toString(), model.pageSize(),
                  paged.type().getQualifiedName().toString(), paged.model().pageSize()),
              declaration,
              annotation,
              entry.value());
        }
      }
    }
  }

  // -----------------------------------------------------------------------------------------------
  // Nesting, as the runtime's Groups decides it.
  // -----------------------------------------------------------------------------------------------

  private static String sharedOwned(final QueryModel a, final QueryModel b) {
    final Set<String> theirs = names(b.owned());
    for (final String mine : names(a.owned())) {
      if (theirs.contains(mine)) {
        return mine;
      }
    }
    return null;
  }

  /**
   * Returns whether each list of {@code outer} contains the corresponding list of {@code inner}.
   */
  private static boolean extendsGroup(final QueryModel outer, final QueryModel inner) {
    return names(outer.owned()).containsAll(names(inner.owned()))
        && names(outer.get()).containsAll(names(inner.get()))
        && names(outer.exclude()).containsAll(names(inner.exclude()));
  }

  private static Set<String> names(final List<ComponentModel> models) {
    final Set<String> names = new java.util.LinkedHashSet<>();
    for (final ComponentModel model : models) {
      names.add(model.component().canonicalName());
    }
    return names;
  }

  private static String describe(final QueryModel model) {
    return model.element().getQualifiedName()
        + (model.registry().isEmpty() ? "" : " (registry \"" + model.registry() + "\")")
        + " <owned="
        + simpleNames(model.owned())
        + ", get="
        + simpleNames(model.get())
        + ", exclude="
        + simpleNames(model.exclude())
        + ">";
  }

  private static String simpleNames(final List<ComponentModel> models) {
    final List<String> names = new ArrayList<>();
    for (final ComponentModel model : models) {
      names.add(model.component().simpleName());
    }
    return names.toString();
  }

  // -----------------------------------------------------------------------------------------------
  // Annotations.
  // -----------------------------------------------------------------------------------------------

  private static List<ComponentModel> models(final List<Listed> entries) {
    final List<ComponentModel> models = new ArrayList<>();
    for (final Listed entry : entries) {
      models.add(entry.model());
    }
    return models;
  }

  static AnnotationMirror findAnnotation(final Element element, final String name) {
    for (final AnnotationMirror mirror : element.getAnnotationMirrors()) {
      if (((TypeElement) mirror.getAnnotationType().asElement())
          .getQualifiedName()
          .contentEquals(name)) {
        return mirror;
      }
    }
    return null;
  }

  private AnnotationValue value(final AnnotationMirror annotation, final String name) {
    for (final Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> entry :
        elements.getElementValuesWithDefaults(annotation).entrySet()) {
      if (entry.getKey().getSimpleName().contentEquals(name)) {
        return entry.getValue();
      }
    }
    throw new IllegalStateException(annotation + " has no member " + name);
  }

  private List<? extends AnnotationValue> values(
      final AnnotationMirror annotation, final String name) {
    for (final Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> entry :
        elements.getElementValuesWithDefaults(annotation).entrySet()) {
      if (entry.getKey().getSimpleName().contentEquals(name)) {
        final Object value = entry.getValue().getValue();
        if (value instanceof List<?>) {
          @SuppressWarnings(
              "unchecked") // javac represents an array member as a List of AnnotationValue
          final List<? extends AnnotationValue> items = (List<? extends AnnotationValue>) value;
          return items;
        }
        // A single unresolved value: treated as an unresolved class by the caller.
        return List.of(entry.getValue());
      }
    }
    return List.of();
  }
}
