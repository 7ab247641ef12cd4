package dev.phalanx.ecs;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongConsumer;

/**
 * Creates, validates and recycles entity identifiers, with the swap-only policy ({@link
 * DeletionPolicy#SWAP_ONLY}).
 *
 * <h2>Invariants</h2>
 *
 * <ul>
 *   <li>{@code packed[0, alive)} holds the live entities; {@code packed[alive, size)} the released
 *       ones, each already carrying the version its next incarnation will have.
 *   <li>{@code position[index(e)]} is the position of the slot with that index; every index below
 *       {@code size} has one slot, so the map is a flat array.
 *   <li>Releasing swaps the entity to position {@code alive - 1} and decrements {@code alive};
 *       creating takes position {@code alive}. Recycling is therefore last in, first out, as
 *       EnTT's.
 * </ul>
 *
 * <h2>Costs</h2>
 *
 * <p>{@code create}, {@code release} and {@code valid} are O(1) with no allocation once capacity is
 * reached; bulk forms are O(n).
 *
 * <h2>Invalidation</h2>
 *
 * <p>{@link #each} (and {@link EntityView#each}, the same walk) visits every entity live at its
 * start once, from the last position to the first, less those released before their turn; entities
 * created meanwhile are never visited. The walk keeps a <em>floor</em>, the position it visits:
 * positions below it hold the entities still to come. A release normally moves the last live entity
 * into the hole; while a walk runs, a release of an entity below its floor first swaps that entity
 * with the last one still to come and lowers the floor by one, so that the entity moved into the
 * hole from above (visited already, or created during the walk) lands at the floor, never below it.
 * Walks may nest: every floor above the hole is kept so, lowest first.
 *
 * <h2>Threading</h2>
 *
 * <p>Not thread-safe.
 */
public final class EntityStorage {

  private static final int[] NO_FLOORS = new int[0];

  private final int limit;
  private long[] packed = new long[16];
  private int[] position = new int[16];
  private int alive;
  private int size;
  // Counts the changes of the packed array's [0, size) or of alive (see changes()).
  private long changes;
  // The walks in progress (see "Invalidation"). Raised and lowered atomically: several threads may
  // walk at once while nothing changes the registry, and none may leave the count wrong.
  private final AtomicInteger walks = new AtomicInteger();
  // The floor of the innermost walk: the position it visits, everything below still to come. Read
  // back by the walk only after floorMoves changed, which only a release (a change of the registry,
  // so no other thread is walking) does; concurrent walks that nothing changes may overwrite it.
  private int floor;
  // The floors of the walks outside the innermost, outermost first.
  private int[] outerFloors = NO_FLOORS;
  // Bumped when a release or a reset moves a floor: a walk then reads its floor back.
  private int floorMoves;

  /** Creates a storage that can hold up to {@link Entity#MAX_INDEX} + 1 entities. */
  public EntityStorage() {
    this(Entity.MAX_INDEX + 1);
  }

  /**
   * Creates a storage that refuses to create more than {@code limit} distinct identifiers.
   *
   * @param limit the number of identifiers, {@code [1, MAX_INDEX + 1]}
   */
  public EntityStorage(final int limit) {
    if (limit < 1 || limit > Entity.MAX_INDEX + 1) {
      throw new IllegalArgumentException(
          "entity limit must be in [1, " + (Entity.MAX_INDEX + 1) + "], got " + limit);
    }
    this.limit = limit;
  }

  /** {@return {@link DeletionPolicy#SWAP_ONLY}} */
  public DeletionPolicy policy() {
    return DeletionPolicy.SWAP_ONLY;
  }

  /** {@return the number of live entities} */
  public int alive() {
    return alive;
  }

  /**
   * {@return how many more entities can be created now: the released identifiers, which are
   * recycled first, plus those never created yet up to {@link #limit()}; {@code limit() - alive()}}
   * A bulk creation of more entities than this is refused having created none, and one of at most
   * this many is never refused for want of identifiers (a registry refuses creations for other
   * reasons too, while it is being cleared: see {@link Registry#create(long[], int, int)}). It
   * changes only as entities are created and destroyed.
   */
  public int available() {
    return limit - alive;
  }

