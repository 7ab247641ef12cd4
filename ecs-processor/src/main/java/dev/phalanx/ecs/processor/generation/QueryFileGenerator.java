package dev.phalanx.ecs.processor.generation;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import com.palantir.javapoet.WildcardTypeName;
import dev.phalanx.ecs.processor.base.RuntimeContract;
import dev.phalanx.ecs.processor.model.ComponentModel;
import dev.phalanx.ecs.processor.model.QueryModel;
import dev.phalanx.ecs.processor.model.StorageKind;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import java.util.function.LongConsumer;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.Element;
import javax.lang.model.element.Modifier;
import javax.lang.model.util.Elements;

/**
 * The base of the three query generators, one per kind of query ({@link OwningGroupQueryGenerator},
 * {@link NonOwningGroupQueryGenerator}, {@link ViewQueryGenerator}): it writes what every generated
 * query has ({@code of(registry)}, the runtime container, typed storages, {@code contains}, {@code
 * each(Visitor)} and its {@code Visitor}), and asks the subclass for what differs.
 *
 * <p>The iteration loops are generated into the query class rather than delegated to the runtime's
 * {@code each(LongConsumer)}: each query class then has its own loop whose only megamorphic call is
 * the user's visitor, and owned components are reached by position without a lookup.
 */
abstract class QueryFileGenerator extends SourceFileGenerator<QueryModel> {

  /** {@code ComponentType<?, ?>}. */
  static final TypeName ANY_TYPE =
      ParameterizedTypeName.get(
          RuntimeContract.COMPONENT_TYPE,
          WildcardTypeName.subtypeOf(Object.class),
          WildcardTypeName.subtypeOf(Object.class));

  /** Parameter names of the generated interfaces that component names must not take. */
  static final Set<String> RESERVED = Set.of("entity", "from", "to");

  /** The role of a component in the query. */
  enum Role {
    OWNED,
    GET,
    OPTIONAL,
    EXCLUDE
  }

  /**
   * A listed component with the name it goes by in the generated code, and whether the query only
   * reads it ({@code readOnly}, included and optional components only).
   */
  record Slot(ComponentModel model, Role role, String name, boolean readOnly) {
    String storage() {
      return name + "Storage";
    }

    String cursor() {
      return name + "Cursor";
    }

    /**
     * The cursor type a visitor receives: {@code Foo_ReadCursor} for a read-only component, which
     * has no setters, else {@code Foo_Cursor}. The query's fields and locals stay {@code
     * Foo_Cursor}, the final class, so that its loops bind every move directly; the visitor gets
     * the same object, typed as its read-only superclass.
     */
    ClassName cursorType() {
      return readOnly ? model.readCursor() : model.cursor();
    }

    /** Whether every visited entity has the component: owned or get (a view's include). */
    boolean included() {
      return Role.OWNED == role || Role.GET == role;
    }

    /** Whether a visited entity may or may not have the component, looked up per entity. */
    boolean optional() {
      return Role.OPTIONAL == role;
    }

    boolean excluded() {
      return Role.EXCLUDE == role;
    }

    boolean fields() {
      return StorageKind.FIELDS == model.kind();
    }

    /** Whether the query keeps a cursor over the component: included or optional, with fields. */
    boolean hasCursor() {
      return !excluded() && fields();
    }

    /**
     * Whether the visitor receives something for this component: included tags add nothing, an
     * optional tag its presence.
     */
    boolean visited() {
      return optional() || (included() && StorageKind.TAG != model.kind());
    }

    /**
     * The name of the query's method that looks an optional component up: it returns the cursor
     * placed on the entity's component (the instance, for a stored field-less type), or null.
     */
    String lookUp() {
      return name + "OrNull$";
    }
  }

  QueryFileGenerator(final Elements elements) {
    super(elements);
  }

  /** Returns the kind of query this generator writes. */
  abstract QueryModel.Kind kind();

  /** Returns the runtime class the query wraps. */
  abstract ClassName container();

  /** Returns the name of the field (and accessor) holding the runtime container. */
  abstract String containerName();

  /** Returns the expression creating the runtime container from {@code registry}. */
  abstract CodeBlock createContainer(List<Slot> slots);

  /** Returns the first sentence of the class Javadoc. */
  abstract CodeBlock summary(QueryModel model, List<Slot> slots);

  /** Returns the list items of the class Javadoc's Costs section. */
  abstract String costs();

  /**
   * Emits the per-entity loop: position the cursors, skip the entity unless {@code filter} (an
   * expression over the positioned cursors; empty for none) holds, call the visitor.
   */
  abstract void eachLoop(MethodSpec.Builder method, List<Slot> slots, CodeBlock filter);

  /** Adds the kind's own fields, constructor statements and members; nothing by default. */
  void addOwnMembers(
      final TypeSpec.Builder type,
      final MethodSpec.Builder constructor,
      final QueryModel model,
      final List<Slot> slots) {}

  /**
   * Returns the class Javadoc's text after the summary: how to iterate; {@code each} by default.
   */
  CodeBlock usage(final QueryModel model) {
    return CodeBlock.of("\n<p>Create it with {@link #of}, then iterate with {@link #each}.\n");
  }

