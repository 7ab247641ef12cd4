package dev.phalanx.ecs.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;

class LoopCopiesTest {

  /** Six lambda expressions: six classes. */
  private static final IntSupplier[] BODIES = {
    () -> 0, () -> 1, () -> 2, () -> 3, () -> 4, () -> 5,
  };

  @Test
  void classesGetTheCopiesInTheOrderTheyAreSeenThenShareTheLast() {
    final LoopCopies copies = new LoopCopies(4);
    for (int i = 0; i < BODIES.length; i++) {
      assertEquals(Math.min(i, 4), copies.copyOf(BODIES[i]), "body " + i);
    }
    // A class keeps its copy; instances of one class share it.
    assertEquals(2, copies.copyOf(BODIES[2]));
    assertEquals(0, copies.copyOf(BODIES[0]));
    assertEquals(4, copies.copyOf(BODIES[5]));
    assertEquals(4, copies.copyOf(BODIES[4]));
  }

  @Test
  void eachLoopCopiesObjectAssignsItsOwnCopies() {
    final LoopCopies first = new LoopCopies(2);
    final LoopCopies second = new LoopCopies(2);
    assertEquals(0, first.copyOf(BODIES[3]));
    assertEquals(1, first.copyOf(BODIES[4]));
    assertEquals(0, second.copyOf(BODIES[4]));
    assertEquals(2, first.copyOf(BODIES[5]));
  }

  @Test
  void noCopiesMeansEveryClassShares() {
    final LoopCopies none = new LoopCopies(0);
    assertEquals(0, none.copyOf(BODIES[1]));
    assertEquals(0, none.copyOf(BODIES[2]));
  }

  @Test
  void badInputIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new LoopCopies(-1));
    final NullPointerException nullBody =
        assertThrows(NullPointerException.class, () -> new LoopCopies(1).copyOf(null));
    assertEquals("the loop body is null", nullBody.getMessage());
  }
}