  /** {@return the number of identifiers ever created (live and released)} */
  public int size() {
    return size;
  }

  /** {@return the largest number of identifiers this storage may create} */
  public int limit() {
    return limit;
  }

  /**
   * {@return the packed array: positions {@code [0, alive())} are live entities, {@code [alive(),
   * size())} released identifiers with their next version} Replaced on growth.
   */
  public long[] packed() {
    return packed;
  }

  /**
   * {@return whether {@code entity} is live: created, and not destroyed since}
   *
   * @param entity any handle, possibly stale or {@link Entity#NULL}
   */
  public boolean valid(final long entity) {
    final int index = (int) entity;
    if (index < 0 || index >= size) {
      return false;
    }
    final int at = position[index];
    return at < alive && packed[at] == entity;
  }

  /**
   * Creates an entity, recycling the most recently released identifier if any. Only the registry
   * creates entities.
   *
   * @throws IllegalStateException if every identifier is live and the limit is reached
   */
  long create() {
    changes++;
    if (alive < size) {
      return packed[alive++];
    }
    if (size == limit) {
      throw new IllegalStateException(
          "cannot create an entity: all "
              + limit
              + " identifiers are live (the layout holds at most "
              + (Entity.MAX_INDEX + 1)
              + ")");
    }
    if (size == packed.length) {
      grow(size + 1);
    }
    final long entity = Entity.of(size, 0);
    packed[size] = entity;
    position[size] = size;
    size++;
    alive++;
    return entity;
  }

  /**
   * Throws unless {@code count} more entities can be created now; checks what {@link
   * #create(long[], int, int)} checks, changing nothing.
   *
   * @throws IllegalStateException if the limit would be passed
   */
  void checkCreatable(final int count) {
    final int fresh = count - Math.min(count, size - alive);
    if (fresh > limit - size) {
      throw new IllegalStateException(
          "cannot create "
              + count
              + " entities: only "
              + (limit - alive)
              + " identifiers are left");
    }
  }

  /**
   * Creates {@code count} entities into {@code out[offset, offset + count)}. Either all are created
   * or, when the limit would be passed, none.
   *
   * @throws IllegalStateException if the limit would be passed
   */
  void create(final long[] out, final int offset, final int count) {
    if (offset < 0 || count < 0 || count > out.length - offset) {
      throw new IndexOutOfBoundsException(
          "range [" + offset + ", " + (offset + count) + ") of " + out.length);
    }
    checkCreatable(count);
    changes++;
    final int recycled = Math.min(count, size - alive);
    final int fresh = count - recycled;
    for (int i = 0; i < recycled; i++) {
      out[offset + i] = packed[alive++];
    }
    if (fresh > packed.length - size) {
      grow(size + fresh);
    }
    for (int i = recycled; i < count; i++) {
      final long entity = Entity.of(size, 0);
      packed[size] = entity;
      position[size] = size;
      size++;
      out[offset + i] = entity;
    }
    alive += fresh;
  }

  /**
   * Makes room for {@code capacity} identifiers, so that creating up to that many allocates
   * nothing. O(capacity) when it grows; identifiers are not created.
   *
   * @param capacity the number of identifiers to make room for; at most {@link #limit()} is kept
   */
  void reserve(final int capacity) {
    final int wanted = Math.min(capacity, limit);
    if (wanted > packed.length) {
      packed = Arrays.copyOf(packed, wanted);
      position = Arrays.copyOf(position, wanted);
    }
  }

  /**
   * Releases a live entity: its identifier will be recycled with the next version. Only the
   * registry releases entities, after removing their components.
   *
   * @return the version the identifier will have when recycled
   * @throws IllegalArgumentException if the entity is not valid
   */
  int release(final long entity) {
    return release(entity, Entity.nextVersion(Entity.version(entity)));
  }

  /**
   * As {@link #release(long)}, recycling the identifier with {@code version}; {@link
   * Entity#TOMBSTONE_VERSION} stands for the next version.
   */
  int release(final long entity, final int version) {
    if (!valid(entity)) {
      throw new IllegalArgumentException(
          "cannot destroy "
              + Entity.toString(entity)
              + ": it is not valid (already destroyed or never created)");
    }
    return releaseLive(entity, version);
  }

