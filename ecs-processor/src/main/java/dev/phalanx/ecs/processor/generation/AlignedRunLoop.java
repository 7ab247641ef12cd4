package dev.phalanx.ecs.processor.generation;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.TypeName;
import dev.phalanx.ecs.processor.base.RuntimeContract;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The aligned-run loop, written once: every form of it, in generated code and in the runtime, is
 * emitted by {@link #emit}. It walks a leading set from its last position down, one page of the
 * cursors' storages at a time. Where every storage with a cursor holds the page's entities at the
 * lead's positions and has the lead's page size, the cursors walk the page with no lookup (one
 * {@code moveToPage} per run, one {@code moveWithinPage} per entity); otherwise, and for the rest
 * of a run once a visitor has changed a storage's structure, each storage is tested per entity: one
 * read of its packed array at the lead's position, a sparse lookup only when that misses.
 *
 * <p>An optional term with fields ({@link OptionalWalk}) never decides whether a run is aligned: on
 * an aligned run, its cursor walks the run too if its storage holds the run's entities at the
 * lead's positions (asked of an alignment the query remembers across passes, so that a pass over
 * unchanged storages compares nothing), and is looked up per entity otherwise.
 *
 * <p>The forms:
 *
 * <ul>
 *   <li>a {@code @ViewQuery}'s {@code each} ({@link ViewQueryGenerator}), testing membership;
 *   <li>a non-owning {@code @GroupQuery}'s {@code each} ({@link NonOwningGroupQueryGenerator}),
 *       walking the group's members, with alignments remembered across passes;
 *   <li>the runtime's {@code View2} to {@code View4} {@code each} ({@link #typedView}): their
 *       bodies in {@code ecs-runtime} are this class's output, between {@code BEGIN GENERATED} and
 *       {@code END GENERATED} markers; {@code AlignedRunLoopSourcesTest} fails when they differ
 *       from it and rewrites them when run with {@code -Dphalanx.writeLoops=true} (then {@code
 *       spotless:apply}).
 * </ul>
 *
 * <h2>Why one generator and not one runtime kernel</h2>
 *
 * <p>The loop is specialised per arity and per query class, never shared at run time. One loop
 * method serving every arity through arrays of sets and cursors, or through overridable steps, was
 * measured at 2.5 to 3 times the specialised loops ({@code TypedView} has the figures): the JIT no
 * longer keeps the cursors, page arrays and offsets of a run in registers, a kernel that large is
 * compiled on its own rather than inlined into each caller (so its call sites' type profiles mix
 * every arity and every component type, the known slow mode of shared loops), and a loop over an
 * array of sets per entity is not unrolled. So each form gets its own copy, with every set, cursor,
 * stamp and position in a local, a page-run inner loop over a local bound ({@code offset} down to
 * 0), no varargs, boxing or streams, and one megamorphic call per entity (the visitor). The copies
 * differ only in what this class's {@link Form} says; the one place to change the algorithm is
 * here.
 */
final class AlignedRunLoop {

  private AlignedRunLoop() {}

  /**
   * A storage the loop reaches by position through a cursor, with the names of its locals.
   *
   * @param set the expression of the storage (a local or field)
   * @param cursor the local holding its cursor
   * @param paged the local telling whether the storage has the run's page size
   * @param stamp the local holding its structure stamp during an aligned run
   * @param index the local holding the entity's position in it, off an aligned run
   */
  record Walk(String set, String cursor, String paged, String stamp, String index) {}

  /**
   * An optional term's storage with a cursor: on an aligned run where it too holds the run's
   * entities at the lead's positions (and has the lead's page size), its cursor walks the run as a
   * {@link Walk}'s does and the visitor gets it with no lookup; on the other runs, and off aligned
   * runs, {@code lookUp} places it on the entity's element, or gives {@code null}. Whether it holds
   * a run is always asked of the query's {@code Query.Alignment} field for it ({@link
   * #alignmentField}), in every form.
   *
   * @param walk the names of its storage, cursor and locals ({@code index} unused)
   * @param aligned the local telling whether it holds the current run
   * @param found the local the visit reads: the placed cursor, or {@code null}
   * @param type the type of its cursor
   * @param lookUp the expression looking it up for {@code entity} at {@code position}
   */
  record OptionalWalk(Walk walk, String aligned, String found, TypeName type, CodeBlock lookUp) {}

