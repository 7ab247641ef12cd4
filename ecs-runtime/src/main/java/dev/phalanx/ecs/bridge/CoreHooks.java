package dev.phalanx.ecs.bridge;

import static dev.phalanx.ecs.bridge.Lookups.getter;
import static dev.phalanx.ecs.bridge.Lookups.staticInt;
import static dev.phalanx.ecs.bridge.Lookups.virtual;

import dev.phalanx.ecs.EntityStorage;
import dev.phalanx.ecs.Groups;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Signal;
import dev.phalanx.ecs.SparseSet;
import dev.phalanx.ecs.Storage;
import dev.phalanx.ecs.internal.Failures;
import dev.phalanx.ecs.internal.Guards;
import java.lang.invoke.MethodHandle;

/**
 * The core's hooks for Phalanx's own feature packages (snapshots, and the runtime's tests): the few
 * package-private members of {@code dev.phalanx.ecs} that a feature must reach and a user must not,
 * one static method each. This package is not exported by the module, so only Phalanx's own code
 * can call them.
 *
 * <p>Each hook is a {@link MethodHandle} resolved once, when this class is initialised, through a
 * private lookup in the core's package ({@link Lookups}; allowed because both packages are in one
 * module); held in a {@code static final} field it is a constant to the JIT, so a call costs what a
 * direct call costs once compiled. The dependency runs one way: this package knows the core, the
 * core knows nothing of it or of any feature (the JDK's {@code SharedSecrets} has the core register
 * itself, which makes a package cycle). A hook that is renamed in the core fails this class's
 * initialisation, which every feature test triggers.
 *
 * <p>Every hook has the contract of the member it calls, stated there; exceptions pass through
 * unchanged.
 */
public final class CoreHooks {

  private static final MethodHandle MARK_WRITTEN =
      virtual(Storage.class, "markWritten", void.class, int.class);
  private static final MethodHandle PREPARE_INSERT =
      virtual(Storage.class, "prepareInsert", int.class, long.class);
  private static final MethodHandle COMMIT_INSERT =
      virtual(Storage.class, "commitInsert", void.class, long.class, int.class);
  private static final MethodHandle NOTIFY_UPDATE =
      virtual(Storage.class, "notifyUpdate", void.class, long.class);
  private static final MethodHandle ALLOCATE_PAGES_FOR =
      virtual(Storage.class, "allocatePagesFor", void.class, int.class);
  private static final MethodHandle RESERVE_PAGES_FOR =
      virtual(Storage.class, "reservePagesFor", void.class, int.class);
  private static final MethodHandle AFTER_INSERT =
      getter(Storage.class, "afterInsert", Signal.class);
  private static final MethodHandle AFTER_REMOVE =
      getter(Storage.class, "afterRemove", Signal.class);
  private static final MethodHandle RESTORE_SET =
      virtual(
          SparseSet.class,
          "restore",
          void.class,
          long[].class,
          int.class,
          int.class,
          int[][].class);
  private static final MethodHandle REMOVE_ALL = virtual(SparseSet.class, "removeAll", void.class);
  private static final MethodHandle RESTORE_ENTITIES =
      virtual(
          EntityStorage.class,
          "restore",
          void.class,
          long[].class,
          int.class,
          int.class,
          int[].class);
  private static final MethodHandle CREATE_UNANNOUNCED =
      virtual(Registry.class, "createUnannounced", long.class);
  private static final MethodHandle GUARDS = getter(Groups.class, "guards", Guards.class);
  private static final MethodHandle PERMIT =
      virtual(SparseSet.class, "permit", void.class, Thread.class);
  private static final MethodHandle STRUCTURE_STAMP =
      virtual(SparseSet.class, "structureStamp", long.class);
  private static final MethodHandle REBUILD_GROUPS = virtual(Groups.class, "rebuild", void.class);
  private static final MethodHandle PUBLISH =
      virtual(
          Signal.class, "publish", Throwable.class, Registry.class, long.class, Throwable.class);

  /** The sparse set's page of sparse entries holds {@code 1 << SPARSE_SHIFT} indices. */
  public static final int SPARSE_SHIFT = staticInt(SparseSet.class, "SPARSE_SHIFT");

  /** Masks an entity index to its offset in a sparse page. */
  public static final int SPARSE_MASK = staticInt(SparseSet.class, "SPARSE_MASK");

  /** The sparse entry of an index the set does not hold. */
  public static final int NO_ENTRY = staticInt(SparseSet.class, "NO_ENTRY");

  private CoreHooks() {}

  /** {@code Storage.markWritten}: stamps the element at {@code position} with the current tick. */
  public static void markWritten(final Storage<?> storage, final int position) {
    try {
      MARK_WRITTEN.invokeExact(storage, position);
    } catch (final Throwable thrown) {
      throw Failures.propagate(thrown);
    }
  }

  /** {@code Storage.prepareInsert}: checks an insertion and returns the position to write. */
  public static int prepareInsert(final Storage<?> storage, final long entity) {
    try {
      return (int) PREPARE_INSERT.invokeExact(storage, entity);
    } catch (final Throwable thrown) {
      throw Failures.propagate(thrown);
    }
  }

  /** {@code Storage.commitInsert}: makes a prepared, written element present and announces it. */
  public static void commitInsert(final Storage<?> storage, final long entity, final int position) {
    try {
      COMMIT_INSERT.invokeExact(storage, entity, position);
    } catch (final Throwable thrown) {
      throw Failures.propagate(thrown);
    }
  }