  /** As {@link #release(long, int)}, for an entity the caller has just found {@link #valid}. */
  int releaseLive(final long entity, final int version) {
    final int index = (int) entity;
    int at = position[index];
    if (0 != walks.get()) {
      at = keepTurns(at);
    }
    changes++;
    final int last = alive - 1;
    final long lastEntity = packed[last];
    packed[at] = lastEntity;
    position[(int) lastEntity] = at;
    final int nextVersion =
        Entity.TOMBSTONE_VERSION == version ? Entity.nextVersion(Entity.version(entity)) : version;
    packed[last] = Entity.of(index, nextVersion);
    position[index] = last;
    alive = last;
    return nextVersion;
  }

  /**
   * {@return the handle with index {@code index} as it is now: the live entity, or, for a released
   * identifier, the handle its next incarnation will have; {@link Entity#NULL} if the index was
   * never created} {@code Entity.version(current(i))} is the index's current version.
   *
   * @param index an entity index
   */
  public long current(final int index) {
    if (index < 0 || index >= size) {
      return Entity.NULL;
    }
    return packed[position[index]];
  }

  /**
   * Visits every entity live when it starts, once, last position first, less those the action
   * releases before their turn. Entities the action creates are never visited, whatever else it
   * creates or releases (see "Invalidation" in the class comment). No allocation.
   *
   * @param action called with each live entity
   */
  public void each(final LongConsumer action) {
    int seen = beginWalk();
    try {
      for (int at = alive - 1; at >= 0; at = Math.min(at - 1, alive - 1)) {
        floor = at;
        action.accept(packed[at]);
        if (seen != floorMoves) {
          // A release moved this walk's floor (or a reset ended it): continue below the floor.
          seen = floorMoves;
          at = floor;
        }
      }
    } finally {
      endWalk();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Walks: the floors that keep each() and EntityView.each() exact (see "Invalidation").
  // ---------------------------------------------------------------------------------------------

  /**
   * Starts a walk, its floor above every live position; returns the current {@link #floorMoves},
   * which the walk compares after each action. Allocates only when walks nest deeper than ever.
   */
  int beginWalk() {
    final int outer = walks.getAndIncrement();
    if (0 != outer) {
      if (outer > outerFloors.length) {
        outerFloors = Arrays.copyOf(outerFloors, Math.max(4, 2 * outer));
      }
      outerFloors[outer - 1] = floor;
    }
    floor = alive;
    return floorMoves;
  }

  /** Ends the innermost walk; the floor of the walk outside it, if any, is the floor again. */
  void endWalk() {
    final int outer = walks.decrementAndGet();
    if (0 != outer && outer <= outerFloors.length) {
      floor = outerFloors[outer - 1];
    }
  }

  /** Makes {@code at} the innermost walk's floor and returns the entity there, its visit. */
  long visit(final int at) {
    floor = at;
    return packed[at];
  }

  /** {@return the number of floor moves so far} A walk reads its floor back when it changed. */
  int floorMoves() {
    return floorMoves;
  }

  /** {@return the innermost walk's floor} */
  int floor() {
    return floor;
  }

  /**
   * Before the entity at {@code at} is released: for each walk whose floor lies above it, lowest
   * floor first, swaps it with that walk's last entity still to come (just below the floor) and
   * lowers the floor onto it. The entity still to come stays below its walk's floor; the released
   * entity ends at or above every floor, so the entity that fills its hole, which comes from above
   * every floor, is never still to come for any walk.
   *
   * @return the position of the entity to release afterwards
   */
  private int keepTurns(int at) {
    final int outer = walks.get() - 1;
    while (true) {
      int lowest = Integer.MAX_VALUE;
      int which = -1;
      if (floor > at) {
        lowest = floor;
        which = outer;
      }
      for (int i = 0; i < outer && i < outerFloors.length; i++) {
        final int f = outerFloors[i];
        if (f > at && f < lowest) {
          lowest = f;
          which = i;
        }
      }
      if (which < 0) {
        return at;
      }
      final int top = lowest - 1;
      if (top != at) {
        changes++;
        final long entity = packed[at];
        final long toCome = packed[top];
        packed[at] = toCome;
        position[(int) toCome] = at;
        packed[top] = entity;
        position[(int) entity] = top;
      }
      if (which == outer) {
        floor = top;
      } else {
        outerFloors[which] = top;
      }
      floorMoves++;
      at = top;
    }
  }

  /**
   * Ends every walk in progress, as far as their floors go: nothing is left below them to visit.
   */
  private void resetFloors() {
    if (0 != walks.get()) {
      floor = 0;
      Arrays.fill(outerFloors, 0);
      floorMoves++;
    }
  }

  /** Releases every live entity (their versions bump). Only the registry calls it. */
  void releaseAll() {
    for (int at = alive - 1; at >= 0; at--) {
      final long entity = packed[at];
      packed[at] = Entity.of((int) entity, Entity.nextVersion(Entity.version(entity)));
    }
    alive = 0;
    changes++;
    resetFloors();
  }

  /**
   * Replaces the whole state: {@code entities[0, count)} are the identifiers in packed order, the
   * first {@code aliveCount} live. Used to restore snapshots and, in tests, to reach version
   * wrap-around. Takes ownership of {@code entities} when it holds at least 16 elements: callers
   * pass an array they no longer use.
   *
   * @throws IllegalArgumentException if the identifiers are not exactly the indices {@code [0,
   *     count)}
   */
  void restore(final long[] entities, final int count, final int aliveCount) {
    restore(entities, count, aliveCount, null);
  }

  /**
   * As {@link #restore(long[], int, int)}; with {@code checkedPositions} (each index's position in
   * {@code entities}, as the snapshot loader's staging built and checked it, the same length as
   * {@code entities} and at least 16) both arrays are adopted without checking them again.
   */
  void restore(
      final long[] entities, final int count, final int aliveCount, final int[] checkedPositions) {
    if (null != checkedPositions
        && count == entities.length
        && checkedPositions.length == count
        && count >= 16
        && aliveCount >= 0
        && aliveCount <= count
        && count <= limit) {
      packed = entities;
      position = checkedPositions;
      size = count;
      alive = aliveCount;
      changes++;
      resetFloors();
      return;
    }
    if (count < 0
        || count > entities.length
        || aliveCount < 0
        || aliveCount > count
        || count > limit) {
      throw new IllegalArgumentException(
          "bad restore counts: count=" + count + ", alive=" + aliveCount);
    }
    // The snapshot loader's staging array is not used afterwards: adopt it when it is large enough.
    final long[] newPacked =
        entities.length >= Math.max(16, count) ? entities : new long[Math.max(16, count)];
    final int[] newPosition = new int[newPacked.length];
    Arrays.fill(newPosition, -1);
    for (int at = 0; at < count; at++) {
      final long entity = entities[at];
      final int index = (int) entity;
      if (index < 0 || index >= count || -1 != newPosition[index] || Entity.isTombstone(entity)) {
        throw new IllegalArgumentException(
            "bad restore: "
                + Entity.toString(entity)
                + " at "
                + at
                + " is out of range, repeated or a tombstone");
      }
      newPacked[at] = entity;
      newPosition[index] = at;
    }
    packed = newPacked;
    position = newPosition;
    size = count;
    alive = aliveCount;
    changes++;
    resetFloors();
  }

  /**
   * Returns how many times the packed array's live and released entries or the live count changed:
   * equal counts at two moments mean {@link #packed()} {@code [0, size())} and {@link #alive()} are
   * the same at both. Lets a reader that keeps a copy skip comparing it.
   *
   * @return the change count
   */
  public long changes() {
    return changes;
  }

  /** Appends every broken invariant of the identifier index to {@code problems}. */
  void verify(final java.util.List<String> problems) {
    for (int at = 0; at < size; at++) {
      final long entity = packed[at];
      final int index = (int) entity;
      if (index < 0 || index >= size || position[index] != at) {
        problems.add(
            "entity storage: "
                + Entity.toString(entity)
                + " at position "
                + at
                + " is not indexed there");
      }
    }
  }

  private void grow(final int minimum) {
    final int capacity = SparseSet.grownCapacity(packed.length, minimum, Entity.MAX_INDEX + 1);
    packed = Arrays.copyOf(packed, capacity);
    position = Arrays.copyOf(position, capacity);
  }
}
