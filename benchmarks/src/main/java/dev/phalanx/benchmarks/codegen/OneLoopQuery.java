package dev.phalanx.benchmarks.codegen;

import dev.phalanx.benchmarks.components.Position_Cursor;
import dev.phalanx.benchmarks.components.Position_Storage;
import dev.phalanx.benchmarks.components.Velocity_Cursor;
import dev.phalanx.benchmarks.queries.FullOwning2Query;
import dev.phalanx.ecs.OwningGroup;
import dev.phalanx.ecs.Query;

/**
 * The {@code each} of the generated {@link FullOwning2Query} as it would be generated with one loop
 * instead of eight copies and a shared one: the statements are those of the generated {@code
 * each0}, guard included, in one method that every visitor class runs. Built on a generated query,
 * whose group and storages it shares; it has cursors of its own.
 *
 * <p>Only {@link LoopCopiesDecision} uses it: it is the variant the loop copies are measured
 * against.
 */
final class OneLoopQuery extends Query {

  private final OwningGroup group;
  private final Position_Storage positionStorage;
  private final Position_Cursor positionCursor;
  private final Velocity_Cursor velocityCursor;
  private final int pageShift;
  private boolean iterating;

  OneLoopQuery(final FullOwning2Query query) {
    this.group = query.group();
    this.positionStorage = query.positionStorage();
    this.positionCursor = query.positionStorage().cursor();
    this.velocityCursor = query.velocityStorage().cursor();
    this.pageShift = positionStorage.pageShift();
  }

  /**
   * As {@link FullOwning2Query#each}, with one loop for every visitor class.
   *
   * @param visitor the loop body
   */
  void each(final FullOwning2Query.Visitor visitor) {
    if (this.iterating) {
      throw new IllegalStateException("OneLoopQuery is already iterating");
    }
    this.iterating = true;
    try {
      eachOnce(visitor);
    } finally {
      this.iterating = false;
    }
  }

  // The generated each0, verbatim but for its name.
  private void eachOnce(final FullOwning2Query.Visitor visitor) {
    final Position_Cursor positionCursor = this.positionCursor;
    final Velocity_Cursor velocityCursor = this.velocityCursor;
    final OwningGroup group = this.group;
    final Position_Storage lead = this.positionStorage;
    Query.beginIteration(lead);
    try {
      for (int from = group.size() - 1; from >= 0; ) {
        final int page = from >>> pageShift;
        final int pageStart = page << pageShift;
        Query.moveToPage(positionCursor, page);
        Query.moveToPage(velocityCursor, page);
        int next = pageStart - 1;
        for (int offset = from - pageStart; offset >= 0; offset--) {
          final int position = pageStart + offset;
          final long entity = lead.packed()[position];
          Query.moveWithinPage(positionCursor, offset);
          Query.moveWithinPage(velocityCursor, offset);
          Query.visit(lead, position);
          visitor.visit(entity, positionCursor, velocityCursor);
          if (group.size() < position) {
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
}