  @Override
  public final boolean applies(final QueryModel model) {
    return kind() == model.kind();
  }

  @Override
  public final ClassName generatedClass(final QueryModel model) {
    return model.query();
  }

  @Override
  protected final Element originatingElement(final QueryModel model) {
    return model.element();
  }

  @Override
  protected final String packageName(final QueryModel model) {
    return model.packageName();
  }

  @Override
  protected final boolean usesDeprecated(final QueryModel model) {
    return model.usesDeprecated();
  }

  @Override
  protected final TypeSpec.Builder write(final QueryModel model) {
    final List<Slot> slots = slots(model);
    final TypeSpec.Builder type =
        TypeSpec.classBuilder(model.query())
            .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
            .superclass(RuntimeContract.QUERY)
            .addSuperinterface(RuntimeContract.ACCESS_SOURCE)
            .addJavadoc(classDoc(model, slots));
    addFields(type, slots);
    final MethodSpec.Builder constructor = constructor(slots);
    if (QueryModel.Kind.VIEW != model.kind()) {
      addInOrderState(type, constructor, model);
    }
    final TypeSpec.Builder own = TypeSpec.classBuilder("own");
    addOwnMembers(own, constructor, model, slots);
    final TypeSpec members = own.build();
    type.addFields(members.fieldSpecs()).addMethod(constructor.build());
    addAccessors(type, model, slots);
    addEachMethods(type, model, slots);
    addOrderMethods(type, model, slots);
    if (slots.stream().anyMatch(QueryFileGenerator::tracked)) {
      type.addMethod(eachChangedSinceMethod(model, slots));
    }
    for (final Slot slot : slots) {
      if (slot.optional() && StorageKind.TAG != slot.model().kind()) {
        type.addMethod(lookUpMethod(slot));
      }
    }
    type.addMethods(members.methodSpecs())
        .addType(visitorType(model, slots))
        .addTypes(members.typeSpecs());
    return type;
  }

  // -----------------------------------------------------------------------------------------------
  // Parts of the class.
  // -----------------------------------------------------------------------------------------------

  /**
   * Adds the fields every query has: {@code LOOP_COPIES}, the runtime container, whether a loop is
   * running, then a storage per component and a cursor per included component with fields.
   */
  private void addFields(final TypeSpec.Builder type, final List<Slot> slots) {
    type.addField(loopCopiesField());
    type.addField(
        FieldSpec.builder(container(), containerName(), Modifier.PRIVATE, Modifier.FINAL).build());
    // Whether a per-entity loop runs: a nested one on the same query would share its cursors.
    type.addField(TypeName.BOOLEAN, "iterating$", Modifier.PRIVATE);
    for (final Slot slot : slots) {
      type.addField(slot.model().storage(), slot.storage(), Modifier.PRIVATE, Modifier.FINAL);
    }
    for (final Slot slot : slots) {
      if (slot.hasCursor()) {
        type.addField(slot.model().cursor(), slot.cursor(), Modifier.PRIVATE, Modifier.FINAL);
      }
    }
  }

  /**
   * Returns the {@code LOOP_COPIES} field, which picks the copy of the {@code each} loop for a
   * visitor class, with the measurement that justifies the copies.
   */
  private static FieldSpec loopCopiesField() {
    return FieldSpec.builder(
            RuntimeContract.LOOP_COPIES,
            "LOOP_COPIES",
            Modifier.PRIVATE,
            Modifier.STATIC,
            Modifier.FINAL)
        .addJavadoc(
            "Which copy of the {@code each} loop runs each visitor class: one copy per class"
                + " for the first\n"
                + "$L classes, so that each copy's call of the visitor stays monomorphic and is"
                + " inlined. Measured\n"
                + "(benchmark {@code LoopCopiesDecision}: five visitor classes through one"
                + " query of two owned\n"
                + "components, 1M entities): $L ns per entity with the copies, $L ns with a"
                + " single loop,\n"
                + "whose call of the visitor turns megamorphic. The copies cost bytecode only:"
                + " a copy that no\n"
                + "visitor class runs is never compiled.\n",
            LOOP_COPIES,
            COPIES_NS,
            ONE_LOOP_NS)
        .initializer("new $T($L)", RuntimeContract.LOOP_COPIES, LOOP_COPIES)
        .build();
  }

  /**
   * Adds the methods after the constructor that every query has: {@code of}, the container's
   * accessor, {@code size}, {@code contains}, the two signals, the storages' accessors and {@code
   * declareAccess}.
   */
  private void addAccessors(
      final TypeSpec.Builder type, final QueryModel model, final List<Slot> slots) {
    type.addMethod(ofMethod(model))
        .addMethod(containerMethod())
        .addMethod(sizeMethod())
        .addMethod(containsMethod())
        .addMethod(signalMethod("onEnter", "joins"))
        .addMethod(signalMethod("onLeave", "leaves"));
    for (final Slot slot : slots) {
      type.addMethod(storageMethod(slot));
    }
    type.addMethod(declareAccessMethod(model, slots));
  }

  /** Adds {@code each} and the copies of its loop, one per visitor class and a shared one. */
  private void addEachMethods(
      final TypeSpec.Builder type, final QueryModel model, final List<Slot> slots) {
    type.addMethod(eachMethod(model));
    for (int copy = 0; copy <= LOOP_COPIES; copy++) {
      type.addMethod(eachCopy(model, slots, copy));
    }
  }

