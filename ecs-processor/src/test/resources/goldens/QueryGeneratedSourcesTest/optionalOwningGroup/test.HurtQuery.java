package test;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.EntityComparator;
import dev.phalanx.ecs.EntityRangeConsumer;
import dev.phalanx.ecs.OwningGroup;
import dev.phalanx.ecs.PositionComparator;
import dev.phalanx.ecs.Query;
import dev.phalanx.ecs.RangeConsumer;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Signal;
import dev.phalanx.ecs.command.CommandBuffer;
import dev.phalanx.ecs.command.CommandBuffers;
import dev.phalanx.ecs.internal.LoopCopies;
import dev.phalanx.ecs.schedule.Access;
import dev.phalanx.ecs.schedule.AccessSource;
import java.lang.FunctionalInterface;
import java.lang.IllegalStateException;
import java.lang.Override;
import java.util.concurrent.ForkJoinPool;
import java.util.function.LongConsumer;
import javax.annotation.processing.Generated;

/**
 * The owning group declared by {@code test.Hurt}: owned {@link test.Position}, get none, excluded none.
 *
 * <p>Optional terms, which a visited entity may or may not have:
 * {@link test.Health}.
 * They do not change which entities are visited, and allocate nothing. Each is
 * looked up per visited entity: at the lead's position when its storage holds the entity there,
 * else by one sparse lookup.
 * Each comes after the included components: a cursor, or {@code null} when the entity has
 * none (a tag as a {@code boolean}, whether the entity has it).
 *
 * <p>Create it with {@link #of}, then iterate with {@link #each}, {@link #eachChunk} or
 * {@link #parallelEachChunk(Chunk)}:
 *
 * <pre>{@code
 * query.eachChunk((from, to, ...) -> {
 *   for (int i = from; i < to; i++) { ... }
 * });
 * }</pre>
 *
 * <p>{@link #eachChunk(EntityChunk)} also hands each run the group's entities.
 *
 * <h2>Costs</h2>
 *
 * <ul>
 *   <li>{@code each}: O(n), owned components by position, get components by one lookup each;
 *       no allocation.
 *   <li>{@code eachChunk}: O(n), one call of the body per run of up to a page; no allocation.
 *       A run of a tracked owned component is stamped after the body (one fill of its ticks),
 *       unless the query lists it in {@code readOnly};
 *       {@code eachChunkReadOnly} skips that.
 *   <li>Profile pollution: {@code each} runs each visitor class in a copy of its loop of its own
 *       (the first eight classes that go through this query class), so that the call of the
 *       visitor is inlined. Further classes share one copy, where the call is megamorphic on
 *       every element. The chunk forms call the body once per page run (4,096 elements by
 *       default), so a megamorphic call costs once per run, and the inner loop is the body's own
 *       monomorphic loop.
 * </ul>
 *
 * <h2>Threading</h2>
 *
 * <p>A query object is not thread-safe: its cursors are shared by all calls of {@code each}, so use
 * one query per thread, and a second query (another {@link #of}) for a nested loop over the same
 * declaration. {@link #parallelEachChunk(java.util.concurrent.ForkJoinPool, Chunk)} documents its own contract.
 *
 * <h2>What may change during an iteration</h2>
 *
 * <p>As for the runtime {@code each}: the visited entity may lose components or be destroyed;
 * other entities may not leave the group meanwhile (detected, {@link java.util.ConcurrentModificationException}).
 * The chunk forms lock the storages: no structural change at all.
 */
@Generated("dev.phalanx.ecs.processor.PhalanxProcessor")
public final class HurtQuery extends Query implements AccessSource {
  /**
   * Which copy of the {@code each} loop runs each visitor class: one copy per class for the first
   * 8 classes, so that each copy's call of the visitor stays monomorphic and is inlined. Measured
   * (benchmark {@code LoopCopiesDecision}: five visitor classes through one query of two owned
   * components, 1M entities): 1.1 ns per entity with the copies, 10 ns with a single loop,
   * whose call of the visitor turns megamorphic. The copies cost bytecode only: a copy that no
   * visitor class runs is never compiled.
   */
  private static final LoopCopies LOOP_COPIES = new LoopCopies(8);

  private final OwningGroup group;

  private boolean iterating$;

  private final Position_Storage positionStorage;

  private final Health_Storage healthStorage;

  private final Position_Cursor positionCursor;

  private final Health_Cursor healthCursor;

  /**
   * The visitor of the {@code eachInOrder} walk in progress, or null.
   */
  private Visitor inOrder$;

  /**
   * The step {@code eachInOrder} hands the group: made once, so a walk allocates nothing.
   */
  private final LongConsumer inOrderStep$;

  private final int pageShift;

  private final int pageMask;

