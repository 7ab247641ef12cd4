package dev.phalanx.ecs;

import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TB;
import static dev.phalanx.ecs.GroupTypes.TC;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.GroupTypes.A;
import dev.phalanx.ecs.GroupTypes.B;
import dev.phalanx.ecs.GroupTypes.C;
import org.junit.jupiter.api.Test;

/**
 * The worked example of the nested-groups article: groups {@code <A,B>} and {@code <A,B,C>}; e4 and
 * e7 are in {@code <A,B>}, nobody is in {@code <A,B,C>}; e8 has A and C and then receives B.
 * Entering the more restrictive group first swaps e8 into the slot that holds e4, evicting e4 from
 * {@code <A,B>} although it still has A and B. Entering from the less restrictive group keeps both.
 */
class NestedGroupOrderTest {

  private static final long E3 = Entity.of(3, 0);
  private static final long E4 = Entity.of(4, 0);
  private static final long E5 = Entity.of(5, 0);
  private static final long E6 = Entity.of(6, 0);
  private static final long E7 = Entity.of(7, 0);
  private static final long E8 = Entity.of(8, 0);

  private Registry registry;
  private OwningGroup ab;
  private OwningGroup abc;

  private void runExample(final boolean wrongOrder) {
    registry = new Registry();
    registry.groups().wrongEntryOrder = wrongOrder;
    for (int i = 0; i <= 8; i++) {
      registry.create();
    }
    final ObjectStorage<A> a = registry.storage(TA);
    final ObjectStorage<B> b = registry.storage(TB);
    final ObjectStorage<C> c = registry.storage(TC);
    ab = registry.owningGroup(TA, TB);
    abc = registry.owningGroup(TA, TB, TC);
    // The article's initial state: A = [e4, e7, e3, e8, e6], B = [e4, e7, e5], C = [e6, e8, e5].
    for (final long e : new long[] {E4, E7, E3, E8, E6}) {
      a.emplace(e, new A((int) e));
    }
    for (final long e : new long[] {E4, E7, E5}) {
      b.emplace(e, new B((int) e));
    }
    for (final long e : new long[] {E6, E8, E5}) {
      c.emplace(e, new C((int) e));
    }
    assertEquals(2, ab.size());
    assertEquals(0, abc.size());
    assertEquals(E4, a.at(0));
    assertEquals(E7, a.at(1));
    // e8 receives B.
    b.emplace(E8, new B(8));
  }

  @Test
  void enteringFromTheLeastRestrictiveGroupKeepsBothPrefixes() {
    runExample(false);
    assertTrue(ab.contains(E4));
    assertTrue(ab.contains(E7));
    assertTrue(ab.contains(E8));
    assertEquals(3, ab.size());
    assertTrue(abc.contains(E8));
    assertEquals(1, abc.size());
    assertEquals(E8, ab.owned(0).at(0), "the <A,B,C> prefix is the first position");
    assertTrue(registry.verify().isEmpty(), registry.verify().toString());
  }

  @Test
  void enteringFromTheMostRestrictiveGroupEvictsE4() {
    runExample(true);
    // This is the corruption the article describes: e4 still has A and B but left <A,B>.
    assertFalse(ab.contains(E4));
    assertTrue(ab.owned(0).contains(E4) && ab.owned(1).contains(E4));
    assertFalse(registry.verify().isEmpty(), "the consistency check sees the corruption");
  }
}
