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
 * The view declared by {@code test.Visible}: included {@link test.Position}, {@link test.Label}, excluded {@link test.Frozen}.
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
public final class VisibleQuery extends Query implements AccessSource {
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

  private final Position_Storage positionStorage;

  private final Label_Storage labelStorage;

  private final Frozen_Storage frozenStorage;

  private final Position_Cursor positionCursor;

  private final Label_Cursor labelCursor;

  private VisibleQuery(final Registry registry) {
    this.view = registry.view(
        new ComponentType<?, ?>[] {Position_Traits.TYPE, Label_Traits.TYPE},
        new ComponentType<?, ?>[] {Frozen_Traits.TYPE});
    this.positionStorage = registry.storage(Position_Traits.TYPE);
    this.labelStorage = registry.storage(Label_Traits.TYPE);
    this.frozenStorage = registry.storage(Frozen_Traits.TYPE);
    this.positionCursor = positionStorage.cursor();
    this.labelCursor = labelStorage.cursor();
  }

  /**
   * Returns a query over the view of {@code registry}. The query is cheap: keep one per system
   * and thread; create a second one for a nested loop over the same declaration.
   *
   * @param registry the registry to iterate
   * @return a new query
   */
  public static VisibleQuery of(final Registry registry) {
    return new VisibleQuery(registry);
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
   * Returns the storage of {@link Position}.
   *
   * @return the registry's storage
   */
  public Position_Storage positionStorage() {
    return positionStorage;
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
    access.iterates(Position_Traits.TYPE).writes(Position_Traits.TYPE);
    access.iterates(Label_Traits.TYPE).writes(Label_Traits.TYPE);
    access.iterates(Frozen_Traits.TYPE);
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
      throw new IllegalStateException("VisibleQuery is already iterating: every per-entity loop of one query object shares its cursors; for a nested loop over the same entities, make a second query with VisibleQuery.of(registry)");
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
    final Label_Cursor labelCursor = this.labelCursor;
    final SparseSet lead = view.leader();
    final boolean stable = DeletionPolicy.IN_PLACE == lead.policy();
    // Runs of one page. When every storage with a cursor holds the run's entities at the lead's
    // positions (storages filled in the same order) and has the same page size, the cursors walk
    // the run with no lookup, one page each: the JIT then reads the page arrays once per run.
    // Otherwise, and once a visitor has moved, removed or added an element of one of them, each
    // storage is tested per entity.
    final int pageShift = positionStorage.pageShift();
    final boolean positionCursorPaged$ = positionStorage.pageShift() == pageShift;
    final boolean labelCursorPaged$ = labelStorage.pageShift() == pageShift;
    final boolean paged$ = positionCursorPaged$ && labelCursorPaged$;
    Query.beginIteration(lead);
    try {
      for (int from = lead.size() - 1; from >= 0; ) {
        final int page = from >>> pageShift;
        final int pageStart = page << pageShift;
        int offset = from - pageStart;
        if (paged$
            && Query.samePositions(lead, positionStorage, pageStart, from + 1)
            && Query.samePositions(lead, labelStorage, pageStart, from + 1)) {
          final long leadStamp$ = Query.structureStamp(lead);
          final long positionCursorStamp$ = Query.structureStamp(positionStorage);
          final long labelCursorStamp$ = Query.structureStamp(labelStorage);
          Query.moveToPage(positionCursor, page);
          Query.moveToPage(labelCursor, page);
          for (; offset >= 0; offset--) {
            final int position = pageStart + offset;
            // Read the array again: the visitor may have grown it (appended elements are not visited).
            final long entity = lead.packed()[position];
            if (stable && Entity.isTombstone(entity)) {
              continue;
            }
            if (frozenStorage.contains(entity)) {
              continue;
            }
            Query.moveWithinPage(positionCursor, offset);
            Query.moveWithinPage(labelCursor, offset);
            Query.visit(lead, position);
            visitor.visit(entity, positionCursor, labelCursor);
            if (Query.structureStamp(lead) != leadStamp$
                || Query.structureStamp(positionStorage) != positionCursorStamp$
                || Query.structureStamp(labelStorage) != labelCursorStamp$) {
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
          final int positionCursorIndex$ = lead == positionStorage || Query.holdsAt(positionStorage, position, entity) ? position : positionStorage.indexOf(entity);
          if (positionCursorIndex$ < 0) {
            continue;
          }
          final int labelCursorIndex$ = lead == labelStorage || Query.holdsAt(labelStorage, position, entity) ? position : labelStorage.indexOf(entity);
          if (labelCursorIndex$ < 0) {
            continue;
          }
          if (frozenStorage.contains(entity)) {
            continue;
          }
          if (positionCursorIndex$ == position && positionCursorPaged$) {
            Query.moveToElement(positionCursor, page, offset);
          } else {
            positionCursor.moveTo(positionCursorIndex$);
          }
          if (labelCursorIndex$ == position && labelCursorPaged$) {
            Query.moveToElement(labelCursor, page, offset);
          } else {
            labelCursor.moveTo(labelCursorIndex$);
          }
          Query.visit(lead, position);
          visitor.visit(entity, positionCursor, labelCursor);
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
    final Position_Cursor positionCursor = this.positionCursor;
    final Label_Cursor labelCursor = this.labelCursor;
    final SparseSet lead = view.leader();
    final boolean stable = DeletionPolicy.IN_PLACE == lead.policy();
    // Runs of one page. When every storage with a cursor holds the run's entities at the lead's
    // positions (storages filled in the same order) and has the same page size, the cursors walk
    // the run with no lookup, one page each: the JIT then reads the page arrays once per run.
    // Otherwise, and once a visitor has moved, removed or added an element of one of them, each
    // storage is tested per entity.
    final int pageShift = positionStorage.pageShift();
    final boolean positionCursorPaged$ = positionStorage.pageShift() == pageShift;
    final boolean labelCursorPaged$ = labelStorage.pageShift() == pageShift;
    final boolean paged$ = positionCursorPaged$ && labelCursorPaged$;
    Query.beginIteration(lead);
    try {
      for (int from = lead.size() - 1; from >= 0; ) {
        final int page = from >>> pageShift;
        final int pageStart = page << pageShift;
        int offset = from - pageStart;
        if (paged$
            && Query.samePositions(lead, positionStorage, pageStart, from + 1)
            && Query.samePositions(lead, labelStorage, pageStart, from + 1)) {
          final long leadStamp$ = Query.structureStamp(lead);
          final long positionCursorStamp$ = Query.structureStamp(positionStorage);
          final long labelCursorStamp$ = Query.structureStamp(labelStorage);
          Query.moveToPage(positionCursor, page);
          Query.moveToPage(labelCursor, page);
          for (; offset >= 0; offset--) {
            final int position = pageStart + offset;
            // Read the array again: the visitor may have grown it (appended elements are not visited).
            final long entity = lead.packed()[position];
            if (stable && Entity.isTombstone(entity)) {
              continue;
            }
            if (frozenStorage.contains(entity)) {
              continue;
            }
            Query.moveWithinPage(positionCursor, offset);
            Query.moveWithinPage(labelCursor, offset);
            Query.visit(lead, position);
            visitor.visit(entity, positionCursor, labelCursor);
            if (Query.structureStamp(lead) != leadStamp$
                || Query.structureStamp(positionStorage) != positionCursorStamp$
                || Query.structureStamp(labelStorage) != labelCursorStamp$) {
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
          final int positionCursorIndex$ = lead == positionStorage || Query.holdsAt(positionStorage, position, entity) ? position : positionStorage.indexOf(entity);
          if (positionCursorIndex$ < 0) {
            continue;
          }
          final int labelCursorIndex$ = lead == labelStorage || Query.holdsAt(labelStorage, position, entity) ? position : labelStorage.indexOf(entity);
          if (labelCursorIndex$ < 0) {
            continue;
          }
          if (frozenStorage.contains(entity)) {
            continue;
          }
          if (positionCursorIndex$ == position && positionCursorPaged$) {
            Query.moveToElement(positionCursor, page, offset);
          } else {
            positionCursor.moveTo(positionCursorIndex$);
          }
          if (labelCursorIndex$ == position && labelCursorPaged$) {
            Query.moveToElement(labelCursor, page, offset);
          } else {
            labelCursor.moveTo(labelCursorIndex$);
          }
          Query.visit(lead, position);
          visitor.visit(entity, positionCursor, labelCursor);
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
    final Position_Cursor positionCursor = this.positionCursor;
    final Label_Cursor labelCursor = this.labelCursor;
    final SparseSet lead = view.leader();
    final boolean stable = DeletionPolicy.IN_PLACE == lead.policy();
    // Runs of one page. When every storage with a cursor holds the run's entities at the lead's
    // positions (storages filled in the same order) and has the same page size, the cursors walk
    // the run with no lookup, one page each: the JIT then reads the page arrays once per run.
    // Otherwise, and once a visitor has moved, removed or added an element of one of them, each
    // storage is tested per entity.
    final int pageShift = positionStorage.pageShift();
    final boolean positionCursorPaged$ = positionStorage.pageShift() == pageShift;
    final boolean labelCursorPaged$ = labelStorage.pageShift() == pageShift;
    final boolean paged$ = positionCursorPaged$ && labelCursorPaged$;
    Query.beginIteration(lead);
    try {
      for (int from = lead.size() - 1; from >= 0; ) {
        final int page = from >>> pageShift;
        final int pageStart = page << pageShift;
        int offset = from - pageStart;
        if (paged$
            && Query.samePositions(lead, positionStorage, pageStart, from + 1)
            && Query.samePositions(lead, labelStorage, pageStart, from + 1)) {
          final long leadStamp$ = Query.structureStamp(lead);
          final long positionCursorStamp$ = Query.structureStamp(positionStorage);
          final long labelCursorStamp$ = Query.structureStamp(labelStorage);
          Query.moveToPage(positionCursor, page);
          Query.moveToPage(labelCursor, page);
          for (; offset >= 0; offset--) {
            final int position = pageStart + offset;
            // Read the array again: the visitor may have grown it (appended elements are not visited).
            final long entity = lead.packed()[position];
            if (stable && Entity.isTombstone(entity)) {
              continue;
            }
            if (frozenStorage.contains(entity)) {
              continue;
            }
            Query.moveWithinPage(positionCursor, offset);
            Query.moveWithinPage(labelCursor, offset);
            Query.visit(lead, position);
            visitor.visit(entity, positionCursor, labelCursor);
            if (Query.structureStamp(lead) != leadStamp$
                || Query.structureStamp(positionStorage) != positionCursorStamp$
                || Query.structureStamp(labelStorage) != labelCursorStamp$) {
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
          final int positionCursorIndex$ = lead == positionStorage || Query.holdsAt(positionStorage, position, entity) ? position : positionStorage.indexOf(entity);
          if (positionCursorIndex$ < 0) {
            continue;
          }
          final int labelCursorIndex$ = lead == labelStorage || Query.holdsAt(labelStorage, position, entity) ? position : labelStorage.indexOf(entity);
          if (labelCursorIndex$ < 0) {
            continue;
          }
          if (frozenStorage.contains(entity)) {
            continue;
          }
          if (positionCursorIndex$ == position && positionCursorPaged$) {
            Query.moveToElement(positionCursor, page, offset);
          } else {
            positionCursor.moveTo(positionCursorIndex$);
          }
          if (labelCursorIndex$ == position && labelCursorPaged$) {
            Query.moveToElement(labelCursor, page, offset);
          } else {
            labelCursor.moveTo(labelCursorIndex$);
          }
          Query.visit(lead, position);
          visitor.visit(entity, positionCursor, labelCursor);
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
    final Position_Cursor positionCursor = this.positionCursor;
    final Label_Cursor labelCursor = this.labelCursor;
    final SparseSet lead = view.leader();
    final boolean stable = DeletionPolicy.IN_PLACE == lead.policy();
    // Runs of one page. When every storage with a cursor holds the run's entities at the lead's
    // positions (storages filled in the same order) and has the same page size, the cursors walk
    // the run with no lookup, one page each: the JIT then reads the page arrays once per run.
    // Otherwise, and once a visitor has moved, removed or added an element of one of them, each
    // storage is tested per entity.
    final int pageShift = positionStorage.pageShift();
    final boolean positionCursorPaged$ = positionStorage.pageShift() == pageShift;
    final boolean labelCursorPaged$ = labelStorage.pageShift() == pageShift;
    final boolean paged$ = positionCursorPaged$ && labelCursorPaged$;
    Query.beginIteration(lead);
    try {
      for (int from = lead.size() - 1; from >= 0; ) {
        final int page = from >>> pageShift;
        final int pageStart = page << pageShift;
        int offset = from - pageStart;
        if (paged$
            && Query.samePositions(lead, positionStorage, pageStart, from + 1)
            && Query.samePositions(lead, labelStorage, pageStart, from + 1)) {
          final long leadStamp$ = Query.structureStamp(lead);
          final long positionCursorStamp$ = Query.structureStamp(positionStorage);
          final long labelCursorStamp$ = Query.structureStamp(labelStorage);
          Query.moveToPage(positionCursor, page);
          Query.moveToPage(labelCursor, page);
          for (; offset >= 0; offset--) {
            final int position = pageStart + offset;
            // Read the array again: the visitor may have grown it (appended elements are not visited).
            final long entity = lead.packed()[position];
            if (stable && Entity.isTombstone(entity)) {
              continue;
            }
            if (frozenStorage.contains(entity)) {
              continue;
            }
            Query.moveWithinPage(positionCursor, offset);
            Query.moveWithinPage(labelCursor, offset);
            Query.visit(lead, position);
            visitor.visit(entity, positionCursor, labelCursor);
            if (Query.structureStamp(lead) != leadStamp$
                || Query.structureStamp(positionStorage) != positionCursorStamp$
                || Query.structureStamp(labelStorage) != labelCursorStamp$) {
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
          final int positionCursorIndex$ = lead == positionStorage || Query.holdsAt(positionStorage, position, entity) ? position : positionStorage.indexOf(entity);
          if (positionCursorIndex$ < 0) {
            continue;
          }
          final int labelCursorIndex$ = lead == labelStorage || Query.holdsAt(labelStorage, position, entity) ? position : labelStorage.indexOf(entity);
          if (labelCursorIndex$ < 0) {
            continue;
          }
          if (frozenStorage.contains(entity)) {
            continue;
          }
          if (positionCursorIndex$ == position && positionCursorPaged$) {
            Query.moveToElement(positionCursor, page, offset);
          } else {
            positionCursor.moveTo(positionCursorIndex$);
          }
          if (labelCursorIndex$ == position && labelCursorPaged$) {
            Query.moveToElement(labelCursor, page, offset);
          } else {
            labelCursor.moveTo(labelCursorIndex$);
          }
          Query.visit(lead, position);
          visitor.visit(entity, positionCursor, labelCursor);
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
    final Position_Cursor positionCursor = this.positionCursor;
    final Label_Cursor labelCursor = this.labelCursor;
    final SparseSet lead = view.leader();
    final boolean stable = DeletionPolicy.IN_PLACE == lead.policy();
    // Runs of one page. When every storage with a cursor holds the run's entities at the lead's
    // positions (storages filled in the same order) and has the same page size, the cursors walk
    // the run with no lookup, one page each: the JIT then reads the page arrays once per run.
    // Otherwise, and once a visitor has moved, removed or added an element of one of them, each
    // storage is tested per entity.
    final int pageShift = positionStorage.pageShift();
    final boolean positionCursorPaged$ = positionStorage.pageShift() == pageShift;
    final boolean labelCursorPaged$ = labelStorage.pageShift() == pageShift;
    final boolean paged$ = positionCursorPaged$ && labelCursorPaged$;
    Query.beginIteration(lead);
    try {
      for (int from = lead.size() - 1; from >= 0; ) {
        final int page = from >>> pageShift;
        final int pageStart = page << pageShift;
        int offset = from - pageStart;
        if (paged$
            && Query.samePositions(lead, positionStorage, pageStart, from + 1)
            && Query.samePositions(lead, labelStorage, pageStart, from + 1)) {
          final long leadStamp$ = Query.structureStamp(lead);
          final long positionCursorStamp$ = Query.structureStamp(positionStorage);
          final long labelCursorStamp$ = Query.structureStamp(labelStorage);
          Query.moveToPage(positionCursor, page);
          Query.moveToPage(labelCursor, page);
          for (; offset >= 0; offset--) {
            final int position = pageStart + offset;
            // Read the array again: the visitor may have grown it (appended elements are not visited).
            final long entity = lead.packed()[position];
            if (stable && Entity.isTombstone(entity)) {
              continue;
            }
            if (frozenStorage.contains(entity)) {
              continue;
            }
            Query.moveWithinPage(positionCursor, offset);
            Query.moveWithinPage(labelCursor, offset);
            Query.visit(lead, position);
            visitor.visit(entity, positionCursor, labelCursor);
            if (Query.structureStamp(lead) != leadStamp$
                || Query.structureStamp(positionStorage) != positionCursorStamp$
                || Query.structureStamp(labelStorage) != labelCursorStamp$) {
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
          final int positionCursorIndex$ = lead == positionStorage || Query.holdsAt(positionStorage, position, entity) ? position : positionStorage.indexOf(entity);
          if (positionCursorIndex$ < 0) {
            continue;
          }
          final int labelCursorIndex$ = lead == labelStorage || Query.holdsAt(labelStorage, position, entity) ? position : labelStorage.indexOf(entity);
          if (labelCursorIndex$ < 0) {
            continue;
          }
          if (frozenStorage.contains(entity)) {
            continue;
          }
          if (positionCursorIndex$ == position && positionCursorPaged$) {
            Query.moveToElement(positionCursor, page, offset);
          } else {
            positionCursor.moveTo(positionCursorIndex$);
          }
          if (labelCursorIndex$ == position && labelCursorPaged$) {
            Query.moveToElement(labelCursor, page, offset);
          } else {
            labelCursor.moveTo(labelCursorIndex$);
          }
          Query.visit(lead, position);
          visitor.visit(entity, positionCursor, labelCursor);
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
    final Position_Cursor positionCursor = this.positionCursor;
    final Label_Cursor labelCursor = this.labelCursor;
    final SparseSet lead = view.leader();
    final boolean stable = DeletionPolicy.IN_PLACE == lead.policy();
    // Runs of one page. When every storage with a cursor holds the run's entities at the lead's
    // positions (storages filled in the same order) and has the same page size, the cursors walk
    // the run with no lookup, one page each: the JIT then reads the page arrays once per run.
    // Otherwise, and once a visitor has moved, removed or added an element of one of them, each
    // storage is tested per entity.
    final int pageShift = positionStorage.pageShift();
    final boolean positionCursorPaged$ = positionStorage.pageShift() == pageShift;
    final boolean labelCursorPaged$ = labelStorage.pageShift() == pageShift;
    final boolean paged$ = positionCursorPaged$ && labelCursorPaged$;
    Query.beginIteration(lead);
    try {
      for (int from = lead.size() - 1; from >= 0; ) {
        final int page = from >>> pageShift;
        final int pageStart = page << pageShift;
        int offset = from - pageStart;
        if (paged$
            && Query.samePositions(lead, positionStorage, pageStart, from + 1)
            && Query.samePositions(lead, labelStorage, pageStart, from + 1)) {
          final long leadStamp$ = Query.structureStamp(lead);
          final long positionCursorStamp$ = Query.structureStamp(positionStorage);
          final long labelCursorStamp$ = Query.structureStamp(labelStorage);
          Query.moveToPage(positionCursor, page);
          Query.moveToPage(labelCursor, page);
          for (; offset >= 0; offset--) {
            final int position = pageStart + offset;
            // Read the array again: the visitor may have grown it (appended elements are not visited).
            final long entity = lead.packed()[position];
            if (stable && Entity.isTombstone(entity)) {
              continue;
            }
            if (frozenStorage.contains(entity)) {
              continue;
            }
            Query.moveWithinPage(positionCursor, offset);
            Query.moveWithinPage(labelCursor, offset);
            Query.visit(lead, position);
            visitor.visit(entity, positionCursor, labelCursor);
            if (Query.structureStamp(lead) != leadStamp$
                || Query.structureStamp(positionStorage) != positionCursorStamp$
                || Query.structureStamp(labelStorage) != labelCursorStamp$) {
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
          final int positionCursorIndex$ = lead == positionStorage || Query.holdsAt(positionStorage, position, entity) ? position : positionStorage.indexOf(entity);
          if (positionCursorIndex$ < 0) {
            continue;
          }
          final int labelCursorIndex$ = lead == labelStorage || Query.holdsAt(labelStorage, position, entity) ? position : labelStorage.indexOf(entity);
          if (labelCursorIndex$ < 0) {
            continue;
          }
          if (frozenStorage.contains(entity)) {
            continue;
          }
          if (positionCursorIndex$ == position && positionCursorPaged$) {
            Query.moveToElement(positionCursor, page, offset);
          } else {
            positionCursor.moveTo(positionCursorIndex$);
          }
          if (labelCursorIndex$ == position && labelCursorPaged$) {
            Query.moveToElement(labelCursor, page, offset);
          } else {
            labelCursor.moveTo(labelCursorIndex$);
          }
          Query.visit(lead, position);
          visitor.visit(entity, positionCursor, labelCursor);
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
    final Position_Cursor positionCursor = this.positionCursor;
    final Label_Cursor labelCursor = this.labelCursor;
    final SparseSet lead = view.leader();
    final boolean stable = DeletionPolicy.IN_PLACE == lead.policy();
    // Runs of one page. When every storage with a cursor holds the run's entities at the lead's
    // positions (storages filled in the same order) and has the same page size, the cursors walk
    // the run with no lookup, one page each: the JIT then reads the page arrays once per run.
    // Otherwise, and once a visitor has moved, removed or added an element of one of them, each
    // storage is tested per entity.
    final int pageShift = positionStorage.pageShift();
    final boolean positionCursorPaged$ = positionStorage.pageShift() == pageShift;
    final boolean labelCursorPaged$ = labelStorage.pageShift() == pageShift;
    final boolean paged$ = positionCursorPaged$ && labelCursorPaged$;
    Query.beginIteration(lead);
    try {
      for (int from = lead.size() - 1; from >= 0; ) {
        final int page = from >>> pageShift;
        final int pageStart = page << pageShift;
        int offset = from - pageStart;
        if (paged$
            && Query.samePositions(lead, positionStorage, pageStart, from + 1)
            && Query.samePositions(lead, labelStorage, pageStart, from + 1)) {
          final long leadStamp$ = Query.structureStamp(lead);
          final long positionCursorStamp$ = Query.structureStamp(positionStorage);
          final long labelCursorStamp$ = Query.structureStamp(labelStorage);
          Query.moveToPage(positionCursor, page);
          Query.moveToPage(labelCursor, page);
          for (; offset >= 0; offset--) {
            final int position = pageStart + offset;
            // Read the array again: the visitor may have grown it (appended elements are not visited).
            final long entity = lead.packed()[position];
            if (stable && Entity.isTombstone(entity)) {
              continue;
            }
            if (frozenStorage.contains(entity)) {
              continue;
            }
            Query.moveWithinPage(positionCursor, offset);
            Query.moveWithinPage(labelCursor, offset);
            Query.visit(lead, position);
            visitor.visit(entity, positionCursor, labelCursor);
            if (Query.structureStamp(lead) != leadStamp$
                || Query.structureStamp(positionStorage) != positionCursorStamp$
                || Query.structureStamp(labelStorage) != labelCursorStamp$) {
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
          final int positionCursorIndex$ = lead == positionStorage || Query.holdsAt(positionStorage, position, entity) ? position : positionStorage.indexOf(entity);
          if (positionCursorIndex$ < 0) {
            continue;
          }
          final int labelCursorIndex$ = lead == labelStorage || Query.holdsAt(labelStorage, position, entity) ? position : labelStorage.indexOf(entity);
          if (labelCursorIndex$ < 0) {
            continue;
          }
          if (frozenStorage.contains(entity)) {
            continue;
          }
          if (positionCursorIndex$ == position && positionCursorPaged$) {
            Query.moveToElement(positionCursor, page, offset);
          } else {
            positionCursor.moveTo(positionCursorIndex$);
          }
          if (labelCursorIndex$ == position && labelCursorPaged$) {
            Query.moveToElement(labelCursor, page, offset);
          } else {
            labelCursor.moveTo(labelCursorIndex$);
          }
          Query.visit(lead, position);
          visitor.visit(entity, positionCursor, labelCursor);
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
    final Position_Cursor positionCursor = this.positionCursor;
    final Label_Cursor labelCursor = this.labelCursor;
    final SparseSet lead = view.leader();
    final boolean stable = DeletionPolicy.IN_PLACE == lead.policy();
    // Runs of one page. When every storage with a cursor holds the run's entities at the lead's
    // positions (storages filled in the same order) and has the same page size, the cursors walk
    // the run with no lookup, one page each: the JIT then reads the page arrays once per run.
    // Otherwise, and once a visitor has moved, removed or added an element of one of them, each
    // storage is tested per entity.
    final int pageShift = positionStorage.pageShift();
    final boolean positionCursorPaged$ = positionStorage.pageShift() == pageShift;
    final boolean labelCursorPaged$ = labelStorage.pageShift() == pageShift;
    final boolean paged$ = positionCursorPaged$ && labelCursorPaged$;
    Query.beginIteration(lead);
    try {
      for (int from = lead.size() - 1; from >= 0; ) {
        final int page = from >>> pageShift;
        final int pageStart = page << pageShift;
        int offset = from - pageStart;
        if (paged$
            && Query.samePositions(lead, positionStorage, pageStart, from + 1)
            && Query.samePositions(lead, labelStorage, pageStart, from + 1)) {
          final long leadStamp$ = Query.structureStamp(lead);
          final long positionCursorStamp$ = Query.structureStamp(positionStorage);
          final long labelCursorStamp$ = Query.structureStamp(labelStorage);
          Query.moveToPage(positionCursor, page);
          Query.moveToPage(labelCursor, page);
          for (; offset >= 0; offset--) {
            final int position = pageStart + offset;
            // Read the array again: the visitor may have grown it (appended elements are not visited).
            final long entity = lead.packed()[position];
            if (stable && Entity.isTombstone(entity)) {
              continue;
            }
            if (frozenStorage.contains(entity)) {
              continue;
            }
            Query.moveWithinPage(positionCursor, offset);
            Query.moveWithinPage(labelCursor, offset);
            Query.visit(lead, position);
            visitor.visit(entity, positionCursor, labelCursor);
            if (Query.structureStamp(lead) != leadStamp$
                || Query.structureStamp(positionStorage) != positionCursorStamp$
                || Query.structureStamp(labelStorage) != labelCursorStamp$) {
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
          final int positionCursorIndex$ = lead == positionStorage || Query.holdsAt(positionStorage, position, entity) ? position : positionStorage.indexOf(entity);
          if (positionCursorIndex$ < 0) {
            continue;
          }
          final int labelCursorIndex$ = lead == labelStorage || Query.holdsAt(labelStorage, position, entity) ? position : labelStorage.indexOf(entity);
          if (labelCursorIndex$ < 0) {
            continue;
          }
          if (frozenStorage.contains(entity)) {
            continue;
          }
          if (positionCursorIndex$ == position && positionCursorPaged$) {
            Query.moveToElement(positionCursor, page, offset);
          } else {
            positionCursor.moveTo(positionCursorIndex$);
          }
          if (labelCursorIndex$ == position && labelCursorPaged$) {
            Query.moveToElement(labelCursor, page, offset);
          } else {
            labelCursor.moveTo(labelCursorIndex$);
          }
          Query.visit(lead, position);
          visitor.visit(entity, positionCursor, labelCursor);
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
    final Position_Cursor positionCursor = this.positionCursor;
    final Label_Cursor labelCursor = this.labelCursor;
    final SparseSet lead = view.leader();
    final boolean stable = DeletionPolicy.IN_PLACE == lead.policy();
    // Runs of one page. When every storage with a cursor holds the run's entities at the lead's
    // positions (storages filled in the same order) and has the same page size, the cursors walk
    // the run with no lookup, one page each: the JIT then reads the page arrays once per run.
    // Otherwise, and once a visitor has moved, removed or added an element of one of them, each
    // storage is tested per entity.
    final int pageShift = positionStorage.pageShift();
    final boolean positionCursorPaged$ = positionStorage.pageShift() == pageShift;
    final boolean labelCursorPaged$ = labelStorage.pageShift() == pageShift;
    final boolean paged$ = positionCursorPaged$ && labelCursorPaged$;
    Query.beginIteration(lead);
    try {
      for (int from = lead.size() - 1; from >= 0; ) {
        final int page = from >>> pageShift;
        final int pageStart = page << pageShift;
        int offset = from - pageStart;
        if (paged$
            && Query.samePositions(lead, positionStorage, pageStart, from + 1)
            && Query.samePositions(lead, labelStorage, pageStart, from + 1)) {
          final long leadStamp$ = Query.structureStamp(lead);
          final long positionCursorStamp$ = Query.structureStamp(positionStorage);
          final long labelCursorStamp$ = Query.structureStamp(labelStorage);
          Query.moveToPage(positionCursor, page);
          Query.moveToPage(labelCursor, page);
          for (; offset >= 0; offset--) {
            final int position = pageStart + offset;
            // Read the array again: the visitor may have grown it (appended elements are not visited).
            final long entity = lead.packed()[position];
            if (stable && Entity.isTombstone(entity)) {
              continue;
            }
            if (frozenStorage.contains(entity)) {
              continue;
            }
            Query.moveWithinPage(positionCursor, offset);
            Query.moveWithinPage(labelCursor, offset);
            Query.visit(lead, position);
            visitor.visit(entity, positionCursor, labelCursor);
            if (Query.structureStamp(lead) != leadStamp$
                || Query.structureStamp(positionStorage) != positionCursorStamp$
                || Query.structureStamp(labelStorage) != labelCursorStamp$) {
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
          final int positionCursorIndex$ = lead == positionStorage || Query.holdsAt(positionStorage, position, entity) ? position : positionStorage.indexOf(entity);
          if (positionCursorIndex$ < 0) {
            continue;
          }
          final int labelCursorIndex$ = lead == labelStorage || Query.holdsAt(labelStorage, position, entity) ? position : labelStorage.indexOf(entity);
          if (labelCursorIndex$ < 0) {
            continue;
          }
          if (frozenStorage.contains(entity)) {
            continue;
          }
          if (positionCursorIndex$ == position && positionCursorPaged$) {
            Query.moveToElement(positionCursor, page, offset);
          } else {
            positionCursor.moveTo(positionCursorIndex$);
          }
          if (labelCursorIndex$ == position && labelCursorPaged$) {
            Query.moveToElement(labelCursor, page, offset);
          } else {
            labelCursor.moveTo(labelCursorIndex$);
          }
          Query.visit(lead, position);
          visitor.visit(entity, positionCursor, labelCursor);
        }
        from = pageStart - 1;
      }
    } finally {
      Query.endIteration(lead);
    }
  }

  /**
   * The body of {@link VisibleQuery#each}: one call per entity, with a typed cursor per included component
   * that has fields (tags add no parameter).
   */
  @FunctionalInterface
  public interface Visitor {
    /**
     * Visits one entity; the cursors are positioned on its components and are reused for the next
     * entity, so do not keep them.
     *
     * @param entity the entity
     * @param position a cursor over its {@link Position}
     * @param label a cursor over its {@link Label}
     */
    void visit(long entity, Position_Cursor position, Label_Cursor label);
  }
}