  private final RangeConsumer currentRun;

  private Chunk current;

  private final EntityRangeConsumer currentEntityRun;

  private EntityChunk currentEntities;

  private HurtQuery(final Registry registry) {
    this.group = registry.owningGroup(
        new ComponentType<?, ?>[] {Position_Traits.TYPE},
        new ComponentType<?, ?>[0],
        new ComponentType<?, ?>[0]);
    this.positionStorage = registry.storage(Position_Traits.TYPE);
    this.healthStorage = registry.storage(Health_Traits.TYPE);
    this.positionCursor = positionStorage.cursor();
    this.healthCursor = healthStorage.cursor();
    this.inOrderStep$ = this::visitInOrder;
    // Owned components with fields share one page size (checked at compile time), so one
    // shift and mask turn a position into a page and an offset for all of them.
    this.pageShift = positionStorage.pageShift();
    this.pageMask = positionStorage.pageSize() - 1;
    this.currentRun = this::runCurrent;
    this.currentEntityRun = this::runCurrentEntities;
  }

  /**
   * Returns a query over the group of {@code registry}, creating the group if the
   * registry has none yet (O(n) to arrange the existing entities). The query is cheap: keep one per system
   * and thread; create a second one for a nested loop over the same declaration.
   *
   * @param registry the registry to iterate
   * @return a new query
   * @throws IllegalStateException if the group conflicts with an existing group of the registry
   */
  public static HurtQuery of(final Registry registry) {
    return new HurtQuery(registry);
  }

  /**
   * Returns the runtime group this query iterates.
   *
   * @return the group
   */
  public OwningGroup group() {
    return group;
  }

  /**
   * Returns the number of members of the group.
   *
   * @return the number of members
   */
  public int size() {
    return group.size();
  }

  /**
   * Returns whether {@code entity} is visited by this query.
   *
   * @param entity the entity
   * @return whether it has every included component and no excluded one
   */
  public boolean contains(final long entity) {
    return group.contains(entity);
  }

  /**
   * Returns the signal published when an entity joins this query's entities, once the change
   * that made it so is complete; listeners follow the runtime's signal rules.
   *
   * @return the {@code onEnter} signal of the underlying group
   */
  public Signal onEnter() {
    return group.onEnter();
  }

  /**
   * Returns the signal published when an entity leaves this query's entities, once the change
   * that made it so is complete; listeners follow the runtime's signal rules.
   *
   * @return the {@code onLeave} signal of the underlying group
   */
  public Signal onLeave() {
    return group.onLeave();
  }

  /**
   * Returns the storage of {@link Position}.
   *
   * @return the registry's storage
   */
  public Position_Storage positionStorage() {
    return positionStorage;
  }

  /**
   * Returns the storage of {@link Health}.
   *
   * @return the registry's storage
   */
  public Health_Storage healthStorage() {
    return healthStorage;
  }

  /**
   * Declares what this query touches, for a system that uses it (see {@code dev.phalanx.ecs.schedule}):
   * it iterates every listed storage, writes the included and optional components and reads those listed in
   * {@code readOnly}.
   *
   * @param access the builder of a system's access
   */
  @Override
  public void declareAccess(final Access.Builder access) {
    access.iterates(Position_Traits.TYPE).writes(Position_Traits.TYPE);
    access.iterates(Health_Traits.TYPE).writes(Health_Traits.TYPE);
  }

  /**
   * Calls {@code visitor} for each entity of the group, last position first, with its cursors
   * positioned on the entity's components. The cursors are fields of this query, moved for each
   * entity: nothing is allocated. Not reentrant on one query object: a nested call throws
   * {@link IllegalStateException} (make a second query object for a nested loop).
   *
   * <p>Owned components are reached by position, since the owned storages are aligned; get
   * components by one lookup each.
   *
   * @param visitor the loop body
   * @throws java.util.ConcurrentModificationException if the visitor made other entities leave the
   *     group or rearranged the storage being walked
   */
  public void each(final Visitor visitor) {
    if (this.iterating$) {
      throw new IllegalStateException("HurtQuery is already iterating: every per-entity loop of one query object shares its cursors; for a nested loop over the same entities, make a second query with HurtQuery.of(registry)");
    }
    this.iterating$ = true;
    try {
      // One copy of the loop per visitor class (see LOOP_COPIES); the copies are identical.
      switch (LOOP_COPIES.copyOf(visitor)) {
        case 0:
          each0(visitor);
          break;
        case 1:
          each1(visitor);
          break;
        case 2:
          each2(visitor);
          break;
        case 3:
          each3(visitor);
          break;
        case 4:
          each4(visitor);
          break;
        case 5:
          each5(visitor);
          break;
        case 6:
          each6(visitor);
          break;
        case 7:
          each7(visitor);
          break;
        default:
          eachShared(visitor);
      }
    } finally {
      this.iterating$ = false;
    }
  }

