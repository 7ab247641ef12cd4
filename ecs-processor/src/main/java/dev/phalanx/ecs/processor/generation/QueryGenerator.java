package dev.phalanx.ecs.processor.generation;

import com.palantir.javapoet.AnnotationSpec;
import com.palantir.javapoet.ArrayTypeName;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.JavaFile;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import com.palantir.javapoet.WildcardTypeName;
import dev.phalanx.ecs.processor.model.ComponentModel;
import dev.phalanx.ecs.processor.model.FieldModel;
import dev.phalanx.ecs.processor.model.QueryModel;
import dev.phalanx.ecs.processor.model.StorageKind;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import javax.annotation.processing.Filer;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.Modifier;
import javax.lang.model.util.Elements;

/**
 * Generates the typed query class of a {@code @GroupQuery} or {@code @ViewQuery} declaration:
 * {@code MoversQuery} for {@code Movers}. See {@code GroupQuery} for the generated API.
 *
 * <p>The iteration loops are generated into the query class rather than delegated to the runtime's
 * {@code each(LongConsumer)}: each query class then has its own loop whose only megamorphic call is
 * the user's visitor, and owned components are reached by position without a lookup.
 */
public final class QueryGenerator {

  /** The processor named in {@code @Generated}. */
  public static final String PROCESSOR = "dev.phalanx.ecs.processor.PhalanxQueryProcessor";

  private static final String GENERATED = "javax.annotation.processing.Generated";
  private static final ClassName REGISTRY = ClassName.get(Code.RUNTIME, "Registry");
  private static final ClassName VIEW = ClassName.get(Code.RUNTIME, "View");
  private static final ClassName OWNING_GROUP = ClassName.get(Code.RUNTIME, "OwningGroup");
  private static final ClassName NON_OWNING_GROUP = ClassName.get(Code.RUNTIME, "NonOwningGroup");
  private static final ClassName RANGE_CONSUMER = ClassName.get(Code.RUNTIME, "RangeConsumer");
  private static final ClassName SPARSE_SET = ClassName.get(Code.RUNTIME, "SparseSet");
  private static final ClassName ENTITY = ClassName.get(Code.RUNTIME, "Entity");
  private static final ClassName FORK_JOIN_POOL = ClassName.get("java.util.concurrent", "ForkJoinPool");
  private static final ClassName FUNCTIONAL = ClassName.get(FunctionalInterface.class);
  private static final TypeName ANY_TYPE = ParameterizedTypeName.get(
      Code.COMPONENT_TYPE, WildcardTypeName.subtypeOf(Object.class), WildcardTypeName.subtypeOf(Object.class));

  /** Parameter names of the generated interfaces that component names must not take. */
  private static final Set<String> RESERVED = Set.of("entity", "from", "to");

  private final ClassName generated;

  /** The role of a component in the query. */
  private enum Role {
    OWNED,
    GET,
    EXCLUDE
  }

  /** A listed component with the name it goes by in the generated code. */
  private record Slot(ComponentModel model, Role role, String name) {
    String storage() {
      return name + "Storage";
    }

    String cursor() {
      return name + "Cursor";
    }

    boolean included() {
      return Role.EXCLUDE != role;
    }

    boolean fields() {
      return StorageKind.FIELDS == model.kind();
    }

    /** Whether the visitor receives something for this component (tags add nothing). */
    boolean visited() {
      return included() && StorageKind.TAG != model.kind();
    }
  }

  /**
   * Creates a generator.
   *
   * @param elements used to find out whether {@code javax.annotation.processing.Generated} exists
   */
  public QueryGenerator(final Elements elements) {
    this.generated = null != elements.getTypeElement(GENERATED) ? ClassName.bestGuess(GENERATED) : null;
  }

  /** Builds the file for {@code model}, without writing it. */
  public JavaFile file(final QueryModel model) {
    final TypeSpec.Builder type = write(model).addOriginatingElement(model.element());
    if (null != generated) {
      type.addAnnotation(AnnotationSpec.builder(generated).addMember("value", "$S", PROCESSOR).build());
    }
    return JavaFile.builder(model.packageName(), type.build()).skipJavaLangImports(true).indent("  ").build();
  }

