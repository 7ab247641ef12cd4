package dev.phalanx.ecs.processor.generation;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import dev.phalanx.ecs.processor.base.RuntimeContract;
import dev.phalanx.ecs.processor.model.QueryModel;
import java.util.List;
import javax.lang.model.util.Elements;

/**
 * Generates the query of a non-owning {@code @GroupQuery} (one with no {@code owned} component): it
 * walks the group's member set and reaches every component by one lookup.
 */
public final class NonOwningGroupQueryGenerator extends QueryFileGenerator {

  /**
   * Creates the generator.
   *
   * @param elements the compiler's element utilities, to find out whether {@code @Generated} exists
   */
  public NonOwningGroupQueryGenerator(final Elements elements) {
    super(elements);
  }

  @Override
  QueryModel.Kind kind() {
    return QueryModel.Kind.NON_OWNING_GROUP;
  }

  @Override
  ClassName container() {
    return RuntimeContract.NON_OWNING_GROUP;
  }

  @Override
  String containerName() {
    return "group";
  }

  @Override
  CodeBlock createContainer(final List<Slot> slots) {
    return CodeBlock.of(
        "registry.nonOwningGroup(\n$L,\n$L)", types(slots, Role.GET), types(slots, Role.EXCLUDE));
  }

  @Override
  CodeBlock summary(final QueryModel model, final List<Slot> slots) {
    return CodeBlock.of(
        "The non-owning group declared by {@code $L}: get $L, excluded $L.\n",
        model.element().getQualifiedName(),
        list(slots, Role.GET),
        list(slots, Role.EXCLUDE));
  }

  @Override
  String costs() {
    return "  <li>{@code each}: O(n) over the members, one lookup per component unless the"
        + " storages hold\n"
        + "      the members in the same order; no allocation.\n"
        + "  <li>Profile pollution: {@code each} runs each visitor class in a copy of its loop"
        + " of its own\n"
        + "      (the first eight classes that go through this query class), so that the call"
        + " of the\n"
        + "      visitor is inlined; further classes share one copy, where the call is"
        + " megamorphic.\n";
  }

  @Override
  void eachLoop(final MethodSpec.Builder method, final List<Slot> slots, final CodeBlock filter) {
    // The members are exactly the entities to visit; storages filled in the order the entities
    // joined the group are walked like a view's aligned runs.
    method.addStatement("final $T lead = group.members()", RuntimeContract.SPARSE_SET);
    ViewQueryGenerator.alignedRunLoop(method, slots, filter, false);
  }
}
