package dev.phalanx.ecs.processor.generation;

import com.palantir.javapoet.ArrayTypeName;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterSpec;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import dev.phalanx.ecs.processor.base.Names;
import dev.phalanx.ecs.processor.base.RuntimeContract;
import dev.phalanx.ecs.processor.model.FieldModel;
import dev.phalanx.ecs.processor.model.QueryModel;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ForkJoinPool;
import java.util.stream.Collectors;
import javax.lang.model.element.Modifier;
import javax.lang.model.util.Elements;

/**
 * Generates the query of an owning {@code @GroupQuery}: owned components are reached by position,
 * and {@code eachChunk}/{@code parallelEachChunk} hand a {@code Chunk} body the page arrays of
 * every field of every owned component, for one run of positions that never crosses a page.
 *
 * <p>The {@code Chunk} method takes one array per owned field after {@code from} and {@code to};
 * when that exceeds the 254 parameter slots an interface method may have, the chunk forms are not
 * generated and the class Javadoc says what to use instead. The {@code EntityChunk} forms take the
 * entity array and the page start first (two more slots), and exist when those fit too.
 */
public final class OwningGroupQueryGenerator extends QueryFileGenerator {

  /**
   * Creates the generator.
   *
   * @param elements the compiler's element utilities, to find out whether {@code @Generated} exists
   */
  public OwningGroupQueryGenerator(final Elements elements) {
    super(elements);
  }

  @Override
  QueryModel.Kind kind() {
    return QueryModel.Kind.OWNING_GROUP;
  }

  @Override
  ClassName container() {
    return RuntimeContract.OWNING_GROUP;
  }

  @Override
  String containerName() {
    return "group";
  }

  @Override
  CodeBlock createContainer(final List<Slot> slots) {
    return CodeBlock.of(
        "registry.owningGroup(\n$L,\n$L,\n$L)",
        types(slots, Role.OWNED),
        types(slots, Role.GET),
        types(slots, Role.EXCLUDE));
  }

  @Override
  CodeBlock summary(final QueryModel model, final List<Slot> slots) {
    return CodeBlock.of(
        "The owning group declared by {@code $L}: owned $L, get $L, excluded $L.\n",
        model.element().getQualifiedName(),
        list(slots, Role.OWNED),
        list(slots, Role.GET),
        list(slots, Role.EXCLUDE));
  }

  @Override
  CodeBlock usage(final QueryModel model) {
    final List<Slot> slots = slots(model);
    if (!hasChunk(slots)) {
      return CodeBlock.of(
          "\n"
              + "<p>Create it with {@link #of}, then iterate with {@link #each}. The chunk forms"
              + " are not\n"
              + "generated: their body would take $L parameter slots (two offsets and one page"
              + " array per field of\n"
              + "each owned component), more than the $L a Java interface method may take. For"
              + " chunked loops, call\n"
              + "{@code group().eachChunk((from, to) -> ...)} and read each storage's {@code"
              + " ...Pages()} arrays at\n"
              + "page {@code from >>> pageShift()}.\n",
          chunkSlots(slots),
          Code.MAX_SLOTS - 1);
    }
    return CodeBlock.builder()
        .add(
            "\n"
                + "<p>Create it with {@link #of}, then iterate with {@link #each}, {@link"
                + " #eachChunk} or\n")
        .add("{@link #parallelEachChunk(Chunk)}:\n\n")
        .add("<pre>{@code\n")
        .add("query.eachChunk((from, to, $L) -> {\n", "...")
        .add("  for (int i = from; i < to; i++) { ... }\n")
        .add("});\n")
        .add("}</pre>\n")
        .add(
            hasEntityChunk(slots)
                ? CodeBlock.of(
                    "\n<p>{@link #eachChunk(EntityChunk)} also hands each run the group's"
                        + " entities.\n")
                : CodeBlock.of(""))
        .build();
  }

  @Override
  String costs() {
    return "  <li>{@code each}: O(n), owned components by position, get components by one lookup"
        + " each;\n"
        + "      no allocation.\n"
        + "  <li>{@code eachChunk}: O(n), one call of the body per run of up to a page; no"
        + " allocation.\n"
        + "      A run of a tracked owned component is stamped after the body (one fill of"
        + " its ticks),\n"
        + "      unless the query lists it in {@code readOnly};\n"
        + "      {@code eachChunkReadOnly} skips that.\n"
        + "  <li>Profile pollution: {@code each} runs each visitor class in a copy of its loop"
        + " of its own\n"
        + "      (the first eight classes that go through this query class), so that the call"
        + " of the\n"
        + "      visitor is inlined. Further classes share one copy, where the call is"
        + " megamorphic on\n"
        + "      every element. The chunk forms call the body once per page run (4,096"
        + " elements by\n"
        + "      default), so a megamorphic call costs once per run, and the inner loop is the"
        + " body's own\n"
        + "      monomorphic loop.\n";
  }

