package test;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.DeletionPolicy;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Query;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Signal;
import dev.phalanx.ecs.SparseSet;
import dev.phalanx.ecs.View;
import dev.phalanx.ecs.internal.LoopCopies;
import dev.phalanx.ecs.schedule.Access;
import dev.phalanx.ecs.schedule.AccessSource;
import java.lang.FunctionalInterface;
import java.lang.IllegalStateException;
import java.lang.Override;
import javax.annotation.processing.Generated;

/**
 * The view declared by {@code test.Warm}: included {@link test.Heat}, excluded none.
 *
 * <p>Optional terms, which a visited entity may or may not have:
 * {@link test.Velocity}, {@link test.Frozen}, {@link test.Label}.
 * They do not change which entities are visited, and allocate nothing. A cursor walks
 * each page run of the lead with the included ones, with no lookup, where its storage holds the
 * run's entities at the lead's positions (storages filled in the same order do); elsewhere, and
 * for tags and field-less types, each is
 * looked up per visited entity: at the lead's position when its storage holds the entity there,
 * else by one sparse lookup.
 * Each comes after the included components: a cursor, or {@code null} when the entity has
 * none (a tag as a {@code boolean}, whether the entity has it).
 *
 * <p>Create it with {@link #of}, then iterate with {@link #each}.
 *
 * <h2>Costs</h2>
 *
 * <ul>
 *   <li>{@code each}: O(n * k) over the smallest included storage, k the number of listed
 *       components; no allocation.
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
 * other entities may not leave the view's leading storage meanwhile (detected, {@link java.util.ConcurrentModificationException}).
 */
@Generated("dev.phalanx.ecs.processor.PhalanxProcessor")
public final class WarmQuery extends Query implements AccessSource {
  /**
   * Which copy of the {@code each} loop runs each visitor class: one copy per class for the first
   * 8 classes, so that each copy's call of the visitor stays monomorphic and is inlined. Measured
   * (benchmark {@code LoopCopiesDecision}: five visitor classes through one query of two owned
   * components, 1M entities): 1.1 ns per entity with the copies, 10 ns with a single loop,
   * whose call of the visitor turns megamorphic. The copies cost bytecode only: a copy that no
   * visitor class runs is never compiled.
   */
  private static final LoopCopies LOOP_COPIES = new LoopCopies(8);

  private final View view;

  private boolean iterating$;

  private final Heat_Storage heatStorage;

  private final Velocity_Storage velocityStorage;

  private final Frozen_Storage frozenStorage;

  private final Label_Storage labelStorage;

  private final Heat_Cursor heatCursor;

  private final Velocity_Cursor velocityCursor;

  private final Label_Cursor labelCursor;

  /**
   * How far {@code velocityStorage} holds the loop's lead at its positions, kept across passes of
   * {@code each}: a pass compares only the positions appended since the last one, unless the
   * lead or the storage changed otherwise (a move, removal or filled hole, or another lead),
   * which compares them all once.
   */
  private final Query.Alignment velocityCursorAlignment$;

  /**
   * How far {@code labelStorage} holds the loop's lead at its positions, kept across passes of
   * {@code each}: a pass compares only the positions appended since the last one, unless the
   * lead or the storage changed otherwise (a move, removal or filled hole, or another lead),
   * which compares them all once.
   */
  private final Query.Alignment labelCursorAlignment$;

  private WarmQuery(final Registry registry) {
    this.view = registry.view(
        new ComponentType<?, ?>[] {Heat_Traits.TYPE},
        new ComponentType<?, ?>[0]);
    this.heatStorage = registry.storage(Heat_Traits.TYPE);
    this.velocityStorage = registry.storage(Velocity_Traits.TYPE);
    this.frozenStorage = registry.storage(Frozen_Traits.TYPE);
    this.labelStorage = registry.storage(Label_Traits.TYPE);
    this.heatCursor = heatStorage.cursor();
    this.velocityCursor = velocityStorage.cursor();
    this.labelCursor = labelStorage.cursor();
    this.velocityCursorAlignment$ = new Query.Alignment(velocityStorage);
    this.labelCursorAlignment$ = new Query.Alignment(labelStorage);
  }

  /**
   * Returns a query over the view of {@code registry}. The query is cheap: keep one per system
   * and thread; create a second one for a nested loop over the same declaration.
   *
   * @param registry the registry to iterate
   * @return a new query
   */
  public static WarmQuery of(final Registry registry) {
    return new WarmQuery(registry);
  }

  /**
   * Returns the runtime view this query iterates.
   *
   * @return the view
   */
  public View view() {
    return view;
  }

  /**
   * Returns an upper bound of the number of entities: the size of the smallest included storage.
   *
   * @return the upper bound
   */
  public int sizeHint() {
    return view.sizeHint();
  }

  /**
   * Returns whether {@code entity} is visited by this query.
   *
   * @param entity the entity
   * @return whether it has every included component and no excluded one
   */
  public boolean contains(final long entity) {
    return view.contains(entity);
  }

  /**
   * Returns the signal published when an entity joins this query's entities, once the change
   * that made it so is complete; listeners follow the runtime's signal rules.
   *
   * @return the {@code onEnter} signal of the underlying view
   */
  public Signal onEnter() {
    return view.onEnter();
  }

  /**
   * Returns the signal published when an entity leaves this query's entities, once the change
   * that made it so is complete; listeners follow the runtime's signal rules.
   *
   * @return the {@code onLeave} signal of the underlying view
   */
  public Signal onLeave() {
    return view.onLeave();
  }

  /**
   * Returns the storage of {@link Heat}.
   *
   * @return the registry's storage
   */
  public Heat_Storage heatStorage() {
    return heatStorage;
  }