  /**
   * The loop of {@link #each}, in 9 identical copies ({@code each0} to {@code each7}, then
   * {@code eachShared} for the visitor classes past them): the JIT profiles the call of the visitor
   * per method, so a copy that sees one class inlines it (see {@code LOOP_COPIES} for what that
   * measured). Only {@link #each} calls them, having refused a nested call.
   *
   * @param visitor the loop body
   */
  private void each0(final Visitor visitor) {
    final Position_Cursor positionCursor = this.positionCursor;
    final OwningGroup group = this.group;
    // Any owned storage can lead: members sit at positions [0, size()) of each, in one order.
    final Position_Storage lead = this.positionStorage;
    Query.beginIteration(lead);
    try {
      for (int from = group.size() - 1; from >= 0; ) {
        final int page = from >>> pageShift;
        final int pageStart = page << pageShift;
        Query.moveToPage(positionCursor, page);
        int next = pageStart - 1;
        for (int offset = from - pageStart; offset >= 0; offset--) {
          final int position = pageStart + offset;
          final long entity = lead.packed()[position];
          Query.moveWithinPage(positionCursor, offset);
          Query.visit(lead, position);
          visitor.visit(entity, positionCursor, healthOrNull$(entity, position));
          if (group.size() < position) {
            // Members besides the visited one left: go on from the new end.
            next = group.size() - 1;
            break;
          }
        }
        from = next;
      }
    } finally {
      Query.endIteration(lead);
    }
  }

  /**
   * A copy of {@link #each0}.
   *
   * @param visitor the loop body
   */
  private void each1(final Visitor visitor) {
    final Position_Cursor positionCursor = this.positionCursor;
    final OwningGroup group = this.group;
    // Any owned storage can lead: members sit at positions [0, size()) of each, in one order.
    final Position_Storage lead = this.positionStorage;
    Query.beginIteration(lead);
    try {
      for (int from = group.size() - 1; from >= 0; ) {
        final int page = from >>> pageShift;
        final int pageStart = page << pageShift;
        Query.moveToPage(positionCursor, page);
        int next = pageStart - 1;
        for (int offset = from - pageStart; offset >= 0; offset--) {
          final int position = pageStart + offset;
          final long entity = lead.packed()[position];
          Query.moveWithinPage(positionCursor, offset);
          Query.visit(lead, position);
          visitor.visit(entity, positionCursor, healthOrNull$(entity, position));
          if (group.size() < position) {
            // Members besides the visited one left: go on from the new end.
            next = group.size() - 1;
            break;
          }
        }
        from = next;
      }
    } finally {
      Query.endIteration(lead);
    }
  }

  /**
   * A copy of {@link #each0}.
   *
   * @param visitor the loop body
   */
  private void each2(final Visitor visitor) {
    final Position_Cursor positionCursor = this.positionCursor;
    final OwningGroup group = this.group;
    // Any owned storage can lead: members sit at positions [0, size()) of each, in one order.
    final Position_Storage lead = this.positionStorage;
    Query.beginIteration(lead);
    try {
      for (int from = group.size() - 1; from >= 0; ) {
        final int page = from >>> pageShift;
        final int pageStart = page << pageShift;
        Query.moveToPage(positionCursor, page);
        int next = pageStart - 1;
        for (int offset = from - pageStart; offset >= 0; offset--) {
          final int position = pageStart + offset;
          final long entity = lead.packed()[position];
          Query.moveWithinPage(positionCursor, offset);
          Query.visit(lead, position);
          visitor.visit(entity, positionCursor, healthOrNull$(entity, position));
          if (group.size() < position) {
            // Members besides the visited one left: go on from the new end.
            next = group.size() - 1;
            break;
          }
        }
        from = next;
      }
    } finally {
      Query.endIteration(lead);
    }
  }

  /**
   * A copy of {@link #each0}.
   *
   * @param visitor the loop body
   */
  private void each3(final Visitor visitor) {
    final Position_Cursor positionCursor = this.positionCursor;
    final OwningGroup group = this.group;
    // Any owned storage can lead: members sit at positions [0, size()) of each, in one order.
    final Position_Storage lead = this.positionStorage;
    Query.beginIteration(lead);
    try {
      for (int from = group.size() - 1; from >= 0; ) {
        final int page = from >>> pageShift;
        final int pageStart = page << pageShift;
        Query.moveToPage(positionCursor, page);
        int next = pageStart - 1;
        for (int offset = from - pageStart; offset >= 0; offset--) {
          final int position = pageStart + offset;
          final long entity = lead.packed()[position];
          Query.moveWithinPage(positionCursor, offset);
          Query.visit(lead, position);
          visitor.visit(entity, positionCursor, healthOrNull$(entity, position));
          if (group.size() < position) {
            // Members besides the visited one left: go on from the new end.
            next = group.size() - 1;
            break;
          }
        }
        from = next;
      }
    } finally {
      Query.endIteration(lead);
    }
  }

