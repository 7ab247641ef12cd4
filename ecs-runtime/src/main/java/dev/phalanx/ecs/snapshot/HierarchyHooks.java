package dev.phalanx.ecs.snapshot;

import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.bridge.Lookups;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import dev.phalanx.ecs.internal.Failures;
import java.lang.invoke.MethodHandle;

/**
 * The hierarchy's hooks for loaders, resolved once as {@link MethodHandle}s through a private
 * lookup in the hierarchy's package (one module) by {@link Lookups}, as {@code
 * dev.phalanx.ecs.bridge.CoreHooks} does for the core: a load that writes node values by position
 * tells the hierarchy so, and then has it rebuild its lists and counts from the parent links. Users
 * never call these; the hierarchy's public API stays the checked one. Each call is O(1), except the
 * rebuilds, O(nodes).
 */
final class HierarchyHooks {

  private static final MethodHandle BEFORE_DELTA =
      Lookups.staticMethod(Hierarchy.class, "beforeDelta", Hierarchy.class, Registry.class);
  private static final MethodHandle AFTER_DELTA =
      Lookups.virtual(Hierarchy.class, "afterDelta", void.class);
  private static final MethodHandle AFTER_LOAD =
      Lookups.staticMethod(Hierarchy.class, "afterLoad", void.class, Registry.class);

  private HierarchyHooks() {}

  /**
   * Marks the start of a delta apply that writes node values (see {@code Hierarchy.beforeDelta}).
   *
   * @param registry the replica
   * @return its hierarchy, created if it had none, to pass to {@link #afterDelta}
   */
  static Hierarchy beforeDelta(final Registry registry) {
    try {
      return (Hierarchy) BEFORE_DELTA.invokeExact(registry);
    } catch (final Throwable thrown) {
      throw Failures.propagate(thrown);
    }
  }

  /**
   * Ends what {@link #beforeDelta} started: rebuilds the lists and counts from the parent links.
   *
   * @param hierarchy what {@link #beforeDelta} returned
   */
  static void afterDelta(final Hierarchy hierarchy) {
    try {
      AFTER_DELTA.invokeExact(hierarchy);
    } catch (final Throwable thrown) {
      throw Failures.propagate(thrown);
    }
  }

  /**
   * Rebuilds the lists and counts of {@code registry}'s hierarchy, if it has one, from the parent
   * links a continuous load wrote.
   *
   * @param registry the registry loaded into
   */
  static void afterLoad(final Registry registry) {
    try {
      AFTER_LOAD.invokeExact(registry);
    } catch (final Throwable thrown) {
      throw Failures.propagate(thrown);
    }
  }
}
