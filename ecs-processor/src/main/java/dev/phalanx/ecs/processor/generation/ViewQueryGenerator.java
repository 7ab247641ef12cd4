package dev.phalanx.ecs.processor.generation;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.TypeName;
import dev.phalanx.ecs.processor.model.QueryModel;
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
    method
        .addStatement("final $T lead = view.leader()", RuntimeContract.SPARSE_SET)
        .addStatement(
            "final boolean stable = $T.IN_PLACE == lead.policy()", RuntimeContract.DELETION_POLICY)
        .addComment(
            "Runs of one page of the leader. A storage that holds the entity at the loop's position"
                + " (the")
        .addComment(
            "leader, and any storage filled in the same order) needs no lookup, and if its pages"
                + " are the")
        .addComment(
            "leader's size its cursor keeps one page for the run: the JIT then reads the page"
                + " arrays once")
        .addComment("per run.")
        .addStatement(
            "final int pageShift = lead instanceof $T<?> paged ? paged.pageShift() : 31",
            RuntimeContract.STORAGE);
    for (final Slot slot : slots) {
      if (slot.included() && slot.fields()) {
        method.addStatement(
            "final boolean $L = $L.pageShift() == pageShift", pagedLocal(slot), slot.storage());
      }
    }
    final CodeBlock.Builder body =
        CodeBlock.builder()
            .add(
                "// Read the array again: the visitor may have grown it (appended elements are not"
                    + " visited).\n")
            .addStatement("final long entity = lead.packed()[position]")
            .beginControlFlow("if (stable && $T.isTombstone(entity))", RuntimeContract.ENTITY)
            .addStatement("continue")
            .endControlFlow();
    // One test per storage: its position both tests membership and places the cursor.
    for (final Slot slot : slots) {
      if (slot.included() && slot.fields()) {
        body.addStatement(
                "final int $L = lead == $L || $L.holdsAt(position, entity) ? position :"
                    + " $L.indexOf(entity)",
                indexLocal(slot),
                slot.storage(),
                slot.storage(),
                slot.storage())
            .beginControlFlow("if ($L < 0)", indexLocal(slot))
            .addStatement("continue")
            .endControlFlow();
      } else if (slot.included()) {
        body.beginControlFlow(
                "if (lead != $L && !$L.contains(entity))", slot.storage(), slot.storage())
            .addStatement("continue")
            .endControlFlow();
      } else {
        body.beginControlFlow("if ($L.contains(entity))", slot.storage())
            .addStatement("continue")
            .endControlFlow();
      }
    }
    for (final Slot slot : slots) {
      if (slot.included() && slot.fields()) {
        body.beginControlFlow("if ($L == position && $L)", indexLocal(slot), pagedLocal(slot))
            .addStatement("$L.moveToElement(page, offset)", slot.cursor())
            .nextControlFlow("else")
            .addStatement("$L.moveTo($L)", slot.cursor(), indexLocal(slot))
            .endControlFlow();
      }
    }
    RuntimeContract.pagedLoop(
        method,
        "lead",
        CodeBlock.of("lead.size()"),
        false,
        CodeBlock.of("pageShift"),
        CodeBlock.of(""),
        body.build(),
        filter,
        visitCall(slots));
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