  /** Writes the file for {@code model} through {@code filer}. */
  public void generate(final QueryModel model, final Filer filer) throws IOException {
    file(model).writeTo(filer);
  }

  private TypeSpec.Builder write(final QueryModel model) {
    final List<Slot> slots = slots(model);
    final boolean owning = QueryModel.Kind.OWNING_GROUP == model.kind();
    final TypeSpec.Builder type = TypeSpec.classBuilder(model.query())
        .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
        .addJavadoc(classDoc(model, slots));
    type.addField(FieldSpec.builder(container(model), containerName(model), Modifier.PRIVATE, Modifier.FINAL).build());
    for (final Slot slot : slots) {
      type.addField(slot.model().storage(), slot.storage(), Modifier.PRIVATE, Modifier.FINAL);
    }
    for (final Slot slot : slots) {
      if (slot.included() && slot.fields()) {
        type.addField(slot.model().cursor(), slot.cursor(), Modifier.PRIVATE, Modifier.FINAL);
      }
    }
    if (owning) {
      type.addField(TypeName.INT, "pageShift", Modifier.PRIVATE, Modifier.FINAL)
          .addField(TypeName.INT, "pageMask", Modifier.PRIVATE, Modifier.FINAL)
          .addField(RANGE_CONSUMER, "currentRun", Modifier.PRIVATE, Modifier.FINAL)
          .addField(chunkType(model), "current", Modifier.PRIVATE);
    }
    type.addMethod(constructor(model, slots))
        .addMethod(ofMethod(model))
        .addMethod(containerMethod(model))
        .addMethod(sizeMethod(model))
        .addMethod(containsMethod(model));
    for (final Slot slot : slots) {
      type.addMethod(storageMethod(slot));
    }
    type.addMethod(eachMethod(model, slots));
    if (owning) {
      type.addMethod(eachChunkMethod(model))
          .addMethod(parallelEachChunkMethod(model))
          .addMethod(parallelEachChunkPoolMethod(model))
          .addMethod(runCurrentMethod())
          .addMethod(visitRunMethod(model, slots));
    }
    type.addType(visitorType(model, slots));
    if (owning) {
      type.addType(chunkInterface(model, slots));
    }
    return type;
  }

  // -----------------------------------------------------------------------------------------------
  // Names.
  // -----------------------------------------------------------------------------------------------

  /** Gives every component a name: its decapitalized simple name, else its flat name, else numbered. */
  private static List<Slot> slots(final QueryModel model) {
    final List<ComponentModel> all = model.all();
    final List<Slot> slots = new ArrayList<>();
    final Set<String> taken = new HashSet<>();
    for (int i = 0; i < all.size(); i++) {
      final ComponentModel component = all.get(i);
      final Role role = i < model.owned().size() ? Role.OWNED
          : i < model.included().size() ? Role.GET : Role.EXCLUDE;
      String name = safe(decapitalize(component.component().simpleName()));
      if (taken.contains(name)) {
        name = safe(decapitalize(component.flatName()));
      }
      for (int n = 2; taken.contains(name); n++) {
        name = safe(decapitalize(component.flatName()) + n);
      }
      taken.add(name);
      slots.add(new Slot(component, role, name));
    }
    return slots;
  }

  private static String decapitalize(final String name) {
    return name.substring(0, 1).toLowerCase(Locale.ROOT) + name.substring(1);
  }

  /** Returns {@code name}, with a {@code $} suffix if it is a keyword or a reserved parameter name. */
  private static String safe(final String name) {
    return SourceVersion.isKeyword(name) || RESERVED.contains(name) ? name + "$" : name;
  }

  private static ClassName visitorType(final QueryModel model) {
    return model.query().nestedClass("Visitor");
  }

  private static ClassName chunkType(final QueryModel model) {
    return model.query().nestedClass("Chunk");
  }

  private static ClassName container(final QueryModel model) {
    switch (model.kind()) {
      case OWNING_GROUP:
        return OWNING_GROUP;
      case NON_OWNING_GROUP:
        return NON_OWNING_GROUP;
      default:
        return VIEW;
    }
  }

  private static String containerName(final QueryModel model) {
    return QueryModel.Kind.VIEW == model.kind() ? "view" : "group";
  }