  /**
   * Adds a group's methods about the members' order: {@code sort}, {@code sortByPosition} (owning
   * groups only), {@code eachInOrder} and its step; a view has none.
   */
  private void addOrderMethods(
      final TypeSpec.Builder type, final QueryModel model, final List<Slot> slots) {
    if (QueryModel.Kind.VIEW != model.kind()) {
      type.addMethod(sortMethod());
    }
    if (QueryModel.Kind.OWNING_GROUP == model.kind()) {
      type.addMethod(sortByPositionMethod());
    }
    if (QueryModel.Kind.VIEW != model.kind()) {
      type.addMethod(eachInOrderMethod(model)).addMethod(visitInOrderMethod(model, slots));
    }
  }

  /** Returns a group's {@code sort}, which sorts the members by entity through the group. */
  private static MethodSpec sortMethod() {
    return MethodSpec.methodBuilder("sort")
        .addJavadoc(
            "Sorts the members by entity through the group (see its {@code sort}): the"
                + " comparator sees\n"
                + "the storages unchanged; if it throws, nothing moves.\n\n"
                + "@param comparator the order of two entities\n")
        .addModifiers(Modifier.PUBLIC)
        .addParameter(RuntimeContract.ENTITY_COMPARATOR, "comparator", Modifier.FINAL)
        .addStatement("group.sort(comparator)")
        .build();
  }

  /**
   * Returns an owning group's {@code sortByPosition}, which sorts the members by comparing
   * positions of the owned storages.
   */
  private static MethodSpec sortByPositionMethod() {
    return MethodSpec.methodBuilder("sortByPosition")
        .addJavadoc(
            "Sorts the members through the group by comparing two positions of the owned"
                + " storages\n"
                + "(aligned, and unchanged while the comparator runs); every owned storage"
                + " follows.\n\n"
                + "@param comparator the order of the elements at two positions\n")
        .addModifiers(Modifier.PUBLIC)
        .addParameter(RuntimeContract.POSITION_COMPARATOR, "comparator", Modifier.FINAL)
        .addStatement("group.sortByPosition(comparator)")
        .build();
  }

  // -----------------------------------------------------------------------------------------------
  // Names.
  // -----------------------------------------------------------------------------------------------

  /**
   * Gives every component a name: its decapitalized simple name, else its flat name, else numbered.
   */
  static List<Slot> slots(final QueryModel model) {
    final List<ComponentModel> all = model.all();
    final List<Slot> slots = new ArrayList<>();
    final Set<String> taken = new HashSet<>();
    for (int i = 0; i < all.size(); i++) {
      final ComponentModel component = all.get(i);
      final Role role = role(model, i);
      String name = safe(decapitalize(component.component().simpleName()));
      if (taken.contains(name)) {
        name = safe(decapitalize(component.flatName()));
      }
      for (int n = 2; taken.contains(name); n++) {
        name = safe(decapitalize(component.flatName()) + n);
      }
      taken.add(name);
      slots.add(
          new Slot(component, role, name, Role.EXCLUDE != role && model.readsOnly(component)));
    }
    return slots;
  }

  /** The role of the {@code i}th of {@link QueryModel#all()}: owned, get, optional, excluded. */
  private static Role role(final QueryModel model, final int i) {
    final int owned = model.owned().size();
    final int included = owned + model.get().size();
    final int optional = included + model.optional().size();
    return i < owned
        ? Role.OWNED
        : i < included ? Role.GET : i < optional ? Role.OPTIONAL : Role.EXCLUDE;
  }

  private static String decapitalize(final String name) {
    return name.substring(0, 1).toLowerCase(Locale.ROOT) + name.substring(1);
  }

  /**
   * Returns {@code name}, with a {@code $} suffix if it is a keyword or a reserved parameter name.
   */
  private static String safe(final String name) {
    return SourceVersion.isKeyword(name) || RESERVED.contains(name) ? name + "$" : name;
  }

  static ClassName visitorType(final QueryModel model) {
    return model.query().nestedClass("Visitor");
  }

  /** Returns the array of the keys of the slots of {@code role}. */
  static CodeBlock types(final List<Slot> slots, final Role role) {
    final List<CodeBlock> keys = new ArrayList<>();
    for (final Slot slot : slots) {
      if (role == slot.role()) {
        keys.add(CodeBlock.of("$T.TYPE", slot.model().traits()));
      }
    }
    return keys.isEmpty()
        ? CodeBlock.of("new $T[0]", ANY_TYPE)
        : CodeBlock.of("new $T[] {$L}", ANY_TYPE, CodeBlock.join(keys, ", "));
  }

  // -----------------------------------------------------------------------------------------------
  // Members.
  // -----------------------------------------------------------------------------------------------