  /**
   * One membership test per entity, in the order they run: the position test of a {@link Walk} (off
   * an aligned run only), or a condition under which the entity is skipped (on and off).
   *
   * @param walk the walked storage, or {@code null}
   * @param skip the condition, or {@code null}
   */
  record Check(Walk walk, CodeBlock skip) {
    static Check walk(final Walk walk) {
      return new Check(walk, null);
    }

    static Check skip(final CodeBlock skip) {
      return new Check(null, skip);
    }
  }

  /**
   * What distinguishes one form of the loop from another; the statements are the same.
   *
   * @param checks the membership tests, in order
   * @param optionals the optional terms with cursors, walked on the runs they hold
   * @param pageShift the expression of the run length's {@code log2}
   * @param paged whether a walked storage has that page size
   * @param helpers whether the set and cursor members are called through {@code Query}'s static
   *     helpers (generated code, outside the runtime's package) rather than directly (the runtime;
   *     a cursor call then has a call site, and a type profile, of its own in each loop)
   * @param leadWalked whether the lead is always one of the walked storages, so that their stamps
   *     cover its own
   * @param remembered whether a run's alignment with the walked storages is asked of the query's
   *     {@code Query.Alignment} fields rather than compared (an optional term's always is)
   * @param testMembership whether a walked storage may lack the entity (a view), rather than hold
   *     every member of the lead (a non-owning group)
   * @param place the format that points a cursor ({@code $L}) at a position ({@code $L})
   * @param filter the visitor-independent condition of a visit, empty for none
   * @param visit the visitor call, reading each optional walk's {@code found} local
   * @param guard whether to begin and end the lead's iteration guard around the loop (else the
   *     caller does)
   */
  record Form(
      List<Check> checks,
      List<OptionalWalk> optionals,
      CodeBlock pageShift,
      Function<Walk, CodeBlock> paged,
      boolean helpers,
      boolean leadWalked,
      boolean remembered,
      boolean testMembership,
      String place,
      CodeBlock filter,
      CodeBlock visit,
      boolean guard) {

    List<Walk> walks() {
      final List<Walk> walks = new ArrayList<>();
      for (final Check check : checks) {
        if (null != check.walk()) {
          walks.add(check.walk());
        }
      }
      return walks;
    }

    /** A call of a set's or cursor's loop member: {@code Query.name(target, args)} or direct. */
    CodeBlock call(final String name, final String target, final String arguments) {
      if (helpers) {
        return CodeBlock.of(
            "$T.$L($L$L)",
            RuntimeContract.QUERY,
            name,
            target,
            arguments.isEmpty() ? "" : ", " + arguments);
      }
      return CodeBlock.of("$L.$L($L)", target, name, arguments);
    }
  }

  /**
   * Emits the loop over the local {@code lead} (declared by the caller), from the {@code stable}
   * local down to the loop's end: the locals it needs, then the page runs.
   *
   * @param method the method to add the statements to
   * @param form the form of the loop
   */
  static void emit(final MethodSpec.Builder method, final Form form) {
    final List<Walk> walks = form.walks();
    setUp(method, form, walks);
    if ((form.remembered() && !walks.isEmpty()) || !form.optionals().isEmpty()) {
      refreshAlignments(method, form, walks);
    }
    beginLoop(method, form);
    alignedRun(method, form, walks);
    entityByEntity(method, form, walks);
    endLoop(method, form);
  }

  /**
   * Writes the locals before the loop: whether deletions leave tombstones, the run length's {@code
   * log2}, and whether each walked storage, then every one, has that page size.
   */
  private static void setUp(
      final MethodSpec.Builder method, final Form form, final List<Walk> walks) {
    method
        .addStatement(
            "final boolean stable = $T.IN_PLACE == lead.policy()", RuntimeContract.DELETION_POLICY)
        .addComment(
            "Runs of one page. When every storage with a cursor holds the run's entities at the"
                + " lead's")
        .addComment(
            "positions (storages filled in the same order) and has the same page size, the"
                + " cursors walk")
        .addComment(
            "the run with no lookup, one page each: the JIT then reads the page arrays once per"
                + " run.")
        .addComment(
            "Otherwise, and once a visitor has moved, removed or added an element of one of them,"
                + " each")
        .addComment("storage is tested per entity.")
        .addStatement("final int pageShift = $L", form.pageShift());
    final List<CodeBlock> paged = new ArrayList<>();
    for (final Walk walk : walks) {
      method.addStatement("final boolean $L = $L", walk.paged(), form.paged().apply(walk));
      paged.add(CodeBlock.of("$L", walk.paged()));
    }
    method.addStatement(
        "final boolean paged$$ = $L",
        paged.isEmpty() ? CodeBlock.of("true") : CodeBlock.join(paged, " && "));
    for (final OptionalWalk optional : form.optionals()) {
      method.addStatement(
          "final boolean $L = $L", optional.walk().paged(), form.paged().apply(optional.walk()));
    }
  }

