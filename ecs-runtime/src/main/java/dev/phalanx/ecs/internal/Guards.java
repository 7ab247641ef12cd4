package dev.phalanx.ecs.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The number of iteration guards and locks active over every set of one registry. While it is zero,
 * no change can be refused by a guard or a lock, so the mutation path skips those checks (the
 * entity and presence checks always run).
 *
 * <p>Threading: the per-set state a guard protects is confined to one thread at a time, but the
 * count is shared by every set of the registry, so systems that a schedule runs at once over
 * different sets raise and lower it from several threads: {@link #enter} and {@link #leave} change
 * it atomically (one atomic add per iteration, not per element). A thread reads it plainly: what it
 * needs to see is its own raises, and the raises of iterations over the sets it changes, which a
 * schedule never runs on another thread at the same time.
 */
public final class Guards {
  private static final VarHandle ACTIVE;
  private static final VarHandle PARALLEL_PASSES;

  static {
    try {
      final MethodHandles.Lookup lookup = MethodHandles.lookup();
      ACTIVE = lookup.findVarHandle(Guards.class, "active", int.class);
      PARALLEL_PASSES = lookup.findVarHandle(Guards.class, "parallelPasses", int.class);
    } catch (final ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  // Changed only through enter() and leave().
  public int active;

  // The number of parallel iterations over the registry's groups that have ended: a command
  // buffer's owner thread holds it until the next one ends (see CommandBuffer's threading). Written
  // by the thread that started the iteration, after every task has joined.
  public int parallelPasses;

  // The change tick that tracked storages stamp on writes (see Registry.changeTick()). Kept here,
  // next to the guards every storage already holds, so a write reads it with one load. 64-bit: at
  // a million advances a second it would take 292,000 years to wrap, so ticks compare plainly.
  public long changeTick = 1;

  // While set, a storage the registry creates starts locked, by lockNewBy and lockNewOf (see
  // SparseSet.lock): a schedule sets them while a wave runs, so that a storage created by a system
  // refuses undeclared structural changes as the older ones do. Written by the thread that runs
  // the schedule, before it hands the wave's systems to other threads.
  public String lockNewBy;
  public Object lockNewOf;

  // While set, a parallel chunk pass counts its tasks per thread into what it returns for the
  // thread that starts the pass (a schedule's per-system counts). Written by the thread that runs
  // the schedule, before it hands the wave's systems to other threads.
  public ChunkCounts.Source chunkCounts;

  /** Creates the guards of a new registry: nothing active, no pass ended, tick 1. */
  public Guards() {}

  /** Counts one more guard or lock, atomically. */
  public void enter() {
    ACTIVE.getAndAdd(this, 1);
  }

  /** Counts one guard or lock fewer, atomically. */
  public void leave() {
    ACTIVE.getAndAdd(this, -1);
  }

  /** Records, atomically, that a parallel iteration over the registry's groups has ended. */
  public void endParallelPass() {
    PARALLEL_PASSES.getAndAdd(this, 1);
  }

  /** {@return whether some set of the registry is iterated or locked} */
  public boolean any() {
    return 0 != active;
  }
}
