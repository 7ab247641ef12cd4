package dev.phalanx.examples.particles;

import dev.phalanx.ecs.OwningGroup;
import dev.phalanx.ecs.RangeConsumer;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.command.CommandBuffer;
import dev.phalanx.ecs.command.CommandBuffers;
import dev.phalanx.ecs.command.CommandRangeConsumer;
import dev.phalanx.ecs.event.EventType;
import dev.phalanx.ecs.event.Observers;
import dev.phalanx.ecs.event.Trigger;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Ages every root entity by one frame and destroys those whose time is up, comets with their whole
 * tail. Returns how many roots died, so that the spawner can replace them.
 *
 * <p>The lifetimes are a full-owning group of their own, walked in chunks of {@code int[]} pages
 * (in parallel when the world has a pool). A chunk pass may not change the world, so each run
 * records its dead into its own {@link CommandBuffer}; the buffers are applied after the pass, in
 * the order of the runs, so the world is the same whatever the number of threads. A comet is
 * destroyed like any root: its tail particles name it in their {@link Attachment} relationship,
 * whose kind destroys its sources with their target.
 *
 * <p>The tail particles that go with their comet are counted by an observer of {@link
 * EventType#REMOVED} on {@code Attachment}: the storage runs it for each tail particle as it is
 * destroyed, whichever path destroys it, so the aging loop does not look at the tails.
 */
public final class LifetimeSystem {

  private final OwningGroup group;
  private final Lifetime_Storage lifetimes;
  private final ForkJoinPool pool;
  private final CommandBuffers commands;
  private final RangeConsumer age = (from, to) -> age(null, from, to);
  // The parallel form hands each run its own buffer (the one of its first position).
  private final CommandRangeConsumer ageInParallel =
      (buffer, entities, from, to) -> age(buffer, from, to);
  private final AtomicLong dying = new AtomicLong();
  private long destroyedRoots;
  private long destroyedChildren;

  /**
   * Creates the system; declares the lifetimes' group, so create it before any entity exists.
   *
   * @param pool the pool of the parallel pass, or {@code null} to run on the calling thread
   */
  public LifetimeSystem(final Registry registry, final Storages storages, final ForkJoinPool pool) {
    this.group = registry.owningGroup(Lifetime_Traits.TYPE);
    this.lifetimes = storages.lifetimes;
    this.pool = pool;
    this.commands = new CommandBuffers(registry);
    Observers.of(registry).observe(EventType.REMOVED, Attachment_Traits.TYPE, this::tailGone);
  }

  private void tailGone(final Trigger<Void> trigger) {
    destroyedChildren++;
  }

  /** Runs one frame, {@link #age} then {@link #reap}; returns the number of roots destroyed. */
  public int run() {
    age();
    return reap();
  }

  /**
   * Ages every root by one frame and records the dead, changing nothing but the lifetimes: it may
   * run beside systems that touch neither lifetimes nor the world's structure.
   */
  public void age() {
    if (null == pool) {
      group.eachChunk(age);
    } else {
      commands.parallelEachChunk(group, pool, ageInParallel);
    }
  }

  /** Destroys the roots {@link #age} found dead; returns how many. */
  public int reap() {
    commands.apply();
    final int died = (int) dying.getAndSet(0);
    destroyedRoots += died;
    return died;
  }

  /** Returns the number of root entities destroyed so far. */
  public long destroyedRoots() {
    return destroyedRoots;
  }

  /** Returns the number of comet tail particles destroyed with their comet so far. */
  public long destroyedChildren() {
    return destroyedChildren;
  }

  /**
   * Ages the run {@code [from, to)} (within one page) and records its dead into {@code run}, or, if
   * it is {@code null}, into the buffer of the run's first position.
   */
  private void age(final CommandBuffer run, final int from, final int to) {
    final int[] ticks = lifetimes.ticksPages()[from >>> lifetimes.pageShift()];
    final int mask = lifetimes.pageSize() - 1;
    final long[] entities = lifetimes.packed();
    CommandBuffer buffer = run;
    int died = 0;
    for (int position = from; position < to; position++) {
      final int left = --ticks[position & mask];
      if (left <= 0) {
        if (null == buffer) {
          buffer = commands.forRun(from);
        }
        buffer.destroy(entities[position]);
        died++;
      }
    }
    if (0 != died) {
      dying.addAndGet(died);
    }
  }
}