  /**
   * Writes the update, before the loop, of the alignments kept across passes: a remembered loop's,
   * and every optional term's.
   */
  private static void refreshAlignments(
      final MethodSpec.Builder method, final Form form, final List<Walk> walks) {
    method
        .addComment(
            "How far each storage agrees with the lead, kept from the last pass: compares only"
                + " what was")
        .addComment("appended since, unless a set changed (then everything, once).")
        .beginControlFlow("if (paged$$)");
    if (form.remembered()) {
      for (final Walk walk : walks) {
        method.addStatement("this.$L.refresh(lead)", alignmentField(walk));
      }
    }
    for (final OptionalWalk optional : form.optionals()) {
      method
          .beginControlFlow("if ($L)", optional.walk().paged())
          .addStatement("this.$L.refresh(lead)", alignmentField(optional.walk()))
          .endControlFlow();
    }
    method.endControlFlow();
  }

  /**
   * The statements that end an entity's step, on and off an aligned run: skip it unless the filter
   * holds, place each optional term's cursor (on a run that its storage holds, within the page;
   * else by its lookup), record the position the lead's iteration visits, call the visitor.
   */
  private static CodeBlock visitAndFilter(final Form form, final boolean onRun) {
    final CodeBlock.Builder body = CodeBlock.builder();
    if (!form.filter().isEmpty()) {
      body.beginControlFlow("if (!($L))", form.filter()).addStatement("continue").endControlFlow();
    }
    for (final OptionalWalk optional : form.optionals()) {
      if (onRun) {
        body.addStatement("final $T $L", optional.type(), optional.found())
            .beginControlFlow("if ($L)", optional.aligned())
            .addStatement(form.call("moveWithinPage", optional.walk().cursor(), "offset"))
            .addStatement("$L = $L", optional.found(), optional.walk().cursor())
            .nextControlFlow("else")
            .addStatement("$L = $L", optional.found(), optional.lookUp())
            .endControlFlow();
      } else {
        body.addStatement("final $T $L = $L", optional.type(), optional.found(), optional.lookUp());
      }
    }
    return body.addStatement(form.call("visit", "lead", "position"))
        .addStatement(form.visit())
        .build();
  }

  /**
   * Writes the opening of the loop: the iteration guard's {@code try} if the form has one, then the
   * loop over pages with the page, its first position and the offset of {@code from} in it.
   */
  private static void beginLoop(final MethodSpec.Builder method, final Form form) {
    if (form.guard()) {
      method.addStatement("$T.beginIteration(lead)", RuntimeContract.QUERY).beginControlFlow("try");
    }
    method
        .beginControlFlow("for (int from = lead.size() - 1; from >= 0; )")
        .addStatement("final int page = from >>> pageShift")
        .addStatement("final int pageStart = page << pageShift")
        .addStatement("int offset = from - pageStart");
  }

