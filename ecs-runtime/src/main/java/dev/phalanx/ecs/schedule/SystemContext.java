package dev.phalanx.ecs.schedule;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Storage;
import dev.phalanx.ecs.command.CommandBuffer;
import dev.phalanx.ecs.command.CommandBuffers;
import java.util.Arrays;
import java.util.Objects;

/**
 * A system's view of the frame, handed to its {@link SystemBody}: its own command buffer, the
 * storages and resources it declared, the frame number and, in a fixed-timestep stage, the step.
 * One per system, reused every frame; use it only during the system's run, from the thread that
 * runs it.
 *
 * <p>The accessors check the declaration: asking for a storage or a resource the system did not
 * declare throws {@link IllegalStateException} naming the system and what it reached for. The check
 * is a short scan of the declaration, so fetch what you need once per run, not per entity.
 */
public final class SystemContext {

  private static final CommandBuffers[] NO_SETS = new CommandBuffers[0];

  private final Registry registry;
  private final String system;
  private final String stage;
  final Access access;
  private CommandBuffer commands;
  private Schedule schedule;
  private Schedule.SystemSlot slot;
  // The per-run buffer sets to apply at the sync point this frame, in the order registered.
  private CommandBuffers[] sets = NO_SETS;
  private int setCount;
  long frame;
  long stepNanos;
  int step;

  SystemContext(
      final Registry registry, final String system, final String stage, final Access access) {
    this.registry = registry;
    this.system = system;
    this.stage = stage;
    this.access = access;
  }

  /** {@return the name of the system this context belongs to} */
  public String system() {
    return system;
  }

  /** {@return the name of the stage the system runs in} */
  public String stage() {
    return stage;
  }

  /** {@return the number of the frame being run: 0 for the schedule's first} */
  public long frame() {
    return frame;
  }

  /**
   * {@return in a fixed-timestep stage, the step in nanoseconds; else the time the frame was given
   * (see {@link Schedule#run(long)}), 0 for {@link Schedule#run()}}
   */
  public long stepNanos() {
    return stepNanos;
  }

  /** {@return in a fixed-timestep stage, which step of the frame this is (from 0); else 0} */
  public int step() {
    return step;
  }

  /**
   * {@return the registry}: for what the declaration covers. The schedule cannot see what a system
   * does through it; what it can see (structural changes of storages other systems of the same wave
   * use) it refuses.
   */
  public Registry registry() {
    return registry;
  }

  /**
   * {@return the system's own command buffer}: created on first use, applied at the stage's sync
   * point in the schedule's order (not the order systems finished in), so the world after a frame
   * does not depend on the number of threads.
   */
  public CommandBuffer commands() {
    CommandBuffer buffer = commands;
    if (null == buffer) {
      buffer = new CommandBuffer(registry);
      commands = buffer;
    }
    return buffer;
  }

  /**
   * Has the schedule apply {@code buffers} (the per-run buffers of a parallel pass) at the stage's
   * sync point, right after this system's own {@linkplain #commands() buffer}, sets in the order
   * registered; registering one set twice in a frame applies it once. A registration lasts one
   * frame (or fixed step): register again after each pass. This is how a system applies what a
   * parallel pass recorded: {@link CommandBuffers#apply()} inside a system is refused (a wave's
   * storages are locked while it runs; only an exclusive system, whose wave locks nothing, may
   * apply directly). If the frame stops before the sync point, the set is cleared, as the system's
   * own buffer is. The first registrations of a system allocate; later ones do not.
   *
   * @param buffers the set to apply
   */
  public void applyAtSyncPoint(final CommandBuffers buffers) {
    Objects.requireNonNull(buffers, "buffers");
    for (int i = 0; i < setCount; i++) {
      if (sets[i] == buffers) {
        return;
      }
    }
    if (setCount == sets.length) {
      sets = Arrays.copyOf(sets, Math.max(2, setCount * 2));
    }
    sets[setCount++] = buffers;
  }

  /** {@return how many sets {@link #applyAtSyncPoint} registered this frame} */
  int setCount() {
    return setCount;
  }