  /**
   * A copy of {@link #each0}.
   *
   * @param visitor the loop body
   */
  private void each4(final Visitor visitor) {
    final Position_Cursor positionCursor = this.positionCursor;
    final OwningGroup group = this.group;
    // Any owned storage can lead: members sit at positions [0, size()) of each, in one order.
    final Position_Storage lead = this.positionStorage;
    Query.beginIteration(lead);
    try {
      for (int from = group.size() - 1; from >= 0; ) {
        final int page = from >>> pageShift;
        final int pageStart = page << pageShift;
        Query.moveToPage(positionCursor, page);
        int next = pageStart - 1;
        for (int offset = from - pageStart; offset >= 0; offset--) {
          final int position = pageStart + offset;
          final long entity = lead.packed()[position];
          Query.moveWithinPage(positionCursor, offset);
          Query.visit(lead, position);
          visitor.visit(entity, positionCursor, healthOrNull$(entity, position));
          if (group.size() < position) {
            // Members besides the visited one left: go on from the new end.
            next = group.size() - 1;
            break;
          }
        }
        from = next;
      }
    } finally {
      Query.endIteration(lead);
    }
  }

  /**
   * A copy of {@link #each0}.
   *
   * @param visitor the loop body
   */
  private void each5(final Visitor visitor) {
    final Position_Cursor positionCursor = this.positionCursor;
    final OwningGroup group = this.group;
    // Any owned storage can lead: members sit at positions [0, size()) of each, in one order.
    final Position_Storage lead = this.positionStorage;
    Query.beginIteration(lead);
    try {
      for (int from = group.size() - 1; from >= 0; ) {
        final int page = from >>> pageShift;
        final int pageStart = page << pageShift;
        Query.moveToPage(positionCursor, page);
        int next = pageStart - 1;
        for (int offset = from - pageStart; offset >= 0; offset--) {
          final int position = pageStart + offset;
          final long entity = lead.packed()[position];
          Query.moveWithinPage(positionCursor, offset);
          Query.visit(lead, position);
          visitor.visit(entity, positionCursor, healthOrNull$(entity, position));
          if (group.size() < position) {
            // Members besides the visited one left: go on from the new end.
            next = group.size() - 1;
            break;
          }
        }
        from = next;
      }
    } finally {
      Query.endIteration(lead);
    }
  }

  /**
   * A copy of {@link #each0}.
   *
   * @param visitor the loop body
   */
  private void each6(final Visitor visitor) {
    final Position_Cursor positionCursor = this.positionCursor;
    final OwningGroup group = this.group;
    // Any owned storage can lead: members sit at positions [0, size()) of each, in one order.
    final Position_Storage lead = this.positionStorage;
    Query.beginIteration(lead);
    try {
      for (int from = group.size() - 1; from >= 0; ) {
        final int page = from >>> pageShift;
        final int pageStart = page << pageShift;
        Query.moveToPage(positionCursor, page);
        int next = pageStart - 1;
        for (int offset = from - pageStart; offset >= 0; offset--) {
          final int position = pageStart + offset;
          final long entity = lead.packed()[position];
          Query.moveWithinPage(positionCursor, offset);
          Query.visit(lead, position);
          visitor.visit(entity, positionCursor, healthOrNull$(entity, position));
          if (group.size() < position) {
            // Members besides the visited one left: go on from the new end.
            next = group.size() - 1;
            break;
          }
        }
        from = next;
      }
    } finally {
      Query.endIteration(lead);
    }
  }

  /**
   * A copy of {@link #each0}.
   *
   * @param visitor the loop body
   */
  private void each7(final Visitor visitor) {
    final Position_Cursor positionCursor = this.positionCursor;
    final OwningGroup group = this.group;
    // Any owned storage can lead: members sit at positions [0, size()) of each, in one order.
    final Position_Storage lead = this.positionStorage;
    Query.beginIteration(lead);
    try {
      for (int from = group.size() - 1; from >= 0; ) {
        final int page = from >>> pageShift;
        final int pageStart = page << pageShift;
        Query.moveToPage(positionCursor, page);
        int next = pageStart - 1;
        for (int offset = from - pageStart; offset >= 0; offset--) {
          final int position = pageStart + offset;
          final long entity = lead.packed()[position];
          Query.moveWithinPage(positionCursor, offset);
          Query.visit(lead, position);
          visitor.visit(entity, positionCursor, healthOrNull$(entity, position));
          if (group.size() < position) {
            // Members besides the visited one left: go on from the new end.
            next = group.size() - 1;
            break;
          }
        }
        from = next;
      }
    } finally {
      Query.endIteration(lead);
    }
  }