  private MethodSpec.Builder constructor(final List<Slot> slots) {
    final MethodSpec.Builder method =
        MethodSpec.constructorBuilder()
            .addModifiers(Modifier.PRIVATE)
            .addParameter(RuntimeContract.REGISTRY, "registry", Modifier.FINAL)
            .addStatement("this.$L = $L", containerName(), createContainer(slots));
    for (final Slot slot : slots) {
      method.addStatement(
          "this.$L = registry.storage($T.TYPE)", slot.storage(), slot.model().traits());
    }
    for (final Slot slot : slots) {
      if (slot.hasCursor()) {
        method.addStatement("this.$L = $L.cursor()", slot.cursor(), slot.storage());
      }
    }
    return method;
  }

  private MethodSpec ofMethod(final QueryModel model) {
    final boolean view = QueryModel.Kind.VIEW == model.kind();
    final String what =
        view
            ? "the view of {@code registry}"
            : "the group of {@code registry}, creating the group if the\n"
                + "registry has none yet (O(n) to arrange the existing entities)";
    final MethodSpec.Builder method =
        MethodSpec.methodBuilder("of")
            .addJavadoc("Returns a query over $L. The query is cheap: keep one per system\n", what)
            .addJavadoc(
                "and thread; create a second one for a nested loop over the same declaration.\n\n")
            .addJavadoc("@param registry the registry to iterate\n")
            .addJavadoc("@return a new query\n")
            .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
            .addParameter(RuntimeContract.REGISTRY, "registry", Modifier.FINAL)
            .returns(model.query());
    if (!view) {
      method.addJavadoc(
          "@throws IllegalStateException if the group conflicts with an existing group of the"
              + " registry\n");
    }
    return method.addStatement("return new $T(registry)", model.query()).build();
  }

  private MethodSpec containerMethod() {
    return MethodSpec.methodBuilder(containerName())
        .addJavadoc(
            "Returns the runtime $L this query iterates.\n\n@return the $L\n",
            containerName(),
            containerName())
        .addModifiers(Modifier.PUBLIC)
        .returns(container())
        .addStatement("return $L", containerName())
        .build();
  }

  /**
   * Returns the size method: {@code size()} of a group; a view overrides it with {@code
   * sizeHint()}.
   */
  MethodSpec sizeMethod() {
    return MethodSpec.methodBuilder("size")
        .addJavadoc(
            "Returns the number of members of the group.\n\n@return the number of members\n")
        .addModifiers(Modifier.PUBLIC)
        .returns(TypeName.INT)
        .addStatement("return group.size()")
        .build();
  }

  private MethodSpec containsMethod() {
    return MethodSpec.methodBuilder("contains")
        .addJavadoc(
            """
            Returns whether {@code entity} is visited by this query.

            @param entity the entity
            @return whether it has every included component and no excluded one
            """)
        .addModifiers(Modifier.PUBLIC)
        .addParameter(TypeName.LONG, "entity", Modifier.FINAL)
        .returns(TypeName.BOOLEAN)
        .addStatement("return $L.contains(entity)", containerName())
        .build();
  }

  private MethodSpec signalMethod(final String name, final String what) {
    return MethodSpec.methodBuilder(name)
        .addJavadoc(
            "Returns the signal published when an entity $L this query's entities, once the"
                + " change\n"
                + "that made it so is complete; listeners follow the runtime's signal rules.\n\n"
                + "@return the {@code $L} signal of the underlying $L\n",
            what,
            name,
            containerName())
        .addModifiers(Modifier.PUBLIC)
        .returns(RuntimeContract.SIGNAL)
        .addStatement("return $L.$L()", containerName(), name)
        .build();
  }

  /**
   * {@code declareAccess(access)}: every listed storage iterated; included and optional components
   * written, or read if listed in {@code readOnly}.
   */
  private static MethodSpec declareAccessMethod(final QueryModel model, final List<Slot> slots) {
    final MethodSpec.Builder method =
        MethodSpec.methodBuilder("declareAccess")
            .addAnnotation(Override.class)
            .addJavadoc(
                "Declares what this query touches, for a system that uses it (see {@code"
                    + " dev.phalanx.ecs.schedule}):\n"
                    + "it iterates every listed storage, writes the included$L components and"
                    + " reads those listed in\n"
                    + "{@code readOnly}.\n\n"
                    + "@param access the builder of a system's access\n",
                model.optional().isEmpty() ? "" : " and optional")
            .addModifiers(Modifier.PUBLIC)
            .addParameter(RuntimeContract.ACCESS_BUILDER, "access", Modifier.FINAL);
    for (final Slot slot : slots) {
      final String how =
          slot.excluded() ? null : model.readsOnly(slot.model()) ? "reads" : "writes";
      if (null == how) {
        method.addStatement("access.iterates($T.TYPE)", slot.model().traits());
      } else {
        method.addStatement(
            "access.iterates($T.TYPE).$L($T.TYPE)",
            slot.model().traits(),
            how,
            slot.model().traits());
      }
    }
    return method.build();
  }

  private static MethodSpec storageMethod(final Slot slot) {
    return MethodSpec.methodBuilder(slot.storage())
        .addJavadoc(
            "Returns the storage of {@link $T}.\n\n@return the registry's storage\n",
            slot.model().component())
        .addModifiers(Modifier.PUBLIC)
        .returns(slot.model().storage())
        .addStatement("return $L", slot.storage())
        .build();
  }

  // -----------------------------------------------------------------------------------------------
  // Per-entity iteration.
  // -----------------------------------------------------------------------------------------------

