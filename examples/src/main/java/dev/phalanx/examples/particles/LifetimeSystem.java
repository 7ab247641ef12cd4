package dev.phalanx.examples.particles;

import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Entity;

/**
 * Ages every root entity by one frame and destroys those whose time is up, comets with their whole
 * tail. Returns how many roots died, so that the spawner can replace them.
 *
 * <p>Two passes, because destroying an entity moves the last element of each swap-and-pop storage
 * into its hole: first walk the {@code Lifetime} pages and collect the dying (no structural change
 * while walking), then destroy them.
 */
public final class LifetimeSystem {

  private final Registry registry;
  private final Storages storages;
  private final LongBuffer dying = new LongBuffer();
  private long destroyedRoots;
  private long destroyedChildren;

  /** Creates the system. */
  public LifetimeSystem(final Registry registry, final Storages storages) {
    this.registry = registry;
    this.storages = storages;
  }

  /** Runs one frame; returns the number of root entities destroyed. */
  public int run() {
    collectDying();
    for (int i = 0; i < dying.size(); i++) {
      destroyFamily(dying.get(i));
    }
    destroyedRoots += dying.size();
    return dying.size();
  }

  /** Returns the number of root entities destroyed so far. */
  public long destroyedRoots() {
    return destroyedRoots;
  }

  /** Returns the number of comet children destroyed with their parent so far. */
  public long destroyedChildren() {
    return destroyedChildren;
  }

  private void collectDying() {
    dying.clear();
    final Lifetime_Storage lifetimes = storages.lifetimes;
    final int[][] pages = lifetimes.ticksPages();
    final long[] entities = lifetimes.packed();
    final int size = lifetimes.size();
    final int shift = lifetimes.pageShift();
    final int mask = lifetimes.pageSize() - 1;
    for (int position = 0; position < size; position++) {
      final int[] ticks = pages[position >>> shift];
      final int left = ticks[position & mask] - 1;
      ticks[position & mask] = left;
      if (left <= 0) {
        dying.add(entities[position]);
      }
    }
  }

  /**
   * Destroys {@code root}; for a comet, its children first. The children are found by walking the
   * list stored in the components, handle by handle: the hierarchy needs no other bookkeeping.
   */
  private void destroyFamily(final long root) {
    if (storages.comets.contains(root)) {
      long child = storages.comets.firstChild(root);
      while (!Entity.isNull(child)) {
        // Read the link before the child goes: its slot becomes a tombstone.
        final long next = storages.attachments.nextSibling(child);
        registry.destroy(child);
        destroyedChildren++;
        child = next;
      }
    }
    registry.destroy(root);
  }
}