  /**
   * A copy of {@link #each0}, shared by the visitor classes past the other copies.
   *
   * @param visitor the loop body
   */
  private void eachShared(final Visitor visitor) {
    final Position_Cursor positionCursor = this.positionCursor;
    final OwningGroup group = this.group;
    // Any owned storage can lead: members sit at positions [0, size()) of each, in one order.
    final Position_Storage lead = this.positionStorage;
    Query.beginIteration(lead);
    try {
      for (int from = group.size() - 1; from >= 0; ) {
        final int page = from >>> pageShift;
        final int pageStart = page << pageShift;
        Query.moveToPage(positionCursor, page);
        int next = pageStart - 1;
        for (int offset = from - pageStart; offset >= 0; offset--) {
          final int position = pageStart + offset;
          final long entity = lead.packed()[position];
          Query.moveWithinPage(positionCursor, offset);
          Query.visit(lead, position);
          visitor.visit(entity, positionCursor, healthOrNull$(entity, position));
          if (group.size() < position) {
            // Members besides the visited one left: go on from the new end.
            next = group.size() - 1;
            break;
          }
        }
        from = next;
      }
    } finally {
      Query.endIteration(lead);
    }
  }

  /**
   * Sorts the members by entity through the group (see its {@code sort}): the comparator sees
   * the storages unchanged; if it throws, nothing moves.
   *
   * @param comparator the order of two entities
   */
  public void sort(final EntityComparator comparator) {
    group.sort(comparator);
  }

  /**
   * Sorts the members through the group by comparing two positions of the owned storages
   * (aligned, and unchanged while the comparator runs); every owned storage follows.
   *
   * @param comparator the order of the elements at two positions
   */
  public void sortByPosition(final PositionComparator comparator) {
    group.sortByPosition(comparator);
  }

  /**
   * Calls {@code visitor} for each member, position 0 first: after a sort, in the sort's order
   * (smallest key first), the reverse of {@link #each}. The group's {@code eachInOrder} walks the
   * members with its storages locked: the visitor may read and write components, but every
   * structural change to them is refused with {@link java.util.ConcurrentModificationException}
   * before it changes anything (record such changes in a command buffer). Each cursor is moved
   * to its entity by one lookup; nothing is allocated. Not reentrant on one query object, as
   * {@link #each}.
   *
   * @param visitor the loop body
   */
  public void eachInOrder(final Visitor visitor) {
    if (this.iterating$) {
      throw new IllegalStateException("HurtQuery is already iterating: every per-entity loop of one query object shares its cursors; for a nested loop over the same entities, make a second query with HurtQuery.of(registry)");
    }
    this.iterating$ = true;
    try {
      this.inOrder$ = visitor;
      group.eachInOrder(this.inOrderStep$);
    } finally {
      this.inOrder$ = null;
      this.iterating$ = false;
    }
  }

  /**
   * One step of {@link #eachInOrder}: positions the cursors on {@code entity} and visits it.
   *
   * @param entity a member
   */
  private void visitInOrder(final long entity) {
    final Visitor visitor = this.inOrder$;
    final Position_Cursor positionCursor = this.positionCursor;
    positionCursor.moveToEntity(entity);
    visitor.visit(entity, positionCursor, healthOrNull$(entity, -1));
  }

  /**
   * Places the cursor over {@link Health} on {@code entity}'s component: found at
   * {@code position} when the storage holds the entity there, else by one sparse lookup; no
   * allocation.
   *
   * @param entity a visited entity
   * @param position the entity's position in the loop's lead storage, or -1
   * @return the cursor, or {@code null} if the entity has no {@link Health}
   */
  private Health_Cursor healthOrNull$(final long entity, final int position) {
    final int index = Query.holdsAt(healthStorage, position, entity) ? position : healthStorage.indexOf(entity);
    return index < 0 ? null : healthCursor.moveTo(index);
  }

  /**
   * Calls {@code chunk} once per run of contiguous positions covering the group, first to last.
   * Each run lies within one page of every owned storage; {@code chunk} receives that page of each
   * field of each owned component and the range {@code [from, to)} of offsets into those arrays.
   *
   * <p>The group's storages are locked meanwhile: the body may read and write the arrays (and any
   * component field) but not add or remove components of the listed types, which throws
   * {@link java.util.ConcurrentModificationException}. Allocates nothing. Reentrant: the body may
   * call {@code eachChunk} again.
   *
   * @param chunk the loop body, called once per run of up to a page of elements
   */
  public void eachChunk(final Chunk chunk) {
    final Chunk outer = current;
    current = chunk;
    try {
      // A run adapter made once per query, so that a call allocates nothing.
      group.eachChunk(currentRun);
    } finally {
      current = outer;
    }
  }

