package test;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.DeletionPolicy;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.EntityComparator;
import dev.phalanx.ecs.EntityFloatKey;
import dev.phalanx.ecs.EntityLongKey;
import dev.phalanx.ecs.NonOwningGroup;
import dev.phalanx.ecs.Query;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Signal;
import dev.phalanx.ecs.SparseSet;
import dev.phalanx.ecs.internal.LoopCopies;
import dev.phalanx.ecs.schedule.Access;
import dev.phalanx.ecs.schedule.AccessSource;
import java.lang.FunctionalInterface;
import java.lang.IllegalStateException;
import java.lang.Override;
import java.util.function.LongConsumer;
import javax.annotation.processing.Generated;

/**
 * The non-owning group declared by {@code test.Systems.Healthy}: get {@link test.Health}, {@link test.Frozen}, excluded none.
 *
 * <p>Create it with {@link #of}, then iterate with {@link #each}.
 *
 * <h2>Costs</h2>
 *
 * <ul>
 *   <li>{@code each}: O(n) over the members, one lookup per component unless the storages hold
 *       the members in the same order (then none: the cursors walk the pages). Which positions agree
 *       is kept from one pass to the next and checked again only where the sets grew, or everywhere
 *       once after a move, removal or filled hole in one of them; no allocation.
 *   <li>Profile pollution: {@code each} runs each visitor class in a copy of its loop of its own
 *       (the first eight classes that go through this query class), so that the call of the
 *       visitor is inlined; further classes share one copy, where the call is megamorphic.
 * </ul>
 *
 * <h2>Threading</h2>
 *
 * <p>A query object is not thread-safe: its cursors are shared by all calls of {@code each}, so use
 * one query per thread, and a second query (another {@link #of}) for a nested loop over the same
 * declaration.
 *
 * <h2>What may change during an iteration</h2>
 *
 * <p>As for the runtime {@code each}: the visited entity may lose components or be destroyed;
 * other entities may not leave the group meanwhile (detected, {@link java.util.ConcurrentModificationException}).
 */
@Generated("dev.phalanx.ecs.processor.PhalanxProcessor")
public final class Systems_HealthyQuery extends Query implements AccessSource {
  /**
   * Which copy of the {@code each} loop runs each visitor class: one copy per class for the first
   * 8 classes, so that each copy's call of the visitor stays monomorphic and is inlined. Measured
   * (benchmark {@code LoopCopiesDecision}: five visitor classes through one query of two owned
   * components, 1M entities): 1.1 ns per entity with the copies, 10 ns with a single loop,
   * whose call of the visitor turns megamorphic. The copies cost bytecode only: a copy that no
   * visitor class runs is never compiled.
   */
  private static final LoopCopies LOOP_COPIES = new LoopCopies(8);

  private final NonOwningGroup group;

  private boolean iterating$;

  private final Health_Storage healthStorage;

  private final Frozen_Storage frozenStorage;

  private final Health_Cursor healthCursor;

  /**
   * The visitor of the {@code eachInOrder} walk in progress, or null.
   */
  private Visitor inOrder$;

  /**
   * The step {@code eachInOrder} hands the group: made once, so a walk allocates nothing.
   */
  private final LongConsumer inOrderStep$;

  /**
   * How far {@code healthStorage} holds the loop's lead at its positions, kept across passes of
   * {@code each}: a pass compares only the positions appended since the last one, unless the
   * lead or the storage changed otherwise (a move, removal or filled hole, or another lead),
   * which compares them all once.
   */
  private final Query.Alignment healthCursorAlignment$;