  /**
   * Returns the storage of {@link Velocity}.
   *
   * @return the registry's storage
   */
  public Velocity_Storage velocityStorage() {
    return velocityStorage;
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
   * Returns the storage of {@link Label}.
   *
   * @return the registry's storage
   */
  public Label_Storage labelStorage() {
    return labelStorage;
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
    access.iterates(Heat_Traits.TYPE).writes(Heat_Traits.TYPE);
    access.iterates(Velocity_Traits.TYPE).writes(Velocity_Traits.TYPE);
    access.iterates(Frozen_Traits.TYPE).writes(Frozen_Traits.TYPE);
    access.iterates(Label_Traits.TYPE).reads(Label_Traits.TYPE);
  }

  /**
   * Calls {@code visitor} for each entity of the view, last position first, with its cursors
   * positioned on the entity's components. The cursors are fields of this query, moved for each
   * entity: nothing is allocated. Not reentrant on one query object: a nested call throws
   * {@link IllegalStateException} (make a second query object for a nested loop).
   *
   * @param visitor the loop body
   * @throws java.util.ConcurrentModificationException if the visitor made other entities leave the
   *     view or rearranged the storage being walked
   */
  public void each(final Visitor visitor) {
    if (this.iterating$) {
      throw new IllegalStateException("WarmQuery is already iterating: every per-entity loop of one query object shares its cursors; for a nested loop over the same entities, make a second query with WarmQuery.of(registry)");
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
    final Heat_Cursor heatCursor = this.heatCursor;
    final SparseSet lead = view.leader();
    final Velocity_Cursor velocityCursor = this.velocityCursor;
    final Label_Cursor labelCursor = this.labelCursor;
    final boolean stable = DeletionPolicy.IN_PLACE == lead.policy();
    // Runs of one page. When every storage with a cursor holds the run's entities at the lead's
    // positions (storages filled in the same order) and has the same page size, the cursors walk
    // the run with no lookup, one page each: the JIT then reads the page arrays once per run.
    // Otherwise, and once a visitor has moved, removed or added an element of one of them, each
    // storage is tested per entity.
    final int pageShift = heatStorage.pageShift();
    final boolean heatCursorPaged$ = heatStorage.pageShift() == pageShift;
    final boolean paged$ = heatCursorPaged$;
    final boolean velocityCursorPaged$ = velocityStorage.pageShift() == pageShift;
    final boolean labelCursorPaged$ = labelStorage.pageShift() == pageShift;
    // How far each storage agrees with the lead, kept from the last pass: compares only what was
    // appended since, unless a set changed (then everything, once).
    if (paged$) {
      if (velocityCursorPaged$) {
        this.velocityCursorAlignment$.refresh(lead);
      }
      if (labelCursorPaged$) {
        this.labelCursorAlignment$.refresh(lead);
      }
    }
    Query.beginIteration(lead);
    try {
      for (int from = lead.size() - 1; from >= 0; ) {
        final int page = from >>> pageShift;
        final int pageStart = page << pageShift;
        int offset = from - pageStart;
        if (paged$
            && Query.samePositions(lead, heatStorage, pageStart, from + 1)) {
          final long leadStamp$ = Query.structureStamp(lead);
          final long heatCursorStamp$ = Query.structureStamp(heatStorage);
          // An optional term's cursor walks the run too where its storage holds the
          // run's entities at the lead's positions; else it is looked up per entity.
          final boolean velocityCursorAligned$ = velocityCursorPaged$ && velocityCursorAlignment$.holds(pageStart, from + 1);
          final long velocityCursorStamp$ = Query.structureStamp(velocityStorage);
          final boolean labelCursorAligned$ = labelCursorPaged$ && labelCursorAlignment$.holds(pageStart, from + 1);
          final long labelCursorStamp$ = Query.structureStamp(labelStorage);
          Query.moveToPage(heatCursor, page);
          if (velocityCursorAligned$) {
            Query.moveToPage(velocityCursor, page);
          }
          if (labelCursorAligned$) {
            Query.moveToPage(labelCursor, page);
          }
          for (; offset >= 0; offset--) {
            final int position = pageStart + offset;
            // Read the array again: the visitor may have grown it (appended elements are not visited).
            final long entity = lead.packed()[position];
            if (stable && Entity.isTombstone(entity)) {
              continue;
            }
            Query.moveWithinPage(heatCursor, offset);
            final Velocity_Cursor velocityCursorOrNull$;
            if (velocityCursorAligned$) {
              Query.moveWithinPage(velocityCursor, offset);
              velocityCursorOrNull$ = velocityCursor;
            } else {
              velocityCursorOrNull$ = velocityOrNull$(entity, position);
            }
            final Label_Cursor labelCursorOrNull$;
            if (labelCursorAligned$) {
              Query.moveWithinPage(labelCursor, offset);
              labelCursorOrNull$ = labelCursor;
            } else {
              labelCursorOrNull$ = labelOrNull$(entity, position);
            }
            Query.visit(lead, position);
            visitor.visit(entity, heatCursor, velocityCursorOrNull$, frozenStorage.contains(entity), labelCursorOrNull$);
            if (Query.structureStamp(lead) != leadStamp$
                || Query.structureStamp(heatStorage) != heatCursorStamp$
                || (velocityCursorAligned$ && Query.structureStamp(velocityStorage) != velocityCursorStamp$)
                || (labelCursorAligned$ && Query.structureStamp(labelStorage) != labelCursorStamp$)) {
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
          final int heatCursorIndex$ = lead == heatStorage || Query.holdsAt(heatStorage, position, entity) ? position : heatStorage.indexOf(entity);
          if (heatCursorIndex$ < 0) {
            continue;
          }
          if (heatCursorIndex$ == position && heatCursorPaged$) {
            Query.moveToElement(heatCursor, page, offset);
          } else {
            heatCursor.moveTo(heatCursorIndex$);
          }
          final Velocity_Cursor velocityCursorOrNull$ = velocityOrNull$(entity, position);
          final Label_Cursor labelCursorOrNull$ = labelOrNull$(entity, position);
          Query.visit(lead, position);
          visitor.visit(entity, heatCursor, velocityCursorOrNull$, frozenStorage.contains(entity), labelCursorOrNull$);
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
    final Heat_Cursor heatCursor = this.heatCursor;
    final SparseSet lead = view.leader();
    final Velocity_Cursor velocityCursor = this.velocityCursor;
    final Label_Cursor labelCursor = this.labelCursor;
    final boolean stable = DeletionPolicy.IN_PLACE == lead.policy();
    // Runs of one page. When every storage with a cursor holds the run's entities at the lead's
    // positions (storages filled in the same order) and has the same page size, the cursors walk
    // the run with no lookup, one page each: the JIT then reads the page arrays once per run.
    // Otherwise, and once a visitor has moved, removed or added an element of one of them, each
    // storage is tested per entity.
    final int pageShift = heatStorage.pageShift();
    final boolean heatCursorPaged$ = heatStorage.pageShift() == pageShift;
    final boolean paged$ = heatCursorPaged$;
    final boolean velocityCursorPaged$ = velocityStorage.pageShift() == pageShift;
    final boolean labelCursorPaged$ = labelStorage.pageShift() == pageShift;
    // How far each storage agrees with the lead, kept from the last pass: compares only what was
    // appended since, unless a set changed (then everything, once).
    if (paged$) {
      if (velocityCursorPaged$) {
        this.velocityCursorAlignment$.refresh(lead);
      }
      if (labelCursorPaged$) {
        this.labelCursorAlignment$.refresh(lead);
      }
    }
    Query.beginIteration(lead);
    try {
      for (int from = lead.size() - 1; from >= 0; ) {
        final int page = from >>> pageShift;
        final int pageStart = page << pageShift;
        int offset = from - pageStart;
        if (paged$
            && Query.samePositions(lead, heatStorage, pageStart, from + 1)) {
          final long leadStamp$ = Query.structureStamp(lead);
          final long heatCursorStamp$ = Query.structureStamp(heatStorage);
          // An optional term's cursor walks the run too where its storage holds the
          // run's entities at the lead's positions; else it is looked up per entity.
          final boolean velocityCursorAligned$ = velocityCursorPaged$ && velocityCursorAlignment$.holds(pageStart, from + 1);
          final long velocityCursorStamp$ = Query.structureStamp(velocityStorage);
          final boolean labelCursorAligned$ = labelCursorPaged$ && labelCursorAlignment$.holds(pageStart, from + 1);
          final long labelCursorStamp$ = Query.structureStamp(labelStorage);
          Query.moveToPage(heatCursor, page);
          if (velocityCursorAligned$) {
            Query.moveToPage(velocityCursor, page);
          }
          if (labelCursorAligned$) {
            Query.moveToPage(labelCursor, page);
          }
          for (; offset >= 0; offset--) {
            final int position = pageStart + offset;
            // Read the array again: the visitor may have grown it (appended elements are not visited).
            final long entity = lead.packed()[position];
            if (stable && Entity.isTombstone(entity)) {
              continue;
            }
            Query.moveWithinPage(heatCursor, offset);
            final Velocity_Cursor velocityCursorOrNull$;
            if (velocityCursorAligned$) {
              Query.moveWithinPage(velocityCursor, offset);
              velocityCursorOrNull$ = velocityCursor;
            } else {
              velocityCursorOrNull$ = velocityOrNull$(entity, position);
            }
            final Label_Cursor labelCursorOrNull$;
            if (labelCursorAligned$) {
              Query.moveWithinPage(labelCursor, offset);
              labelCursorOrNull$ = labelCursor;
            } else {
              labelCursorOrNull$ = labelOrNull$(entity, position);
            }
            Query.visit(lead, position);
            visitor.visit(entity, heatCursor, velocityCursorOrNull$, frozenStorage.contains(entity), labelCursorOrNull$);
            if (Query.structureStamp(lead) != leadStamp$
                || Query.structureStamp(heatStorage) != heatCursorStamp$
                || (velocityCursorAligned$ && Query.structureStamp(velocityStorage) != velocityCursorStamp$)
                || (labelCursorAligned$ && Query.structureStamp(labelStorage) != labelCursorStamp$)) {
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
          final int heatCursorIndex$ = lead == heatStorage || Query.holdsAt(heatStorage, position, entity) ? position : heatStorage.indexOf(entity);
          if (heatCursorIndex$ < 0) {
            continue;
          }
          if (heatCursorIndex$ == position && heatCursorPaged$) {
            Query.moveToElement(heatCursor, page, offset);
          } else {
            heatCursor.moveTo(heatCursorIndex$);
          }
          final Velocity_Cursor velocityCursorOrNull$ = velocityOrNull$(entity, position);
          final Label_Cursor labelCursorOrNull$ = labelOrNull$(entity, position);
          Query.visit(lead, position);
          visitor.visit(entity, heatCursor, velocityCursorOrNull$, frozenStorage.contains(entity), labelCursorOrNull$);
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
    final Heat_Cursor heatCursor = this.heatCursor;
    final SparseSet lead = view.leader();
    final Velocity_Cursor velocityCursor = this.velocityCursor;
    final Label_Cursor labelCursor = this.labelCursor;
    final boolean stable = DeletionPolicy.IN_PLACE == lead.policy();
    // Runs of one page. When every storage with a cursor holds the run's entities at the lead's
    // positions (storages filled in the same order) and has the same page size, the cursors walk
    // the run with no lookup, one page each: the JIT then reads the page arrays once per run.
    // Otherwise, and once a visitor has moved, removed or added an element of one of them, each
    // storage is tested per entity.
    final int pageShift = heatStorage.pageShift();
    final boolean heatCursorPaged$ = heatStorage.pageShift() == pageShift;
    final boolean paged$ = heatCursorPaged$;
    final boolean velocityCursorPaged$ = velocityStorage.pageShift() == pageShift;
    final boolean labelCursorPaged$ = labelStorage.pageShift() == pageShift;
    // How far each storage agrees with the lead, kept from the last pass: compares only what was
    // appended since, unless a set changed (then everything, once).
    if (paged$) {
      if (velocityCursorPaged$) {
        this.velocityCursorAlignment$.refresh(lead);
      }
      if (labelCursorPaged$) {
        this.labelCursorAlignment$.refresh(lead);
      }
    }
    Query.beginIteration(lead);
    try {
      for (int from = lead.size() - 1; from >= 0; ) {
        final int page = from >>> pageShift;
        final int pageStart = page << pageShift;
        int offset = from - pageStart;
        if (paged$
            && Query.samePositions(lead, heatStorage, pageStart, from + 1)) {
          final long leadStamp$ = Query.structureStamp(lead);
          final long heatCursorStamp$ = Query.structureStamp(heatStorage);
          // An optional term's cursor walks the run too where its storage holds the
          // run's entities at the lead's positions; else it is looked up per entity.
          final boolean velocityCursorAligned$ = velocityCursorPaged$ && velocityCursorAlignment$.holds(pageStart, from + 1);
          final long velocityCursorStamp$ = Query.structureStamp(velocityStorage);
          final boolean labelCursorAligned$ = labelCursorPaged$ && labelCursorAlignment$.holds(pageStart, from + 1);
          final long labelCursorStamp$ = Query.structureStamp(labelStorage);
          Query.moveToPage(heatCursor, page);
          if (velocityCursorAligned$) {
            Query.moveToPage(velocityCursor, page);
          }
          if (labelCursorAligned$) {
            Query.moveToPage(labelCursor, page);
          }
          for (; offset >= 0; offset--) {
            final int position = pageStart + offset;
            // Read the array again: the visitor may have grown it (appended elements are not visited).
            final long entity = lead.packed()[position];
            if (stable && Entity.isTombstone(entity)) {
              continue;
            }
            Query.moveWithinPage(heatCursor, offset);
            final Velocity_Cursor velocityCursorOrNull$;
            if (velocityCursorAligned$) {
              Query.moveWithinPage(velocityCursor, offset);
              velocityCursorOrNull$ = velocityCursor;
            } else {
              velocityCursorOrNull$ = velocityOrNull$(entity, position);
            }
            final Label_Cursor labelCursorOrNull$;
            if (labelCursorAligned$) {
              Query.moveWithinPage(labelCursor, offset);
              labelCursorOrNull$ = labelCursor;
            } else {
              labelCursorOrNull$ = labelOrNull$(entity, position);
            }
            Query.visit(lead, position);
            visitor.visit(entity, heatCursor, velocityCursorOrNull$, frozenStorage.contains(entity), labelCursorOrNull$);
            if (Query.structureStamp(lead) != leadStamp$
                || Query.structureStamp(heatStorage) != heatCursorStamp$
                || (velocityCursorAligned$ && Query.structureStamp(velocityStorage) != velocityCursorStamp$)
                || (labelCursorAligned$ && Query.structureStamp(labelStorage) != labelCursorStamp$)) {
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
          final int heatCursorIndex$ = lead == heatStorage || Query.holdsAt(heatStorage, position, entity) ? position : heatStorage.indexOf(entity);
          if (heatCursorIndex$ < 0) {
            continue;
          }
          if (heatCursorIndex$ == position && heatCursorPaged$) {
            Query.moveToElement(heatCursor, page, offset);
          } else {
            heatCursor.moveTo(heatCursorIndex$);
          }
          final Velocity_Cursor velocityCursorOrNull$ = velocityOrNull$(entity, position);
          final Label_Cursor labelCursorOrNull$ = labelOrNull$(entity, position);
          Query.visit(lead, position);
          visitor.visit(entity, heatCursor, velocityCursorOrNull$, frozenStorage.contains(entity), labelCursorOrNull$);
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
    final Heat_Cursor heatCursor = this.heatCursor;
    final SparseSet lead = view.leader();
    final Velocity_Cursor velocityCursor = this.velocityCursor;
    final Label_Cursor labelCursor = this.labelCursor;
    final boolean stable = DeletionPolicy.IN_PLACE == lead.policy();
    // Runs of one page. When every storage with a cursor holds the run's entities at the lead's
    // positions (storages filled in the same order) and has the same page size, the cursors walk
    // the run with no lookup, one page each: the JIT then reads the page arrays once per run.
    // Otherwise, and once a visitor has moved, removed or added an element of one of them, each
    // storage is tested per entity.
    final int pageShift = heatStorage.pageShift();
    final boolean heatCursorPaged$ = heatStorage.pageShift() == pageShift;
    final boolean paged$ = heatCursorPaged$;
    final boolean velocityCursorPaged$ = velocityStorage.pageShift() == pageShift;
    final boolean labelCursorPaged$ = labelStorage.pageShift() == pageShift;
    // How far each storage agrees with the lead, kept from the last pass: compares only what was
    // appended since, unless a set changed (then everything, once).
    if (paged$) {
      if (velocityCursorPaged$) {
        this.velocityCursorAlignment$.refresh(lead);
      }
      if (labelCursorPaged$) {
        this.labelCursorAlignment$.refresh(lead);
      }
    }
    Query.beginIteration(lead);
    try {
      for (int from = lead.size() - 1; from >= 0; ) {
        final int page = from >>> pageShift;
        final int pageStart = page << pageShift;
        int offset = from - pageStart;
        if (paged$
            && Query.samePositions(lead, heatStorage, pageStart, from + 1)) {
          final long leadStamp$ = Query.structureStamp(lead);
          final long heatCursorStamp$ = Query.structureStamp(heatStorage);
          // An optional term's cursor walks the run too where its storage holds the
          // run's entities at the lead's positions; else it is looked up per entity.
          final boolean velocityCursorAligned$ = velocityCursorPaged$ && velocityCursorAlignment$.holds(pageStart, from + 1);
          final long velocityCursorStamp$ = Query.structureStamp(velocityStorage);
          final boolean labelCursorAligned$ = labelCursorPaged$ && labelCursorAlignment$.holds(pageStart, from + 1);
          final long labelCursorStamp$ = Query.structureStamp(labelStorage);
          Query.moveToPage(heatCursor, page);
          if (velocityCursorAligned$) {
            Query.moveToPage(velocityCursor, page);
          }
          if (labelCursorAligned$) {
            Query.moveToPage(labelCursor, page);
          }
          for (; offset >= 0; offset--) {
            final int position = pageStart + offset;
            // Read the array again: the visitor may have grown it (appended elements are not visited).
            final long entity = lead.packed()[position];
            if (stable && Entity.isTombstone(entity)) {
              continue;
            }
            Query.moveWithinPage(heatCursor, offset);
            final Velocity_Cursor velocityCursorOrNull$;
            if (velocityCursorAligned$) {
              Query.moveWithinPage(velocityCursor, offset);
              velocityCursorOrNull$ = velocityCursor;
            } else {
              velocityCursorOrNull$ = velocityOrNull$(entity, position);
            }
            final Label_Cursor labelCursorOrNull$;
            if (labelCursorAligned$) {
              Query.moveWithinPage(labelCursor, offset);
              labelCursorOrNull$ = labelCursor;
            } else {
              labelCursorOrNull$ = labelOrNull$(entity, position);
            }
            Query.visit(lead, position);
            visitor.visit(entity, heatCursor, velocityCursorOrNull$, frozenStorage.contains(entity), labelCursorOrNull$);
            if (Query.structureStamp(lead) != leadStamp$
                || Query.structureStamp(heatStorage) != heatCursorStamp$
                || (velocityCursorAligned$ && Query.structureStamp(velocityStorage) != velocityCursorStamp$)
                || (labelCursorAligned$ && Query.structureStamp(labelStorage) != labelCursorStamp$)) {
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
          final int heatCursorIndex$ = lead == heatStorage || Query.holdsAt(heatStorage, position, entity) ? position : heatStorage.indexOf(entity);
          if (heatCursorIndex$ < 0) {
            continue;
          }
          if (heatCursorIndex$ == position && heatCursorPaged$) {
            Query.moveToElement(heatCursor, page, offset);
          } else {
            heatCursor.moveTo(heatCursorIndex$);
          }
          final Velocity_Cursor velocityCursorOrNull$ = velocityOrNull$(entity, position);
          final Label_Cursor labelCursorOrNull$ = labelOrNull$(entity, position);
          Query.visit(lead, position);
          visitor.visit(entity, heatCursor, velocityCursorOrNull$, frozenStorage.contains(entity), labelCursorOrNull$);
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
    final Heat_Cursor heatCursor = this.heatCursor;
    final SparseSet lead = view.leader();
    final Velocity_Cursor velocityCursor = this.velocityCursor;
    final Label_Cursor labelCursor = this.labelCursor;
    final boolean stable = DeletionPolicy.IN_PLACE == lead.policy();
    // Runs of one page. When every storage with a cursor holds the run's entities at the lead's
    // positions (storages filled in the same order) and has the same page size, the cursors walk
    // the run with no lookup, one page each: the JIT then reads the page arrays once per run.
    // Otherwise, and once a visitor has moved, removed or added an element of one of them, each
    // storage is tested per entity.
    final int pageShift = heatStorage.pageShift();
    final boolean heatCursorPaged$ = heatStorage.pageShift() == pageShift;
    final boolean paged$ = heatCursorPaged$;
    final boolean velocityCursorPaged$ = velocityStorage.pageShift() == pageShift;
    final boolean labelCursorPaged$ = labelStorage.pageShift() == pageShift;
    // How far each storage agrees with the lead, kept from the last pass: compares only what was
    // appended since, unless a set changed (then everything, once).
    if (paged$) {
      if (velocityCursorPaged$) {
        this.velocityCursorAlignment$.refresh(lead);
      }
      if (labelCursorPaged$) {
        this.labelCursorAlignment$.refresh(lead);
      }
    }
    Query.beginIteration(lead);
    try {
      for (int from = lead.size() - 1; from >= 0; ) {
        final int page = from >>> pageShift;
        final int pageStart = page << pageShift;
        int offset = from - pageStart;
        if (paged$
            && Query.samePositions(lead, heatStorage, pageStart, from + 1)) {
          final long leadStamp$ = Query.structureStamp(lead);
          final long heatCursorStamp$ = Query.structureStamp(heatStorage);
          // An optional term's cursor walks the run too where its storage holds the
          // run's entities at the lead's positions; else it is looked up per entity.
          final boolean velocityCursorAligned$ = velocityCursorPaged$ && velocityCursorAlignment$.holds(pageStart, from + 1);
          final long velocityCursorStamp$ = Query.structureStamp(velocityStorage);
          final boolean labelCursorAligned$ = labelCursorPaged$ && labelCursorAlignment$.holds(pageStart, from + 1);
          final long labelCursorStamp$ = Query.structureStamp(labelStorage);
          Query.moveToPage(heatCursor, page);
          if (velocityCursorAligned$) {
            Query.moveToPage(velocityCursor, page);
          }
          if (labelCursorAligned$) {
            Query.moveToPage(labelCursor, page);
          }
          for (; offset >= 0; offset--) {
            final int position = pageStart + offset;
            // Read the array again: the visitor may have grown it (appended elements are not visited).
            final long entity = lead.packed()[position];
            if (stable && Entity.isTombstone(entity)) {
              continue;
            }
            Query.moveWithinPage(heatCursor, offset);
            final Velocity_Cursor velocityCursorOrNull$;
            if (velocityCursorAligned$) {
              Query.moveWithinPage(velocityCursor, offset);
              velocityCursorOrNull$ = velocityCursor;
            } else {
              velocityCursorOrNull$ = velocityOrNull$(entity, position);
            }
            final Label_Cursor labelCursorOrNull$;
            if (labelCursorAligned$) {
              Query.moveWithinPage(labelCursor, offset);
              labelCursorOrNull$ = labelCursor;
            } else {
              labelCursorOrNull$ = labelOrNull$(entity, position);
            }
            Query.visit(lead, position);
            visitor.visit(entity, heatCursor, velocityCursorOrNull$, frozenStorage.contains(entity), labelCursorOrNull$);
            if (Query.structureStamp(lead) != leadStamp$
                || Query.structureStamp(heatStorage) != heatCursorStamp$
                || (velocityCursorAligned$ && Query.structureStamp(velocityStorage) != velocityCursorStamp$)
                || (labelCursorAligned$ && Query.structureStamp(labelStorage) != labelCursorStamp$)) {
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
          final int heatCursorIndex$ = lead == heatStorage || Query.holdsAt(heatStorage, position, entity) ? position : heatStorage.indexOf(entity);
          if (heatCursorIndex$ < 0) {
            continue;
          }
          if (heatCursorIndex$ == position && heatCursorPaged$) {
            Query.moveToElement(heatCursor, page, offset);
          } else {
            heatCursor.moveTo(heatCursorIndex$);
          }
          final Velocity_Cursor velocityCursorOrNull$ = velocityOrNull$(entity, position);
          final Label_Cursor labelCursorOrNull$ = labelOrNull$(entity, position);
          Query.visit(lead, position);
          visitor.visit(entity, heatCursor, velocityCursorOrNull$, frozenStorage.contains(entity), labelCursorOrNull$);
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
    final Heat_Cursor heatCursor = this.heatCursor;
    final SparseSet lead = view.leader();
    final Velocity_Cursor velocityCursor = this.velocityCursor;
    final Label_Cursor labelCursor = this.labelCursor;
    final boolean stable = DeletionPolicy.IN_PLACE == lead.policy();
    // Runs of one page. When every storage with a cursor holds the run's entities at the lead's
    // positions (storages filled in the same order) and has the same page size, the cursors walk
    // the run with no lookup, one page each: the JIT then reads the page arrays once per run.
    // Otherwise, and once a visitor has moved, removed or added an element of one of them, each
    // storage is tested per entity.
    final int pageShift = heatStorage.pageShift();
    final boolean heatCursorPaged$ = heatStorage.pageShift() == pageShift;
    final boolean paged$ = heatCursorPaged$;
    final boolean velocityCursorPaged$ = velocityStorage.pageShift() == pageShift;
    final boolean labelCursorPaged$ = labelStorage.pageShift() == pageShift;
    // How far each storage agrees with the lead, kept from the last pass: compares only what was
    // appended since, unless a set changed (then everything, once).
    if (paged$) {
      if (velocityCursorPaged$) {
        this.velocityCursorAlignment$.refresh(lead);
      }
      if (labelCursorPaged$) {
        this.labelCursorAlignment$.refresh(lead);
      }
    }
    Query.beginIteration(lead);
    try {
      for (int from = lead.size() - 1; from >= 0; ) {
        final int page = from >>> pageShift;
        final int pageStart = page << pageShift;
        int offset = from - pageStart;
        if (paged$
            && Query.samePositions(lead, heatStorage, pageStart, from + 1)) {
          final long leadStamp$ = Query.structureStamp(lead);
          final long heatCursorStamp$ = Query.structureStamp(heatStorage);
          // An optional term's cursor walks the run too where its storage holds the
          // run's entities at the lead's positions; else it is looked up per entity.
          final boolean velocityCursorAligned$ = velocityCursorPaged$ && velocityCursorAlignment$.holds(pageStart, from + 1);
          final long velocityCursorStamp$ = Query.structureStamp(velocityStorage);
          final boolean labelCursorAligned$ = labelCursorPaged$ && labelCursorAlignment$.holds(pageStart, from + 1);
          final long labelCursorStamp$ = Query.structureStamp(labelStorage);
          Query.moveToPage(heatCursor, page);
          if (velocityCursorAligned$) {
            Query.moveToPage(velocityCursor, page);
          }
          if (labelCursorAligned$) {
            Query.moveToPage(labelCursor, page);
          }
          for (; offset >= 0; offset--) {
            final int position = pageStart + offset;
            // Read the array again: the visitor may have grown it (appended elements are not visited).
            final long entity = lead.packed()[position];
            if (stable && Entity.isTombstone(entity)) {
              continue;
            }
            Query.moveWithinPage(heatCursor, offset);
            final Velocity_Cursor velocityCursorOrNull$;
            if (velocityCursorAligned$) {
              Query.moveWithinPage(velocityCursor, offset);
              velocityCursorOrNull$ = velocityCursor;
            } else {
              velocityCursorOrNull$ = velocityOrNull$(entity, position);
            }
            final Label_Cursor labelCursorOrNull$;
            if (labelCursorAligned$) {
              Query.moveWithinPage(labelCursor, offset);
              labelCursorOrNull$ = labelCursor;
            } else {
              labelCursorOrNull$ = labelOrNull$(entity, position);
            }
            Query.visit(lead, position);
            visitor.visit(entity, heatCursor, velocityCursorOrNull$, frozenStorage.contains(entity), labelCursorOrNull$);
            if (Query.structureStamp(lead) != leadStamp$
                || Query.structureStamp(heatStorage) != heatCursorStamp$
                || (velocityCursorAligned$ && Query.structureStamp(velocityStorage) != velocityCursorStamp$)
                || (labelCursorAligned$ && Query.structureStamp(labelStorage) != labelCursorStamp$)) {
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
          final int heatCursorIndex$ = lead == heatStorage || Query.holdsAt(heatStorage, position, entity) ? position : heatStorage.indexOf(entity);
          if (heatCursorIndex$ < 0) {
            continue;
          }
          if (heatCursorIndex$ == position && heatCursorPaged$) {
            Query.moveToElement(heatCursor, page, offset);
          } else {
            heatCursor.moveTo(heatCursorIndex$);
          }
          final Velocity_Cursor velocityCursorOrNull$ = velocityOrNull$(entity, position);
          final Label_Cursor labelCursorOrNull$ = labelOrNull$(entity, position);
          Query.visit(lead, position);
          visitor.visit(entity, heatCursor, velocityCursorOrNull$, frozenStorage.contains(entity), labelCursorOrNull$);
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
    final Heat_Cursor heatCursor = this.heatCursor;
    final SparseSet lead = view.leader();
    final Velocity_Cursor velocityCursor = this.velocityCursor;
    final Label_Cursor labelCursor = this.labelCursor;
    final boolean stable = DeletionPolicy.IN_PLACE == lead.policy();
    // Runs of one page. When every storage with a cursor holds the run's entities at the lead's
    // positions (storages filled in the same order) and has the same page size, the cursors walk
    // the run with no lookup, one page each: the JIT then reads the page arrays once per run.
    // Otherwise, and once a visitor has moved, removed or added an element of one of them, each
    // storage is tested per entity.
    final int pageShift = heatStorage.pageShift();
    final boolean heatCursorPaged$ = heatStorage.pageShift() == pageShift;
    final boolean paged$ = heatCursorPaged$;
    final boolean velocityCursorPaged$ = velocityStorage.pageShift() == pageShift;
    final boolean labelCursorPaged$ = labelStorage.pageShift() == pageShift;
    // How far each storage agrees with the lead, kept from the last pass: compares only what was
    // appended since, unless a set changed (then everything, once).
    if (paged$) {
      if (velocityCursorPaged$) {
        this.velocityCursorAlignment$.refresh(lead);
      }
      if (labelCursorPaged$) {
        this.labelCursorAlignment$.refresh(lead);
      }
    }
    Query.beginIteration(lead);
    try {
      for (int from = lead.size() - 1; from >= 0; ) {
        final int page = from >>> pageShift;
        final int pageStart = page << pageShift;
        int offset = from - pageStart;
        if (paged$
            && Query.samePositions(lead, heatStorage, pageStart, from + 1)) {
          final long leadStamp$ = Query.structureStamp(lead);
          final long heatCursorStamp$ = Query.structureStamp(heatStorage);
          // An optional term's cursor walks the run too where its storage holds the
          // run's entities at the lead's positions; else it is looked up per entity.
          final boolean velocityCursorAligned$ = velocityCursorPaged$ && velocityCursorAlignment$.holds(pageStart, from + 1);
          final long velocityCursorStamp$ = Query.structureStamp(velocityStorage);
          final boolean labelCursorAligned$ = labelCursorPaged$ && labelCursorAlignment$.holds(pageStart, from + 1);
          final long labelCursorStamp$ = Query.structureStamp(labelStorage);
          Query.moveToPage(heatCursor, page);
          if (velocityCursorAligned$) {
            Query.moveToPage(velocityCursor, page);
          }
          if (labelCursorAligned$) {
            Query.moveToPage(labelCursor, page);
          }
          for (; offset >= 0; offset--) {
            final int position = pageStart + offset;
            // Read the array again: the visitor may have grown it (appended elements are not visited).
            final long entity = lead.packed()[position];
            if (stable && Entity.isTombstone(entity)) {
              continue;
            }
            Query.moveWithinPage(heatCursor, offset);
            final Velocity_Cursor velocityCursorOrNull$;
            if (velocityCursorAligned$) {
              Query.moveWithinPage(velocityCursor, offset);
              velocityCursorOrNull$ = velocityCursor;
            } else {
              velocityCursorOrNull$ = velocityOrNull$(entity, position);
            }
            final Label_Cursor labelCursorOrNull$;
            if (labelCursorAligned$) {
              Query.moveWithinPage(labelCursor, offset);
              labelCursorOrNull$ = labelCursor;
            } else {
              labelCursorOrNull$ = labelOrNull$(entity, position);
            }
            Query.visit(lead, position);
            visitor.visit(entity, heatCursor, velocityCursorOrNull$, frozenStorage.contains(entity), labelCursorOrNull$);
            if (Query.structureStamp(lead) != leadStamp$
                || Query.structureStamp(heatStorage) != heatCursorStamp$
                || (velocityCursorAligned$ && Query.structureStamp(velocityStorage) != velocityCursorStamp$)
                || (labelCursorAligned$ && Query.structureStamp(labelStorage) != labelCursorStamp$)) {
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
          final int heatCursorIndex$ = lead == heatStorage || Query.holdsAt(heatStorage, position, entity) ? position : heatStorage.indexOf(entity);
          if (heatCursorIndex$ < 0) {
            continue;
          }
          if (heatCursorIndex$ == position && heatCursorPaged$) {
            Query.moveToElement(heatCursor, page, offset);
          } else {
            heatCursor.moveTo(heatCursorIndex$);
          }
          final Velocity_Cursor velocityCursorOrNull$ = velocityOrNull$(entity, position);
          final Label_Cursor labelCursorOrNull$ = labelOrNull$(entity, position);
          Query.visit(lead, position);
          visitor.visit(entity, heatCursor, velocityCursorOrNull$, frozenStorage.contains(entity), labelCursorOrNull$);
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
    final Heat_Cursor heatCursor = this.heatCursor;
    final SparseSet lead = view.leader();
    final Velocity_Cursor velocityCursor = this.velocityCursor;
    final Label_Cursor labelCursor = this.labelCursor;
    final boolean stable = DeletionPolicy.IN_PLACE == lead.policy();
    // Runs of one page. When every storage with a cursor holds the run's entities at the lead's
    // positions (storages filled in the same order) and has the same page size, the cursors walk
    // the run with no lookup, one page each: the JIT then reads the page arrays once per run.
    // Otherwise, and once a visitor has moved, removed or added an element of one of them, each
    // storage is tested per entity.
    final int pageShift = heatStorage.pageShift();
    final boolean heatCursorPaged$ = heatStorage.pageShift() == pageShift;
    final boolean paged$ = heatCursorPaged$;
    final boolean velocityCursorPaged$ = velocityStorage.pageShift() == pageShift;
    final boolean labelCursorPaged$ = labelStorage.pageShift() == pageShift;
    // How far each storage agrees with the lead, kept from the last pass: compares only what was
    // appended since, unless a set changed (then everything, once).
    if (paged$) {
      if (velocityCursorPaged$) {
        this.velocityCursorAlignment$.refresh(lead);
      }
      if (labelCursorPaged$) {
        this.labelCursorAlignment$.refresh(lead);
      }
    }
    Query.beginIteration(lead);
    try {
      for (int from = lead.size() - 1; from >= 0; ) {
        final int page = from >>> pageShift;
        final int pageStart = page << pageShift;
        int offset = from - pageStart;
        if (paged$
            && Query.samePositions(lead, heatStorage, pageStart, from + 1)) {
          final long leadStamp$ = Query.structureStamp(lead);
          final long heatCursorStamp$ = Query.structureStamp(heatStorage);
          // An optional term's cursor walks the run too where its storage holds the
          // run's entities at the lead's positions; else it is looked up per entity.
          final boolean velocityCursorAligned$ = velocityCursorPaged$ && velocityCursorAlignment$.holds(pageStart, from + 1);
          final long velocityCursorStamp$ = Query.structureStamp(velocityStorage);
          final boolean labelCursorAligned$ = labelCursorPaged$ && labelCursorAlignment$.holds(pageStart, from + 1);
          final long labelCursorStamp$ = Query.structureStamp(labelStorage);
          Query.moveToPage(heatCursor, page);
          if (velocityCursorAligned$) {
            Query.moveToPage(velocityCursor, page);
          }
          if (labelCursorAligned$) {
            Query.moveToPage(labelCursor, page);
          }
          for (; offset >= 0; offset--) {
            final int position = pageStart + offset;
            // Read the array again: the visitor may have grown it (appended elements are not visited).
            final long entity = lead.packed()[position];
            if (stable && Entity.isTombstone(entity)) {
              continue;
            }
            Query.moveWithinPage(heatCursor, offset);
            final Velocity_Cursor velocityCursorOrNull$;
            if (velocityCursorAligned$) {
              Query.moveWithinPage(velocityCursor, offset);
              velocityCursorOrNull$ = velocityCursor;
            } else {
              velocityCursorOrNull$ = velocityOrNull$(entity, position);
            }
            final Label_Cursor labelCursorOrNull$;
            if (labelCursorAligned$) {
              Query.moveWithinPage(labelCursor, offset);
              labelCursorOrNull$ = labelCursor;
            } else {
              labelCursorOrNull$ = labelOrNull$(entity, position);
            }
            Query.visit(lead, position);
            visitor.visit(entity, heatCursor, velocityCursorOrNull$, frozenStorage.contains(entity), labelCursorOrNull$);
            if (Query.structureStamp(lead) != leadStamp$
                || Query.structureStamp(heatStorage) != heatCursorStamp$
                || (velocityCursorAligned$ && Query.structureStamp(velocityStorage) != velocityCursorStamp$)
                || (labelCursorAligned$ && Query.structureStamp(labelStorage) != labelCursorStamp$)) {
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
          final int heatCursorIndex$ = lead == heatStorage || Query.holdsAt(heatStorage, position, entity) ? position : heatStorage.indexOf(entity);
          if (heatCursorIndex$ < 0) {
            continue;
          }
          if (heatCursorIndex$ == position && heatCursorPaged$) {
            Query.moveToElement(heatCursor, page, offset);
          } else {
            heatCursor.moveTo(heatCursorIndex$);
          }
          final Velocity_Cursor velocityCursorOrNull$ = velocityOrNull$(entity, position);
          final Label_Cursor labelCursorOrNull$ = labelOrNull$(entity, position);
          Query.visit(lead, position);
          visitor.visit(entity, heatCursor, velocityCursorOrNull$, frozenStorage.contains(entity), labelCursorOrNull$);
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
    final Heat_Cursor heatCursor = this.heatCursor;
    final SparseSet lead = view.leader();
    final Velocity_Cursor velocityCursor = this.velocityCursor;
    final Label_Cursor labelCursor = this.labelCursor;
    final boolean stable = DeletionPolicy.IN_PLACE == lead.policy();
    // Runs of one page. When every storage with a cursor holds the run's entities at the lead's
    // positions (storages filled in the same order) and has the same page size, the cursors walk
    // the run with no lookup, one page each: the JIT then reads the page arrays once per run.
    // Otherwise, and once a visitor has moved, removed or added an element of one of them, each
    // storage is tested per entity.
    final int pageShift = heatStorage.pageShift();
    final boolean heatCursorPaged$ = heatStorage.pageShift() == pageShift;
    final boolean paged$ = heatCursorPaged$;
    final boolean velocityCursorPaged$ = velocityStorage.pageShift() == pageShift;
    final boolean labelCursorPaged$ = labelStorage.pageShift() == pageShift;
    // How far each storage agrees with the lead, kept from the last pass: compares only what was
    // appended since, unless a set changed (then everything, once).
    if (paged$) {
      if (velocityCursorPaged$) {
        this.velocityCursorAlignment$.refresh(lead);
      }
      if (labelCursorPaged$) {
        this.labelCursorAlignment$.refresh(lead);
      }
    }
    Query.beginIteration(lead);
    try {
      for (int from = lead.size() - 1; from >= 0; ) {
        final int page = from >>> pageShift;
        final int pageStart = page << pageShift;
        int offset = from - pageStart;
        if (paged$
            && Query.samePositions(lead, heatStorage, pageStart, from + 1)) {
          final long leadStamp$ = Query.structureStamp(lead);
          final long heatCursorStamp$ = Query.structureStamp(heatStorage);
          // An optional term's cursor walks the run too where its storage holds the
          // run's entities at the lead's positions; else it is looked up per entity.
          final boolean velocityCursorAligned$ = velocityCursorPaged$ && velocityCursorAlignment$.holds(pageStart, from + 1);
          final long velocityCursorStamp$ = Query.structureStamp(velocityStorage);
          final boolean labelCursorAligned$ = labelCursorPaged$ && labelCursorAlignment$.holds(pageStart, from + 1);
          final long labelCursorStamp$ = Query.structureStamp(labelStorage);
          Query.moveToPage(heatCursor, page);
          if (velocityCursorAligned$) {
            Query.moveToPage(velocityCursor, page);
          }
          if (labelCursorAligned$) {
            Query.moveToPage(labelCursor, page);
          }
          for (; offset >= 0; offset--) {
            final int position = pageStart + offset;
            // Read the array again: the visitor may have grown it (appended elements are not visited).
            final long entity = lead.packed()[position];
            if (stable && Entity.isTombstone(entity)) {
              continue;
            }
            Query.moveWithinPage(heatCursor, offset);
            final Velocity_Cursor velocityCursorOrNull$;
            if (velocityCursorAligned$) {
              Query.moveWithinPage(velocityCursor, offset);
              velocityCursorOrNull$ = velocityCursor;
            } else {
              velocityCursorOrNull$ = velocityOrNull$(entity, position);
            }
            final Label_Cursor labelCursorOrNull$;
            if (labelCursorAligned$) {
              Query.moveWithinPage(labelCursor, offset);
              labelCursorOrNull$ = labelCursor;
            } else {
              labelCursorOrNull$ = labelOrNull$(entity, position);
            }
            Query.visit(lead, position);
            visitor.visit(entity, heatCursor, velocityCursorOrNull$, frozenStorage.contains(entity), labelCursorOrNull$);
            if (Query.structureStamp(lead) != leadStamp$
                || Query.structureStamp(heatStorage) != heatCursorStamp$
                || (velocityCursorAligned$ && Query.structureStamp(velocityStorage) != velocityCursorStamp$)
                || (labelCursorAligned$ && Query.structureStamp(labelStorage) != labelCursorStamp$)) {
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
          final int heatCursorIndex$ = lead == heatStorage || Query.holdsAt(heatStorage, position, entity) ? position : heatStorage.indexOf(entity);
          if (heatCursorIndex$ < 0) {
            continue;
          }
          if (heatCursorIndex$ == position && heatCursorPaged$) {
            Query.moveToElement(heatCursor, page, offset);
          } else {
            heatCursor.moveTo(heatCursorIndex$);
          }
          final Velocity_Cursor velocityCursorOrNull$ = velocityOrNull$(entity, position);
          final Label_Cursor labelCursorOrNull$ = labelOrNull$(entity, position);
          Query.visit(lead, position);
          visitor.visit(entity, heatCursor, velocityCursorOrNull$, frozenStorage.contains(entity), labelCursorOrNull$);
        }
        from = pageStart - 1;
      }
    } finally {
      Query.endIteration(lead);
    }
  }

  /**
   * As {@link #each}, visiting only the entities whose tracked component (Heat) was added or written after {@code tick}: pair it with {@code
   * registry.advanceChangeTick()}.
   *
   * <p>Optional components never make an entity visited (so that optional terms do not change
   * which entities are): a visitor that cares asks an optional cursor's {@code changedSince}.
   *
   * @param tick the change tick already seen
   * @param visitor the loop body
   */
  public void eachChangedSince(final long tick, final Visitor visitor) {
    final Heat_Cursor heatCursor = this.heatCursor;
    if (this.iterating$) {
      throw new IllegalStateException("WarmQuery is already iterating: every per-entity loop of one query object shares its cursors; for a nested loop over the same entities, make a second query with WarmQuery.of(registry)");
    }
    this.iterating$ = true;
    try {
      final SparseSet lead = view.leader();
      final Velocity_Cursor velocityCursor = this.velocityCursor;
      final Label_Cursor labelCursor = this.labelCursor;
      final boolean stable = DeletionPolicy.IN_PLACE == lead.policy();
      // Runs of one page. When every storage with a cursor holds the run's entities at the lead's
      // positions (storages filled in the same order) and has the same page size, the cursors walk
      // the run with no lookup, one page each: the JIT then reads the page arrays once per run.
      // Otherwise, and once a visitor has moved, removed or added an element of one of them, each
      // storage is tested per entity.
      final int pageShift = heatStorage.pageShift();
      final boolean heatCursorPaged$ = heatStorage.pageShift() == pageShift;
      final boolean paged$ = heatCursorPaged$;
      final boolean velocityCursorPaged$ = velocityStorage.pageShift() == pageShift;
      final boolean labelCursorPaged$ = labelStorage.pageShift() == pageShift;
      // How far each storage agrees with the lead, kept from the last pass: compares only what was
      // appended since, unless a set changed (then everything, once).
      if (paged$) {
        if (velocityCursorPaged$) {
          this.velocityCursorAlignment$.refresh(lead);
        }
        if (labelCursorPaged$) {
          this.labelCursorAlignment$.refresh(lead);
        }
      }
      Query.beginIteration(lead);
      try {
        for (int from = lead.size() - 1; from >= 0; ) {
          final int page = from >>> pageShift;
          final int pageStart = page << pageShift;
          int offset = from - pageStart;
          if (paged$
              && Query.samePositions(lead, heatStorage, pageStart, from + 1)) {
            final long leadStamp$ = Query.structureStamp(lead);
            final long heatCursorStamp$ = Query.structureStamp(heatStorage);
            // An optional term's cursor walks the run too where its storage holds the
            // run's entities at the lead's positions; else it is looked up per entity.
            final boolean velocityCursorAligned$ = velocityCursorPaged$ && velocityCursorAlignment$.holds(pageStart, from + 1);
            final long velocityCursorStamp$ = Query.structureStamp(velocityStorage);
            final boolean labelCursorAligned$ = labelCursorPaged$ && labelCursorAlignment$.holds(pageStart, from + 1);
            final long labelCursorStamp$ = Query.structureStamp(labelStorage);
            Query.moveToPage(heatCursor, page);
            if (velocityCursorAligned$) {
              Query.moveToPage(velocityCursor, page);
            }
            if (labelCursorAligned$) {
              Query.moveToPage(labelCursor, page);
            }
            for (; offset >= 0; offset--) {
              final int position = pageStart + offset;
              // Read the array again: the visitor may have grown it (appended elements are not visited).
              final long entity = lead.packed()[position];
              if (stable && Entity.isTombstone(entity)) {
                continue;
              }
              Query.moveWithinPage(heatCursor, offset);
              if (!(heatCursor.changedSince(tick))) {
                continue;
              }
              final Velocity_Cursor velocityCursorOrNull$;
              if (velocityCursorAligned$) {
                Query.moveWithinPage(velocityCursor, offset);
                velocityCursorOrNull$ = velocityCursor;
              } else {
                velocityCursorOrNull$ = velocityOrNull$(entity, position);
              }
              final Label_Cursor labelCursorOrNull$;
              if (labelCursorAligned$) {
                Query.moveWithinPage(labelCursor, offset);
                labelCursorOrNull$ = labelCursor;
              } else {
                labelCursorOrNull$ = labelOrNull$(entity, position);
              }
              Query.visit(lead, position);
              visitor.visit(entity, heatCursor, velocityCursorOrNull$, frozenStorage.contains(entity), labelCursorOrNull$);
              if (Query.structureStamp(lead) != leadStamp$
                  || Query.structureStamp(heatStorage) != heatCursorStamp$
                  || (velocityCursorAligned$ && Query.structureStamp(velocityStorage) != velocityCursorStamp$)
                  || (labelCursorAligned$ && Query.structureStamp(labelStorage) != labelCursorStamp$)) {
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
            final int heatCursorIndex$ = lead == heatStorage || Query.holdsAt(heatStorage, position, entity) ? position : heatStorage.indexOf(entity);
            if (heatCursorIndex$ < 0) {
              continue;
            }
            if (heatCursorIndex$ == position && heatCursorPaged$) {
              Query.moveToElement(heatCursor, page, offset);
            } else {
              heatCursor.moveTo(heatCursorIndex$);
            }
            if (!(heatCursor.changedSince(tick))) {
              continue;
            }
            final Velocity_Cursor velocityCursorOrNull$ = velocityOrNull$(entity, position);
            final Label_Cursor labelCursorOrNull$ = labelOrNull$(entity, position);
            Query.visit(lead, position);
            visitor.visit(entity, heatCursor, velocityCursorOrNull$, frozenStorage.contains(entity), labelCursorOrNull$);
          }
          from = pageStart - 1;
        }
      } finally {
        Query.endIteration(lead);
      }
    } finally {
      this.iterating$ = false;
    }
  }

  /**
   * Places the cursor over {@link Velocity} on {@code entity}'s component: found at
   * {@code position} when the storage holds the entity there, else by one sparse lookup; no
   * allocation.
   *
   * @param entity a visited entity
   * @param position the entity's position in the loop's lead storage, or -1
   * @return the cursor, or {@code null} if the entity has no {@link Velocity}
   */
  private Velocity_Cursor velocityOrNull$(final long entity, final int position) {
    final int index = Query.holdsAt(velocityStorage, position, entity) ? position : velocityStorage.indexOf(entity);
    return index < 0 ? null : velocityCursor.moveTo(index);
  }

  /**
   * Places the cursor over {@link Label} on {@code entity}'s component: found at
   * {@code position} when the storage holds the entity there, else by one sparse lookup; no
   * allocation.
   *
   * @param entity a visited entity
   * @param position the entity's position in the loop's lead storage, or -1
   * @return the cursor, or {@code null} if the entity has no {@link Label}
   */
  private Label_Cursor labelOrNull$(final long entity, final int position) {
    final int index = Query.holdsAt(labelStorage, position, entity) ? position : labelStorage.indexOf(entity);
    return index < 0 ? null : labelCursor.moveTo(index);
  }

  /**
   * The body of {@link WarmQuery#each}: one call per entity, with a typed cursor per included component
   * that has fields (tags add no parameter).
   *
   * <p>The components listed in {@code readOnly} come as read-only cursors ({@code Label_ReadCursor}): they have
   * no setters, so a write through them does not compile. A cast back to the writable cursor is a
   * deliberate escape that the schedule does not police.
   *
   * <p>Optional terms, which a visited entity may or may not have:
   * {@link test.Velocity}, {@link test.Frozen}, {@link test.Label}.
   * They do not change which entities are visited, and allocate nothing. A cursor walks
   * each page run of the lead with the included ones, with no lookup, where its storage holds the
   * run's entities at the lead's positions (storages filled in the same order do); elsewhere, and
   * for tags and field-less types, each is
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
     * @param heat a cursor over its {@link Heat}
     * @param velocity a cursor over its {@link Velocity}, or {@code null} if it has none (optional)
     * @param frozen whether the entity has a {@link Frozen} (optional)
     * @param label a read-only cursor over its {@link Label} (listed in {@code readOnly}: no setters), or {@code null} if it has none (optional)
     */
    void visit(long entity, Heat_Cursor heat, Velocity_Cursor velocity, boolean frozen,
        Label_ReadCursor label);
  }
}
