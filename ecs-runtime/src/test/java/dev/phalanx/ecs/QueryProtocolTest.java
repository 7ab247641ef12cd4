package dev.phalanx.ecs;

import static dev.phalanx.ecs.CursorFixtures.TA;
import static dev.phalanx.ecs.CursorFixtures.TE;
import static dev.phalanx.ecs.CursorFixtures.TF;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.CursorFixtures.A;
import dev.phalanx.ecs.CursorFixtures.E;
import dev.phalanx.ecs.CursorFixtures.F;
import dev.phalanx.ecs.CursorFixtures.IntCursor;
import dev.phalanx.ecs.CursorFixtures.IntStorage;
import java.util.ConcurrentModificationException;
import org.junit.jupiter.api.Test;

/**
 * The loop protocol {@link Query} hands generated queries, called as a generated {@code each} calls
 * it ({@code Query.beginIteration(lead)}, ...): the iteration guard, the aligned-run tests and the
 * unchecked cursor moves. The generated loops themselves are tested in the examples module; these
 * check each helper does what its Javadoc says.
 */
class QueryProtocolTest {

  private final Registry registry = new Registry();

  private long[] fill(final ComponentType<?, ?> type, final int n) {
    final long[] entities = new long[n];
    registry.create(entities);
    for (int i = 0; i < n; i++) {
      emplace(type, entities[i], 100 + i);
    }
    return entities;
  }

  private void emplace(final ComponentType<?, ?> type, final long entity, final int value) {
    if (type == TA) {
      registry.emplace(entity, TA, new A(value));
    } else if (type == TE) {
      registry.emplace(entity, TE, new E(value));
    } else {
      registry.emplace(entity, TF, new F(value));
    }
  }

  /**
   * Between {@code beginIteration} and {@code endIteration}, once {@code visit} has recorded the
   * visited position, a removal that would move an element across it is refused; the guard is down
   * again after {@code endIteration}.
   */
  @Test
  void theGuardRefusesAMoveAcrossTheVisitedPositionUntilTheIterationEnds() {
    final IntStorage<A> lead = registry.storage(TA);
    final long[] entities = fill(TA, 6);
    Query.beginIteration(lead);
    try {
      Query.visit(lead, 3);
      // Removing position 1 moves the last element (position 5, visited) to 1, still to come.
      final ConcurrentModificationException refused =
          assertThrows(ConcurrentModificationException.class, () -> lead.remove(entities[1]));
      assertTrue(refused.getMessage().contains(TA.name()), refused.getMessage());
      assertEquals(6, lead.size());
      // Removing position 4, visited, moves position 5, visited too: allowed.
      assertTrue(lead.remove(entities[4]));
      assertEquals(5, lead.size());
    } finally {
      Query.endIteration(lead);
    }
    assertTrue(lead.remove(entities[1]));
    assertEquals(4, lead.size());
    assertThrows(IllegalStateException.class, () -> Query.endIteration(lead));
  }

  /** {@code holdsAt} answers for the given position only, and no position past the size. */
  @Test
  void holdsAtAnswersForOnePositionOnly() {
    final IntStorage<A> set = registry.storage(TA);
    final long[] entities = fill(TA, 3);
    assertTrue(Query.holdsAt(set, 1, entities[1]));
    assertFalse(Query.holdsAt(set, 2, entities[1]));
    assertFalse(Query.holdsAt(set, 3, entities[1]));
  }

  /**
   * Two sets filled in the same order agree on their positions; once one moves an element they do
   * not, and a range past either size never agrees. The stamp stays through an append and changes
   * with the removal.
   */
  @Test
  void samePositionsAndTheStampFollowMovesButNotAppends() {
    final IntStorage<E> set = registry.storage(TE);
    final IntStorage<F> other = registry.storage(TF);
    final long[] entities = fill(TE, 5);
    for (int i = 0; i < entities.length; i++) {
      registry.emplace(entities[i], TF, new F(i));
    }
    assertTrue(Query.samePositions(set, other, 0, 5));
    assertFalse(Query.samePositions(set, other, 0, 6));
    final long stamp = Query.structureStamp(other);
    final long more = registry.create();
    registry.emplace(more, TF, new F(9));
    assertEquals(stamp, Query.structureStamp(other), "an append keeps the stamp");
    other.remove(entities[1]);
    assertNotEquals(stamp, Query.structureStamp(other), "a removal changes it");
    assertFalse(Query.samePositions(set, other, 0, 4));
    assertTrue(Query.samePositions(set, other, 0, 1));
  }

  /**
   * The unchecked cursor moves reach the element at a page and an offset, as {@code point} reaches
   * it by position.
   */
  @Test
  void cursorMovesReachTheElementAtAPageAndOffset() {
    final IntStorage<A> set = registry.storage(TA); // pages of 4
    fill(TA, 10);
    final IntCursor cursor = set.cursor();
    Query.moveToPage(cursor, 1);
    assertEquals(104, cursor.value());
    Query.moveWithinPage(cursor, 3);
    assertEquals(107, cursor.value());
    Query.moveToElement(cursor, 2, 1);
    assertEquals(109, cursor.value());
  }
}