  /**
   * As {@link #eachChunk(Chunk)}: no owned component of this query is tracked, so no pass stamps
   * anything and the read-only form is the same pass, for code that does not depend on which
   * components are tracked.
   *
   * @param chunk the loop body, called once per run of up to a page of elements
   */
  public void eachChunkReadOnly(final Chunk chunk) {
    eachChunk(chunk);
  }

  /**
   * As {@link #parallelEachChunk(ForkJoinPool, Chunk)} on the common pool.
   *
   * @param chunk the loop body; called from several threads at once
   */
  public void parallelEachChunk(final Chunk chunk) {
    parallelEachChunk(ForkJoinPool.commonPool(), chunk);
  }

  /**
   * As {@link #eachChunk}, with the runs spread over the threads of {@code pool}; returns when
   * every run is done and rethrows the first exception thrown by the body.
   *
   * <p>Threading:
   * <ul>
   *   <li>Every storage the group observes is locked until the call returns: adding or removing a
   *       component of a listed type, from any thread, throws
   *       {@link java.util.ConcurrentModificationException}.
   *   <li>Runs are disjoint: the body may write the elements {@code [from, to)} of the arrays it
   *       receives, each position from one thread only. It must not write other positions, nor
   *       read positions other threads write.
   *   <li>Writes made by the body happen-before the return of this method.
   * </ul>
   *
   * <p>Tasks: the group's grain ({@code group().parallelGrain(n)}, automatic by default: about
   * four tasks per thread of the pool, of at least 1,024 positions), or one per call with
   * {@link #parallelEachChunk(ForkJoinPool, int, Chunk)}. Allocates the fork-join tasks (a few per call),
   * never per element.
   *
   * @param pool the pool to run on
   * @param chunk the loop body; called from several threads at once
   */
  public void parallelEachChunk(final ForkJoinPool pool, final Chunk chunk) {
    group.parallelEachChunk(pool, (from, to) -> visitRun(chunk, from, to));
  }

  /**
   * As {@link #parallelEachChunk(ForkJoinPool, Chunk)}, with a grain for this call: the most positions a
   * task holds (0: automatic), as {@link OwningGroup#parallelEachChunk(ForkJoinPool, int, RangeConsumer)} rounds and
   * documents it. Without one, a pass uses the group's grain, {@code group().parallelGrain(n)},
   * automatic by default.
   *
   * @param pool the pool to run on
   * @param grain the most positions a task holds, or 0 for the automatic grain
   * @param chunk the loop body; called from several threads at once
   * @throws IllegalArgumentException if {@code grain} is negative
   */
  public void parallelEachChunk(final ForkJoinPool pool, final int grain, final Chunk chunk) {
    group.parallelEachChunk(pool, grain, (from, to) -> visitRun(chunk, from, to));
  }

  /**
   * As {@link #parallelEachChunk(ForkJoinPool, Chunk)}, without stamping the tracked owned components (see
   * {@link #eachChunkReadOnly(Chunk)}).
   *
   * @param pool the pool to run on
   * @param chunk the loop body; called from several threads at once
   */
  public void parallelEachChunkReadOnly(final ForkJoinPool pool, final Chunk chunk) {
    group.parallelEachChunk(pool, (from, to) -> visitRun(chunk, from, to));
  }

  private void runCurrent(final int from, final int to) {
    visitRun(current, from, to);
  }

  private void visitRun(final Chunk chunk, final int from, final int to) {
    // The group's runs never cross a page of an owned storage: one page and offset serve the run.
    final int page = from >>> pageShift;
    final int offset = from & pageMask;
    chunk.visit(offset, offset + (to - from), positionStorage.xPages()[page], positionStorage.yPages()[page]);
  }

  /**
   * As {@link #eachChunk(Chunk)}, handing each run the group's entities as well: the entity of
   * offset {@code i} is {@code entities[pageStart + i]}. A body can so act on the entities it finds in
   * the same pass, for example record their destruction into a {@link CommandBuffer} applied after the
   * loop (the storages are locked during it). Allocates nothing. Reentrant.
   *
   * @param chunk the loop body, called once per run of up to a page of elements
   */
  public void eachChunk(final EntityChunk chunk) {
    final EntityChunk outer = currentEntities;
    currentEntities = chunk;
    try {
      // A run adapter made once per query, so that a call allocates nothing.
      group.eachChunk(currentEntityRun);
    } finally {
      currentEntities = outer;
    }
  }

