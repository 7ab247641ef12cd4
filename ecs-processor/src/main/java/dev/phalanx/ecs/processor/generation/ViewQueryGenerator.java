package dev.phalanx.ecs.processor.generation;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.TypeName;
import dev.phalanx.ecs.processor.base.RuntimeContract;
import dev.phalanx.ecs.processor.model.QueryModel;
import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.Modifier;
import javax.lang.model.util.Elements;

/**
 * Generates the query of a {@code @ViewQuery}: it walks the view's leading storage and tests each
 * entity with one lookup per other listed component, which also places that component's cursor.
 */
public final class ViewQueryGenerator extends QueryFileGenerator {

  /**
   * Creates the generator.
   *
   * @param elements the compiler's element utilities, to find out whether {@code @Generated} exists
   */
  public ViewQueryGenerator(final Elements elements) {
    super(elements);
  }

  @Override
  QueryModel.Kind kind() {
    return QueryModel.Kind.VIEW;
  }

  @Override
  ClassName container() {
    return RuntimeContract.VIEW;
  }

  @Override
  String containerName() {
    return "view";
  }

  @Override
  CodeBlock createContainer(final List<Slot> slots) {
    return CodeBlock.of(
        "registry.view(\n$L,\n$L)", types(slots, Role.GET), types(slots, Role.EXCLUDE));
  }

  @Override
  CodeBlock summary(final QueryModel model, final List<Slot> slots) {
    return CodeBlock.of(
        "The view declared by {@code $L}: included $L, excluded $L.\n",
        model.element().getQualifiedName(),
        list(slots, Role.GET),
        list(slots, Role.EXCLUDE));
  }

  @Override
  String costs() {
    return "  <li>{@code each}: O(n * k) over the smallest included storage, k the number of"
        + " listed\n"
        + "      components; no allocation.\n"
        + "  <li>Profile pollution: {@code each} runs each visitor class in a copy of its loop"
        + " of its own\n"
        + "      (the first eight classes that go through this query class), so that the call"
        + " of the\n"
        + "      visitor is inlined; further classes share one copy, where the call is"
        + " megamorphic.\n";
  }

  @Override
  MethodSpec sizeMethod() {
    return MethodSpec.methodBuilder("sizeHint")
        .addJavadoc(
            "Returns an upper bound of the number of entities: the size of the smallest included"
                + " storage.\n\n"
                + "@return the upper bound\n")
        .addModifiers(Modifier.PUBLIC)
        .returns(TypeName.INT)
        .addStatement("return view.sizeHint()")
        .build();
  }

  @Override
  void eachLoop(final MethodSpec.Builder method, final List<Slot> slots, final CodeBlock filter) {
    method.addStatement("final $T lead = view.leader()", RuntimeContract.SPARSE_SET);
    alignedRunLoop(method, slots, filter, true, false);
  }

