package dev.phalanx.ecs.relation;

import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.internal.IntrusiveLists;

/**
 * The reverse side of one relationship kind: for each target, the intrusive doubly linked list of
 * its sources, in the order they were linked; for each source, the target it is linked to. The
 * lists are the shared kernel's ({@link IntrusiveLists}), kept at entity indices (not storage
 * positions), so sorting or compacting the kind's storage moves nothing here, and a lookup is two
 * array reads.
 *
 * <p>Invariants kept by {@link #link} and {@link #cut} (callers check the entities first): those of
 * the kernel, and an index that is neither linked nor a target holds {@link Entity#NULL} and 0
 * everywhere. These methods allocate nothing once the pages they touch exist, and publish nothing.
 */
final class SourceLists extends IntrusiveLists {

  private static final int PAGE_SHIFT = 12;

  // Every source linked now.
  private int linked;

  SourceLists() {
    super(PAGE_SHIFT, true);
  }

  @Override
  protected int slot(final long entity) {
    return Entity.index(entity);
  }

  /** {@return the number of sources linked now, over every target} */
  int linked() {
    return linked;
  }

  /** {@return the target {@code source} is linked to, or {@link Entity#NULL}} */
  long targetOf(final long source) {
    return ownerAt(Entity.index(source));
  }

  /** {@return the first source of {@code target}, or {@link Entity#NULL}} */
  long firstOf(final long target) {
    return firstAt(Entity.index(target));
  }

  /** {@return the source linked after {@code source} to the same target, or {@link Entity#NULL}} */
  long nextOf(final long source) {
    return nextAt(Entity.index(source));
  }

  /**
   * {@return the source linked before {@code source} to the same target, or {@link Entity#NULL}}
   */
  long previousOf(final long source) {
    return previousAt(Entity.index(source));
  }

  /** {@return the last source of {@code target}, or {@link Entity#NULL}} */
  long lastOf(final long target) {
    return lastAt(Entity.index(target));
  }

  /** {@return how many sources {@code target} has} */
  int countOf(final long target) {
    return countAt(Entity.index(target));
  }

  /** Appends the unlinked {@code source} to {@code target}'s list. O(1). */
  void link(final long source, final long target) {
    ensureSlot(Entity.index(source));
    ensureSlot(Entity.index(target));
    insertAfter(source, target, lastOf(target));
    linked++;
  }

  /** Removes the linked {@code source} from its target's list. O(1). */
  @Override
  public void cut(final long source) {
    super.cut(source);
    linked--;
  }

  /** Forgets every link (the pages are kept). O(pages). */
  @Override
  public void clear() {
    super.clear();
    linked = 0;
  }
}