  /**
   * As {@link #eachChunk(EntityChunk)}: no owned component of this query is tracked, so no pass stamps
   * anything and the read-only form is the same pass, for code that does not depend on which
   * components are tracked.
   *
   * @param chunk the loop body, called once per run of up to a page of elements
   */
  public void eachChunkReadOnly(final EntityChunk chunk) {
    eachChunk(chunk);
  }

  /**
   * As {@link #parallelEachChunk(ForkJoinPool, EntityChunk)} on the common pool.
   *
   * @param chunk the loop body; called from several threads at once
   */
  public void parallelEachChunk(final EntityChunk chunk) {
    parallelEachChunk(ForkJoinPool.commonPool(), chunk);
  }

  /**
   * As {@link #parallelEachChunk(ForkJoinPool, Chunk)}, handing each run the group's entities as well (see
   * {@link #eachChunk(EntityChunk)}); to act on them, record into one command buffer per run.
   *
   * @param pool the pool to run on
   * @param chunk the loop body; called from several threads at once
   */
  public void parallelEachChunk(final ForkJoinPool pool, final EntityChunk chunk) {
    group.parallelEachChunk(pool, (entities, from, to) -> visitEntityRun(chunk, entities, from, to));
  }

  /**
   * As {@link #parallelEachChunk(ForkJoinPool, EntityChunk)}, with a grain for this call: the most positions a
   * task holds (0: automatic), as {@link OwningGroup#parallelEachChunk(ForkJoinPool, int, RangeConsumer)} rounds and
   * documents it. Without one, a pass uses the group's grain, {@code group().parallelGrain(n)},
   * automatic by default.
   *
   * @param pool the pool to run on
   * @param grain the most positions a task holds, or 0 for the automatic grain
   * @param chunk the loop body; called from several threads at once
   * @throws IllegalArgumentException if {@code grain} is negative
   */
  public void parallelEachChunk(final ForkJoinPool pool, final int grain, final EntityChunk chunk) {
    group.parallelEachChunk(pool, grain, (entities, from, to) -> visitEntityRun(chunk, entities, from, to));
  }

  /**
   * As {@link #parallelEachChunk(ForkJoinPool, EntityChunk)}, without stamping the tracked owned components (see
   * {@link #eachChunkReadOnly(EntityChunk)}).
   *
   * @param pool the pool to run on
   * @param chunk the loop body; called from several threads at once
   */
  public void parallelEachChunkReadOnly(final ForkJoinPool pool, final EntityChunk chunk) {
    group.parallelEachChunk(pool, (entities, from, to) -> visitEntityRun(chunk, entities, from, to));
  }

  private void runCurrentEntities(final long[] entities, final int from, final int to) {
    visitEntityRun(currentEntities, entities, from, to);
  }

  private void visitEntityRun(final EntityChunk chunk, final long[] entities, final int from,
      final int to) {
    // Positions index the entities; offsets index the pages: position = pageStart + offset.
    final int page = from >>> pageShift;
    final int offset = from & pageMask;
    chunk.visit(entities, from - offset, offset, offset + (to - from), positionStorage.xPages()[page], positionStorage.yPages()[page]);
  }

  /**
   * As {@link #parallelEachChunk(ForkJoinPool, EntityChunk)}, handing each run its own command buffer as well:
   * the buffer of {@code commands} for the run's first position, so that no two runs share one
   * and {@code commands.apply()}, after the call, applies the runs in position order whatever the
   * number of threads.
   *
   * @param pool the pool to run on
   * @param commands the set whose buffers the runs record into
   * @param chunk the loop body; called from several threads at once
   */
  public void parallelEachChunk(final ForkJoinPool pool, final CommandBuffers commands,
      final CommandChunk chunk) {
    commands.parallelEachChunk(group, pool, (buffer, entities, from, to) -> visitCommandRun(chunk, buffer, entities, from, to));
  }

  /**
   * As {@link #parallelEachChunk(ForkJoinPool, CommandBuffers, CommandChunk)}, with a grain for this call (see
   * {@link #parallelEachChunk(ForkJoinPool, int, Chunk)}); each run still has its own buffer.
   *
   * @param pool the pool to run on
   * @param grain the most positions a task holds, or 0 for the automatic grain
   * @param commands the set whose buffers the runs record into
   * @param chunk the loop body; called from several threads at once
   * @throws IllegalArgumentException if {@code grain} is negative
   */
  public void parallelEachChunk(final ForkJoinPool pool, final int grain,
      final CommandBuffers commands, final CommandChunk chunk) {
    commands.parallelEachChunk(group, pool, grain, (buffer, entities, from, to) -> visitCommandRun(chunk, buffer, entities, from, to));
  }

