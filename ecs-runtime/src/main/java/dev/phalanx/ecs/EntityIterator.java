package dev.phalanx.ecs;

import java.util.NoSuchElementException;
import java.util.PrimitiveIterator;

/**
 * An iterator over the entities of a view, last position of the leading set first, without boxing
 * ({@link #nextLong()}). The same rules as the callback form apply and are checked at each step: only
 * the entity returned last may lose a component of the leading set.
 */
public final class EntityIterator implements PrimitiveIterator.OfLong {

  private final SparseSet lead;
  private final SparseSet[] include;
  private final SparseSet[] exclude;
  private final boolean stable;
  private int position;
  private long current = Entity.NULL;
  private int expectedModifications;

  EntityIterator(final SparseSet lead, final SparseSet[] include, final SparseSet[] exclude) {
    this.lead = lead;
    this.include = include;
    this.exclude = exclude;
    this.stable = DeletionPolicy.IN_PLACE == lead.policy();
    this.position = lead.size();
    this.expectedModifications = lead.modifications();
  }

  @Override
  public boolean hasNext() {
    check();
    int at = position - 1;
    while (at >= 0) {
      final long entity = lead.packed()[at];
      if (!(stable && Entity.isTombstone(entity)) && ViewLoop.matchesOthers(entity, lead, include, exclude)) {
        return true;
      }
      at--;
    }
    return false;
  }

  @Override
  public long nextLong() {
    check();
    int at = position - 1;
    while (at >= 0) {
      final long entity = lead.packed()[at];
      if (!(stable && Entity.isTombstone(entity)) && ViewLoop.matchesOthers(entity, lead, include, exclude)) {
        position = at;
        current = entity;
        expectedModifications = lead.beginVisit();
        return entity;
      }
      at--;
    }
    position = 0;
    throw new NoSuchElementException("no more entities in the view");
  }

  private void check() {
    // As ViewLoop: in-place removals are not modifications, but sorting, compacting or clearing are.
    if (!Entity.isNull(current)) {
      lead.checkIteration(expectedModifications, current, position);
    }
    expectedModifications = lead.modifications();
    current = Entity.NULL;
  }
}