  private MethodSpec eachMethod(final QueryModel model) {
    final MethodSpec.Builder method =
        MethodSpec.methodBuilder("each")
            .addJavadoc(eachDoc(model))
            .addModifiers(Modifier.PUBLIC)
            .addParameter(visitorType(model), "visitor", Modifier.FINAL);
    enterExclusively(method, model);
    method
        .addComment(
            "One copy of the loop per visitor class (see LOOP_COPIES); the copies are"
                + " identical.")
        .beginControlFlow("switch (LOOP_COPIES.copyOf(visitor))");
    for (int copy = 0; copy < LOOP_COPIES; copy++) {
      method.addCode("case $L:\n", copy).addStatement("$>$L(visitor)", copyName(copy));
      method.addStatement("break$<");
    }
    method
        .addCode("default:\n")
        .addStatement("$>$L(visitor)$<", copyName(LOOP_COPIES))
        .endControlFlow();
    leaveExclusively(method);
    return method.build();
  }

  /** The number of copies of the {@code each} loop that run one visitor class each. */
  static final int LOOP_COPIES = 8;

  /**
   * What {@code LoopCopiesDecision} (benchmarks) measured for five visitor classes through one
   * query, in ns per entity, with the copies and with one loop: the reason the copies are there.
   * The generated Javadoc of {@code LOOP_COPIES} quotes both; docs/generated-code.md too.
   */
  private static final String COPIES_NS = "1.1";

  private static final String ONE_LOOP_NS = "10";

  private static String copyName(final int copy) {
    return LOOP_COPIES == copy ? "eachShared" : "each" + copy;
  }

  private MethodSpec eachCopy(final QueryModel model, final List<Slot> slots, final int copy) {
    final MethodSpec.Builder method =
        MethodSpec.methodBuilder(copyName(copy))
            .addModifiers(Modifier.PRIVATE)
            .addParameter(visitorType(model), "visitor", Modifier.FINAL);
    if (0 == copy) {
      method.addJavadoc(
          "The loop of {@link #each}, in $L identical copies ({@code each0} to {@code each$L},"
              + " then\n"
              + "{@code eachShared} for the visitor classes past them): the JIT profiles the call"
              + " of the visitor\n"
              + "per method, so a copy that sees one class inlines it (see {@code LOOP_COPIES}"
              + " for what that\n"
              + "measured). Only {@link #each} calls them, having refused a nested call.\n\n"
              + "@param visitor the loop body\n",
          LOOP_COPIES + 1,
          LOOP_COPIES - 1);
    } else {
      method.addJavadoc(
          "A copy of {@link #each0}$L.\n\n@param visitor the loop body\n",
          LOOP_COPIES == copy ? ", shared by the visitor classes past the other copies" : "");
    }
    for (final Slot slot : slots) {
      if (slot.included() && slot.fields()) {
        method.addStatement(
            "final $T $L = this.$L", slot.model().cursor(), slot.cursor(), slot.cursor());
      }
    }
    eachLoop(method, slots, CodeBlock.of(""));
    return method.build();
  }

  /**
   * Emits the per-entity loop, refusing a nested call on the same query object: the cursors are
   * fields of the query, so an inner loop would move the outer loop's cursors.
   */
  private void exclusiveLoop(
      final MethodSpec.Builder method,
      final QueryModel model,
      final List<Slot> slots,
      final CodeBlock filter) {
    enterExclusively(method, model);
    eachLoop(method, slots, filter);
    leaveExclusively(method);
  }

  /**
   * Opens what {@link #leaveExclusively} closes: refuses a nested per-entity loop on the same query
   * object (its cursors are fields of the query, so an inner loop would move the outer loop's),
   * marks the query as iterating and opens a {@code try}.
   */
  private static void enterExclusively(final MethodSpec.Builder method, final QueryModel model) {
    final String name = model.query().simpleName();
    method
        .beginControlFlow("if (this.iterating$$)")
        .addStatement(
            "throw new $T($S)",
            IllegalStateException.class,
            name
                + " is already iterating: every per-entity loop of one query object shares its"
                + " cursors; for a nested loop over the same entities, make a second query with "
                + name
                + ".of(registry)")
        .endControlFlow()
        .addStatement("this.iterating$$ = true")
        .beginControlFlow("try");
  }

  /** Closes the {@code try} of {@link #enterExclusively}: the query is iterating no more. */
  private static void leaveExclusively(final MethodSpec.Builder method) {
    method.nextControlFlow("finally").addStatement("this.iterating$$ = false").endControlFlow();
  }

  /**
   * Adds what {@code eachInOrder} keeps between the group's walk and the visitor: the visitor of
   * the walk in progress, and the entity step handed to the group, made once in the constructor.
   */
  private static void addInOrderState(
      final TypeSpec.Builder type, final MethodSpec.Builder constructor, final QueryModel model) {
    type.addField(
        FieldSpec.builder(visitorType(model), "inOrder$", Modifier.PRIVATE)
            .addJavadoc("The visitor of the {@code eachInOrder} walk in progress, or null.\n")
            .build());
    type.addField(
        FieldSpec.builder(LongConsumer.class, "inOrderStep$", Modifier.PRIVATE, Modifier.FINAL)
            .addJavadoc(
                "The step {@code eachInOrder} hands the group: made once, so a walk allocates"
                    + " nothing.\n")
            .build());
    constructor.addStatement("this.inOrderStep$$ = this::visitInOrder");
  }

