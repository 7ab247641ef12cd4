package dev.phalanx.ecs.processor.validation;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.WildcardTypeName;
import dev.phalanx.ecs.processor.base.Names;
import dev.phalanx.ecs.processor.base.ValidationReport;
import dev.phalanx.ecs.processor.model.Access;
import dev.phalanx.ecs.processor.model.ComponentModel;
import dev.phalanx.ecs.processor.model.Construction;
import dev.phalanx.ecs.processor.model.FieldModel;
import dev.phalanx.ecs.processor.model.RelationshipModel;
import dev.phalanx.ecs.processor.model.StorageKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.NestingKind;
import javax.lang.model.element.RecordComponentElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.ExecutableType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.type.WildcardType;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Checks one {@code @Component} class and builds its {@link ComponentModel}.
 *
 * <p>Class-level problems (kind, type parameters, nesting, visibility) stop the validation of that
 * class, since nothing about its fields would make sense; the other checks all run, so that every
 * problem of a class surfaces in one compilation. A field whose type is not resolved yet (it may be
 * generated in a later round) makes the result {@linkplain Result#missingTypes() incomplete}: the
 * processor retries the class in the next round and reports it only if it never resolves.
 */
public final class ComponentValidator {

  /** Qualified name of the {@code @Component} annotation. */
  public static final String COMPONENT = "dev.phalanx.ecs.annotations.Component";

  /** Qualified name of the {@code @Relationship} annotation. */
  public static final String RELATIONSHIP = "dev.phalanx.ecs.annotations.Relationship";

  /** Qualified name of the {@code @EntityRef} annotation. */
  public static final String ENTITY_REF = "dev.phalanx.ecs.annotations.EntityRef";

  private final Elements elements;
  private final Types types;

  /**
   * The outcome of a validation.
   *
   * @param model the model, or {@code null} if the report has errors or types are missing
   * @param report the errors found
   * @param missingTypes whether a type was not resolved (retry in a later round)
   */
  public record Result(ComponentModel model, ValidationReport report, boolean missingTypes) {}

  /** A field before its accesses are checked. */
  private record RawField(String name, Element element, TypeMirror type, VariableElement field) {}

  /**
   * Creates a validator over the compiler's utilities.
   *
   * @param elements the compiler's element utilities
   * @param types the compiler's type utilities
   */
  public ComponentValidator(final Elements elements, final Types types) {
    this.elements = elements;
    this.types = types;
  }

  /**
   * Validates {@code type}, annotated with {@code @Component}.
   *
   * @param type the annotated class
   * @return the model if {@code type} is valid, and the diagnostics found
   */
  public Result validate(final TypeElement type) {
    final ValidationReport report = new ValidationReport();
    if (!checkDeclaration(type, report)) {
      return new Result(null, report, false);
    }
    if (TypeKind.ERROR == type.getSuperclass().getKind()) {
      return new Result(null, report, true);
    }
    final AnnotationMirror annotation = findAnnotation(type, COMPONENT);
    final int pageSize = checkPageSize(type, annotation, report);
    final boolean inPlaceDelete = (Boolean) value(annotation, "inPlaceDelete").getValue();
    final boolean tracked = (Boolean) value(annotation, "tracked").getValue();
    final String empty =
        ((VariableElement) value(annotation, "empty").getValue()).getSimpleName().toString();

    final boolean isRecord = ElementKind.RECORD == type.getKind();
    final List<RawField> raw = isRecord ? recordComponents(type) : instanceFields(type);
    final String packageName = Names.packageOf(type);
    if (fieldTypesMissing(raw, report)) {
      return new Result(null, report, true);
    }
    final StorageKind kind = storageKind(type, annotation, raw, empty, tracked, report);
    if (isRecord && !raw.isEmpty() && declaresCanonicalConstructor(type)) {
      report.warning(Diagnostics.validatingConstructor(type.getQualifiedName().toString()), type);
    }
    final List<FieldModel> fields = new ArrayList<>();
    final Construction construction =
        checkFields(type, raw, kind, isRecord, packageName, fields, report);
    final RelationshipModel relationship = relationship(type, kind, fields, report);
    if (!report.isClean()) {
      return new Result(null, report, false);
    }
    final ComponentModel model =
        new ComponentModel(
            type,
            ClassName.get(type),
            packageName,
            Names.flatName(type),
            pageSize,
            inPlaceDelete,
            kind,
            fields,
            construction,
            isRecord,
            usesDeprecated(type, raw),
            tracked,
            relationship);
    return new Result(model, report, false);
  }

  /**
   * Reads {@code @Relationship} if {@code type} has it, and reports it unless the component is a
   * tag (a pair kind) or keeps its fields in arrays with exactly one {@code @EntityRef} field (an
   * exclusive kind); {@code null} without it.
   */
  private RelationshipModel relationship(
      final TypeElement type,
      final StorageKind kind,
      final List<FieldModel> fields,
      final ValidationReport report) {
    final AnnotationMirror annotation = findAnnotation(type, RELATIONSHIP);
    if (null == annotation) {
      return null;
    }
    final String name = type.getQualifiedName().toString();
    if (StorageKind.INSTANCES == kind) {
      report.error(Diagnostics.relationshipStorage(name), type);
      return null;
    }
    final List<FieldModel> targets = fields.stream().filter(FieldModel::entityRef).toList();
    if (StorageKind.FIELDS == kind && 1 != targets.size()) {
      report.error(
          Diagnostics.relationshipTarget(name, targets.stream().map(FieldModel::name).toList()),
          type);
      return null;
    }
    final String policy =
        ((VariableElement) value(annotation, "onTargetDestroyed").getValue())
            .getSimpleName()
            .toString();
    final boolean acyclic = (Boolean) value(annotation, "acyclic").getValue();
    // A tag declares a pair kind: no target field, any number of targets per source.
    return new RelationshipModel(policy, acyclic, targets.isEmpty() ? null : targets.get(0));
  }

  /** Reads {@code pageSize} and reports it unless it is a power of two within bounds. */
  private int checkPageSize(
      final TypeElement type, final AnnotationMirror annotation, final ValidationReport report) {
    final int pageSize = ((Number) value(annotation, "pageSize").getValue()).intValue();
    if (pageSize <= 0 || pageSize > Diagnostics.MAX_PAGE_SIZE || 0 != (pageSize & (pageSize - 1))) {
      report.error(
          Diagnostics.pageSize(pageSize), type, annotation, explicitValue(annotation, "pageSize"));
    }
    return pageSize;
  }

  /**
   * Checks the {@code @EntityRef} of each field, stopping at the first field whose type is not
   * resolved yet.
   *
   * @return whether a field's type was not resolved (the class is retried in a later round)
   */
  private boolean fieldTypesMissing(final List<RawField> raw, final ValidationReport report) {
    for (final RawField field : raw) {
      if (containsErrorType(field.type())) {
        return true;
      }
      checkEntityRef(field, report);
    }
    return false;
  }

  /**
   * The storage a component gets: fields, kept instances or a tag; reports {@code tracked} on a
   * field-less type and {@code empty = TAG} on a type with fields.
   */
  private static StorageKind storageKind(
      final TypeElement type,
      final AnnotationMirror annotation,
      final List<RawField> raw,
      final String empty,
      final boolean tracked,
      final ValidationReport report) {
    if (raw.isEmpty()) {
      if (tracked) {
        report.error(
            Diagnostics.trackedTag(type.getSimpleName().toString()),
            type,
            annotation,
            explicitValue(annotation, "tracked"));
      }
      return "STORE".equals(empty) ? StorageKind.INSTANCES : StorageKind.TAG;
    }
    if ("TAG".equals(empty)) {
      report.error(
          Diagnostics.tagWithFields(type.getSimpleName().toString(), raw.get(0).name()),
          type,
          annotation,
          explicitValue(annotation, "empty"));
    }
    return StorageKind.FIELDS;
  }

  /**
   * Checks the fields of a component with fields, adding a model of each storable one to {@code
   * fields}, and decides how instances are constructed.
   *
   * @return how the storage builds an instance
   */
  private Construction checkFields(
      final TypeElement type,
      final List<RawField> raw,
      final StorageKind kind,
      final boolean isRecord,
      final String packageName,
      final List<FieldModel> fields,
      final ValidationReport report) {
    if (StorageKind.FIELDS != kind) {
      return !isRecord && null == findConstructor(type, List.of())
          ? Construction.NONE
          : Construction.ALL_FIELDS;
    }
    // Only a field of a storable type gets a model: JavaPoet cannot even name some of the others.
    final List<RawField> storable = new ArrayList<>();
    for (final RawField field : raw) {
      if (checkFieldType(field, packageName, report)) {
        storable.add(field);
      }
    }
    checkNames(type, raw, report);
    final Construction construction =
        isRecord ? Construction.ALL_FIELDS : classConstruction(type, raw, report);
    for (final RawField field : storable) {
      final FieldModel model = fieldModel(type, field, isRecord, construction, packageName, report);
      if (null != model) {
        fields.add(model);
      }
    }
    return construction;
  }

  // -----------------------------------------------------------------------------------------------
  // The class itself.
  // -----------------------------------------------------------------------------------------------

  private boolean checkDeclaration(final TypeElement type, final ValidationReport report) {
    final String name = type.getQualifiedName().toString();
    switch (type.getKind()) {
      case INTERFACE -> {
        report.error(Diagnostics.componentKind("the interface " + name), type);
        return false;
      }
      case ANNOTATION_TYPE -> {
        report.error(Diagnostics.componentKind("the annotation type " + name), type);
        return false;
      }
      case ENUM -> {
        report.error(
            Diagnostics.componentKind("the enum " + name + " (use it as a field type instead)"),
            type);
        return false;
      }
      case CLASS -> {
        if (type.getModifiers().contains(Modifier.ABSTRACT)) {
          report.error(Diagnostics.componentKind("the abstract class " + name), type);
          return false;
        }
      }
      default -> {}
    }
    if (!type.getTypeParameters().isEmpty()) {
      report.error(Diagnostics.generic(name), type);
      return false;
    }
    for (Element current = type;
        current instanceof TypeElement;
        current = current.getEnclosingElement()) {
      final TypeElement level = (TypeElement) current;
      final NestingKind nesting = level.getNestingKind();
      if (NestingKind.LOCAL == nesting || NestingKind.ANONYMOUS == nesting) {
        report.error(Diagnostics.innerClass(name, true), type);
        return false;
      }
      if (NestingKind.MEMBER == nesting
          && ElementKind.CLASS == level.getKind()
          && !level.getModifiers().contains(Modifier.STATIC)) {
        report.error(Diagnostics.innerClass(name, false), type);
        return false;
      }
    }
    for (Element current = type;
        current instanceof TypeElement;
        current = current.getEnclosingElement()) {
      if (current.getModifiers().contains(Modifier.PRIVATE)) {
        final String privateOne =
            current == type ? "it" : "its enclosing class " + current.getSimpleName();
        report.error(Diagnostics.privateClass(name, privateOne), type);
        return false;
      }
    }
    return true;
  }

  /** Returns whether the record declares its canonical constructor (compact or not) in source. */
  private boolean declaresCanonicalConstructor(final TypeElement record) {
    final List<? extends RecordComponentElement> components = record.getRecordComponents();
    for (final ExecutableElement constructor :
        ElementFilter.constructorsIn(record.getEnclosedElements())) {
      if (constructor.getParameters().size() != components.size()
          || Elements.Origin.EXPLICIT != elements.getOrigin(constructor)) {
        continue;
      }
      boolean canonical = true;
      for (int i = 0; i < components.size() && canonical; i++) {
        canonical =
            types.isSameType(
                types.erasure(constructor.getParameters().get(i).asType()),
                types.erasure(components.get(i).asType()));
      }
      if (canonical) {
        return true;
      }
    }
    return false;
  }

  // -----------------------------------------------------------------------------------------------
  // Fields.
  // -----------------------------------------------------------------------------------------------

  private List<RawField> recordComponents(final TypeElement type) {
    final List<RawField> fields = new ArrayList<>();
    final List<VariableElement> privateFields = ElementFilter.fieldsIn(type.getEnclosedElements());
    for (final RecordComponentElement component : type.getRecordComponents()) {
      // Diagnostics go on the component's private field: javac places it at the component's source
      // position, while messages on the component element itself get no position at all.
      VariableElement field = null;
      for (final VariableElement candidate : privateFields) {
        if (candidate.getSimpleName().equals(component.getSimpleName())
            && !candidate.getModifiers().contains(Modifier.STATIC)) {
          field = candidate;
        }
      }
      fields.add(
          new RawField(
              component.getSimpleName().toString(),
              null == field ? component : field,
              component.asType(),
              field));
    }
    return fields;
  }

  private List<RawField> instanceFields(final TypeElement type) {
    final List<TypeElement> chain = new ArrayList<>();
    for (TypeElement current = type; null != current; current = superclass(current)) {
      chain.add(0, current);
    }
    final DeclaredType self = (DeclaredType) type.asType();
    final List<RawField> fields = new ArrayList<>();
    for (final TypeElement level : chain) {
      for (final VariableElement field : ElementFilter.fieldsIn(level.getEnclosedElements())) {
        if (!field.getModifiers().contains(Modifier.STATIC)) {
          // As seen from the component: Base<T>'s T field is a String in Foo extends Base<String>.
          final TypeMirror fieldType = types.asMemberOf(self, field);
          fields.add(new RawField(field.getSimpleName().toString(), field, fieldType, field));
        }
      }
    }
    return fields;
  }

  private TypeElement superclass(final TypeElement type) {
    final TypeMirror parent = type.getSuperclass();
    if (TypeKind.DECLARED != parent.getKind()) {
      return null;
    }
    final TypeElement element = (TypeElement) types.asElement(parent);
    return "java.lang.Object".contentEquals(element.getQualifiedName()) ? null : element;
  }

  private void checkEntityRef(final RawField field, final ValidationReport report) {
    if (isEntityRef(field) && TypeKind.LONG != field.type().getKind()) {
      report.error(
          Diagnostics.entityRefType(field.name(), field.type().toString()), field.element());
    }
  }

  /**
   * Returns whether the field is annotated {@code @EntityRef}; on a record component javac copies
   * the annotation (targeted at fields too) to the private field, the element of the field.
   */
  private boolean isEntityRef(final RawField field) {
    return null != findAnnotation(field.element(), ENTITY_REF);
  }

  /** Reports a field whose type generated code cannot store; returns whether it can. */
  private boolean checkFieldType(
      final RawField field, final String packageName, final ValidationReport report) {
    final String why = unsupported(field.type(), packageName);
    if (null != why) {
      report.error(
          Diagnostics.fieldType(field.name(), field.type().toString(), why), field.element());
      return false;
    }
    return true;
  }

  /** Returns why generated code cannot store {@code type}, or {@code null} if it can. */
  private String unsupported(final TypeMirror type, final String packageName) {
    final TypeKind kind = type.getKind();
    if (kind.isPrimitive()) {
      return null;
    }
    switch (kind) {
      case ARRAY -> {
        final TypeMirror component = ((ArrayType) type).getComponentType();
        if (TypeKind.DECLARED == component.getKind()
            && !((DeclaredType) component).getTypeArguments().isEmpty()) {
          return "Java cannot create arrays of a parameterized type; use a List or a small class"
              + " instead";
        }
        return unsupported(component, packageName);
      }
      case DECLARED -> {
        final DeclaredType declared = (DeclaredType) type;
        final String access = inaccessible((TypeElement) declared.asElement(), packageName);
        if (null != access) {
          return access;
        }
        final TypeMirror enclosing = declared.getEnclosingType();
        if (TypeKind.DECLARED == enclosing.getKind()
            && !((DeclaredType) enclosing).getTypeArguments().isEmpty()) {
          return "an inner class of a parameterized type; make the nested class static";
        }
        for (final TypeMirror argument : declared.getTypeArguments()) {
          final String why = unsupported(argument, packageName);
          if (null != why) {
            return why;
          }
        }
        return null;
      }
      case WILDCARD -> {
        final WildcardType wildcard = (WildcardType) type;
        final TypeMirror bound =
            null != wildcard.getExtendsBound()
                ? wildcard.getExtendsBound()
                : wildcard.getSuperBound();
        return null == bound ? null : unsupported(bound, packageName);
      }
      case TYPEVAR -> {
        return "a type variable; a component's field types must be concrete";
      }
      default -> {
        return "not a storable type (" + kind + ")";
      }
    }
  }

  /** Returns why code in {@code packageName} cannot name {@code type}, or {@code null}. */
  private static String inaccessible(final TypeElement type, final String packageName) {
    for (Element current = type;
        current instanceof TypeElement;
        current = current.getEnclosingElement()) {
      final TypeElement level = (TypeElement) current;
      if (NestingKind.LOCAL == level.getNestingKind()
          || NestingKind.ANONYMOUS == level.getNestingKind()) {
        return level.getSimpleName()
            + " is a local class; move it to the top level or make it a"
            + " static nested class";
      }
      if (level.getModifiers().contains(Modifier.PRIVATE)) {
        return level.getSimpleName() + " is private; make it package-private or public";
      }
      if (!level.getModifiers().contains(Modifier.PUBLIC)
          && !Names.packageOf(level).equals(packageName)) {
        return level.getSimpleName()
            + " is not public and belongs to another package; make it public";
      }
    }
    return null;
  }

  private void checkNames(
      final TypeElement type, final List<RawField> fields, final ValidationReport report) {
    final Map<String, String> storageTaken = new HashMap<>();
    final Map<String, String> cursorTaken = new HashMap<>();
    for (final RawField field : fields) {
      String clash = null;
      for (final String member : Names.storageMembers(field.name())) {
        clash =
            clash(
                member, field.name(), Names.reservedOnStorage(member), storageTaken, "the storage");
        if (null != clash) {
          break;
        }
      }
      if (null == clash) {
        for (final String member : Names.cursorMembers(field.name())) {
          clash =
              clash(
                  member, field.name(), Names.reservedOnCursor(member), cursorTaken, "the cursor");
          if (null != clash) {
            break;
          }
        }
      }
      if (null != clash) {
        report.error(clash, field.element());
      }
    }
    if (1 == fields.size()) {
      final RawField only = fields.get(0);
      final TypeMirror erased = types.erasure(only.type());
      if (types.isSameType(erased, types.erasure(type.asType()))
          || types.isSameType(erased, elements.getTypeElement("java.lang.Object").asType())) {
        report.error(
            Diagnostics.reservedName(
                only.name(),
                "emplace(long, " + only.type() + ") and replace(long, " + only.type() + ")",
                "emplace(long, "
                    + type.getSimpleName()
                    + ") and replace(long, "
                    + type.getSimpleName()
                    + ") inherited from Storage"),
            only.element());
      }
    }
  }

  private static String clash(
      final String member,
      final String field,
      final boolean reserved,
      final Map<String, String> taken,
      final String where) {
    final int slash = member.indexOf('/');
    final String shown =
        "a method '"
            + member.substring(0, slash)
            + "' with "
            + member.substring(slash + 1)
            + " parameter(s) on "
            + where;
    if (reserved) {
      return Diagnostics.reservedName(
          field,
          shown,
          "a member of the same name and parameter count that " + where + " already has");
    }
    final String owner = taken.putIfAbsent(member, field);
    if (null != owner) {
      return Diagnostics.reservedName(
          field, shown, "the accessors generated for field '" + owner + "'");
    }
    return null;
  }

  private Construction classConstruction(
      final TypeElement type, final List<RawField> fields, final ValidationReport report) {
    if (null != findConstructor(type, fields)) {
      return Construction.ALL_FIELDS;
    }
    if (null != findConstructor(type, List.of())) {
      return Construction.NO_ARG;
    }
    final StringBuilder signature = new StringBuilder(type.getSimpleName()).append('(');
    for (int i = 0; i < fields.size(); i++) {
      signature
          .append(i > 0 ? ", " : "")
          .append(fields.get(i).type())
          .append(' ')
          .append(fields.get(i).name());
    }
    report.error(
        Diagnostics.constructor(
            type.getQualifiedName().toString(), signature.append(')').toString()),
        type);
    return Construction.NONE;
  }

  /**
   * Returns a non-private constructor taking exactly {@code fields} (by name and type), or null.
   */
  private ExecutableElement findConstructor(final TypeElement type, final List<RawField> fields) {
    for (final ExecutableElement constructor :
        ElementFilter.constructorsIn(type.getEnclosedElements())) {
      if (constructor.getModifiers().contains(Modifier.PRIVATE)
          || constructor.getParameters().size() != fields.size()) {
        continue;
      }
      boolean matches = true;
      for (int i = 0; i < fields.size() && matches; i++) {
        final VariableElement parameter = constructor.getParameters().get(i);
        matches =
            parameter.getSimpleName().contentEquals(fields.get(i).name())
                && types.isSameType(parameter.asType(), fields.get(i).type());
      }
      if (matches) {
        return constructor;
      }
    }
    return null;
  }

  private FieldModel fieldModel(
      final TypeElement type,
      final RawField field,
      final boolean isRecord,
      final Construction construction,
      final String packageName,
      final ValidationReport report) {
    final Access read;
    final Access write;
    if (isRecord) {
      read = Access.method(field.name());
      write = Access.constructor();
    } else {
      read = readAccess(type, field, packageName);
      if (null == read) {
        final String getters =
            TypeKind.BOOLEAN == field.type().getKind()
                ? "is"
                    + Names.capitalize(field.name())
                    + "() or get"
                    + Names.capitalize(field.name())
                    + "()"
                : "get" + Names.capitalize(field.name()) + "()";
        report.error(
            Diagnostics.privateField(field.name(), type.getSimpleName().toString(), getters),
            field.element());
        // One error per field: whether it can be written matters only once it can be read.
        return null;
      }
      write =
          Construction.ALL_FIELDS == construction
              ? Access.constructor()
              : writeAccess(type, field, packageName);
      if (Construction.NO_ARG == construction && null == write) {
        final String why =
            field.field().getModifiers().contains(Modifier.FINAL)
                ? "is final"
                : field.field().getModifiers().contains(Modifier.PRIVATE)
                    ? "is private"
                    : "is not accessible";
        report.error(
            Diagnostics.unwritableField(
                field.name(), Names.setter(field.name()) + "(" + field.type() + ")", why),
            field.element());
      }
    }
    if (null == read || null == write) {
      return null;
    }
    final TypeName typeName = TypeName.get(field.type());
    return new FieldModel(
        field.name(),
        typeName,
        slotType(field.type(), typeName),
        TypeName.get(types.erasure(field.type())),
        read,
        write,
        isEntityRef(field));
  }

  private static TypeName slotType(final TypeMirror type, final TypeName typeName) {
    if (TypeKind.DECLARED == type.getKind()
        && typeName instanceof ParameterizedTypeName parameterized) {
      final TypeName[] wildcards = new TypeName[parameterized.typeArguments().size()];
      for (int i = 0; i < wildcards.length; i++) {
        wildcards[i] = WildcardTypeName.subtypeOf(Object.class);
      }
      return ParameterizedTypeName.get(parameterized.rawType(), wildcards);
    }
    return typeName;
  }

  private Access readAccess(
      final TypeElement type, final RawField field, final String packageName) {
    if (accessible(field.field(), packageName)) {
      return Access.field(field.name());
    }
    final String capital = Names.capitalize(field.name());
    final List<String> candidates =
        TypeKind.BOOLEAN == field.type().getKind()
            ? List.of("is" + capital, "get" + capital, field.name())
            : List.of("get" + capital, field.name());
    final DeclaredType self = (DeclaredType) type.asType();
    for (final String name : candidates) {
      for (final ExecutableElement method : ElementFilter.methodsIn(elements.getAllMembers(type))) {
        if (method.getSimpleName().contentEquals(name)
            && method.getParameters().isEmpty()
            && !method.getModifiers().contains(Modifier.STATIC)
            && accessible(method, packageName)
            && types.isSameType(
                ((ExecutableType) types.asMemberOf(self, method)).getReturnType(), field.type())) {
          return Access.method(name);
        }
      }
    }
    return null;
  }

  private Access writeAccess(
      final TypeElement type, final RawField field, final String packageName) {
    if (accessible(field.field(), packageName)
        && !field.field().getModifiers().contains(Modifier.FINAL)) {
      return Access.field(field.name());
    }
    final String name = Names.setter(field.name());
    final DeclaredType self = (DeclaredType) type.asType();
    for (final ExecutableElement method : ElementFilter.methodsIn(elements.getAllMembers(type))) {
      if (method.getSimpleName().contentEquals(name)
          && 1 == method.getParameters().size()
          && !method.getModifiers().contains(Modifier.STATIC)
          && accessible(method, packageName)
          && types.isSameType(
              ((ExecutableType) types.asMemberOf(self, method)).getParameterTypes().get(0),
              field.type())) {
        return Access.method(name);
      }
    }
    return null;
  }

  /**
   * Returns whether code in {@code packageName} (not a subclass) may use {@code member} of the
   * component. A public member is accessible even when the class declaring it is not: generated
   * code reaches it through the component, which is.
   */
  private static boolean accessible(final Element member, final String packageName) {
    final Set<Modifier> modifiers = member.getModifiers();
    if (modifiers.contains(Modifier.PRIVATE)) {
      return false;
    }
    if (modifiers.contains(Modifier.PUBLIC)) {
      return true;
    }
    return Names.packageOf(member.getEnclosingElement()).equals(packageName);
  }

  // -----------------------------------------------------------------------------------------------
  // Annotations.
  // -----------------------------------------------------------------------------------------------

  /**
   * Returns whether the generated code will name something deprecated: the component or a class
   * enclosing it, a field's type (or a type argument of it), or an accessor or constructor.
   */
  private boolean usesDeprecated(final TypeElement type, final List<RawField> fields) {
    for (Element current = type;
        current instanceof TypeElement;
        current = current.getEnclosingElement()) {
      if (elements.isDeprecated(current)) {
        return true;
      }
    }
    for (final RawField field : fields) {
      if (deprecatedType(field.type())) {
        return true;
      }
    }
    for (final Element member : type.getEnclosedElements()) {
      if ((ElementKind.METHOD == member.getKind() || ElementKind.CONSTRUCTOR == member.getKind())
          && elements.isDeprecated(member)) {
        return true;
      }
    }
    return false;
  }

  private boolean deprecatedType(final TypeMirror type) {
    switch (type.getKind()) {
      case ARRAY -> {
        return deprecatedType(((ArrayType) type).getComponentType());
      }
      case DECLARED -> {
        for (Element current = types.asElement(type);
            current instanceof TypeElement;
            current = current.getEnclosingElement()) {
          if (elements.isDeprecated(current)) {
            return true;
          }
        }
        for (final TypeMirror argument : ((DeclaredType) type).getTypeArguments()) {
          if (deprecatedType(argument)) {
            return true;
          }
        }
        return false;
      }
      case WILDCARD -> {
        final WildcardType wildcard = (WildcardType) type;
        final TypeMirror bound =
            null != wildcard.getExtendsBound()
                ? wildcard.getExtendsBound()
                : wildcard.getSuperBound();
        return null != bound && deprecatedType(bound);
      }
      default -> {
        return false;
      }
    }
  }

  private static AnnotationMirror findAnnotation(final Element element, final String name) {
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
    throw new IllegalStateException("@Component has no member " + name);
  }

  private static AnnotationValue explicitValue(
      final AnnotationMirror annotation, final String name) {
    for (final Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> entry :
        annotation.getElementValues().entrySet()) {
      if (entry.getKey().getSimpleName().contentEquals(name)) {
        return entry.getValue();
      }
    }
    return null;
  }

  private static boolean containsErrorType(final TypeMirror type) {
    switch (type.getKind()) {
      case ERROR -> {
        return true;
      }
      case ARRAY -> {
        return containsErrorType(((ArrayType) type).getComponentType());
      }
      case DECLARED -> {
        for (final TypeMirror argument : ((DeclaredType) type).getTypeArguments()) {
          if (containsErrorType(argument)) {
            return true;
          }
        }
        return false;
      }
      default -> {
        return false;
      }
    }
  }
}