  private Systems_HealthyQuery(final Registry registry) {
    this.group = registry.nonOwningGroup(
        new ComponentType<?, ?>[] {Health_Traits.TYPE, Frozen_Traits.TYPE},
        new ComponentType<?, ?>[0]);
    this.healthStorage = registry.storage(Health_Traits.TYPE);
    this.frozenStorage = registry.storage(Frozen_Traits.TYPE);
    this.healthCursor = healthStorage.cursor();
    this.inOrderStep$ = this::visitInOrder;
    this.healthCursorAlignment$ = new Query.Alignment(healthStorage);
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
  public static Systems_HealthyQuery of(final Registry registry) {
    return new Systems_HealthyQuery(registry);
  }

  /**
   * Returns the runtime group this query iterates.
   *
   * @return the group
   */
  public NonOwningGroup group() {
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
   * Returns the storage of {@link Health}.
   *
   * @return the registry's storage
   */
  public Health_Storage healthStorage() {
    return healthStorage;
  }

  /**
   * Returns the storage of {@link Frozen}.
   *
   * @return the registry's storage
   */
  public Frozen_Storage frozenStorage() {
    return frozenStorage;
  }

  /**
   * Declares what this query touches, for a system that uses it (see {@code dev.phalanx.ecs.schedule}):
   * it iterates every listed storage, writes the included components and reads those listed in
   * {@code readOnly}.
   *
   * @param access the builder of a system's access
   */
  @Override
  public void declareAccess(final Access.Builder access) {
    access.iterates(Health_Traits.TYPE).writes(Health_Traits.TYPE);
    access.iterates(Frozen_Traits.TYPE).writes(Frozen_Traits.TYPE);
  }

  /**
   * Calls {@code visitor} for each entity of the group, last position first, with its cursors
   * positioned on the entity's components. The cursors are fields of this query, moved for each
   * entity: nothing is allocated. Not reentrant on one query object: a nested call throws
   * {@link IllegalStateException} (make a second query object for a nested loop).
   *
   * @param visitor the loop body
   * @throws java.util.ConcurrentModificationException if the visitor made other entities leave the
   *     group or rearranged the storage being walked
   */
  public void each(final Visitor visitor) {
    if (this.iterating$) {
      throw new IllegalStateException("Systems_HealthyQuery is already iterating: every per-entity loop of one query object shares its cursors; for a nested loop over the same entities, make a second query with Systems_HealthyQuery.of(registry)");
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
    final Health_Cursor healthCursor = this.healthCursor;
    final SparseSet lead = group.members();
    final boolean stable = DeletionPolicy.IN_PLACE == lead.policy();
    // Runs of one page. When every storage with a cursor holds the run's entities at the lead's
    // positions (storages filled in the same order) and has the same page size, the cursors walk
    // the run with no lookup, one page each: the JIT then reads the page arrays once per run.
    // Otherwise, and once a visitor has moved, removed or added an element of one of them, each
    // storage is tested per entity.
    final int pageShift = healthStorage.pageShift();
    final boolean healthCursorPaged$ = healthStorage.pageShift() == pageShift;
    final boolean paged$ = healthCursorPaged$;
    // How far each storage agrees with the lead, kept from the last pass: compares only what was
    // appended since, unless a set changed (then everything, once).
    if (paged$) {
      this.healthCursorAlignment$.refresh(lead);
    }
    Query.beginIteration(lead);
    try {
      for (int from = lead.size() - 1; from >= 0; ) {
        final int page = from >>> pageShift;
        final int pageStart = page << pageShift;
        int offset = from - pageStart;
        if (paged$
            && healthCursorAlignment$.holds(pageStart, from + 1)) {
          final long leadStamp$ = Query.structureStamp(lead);
          final long healthCursorStamp$ = Query.structureStamp(healthStorage);
          Query.moveToPage(healthCursor, page);
          for (; offset >= 0; offset--) {
            final int position = pageStart + offset;
            // Read the array again: the visitor may have grown it (appended elements are not visited).
            final long entity = lead.packed()[position];
            if (stable && Entity.isTombstone(entity)) {
              continue;
            }
            Query.moveWithinPage(healthCursor, offset);
            Query.visit(lead, position);
            visitor.visit(entity, healthCursor);
            if (Query.structureStamp(lead) != leadStamp$
                || Query.structureStamp(healthStorage) != healthCursorStamp$) {
              // The run may no longer be aligned: test each storage for the rest of it.
              offset--;
              break;
            }
          }
        }
        for (; offset >= 0; offset--) {
          final int position = pageStart + offset;
          // Read the array again: the visitor may have grown it (appended elements are not visited).
          final long entity = lead.packed()[position];
          if (stable && Entity.isTombstone(entity)) {
            continue;
          }
          final int healthCursorIndex$ = Query.holdsAt(healthStorage, position, entity) ? position : healthStorage.index(entity);
          if (healthCursorIndex$ == position && healthCursorPaged$) {
            Query.moveToElement(healthCursor, page, offset);
          } else {
            healthCursor.moveTo(healthCursorIndex$);
          }
          Query.visit(lead, position);
          visitor.visit(entity, healthCursor);
        }
        from = pageStart - 1;
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
    final Health_Cursor healthCursor = this.healthCursor;
    final SparseSet lead = group.members();
    final boolean stable = DeletionPolicy.IN_PLACE == lead.policy();
    // Runs of one page. When every storage with a cursor holds the run's entities at the lead's
    // positions (storages filled in the same order) and has the same page size, the cursors walk
    // the run with no lookup, one page each: the JIT then reads the page arrays once per run.
    // Otherwise, and once a visitor has moved, removed or added an element of one of them, each
    // storage is tested per entity.
    final int pageShift = healthStorage.pageShift();
    final boolean healthCursorPaged$ = healthStorage.pageShift() == pageShift;
    final boolean paged$ = healthCursorPaged$;
    // How far each storage agrees with the lead, kept from the last pass: compares only what was
    // appended since, unless a set changed (then everything, once).
    if (paged$) {
      this.healthCursorAlignment$.refresh(lead);
    }
    Query.beginIteration(lead);
    try {
      for (int from = lead.size() - 1; from >= 0; ) {
        final int page = from >>> pageShift;
        final int pageStart = page << pageShift;
        int offset = from - pageStart;
        if (paged$
            && healthCursorAlignment$.holds(pageStart, from + 1)) {
          final long leadStamp$ = Query.structureStamp(lead);
          final long healthCursorStamp$ = Query.structureStamp(healthStorage);
          Query.moveToPage(healthCursor, page);
          for (; offset >= 0; offset--) {
            final int position = pageStart + offset;
            // Read the array again: the visitor may have grown it (appended elements are not visited).
            final long entity = lead.packed()[position];
            if (stable && Entity.isTombstone(entity)) {
              continue;
            }
            Query.moveWithinPage(healthCursor, offset);
            Query.visit(lead, position);
            visitor.visit(entity, healthCursor);
            if (Query.structureStamp(lead) != leadStamp$
                || Query.structureStamp(healthStorage) != healthCursorStamp$) {
              // The run may no longer be aligned: test each storage for the rest of it.
              offset--;
              break;
            }
          }
        }
        for (; offset >= 0; offset--) {
          final int position = pageStart + offset;
          // Read the array again: the visitor may have grown it (appended elements are not visited).
          final long entity = lead.packed()[position];
          if (stable && Entity.isTombstone(entity)) {
            continue;
          }
          final int healthCursorIndex$ = Query.holdsAt(healthStorage, position, entity) ? position : healthStorage.index(entity);
          if (healthCursorIndex$ == position && healthCursorPaged$) {
            Query.moveToElement(healthCursor, page, offset);
          } else {
            healthCursor.moveTo(healthCursorIndex$);
          }
          Query.visit(lead, position);
          visitor.visit(entity, healthCursor);
        }
        from = pageStart - 1;
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
    final Health_Cursor healthCursor = this.healthCursor;
    final SparseSet lead = group.members();
    final boolean stable = DeletionPolicy.IN_PLACE == lead.policy();
    // Runs of one page. When every storage with a cursor holds the run's entities at the lead's
    // positions (storages filled in the same order) and has the same page size, the cursors walk
    // the run with no lookup, one page each: the JIT then reads the page arrays once per run.
    // Otherwise, and once a visitor has moved, removed or added an element of one of them, each
    // storage is tested per entity.
    final int pageShift = healthStorage.pageShift();
    final boolean healthCursorPaged$ = healthStorage.pageShift() == pageShift;
    final boolean paged$ = healthCursorPaged$;
    // How far each storage agrees with the lead, kept from the last pass: compares only what was
    // appended since, unless a set changed (then everything, once).
    if (paged$) {
      this.healthCursorAlignment$.refresh(lead);
    }
    Query.beginIteration(lead);
    try {
      for (int from = lead.size() - 1; from >= 0; ) {
        final int page = from >>> pageShift;
        final int pageStart = page << pageShift;
        int offset = from - pageStart;
        if (paged$
            && healthCursorAlignment$.holds(pageStart, from + 1)) {
          final long leadStamp$ = Query.structureStamp(lead);
          final long healthCursorStamp$ = Query.structureStamp(healthStorage);
          Query.moveToPage(healthCursor, page);
          for (; offset >= 0; offset--) {
            final int position = pageStart + offset;
            // Read the array again: the visitor may have grown it (appended elements are not visited).
            final long entity = lead.packed()[position];
            if (stable && Entity.isTombstone(entity)) {
              continue;
            }
            Query.moveWithinPage(healthCursor, offset);
            Query.visit(lead, position);
            visitor.visit(entity, healthCursor);
            if (Query.structureStamp(lead) != leadStamp$
                || Query.structureStamp(healthStorage) != healthCursorStamp$) {
              // The run may no longer be aligned: test each storage for the rest of it.
              offset--;
              break;
            }
          }
        }
        for (; offset >= 0; offset--) {
          final int position = pageStart + offset;
          // Read the array again: the visitor may have grown it (appended elements are not visited).
          final long entity = lead.packed()[position];
          if (stable && Entity.isTombstone(entity)) {
            continue;
          }
          final int healthCursorIndex$ = Query.holdsAt(healthStorage, position, entity) ? position : healthStorage.index(entity);
          if (healthCursorIndex$ == position && healthCursorPaged$) {
            Query.moveToElement(healthCursor, page, offset);
          } else {
            healthCursor.moveTo(healthCursorIndex$);
          }
          Query.visit(lead, position);
          visitor.visit(entity, healthCursor);
        }
        from = pageStart - 1;
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
    final Health_Cursor healthCursor = this.healthCursor;
    final SparseSet lead = group.members();
    final boolean stable = DeletionPolicy.IN_PLACE == lead.policy();
    // Runs of one page. When every storage with a cursor holds the run's entities at the lead's
    // positions (storages filled in the same order) and has the same page size, the cursors walk
    // the run with no lookup, one page each: the JIT then reads the page arrays once per run.
    // Otherwise, and once a visitor has moved, removed or added an element of one of them, each
    // storage is tested per entity.
    final int pageShift = healthStorage.pageShift();
    final boolean healthCursorPaged$ = healthStorage.pageShift() == pageShift;
    final boolean paged$ = healthCursorPaged$;
    // How far each storage agrees with the lead, kept from the last pass: compares only what was
    // appended since, unless a set changed (then everything, once).
    if (paged$) {
      this.healthCursorAlignment$.refresh(lead);
    }
    Query.beginIteration(lead);
    try {
      for (int from = lead.size() - 1; from >= 0; ) {
        final int page = from >>> pageShift;
        final int pageStart = page << pageShift;
        int offset = from - pageStart;
        if (paged$
            && healthCursorAlignment$.holds(pageStart, from + 1)) {
          final long leadStamp$ = Query.structureStamp(lead);
          final long healthCursorStamp$ = Query.structureStamp(healthStorage);
          Query.moveToPage(healthCursor, page);
          for (; offset >= 0; offset--) {
            final int position = pageStart + offset;
            // Read the array again: the visitor may have grown it (appended elements are not visited).
            final long entity = lead.packed()[position];
            if (stable && Entity.isTombstone(entity)) {
              continue;
            }
            Query.moveWithinPage(healthCursor, offset);
            Query.visit(lead, position);
            visitor.visit(entity, healthCursor);
            if (Query.structureStamp(lead) != leadStamp$
                || Query.structureStamp(healthStorage) != healthCursorStamp$) {
              // The run may no longer be aligned: test each storage for the rest of it.
              offset--;
              break;
            }
          }
        }
        for (; offset >= 0; offset--) {
          final int position = pageStart + offset;
          // Read the array again: the visitor may have grown it (appended elements are not visited).
          final long entity = lead.packed()[position];
          if (stable && Entity.isTombstone(entity)) {
            continue;
          }
          final int healthCursorIndex$ = Query.holdsAt(healthStorage, position, entity) ? position : healthStorage.index(entity);
          if (healthCursorIndex$ == position && healthCursorPaged$) {
            Query.moveToElement(healthCursor, page, offset);
          } else {
            healthCursor.moveTo(healthCursorIndex$);
          }
          Query.visit(lead, position);
          visitor.visit(entity, healthCursor);
        }
        from = pageStart - 1;
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
    final Health_Cursor healthCursor = this.healthCursor;
    final SparseSet lead = group.members();
    final boolean stable = DeletionPolicy.IN_PLACE == lead.policy();
    // Runs of one page. When every storage with a cursor holds the run's entities at the lead's
    // positions (storages filled in the same order) and has the same page size, the cursors walk
    // the run with no lookup, one page each: the JIT then reads the page arrays once per run.
    // Otherwise, and once a visitor has moved, removed or added an element of one of them, each
    // storage is tested per entity.
    final int pageShift = healthStorage.pageShift();
    final boolean healthCursorPaged$ = healthStorage.pageShift() == pageShift;
    final boolean paged$ = healthCursorPaged$;
    // How far each storage agrees with the lead, kept from the last pass: compares only what was
    // appended since, unless a set changed (then everything, once).
    if (paged$) {
      this.healthCursorAlignment$.refresh(lead);
    }
    Query.beginIteration(lead);
    try {
      for (int from = lead.size() - 1; from >= 0; ) {
        final int page = from >>> pageShift;
        final int pageStart = page << pageShift;
        int offset = from - pageStart;
        if (paged$
            && healthCursorAlignment$.holds(pageStart, from + 1)) {
          final long leadStamp$ = Query.structureStamp(lead);
          final long healthCursorStamp$ = Query.structureStamp(healthStorage);
          Query.moveToPage(healthCursor, page);
          for (; offset >= 0; offset--) {
            final int position = pageStart + offset;
            // Read the array again: the visitor may have grown it (appended elements are not visited).
            final long entity = lead.packed()[position];
            if (stable && Entity.isTombstone(entity)) {
              continue;
            }
            Query.moveWithinPage(healthCursor, offset);
            Query.visit(lead, position);
            visitor.visit(entity, healthCursor);
            if (Query.structureStamp(lead) != leadStamp$
                || Query.structureStamp(healthStorage) != healthCursorStamp$) {
              // The run may no longer be aligned: test each storage for the rest of it.
              offset--;
              break;
            }
          }
        }
        for (; offset >= 0; offset--) {
          final int position = pageStart + offset;
          // Read the array again: the visitor may have grown it (appended elements are not visited).
          final long entity = lead.packed()[position];
          if (stable && Entity.isTombstone(entity)) {
            continue;
          }
          final int healthCursorIndex$ = Query.holdsAt(healthStorage, position, entity) ? position : healthStorage.index(entity);
          if (healthCursorIndex$ == position && healthCursorPaged$) {
            Query.moveToElement(healthCursor, page, offset);
          } else {
            healthCursor.moveTo(healthCursorIndex$);
          }
          Query.visit(lead, position);
          visitor.visit(entity, healthCursor);
        }
        from = pageStart - 1;
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
    final Health_Cursor healthCursor = this.healthCursor;
    final SparseSet lead = group.members();
    final boolean stable = DeletionPolicy.IN_PLACE == lead.policy();
    // Runs of one page. When every storage with a cursor holds the run's entities at the lead's
    // positions (storages filled in the same order) and has the same page size, the cursors walk
    // the run with no lookup, one page each: the JIT then reads the page arrays once per run.
    // Otherwise, and once a visitor has moved, removed or added an element of one of them, each
    // storage is tested per entity.
    final int pageShift = healthStorage.pageShift();
    final boolean healthCursorPaged$ = healthStorage.pageShift() == pageShift;
    final boolean paged$ = healthCursorPaged$;
    // How far each storage agrees with the lead, kept from the last pass: compares only what was
    // appended since, unless a set changed (then everything, once).
    if (paged$) {
      this.healthCursorAlignment$.refresh(lead);
    }
    Query.beginIteration(lead);
    try {
      for (int from = lead.size() - 1; from >= 0; ) {
        final int page = from >>> pageShift;
        final int pageStart = page << pageShift;
        int offset = from - pageStart;
        if (paged$
            && healthCursorAlignment$.holds(pageStart, from + 1)) {
          final long leadStamp$ = Query.structureStamp(lead);
          final long healthCursorStamp$ = Query.structureStamp(healthStorage);
          Query.moveToPage(healthCursor, page);
          for (; offset >= 0; offset--) {
            final int position = pageStart + offset;
            // Read the array again: the visitor may have grown it (appended elements are not visited).
            final long entity = lead.packed()[position];
            if (stable && Entity.isTombstone(entity)) {
              continue;
            }
            Query.moveWithinPage(healthCursor, offset);
            Query.visit(lead, position);
            visitor.visit(entity, healthCursor);
            if (Query.structureStamp(lead) != leadStamp$
                || Query.structureStamp(healthStorage) != healthCursorStamp$) {
              // The run may no longer be aligned: test each storage for the rest of it.
              offset--;
              break;
            }
          }
        }
        for (; offset >= 0; offset--) {
          final int position = pageStart + offset;
          // Read the array again: the visitor may have grown it (appended elements are not visited).
          final long entity = lead.packed()[position];
          if (stable && Entity.isTombstone(entity)) {
            continue;
          }
          final int healthCursorIndex$ = Query.holdsAt(healthStorage, position, entity) ? position : healthStorage.index(entity);
          if (healthCursorIndex$ == position && healthCursorPaged$) {
            Query.moveToElement(healthCursor, page, offset);
          } else {
            healthCursor.moveTo(healthCursorIndex$);
          }
          Query.visit(lead, position);
          visitor.visit(entity, healthCursor);
        }
        from = pageStart - 1;
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
    final Health_Cursor healthCursor = this.healthCursor;
    final SparseSet lead = group.members();
    final boolean stable = DeletionPolicy.IN_PLACE == lead.policy();
    // Runs of one page. When every storage with a cursor holds the run's entities at the lead's
    // positions (storages filled in the same order) and has the same page size, the cursors walk
    // the run with no lookup, one page each: the JIT then reads the page arrays once per run.
    // Otherwise, and once a visitor has moved, removed or added an element of one of them, each
    // storage is tested per entity.
    final int pageShift = healthStorage.pageShift();
    final boolean healthCursorPaged$ = healthStorage.pageShift() == pageShift;
    final boolean paged$ = healthCursorPaged$;
    // How far each storage agrees with the lead, kept from the last pass: compares only what was
    // appended since, unless a set changed (then everything, once).
    if (paged$) {
      this.healthCursorAlignment$.refresh(lead);
    }
    Query.beginIteration(lead);
    try {
      for (int from = lead.size() - 1; from >= 0; ) {
        final int page = from >>> pageShift;
        final int pageStart = page << pageShift;
        int offset = from - pageStart;
        if (paged$
            && healthCursorAlignment$.holds(pageStart, from + 1)) {
          final long leadStamp$ = Query.structureStamp(lead);
          final long healthCursorStamp$ = Query.structureStamp(healthStorage);
          Query.moveToPage(healthCursor, page);
          for (; offset >= 0; offset--) {
            final int position = pageStart + offset;
            // Read the array again: the visitor may have grown it (appended elements are not visited).
            final long entity = lead.packed()[position];
            if (stable && Entity.isTombstone(entity)) {
              continue;
            }
            Query.moveWithinPage(healthCursor, offset);
            Query.visit(lead, position);
            visitor.visit(entity, healthCursor);
            if (Query.structureStamp(lead) != leadStamp$
                || Query.structureStamp(healthStorage) != healthCursorStamp$) {
              // The run may no longer be aligned: test each storage for the rest of it.
              offset--;
              break;
            }
          }
        }
        for (; offset >= 0; offset--) {
          final int position = pageStart + offset;
          // Read the array again: the visitor may have grown it (appended elements are not visited).
          final long entity = lead.packed()[position];
          if (stable && Entity.isTombstone(entity)) {
            continue;
          }
          final int healthCursorIndex$ = Query.holdsAt(healthStorage, position, entity) ? position : healthStorage.index(entity);
          if (healthCursorIndex$ == position && healthCursorPaged$) {
            Query.moveToElement(healthCursor, page, offset);
          } else {
            healthCursor.moveTo(healthCursorIndex$);
          }
          Query.visit(lead, position);
          visitor.visit(entity, healthCursor);
        }
        from = pageStart - 1;
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
    final Health_Cursor healthCursor = this.healthCursor;
    final SparseSet lead = group.members();
    final boolean stable = DeletionPolicy.IN_PLACE == lead.policy();
    // Runs of one page. When every storage with a cursor holds the run's entities at the lead's
    // positions (storages filled in the same order) and has the same page size, the cursors walk
    // the run with no lookup, one page each: the JIT then reads the page arrays once per run.
    // Otherwise, and once a visitor has moved, removed or added an element of one of them, each
    // storage is tested per entity.
    final int pageShift = healthStorage.pageShift();
    final boolean healthCursorPaged$ = healthStorage.pageShift() == pageShift;
    final boolean paged$ = healthCursorPaged$;
    // How far each storage agrees with the lead, kept from the last pass: compares only what was
    // appended since, unless a set changed (then everything, once).
    if (paged$) {
      this.healthCursorAlignment$.refresh(lead);
    }
    Query.beginIteration(lead);
    try {
      for (int from = lead.size() - 1; from >= 0; ) {
        final int page = from >>> pageShift;
        final int pageStart = page << pageShift;
        int offset = from - pageStart;
        if (paged$
            && healthCursorAlignment$.holds(pageStart, from + 1)) {
          final long leadStamp$ = Query.structureStamp(lead);
          final long healthCursorStamp$ = Query.structureStamp(healthStorage);
          Query.moveToPage(healthCursor, page);
          for (; offset >= 0; offset--) {
            final int position = pageStart + offset;
            // Read the array again: the visitor may have grown it (appended elements are not visited).
            final long entity = lead.packed()[position];
            if (stable && Entity.isTombstone(entity)) {
              continue;
            }
            Query.moveWithinPage(healthCursor, offset);
            Query.visit(lead, position);
            visitor.visit(entity, healthCursor);
            if (Query.structureStamp(lead) != leadStamp$
                || Query.structureStamp(healthStorage) != healthCursorStamp$) {
              // The run may no longer be aligned: test each storage for the rest of it.
              offset--;
              break;
            }
          }
        }
        for (; offset >= 0; offset--) {
          final int position = pageStart + offset;
          // Read the array again: the visitor may have grown it (appended elements are not visited).
          final long entity = lead.packed()[position];
          if (stable && Entity.isTombstone(entity)) {
            continue;
          }
          final int healthCursorIndex$ = Query.holdsAt(healthStorage, position, entity) ? position : healthStorage.index(entity);
          if (healthCursorIndex$ == position && healthCursorPaged$) {
            Query.moveToElement(healthCursor, page, offset);
          } else {
            healthCursor.moveTo(healthCursorIndex$);
          }
          Query.visit(lead, position);
          visitor.visit(entity, healthCursor);
        }
        from = pageStart - 1;
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
    final Health_Cursor healthCursor = this.healthCursor;
    final SparseSet lead = group.members();
    final boolean stable = DeletionPolicy.IN_PLACE == lead.policy();
    // Runs of one page. When every storage with a cursor holds the run's entities at the lead's
    // positions (storages filled in the same order) and has the same page size, the cursors walk
    // the run with no lookup, one page each: the JIT then reads the page arrays once per run.
    // Otherwise, and once a visitor has moved, removed or added an element of one of them, each
    // storage is tested per entity.
    final int pageShift = healthStorage.pageShift();
    final boolean healthCursorPaged$ = healthStorage.pageShift() == pageShift;
    final boolean paged$ = healthCursorPaged$;
    // How far each storage agrees with the lead, kept from the last pass: compares only what was
    // appended since, unless a set changed (then everything, once).
    if (paged$) {
      this.healthCursorAlignment$.refresh(lead);
    }
    Query.beginIteration(lead);
    try {
      for (int from = lead.size() - 1; from >= 0; ) {
        final int page = from >>> pageShift;
        final int pageStart = page << pageShift;
        int offset = from - pageStart;
        if (paged$
            && healthCursorAlignment$.holds(pageStart, from + 1)) {
          final long leadStamp$ = Query.structureStamp(lead);
          final long healthCursorStamp$ = Query.structureStamp(healthStorage);
          Query.moveToPage(healthCursor, page);
          for (; offset >= 0; offset--) {
            final int position = pageStart + offset;
            // Read the array again: the visitor may have grown it (appended elements are not visited).
            final long entity = lead.packed()[position];
            if (stable && Entity.isTombstone(entity)) {
              continue;
            }
            Query.moveWithinPage(healthCursor, offset);
            Query.visit(lead, position);
            visitor.visit(entity, healthCursor);
            if (Query.structureStamp(lead) != leadStamp$
                || Query.structureStamp(healthStorage) != healthCursorStamp$) {
              // The run may no longer be aligned: test each storage for the rest of it.
              offset--;
              break;
            }
          }
        }
        for (; offset >= 0; offset--) {
          final int position = pageStart + offset;
          // Read the array again: the visitor may have grown it (appended elements are not visited).
          final long entity = lead.packed()[position];
          if (stable && Entity.isTombstone(entity)) {
            continue;
          }
          final int healthCursorIndex$ = Query.holdsAt(healthStorage, position, entity) ? position : healthStorage.index(entity);
          if (healthCursorIndex$ == position && healthCursorPaged$) {
            Query.moveToElement(healthCursor, page, offset);
          } else {
            healthCursor.moveTo(healthCursorIndex$);
          }
          Query.visit(lead, position);
          visitor.visit(entity, healthCursor);
        }
        from = pageStart - 1;
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
      throw new IllegalStateException("Systems_HealthyQuery is already iterating: every per-entity loop of one query object shares its cursors; for a nested loop over the same entities, make a second query with Systems_HealthyQuery.of(registry)");
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
    final Health_Cursor healthCursor = this.healthCursor;
    healthCursor.moveToEntity(entity);
    visitor.visit(entity, healthCursor);
  }

  /**
   * Sorts the members through the group with insertion sort (see its {@code insertionSort}):
   * O(n) comparisons on almost sorted members, O(n^2) on random ones; stable; if the comparator
   * throws, nothing moves.
   *
   * @param comparator the order of two entities
   */
  public void insertionSort(final EntityComparator comparator) {
    group.insertionSort(comparator);
  }

  /**
   * Sorts the members through the group by ascending {@code long} key, each key computed once
   * (see its {@code sortByLongKey}): n key calls and a stable radix sort, no comparator call
   * per comparison; if {@code key} throws, nothing moves. Afterwards {@code group().eachInOrder}
   * visits the smallest key first, {@link #each} the largest.
   *
   * @param key the key of each member
   */
  public void sortByLongKey(final EntityLongKey key) {
    group.sortByLongKey(key);
  }

  /**
   * As {@link #sortByLongKey}, with {@code float} keys ordered as {@code Float.compare}.
   *
   * @param key the key of each member
   */
  public void sortByFloatKey(final EntityFloatKey key) {
    group.sortByFloatKey(key);
  }

  /**
   * As {@link #sortByLongKey}, sorting the computed keys with insertion sort: O(n) on almost sorted
   * members.
   *
   * @param key the key of each member
   */
  public void insertionSortByLongKey(final EntityLongKey key) {
    group.insertionSortByLongKey(key);
  }

  /**
   * As {@link #insertionSortByLongKey}, with {@code float} keys ordered as {@code Float.compare}.
   *
   * @param key the key of each member
   */
  public void insertionSortByFloatKey(final EntityFloatKey key) {
    group.insertionSortByFloatKey(key);
  }

  /**
   * The body of {@link Systems_HealthyQuery#each}: one call per entity, with a typed cursor per included component
   * that has fields (tags add no parameter).
   */
  @FunctionalInterface
  public interface Visitor {
    /**
     * Visits one entity; the cursors are positioned on its components and are reused for the next
     * entity, so do not keep them.
     *
     * @param entity the entity
     * @param health a cursor over its {@link Health}
     */
    void visit(long entity, Health_Cursor health);
  }
}
