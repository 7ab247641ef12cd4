package dev.phalanx.ecs;

import java.util.ConcurrentModificationException;
import java.util.NoSuchElementException;
import java.util.PrimitiveIterator;

/**
 * An iterator over the entities of a view, last position of the leading set first, without boxing
 * ({@link #nextLong()}).
 *
 * <h2>What may change while it is used</h2>
 *
 * <p>The rules of the callback form ({@link View#each}) apply, but an iterator cannot refuse a
 * change before it is made (an abandoned iterator must not block the storage): it checks, at every
 * {@link #hasNext()} and {@link #nextLong()}, from before the first step, that no change since its
 * last step moved an element between the part already returned and the part still to come, and
 * throws {@link ConcurrentModificationException} otherwise (the change itself is complete). After
 * {@code hasNext()} returned {@code true}, {@code nextLong()} returns an entity or, if the view
 * lost every remaining entity meanwhile, throws {@link ConcurrentModificationException}, never
 * {@link NoSuchElementException}.
 */
public final class EntityIterator implements PrimitiveIterator.OfLong {

  private static final int ABSENT_POSITION = -1;

  private final SparseSet lead;
  private final SparseSet[] include;
  private final SparseSet[] exclude;
  private final boolean stable;
  // Positions at or above the floor were returned (or appended after the iterator was made).
  private int floor;
  private int checkedModifications;
  // Whether hasNext() answered true since the last nextLong().
  private boolean promised;

  EntityIterator(final SparseSet lead, final SparseSet[] include, final SparseSet[] exclude) {
    this.lead = lead;
    this.include = include;
    this.exclude = exclude;
    this.stable = DeletionPolicy.IN_PLACE == lead.policy();
    this.floor = lead.size();
    this.checkedModifications = lead.modifications();
  }

  @Override
  public boolean hasNext() {
    check();
    promised = ABSENT_POSITION != nextPosition();
    return promised;
  }

  @Override
  public long nextLong() {
    check();
    final int position = nextPosition();
    if (ABSENT_POSITION == position) {
      if (promised) {
        throw new ConcurrentModificationException(
            lead.describe()
                + " changed between hasNext() and nextLong(): the entities still to come"
                + " left the view");
      }
      throw new NoSuchElementException("no more entities in the view");
    }
    promised = false;
    floor = position;
    return lead.packed()[position];
  }

  /** Returns the next matching position below the floor, or -1. */
  private int nextPosition() {
    final long[] packed = lead.packed();
    for (int at = Math.min(floor, lead.size()) - 1; at >= 0; at--) {
      final long entity = packed[at];
      if (!(stable && Entity.isTombstone(entity))
          && ViewLoop.matchesOthers(entity, lead, include, exclude)) {
        return at;
      }
    }
    return ABSENT_POSITION;
  }

  private void check() {
    lead.checkLog(checkedModifications, floor, "an iterator");
    checkedModifications = lead.modifications();
  }
}