  /**
   * Emits a per-entity loop over the local {@code lead} (declared by the caller) in runs of one
   * page of the cursors' storages. When every storage with a cursor holds the run's entities at the
   * lead's positions and has the first one's page size, the cursors walk the run with no lookup;
   * otherwise, and once a visitor has moved, removed or added an element of one of them, each
   * storage is tested per entity. With {@code testMembership}, the entity must also be in every
   * included storage and in no excluded one (a view); without, the lead holds exactly the entities
   * to visit (a non-owning group's members). With {@code remembered}, whether a run is aligned is
   * asked of the query's {@link #alignmentField alignment} fields (refreshed once per pass: O(1)
   * per run while no set changed) instead of comparing each run's packed arrays on every pass.
   */
  static void alignedRunLoop(
      final MethodSpec.Builder method,
      final List<Slot> slots,
      final CodeBlock filter,
      final boolean testMembership,
      final boolean remembered) {
    final List<Slot> cursors = slots.stream().filter(s -> s.included() && s.fields()).toList();
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
        .addStatement(
            "final int pageShift = $L",
            cursors.isEmpty()
                ? CodeBlock.of("31")
                : CodeBlock.of("$L.pageShift()", cursors.get(0).storage()));
    final List<CodeBlock> paged = new ArrayList<>();
    final List<CodeBlock> aligned = new ArrayList<>();
    final List<CodeBlock> changed = new ArrayList<>();
    changed.add(CodeBlock.of("$T.structureStamp(lead) != leadStamp$$", RuntimeContract.QUERY));
    for (final Slot slot : cursors) {
      method.addStatement(
          "final boolean $L = $L.pageShift() == pageShift", pagedLocal(slot), slot.storage());
      paged.add(CodeBlock.of("$L", pagedLocal(slot)));
      aligned.add(
          remembered
              ? CodeBlock.of("$L.holds(pageStart, from + 1)", alignmentField(slot))
              : CodeBlock.of(
                  "$T.samePositions(lead, $L, pageStart, from + 1)",
                  RuntimeContract.QUERY,
                  slot.storage()));
      changed.add(
          CodeBlock.of(
              "$T.structureStamp($L) != $L",
              RuntimeContract.QUERY,
              slot.storage(),
              stampLocal(slot)));
    }
    method.addStatement(
        "final boolean paged$$ = $L",
        paged.isEmpty() ? CodeBlock.of("true") : CodeBlock.join(paged, " && "));
    if (remembered && !cursors.isEmpty()) {
      method
          .addComment(
              "How far each storage agrees with the lead, kept from the last pass: compares only"
                  + " what was")
          .addComment("appended since, unless a set changed (then everything, once).")
          .beginControlFlow("if (paged$$)");
      for (final Slot slot : cursors) {
        method.addStatement("this.$L.refresh(lead)", alignmentField(slot));
      }
      method.endControlFlow();
    }
    final CodeBlock visitAndFilter =
        CodeBlock.builder()
            .add(
                filter.isEmpty()
                    ? CodeBlock.of("")
                    : CodeBlock.builder()
                        .beginControlFlow("if (!($L))", filter)
                        .addStatement("continue")
                        .endControlFlow()
                        .build())
            .addStatement("$T.visit(lead, position)", RuntimeContract.QUERY)
            .addStatement(visitCall(slots))
            .build();

    method
        .addStatement("$T.beginIteration(lead)", RuntimeContract.QUERY)
        .beginControlFlow("try")
        .beginControlFlow("for (int from = lead.size() - 1; from >= 0; )")
        .addStatement("final int page = from >>> pageShift")
        .addStatement("final int pageStart = page << pageShift")
        .addStatement("int offset = from - pageStart");
    // The aligned run.
    final List<CodeBlock> runTest = new ArrayList<>();
    runTest.add(CodeBlock.of("paged$$"));
    runTest.addAll(aligned);
    method.beginControlFlow("if ($L)", CodeBlock.join(runTest, "\n    && "));
    method.addStatement("final long leadStamp$$ = $T.structureStamp(lead)", RuntimeContract.QUERY);
    for (final Slot slot : cursors) {
      method.addStatement(
          "final long $L = $T.structureStamp($L)",
          stampLocal(slot),
          RuntimeContract.QUERY,
          slot.storage());
    }
    for (final Slot slot : cursors) {
      method.addStatement("$T.moveToPage($L, page)", RuntimeContract.QUERY, slot.cursor());
    }
    method
        .beginControlFlow("for (; offset >= 0; offset--)")
        .addStatement("final int position = pageStart + offset")
        .addCode(entityAndMembership(slots, false, testMembership));
    for (final Slot slot : cursors) {
      method.addStatement("$T.moveWithinPage($L, offset)", RuntimeContract.QUERY, slot.cursor());
    }
    method
        .addCode(visitAndFilter)
        .beginControlFlow("if ($L)", CodeBlock.join(changed, "\n    || "))
        .addComment("The run may no longer be aligned: test each storage for the rest of it.")
        .addStatement("offset--")
        .addStatement("break")
        .endControlFlow()
        .endControlFlow()
        .endControlFlow();
    // The rest of the run, entity by entity.
    method
        .beginControlFlow("for (; offset >= 0; offset--)")
        .addStatement("final int position = pageStart + offset")
        .addCode(entityAndMembership(slots, true, testMembership));
    for (final Slot slot : cursors) {
      method
          .beginControlFlow("if ($L == position && $L)", indexLocal(slot), pagedLocal(slot))
          .addStatement("$T.moveToElement($L, page, offset)", RuntimeContract.QUERY, slot.cursor())
          .nextControlFlow("else")
          .addStatement("$L.moveTo($L)", slot.cursor(), indexLocal(slot))
          .endControlFlow();
    }
    method
        .addCode(visitAndFilter)
        .endControlFlow()
        .addStatement("from = pageStart - 1")
        .endControlFlow()
        .nextControlFlow("finally")
        .addStatement("$T.endIteration(lead)", RuntimeContract.QUERY)
        .endControlFlow();
  }

