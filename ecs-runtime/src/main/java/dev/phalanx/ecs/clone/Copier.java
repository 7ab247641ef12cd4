package dev.phalanx.ecs.clone;

import dev.phalanx.ecs.ColumnVisitor;
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Storage;
import dev.phalanx.ecs.bridge.CoreHooks;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import dev.phalanx.ecs.internal.Failures;
import dev.phalanx.ecs.internal.LongLongMap;
import java.util.Arrays;

/**
 * The engine that {@link EntityCloner} and {@link Prefab} share: copies elements into a destination
 * registry through the checked insertion path, announcing nothing until every element of the change
 * is in, remaps {@code @EntityRef} fields, announces the change last inserted first, and rolls it
 * back if anything failed. One per cloner or prefab; its scratch arrays grow and are kept, so that
 * a warm copy allocates nothing. Not thread-safe.
 */
final class Copier {

  /** What {@link #refs} holds for a type not probed yet, one without and one with references. */
  private static final byte UNKNOWN = 0;

  private static final byte NO_REFS = 1;
  private static final byte HAS_REFS = 2;

  // The insertions of the change in progress, in order: storage, entity, pending mark.
  private Storage<?>[] logStorages = new Storage<?>[16];
  private long[] logEntities = new long[16];
  private int[] logMarks = new int[16];
  private int logSize;
  // Whether each component type (by id) has @EntityRef columns.
  private byte[] refs = new byte[32];
  private final Remapper remapper = new Remapper();
  private final RefProbe probe = new RefProbe();

  /** Starts a change: forgets the previous one's log. */
  void begin() {
    Arrays.fill(logStorages, 0, logSize, null);
    logSize = 0;
  }

  /** Returns whether the elements of {@code storage}'s type hold {@code @EntityRef} fields. */
  boolean hasRefs(final Storage<?> storage) {
    final int id = storage.type().id();
    if (id >= refs.length) {
      refs = Arrays.copyOf(refs, Math.max(id + 1, refs.length * 2));
    }
    if (UNKNOWN == refs[id]) {
      probe.found = false;
      CoreHooks.eachColumn(storage, probe);
      refs[id] = probe.found ? HAS_REFS : NO_REFS;
    }
    return HAS_REFS == refs[id];
  }

  /**
   * Sets how references are remapped by the next {@link #copy} calls with {@code remap}: a handle
   * that {@code members} maps to {@code i} becomes {@code clones[base + i]}; any other stays as it
   * is, or becomes {@link Entity#NULL} with {@code dropOutside}.
   */
  void remapWith(
      final LongLongMap members, final long[] clones, final int base, final boolean dropOutside) {
    remapper.members = members;
    remapper.clones = clones;
    remapper.base = base;
    remapper.dropOutside = dropOutside;
  }

  /** Moves the remapping to another instance: clones are now read from {@code base}. */
  void remapBase(final int base) {
    remapper.base = base;
  }

  /**
   * Copies the element at {@code position} of {@code source} to {@code entity} in {@code
   * destination} (same type), unannounced, and logs it. Runs no user code for generated, object and
   * tag storages.
   */
  void copy(
      final Storage<?> destination,
      final Storage<?> source,
      final int position,
      final long entity,
      final boolean remap) {
    log(destination, entity, copyUnlogged(destination, source, position, entity, remap));
  }

  /**
   * As {@link #copy}, but returns the pending mark instead of logging it: the caller logs the
   * insertion with {@link #log} unless nothing would hear its announcement.
   */
  int copyUnlogged(
      final Storage<?> destination,
      final Storage<?> source,
      final int position,
      final long entity,
      final boolean remap) {
    CoreHooks.stageFrom(destination, source, position);
    final int at = CoreHooks.prepareInsert(destination, entity);
    CoreHooks.writeStaged(destination, at);
    if (remap) {
      remapAt(destination, at);
    }
    return CoreHooks.commitUnannounced(destination, entity, at);
  }

  /** Remaps the {@code @EntityRef} fields of the element written at {@code position}. */
  void remapAt(final Storage<?> destination, final int position) {
    remapper.position = position;
    remapper.shift = destination.pageShift();
    remapper.mask = destination.pageSize() - 1;
    CoreHooks.eachColumn(destination, remapper);
  }

  /**
   * {@return whether announcing an insertion into {@code storage} with no pending group entry would
   * run nothing: no construct or internal after-insert listener}
   */
  static boolean quiet(final Storage<?> storage) {
    return storage.onConstruct().isEmpty() && CoreHooks.afterInsert(storage).isEmpty();
  }

  /** {@return the mark {@code commitUnannounced} returns when no group entry is pending} */
  static boolean nothingPending(final int mark) {
    return mark < 0;
  }