  @Override
  void eachLoop(final MethodSpec.Builder method, final List<Slot> slots, final CodeBlock filter) {
    final Slot lead = slots.get(0);
    method
        .addStatement("final $T group = this.group", RuntimeContract.OWNING_GROUP)
        .addComment(
            "Any owned storage can lead: members sit at positions [0, size()) of each, in one"
                + " order.")
        .addStatement("final $T lead = this.$L", lead.model().storage(), lead.storage());
    final CodeBlock shift = hasChunk(slots) ? CodeBlock.of("pageShift") : CodeBlock.of("31");
    final CodeBlock.Builder pageMoves = CodeBlock.builder();
    final CodeBlock.Builder body =
        CodeBlock.builder().addStatement("final long entity = lead.packed()[position]");
    for (final Slot slot : slots) {
      if (slot.included() && slot.fields()) {
        if (Role.OWNED == slot.role()) {
          pageMoves.addStatement("$T.moveToPage($L, page)", RuntimeContract.QUERY, slot.cursor());
          body.addStatement("$T.moveWithinPage($L, offset)", RuntimeContract.QUERY, slot.cursor());
        } else {
          // A get storage is not arranged by the group, but often holds the members in the same
          // order (filled as the entities were created): then no lookup, and one page per run.
          final String index = slot.cursor() + "Index$";
          final String paged = slot.cursor() + "Paged$";
          method.addStatement(
              "final boolean $L = $L.pageShift() == $L", paged, slot.storage(), shift);
          body.addStatement(
                  "final int $L = $T.holdsAt($L, position, entity) ? position : $L.index(entity)",
                  index,
                  RuntimeContract.QUERY,
                  slot.storage(),
                  slot.storage())
              .beginControlFlow("if ($L == position && $L)", index, paged)
              .addStatement(
                  "$T.moveToElement($L, page, offset)", RuntimeContract.QUERY, slot.cursor())
              .nextControlFlow("else")
              .addStatement("$L.moveTo($L)", slot.cursor(), index)
              .endControlFlow();
        }
      }
    }
    // The owned storages with fields share one page size: their cursors keep one page per run.
    // Without any, the whole range is one run.
    RuntimeProtocols.pagedLoop(
        method,
        "lead",
        CodeBlock.of("group.size()"),
        true,
        shift,
        pageMoves.build(),
        body.build(),
        filter,
        visitCall(slots, CodeBlock.of("position")));
  }

  @Override
  void addOwnMembers(
      final TypeSpec.Builder type,
      final MethodSpec.Builder constructor,
      final QueryModel model,
      final List<Slot> slots) {
    if (!hasChunk(slots)) {
      return;
    }
    final boolean marks = marks(slots);
    addChunkMembers(type, constructor, model, slots, marks);
    if (!hasEntityChunk(slots)) {
      return;
    }
    addEntityChunkMembers(type, constructor, model, slots, marks);
    if (!hasCommandChunk(slots)) {
      return;
    }
    addCommandChunkMembers(type, model, slots);
  }

  /**
   * Adds the {@code Chunk} forms: the page shift and mask and the run steps (fields set in the
   * constructor), {@code eachChunk}, {@code eachChunkReadOnly}, the {@code parallelEachChunk}
   * overloads, the run methods and the {@code Chunk} interface; when a run stamps anything ({@code
   * marks}), the read-only run step and methods that do not.
   */
  private static void addChunkMembers(
      final TypeSpec.Builder type,
      final MethodSpec.Builder constructor,
      final QueryModel model,
      final List<Slot> slots,
      final boolean marks) {
    final ClassName chunk = chunkType(model);
    final Slot paged = pagedSlot(slots);
    type.addField(TypeName.INT, "pageShift", Modifier.PRIVATE, Modifier.FINAL)
        .addField(TypeName.INT, "pageMask", Modifier.PRIVATE, Modifier.FINAL)
        .addField(RuntimeContract.RANGE_CONSUMER, "currentRun", Modifier.PRIVATE, Modifier.FINAL)
        .addField(chunk, "current", Modifier.PRIVATE);
    constructor
        .addComment(
            "Owned components with fields share one page size (checked at compile time), so one")
        .addComment("shift and mask turn a position into a page and an offset for all of them.")
        .addStatement("this.pageShift = $L.pageShift()", paged.storage())
        .addStatement("this.pageMask = $L.pageSize() - 1", paged.storage())
        .addStatement("this.currentRun = this::runCurrent");
    if (marks) {
      type.addField(
          RuntimeContract.RANGE_CONSUMER, "currentReadRun", Modifier.PRIVATE, Modifier.FINAL);
      constructor.addStatement("this.currentReadRun = this::readCurrent");
    }
    type.addMethod(eachChunkMethod(chunk, slots))
        .addMethod(eachChunkReadOnlyMethod(chunk, slots, "current", "currentReadRun"))
        .addMethod(parallelEachChunkMethod(chunk))
        .addMethod(parallelEachChunkPoolMethod(chunk))
        .addMethod(parallelGrainMethod(chunk, "(from, to) -> visitRun(chunk, from, to)"))
        .addMethod(
            parallelReadOnlyMethod(
                chunk, "(from, to) -> " + (marks ? "readRun" : "visitRun") + "(chunk, from, to)"))
        .addMethod(runCurrentMethod())
        .addMethod(visitRunMethod(chunk, slots))
        .addType(chunkInterface(model, slots));
    if (marks) {
      type.addMethod(readCurrentMethod()).addMethod(readRunMethod(chunk, slots));
    }
  }