  private MethodSpec eachInOrderMethod(final QueryModel model) {
    final MethodSpec.Builder method =
        MethodSpec.methodBuilder("eachInOrder")
            .addJavadoc(
                "Calls {@code visitor} for each member, position 0 first: after a sort, in the"
                    + " sort's order\n"
                    + "(smallest key first), the reverse of {@link #each}. The group's {@code"
                    + " eachInOrder} walks the\n"
                    + "members with its storages locked: the visitor may read and write"
                    + " components, but every\n"
                    + "structural change to them is refused with {@link"
                    + " java.util.ConcurrentModificationException}\n"
                    + "before it changes anything (record such changes in a command buffer). Each"
                    + " cursor is moved\n"
                    + "to its entity by one lookup; nothing is allocated. Not reentrant on one"
                    + " query object, as\n"
                    + "{@link #each}.\n\n"
                    + "@param visitor the loop body\n")
            .addModifiers(Modifier.PUBLIC)
            .addParameter(visitorType(model), "visitor", Modifier.FINAL);
    enterExclusively(method, model);
    method
        .addStatement("this.inOrder$$ = visitor")
        .addStatement("$L.eachInOrder(this.inOrderStep$$)", containerName())
        .nextControlFlow("finally")
        .addStatement("this.inOrder$$ = null")
        .addStatement("this.iterating$$ = false")
        .endControlFlow();
    return method.build();
  }

  private static MethodSpec visitInOrderMethod(final QueryModel model, final List<Slot> slots) {
    final MethodSpec.Builder method =
        MethodSpec.methodBuilder("visitInOrder")
            .addJavadoc(
                "One step of {@link #eachInOrder}: positions the cursors on {@code entity} and"
                    + " visits it.\n\n"
                    + "@param entity a member\n")
            .addModifiers(Modifier.PRIVATE)
            .addParameter(TypeName.LONG, "entity", Modifier.FINAL)
            .addStatement("final $T visitor = this.inOrder$$", visitorType(model));
    for (final Slot slot : slots) {
      if (slot.included() && slot.fields()) {
        method.addStatement(
            "final $T $L = this.$L", slot.model().cursor(), slot.cursor(), slot.cursor());
        method.addStatement("$L.moveToEntity(entity)", slot.cursor());
      }
    }
    return method.addStatement("$L", visitCall(slots, CodeBlock.of("-1"))).build();
  }

  /** Whether a slot reads a tracked component (included, with fields). */
  static boolean tracked(final Slot slot) {
    return slot.included() && slot.fields() && slot.model().tracked();
  }

  private MethodSpec eachChangedSinceMethod(final QueryModel model, final List<Slot> slots) {
    final List<String> tracked =
        slots.stream()
            .filter(QueryFileGenerator::tracked)
            .map(slot -> slot.model().component().simpleName())
            .toList();
    final MethodSpec.Builder method =
        MethodSpec.methodBuilder("eachChangedSince")
            .addJavadoc(
                "As {@link #each}, visiting only the entities $L after {@code tick}: pair it with"
                    + " {@code\n"
                    + "registry.advanceChangeTick()}.\n",
                1 == tracked.size()
                    ? "whose tracked component (" + tracked.get(0) + ") was added or written"
                    : "of which any tracked component ("
                        + String.join(", ", tracked)
                        + "), not\nnecessarily all, was added or written")
            .addJavadoc(
                slots.stream().anyMatch(Slot::optional)
                    ? "\n<p>Optional components never make an entity visited (so that optional"
                        + " terms do not change\n"
                        + "which entities are): a visitor that cares asks an optional cursor's"
                        + " {@code changedSince}.\n"
                    : "")
            .addJavadoc(
                "\n@param tick the change tick already seen\n@param visitor the loop body\n")
            .addModifiers(Modifier.PUBLIC)
            .addParameter(TypeName.LONG, "tick", Modifier.FINAL)
            .addParameter(visitorType(model), "visitor", Modifier.FINAL);
    final List<CodeBlock> tests = new ArrayList<>();
    for (final Slot slot : slots) {
      if (slot.included() && slot.fields()) {
        method.addStatement(
            "final $T $L = this.$L", slot.model().cursor(), slot.cursor(), slot.cursor());
      }
      if (tracked(slot)) {
        tests.add(CodeBlock.of("$L.changedSince(tick)", slot.cursor()));
      }
    }
    exclusiveLoop(method, model, slots, CodeBlock.join(tests, " || "));
    return method.build();
  }