  /**
   * Writes the aligned run: if every walked storage is paged and aligned with the lead on the page,
   * the cursors move to the page once and within it per entity, until a storage's structure
   * changes. So does the cursor of each optional term whose storage is paged and aligned with the
   * lead on the run; the others are looked up per entity.
   */
  private static void alignedRun(
      final MethodSpec.Builder method, final Form form, final List<Walk> walks) {
    final List<CodeBlock> runTest = new ArrayList<>();
    runTest.add(CodeBlock.of("paged$$"));
    for (final Walk walk : walks) {
      runTest.add(alignment(form, walk));
    }
    method.beginControlFlow("if ($L)", CodeBlock.join(runTest, "\n    && "));
    if (!form.leadWalked()) {
      method.addStatement("final long leadStamp$$ = $L", form.call("structureStamp", "lead", ""));
    }
    for (final Walk walk : walks) {
      method.addStatement(
          "final long $L = $L", walk.stamp(), form.call("structureStamp", walk.set(), ""));
    }
    if (!form.optionals().isEmpty()) {
      method
          .addComment("An optional term's cursor walks the run too where its storage holds the")
          .addComment("run's entities at the lead's positions; else it is looked up per entity.");
    }
    for (final OptionalWalk optional : form.optionals()) {
      final Walk walk = optional.walk();
      method
          .addStatement(
              "final boolean $L = $L && $L", optional.aligned(), walk.paged(), remembered(walk))
          .addStatement(
              "final long $L = $L", walk.stamp(), form.call("structureStamp", walk.set(), ""));
    }
    for (final Walk walk : walks) {
      method.addStatement(form.call("moveToPage", walk.cursor(), "page"));
    }
    for (final OptionalWalk optional : form.optionals()) {
      method
          .beginControlFlow("if ($L)", optional.aligned())
          .addStatement(form.call("moveToPage", optional.walk().cursor(), "page"))
          .endControlFlow();
    }
    method
        .beginControlFlow("for (; offset >= 0; offset--)")
        .addStatement("final int position = pageStart + offset")
        .addCode(entityAndMembership(form, false));
    for (final Walk walk : walks) {
      method.addStatement(form.call("moveWithinPage", walk.cursor(), "offset"));
    }
    method
        .addCode(visitAndFilter(form, true))
        .beginControlFlow("if ($L)", structureChanged(form, walks))
        .addComment("The run may no longer be aligned: test each storage for the rest of it.")
        .addStatement("offset--")
        .addStatement("break")
        .endControlFlow()
        .endControlFlow()
        .endControlFlow();
  }

  /**
   * The condition under which a walked storage holds the run's entities at the lead's positions:
   * asked of its remembered alignment, or compared.
   */
  private static CodeBlock alignment(final Form form, final Walk walk) {
    return form.remembered()
        ? remembered(walk)
        : form.helpers()
            ? CodeBlock.of(
                "$T.samePositions(lead, $L, pageStart, from + 1)",
                RuntimeContract.QUERY,
                walk.set())
            : CodeBlock.of("lead.samePositions($L, pageStart, from + 1)", walk.set());
  }

  /**
   * The condition under which a storage holds the run's entities at the lead's positions, asked of
   * the alignment the query remembers for it.
   */
  private static CodeBlock remembered(final Walk walk) {
    return CodeBlock.of("$L.holds(pageStart, from + 1)", alignmentField(walk));
  }

  /**
   * The condition that ends an aligned run: the structure stamp of the lead (unless a walked
   * storage's covers it), of a walked storage, or of an optional term's storage walked on the run
   * differs from the one read at the run's start.
   */
  private static CodeBlock structureChanged(final Form form, final List<Walk> walks) {
    final List<CodeBlock> changed = new ArrayList<>();
    if (!form.leadWalked()) {
      changed.add(CodeBlock.of("$L != leadStamp$$", form.call("structureStamp", "lead", "")));
    }
    for (final Walk walk : walks) {
      changed.add(
          CodeBlock.of("$L != $L", form.call("structureStamp", walk.set(), ""), walk.stamp()));
    }
    for (final OptionalWalk optional : form.optionals()) {
      final Walk walk = optional.walk();
      changed.add(
          CodeBlock.of(
              "($L && $L != $L)",
              optional.aligned(),
              form.call("structureStamp", walk.set(), ""),
              walk.stamp()));
    }
    return CodeBlock.join(changed, "\n    || ");
  }

  /**
   * Writes the per-entity fallback for the rest of the page: each walked storage tested, and its
   * cursor moved within the page where it agrees with the lead, else placed by its position.
   */
  private static void entityByEntity(
      final MethodSpec.Builder method, final Form form, final List<Walk> walks) {
    method
        .beginControlFlow("for (; offset >= 0; offset--)")
        .addStatement("final int position = pageStart + offset")
        .addCode(entityAndMembership(form, true));
    for (final Walk walk : walks) {
      method
          .beginControlFlow("if ($L == position && $L)", walk.index(), walk.paged())
          .addStatement(form.call("moveToElement", walk.cursor(), "page, offset"))
          .nextControlFlow("else")
          .addStatement(form.place(), walk.cursor(), walk.index())
          .endControlFlow();
    }
    method.addCode(visitAndFilter(form, false)).endControlFlow();
  }

  /**
   * Writes the end of the loop: the step to the previous page, then the end of the iteration
   * guard's {@code try} if the form has one.
   */
  private static void endLoop(final MethodSpec.Builder method, final Form form) {
    method.addStatement("from = pageStart - 1");
    method.endControlFlow();
    if (form.guard()) {
      method
          .nextControlFlow("finally")
          .addStatement("$T.endIteration(lead)", RuntimeContract.QUERY)
          .endControlFlow();
    }
  }