  /**
   * Adds the {@code EntityChunk} forms, which also hand each run the group's entities: their run
   * steps (fields set in the constructor), {@code eachChunk}, {@code eachChunkReadOnly}, the {@code
   * parallelEachChunk} overloads, the run methods and the {@code EntityChunk} interface; when a run
   * stamps anything ({@code marks}), the read-only run step and methods that do not.
   */
  private static void addEntityChunkMembers(
      final TypeSpec.Builder type,
      final MethodSpec.Builder constructor,
      final QueryModel model,
      final List<Slot> slots,
      final boolean marks) {
    final ClassName entityChunk = entityChunkType(model);
    type.addField(
            RuntimeContract.ENTITY_RANGE_CONSUMER,
            "currentEntityRun",
            Modifier.PRIVATE,
            Modifier.FINAL)
        .addField(entityChunk, "currentEntities", Modifier.PRIVATE);
    constructor.addStatement("this.currentEntityRun = this::runCurrentEntities");
    if (marks) {
      type.addField(
          RuntimeContract.ENTITY_RANGE_CONSUMER,
          "currentReadEntityRun",
          Modifier.PRIVATE,
          Modifier.FINAL);
      constructor.addStatement("this.currentReadEntityRun = this::readCurrentEntities");
    }
    type.addMethod(eachEntityChunkMethod(entityChunk))
        .addMethod(
            eachChunkReadOnlyMethod(entityChunk, slots, "currentEntities", "currentReadEntityRun"))
        .addMethod(parallelEachChunkMethod(entityChunk))
        .addMethod(parallelEachEntityChunkPoolMethod(entityChunk))
        .addMethod(
            parallelGrainMethod(
                entityChunk, "(entities, from, to) -> visitEntityRun(chunk, entities, from, to)"))
        .addMethod(
            parallelReadOnlyMethod(
                entityChunk,
                "(entities, from, to) -> "
                    + (marks ? "readEntityRun" : "visitEntityRun")
                    + "(chunk, entities, from, to)"))
        .addMethod(runCurrentEntitiesMethod())
        .addMethod(visitEntityRunMethod(entityChunk, slots))
        .addType(entityChunkInterface(model, slots));
    if (marks) {
      type.addMethod(readCurrentEntitiesMethod())
          .addMethod(readEntityRunMethod(entityChunk, slots));
    }
  }

  /**
   * Adds the {@code CommandChunk} form, which hands each parallel run its own command buffer: the
   * two {@code parallelEachChunk} overloads, the run method and the {@code CommandChunk} interface.
   */
  private static void addCommandChunkMembers(
      final TypeSpec.Builder type, final QueryModel model, final List<Slot> slots) {
    final ClassName commandChunk = model.query().nestedClass("CommandChunk");
    type.addMethod(parallelEachCommandChunkPoolMethod(commandChunk))
        .addMethod(parallelEachCommandChunkGrainMethod(commandChunk))
        .addMethod(visitCommandRunMethod(commandChunk, slots))
        .addType(commandChunkInterface(model, slots));
  }

  // -----------------------------------------------------------------------------------------------
  // Chunks.
  // -----------------------------------------------------------------------------------------------

  /**
   * Returns the parameter slots of {@code Chunk.visit}: {@code this}, two offsets and the arrays.
   */
  static int chunkSlots(final List<Slot> slots) {
    return 3 + chunkParameters(slots).size();
  }

  /** Returns whether the chunk forms fit the JVM's limit of parameter slots. */
  static boolean hasChunk(final List<Slot> slots) {
    return chunkSlots(slots) <= Code.MAX_SLOTS;
  }

  /**
   * Returns whether the entity chunk forms fit too: {@code EntityChunk.visit} takes the entity
   * array and the page start besides what {@code Chunk.visit} takes.
   */
  static boolean hasEntityChunk(final List<Slot> slots) {
    return chunkSlots(slots) + 2 <= Code.MAX_SLOTS;
  }

  /**
   * Returns whether the command chunk form fits too: {@code CommandChunk.visit} takes the run's
   * command buffer besides what {@code EntityChunk.visit} takes.
   */
  static boolean hasCommandChunk(final List<Slot> slots) {
    return chunkSlots(slots) + 3 <= Code.MAX_SLOTS;
  }

  private static MethodSpec parallelEachCommandChunkPoolMethod(final ClassName chunk) {
    return MethodSpec.methodBuilder("parallelEachChunk")
        .addJavadoc(
            "As {@link #parallelEachChunk($T, EntityChunk)}, handing each run its own command"
                + " buffer as well:\n"
                + "the buffer of {@code commands} for the run's first position, so that no two"
                + " runs share one\n"
                + "and {@code commands.apply()}, after the call, applies the runs in position"
                + " order whatever the\n"
                + "number of threads.\n\n"
                + "@param pool the pool to run on\n"
                + "@param commands the set whose buffers the runs record into\n"
                + "@param chunk the loop body; called from several threads at once\n",
            ForkJoinPool.class)
        .addModifiers(Modifier.PUBLIC)
        .addParameter(ForkJoinPool.class, "pool", Modifier.FINAL)
        .addParameter(RuntimeContract.COMMAND_BUFFERS, "commands", Modifier.FINAL)
        .addParameter(chunk, "chunk", Modifier.FINAL)
        .addStatement(
            "commands.parallelEachChunk(group, pool, (buffer, entities, from, to) ->"
                + " visitCommandRun(chunk, buffer, entities, from, to))")
        .build();
  }

  private static MethodSpec parallelEachCommandChunkGrainMethod(final ClassName chunk) {
    return MethodSpec.methodBuilder("parallelEachChunk")
        .addJavadoc(
            "As {@link #parallelEachChunk($T, $T, CommandChunk)}, with a grain for this call"
                + " (see\n"
                + "{@link #parallelEachChunk($T, int, Chunk)}); each run still has its own"
                + " buffer.\n\n"
                + "@param pool the pool to run on\n"
                + "@param grain the most positions a task holds, or 0 for the automatic grain\n"
                + "@param commands the set whose buffers the runs record into\n"
                + "@param chunk the loop body; called from several threads at once\n"
                + "@throws IllegalArgumentException if {@code grain} is negative\n",
            ForkJoinPool.class,
            RuntimeContract.COMMAND_BUFFERS,
            ForkJoinPool.class)
        .addModifiers(Modifier.PUBLIC)
        .addParameter(ForkJoinPool.class, "pool", Modifier.FINAL)
        .addParameter(TypeName.INT, "grain", Modifier.FINAL)
        .addParameter(RuntimeContract.COMMAND_BUFFERS, "commands", Modifier.FINAL)
        .addParameter(chunk, "chunk", Modifier.FINAL)
        .addStatement(
            "commands.parallelEachChunk(group, pool, grain, (buffer, entities, from, to) ->"
                + " visitCommandRun(chunk, buffer, entities, from, to))")
        .build();
  }

