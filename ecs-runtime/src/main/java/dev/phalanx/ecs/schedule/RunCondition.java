package dev.phalanx.ecs.schedule;

import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * Whether a system runs in this frame (or fixed step): given to {@link SystemDeclaration#runIf}.
 * The schedule calls it on the thread that runs the schedule, before the system's wave starts, with
 * the system's {@link SystemContext}; it sees the world as the systems before that wave left it and
 * may read anything (the resources of the registry's context, storages), but must change nothing.
 * It may throw, as a system may: the system is then skipped and the frame stops (see {@link
 * Schedule}).
 *
 * <p>Conditions compose: {@link #and}, {@link #or}, {@link #negate} and {@link #not} make one of
 * several, and several {@code runIf} on one system hold only together. {@link #of} adapts a plain
 * {@link BooleanSupplier}.
 */
@FunctionalInterface
public interface RunCondition {

  /**
   * {@return whether the system runs}
   *
   * @param context the context of the system the condition guards
   */
  boolean holds(SystemContext context);

  /**
   * {@return a condition that holds when this one and {@code other} hold} {@code other} is not
   * asked when this one does not hold.
   *
   * @param other another condition
   */
  default RunCondition and(final RunCondition other) {
    Objects.requireNonNull(other, "other");
    return context -> holds(context) && other.holds(context);
  }

  /**
   * {@return a condition that holds when this one or {@code other} holds} {@code other} is not
   * asked when this one holds.
   *
   * @param other another condition
   */
  default RunCondition or(final RunCondition other) {
    Objects.requireNonNull(other, "other");
    return context -> holds(context) || other.holds(context);
  }

  /** {@return a condition that holds when this one does not} */
  default RunCondition negate() {
    return context -> !holds(context);
  }

  /**
   * {@return a condition that holds when {@code condition} does not}
   *
   * @param condition a condition
   */
  static RunCondition not(final RunCondition condition) {
    return Objects.requireNonNull(condition, "condition").negate();
  }

  /**
   * {@return {@code supplier} as a condition} It does not look at the context.
   *
   * @param supplier a condition that needs no context
   */
  static RunCondition of(final BooleanSupplier supplier) {
    Objects.requireNonNull(supplier, "supplier");
    return context -> supplier.getAsBoolean();
  }
}