  private static CodeBlock eachDoc(final QueryModel model) {
    final String what = QueryModel.Kind.VIEW == model.kind() ? "view" : "group";
    final CodeBlock.Builder doc =
        CodeBlock.builder()
            .add(
                "Calls {@code visitor} for each entity of the $L, last position first, with its"
                    + " cursors\n",
                what)
            .add(
                "positioned on the entity's components. The cursors are fields of this query, moved"
                    + " for each\n")
            .add(
                "entity: nothing is allocated. Not reentrant on one query object: a nested call"
                    + " throws\n")
            .add(
                "{@link IllegalStateException} (make a second query object for a nested"
                    + " loop).\n\n");
    if (QueryModel.Kind.OWNING_GROUP == model.kind()) {
      doc.add(
              "<p>Owned components are reached by position, since the owned storages are aligned;"
                  + " get\n")
          .add("components by one lookup each.\n\n");
    }
    return doc.add("@param visitor the loop body\n")
        .add(
            "@throws java.util.ConcurrentModificationException if the visitor made other entities"
                + " leave the\n")
        .add("    $L or rearranged the storage being walked\n", what)
        .build();
  }

  /**
   * Returns the call of the visitor; {@code position} is the visited entity's position in the
   * loop's lead storage ({@code -1} where the loop has none), where an optional component is looked
   * for before its sparse lookup.
   */
  static CodeBlock visitCall(final List<Slot> slots, final CodeBlock position) {
    return visitCall(slots, slot -> CodeBlock.of("$L(entity, $L)", slot.lookUp(), position));
  }

  /**
   * Returns the call of the visitor, {@code found} giving the argument of each optional component
   * that is not a tag (a cursor or {@code null}, the instance or {@code null}).
   */
  static CodeBlock visitCall(final List<Slot> slots, final Function<Slot, CodeBlock> found) {
    final List<CodeBlock> arguments = new ArrayList<>();
    arguments.add(CodeBlock.of("entity"));
    for (final Slot slot : slots) {
      if (!slot.visited()) {
        continue;
      }
      if (slot.optional()) {
        arguments.add(
            StorageKind.TAG == slot.model().kind()
                ? CodeBlock.of("$L.contains(entity)", slot.storage())
                : found.apply(slot));
      } else {
        arguments.add(
            slot.fields()
                ? CodeBlock.of("$L", slot.cursor())
                : CodeBlock.of("$L.get(entity)", slot.storage()));
      }
    }
    return CodeBlock.of("visitor.visit($L)", CodeBlock.join(arguments, ", "));
  }

  /**
   * The type the visitor receives for {@code slot}: a cursor for a component with fields, the
   * instance for a stored field-less type, an optional tag's presence.
   */
  private static TypeName parameterType(final Slot slot) {
    if (slot.fields()) {
      return slot.cursorType();
    }
    return slot.optional() && StorageKind.TAG == slot.model().kind()
        ? TypeName.BOOLEAN
        : slot.model().component();
  }

  /** The {@code @param} line of the visitor's parameter for {@code slot}. */
  private static CodeBlock parameterDoc(final Slot slot) {
    if (slot.optional() && StorageKind.TAG == slot.model().kind()) {
      return CodeBlock.of(
          "@param $L whether the entity has a {@link $T} (optional)\n",
          slot.name(),
          slot.model().component());
    }
    return CodeBlock.of(
        "@param $L $L {@link $T}$L$L\n",
        slot.name(),
        !slot.fields()
            ? "its"
            : slot.readOnly() ? "a read-only cursor over its" : "a cursor over its",
        slot.model().component(),
        slot.fields() && slot.readOnly() ? " (listed in {@code readOnly}: no setters)" : "",
        slot.optional() ? ", or {@code null} if it has none (optional)" : "");
  }

  /**
   * Returns the method that looks an optional component with a payload up for the visitor: its
   * storage at the lead's position when it holds the entity there (storages filled in the same
   * order), else one sparse lookup; then the query's cursor placed on the element (or the stored
   * instance), or null.
   */
  private static MethodSpec lookUpMethod(final Slot slot) {
    final MethodSpec.Builder method =
        MethodSpec.methodBuilder(slot.lookUp())
            .addModifiers(Modifier.PRIVATE)
            .addParameter(TypeName.LONG, "entity", Modifier.FINAL)
            .addParameter(TypeName.INT, "position", Modifier.FINAL)
            .addStatement(
                "final int index = $T.holdsAt($L, position, entity) ? position :"
                    + " $L.indexOf(entity)",
                RuntimeContract.QUERY,
                slot.storage(),
                slot.storage());
    if (slot.fields()) {
      return method
          .addJavadoc(
              "Places the cursor over {@link $T} on {@code entity}'s component: found at\n"
                  + "{@code position} when the storage holds the entity there, else by one sparse"
                  + " lookup; no\n"
                  + "allocation.\n\n"
                  + "@param entity a visited entity\n"
                  + "@param position the entity's position in the loop's lead storage, or -1\n"
                  + "@return the cursor, or {@code null} if the entity has no {@link $T}\n",
              slot.model().component(),
              slot.model().component())
          .returns(slot.model().cursor())
          .addStatement("return index < 0 ? null : $L.moveTo(index)", slot.cursor())
          .build();
    }
    return method
        .addJavadoc(
            """
            Returns {@code entity}'s {@link $T}: found at {@code position} when the storage
            holds the entity there, else by one sparse lookup; no allocation.

            @param entity a visited entity
            @param position the entity's position in the loop's lead storage, or -1
            @return the stored instance, or {@code null} if the entity has none
            """,
            slot.model().component())
        .returns(slot.model().component())
        .addStatement("return index < 0 ? null : $L.valueAt(index)", slot.storage())
        .build();
  }