  private static MethodSpec visitCommandRunMethod(final ClassName chunk, final List<Slot> slots) {
    final List<CodeBlock> arguments = new ArrayList<>();
    arguments.add(CodeBlock.of("buffer"));
    arguments.add(CodeBlock.of("entities"));
    arguments.add(CodeBlock.of("from - offset"));
    arguments.addAll(runArguments(slots));
    return MethodSpec.methodBuilder("visitCommandRun")
        .addModifiers(Modifier.PRIVATE)
        .addParameter(chunk, "chunk", Modifier.FINAL)
        .addParameter(RuntimeContract.COMMAND_BUFFER, "buffer", Modifier.FINAL)
        .addParameter(ArrayTypeName.of(TypeName.LONG), "entities", Modifier.FINAL)
        .addParameter(TypeName.INT, "from", Modifier.FINAL)
        .addParameter(TypeName.INT, "to", Modifier.FINAL)
        .addStatement("final int page = from >>> pageShift")
        .addStatement("final int offset = from & pageMask")
        .addStatement("chunk.visit($L)", CodeBlock.join(arguments, ", "))
        .addCode(markChunk(slots))
        .build();
  }

  private static TypeSpec commandChunkInterface(final QueryModel model, final List<Slot> slots) {
    final MethodSpec.Builder visit =
        MethodSpec.methodBuilder("visit")
            .addJavadoc(
                "Visits one run, as {@link EntityChunk#visit}, with the run's own command"
                    + " buffer.\n\n")
            .addModifiers(Modifier.PUBLIC, Modifier.ABSTRACT)
            .addParameter(RuntimeContract.COMMAND_BUFFER, "commands")
            .addJavadoc(
                "@param commands the run's buffer: record the run's changes into it, from this"
                    + " call only\n");
    addRunParameters(visit, slots);
    return TypeSpec.interfaceBuilder("CommandChunk")
        .addJavadoc(
            "The body of {@link $T#parallelEachChunk($T, $T, CommandChunk)}: as {@link"
                + " EntityChunk}, with\n"
                + "the run's own command buffer first, so that recording from a parallel pass is"
                + " safe by\n"
                + "construction:\n\n"
                + "<pre>{@code\n"
                + "query.parallelEachChunk(pool, commands, (buffer, entities, pageStart, from, to,"
                + " ...) -> {\n"
                + "  for (int i = from; i < to; i++) {\n"
                + "    buffer.destroy(entities[pageStart + i]);\n"
                + "  }\n"
                + "});\n"
                + "commands.apply();\n"
                + "}</pre>\n",
            model.query(),
            ForkJoinPool.class,
            RuntimeContract.COMMAND_BUFFERS)
        .addJavadoc(readOnlyArraysDoc(slots))
        .addModifiers(Modifier.PUBLIC)
        .addAnnotation(FunctionalInterface.class)
        .addMethod(visit.build())
        .build();
  }

  private static ClassName chunkType(final QueryModel model) {
    return model.query().nestedClass("Chunk");
  }