  /** Logs an insertion, to be announced (and, for existing entities, undone on failure). */
  void log(final Storage<?> destination, final long entity, final int mark) {
    if (logSize == logMarks.length) {
      final int grown = logSize * 2;
      logStorages = Arrays.copyOf(logStorages, grown);
      logEntities = Arrays.copyOf(logEntities, grown);
      logMarks = Arrays.copyOf(logMarks, grown);
    }
    logStorages[logSize] = destination;
    logEntities[logSize] = entity;
    logMarks[logSize] = mark;
    logSize++;
  }

  /**
   * Announces every logged insertion, last first (the group entries each left pending, then
   * construction); every listener runs. Returns {@code failure} or the first exception.
   */
  Throwable announce(Throwable failure) {
    for (int i = logSize - 1; i >= 0; i--) {
      failure = CoreHooks.announceInsert(logStorages[i], logEntities[i], logMarks[i], failure);
    }
    return failure;
  }

  /**
   * Undoes the change on entities that existed before it: removes every logged element still there,
   * last first. Every removal is attempted; returns {@code failure} with what they threw.
   */
  Throwable removeLogged(Throwable failure) {
    for (int i = logSize - 1; i >= 0; i--) {
      try {
        logStorages[i].remove(logEntities[i]);
      } catch (final RuntimeException | Error thrown) {
        failure = Failures.add(failure, thrown);
      }
    }
    return failure;
  }

  /**
   * Undoes the change on entities it created: destroys those of {@code created[from, to)} still
   * live, last first. Every destroy is attempted; returns {@code failure} with what they threw.
   */
  static Throwable destroyCreated(
      final Registry registry,
      final long[] created,
      final int from,
      final int to,
      Throwable failure) {
    for (int i = to - 1; i >= from; i--) {
      if (registry.valid(created[i])) {
        try {
          registry.destroy(created[i]);
        } catch (final RuntimeException | Error thrown) {
          failure = Failures.add(failure, thrown);
        }
      }
    }
    return failure;
  }

  /**
   * {@return the storage of {@code type} in {@code registry}, created through the type's traits if
   * missing}
   */
  static Storage<?> storageIn(final Registry registry, final ComponentType<?, ?> type) {
    final Storage<?> found = registry.findStorage(type);
    return null != found ? found : create(registry, type);
  }

  private static <T, S extends Storage<T>> S create(
      final Registry registry, final ComponentType<T, S> type) {
    return registry.storage(type);
  }

  /** {@return whether {@code storage} is a hierarchy's node storage (links are copied apart)} */
  static boolean isHierarchy(final Storage<?> storage) {
    return Hierarchy.TYPE == storage.type();
  }

  /** {@return the hierarchy of {@code registry} if it has one, without creating it} */
  static Hierarchy hierarchyOf(final Registry registry) {
    return registry.context().find(Hierarchy.class);
  }

  /** Rewrites the {@code @EntityRef} fields of one element of a storage. */
  private static final class Remapper extends LongColumns {
    LongLongMap members;
    long[] clones;
    int base;
    boolean dropOutside;
    int position;
    int shift;
    int mask;

    @Override
    public void longs(final String name, final long[][] pages, final boolean entityRef) {
      if (!entityRef) {
        return;
      }
      final long[] page = pages[position >>> shift];
      final int offset = position & mask;
      final long reference = page[offset];
      if (Entity.isNull(reference)) {
        return;
      }
      final long member = members.get(reference, -1L);
      if (member >= 0) {
        page[offset] = clones[base + (int) member];
      } else if (dropOutside) {
        page[offset] = Entity.NULL;
      }
    }
  }

  /** Finds whether a storage has {@code @EntityRef} columns. */
  private static final class RefProbe extends LongColumns {
    boolean found;

    @Override
    public void longs(final String name, final long[][] pages, final boolean entityRef) {
      found |= entityRef;
    }
  }

  /** A column visitor that reads only {@code long} columns (where entity references live). */
  private abstract static class LongColumns implements ColumnVisitor {
    @Override
    public void booleans(final String name, final boolean[][] pages) {}

    @Override
    public void bytes(final String name, final byte[][] pages) {}

    @Override
    public void shorts(final String name, final short[][] pages) {}

    @Override
    public void chars(final String name, final char[][] pages) {}

    @Override
    public void ints(final String name, final int[][] pages) {}

    @Override
    public void floats(final String name, final float[][] pages) {}

    @Override
    public void doubles(final String name, final double[][] pages) {}

    @Override
    public void objects(final String name, final Class<?> type, final Object[][] pages) {}
  }
}