  /** {@return the {@code i}-th set registered this frame} */
  CommandBuffers set(final int i) {
    return sets[i];
  }

  /** Forgets the sets registered this frame. */
  void forgetSets() {
    for (int i = 0; i < setCount; i++) {
      sets[i] = null;
    }
    setCount = 0;
  }

  /**
   * {@return the storage of {@code type}}
   *
   * @param <T> the component type
   * @param <S> the storage type
   * @param type a component type the system declared
   * @throws IllegalStateException if the system did not declare {@code type}
   */
  public <T, S extends Storage<T>> S storage(final ComponentType<T, S> type) {
    if (!access.touches(type)) {
      throw new IllegalStateException(
          "system '"
              + system
              + "' asked for the storage of "
              + type.name()
              + ", which its access does not declare ("
              + access
              + "): declare it (reads, writes, iterates, changesStructure, or a query that uses"
              + " it)");
    }
    return registry.storage(type);
  }

  /**
   * {@return resource {@code key} of the registry's context}
   *
   * @param <T> the resource type
   * @param key a resource the system declared (read or write)
   * @throws IllegalStateException if the system did not declare {@code key}, or the context holds
   *     no such resource
   */
  public <T> T resource(final Class<T> key) {
    if (!access.readsResource(key)) {
      throw new IllegalStateException(
          "system '"
              + system
              + "' asked for resource "
              + key.getName()
              + ", which its access does not declare ("
              + access
              + "): declare readsResource or writesResource");
    }
    final T value = registry.context().find(key);
    if (null == value) {
      throw new IllegalStateException(
          "system '"
              + system
              + "' asked for resource "
              + key.getName()
              + ", which it declares but the registry's context does not hold: emplace it before"
              + " the frame");
    }
    return value;
  }

  /**
   * {@return whether resource {@code key} of the registry's context changed since this system last
   * ran} (in a body: since the run before this one) "Changed" means: a system that declares writing
   * it (or an exclusive system) other than this one has run since, or it was inserted, replaced or
   * removed outside such a system (by a command, or between frames), which the schedule sees at the
   * start of each stage. Before the system's first run, a resource the context holds has changed.
   * In-place changes by code that does not declare the write are not seen. No declaration needed;
   * the first question about a key allocates, later ones do not.
   *
   * @param key the resource's class
   */
  public boolean resourceChanged(final Class<?> key) {
    return schedule.changedSince(slot, Objects.requireNonNull(key, "key"));
  }

  /**
   * {@return whether the components of {@code type} changed since this system last ran} (in a body:
   * since the run before this one) "Changed" means: a system that declares writing or changing the
   * structure of {@code type} (or an exclusive system) other than this one has run since, or
   * entities gained or lost the component outside such a system (through a command buffer, or
   * between frames), which the schedule sees at the start of each stage. Before the system's first
   * run, a non-empty storage has changed. Values written outside the schedule's systems (a
   * command's {@code replace}, say) are not seen: use change tracking for those. No declaration
   * needed; the first question about a type allocates, later ones do not.
   *
   * @param type a component type
   */
  public boolean componentsChanged(final ComponentType<?, ?> type) {
    return schedule.changedSince(slot, Objects.requireNonNull(type, "type"));
  }

  /**
   * {@return whether some entity has a component of {@code type}} Without a declaration: for run
   * conditions, which run while no system does.
   *
   * @param type a component type
   */
  public boolean anyWith(final ComponentType<?, ?> type) {
    final Storage<?> storage = registry.findStorage(type);
    if (null == storage || storage.isEmpty()) {
      return false;
    }
    if (!storage.hasTombstones()) {
      return true;
    }
    final long[] packed = storage.packed();
    for (int p = 0; p < storage.size(); p++) {
      if (!Entity.isTombstone(packed[p])) {
        return true;
      }
    }
    return false;
  }

  void attach(final Schedule owner, final Schedule.SystemSlot own) {
    this.schedule = owner;
    this.slot = own;
  }

  CommandBuffer bufferOrNull() {
    return commands;
  }

  @Override
  public String toString() {
    return "SystemContext[" + system + " in " + stage + "]";
  }
}