  /**
   * The statements that read the entity at {@code position} and skip it unless it is a member; off
   * an aligned run ({@code test}), each walked storage is also tested (by position, else by lookup)
   * and its position kept in a local.
   */
  private static CodeBlock entityAndMembership(final Form form, final boolean test) {
    final CodeBlock.Builder body =
        CodeBlock.builder()
            .add(
                "// Read the array again: the visitor may have grown it (appended elements are not"
                    + " visited).\n")
            .addStatement("final long entity = lead.packed()[position]")
            .beginControlFlow("if (stable && $T.isTombstone(entity))", RuntimeContract.ENTITY)
            .addStatement("continue")
            .endControlFlow();
    for (final Check check : form.checks()) {
      final Walk walk = check.walk();
      if (null == walk) {
        body.beginControlFlow("if ($L)", check.skip()).addStatement("continue").endControlFlow();
      } else if (test && form.testMembership()) {
        body.addStatement(
                "final int $L = lead == $L || $L ? position : $L.indexOf(entity)",
                walk.index(),
                walk.set(),
                form.call("holdsAt", walk.set(), "position, entity"),
                walk.set())
            .beginControlFlow("if ($L < 0)", walk.index())
            .addStatement("continue")
            .endControlFlow();
      } else if (test) {
        body.addStatement(
            "final int $L = $L ? position : $L.index(entity)",
            walk.index(),
            form.call("holdsAt", walk.set(), "position, entity"),
            walk.set());
      }
    }
    return body.build();
  }

  /**
   * The name of the query's {@code Query.Alignment} field for a walked storage, which a remembered
   * loop asks, or for an optional term's, which every loop asks.
   *
   * @param walk the walked storage
   * @return the field name
   */
  static String alignmentField(final Walk walk) {
    return walk.cursor() + "Alignment$";
  }

  /**
   * The body of the runtime's {@code View<arity>.each(Visitor)}, in the runtime's package (simple
   * class names): locals for the view's cursors and sets, the guard of {@code TypedView}, and the
   * loop, each set reached directly (not through {@code Query}) and each cursor moved by a call
   * site of its own.
   *
   * @param arity the number of included sets and cursors, 2 to 4
   * @return the statements of the body, as source text
   */
  static String typedView(final int arity) {
    final MethodSpec.Builder method = MethodSpec.methodBuilder("each");
    final List<Check> checks = new ArrayList<>();
    for (int n = 1; n <= arity; n++) {
      method.addStatement("final K$L cursor$L = this.cursor$L", n, n, n);
    }
    for (int n = 1; n <= arity; n++) {
      method.addStatement("final $T set$L = include[$L]", RuntimeContract.SPARSE_SET, n, n - 1);
      checks.add(Check.walk(new Walk("set" + n, "cursor" + n, "paged" + n, "stamp" + n, "at" + n)));
    }
    checks.add(Check.skip(CodeBlock.of("excluded(entity)")));
    final List<CodeBlock> arguments = new ArrayList<>();
    arguments.add(CodeBlock.of("entity"));
    for (int n = 1; n <= arity; n++) {
      arguments.add(CodeBlock.of("cursor$L", n));
    }
    method
        .addStatement("final $T lead = begin()", RuntimeContract.SPARSE_SET)
        .beginControlFlow("try")
        .addComment(
            "The leader is one of the included sets, all cursor storages: a run is one of its"
                + " pages,")
        .addComment("and the sets' stamps cover its own.");
    emit(
        method,
        new Form(
            checks,
            List.of(),
            CodeBlock.of("(($T<?>) lead).pageShift()", RuntimeContract.STORAGE),
            walk -> CodeBlock.of("$L.pageShift == pageShift", walk.cursor()),
            false,
            true,
            false,
            true,
            "$L.point($L)",
            CodeBlock.of(""),
            CodeBlock.of("visitor.visit($L)", CodeBlock.join(arguments, ", ")),
            false));
    method.nextControlFlow("finally").addStatement("end(lead)").endControlFlow();
    return method
        .build()
        .code()
        .toString()
        .replace(RuntimeContract.SPARSE_SET.packageName() + ".", "");
  }

  /**
   * The runtime class whose {@code each} {@link #typedView} writes, for the check of its source.
   */
  static ClassName typedViewClass(final int arity) {
    return ClassName.get(RuntimeContract.SPARSE_SET.packageName(), "View" + arity);
  }
}