  private void visitCommandRun(final CommandChunk chunk, final CommandBuffer buffer,
      final long[] entities, final int from, final int to) {
    final int page = from >>> pageShift;
    final int offset = from & pageMask;
    chunk.visit(buffer, entities, from - offset, offset, offset + (to - from), positionStorage.xPages()[page], positionStorage.yPages()[page]);
  }

  /**
   * The body of {@link HurtQuery#each}: one call per entity, with a typed cursor per included component
   * that has fields (tags add no parameter).
   *
   * <p>Optional terms, which a visited entity may or may not have:
   * {@link test.Health}.
   * They do not change which entities are visited, and allocate nothing. Each is
   * looked up per visited entity: at the lead's position when its storage holds the entity there,
   * else by one sparse lookup.
   * Each comes after the included components: a cursor, or {@code null} when the entity has
   * none (a tag as a {@code boolean}, whether the entity has it).
   */
  @FunctionalInterface
  public interface Visitor {
    /**
     * Visits one entity; the cursors are positioned on its components and are reused for the next
     * entity, so do not keep them.
     *
     * @param entity the entity
     * @param position a cursor over its {@link Position}
     * @param health a cursor over its {@link Health}, or {@code null} if it has none (optional)
     */
    void visit(long entity, Position_Cursor position, Health_Cursor health);
  }

  /**
   * The body of {@link HurtQuery#eachChunk}: one call per run of contiguous positions, with the page
   * arrays of every field of the owned components (Position) in declaration order. Write it as a counted
   * loop, {@code for (int i = from; i < to; i++)}, over the arrays; the JIT can then unroll and
   * vectorize it.
   *
   * <p>Components the group gets but does not own are not passed: their elements are not aligned
   * with the group's positions, so there is no array range to hand out; read them per entity in
   * {@code each}. Tags add nothing.
   */
  @FunctionalInterface
  public interface Chunk {
    /**
     * Visits one run: the elements at offsets {@code [from, to)} of every array belong to the same
     * entities, in the same order.
     *
     * @param from the first offset, inclusive
     * @param to the last offset, exclusive; {@code from < to}
     * @param positionX the page of {@code Position.x}
     * @param positionY the page of {@code Position.y}
     */
    void visit(int from, int to, float[] positionX, float[] positionY);
  }

  /**
   * The body of {@link HurtQuery#eachChunk(EntityChunk)}: as {@link Chunk}, with the entities of the run
   * first, so that the body can act on what it finds without a second pass:
   *
   * <pre>{@code
   * query.eachChunk((entities, pageStart, from, to, ...) -> {
   *   for (int i = from; i < to; i++) {
   *     long entity = entities[pageStart + i];
   *   }
   * });
   * }</pre>
   */
  @FunctionalInterface
  public interface EntityChunk {
    /**
     * Visits one run: the elements at offsets {@code [from, to)} of every array belong to the
     * entities {@code entities[pageStart + from]} to {@code entities[pageStart + to - 1]}, in that order.
     *
     * @param entities the group's entities by position (the packed array of an owned storage, not
     *     a copy); read only, valid during the call
     * @param pageStart the position of offset 0 of the pages: offset {@code i} is position
     *     {@code pageStart + i}
     * @param from the first offset, inclusive
     * @param to the last offset, exclusive; {@code from < to}
     * @param positionX the page of {@code Position.x}
     * @param positionY the page of {@code Position.y}
     */
    void visit(long[] entities, int pageStart, int from, int to, float[] positionX,
        float[] positionY);
  }

  /**
   * The body of {@link HurtQuery#parallelEachChunk(ForkJoinPool, CommandBuffers, CommandChunk)}: as {@link EntityChunk}, with
   * the run's own command buffer first, so that recording from a parallel pass is safe by
   * construction:
   *
   * <pre>{@code
   * query.parallelEachChunk(pool, commands, (buffer, entities, pageStart, from, to, ...) -> {
   *   for (int i = from; i < to; i++) {
   *     buffer.destroy(entities[pageStart + i]);
   *   }
   * });
   * commands.apply();
   * }</pre>
   */
  @FunctionalInterface
  public interface CommandChunk {
    /**
     * Visits one run, as {@link EntityChunk#visit}, with the run's own command buffer.
     *
     * @param commands the run's buffer: record the run's changes into it, from this call only
     * @param entities the group's entities by position (the packed array of an owned storage, not
     *     a copy); read only, valid during the call
     * @param pageStart the position of offset 0 of the pages: offset {@code i} is position
     *     {@code pageStart + i}
     * @param from the first offset, inclusive
     * @param to the last offset, exclusive; {@code from < to}
     * @param positionX the page of {@code Position.x}
     * @param positionY the page of {@code Position.y}
     */
    void visit(CommandBuffer commands, long[] entities, int pageStart, int from, int to,
        float[] positionX, float[] positionY);
  }
}
