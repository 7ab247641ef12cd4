package dev.phalanx.ecs.schedule;

import dev.phalanx.ecs.ComponentType;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

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
 * {@link BooleanSupplier}. Ready-made conditions read the world: {@link #resourceExists}, {@link
 * #resource}, {@link #resourceChanged}, {@link #anyWithComponent} and {@link #componentsChanged}
 * (changes since the system last ran, see {@link SystemContext#resourceChanged}).
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
   * {@return a condition that holds while the registry's context holds resource {@code key}}
   * (Bevy's {@code resource_exists})
   *
   * @param key the resource's class
   */
  static RunCondition resourceExists(final Class<?> key) {
    Objects.requireNonNull(key, "key");
    return context -> context.registry().context().contains(key);
  }

  /**
   * {@return a condition that holds while the context holds resource {@code key} and {@code test}
   * holds for it} (Bevy's {@code resource_exists_and_equals}, and more)
   *
   * @param <T> the resource type
   * @param key the resource's class
   * @param test what must hold of the resource
   */
  static <T> RunCondition resource(final Class<T> key, final Predicate<? super T> test) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(test, "test");
    return context -> {
      final T value = context.registry().context().find(key);
      return null != value && test.test(value);
    };
  }

  /**
   * {@return a condition that holds when resource {@code key} changed since the system last ran}
   * (Bevy's {@code resource_changed}; see {@link SystemContext#resourceChanged} for what counts)
   *
   * @param key the resource's class
   */
  static RunCondition resourceChanged(final Class<?> key) {
    Objects.requireNonNull(key, "key");
    return context -> context.resourceChanged(key);
  }

  /**
   * {@return a condition that holds while some entity has a component of {@code type}} (Bevy's
   * {@code any_with_component})
   *
   * @param type a component type
   */
  static RunCondition anyWithComponent(final ComponentType<?, ?> type) {
    Objects.requireNonNull(type, "type");
    return context -> context.anyWith(type);
  }

  /**
   * {@return a condition that holds when the components of {@code type} changed since the system
   * last ran} (see {@link SystemContext#componentsChanged} for what counts)
   *
   * @param type a component type
   */
  static RunCondition componentsChanged(final ComponentType<?, ?> type) {
    Objects.requireNonNull(type, "type");
    return context -> context.componentsChanged(type);
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
