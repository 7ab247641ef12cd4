package dev.phalanx.ecs.processor.generation;

import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import dev.phalanx.ecs.processor.base.RuntimeContract;

/**
 * The two protocols generated code follows with the runtime, each emitted from this one place:
 * inserting an element ({@link #insert}) and guarding the per-entity loop of an owning group
 * ({@link #pagedLoop}). The runtime names and members they use are in {@link
 * dev.phalanx.ecs.processor.base.RuntimeContract}; the order of the calls is the part a test cannot
 * derive from the runtime, so it is written once, here.
 */
final class RuntimeProtocols {

  private RuntimeProtocols() {}

  /**
   * Emits the insertion protocol of a typed {@code emplace}: the runtime places {@code entity} and
   * returns its position, the generated code writes the payload there ({@code writes}, which may
   * read the local {@code position}), then the runtime publishes. This is the only place that emits
   * it.
   *
   * <p>{@code final int position = prepareInsert(entity); writes; commitInsert(entity, position);}:
   * {@code prepareInsert} checks the whole change and returns the position the element will have,
   * not yet visible; {@code commitInsert} makes it visible, updates the groups and publishes.
   *
   * @param method the method to add the statements to
   * @param entity the name of the entity parameter
   * @param position the name of the position local
   * @param writes the statements writing the payload at {@code position}
   */
  static void insert(
      final MethodSpec.Builder method,
      final String entity,
      final String position,
      final CodeBlock writes) {
    method
        .addStatement("final int $L = prepareInsert($L)", position, entity)
        .addCode(writes)
        .addStatement("commitInsert($L, $L)", entity, position);
  }

  /**
   * Emits the guarded per-entity loop of an owning group: it begins an iteration of {@code guard},
   * records each visited position before the visitor runs (so that the runtime refuses, before it
   * is made, any change that would move an element between the visited positions and those still to
   * come) and ends the iteration in a {@code finally} block. It walks the positions page by page,
   * last page first: the cursors that walk the guarded storage are moved to a page once per run
   * ({@code pageMoves}) and to an offset per element, so the JIT reads their page arrays once per
   * run. The body sees {@code position} and {@code offset} (the position within the page).
   *
   * @param method the method to add the loop to
   * @param guard the local holding the walked {@code SparseSet} (or subclass) that checks the
   *     visits
   * @param size the expression of the number of positions to walk ({@code group.size()})
   * @param clamp whether a visit may shrink the range below the visited position (a group's range,
   *     which members leaving may shrink by more than the visited one): the loop then goes on from
   *     the new end
   * @param pageShift the expression of {@code log2} of the page size
   * @param pageMoves the statements run once per page; they see {@code page}
   * @param body the statements before the visit; they declare {@code entity}
   * @param filter an expression evaluated after {@code body}: the element is skipped unless it
   *     holds; empty for none
   * @param visit the visitor call
   */
  static void pagedLoop(
      final MethodSpec.Builder method,
      final String guard,
      final CodeBlock size,
      final boolean clamp,
      final CodeBlock pageShift,
      final CodeBlock pageMoves,
      final CodeBlock body,
      final CodeBlock filter,
      final CodeBlock visit) {
    method
        .addStatement("$T.beginIteration($L)", RuntimeContract.QUERY, guard)
        .beginControlFlow("try")
        .beginControlFlow("for (int from = $L - 1; from >= 0; )", size)
        .addStatement("final int page = from >>> $L", pageShift)
        .addStatement("final int pageStart = page << $L", pageShift)
        .addCode(pageMoves);
    if (clamp) {
      method.addStatement("int next = pageStart - 1");
    }
    method
        .beginControlFlow("for (int offset = from - pageStart; offset >= 0; offset--)")
        .addStatement("final int position = pageStart + offset")
        .addCode(body)
        .addCode(
            filter.isEmpty()
                ? CodeBlock.of("")
                : CodeBlock.builder()
                    .beginControlFlow("if (!($L))", filter)
                    .addStatement("continue")
                    .endControlFlow()
                    .build())
        .addStatement("$T.visit($L, position)", RuntimeContract.QUERY, guard)
        .addStatement(visit);
    if (clamp) {
      method
          .beginControlFlow("if ($L < position)", size)
          .addComment("Members besides the visited one left: go on from the new end.")
          .addStatement("next = $L - 1", size)
          .addStatement("break")
          .endControlFlow();
    }
    method
        .endControlFlow()
        .addStatement(clamp ? "from = next" : "from = pageStart - 1")
        .endControlFlow()
        .nextControlFlow("finally")
        .addStatement("$T.endIteration($L)", RuntimeContract.QUERY, guard)
        .endControlFlow();
  }
}