  /** The chunk parameters: one page array per field of each owned component with fields. */
  private static List<ParameterSpec> chunkParameters(final List<Slot> slots) {
    final List<ParameterSpec> parameters = new ArrayList<>();
    final Set<String> taken = new HashSet<>(RESERVED);
    for (final Slot slot : slots) {
      if (Role.OWNED != slot.role() || !slot.fields()) {
        continue;
      }
      for (final FieldModel field : slot.model().fields()) {
        String name = slot.name().replace("$", "") + Names.capitalize(field.name());
        while (!taken.add(name)) {
          name = name + "$";
        }
        parameters.add(ParameterSpec.builder(ArrayTypeName.of(field.slotType()), name, Modifier.FINAL)
            .addJavadoc("the page of {@code $L.$L}\n", slot.model().component().simpleName(), field.name())
            .build());
      }
    }
    return parameters;
  }

  // -----------------------------------------------------------------------------------------------
  // Members.
  // -----------------------------------------------------------------------------------------------

  private static MethodSpec constructor(final QueryModel model, final List<Slot> slots) {
    final MethodSpec.Builder method = MethodSpec.constructorBuilder()
        .addModifiers(Modifier.PRIVATE)
        .addParameter(REGISTRY, "registry", Modifier.FINAL);
    switch (model.kind()) {
      case OWNING_GROUP:
        method.addStatement("this.group = registry.owningGroup(\n$L,\n$L,\n$L)",
            types(slots, Role.OWNED), types(slots, Role.GET), types(slots, Role.EXCLUDE));
        break;
      case NON_OWNING_GROUP:
        method.addStatement("this.group = registry.nonOwningGroup(\n$L,\n$L)", types(slots, Role.GET), types(slots, Role.EXCLUDE));
        break;
      default:
        method.addStatement("this.view = registry.view(\n$L,\n$L)", types(slots, Role.GET), types(slots, Role.EXCLUDE));
        break;
    }
    for (final Slot slot : slots) {
      method.addStatement("this.$L = registry.storage($T.TYPE)", slot.storage(), slot.model().traits());
    }
    for (final Slot slot : slots) {
      if (slot.included() && slot.fields()) {
        method.addStatement("this.$L = $L.cursor()", slot.cursor(), slot.storage());
      }
    }
    if (QueryModel.Kind.OWNING_GROUP == model.kind()) {
      final Slot paged = pagedSlot(slots);
      method.addComment("Owned components with fields share one page size (checked at compile time), so one")
          .addComment("shift and mask turn a position into a page and an offset for all of them.")
          .addStatement("this.pageShift = $L.pageShift()", paged.storage())
          .addStatement("this.pageMask = $L.pageSize() - 1", paged.storage())
          .addStatement("this.currentRun = this::runCurrent");
    }
    return method.build();
  }

  /** The first owned component with fields, else the first owned one. */
  private static Slot pagedSlot(final List<Slot> slots) {
    for (final Slot slot : slots) {
      if (Role.OWNED == slot.role() && slot.fields()) {
        return slot;
      }
    }
    return slots.get(0);
  }