  private static ClassName entityChunkType(final QueryModel model) {
    return model.query().nestedClass("EntityChunk");
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

  /** The chunk parameters: one page array per field of each owned component with fields. */
  private static List<ParameterSpec> chunkParameters(final List<Slot> slots) {
    final List<ParameterSpec> parameters = new ArrayList<>();
    final Set<String> taken = new HashSet<>(RESERVED);
    // The leading parameters of EntityChunk.visit.
    taken.add("entities");
    taken.add("pageStart");
    for (final Slot slot : slots) {
      if (Role.OWNED != slot.role() || !slot.fields()) {
        continue;
      }
      for (final FieldModel field : slot.model().fields()) {
        final String name =
            Code.fresh(slot.name().replace("$", "") + Names.capitalize(field.name()), taken);
        taken.add(name);
        parameters.add(
            ParameterSpec.builder(ArrayTypeName.of(field.slotType()), name, Modifier.FINAL)
                .addJavadoc(
                    "the page of {@code $L.$L}$L\n",
                    slot.model().component().simpleName(),
                    field.name(),
                    slot.readOnly() ? ", read-only (listed in {@code readOnly})" : "")
                .build());
      }
    }
    return parameters;
  }

  private static MethodSpec eachChunkMethod(final ClassName chunk, final List<Slot> slots) {
    final String readOnly = readOnlyOwned(slots);
    return MethodSpec.methodBuilder("eachChunk")
        .addJavadoc(
            "Calls {@code chunk} once per run of contiguous positions covering the group, first to"
                + " last.\n"
                + "Each run lies within one page of every owned storage; {@code chunk} receives"
                + " that page of each\n"
                + "field of each owned component and the range {@code [from, to)} of offsets into"
                + " those arrays.\n\n"
                + "<p>The group's storages are locked meanwhile: the body may read and write the"
                + " arrays (and any\n"
                + "component field) but not add or remove components of the listed types, which"
                + " throws\n"
                + "{@link java.util.ConcurrentModificationException}. Allocates nothing. Reentrant:"
                + " the body may\n"
                + "call {@code eachChunk} again.\n")
        .addJavadoc(
            readOnly.isEmpty()
                ? CodeBlock.of("")
                : CodeBlock.of(
                    "\n<p>The arrays of $L are read-only, as the query lists the $L in"
                        + " {@code readOnly}\n"
                        + "(see {@link $L}): the body must not write them, and no pass stamps"
                        + " them.\n",
                    readOnly,
                    readOnly.contains(",") ? "components" : "component",
                    chunk.simpleName()))
        .addJavadoc(
            "\n@param chunk the loop body, called once per run of up to a page of elements\n")
        .addModifiers(Modifier.PUBLIC)
        .addParameter(chunk, "chunk", Modifier.FINAL)
        .addStatement("final $T outer = current", chunk)
        .addStatement("current = chunk")
        .beginControlFlow("try")
        .addComment("A run adapter made once per query, so that a call allocates nothing.")
        .addStatement("group.eachChunk(currentRun)")
        .nextControlFlow("finally")
        .addStatement("current = outer")
        .endControlFlow()
        .build();
  }

  private static MethodSpec parallelEachChunkMethod(final ClassName chunk) {
    return MethodSpec.methodBuilder("parallelEachChunk")
        .addJavadoc(
            """
            As {@link #parallelEachChunk($T, $L)} on the common pool.

            @param chunk the loop body; called from several threads at once
            """,
            ForkJoinPool.class,
            chunk.simpleName())
        .addModifiers(Modifier.PUBLIC)
        .addParameter(chunk, "chunk", Modifier.FINAL)
        .addStatement("parallelEachChunk($T.commonPool(), chunk)", ForkJoinPool.class)
        .build();
  }

  private static MethodSpec parallelEachChunkPoolMethod(final ClassName chunk) {
    return MethodSpec.methodBuilder("parallelEachChunk")
        .addJavadoc(
            "As {@link #eachChunk}, with the runs spread over the threads of {@code pool}; returns"
                + " when\n"
                + "every run is done and rethrows the first exception thrown by the body.\n\n"
                + "<p>Threading:\n"
                + "<ul>\n"
                + "  <li>Every storage the group observes is locked until the call returns: adding"
                + " or removing a\n"
                + "      component of a listed type, from any thread, throws\n"
                + "      {@link java.util.ConcurrentModificationException}.\n"
                + "  <li>Runs are disjoint: the body may write the elements {@code [from, to)} of"
                + " the arrays it\n"
                + "      receives, each position from one thread only. It must not write other"
                + " positions, nor\n"
                + "      read positions other threads write.\n"
                + "  <li>Writes made by the body happen-before the return of this method.\n"
                + "</ul>\n\n"
                + "<p>Tasks: the group's grain ({@code group().parallelGrain(n)}, automatic by"
                + " default: about\n"
                + "four tasks per thread of the pool, of at least 1,024 positions), or one per"
                + " call with\n"
                + "{@link #parallelEachChunk($T, int, Chunk)}. Allocates the fork-join tasks (a"
                + " few per call),\n"
                + "never per element.\n\n"
                + "@param pool the pool to run on\n"
                + "@param chunk the loop body; called from several threads at once\n",
            ForkJoinPool.class)
        .addModifiers(Modifier.PUBLIC)
        .addParameter(ForkJoinPool.class, "pool", Modifier.FINAL)
        .addParameter(chunk, "chunk", Modifier.FINAL)
        .addStatement("group.parallelEachChunk(pool, (from, to) -> visitRun(chunk, from, to))")
        .build();
  }

  private static MethodSpec eachChunkReadOnlyMethod(
      final ClassName chunk,
      final List<Slot> slots,
      final String currentField,
      final String adapter) {
    final MethodSpec.Builder method =
        MethodSpec.methodBuilder("eachChunkReadOnly")
            .addModifiers(Modifier.PUBLIC)
            .addParameter(chunk, "chunk", Modifier.FINAL);
    if (!marks(slots)) {
      final boolean tracked =
          slots.stream()
              .anyMatch(
                  slot -> Role.OWNED == slot.role() && slot.fields() && slot.model().tracked());
      return method
          .addJavadoc(
              "As {@link #eachChunk($L)}: $L, so no pass stamps\n"
                  + "anything and the read-only form is the same pass, for code that does not"
                  + " depend on which\n"
                  + "components are tracked.\n\n"
                  + "@param chunk the loop body, called once per run of up to a page of"
                  + " elements\n",
              chunk.simpleName(),
              tracked
                  ? "the tracked owned components of this query are all listed in {@code"
                      + " readOnly}"
                  : "no owned component of this query is tracked")
          .addStatement("eachChunk(chunk)")
          .build();
    }
    return method
        .addJavadoc(
            "As {@link #eachChunk($L)}, for a body that only reads: the runs are not stamped,"
                + " so the\n"
                + "tracked owned components ($L) keep their change ticks and {@code"
                + " changedSince}\n"
                + "and {@code eachChangedSince} do not report what this pass handed out. {@link"
                + " #eachChunk($L)}\n"
                + "stamps every element of every run of a tracked component, one {@code"
                + " Arrays.fill} of the\n"
                + "run's ticks each; this form skips that. A write through the arrays here is"
                + " not seen by change\n"
                + "tracking: write in {@code eachChunk}, or through the storage's setters, which"
                + " stamp.\n"
                + "Allocates nothing. Reentrant.\n\n"
                + "@param chunk the loop body, called once per run of up to a page of elements\n",
            chunk.simpleName(),
            trackedNames(slots),
            chunk.simpleName())
        .addStatement("final $T outer = $L", chunk, currentField)
        .addStatement("$L = chunk", currentField)
        .beginControlFlow("try")
        .addStatement("group.eachChunk($L)", adapter)
        .nextControlFlow("finally")
        .addStatement("$L = outer", currentField)
        .endControlFlow()
        .build();
  }

  private static MethodSpec parallelReadOnlyMethod(final ClassName chunk, final String body) {
    return MethodSpec.methodBuilder("parallelEachChunkReadOnly")
        .addJavadoc(
            "As {@link #parallelEachChunk($T, $L)}, without stamping the tracked owned"
                + " components (see\n"
                + "{@link #eachChunkReadOnly($L)}).\n\n"
                + "@param pool the pool to run on\n"
                + "@param chunk the loop body; called from several threads at once\n",
            ForkJoinPool.class,
            chunk.simpleName(),
            chunk.simpleName())
        .addModifiers(Modifier.PUBLIC)
        .addParameter(ForkJoinPool.class, "pool", Modifier.FINAL)
        .addParameter(chunk, "chunk", Modifier.FINAL)
        .addStatement("group.parallelEachChunk(pool, $L)", body)
        .build();
  }

  private static MethodSpec parallelGrainMethod(final ClassName chunk, final String body) {
    return MethodSpec.methodBuilder("parallelEachChunk")
        .addJavadoc(
            "As {@link #parallelEachChunk($T, $L)}, with a grain for this call: the most"
                + " positions a\n"
                + "task holds (0: automatic), as {@link $T#parallelEachChunk($T, int,"
                + " $T)} rounds and\n"
                + "documents it. Without one, a pass uses the group's grain, {@code"
                + " group().parallelGrain(n)},\n"
                + "automatic by default.\n\n"
                + "@param pool the pool to run on\n"
                + "@param grain the most positions a task holds, or 0 for the automatic grain\n"
                + "@param chunk the loop body; called from several threads at once\n"
                + "@throws IllegalArgumentException if {@code grain} is negative\n",
            ForkJoinPool.class,
            chunk.simpleName(),
            RuntimeContract.OWNING_GROUP,
            ForkJoinPool.class,
            RuntimeContract.RANGE_CONSUMER)
        .addModifiers(Modifier.PUBLIC)
        .addParameter(ForkJoinPool.class, "pool", Modifier.FINAL)
        .addParameter(TypeName.INT, "grain", Modifier.FINAL)
        .addParameter(chunk, "chunk", Modifier.FINAL)
        .addStatement("group.parallelEachChunk(pool, grain, $L)", body)
        .build();
  }

  private static MethodSpec readCurrentMethod() {
    return MethodSpec.methodBuilder("readCurrent")
        .addModifiers(Modifier.PRIVATE)
        .addParameter(TypeName.INT, "from", Modifier.FINAL)
        .addParameter(TypeName.INT, "to", Modifier.FINAL)
        .addStatement("readRun(current, from, to)")
        .build();
  }

  private static MethodSpec readCurrentEntitiesMethod() {
    return MethodSpec.methodBuilder("readCurrentEntities")
        .addModifiers(Modifier.PRIVATE)
        .addParameter(ArrayTypeName.of(TypeName.LONG), "entities", Modifier.FINAL)
        .addParameter(TypeName.INT, "from", Modifier.FINAL)
        .addParameter(TypeName.INT, "to", Modifier.FINAL)
        .addStatement("readEntityRun(currentEntities, entities, from, to)")
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

  private static MethodSpec visitRunMethod(final ClassName chunk, final List<Slot> slots) {
    if (marks(slots)) {
      return MethodSpec.methodBuilder("visitRun")
          .addModifiers(Modifier.PRIVATE)
          .addParameter(chunk, "chunk", Modifier.FINAL)
          .addParameter(TypeName.INT, "from", Modifier.FINAL)
          .addParameter(TypeName.INT, "to", Modifier.FINAL)
          .addStatement("readRun(chunk, from, to)")
          .addCode(markChunk(slots))
          .build();
    }
    return readRunBuilder("visitRun", chunk, slots).build();
  }

  /** The run of a read-only pass: the visit, without stamping. */
  private static MethodSpec readRunMethod(final ClassName chunk, final List<Slot> slots) {
    return readRunBuilder("readRun", chunk, slots).build();
  }

  private static MethodSpec.Builder readRunBuilder(
      final String name, final ClassName chunk, final List<Slot> slots) {
    final List<CodeBlock> arguments = runArguments(slots);
    return MethodSpec.methodBuilder(name)
        .addModifiers(Modifier.PRIVATE)
        .addParameter(chunk, "chunk", Modifier.FINAL)
        .addParameter(TypeName.INT, "from", Modifier.FINAL)
        .addParameter(TypeName.INT, "to", Modifier.FINAL)
        .addComment(
            "The group's runs never cross a page of an owned storage: one page and offset serve the"
                + " run.")
        .addStatement("final int page = from >>> pageShift")
        .addStatement("final int offset = from & pageMask")
        .addStatement("chunk.visit($L)", CodeBlock.join(arguments, ", "));
  }

  private static MethodSpec eachEntityChunkMethod(final ClassName chunk) {
    return MethodSpec.methodBuilder("eachChunk")
        .addJavadoc(
            "As {@link #eachChunk(Chunk)}, handing each run the group's entities as well: the"
                + " entity of\n"
                + "offset {@code i} is {@code entities[pageStart + i]}. A body can so act on the"
                + " entities it finds in\n"
                + "the same pass, for example record their destruction into a {@link $T} applied"
                + " after the\n"
                + "loop (the storages are locked during it). Allocates nothing. Reentrant.\n\n"
                + "@param chunk the loop body, called once per run of up to a page of elements\n",
            RuntimeContract.COMMAND_BUFFER)
        .addModifiers(Modifier.PUBLIC)
        .addParameter(chunk, "chunk", Modifier.FINAL)
        .addStatement("final $T outer = currentEntities", chunk)
        .addStatement("currentEntities = chunk")
        .beginControlFlow("try")
        .addComment("A run adapter made once per query, so that a call allocates nothing.")
        .addStatement("group.eachChunk(currentEntityRun)")
        .nextControlFlow("finally")
        .addStatement("currentEntities = outer")
        .endControlFlow()
        .build();
  }

  private static MethodSpec parallelEachEntityChunkPoolMethod(final ClassName chunk) {
    return MethodSpec.methodBuilder("parallelEachChunk")
        .addJavadoc(
            "As {@link #parallelEachChunk($T, Chunk)}, handing each run the group's entities as"
                + " well (see\n"
                + "{@link #eachChunk(EntityChunk)}); to act on them, record into one command"
                + " buffer per run.\n\n"
                + "@param pool the pool to run on\n"
                + "@param chunk the loop body; called from several threads at once\n",
            ForkJoinPool.class)
        .addModifiers(Modifier.PUBLIC)
        .addParameter(ForkJoinPool.class, "pool", Modifier.FINAL)
        .addParameter(chunk, "chunk", Modifier.FINAL)
        .addStatement(
            "group.parallelEachChunk(pool, (entities, from, to) -> visitEntityRun(chunk, entities,"
                + " from, to))")
        .build();
  }

  private static MethodSpec runCurrentEntitiesMethod() {
    return MethodSpec.methodBuilder("runCurrentEntities")
        .addModifiers(Modifier.PRIVATE)
        .addParameter(ArrayTypeName.of(TypeName.LONG), "entities", Modifier.FINAL)
        .addParameter(TypeName.INT, "from", Modifier.FINAL)
        .addParameter(TypeName.INT, "to", Modifier.FINAL)
        .addStatement("visitEntityRun(currentEntities, entities, from, to)")
        .build();
  }

  private static MethodSpec visitEntityRunMethod(final ClassName chunk, final List<Slot> slots) {
    if (marks(slots)) {
      return MethodSpec.methodBuilder("visitEntityRun")
          .addModifiers(Modifier.PRIVATE)
          .addParameter(chunk, "chunk", Modifier.FINAL)
          .addParameter(ArrayTypeName.of(TypeName.LONG), "entities", Modifier.FINAL)
          .addParameter(TypeName.INT, "from", Modifier.FINAL)
          .addParameter(TypeName.INT, "to", Modifier.FINAL)
          .addStatement("readEntityRun(chunk, entities, from, to)")
          .addCode(markChunk(slots))
          .build();
    }
    return readEntityRunBuilder("visitEntityRun", chunk, slots).build();
  }

  /** The entity run of a read-only pass: the visit, without stamping. */
  private static MethodSpec readEntityRunMethod(final ClassName chunk, final List<Slot> slots) {
    return readEntityRunBuilder("readEntityRun", chunk, slots).build();
  }

  private static MethodSpec.Builder readEntityRunBuilder(
      final String name, final ClassName chunk, final List<Slot> slots) {
    final List<CodeBlock> arguments = new ArrayList<>();
    arguments.add(CodeBlock.of("entities"));
    arguments.add(CodeBlock.of("from - offset"));
    arguments.addAll(runArguments(slots));
    return MethodSpec.methodBuilder(name)
        .addModifiers(Modifier.PRIVATE)
        .addParameter(chunk, "chunk", Modifier.FINAL)
        .addParameter(ArrayTypeName.of(TypeName.LONG), "entities", Modifier.FINAL)
        .addParameter(TypeName.INT, "from", Modifier.FINAL)
        .addParameter(TypeName.INT, "to", Modifier.FINAL)
        .addComment(
            "Positions index the entities; offsets index the pages: position = pageStart +"
                + " offset.")
        .addStatement("final int page = from >>> pageShift")
        .addStatement("final int offset = from & pageMask")
        .addStatement("chunk.visit($L)", CodeBlock.join(arguments, ", "));
  }

  /** The offsets and page arrays a run hands out, after the entity arguments if any. */
  private static List<CodeBlock> runArguments(final List<Slot> slots) {
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
    return arguments;
  }

  /**
   * Adds the parameters every run body takes, with their Javadoc: the entities, the pages' start,
   * the offsets, then the owned page arrays.
   */
  private static void addRunParameters(final MethodSpec.Builder visit, final List<Slot> slots) {
    visit
        .addParameter(ArrayTypeName.of(TypeName.LONG), "entities")
        .addParameter(TypeName.INT, "pageStart")
        .addParameter(TypeName.INT, "from")
        .addParameter(TypeName.INT, "to")
        .addJavadoc(
            "@param entities the group's entities by position (the packed array of an owned"
                + " storage, not\n"
                + "    a copy); read only, valid during the call\n")
        .addJavadoc(
            "@param pageStart the position of offset 0 of the pages: offset {@code i} is"
                + " position\n"
                + "    {@code pageStart + i}\n")
        .addJavadoc("@param from the first offset, inclusive\n")
        .addJavadoc("@param to the last offset, exclusive; {@code from < to}\n");
    for (final ParameterSpec array : chunkParameters(slots)) {
      visit
          .addParameter(array.type(), array.name())
          .addJavadoc("@param $L $L", array.name(), array.javadoc());
    }
  }

  private static TypeSpec entityChunkInterface(final QueryModel model, final List<Slot> slots) {
    final MethodSpec.Builder visit =
        MethodSpec.methodBuilder("visit")
            .addJavadoc(
                "Visits one run: the elements at offsets {@code [from, to)} of every array belong"
                    + " to the\n"
                    + "entities {@code entities[pageStart + from]} to {@code entities[pageStart +"
                    + " to - 1]}, in that order.\n\n")
            .addModifiers(Modifier.PUBLIC, Modifier.ABSTRACT);
    addRunParameters(visit, slots);
    return TypeSpec.interfaceBuilder("EntityChunk")
        .addJavadoc(
            "The body of {@link $T#eachChunk(EntityChunk)}: as {@link Chunk}, with the entities of"
                + " the run\n"
                + "first, so that the body can act on what it finds without a second pass:\n\n"
                + "<pre>{@code\n"
                + "query.eachChunk((entities, pageStart, from, to, ...) -> {\n"
                + "  for (int i = from; i < to; i++) {\n"
                + "    long entity = entities[pageStart + i];\n"
                + "  }\n"
                + "});\n"
                + "}</pre>\n",
            model.query())
        .addJavadoc(readOnlyArraysDoc(slots))
        .addModifiers(Modifier.PUBLIC)
        .addAnnotation(FunctionalInterface.class)
        .addMethod(visit.build())
        .build();
  }

  /**
   * Returns whether a chunk pass stamps the runs of {@code slot}: a tracked owned component with
   * fields that the query may write. One listed in {@code readOnly} is never stamped: the query
   * declares a read of it to the schedule, which may run it beside other readers of the same
   * storage, and a stamp writes the storage's change ticks (which those readers' {@code
   * eachChangedSince} reads); the body must not write its arrays anyway.
   */
  private static boolean stamped(final Slot slot) {
    return Role.OWNED == slot.role() && slot.fields() && slot.model().tracked() && !slot.readOnly();
  }

  /**
   * Returns whether a run stamps anything: an owned component with fields is tracked and not
   * read-only.
   */
  static boolean marks(final List<Slot> slots) {
    return slots.stream().anyMatch(OwningGroupQueryGenerator::stamped);
  }

  /** The names of the tracked owned components that chunk passes stamp, for Javadoc. */
  private static String trackedNames(final List<Slot> slots) {
    return slots.stream()
        .filter(OwningGroupQueryGenerator::stamped)
        .map(slot -> "{@code " + slot.model().component().simpleName() + "}")
        .collect(Collectors.joining(", "));
  }

  /** Stamps what a run handed out for writing, in every tracked owned storage not read-only. */
  private static CodeBlock markChunk(final List<Slot> slots) {
    final CodeBlock.Builder code = CodeBlock.builder();
    for (final Slot slot : slots) {
      if (stamped(slot)) {
        code.addStatement("$L.markWritten(from, to)", slot.storage());
      }
    }
    return code.build();
  }

  /**
   * The owned components with fields that the query only reads, as Javadoc code names separated by
   * commas, empty if none.
   */
  private static String readOnlyOwned(final List<Slot> slots) {
    return slots.stream()
        .filter(slot -> Role.OWNED == slot.role() && slot.fields() && slot.readOnly())
        .map(slot -> "{@code " + slot.model().component().simpleName() + "}")
        .collect(Collectors.joining(", "));
  }

  /**
   * The paragraph a chunk interface's Javadoc adds when some owned arrays are read-only, empty
   * otherwise.
   */
  private static CodeBlock readOnlyArraysDoc(final List<Slot> slots) {
    final String names = readOnlyOwned(slots);
    if (names.isEmpty()) {
      return CodeBlock.of("");
    }
    return CodeBlock.of(
        "\n<p>Read-only arrays: those of $L, which the query lists in {@code readOnly} (each"
            + " such parameter\n"
            + "says so). A body must only read them. Java cannot enforce that for arrays, as the"
            + " visitor's\n"
            + "read-only cursors do: a system using this query is scheduled as a reader of those"
            + " components,\n"
            + "beside other readers, so a write here would race with them; no pass stamps"
            + " their change ticks.\n",
        names);
  }

  private static TypeSpec chunkInterface(final QueryModel model, final List<Slot> slots) {
    final MethodSpec.Builder visit =
        MethodSpec.methodBuilder("visit")
            .addJavadoc(
                "Visits one run: the elements at offsets {@code [from, to)} of every array belong"
                    + " to the same\n"
                    + "entities, in the same order.\n\n")
            .addModifiers(Modifier.PUBLIC, Modifier.ABSTRACT)
            .addParameter(TypeName.INT, "from")
            .addParameter(TypeName.INT, "to")
            .addJavadoc("@param from the first offset, inclusive\n")
            .addJavadoc("@param to the last offset, exclusive; {@code from < to}\n");
    for (final ParameterSpec array : chunkParameters(slots)) {
      visit
          .addParameter(array.type(), array.name())
          .addJavadoc("@param $L $L", array.name(), array.javadoc());
    }
    final String owned =
        slots.stream()
            .filter(slot -> Role.OWNED == slot.role())
            .map(slot -> slot.model().component().simpleName())
            .collect(Collectors.joining(", "));
    return TypeSpec.interfaceBuilder("Chunk")
        .addJavadoc(
            "The body of {@link $T#eachChunk}: one call per run of contiguous positions, with the"
                + " page\n"
                + "arrays of every field of the owned components ($L) in declaration order. Write"
                + " it as a counted\n"
                + "loop, {@code for (int i = from; i < to; i++)}, over the arrays; the JIT can then"
                + " unroll and\n"
                + "vectorize it.\n\n"
                + "<p>Components the group gets but does not own are not passed: their elements are"
                + " not aligned\n"
                + "with the group's positions, so there is no array range to hand out; read them"
                + " per entity in\n"
                + "{@code each}. Tags add nothing.\n",
            model.query(),
            owned)
        .addJavadoc(readOnlyArraysDoc(slots))
        .addModifiers(Modifier.PUBLIC)
        .addAnnotation(FunctionalInterface.class)
        .addMethod(visit.build())
        .build();
  }
}