  /** {@code Storage.notifyUpdate}: publishes an update of {@code entity}'s element. */
  public static void notifyUpdate(final Storage<?> storage, final long entity) {
    try {
      NOTIFY_UPDATE.invokeExact(storage, entity);
    } catch (final Throwable thrown) {
      throw Failures.propagate(thrown);
    }
  }

  /** {@code Storage.allocatePagesFor}: allocates the pages that {@code count} elements need. */
  public static void allocatePagesFor(final Storage<?> storage, final int count) {
    try {
      ALLOCATE_PAGES_FOR.invokeExact(storage, count);
    } catch (final Throwable thrown) {
      throw Failures.propagate(thrown);
    }
  }

  /** {@code Storage.reservePagesFor}: grows the page table for {@code count} elements. */
  public static void reservePagesFor(final Storage<?> storage, final int count) {
    try {
      RESERVE_PAGES_FOR.invokeExact(storage, count);
    } catch (final Throwable thrown) {
      throw Failures.propagate(thrown);
    }
  }

  /**
   * The signal a storage publishes after every insertion, once the element is in place (internal
   * listeners only: the delta writer's change log).
   */
  public static Signal afterInsert(final Storage<?> storage) {
    try {
      return (Signal) AFTER_INSERT.invokeExact(storage);
    } catch (final Throwable thrown) {
      throw Failures.propagate(thrown);
    }
  }

  /** The signal a storage publishes after every removal; see {@link #afterInsert}. */
  public static Signal afterRemove(final Storage<?> storage) {
    try {
      return (Signal) AFTER_REMOVE.invokeExact(storage);
    } catch (final Throwable thrown) {
      throw Failures.propagate(thrown);
    }
  }

  /** {@code SparseSet.restore}: replaces the set's content with a staged, checked one. */
  public static void restore(
      final SparseSet set,
      final long[] entities,
      final int count,
      final int hole,
      final int[][] sparse) {
    try {
      RESTORE_SET.invokeExact(set, entities, count, hole, sparse);
    } catch (final Throwable thrown) {
      throw Failures.propagate(thrown);
    }
  }

  /** {@code SparseSet.removeAll}: empties the set without announcing anything. */
  public static void removeAll(final SparseSet set) {
    try {
      REMOVE_ALL.invokeExact(set);
    } catch (final Throwable thrown) {
      throw Failures.propagate(thrown);
    }
  }

  /** {@code EntityStorage.restore}: replaces the registry's entities with staged, checked ones. */
  public static void restore(
      final EntityStorage entities,
      final long[] staged,
      final int count,
      final int aliveCount,
      final int[] checkedPositions) {
    try {
      RESTORE_ENTITIES.invokeExact(entities, staged, count, aliveCount, checkedPositions);
    } catch (final Throwable thrown) {
      throw Failures.propagate(thrown);
    }
  }

  /**
   * {@code Registry.createUnannounced}: creates an entity without publishing {@link
   * Registry#onCreate()}; the caller publishes it (with {@link #publish}) once its own state holds
   * the entity, so that a listener's exception cannot leave that state half-made.
   */
  public static long createUnannounced(final Registry registry) {
    try {
      return (long) CREATE_UNANNOUNCED.invokeExact(registry);
    } catch (final Throwable thrown) {
      throw Failures.propagate(thrown);
    }
  }

  /**
   * The guards shared by every set of {@code registry}; tests end a parallel pass with it, without
   * running one.
   */
  public static Guards guards(final Registry registry) {
    try {
      return (Guards) GUARDS.invokeExact(registry.groups());
    } catch (final Throwable thrown) {
      throw Failures.propagate(thrown);
    }
  }

  /**
   * {@code SparseSet.permit}: lets {@code thread} (or, with {@code null}, no thread) make the
   * structural changes the set's one lock refuses; the schedule's per-system permission.
   */
  public static void permit(final SparseSet set, final Thread thread) {
    try {
      PERMIT.invokeExact(set, thread);
    } catch (final Throwable thrown) {
      throw Failures.propagate(thrown);
    }
  }

  /**
   * {@code SparseSet.structureStamp}: a number that changes whenever an element of {@code set}
   * moves, is removed or fills a hole (an append changes the size instead); the schedule's test of
   * whether a storage's members changed.
   */
  public static long structureStamp(final SparseSet set) {
    try {
      return (long) STRUCTURE_STAMP.invokeExact(set);
    } catch (final Throwable thrown) {
      throw Failures.propagate(thrown);
    }
  }

  /** {@code Groups.rebuild}: rebuilds every group from its storages after a load. */
  public static void rebuildGroups(final Registry registry) {
    try {
      REBUILD_GROUPS.invokeExact(registry.groups());
    } catch (final Throwable thrown) {
      throw Failures.propagate(thrown);
    }
  }

  /**
   * {@code Signal.publish}: calls every listener of {@code signal}, returning the first exception
   * (added to {@code failure}) instead of throwing it.
   */
  public static Throwable publish(
      final Signal signal, final Registry registry, final long entity, final Throwable failure) {
    try {
      return (Throwable) PUBLISH.invokeExact(signal, registry, entity, failure);
    } catch (final Throwable thrown) {
      throw Failures.propagate(thrown);
    }
  }
}