  private static CodeBlock types(final List<Slot> slots, final Role role) {
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

  private static MethodSpec ofMethod(final QueryModel model) {
    final String what = QueryModel.Kind.VIEW == model.kind() ? "the view of {@code registry}"
        : "the group of {@code registry}, creating the group if the\nregistry has none yet (O(n) to arrange the"
            + " existing entities)";
    final MethodSpec.Builder method = MethodSpec.methodBuilder("of")
        .addJavadoc("Returns a query over $L. The query is cheap: keep one per system\n", what)
        .addJavadoc("and thread; create a second one for a nested loop over the same declaration.\n\n")
        .addJavadoc("@param registry the registry to iterate\n")
        .addJavadoc("@return a new query\n")
        .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
        .addParameter(REGISTRY, "registry", Modifier.FINAL)
        .returns(model.query());
    if (QueryModel.Kind.VIEW != model.kind()) {
      method.addJavadoc("@throws IllegalStateException if the group conflicts with an existing group of the registry\n");
    }
    return method.addStatement("return new $T(registry)", model.query()).build();
  }

  private static MethodSpec containerMethod(final QueryModel model) {
    return MethodSpec.methodBuilder(containerName(model))
        .addJavadoc("Returns the runtime $L this query iterates.\n", containerName(model))
        .addModifiers(Modifier.PUBLIC)
        .returns(container(model))
        .addStatement("return $L", containerName(model))
        .build();
  }

  private static MethodSpec sizeMethod(final QueryModel model) {
    if (QueryModel.Kind.VIEW == model.kind()) {
      return MethodSpec.methodBuilder("sizeHint")
          .addJavadoc("Returns an upper bound of the number of entities: the size of the smallest included storage.\n")
          .addModifiers(Modifier.PUBLIC)
          .returns(TypeName.INT)
          .addStatement("return view.sizeHint()")
          .build();
    }
    return MethodSpec.methodBuilder("size")
        .addJavadoc("Returns the number of members of the group.\n")
        .addModifiers(Modifier.PUBLIC)
        .returns(TypeName.INT)
        .addStatement("return group.size()")
        .build();
  }

  private static MethodSpec containsMethod(final QueryModel model) {
    return MethodSpec.methodBuilder("contains")
        .addJavadoc("Returns whether {@code entity} is visited by this query.\n")
        .addModifiers(Modifier.PUBLIC)
        .addParameter(TypeName.LONG, "entity", Modifier.FINAL)
        .returns(TypeName.BOOLEAN)
        .addStatement("return $L.contains(entity)", containerName(model))
        .build();
  }

  private static MethodSpec storageMethod(final Slot slot) {
    return MethodSpec.methodBuilder(slot.storage())
        .addJavadoc("Returns the storage of {@link $T}.\n", slot.model().component())
        .addModifiers(Modifier.PUBLIC)
        .returns(slot.model().storage())
        .addStatement("return $L", slot.storage())
        .build();
  }

  // -----------------------------------------------------------------------------------------------
  // Per-entity iteration.
  // -----------------------------------------------------------------------------------------------

  private static MethodSpec eachMethod(final QueryModel model, final List<Slot> slots) {
    final MethodSpec.Builder method = MethodSpec.methodBuilder("each")
        .addJavadoc(eachDoc(model))
        .addModifiers(Modifier.PUBLIC)
        .addParameter(visitorType(model), "visitor", Modifier.FINAL);
    for (final Slot slot : slots) {
      if (slot.included() && slot.fields()) {
        method.addStatement("final $T $L = this.$L", slot.model().cursor(), slot.cursor(), slot.cursor());
      }
    }
    switch (model.kind()) {
      case OWNING_GROUP:
        return eachOwning(method, slots).build();
      case NON_OWNING_GROUP:
        return eachNonOwning(method, slots).build();
      default:
        return eachView(method, slots).build();
    }
  }

  private static CodeBlock eachDoc(final QueryModel model) {
    final CodeBlock.Builder doc = CodeBlock.builder()
        .add("Calls {@code visitor} for each entity of the $L, last position first, with its cursors\n",
            QueryModel.Kind.VIEW == model.kind() ? "view" : "group")
        .add("positioned on the entity's components. The cursors are fields of this query, moved for each\n")
        .add("entity: nothing is allocated. Not reentrant on one query object.\n\n");
    if (QueryModel.Kind.OWNING_GROUP == model.kind()) {
      doc.add("<p>Owned components are reached by position, since the owned storages are aligned; get\n")
          .add("components by one lookup each.\n\n");
    }
    return doc.add("@param visitor the loop body\n")
        .add("@throws java.util.ConcurrentModificationException (from the visitor's own call) if the visitor\n")
        .add("    tries a change that would make an entity be visited twice or never; it is refused unmade\n")
        .build();
  }

  private static MethodSpec.Builder eachOwning(final MethodSpec.Builder method, final List<Slot> slots) {
    final Slot lead = slots.get(0);
    method.addStatement("final $T group = this.group", OWNING_GROUP)
        .addComment("Any owned storage can lead: members sit at positions [0, size()) of each, in one order.")
        .addStatement("final $T lead = this.$L", lead.model().storage(), lead.storage());
    beginGuardedLoop(method, "lead",
        "for (int position = group.size() - 1; position >= 0; position = Math.min(position - 1, group.size() - 1))")
        .addStatement("final long entity = lead.packed()[position]");
    for (final Slot slot : slots) {
      if (slot.included() && slot.fields()) {
        method.addStatement(Role.OWNED == slot.role() ? "$L.moveTo(position)" : "$L.moveToEntity(entity)", slot.cursor());
      }
    }
    return endGuardedLoop(method.addStatement("lead.visit(position)").addStatement(visitCall(slots)), "lead");
  }

  /**
   * Opens the runtime's iteration guard protocol around a loop over {@code set}: {@code beginIteration()}
   * before it, {@code visit(position)} before each visitor call (emitted by the caller), and
   * {@code endIteration()} in a finally block ({@link #endGuardedLoop}).
   */
  private static MethodSpec.Builder beginGuardedLoop(final MethodSpec.Builder method, final String set, final String loop) {
    return method.addStatement("$L.beginIteration()", set)
        .beginControlFlow("try")
        .beginControlFlow(loop);
  }

  /** Closes the loop and the guard opened by {@link #beginGuardedLoop}. */
  private static MethodSpec.Builder endGuardedLoop(final MethodSpec.Builder method, final String set) {
    return method.endControlFlow()
        .nextControlFlow("finally")
        .addStatement("$L.endIteration()", set)
        .endControlFlow();
  }

  private static MethodSpec.Builder eachNonOwning(final MethodSpec.Builder method, final List<Slot> slots) {
    method.addStatement("final $T members = group.members()", SPARSE_SET);
    beginGuardedLoop(method, "members",
        "for (int position = members.size() - 1; position >= 0; position = Math.min(position - 1, members.size() - 1))")
        .addStatement("final long entity = members.packed()[position]");
    moveByEntity(method, slots);
    return endGuardedLoop(method.addStatement("members.visit(position)").addStatement(visitCall(slots)), "members");
  }

  private static MethodSpec.Builder eachView(final MethodSpec.Builder method, final List<Slot> slots) {
    method.addStatement("final $T lead = view.leader()", SPARSE_SET)
        .addStatement("final boolean stable = $T.IN_PLACE == lead.policy()", Code.DELETION_POLICY);
    beginGuardedLoop(method, "lead",
        "for (int position = lead.size() - 1; position >= 0; position = Math.min(position - 1, lead.size() - 1))")
        .addComment("Read the array again: the visitor may have grown it (appended elements are not visited).")
        .addStatement("final long entity = lead.packed()[position]")
        .beginControlFlow("if (stable && $T.isTombstone(entity))", ENTITY)
        .addStatement("continue")
        .endControlFlow();
    // One lookup per storage: its position both tests membership and places the cursor. The leader
    // needs none: the entity is at the loop's position there.
    for (final Slot slot : slots) {
      if (slot.included() && slot.fields()) {
        method.addStatement("final int $L = lead == $L ? position : $L.indexOf(entity)", indexLocal(slot),
                slot.storage(), slot.storage())
            .beginControlFlow("if ($L < 0)", indexLocal(slot))
            .addStatement("continue")
            .endControlFlow();
      } else if (slot.included()) {
        method.beginControlFlow("if (lead != $L && !$L.contains(entity))", slot.storage(), slot.storage())
            .addStatement("continue")
            .endControlFlow();
      } else {
        method.beginControlFlow("if ($L.contains(entity))", slot.storage())
            .addStatement("continue")
            .endControlFlow();
      }
    }
    for (final Slot slot : slots) {
      if (slot.included() && slot.fields()) {
        method.addStatement("$L.moveTo($L)", slot.cursor(), indexLocal(slot));
      }
    }
    return endGuardedLoop(method.addStatement("lead.visit(position)").addStatement(visitCall(slots)), "lead");
  }

  /** The local holding a slot's position in a view loop; the {@code $} keeps it clear of user names. */
  private static String indexLocal(final Slot slot) {
    return slot.cursor() + "Index$";
  }

  private static void moveByEntity(final MethodSpec.Builder method, final List<Slot> slots) {
    for (final Slot slot : slots) {
      if (slot.included() && slot.fields()) {
        method.addStatement("$L.moveToEntity(entity)", slot.cursor());
      }
    }
  }

  private static CodeBlock visitCall(final List<Slot> slots) {
    final List<CodeBlock> arguments = new ArrayList<>();
    arguments.add(CodeBlock.of("entity"));
    for (final Slot slot : slots) {
      if (slot.visited()) {
        arguments.add(slot.fields() ? CodeBlock.of("$L", slot.cursor()) : CodeBlock.of("$L.get(entity)", slot.storage()));
      }
    }
    return CodeBlock.of("visitor.visit($L)", CodeBlock.join(arguments, ", "));
  }

  // -----------------------------------------------------------------------------------------------
  // Chunk iteration.
  // -----------------------------------------------------------------------------------------------

  private static MethodSpec eachChunkMethod(final QueryModel model) {
    return MethodSpec.methodBuilder("eachChunk")
        .addJavadoc("Calls {@code chunk} once per run of contiguous positions covering the group, first to last.\n"
            + "Each run lies within one page of every owned storage; {@code chunk} receives that page of each\n"
            + "field of each owned component and the range {@code [from, to)} of offsets into those arrays.\n\n"
            + "<p>The group's storages are locked meanwhile: the body may read and write the arrays (and any\n"
            + "component field) but not add or remove components of the listed types, which throws\n"
            + "{@link java.util.ConcurrentModificationException}. Allocates nothing. Reentrant: the body may\n"
            + "call {@code eachChunk} again.\n\n"
            + "@param chunk the loop body, called once per run of up to a page of elements\n")
        .addModifiers(Modifier.PUBLIC)
        .addParameter(chunkType(model), "chunk", Modifier.FINAL)
        .addStatement("final $T outer = current", chunkType(model))
        .addStatement("current = chunk")
        .beginControlFlow("try")
        .addComment("A run adapter made once per query, so that a call allocates nothing.")
        .addStatement("group.eachChunk(currentRun)")
        .nextControlFlow("finally")
        .addStatement("current = outer")
        .endControlFlow()
        .build();
  }

  private static MethodSpec parallelEachChunkMethod(final QueryModel model) {
    return MethodSpec.methodBuilder("parallelEachChunk")
        .addJavadoc("As {@link #parallelEachChunk($T, Chunk)} on the common pool.\n\n"
            + "@param chunk the loop body; called from several threads at once\n", FORK_JOIN_POOL)
        .addModifiers(Modifier.PUBLIC)
        .addParameter(chunkType(model), "chunk", Modifier.FINAL)
        .addStatement("parallelEachChunk($T.commonPool(), chunk)", FORK_JOIN_POOL)
        .build();
  }

  private static MethodSpec parallelEachChunkPoolMethod(final QueryModel model) {
    return MethodSpec.methodBuilder("parallelEachChunk")
        .addJavadoc("As {@link #eachChunk}, with the runs spread over the threads of {@code pool}; returns when\n"
            + "every run is done and rethrows the first exception thrown by the body.\n\n"
            + "<h2>Threading</h2>\n\n"
            + "<ul>\n"
            + "  <li>Every storage the group observes is locked until the call returns: adding or removing a\n"
            + "      component of a listed type, from any thread, throws\n"
            + "      {@link java.util.ConcurrentModificationException}.\n"
            + "  <li>Runs are disjoint: the body may write the elements {@code [from, to)} of the arrays it\n"
            + "      receives, each position from one thread only. It must not write other positions, nor\n"
            + "      read positions other threads write.\n"
            + "  <li>Writes made by the body happen-before the return of this method.\n"
            + "</ul>\n\n"
            + "<p>Allocates the fork-join tasks (a few per call), never per element.\n\n"
            + "@param pool the pool to run on\n"
            + "@param chunk the loop body; called from several threads at once\n")
        .addModifiers(Modifier.PUBLIC)
        .addParameter(FORK_JOIN_POOL, "pool", Modifier.FINAL)
        .addParameter(chunkType(model), "chunk", Modifier.FINAL)
        .addStatement("group.parallelEachChunk(pool, (from, to) -> visitRun(chunk, from, to))")
        .build();
  }

  private static MethodSpec runCurrentMethod() {
    return MethodSpec.methodBuilder("runCurrent")
        .addModifiers(Modifier.PRIVATE)
        .addParameter(TypeName.INT, "from", Modifier.FINAL)
        .addParameter(TypeName.INT, "to", Modifier.FINAL)
        .addStatement("visitRun(current, from, to)")
        .build();
  }

  private static MethodSpec visitRunMethod(final QueryModel model, final List<Slot> slots) {
    final List<CodeBlock> arguments = new ArrayList<>();
    arguments.add(CodeBlock.of("offset"));
    arguments.add(CodeBlock.of("offset + (to - from)"));
    for (final Slot slot : slots) {
      if (Role.OWNED == slot.role() && slot.fields()) {
        for (final FieldModel field : slot.model().fields()) {
          arguments.add(CodeBlock.of("$L.$L()[page]", slot.storage(), Names.pages(field.name())));
        }
      }
    }
    return MethodSpec.methodBuilder("visitRun")
        .addModifiers(Modifier.PRIVATE)
        .addParameter(chunkType(model), "chunk", Modifier.FINAL)
        .addParameter(TypeName.INT, "from", Modifier.FINAL)
        .addParameter(TypeName.INT, "to", Modifier.FINAL)
        .addComment("The group's runs never cross a page of an owned storage: one page and offset serve the run.")
        .addStatement("final int page = from >>> pageShift")
        .addStatement("final int offset = from & pageMask")
        .addStatement("chunk.visit($L)", CodeBlock.join(arguments, ", "))
        .build();
  }

  // -----------------------------------------------------------------------------------------------
  // Nested interfaces.
  // -----------------------------------------------------------------------------------------------

  private static TypeSpec visitorType(final QueryModel model, final List<Slot> slots) {
    final MethodSpec.Builder visit = MethodSpec.methodBuilder("visit")
        .addJavadoc("Visits one entity; the cursors are positioned on its components and are reused for the next\n"
            + "entity, so do not keep them.\n\n")
        .addModifiers(Modifier.PUBLIC, Modifier.ABSTRACT)
        .addParameter(TypeName.LONG, "entity")
        .addJavadoc("@param entity the entity\n");
    for (final Slot slot : slots) {
      if (slot.visited()) {
        final TypeName type = slot.fields() ? slot.model().cursor() : slot.model().component();
        visit.addParameter(type, slot.name())
            .addJavadoc("@param $L $L {@link $T}\n", slot.name(), slot.fields() ? "a cursor over its" : "its",
                slot.model().component());
      }
    }
    return TypeSpec.interfaceBuilder("Visitor")
        .addJavadoc("The body of {@link $T#each}: one call per entity, with a typed cursor per included component\n"
            + "that has fields (tags add no parameter).\n", model.query())
        .addModifiers(Modifier.PUBLIC)
        .addAnnotation(FUNCTIONAL)
        .addMethod(visit.build())
        .build();
  }

  private static TypeSpec chunkInterface(final QueryModel model, final List<Slot> slots) {
    final List<ParameterSpec> arrays = chunkParameters(slots);
    final MethodSpec.Builder visit = MethodSpec.methodBuilder("visit")
        .addJavadoc("Visits one run: the elements at offsets {@code [from, to)} of every array belong to the same\n"
            + "entities, in the same order.\n\n")
        .addModifiers(Modifier.PUBLIC, Modifier.ABSTRACT)
        .addParameter(TypeName.INT, "from")
        .addParameter(TypeName.INT, "to")
        .addJavadoc("@param from the first offset, inclusive\n")
        .addJavadoc("@param to the last offset, exclusive; {@code from < to}\n");
    for (final ParameterSpec array : arrays) {
      visit.addParameter(array.type(), array.name()).addJavadoc("@param $L $L", array.name(), array.javadoc());
    }
    final String owned = slots.stream()
        .filter(slot -> Role.OWNED == slot.role())
        .map(slot -> slot.model().component().simpleName())
        .collect(Collectors.joining(", "));
    return TypeSpec.interfaceBuilder("Chunk")
        .addJavadoc("The body of {@link $T#eachChunk}: one call per run of contiguous positions, with the page\n"
            + "arrays of every field of the owned components ($L) in declaration order. Write it as a counted\n"
            + "loop, {@code for (int i = from; i < to; i++)}, over the arrays; the JIT can then unroll and\n"
            + "vectorize it.\n\n"
            + "<p>Components the group gets but does not own are not passed: their elements are not aligned\n"
            + "with the group's positions, so there is no array range to hand out; read them per entity in\n"
            + "{@code each}. Tags add nothing.\n", model.query(), owned)
        .addModifiers(Modifier.PUBLIC)
        .addAnnotation(FUNCTIONAL)
        .addMethod(visit.build())
        .build();
  }

  // -----------------------------------------------------------------------------------------------
  // Javadoc.
  // -----------------------------------------------------------------------------------------------

  private static CodeBlock classDoc(final QueryModel model, final List<Slot> slots) {
    final CodeBlock.Builder doc = CodeBlock.builder();
    switch (model.kind()) {
      case OWNING_GROUP:
        doc.add("The owning group declared by {@code $L}: owned $L, get $L, excluded $L.\n",
            model.element().getQualifiedName(), list(slots, Role.OWNED), list(slots, Role.GET), list(slots, Role.EXCLUDE));
        break;
      case NON_OWNING_GROUP:
        doc.add("The non-owning group declared by {@code $L}: get $L, excluded $L.\n",
            model.element().getQualifiedName(), list(slots, Role.GET), list(slots, Role.EXCLUDE));
        break;
      default:
        doc.add("The view declared by {@code $L}: included $L, excluded $L.\n",
            model.element().getQualifiedName(), list(slots, Role.GET), list(slots, Role.EXCLUDE));
        break;
    }
    doc.add("\n<p>Create it with {@link #of}, then iterate with {@link #each}");
    if (QueryModel.Kind.OWNING_GROUP == model.kind()) {
      doc.add(", {@link #eachChunk} or {@link #parallelEachChunk(Chunk)}:\n\n")
          .add("<pre>{@code\n")
          .add("query.eachChunk((from, to, $L) -> {\n", "...")
          .add("  for (int i = from; i < to; i++) { ... }\n")
          .add("});\n")
          .add("}</pre>\n");
    } else {
      doc.add(".\n");
    }
    doc.add("\n<h2>Costs</h2>\n\n<ul>\n");
    switch (model.kind()) {
      case OWNING_GROUP:
        doc.add("  <li>{@code each}: O(n), owned components by position, get components by one lookup each;\n")
            .add("      no allocation.\n")
            .add("  <li>{@code eachChunk}: O(n), one call of the body per run of up to a page; no allocation.\n")
            .add("  <li>Profile pollution: {@code each} calls the visitor once per entity, so when many\n")
            .add("      different lambdas go through this class the call is megamorphic on every element. The\n")
            .add("      chunk forms call the body once per page run (4,096 elements by default), so a megamorphic\n")
            .add("      call costs once per run, and the inner loop is the body's own monomorphic loop: prefer\n")
            .add("      them on hot paths.\n");
        break;
      case NON_OWNING_GROUP:
        doc.add("  <li>{@code each}: O(n) over the members, one lookup per component; no allocation.\n");
        break;
      default:
        doc.add("  <li>{@code each}: O(n * k) over the smallest included storage, k the number of listed\n")
            .add("      components; no allocation.\n");
        break;
    }
    doc.add("</ul>\n\n<h2>Threading</h2>\n\n")
        .add("<p>A query object is not thread-safe: its cursors are shared by all calls of {@code each}, so use\n")
        .add("one query per thread, and a second query (another {@link #of}) for a nested loop over the same\n")
        .add("declaration.");
    if (QueryModel.Kind.OWNING_GROUP == model.kind()) {
      doc.add(" {@link #parallelEachChunk(java.util.concurrent.ForkJoinPool, Chunk)} documents its own contract.");
    }
    doc.add("\n\n<h2>What may change during an iteration</h2>\n\n")
        .add("<p>As for the runtime {@code each}: the visited entity may lose components or be destroyed;\n")
        .add("other entities may not leave the $L meanwhile (detected, {@link java.util.ConcurrentModificationException}).\n",
            QueryModel.Kind.VIEW == model.kind() ? "view's leading storage" : "group")
        .add(QueryModel.Kind.OWNING_GROUP == model.kind()
            ? "The chunk forms lock the storages: no structural change at all.\n" : "");
    return doc.build();
  }

  private static String list(final List<Slot> slots, final Role role) {
    final List<String> names = new ArrayList<>();
    for (final Slot slot : slots) {
      if (role == slot.role()) {
        names.add("{@link " + slot.model().component().canonicalName() + "}");
      }
    }
    return names.isEmpty() ? "none" : String.join(", ", names);
  }
}
