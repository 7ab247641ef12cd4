package dev.phalanx.ecs.internal;

/**
 * The number of iteration guards and locks active over every set of one registry. While it is zero,
 * no change can be refused by a guard or a lock, so the mutation path skips those checks (the
 * entity and presence checks always run). Not thread-safe: parallel iterations take their locks on
 * the calling thread before their tasks start.
 */
public final class Guards {
  public int active;

  // The number of parallel iterations over the registry's groups that have ended: a command
  // buffer's owner thread holds it until the next one ends (see CommandBuffer's threading). Written
  // by the thread that started the iteration, after every task has joined.
  public int parallelPasses;

  // The change tick that tracked storages stamp on writes (see Registry.changeTick()). Kept here,
  // next to the guards every storage already holds, so a write reads it with one load. 64-bit: at
  // a million advances a second it would take 292,000 years to wrap, so ticks compare plainly.
  public long changeTick = 1;

  /** Creates the guards of a new registry: nothing active, no pass ended, tick 1. */
  public Guards() {}

  /** {@return whether some set of the registry is iterated or locked} */
  public boolean any() {
    return 0 != active;
  }
}