  private static TypeSpec visitorType(final QueryModel model, final List<Slot> slots) {
    final MethodSpec.Builder visit =
        MethodSpec.methodBuilder("visit")
            .addJavadoc(
                "Visits one entity; the cursors are positioned on its components and are reused for"
                    + " the next\n"
                    + "entity, so do not keep them.\n\n")
            .addModifiers(Modifier.PUBLIC, Modifier.ABSTRACT)
            .addParameter(TypeName.LONG, "entity")
            .addJavadoc("@param entity the entity\n");
    for (final Slot slot : slots) {
      if (slot.visited()) {
        visit.addParameter(parameterType(slot), slot.name()).addJavadoc(parameterDoc(slot));
      }
    }
    final List<String> readOnly =
        slots.stream()
            .filter(slot -> slot.visited() && slot.fields() && slot.readOnly())
            .map(slot -> "{@code " + slot.model().readCursor().simpleName() + "}")
            .toList();
    return TypeSpec.interfaceBuilder("Visitor")
        .addJavadoc(
            "The body of {@link $T#each}: one call per entity, with a typed cursor per included"
                + " component\n"
                + "that has fields (tags add no parameter).\n",
            model.query())
        .addJavadoc(
            readOnly.isEmpty()
                ? CodeBlock.of("")
                : CodeBlock.of(
                    "\n<p>The components listed in {@code readOnly} come as read-only cursors"
                        + " ($L): they have\n"
                        + "no setters, so a write through them does not compile. A cast back to the"
                        + " writable cursor is a\n"
                        + "deliberate escape that the schedule does not police.\n",
                    String.join(", ", readOnly)))
        .addJavadoc(optionalDoc(model, slots))
        .addModifiers(Modifier.PUBLIC)
        .addAnnotation(FunctionalInterface.class)
        .addMethod(visit.build())
        .build();
  }

  // -----------------------------------------------------------------------------------------------
  // Javadoc.
  // -----------------------------------------------------------------------------------------------

  /**
   * The paragraph on optional terms, for the class and the visitor; empty for a query without any.
   */
  static CodeBlock optionalDoc(final QueryModel model, final List<Slot> slots) {
    if (slots.stream().noneMatch(Slot::optional)) {
      return CodeBlock.of("");
    }
    final String lookedUp =
        "looked up per visited entity: at the lead's position when its storage holds the entity"
            + " there,\n"
            + "else by one sparse lookup.\n";
    return CodeBlock.of(
        "\n<p>Optional terms, which a visited entity may or may not have:\n$L.\n"
            + "They do not change which entities are visited, and allocate nothing. $L"
            + "Each comes after the included components: a cursor, or {@code null} when the"
            + " entity has\n"
            + "none (a tag as a {@code boolean}, whether the entity has it).\n",
        list(slots, Role.OPTIONAL),
        QueryModel.Kind.OWNING_GROUP == model.kind()
            ? "Each is\n" + lookedUp
            : "A cursor walks\n"
                + "each page run of the lead with the included ones, with no lookup, where its"
                + " storage holds the\n"
                + "run's entities at the lead's positions (storages filled in the same order do);"
                + " elsewhere, and\n"
                + "for tags and field-less types, each is\n"
                + lookedUp);
  }

  private CodeBlock classDoc(final QueryModel model, final List<Slot> slots) {
    final boolean view = QueryModel.Kind.VIEW == model.kind();
    return CodeBlock.builder()
        .add(summary(model, slots))
        .add(optionalDoc(model, slots))
        .add(usage(model))
        .add("\n<h2>Costs</h2>\n\n<ul>\n")
        .add(costs())
        .add("</ul>\n\n<h2>Threading</h2>\n\n")
        .add(
            "<p>A query object is not thread-safe: its cursors are shared by all calls of {@code"
                + " each}, so use\n")
        .add(
            "one query per thread, and a second query (another {@link #of}) for a nested loop over"
                + " the same\n")
        .add(
            "declaration.$L\n",
            QueryModel.Kind.OWNING_GROUP == model.kind()
                    && OwningGroupQueryGenerator.hasChunk(slots)
                ? " {@link #parallelEachChunk(java.util.concurrent.ForkJoinPool, Chunk)} documents"
                    + " its own contract."
                : "")
        .add("\n<h2>What may change during an iteration</h2>\n\n")
        .add(
            "<p>As for the runtime {@code each}: the visited entity may lose components or be"
                + " destroyed;\n")
        .add(
            "other entities may not leave the $L meanwhile (detected, {@link"
                + " java.util.ConcurrentModificationException}).\n",
            view ? "view's leading storage" : "group")
        .add(
            QueryModel.Kind.OWNING_GROUP == model.kind()
                ? "The chunk forms lock the storages: no structural change at all.\n"
                : "")
        .build();
  }

  /** Returns the components of {@code role} as Javadoc links, {@code none} if there are none. */
  static String list(final List<Slot> slots, final Role role) {
    final List<String> names = new ArrayList<>();
    for (final Slot slot : slots) {
      if (role == slot.role()) {
        names.add("{@link " + slot.model().component().canonicalName() + "}");
      }
    }
    return names.isEmpty() ? "none" : String.join(", ", names);
  }
}
