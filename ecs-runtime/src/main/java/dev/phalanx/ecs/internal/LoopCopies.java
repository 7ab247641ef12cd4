package dev.phalanx.ecs.internal;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Assigns the classes of loop bodies to the copies of a generated per-entity loop, so that each
 * copy calls one body class only.
 *
 * <p>The JIT profiles a call site per method, not per caller: when one loop method calls many
 * lambda classes, its call of the body becomes megamorphic, is not inlined, and every element pays
 * a virtual call and loses the optimizations that inlining allows (hoisted page arrays,
 * vectorization). A generated query therefore holds several identical copies of its {@code each}
 * loop and runs each body class in a copy of its own: each copy's call site sees one class and is
 * inlined. Classes past the last copy share one more copy, whose call is megamorphic as before.
 *
 * <h2>Invariants and costs</h2>
 *
 * <ul>
 *   <li>A class keeps its copy for the life of this object; copies are handed out in the order
 *       classes are first seen, and never reused.
 *   <li>{@link #copyOf} costs one {@link ClassValue} lookup per call (a loop, not an element), and
 *       allocates nothing once the class has its copy.
 *   <li>Which copy runs a body changes only the speed, never the result: the copies are identical.
 * </ul>
 *
 * <h2>Threading</h2>
 *
 * <p>Thread-safe. Two threads seeing a new class at once may spend two copies on it; only one is
 * then used.
 */
public final class LoopCopies {

  private final int copies;
  private final AtomicInteger next = new AtomicInteger();
  private final ClassValue<Integer> copy =
      new ClassValue<>() {
        @Override
        protected Integer computeValue(final Class<?> type) {
          final int taken = next.getAndIncrement();
          return taken < copies ? taken : copies;
        }
      };

  /**
   * Creates the assignment for a loop with {@code copies} copies, plus the shared one.
   *
   * @param copies the number of copies that each run one body class
   * @throws IllegalArgumentException if {@code copies} is negative
   */
  public LoopCopies(final int copies) {
    if (copies < 0) {
      throw new IllegalArgumentException("negative number of loop copies: " + copies);
    }
    this.copies = copies;
  }

  /**
   * Returns the copy that runs {@code body}: in {@code [0, copies)} for the first {@code copies}
   * classes seen, {@code copies} (the shared copy) for the others.
   *
   * @param body the loop body
   * @return the index of the copy to run
   * @throws NullPointerException if {@code body} is null
   */
  public int copyOf(final Object body) {
    return copy.get(Objects.requireNonNull(body, "the loop body is null").getClass());
  }
}
