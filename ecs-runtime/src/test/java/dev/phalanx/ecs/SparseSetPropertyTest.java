package dev.phalanx.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Random operation sequences on a sparse set, checked against a {@code HashSet} model. */
class SparseSetPropertyTest {

  /**
   * One operation: kind 0 insert, 1 append, 2 remove, 3 compact, 4 sort; on entity index {@code
   * index}.
   */
  record Op(int kind, int index) {}

  @Provide
  Arbitrary<List<Op>> operations() {
    final Arbitrary<Integer> kinds =
        Arbitraries.frequency(
            net.jqwik.api.Tuple.of(40, 0),
            net.jqwik.api.Tuple.of(10, 1),
            net.jqwik.api.Tuple.of(40, 2),
            net.jqwik.api.Tuple.of(5, 3),
            net.jqwik.api.Tuple.of(5, 4));
    // Indices cluster around a sparse page boundary and spread over a few pages.
    final Arbitrary<Integer> indices =
        Arbitraries.oneOf(
            Arbitraries.integers().between(4090, 4101), Arbitraries.integers().between(0, 20_000));
    return Combinators.combine(kinds, indices).as(Op::new).list().ofMaxSize(300);
  }

  @Property(tries = 300)
  void swapAndPopMatchesAHashSet(@ForAll("operations") final List<Op> ops) {
    run(DeletionPolicy.SWAP_AND_POP, ops);
  }

  @Property(tries = 300)
  void inPlaceMatchesAHashSet(@ForAll("operations") final List<Op> ops) {
    run(DeletionPolicy.IN_PLACE, ops);
  }

  private static void run(final DeletionPolicy policy, final List<Op> ops) {
    final TestSet set = new TestSet(policy);
    final Set<Long> model = new HashSet<>();
    for (final Op op : ops) {
      final long entity = Entity.of(op.index(), op.index() % 7);
      switch (op.kind()) {
        case 0:
        case 1:
          if (!model.contains(entity)) {
            final int hole = set.firstHole();
            final int size = set.size();
            final int position = 0 == op.kind() ? set.insert(entity) : set.appendEntity(entity);
            // A single insertion reuses the most recent hole; an append never does.
            assertEquals(0 == op.kind() && SparseSet.ABSENT != hole ? hole : size, position);
            model.add(entity);
          }
          break;
        case 2:
          if (model.remove(entity)) {
            set.remove(entity);
          }
          assertFalse(set.contains(entity));
          break;
        case 3:
          set.compact();
          assertFalse(set.hasTombstones());
          assertEquals(model.size(), set.size());
          break;
        default:
          if (!set.hasTombstones()) {
            set.sort((a, b) -> Integer.compare(Entity.index(a), Entity.index(b)));
            for (int position = 1; position < set.size(); position++) {
              assertTrue(Entity.index(set.at(position - 1)) < Entity.index(set.at(position)));
            }
          }
          break;
      }
      final Map<Long, Integer> live = set.checkInvariants();
      assertEquals(model, live.keySet());
      if (DeletionPolicy.SWAP_AND_POP == policy) {
        assertEquals(model.size(), set.size());
      }
    }
  }
}
