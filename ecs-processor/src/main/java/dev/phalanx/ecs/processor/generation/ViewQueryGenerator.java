package dev.phalanx.ecs.processor.generation;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import dev.phalanx.ecs.processor.base.RuntimeContract;
import dev.phalanx.ecs.processor.model.QueryModel;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import javax.lang.model.element.Modifier;
import javax.lang.model.util.Elements;

/**
 * Generates the query of a {@code @ViewQuery}: it walks the view's leading storage and tests each
 * entity with one lookup per other listed component, which also places that component's cursor,
 * except on the page runs where a storage holds the leader's entities at the same positions: its
 * cursor then walks the run.
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
  void addOwnMembers(
      final TypeSpec.Builder type,
      final MethodSpec.Builder constructor,
      final QueryModel model,
      final List<Slot> slots) {
    // The optional terms' alignments only: the included ones are compared on each pass.
    addAlignments(type, constructor, slots, slot -> slot.optional() && slot.fields());
  }

  /**
   * Adds a {@code Query.Alignment} field ({@link #alignmentField}) for each of the {@code slots}
   * that {@code kept} selects, made in the constructor: how far the slot's storage holds the loop's
   * lead at its positions, remembered from one pass of the aligned-run loop to the next.
   */
  static void addAlignments(
      final TypeSpec.Builder type,
      final MethodSpec.Builder constructor,
      final List<Slot> slots,
      final Predicate<Slot> kept) {
    for (final Slot slot : slots) {
      if (kept.test(slot)) {
        final String field = alignmentField(slot);
        type.addField(
            FieldSpec.builder(RuntimeContract.ALIGNMENT, field, Modifier.PRIVATE, Modifier.FINAL)
                .addJavadoc(
                    "How far {@code $L} holds the loop's lead at its positions, kept across passes"
                        + " of\n"
                        + "{@code each}: a pass compares only the positions appended since the last"
                        + " one, unless the\n"
                        + "lead or the storage changed otherwise (a move, removal or filled hole,"
                        + " or another lead),\n"
                        + "which compares them all once.\n",
                    slot.storage())
                .build());
        constructor.addStatement(
            "this.$L = new $T($L)", field, RuntimeContract.ALIGNMENT, slot.storage());
      }
    }
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
   * Emits the aligned-run loop ({@link AlignedRunLoop}) over the local {@code lead} (declared by
   * the caller), its cursors being those of the included components with fields: the runs are pages
   * of the first one's storage (of the first optional one's, if none). With {@code testMembership},
   * the entity must also be in every included storage and in no excluded one (a view); without, the
   * lead holds exactly the entities to visit (a non-owning group's members). With {@code
   * remembered}, whether a run is aligned is asked of the query's {@link #alignmentField alignment}
   * fields (refreshed once per pass: O(1) per run while no set changed) instead of comparing each
   * run's packed arrays on every pass. The cursor of an optional component with fields walks each
   * aligned run its storage holds, which is always asked of its alignment field; the other optional
   * components are looked up per entity.
   */
  static void alignedRunLoop(
      final MethodSpec.Builder method,
      final List<Slot> slots,
      final CodeBlock filter,
      final boolean testMembership,
      final boolean remembered) {
    final List<AlignedRunLoop.Check> checks = new ArrayList<>();
    final List<AlignedRunLoop.OptionalWalk> optionals = new ArrayList<>();
    // The runs are pages of the first included component with fields, else of the first optional
    // one (the slots list included components first).
    Slot first = null;
    for (final Slot slot : slots) {
      first = null == first && slot.hasCursor() ? slot : first;
      if (slot.included() && slot.fields()) {
        checks.add(AlignedRunLoop.Check.walk(walk(slot)));
      } else if (slot.optional() && slot.fields()) {
        // A local, as the included cursors are: the loop reads no field per entity.
        method.addStatement(
            "final $T $L = this.$L", slot.model().cursor(), slot.cursor(), slot.cursor());
        optionals.add(
            new AlignedRunLoop.OptionalWalk(
                walk(slot),
                slot.cursor() + "Aligned$",
                found(slot),
                slot.model().cursor(),
                lookUp(slot)));
      } else if (testMembership && slot.included()) {
        checks.add(
            AlignedRunLoop.Check.skip(
                CodeBlock.of(
                    "lead != $L && !$L.contains(entity)", slot.storage(), slot.storage())));
      } else if (testMembership && slot.excluded()) {
        checks.add(AlignedRunLoop.Check.skip(CodeBlock.of("$L.contains(entity)", slot.storage())));
      }
    }
    AlignedRunLoop.emit(
        method,
        new AlignedRunLoop.Form(
            checks,
            optionals,
            null == first ? CodeBlock.of("31") : CodeBlock.of("$L.pageShift()", first.storage()),
            walk -> CodeBlock.of("$L.pageShift() == pageShift", walk.set()),
            true,
            false,
            remembered,
            testMembership,
            "$L.moveTo($L)",
            filter,
            visitCall(
                slots, slot -> slot.fields() ? CodeBlock.of("$L", found(slot)) : lookUp(slot)),
            true));
  }

  /** The names of {@code slot}'s storage, cursor and loop locals, for an aligned-run loop. */
  private static AlignedRunLoop.Walk walk(final Slot slot) {
    return new AlignedRunLoop.Walk(
        slot.storage(),
        slot.cursor(),
        slot.cursor() + "Paged$",
        slot.cursor() + "Stamp$",
        slot.cursor() + "Index$");
  }

  /** The call of an optional {@code slot}'s lookup for the entity at the lead's position. */
  private static CodeBlock lookUp(final Slot slot) {
    return CodeBlock.of("$L(entity, position)", slot.lookUp());
  }

  /**
   * The local an aligned-run loop hands the visitor for an optional {@code slot} with fields: its
   * cursor placed on the entity's element, or {@code null}.
   */
  private static String found(final Slot slot) {
    return slot.cursor() + "OrNull$";
  }

  /**
   * The name of the query's {@code Query.Alignment} field for {@code slot}'s storage, which a
   * remembered aligned-run loop asks, and every loop for an optional component.
   */
  static String alignmentField(final Slot slot) {
    return slot.cursor() + "Alignment$";
  }
}
