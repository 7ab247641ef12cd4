package dev.phalanx.ecs.processor.generation;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.TypeSpec;
import dev.phalanx.ecs.processor.base.RuntimeContract;
import dev.phalanx.ecs.processor.model.QueryModel;
import java.util.List;
import javax.lang.model.element.Modifier;
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
  void addOwnMembers(
      final TypeSpec.Builder type,
      final MethodSpec.Builder constructor,
      final QueryModel model,
      final List<Slot> slots) {
    // Every storage with a cursor: the included ones' alignments as the optional ones'.
    ViewQueryGenerator.addAlignments(type, constructor, slots, Slot::hasCursor);
    type.addMethod(
            delegate(
                "insertionSort",
                RuntimeContract.ENTITY_COMPARATOR,
                "comparator",
                "Sorts the members through the group with insertion sort (see its {@code"
                    + " insertionSort}):\n"
                    + "O(n) comparisons on almost sorted members, O(n^2) on random ones;"
                    + " stable; if the comparator\n"
                    + "throws, nothing moves.\n\n"
                    + "@param comparator the order of two entities\n"))
        .addMethod(
            delegate(
                "sortByLongKey",
                RuntimeContract.ENTITY_LONG_KEY,
                "key",
                "Sorts the members through the group by ascending {@code long} key, each key"
                    + " computed once\n"
                    + "(see its {@code sortByLongKey}): n key calls and a stable radix sort, no"
                    + " comparator call\n"
                    + "per comparison; if {@code key} throws, nothing moves. Afterwards {@code"
                    + " group().eachInOrder}\n"
                    + "visits the smallest key first, {@link #each} the largest.\n\n"
                    + "@param key the key of each member\n"))
        .addMethod(
            delegate(
                "sortByFloatKey",
                RuntimeContract.ENTITY_FLOAT_KEY,
                "key",
                "As {@link #sortByLongKey}, with {@code float} keys ordered as {@code"
                    + " Float.compare}.\n\n"
                    + "@param key the key of each member\n"))
        .addMethod(
            delegate(
                "insertionSortByLongKey",
                RuntimeContract.ENTITY_LONG_KEY,
                "key",
                "As {@link #sortByLongKey}, sorting the computed keys with insertion sort: O(n)"
                    + " on almost sorted\n"
                    + "members.\n\n"
                    + "@param key the key of each member\n"))
        .addMethod(
            delegate(
                "insertionSortByFloatKey",
                RuntimeContract.ENTITY_FLOAT_KEY,
                "key",
                "As {@link #insertionSortByLongKey}, with {@code float} keys ordered as"
                    + " {@code Float.compare}.\n\n"
                    + "@param key the key of each member\n"));
  }

  private static MethodSpec delegate(
      final String name, final ClassName parameter, final String argument, final String javadoc) {
    return MethodSpec.methodBuilder(name)
        .addJavadoc(javadoc)
        .addModifiers(Modifier.PUBLIC)
        .addParameter(parameter, argument, Modifier.FINAL)
        .addStatement("group.$L($L)", name, argument)
        .build();
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
        + "      the members in the same order (then none: the cursors walk the pages). Which"
        + " positions agree\n"
        + "      is kept from one pass to the next and checked again only where the sets grew,"
        + " or everywhere\n"
        + "      once after a move, removal or filled hole in one of them; no allocation.\n"
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
    ViewQueryGenerator.alignedRunLoop(method, slots, filter, false, true);
  }
}