  /**
   * The statements that read the entity at {@code position} and skip it unless it is a member; with
   * {@code test}, each storage with a cursor is also tested (by position, else by lookup) and its
   * position kept in a local.
   */
  private static CodeBlock entityAndMembership(
      final List<Slot> slots, final boolean test, final boolean testMembership) {
    final CodeBlock.Builder body =
        CodeBlock.builder()
            .add(
                "// Read the array again: the visitor may have grown it (appended elements are not"
                    + " visited).\n")
            .addStatement("final long entity = lead.packed()[position]")
            .beginControlFlow("if (stable && $T.isTombstone(entity))", RuntimeContract.ENTITY)
            .addStatement("continue")
            .endControlFlow();
    for (final Slot slot : slots) {
      if (slot.included() && slot.fields()) {
        if (test && testMembership) {
          body.addStatement(
                  "final int $L = lead == $L || $T.holdsAt($L, position, entity) ? position :"
                      + " $L.indexOf(entity)",
                  indexLocal(slot),
                  slot.storage(),
                  RuntimeContract.QUERY,
                  slot.storage(),
                  slot.storage())
              .beginControlFlow("if ($L < 0)", indexLocal(slot))
              .addStatement("continue")
              .endControlFlow();
        } else if (test) {
          body.addStatement(
              "final int $L = $T.holdsAt($L, position, entity) ? position : $L.index(entity)",
              indexLocal(slot),
              RuntimeContract.QUERY,
              slot.storage(),
              slot.storage());
        }
      } else if (testMembership && slot.included()) {
        body.beginControlFlow(
                "if (lead != $L && !$L.contains(entity))", slot.storage(), slot.storage())
            .addStatement("continue")
            .endControlFlow();
      } else if (testMembership) {
        body.beginControlFlow("if ($L.contains(entity))", slot.storage())
            .addStatement("continue")
            .endControlFlow();
      }
    }
    return body.build();
  }

  /** The local holding a storage's structure stamp at the start of an aligned run. */
  /**
   * The name of the query's {@code Query.Alignment} field for {@code slot}'s storage, which a
   * remembered aligned-run loop asks.
   */
  static String alignmentField(final Slot slot) {
    return slot.cursor() + "Alignment$";
  }

  private static String stampLocal(final Slot slot) {
    return slot.cursor() + "Stamp$";
  }

  /** The local telling whether a slot's storage has the leader's page size. */
  private static String pagedLocal(final Slot slot) {
    return slot.cursor() + "Paged$";
  }

  /**
   * The local holding a slot's position in a view loop; the {@code $} keeps it clear of user names.
   */
  private static String indexLocal(final Slot slot) {
    return slot.cursor() + "Index$";
  }
}
