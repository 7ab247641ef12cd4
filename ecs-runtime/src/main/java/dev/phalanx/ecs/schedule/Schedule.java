package dev.phalanx.ecs.schedule;

import dev.phalanx.ecs.ChunkCounts;
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.SparseSet;
import dev.phalanx.ecs.Storage;
import dev.phalanx.ecs.command.CommandBuffer;
import dev.phalanx.ecs.command.CommandBuffers;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The systems of a registry and the order they run in each frame: stages one after another, each a
 * sequence of <em>waves</em> of systems that do not conflict, each stage closed by a sync point
 * where the systems' command buffers are applied in a fixed order. Built by {@link #builder}, which
 * checks the order constraints and the systems' access before the first frame.
 *
 * <h2>A frame</h2>
 *
 * <p>{@link #run()} runs every stage in declaration order (a fixed-timestep stage once per step).
 * Within a stage, systems are placed in a topological order of their constraints (ties broken by
 * declaration order), and two systems that conflict run one after the other in that order. A wave
 * is a set of systems with no conflict and no constraint between them; with an {@linkplain
 * ScheduleBuilder#executor executor} its systems run at once, one on the calling thread and the
 * others on the pool; without, one after the other. The waves and the sync order do not depend on
 * the number of threads, and systems of one wave touch disjoint data, so the world after a frame is
 * the same with 1, 2 or 16 threads.
 *
 * <p>While a wave that is not exclusive runs, the schedule locks every storage of the registry, and
 * the registry locks each storage it creates meanwhile; each system is permitted, on the thread
 * that runs it, the structural changes of the storages it declares (widened for owning groups). Any
 * other emplace or remove throws {@link java.util.ConcurrentModificationException} naming the
 * system, with any number of threads, before anything changes; so does a system's own change while
 * a lock of its own (a parallel pass) is held. A storage that no system of the wave may change is
 * frozen, and the wave's systems iterate it at once as shared reads (see {@link SparseSet}); a loop
 * that starts over a storage another system of the wave may change is refused the same way. Reads
 * and writes of values the schedule cannot see; the declaration is the contract (generated queries
 * declare theirs, so a system that uses only queries and its command buffer states it once by
 * naming them).
 *
 * <h2>Failures</h2>
 *
 * <p>A system (or a run condition) that throws does not stop the other systems of its wave. When
 * the wave has ended, the frame stops: the stage's sync point discards the commands every system of
 * the stage recorded, later waves and stages do not run, and {@link #run()} throws {@link
 * SystemFailedException} naming the first failed system in the stage's order (the others are
 * suppressed). What systems wrote directly stays written: each change went through the core's
 * checked path, so every invariant holds ({@code registry.verify()} is empty). A command that fails
 * at the sync point does not stop the others (see {@link CommandBuffer#apply()}); the remaining
 * buffers are applied, then the frame stops the same way. The next {@link #run()} runs a whole
 * frame.
 *
 * <h2>Costs</h2>
 *
 * <p>Per system per frame: a run-condition call if any, one {@code System.nanoTime()} call and a
 * timing store (none with {@linkplain ScheduleBuilder#timeSystems per-system timing off}), and two
 * stores per storage it declares structural changes of; per stage, a look at each resource and
 * storage whose changes a condition or system has asked about (see {@link
 * SystemContext#resourceChanged}); per wave, a lock and an unlock of each storage; per task of a
 * parallel chunk pass a system starts, a count (timed schedules only); in a wave that runs on
 * several threads, one hand-off to the pool per extra system and one park of the calling thread. A
 * system's time runs from the end of the system before it on the same thread (or its stage's
 * start), so it includes the bookkeeping between the two. Measured ({@code ScheduleOverhead}): see
 * the guide. Nothing is allocated in steady state (a test proves it). Not thread-safe: run it from
 * one thread (the game loop); read timings from that thread between frames.
 *
 * <h2>Stepping</h2>
 *
 * <p>For debugging a frame, systems can be {@linkplain #disable disabled} (skipped every frame, as
 * if their run condition were false) and the schedule {@linkplain #pause() paused}: a {@link
 * #run()} while paused runs only the systems marked to {@linkplain #alwaysRun always run} (input,
 * rendering), unless a step was asked for: {@link #stepFrame()} has the next {@code run()} run the
 * rest of the frame, {@link #stepSystem()} the next system of the plan only. The <em>plan
 * order</em> is stage by stage, wave by wave ({@link #waves}), each wave in its listed order; the
 * schedule keeps a cursor into it, the first system a step has not run yet in the current frame.
 *
 * <ul>
 *   <li>A system not marked always-run runs at most once per frame, in plan order: stepping one
 *       system at a time runs the same systems in the same order as whole frames. A disabled system
 *       is never run, nor stepped onto; a system marked always-run runs in every {@code run()} call
 *       (even several times in a frame that is stepped one system at a time).
 *   <li>{@link #frame()} counts frames that ended: it advances once per {@code run()} that runs a
 *       whole frame or the end of one (not paused, a {@link #stepFrame()}, or a {@link
 *       #stepSystem()} that runs the last enabled system of the plan, or finds none left), and not
 *       on a paused {@code run()} that steps nothing nor on a step inside a frame. Systems see the
 *       number of the frame being stepped.
 *   <li>Sync points happen as in a whole frame: what a stepped system deferred (its command buffer,
 *       {@link SystemContext#applyAtSyncPoint}) is held until the step that ends its stage (the
 *       step of its stage's last system, of a system in a later stage, or that ends the frame),
 *       then applied at that stage's sync point in the usual order. What always-run systems defer
 *       is applied at their stage's sync point in the same {@code run()}.
 *   <li>While paused, a fixed-timestep stage runs one step per {@code run()} and the elapsed time
 *       of {@link #run(long)} is not accumulated (time is stopped); other stages see it as {@link
 *       SystemContext#stepNanos()}.
 *   <li>{@link #resume()} in the middle of a frame has the next {@code run()} run the rest of it;
 *       frames then run whole.
 *   <li>A failure (see above) stops the {@code run()} as it stops a frame; the step state has
 *       already moved as if it had not failed (the cursor past the stepped system, the frame ended
 *       if the step ended it), and what the failed stage deferred, held commands included, is
 *       discarded. The next {@code run()} goes on from the cursor.
 *   <li>The methods that change the stepping state ({@link #disable}, {@link #enable}, {@link
 *       #alwaysRun}, {@link #pause()}, {@link #resume()}, {@link #stepFrame()}, {@link
 *       #stepSystem()}) throw {@link IllegalStateException} while {@code run()} runs (from a system
 *       or a run condition), before changing anything; call them between frames. Queries ({@link
 *       #isPaused()}, {@link #nextSystem()}, {@link #disabled()}, {@link #isAlwaysRun}) answer at
 *       any time.
 * </ul>
 *
 * <p>Cost: a schedule that never used stepping reads one field per frame and one per system (the
 * skip flag, false); a stepped or paused frame adds one pass over the systems before the frame and
 * allocates nothing.
 */
public final class Schedule {

  /** The name of the first default stage. */
  public static final String PRE_UPDATE = "pre-update";

  /** The name of the default stage, where systems go unless placed elsewhere. */
  public static final String UPDATE = "update";

  /** The name of the last default stage. */
  public static final String POST_UPDATE = "post-update";

  // How a wave's locks name their holder, followed by the wave (see Wave.toString()).
  private static final String LOCKED_BY = "the schedule";

  private static final SparseSet[] NO_SETS = new SparseSet[0];

  private static final Track[] NO_TRACKS = new Track[0];

  // What the next run() was asked to step (see stepFrame(), stepSystem()).
  private static final int STEP_NONE = 0;
  private static final int STEP_FRAME = 1;
  private static final int STEP_SYSTEM = 2;

  private final Registry registry;
  private final Stage[] stages;
  private final ForkJoinPool pool;
  private final Timing frames;
  private final boolean timed;
  private final AtomicInteger pending = new AtomicInteger();
  private volatile Thread waiter;
  private long frame;
  private boolean running;
  // Change detection for conditions (see Track): a counter that orders system runs and observed
  // changes, the tracks by key (a resource's class or a component type), and those observed at
  // each stage's start, copied on write when a track is added.
  private long tick = 1;
  private final Map<Object, Track> tracks = new HashMap<>();
  private volatile Track[] observed = NO_TRACKS;
  // The wave running, for the passes its systems start (see counts()), and the counting source
  // handed to the registry (countChunks) while a timed frame runs.
  private Wave current;
  private final ChunkCounts.Source counting = this::counts;
  // Stepping: every system in plan order (stage by stage, wave by wave), whether the schedule is
  // paused, the step asked of the next run(), the first position of the plan no step has run in
  // the current frame, how many systems are disabled, and whether any of it is in use (if not,
  // every slot's skip flag is false and run() looks at nothing else). A paused or partial run()
  // runs each fixed-timestep stage once (see stepped).
  private final SystemSlot[] plan;
  private boolean paused;
  private int request = STEP_NONE;
  private int cursor;
  private int disabledCount;
  private boolean engaged;
  private boolean stepped;

  Schedule(
      final Registry registry,
      final Stage[] stages,
      final ForkJoinPool pool,
      final int window,
      final boolean timed) {
    this.registry = registry;
    this.stages = stages;
    this.pool = pool;
    this.frames = new Timing(window);
    this.timed = timed;
    final List<SystemSlot> inPlan = new ArrayList<>();
    for (final Stage stage : stages) {
      for (final SystemSlot slot : stage.slots) {
        slot.task = new SystemTask(this, slot);
        slot.context.attach(this, slot);
      }
      for (final Wave wave : stage.waves) {
        for (final int system : wave.systems) {
          final SystemSlot slot = stage.slots[system];
          slot.position = inPlan.size();
          slot.stage = stage;
          inPlan.add(slot);
        }
      }
      stage.end = inPlan.size();
    }
    this.plan = inPlan.toArray(new SystemSlot[0]);
  }

  /**
   * {@return a builder of a schedule over {@code registry}}
   *
   * @param registry the registry the systems work on
   */
  public static ScheduleBuilder builder(final Registry registry) {
    return new ScheduleBuilder(registry);
  }

  /** {@return the registry the systems work on} */
  public Registry registry() {
    return registry;
  }

  /**
   * {@return the number of frames run (or started) so far; while stepping, the number of frames
   * ended (see the class comment)} {@link ScheduleState#restore} sets it to a saved count.
   */
  public long frame() {
    return frame;
  }

  /**
   * Runs one frame in which each fixed-timestep stage runs exactly one step (the deterministic
   * form, for tests and replays). Other stages see {@link SystemContext#stepNanos()} 0.
   *
   * @throws SystemFailedException if a system, a run condition or a command failed (see the class
   *     comment); the schedule may run the next frame
   * @throws IllegalStateException if called from a system of this schedule
   */
  public void run() {
    runFrame(-1);
  }

  /**
   * Runs one frame that {@code elapsedNanos} of time passed before: each fixed-timestep stage runs
   * as many steps as its accumulated time holds (at most its maximum); other stages see {@code
   * elapsedNanos} as {@link SystemContext#stepNanos()}.
   *
   * @param elapsedNanos the time since the last frame, not negative
   * @throws SystemFailedException if a system, a run condition or a command failed
   * @throws IllegalStateException if called from a system of this schedule
   * @throws IllegalArgumentException if {@code elapsedNanos} is negative
   */
  public void run(final long elapsedNanos) {
    if (elapsedNanos < 0) {
      throw new IllegalArgumentException("elapsed time must not be negative: " + elapsedNanos);
    }
    runFrame(elapsedNanos);
  }

  private void runFrame(final long elapsedNanos) {
    if (running) {
      throw new IllegalStateException("the schedule is running a frame: run() is not re-entrant");
    }
    running = true;
    final boolean ends = !engaged || prepare();
    final long start = System.nanoTime();
    if (timed) {
      registry.countChunks(counting);
    }
    try {
      for (final Stage stage : stages) {
        if (0 == stage.stepNanos) {
          runStage(stage, Math.max(0, elapsedNanos), 0);
          continue;
        }
        final int steps;
        if (elapsedNanos < 0 || stepped) {
          steps = 1;
        } else {
          // The carried time is below one step; adding the elapsed time to it could overflow, so
          // the steps due and the new remainder are computed from the quotient and remainder of
          // the elapsed time. Steps past the maximum are dropped, the remainder kept either way.
          final long step = stage.stepNanos;
          final long carried = stage.accumulated;
          final long part = elapsedNanos % step;
          final boolean carry = carried >= step - part;
          final long due = elapsedNanos / step + (carry ? 1 : 0);
          steps = (int) Math.min(due, stage.maxSteps);
          stage.accumulated = carry ? carried - (step - part) : carried + part;
        }
        for (int step = 0; step < steps; step++) {
          runStage(stage, stage.stepNanos, step);
        }
      }
    } finally {
      registry.countChunks(null);
      current = null;
      frames.record(System.nanoTime() - start);
      if (ends) {
        frame++;
      }
      running = false;
      if (engaged) {
        settle();
      }
    }
  }

  private void runStage(final Stage stage, final long stepNanos, final int step) {
    final SystemSlot[] slots = stage.slots;
    int failed = -1;
    observe();
    // One clock read per system: a system's time runs from the end of the one before it on this
    // thread (or from the stage's start), so it includes the bookkeeping between them.
    long now = timed ? System.nanoTime() : 0;
    for (final Wave wave : stage.waves) {
      int active = 0;
      for (final int system : wave.systems) {
        final SystemSlot slot = slots[system];
        slot.context.frame = frame;
        slot.context.stepNanos = stepNanos;
        slot.context.step = step;
        slot.failure = null;
        slot.baseline = slot.ranAt;
        slot.active = !slot.skip && holds(slot);
      }
      // Ticks after every condition of the wave: a condition does not see a system of its own
      // wave as having run.
      for (final int system : wave.systems) {
        final SystemSlot slot = slots[system];
        if (slot.active) {
          slot.ranAt = ++tick;
          active++;
        }
      }
      current = wave;
      lock(wave);
      try {
        if (null == pool || active < 2) {
          for (final int system : wave.systems) {
            if (slots[system].active) {
              now = runSlot(slots[system], now, timed);
            }
          }
        } else {
          now = runInParallel(slots, wave, active, now);
        }
      } finally {
        unlock(wave);
      }
      for (final int system : wave.systems) {
        if (null != slots[system].failure && (failed < 0 || system < failed)) {
          failed = system;
        }
      }
      if (failed >= 0) {
        break;
      }
    }
    if (failed >= 0) {
      discardCommands(slots);
      throw failure(stage, slots, failed, false);
    }
    applyCommands(stage, slots);
  }

  private static boolean holds(final SystemSlot slot) {
    final RunCondition condition = slot.condition;
    if (null == condition) {
      return true;
    }
    try {
      return condition.holds(slot.context);
    } catch (final RuntimeException | Error thrown) {
      slot.failure = thrown;
      return false;
    }
  }

  /** Runs the active systems of {@code wave} at once; returns the clock after the last ended. */
  private long runInParallel(
      final SystemSlot[] slots, final Wave wave, final int active, final long start) {
    SystemSlot own = null;
    pending.set(active - 1);
    waiter = Thread.currentThread();
    for (final int system : wave.systems) {
      final SystemSlot slot = slots[system];
      if (!slot.active) {
        continue;
      }
      if (null == own) {
        own = slot;
      } else {
        slot.task.reinitialize();
        pool.execute(slot.task);
      }
    }
    runSlot(own, start, timed);
    // Out of work of its own, this thread helps the others' parallel passes before it parks.
    while (0 != pending.get()) {
      if (!registry.helpParallelPasses()) {
        LockSupport.park(this);
      }
    }
    waiter = null;
    // A task counts itself finished just before the pool marks it done; reinitialising it before
    // then would let that mark land on the next frame's run, which the pool would then skip. The
    // wait is the few instructions between the two.
    for (final int system : wave.systems) {
      final SystemSlot slot = slots[system];
      if (slot.active && slot != own) {
        while (!slot.task.isDone()) {
          Thread.onSpinWait();
        }
      }
    }
    return timed ? System.nanoTime() : 0;
  }

  /**
   * Runs {@code slot}'s system and records its run; with {@code timed}, also its time since {@code
   * start}, and returns the clock at its end (else 0).
   */
  static long runSlot(final SystemSlot slot, final long start, final boolean timed) {
    final Thread thread = Thread.currentThread();
    final SparseSet[] permits = slot.permits;
    slot.thread = thread;
    try {
      for (final SparseSet set : permits) {
        set.permit(thread);
      }
      slot.body.run(slot.context);
    } catch (final RuntimeException | Error thrown) {
      slot.failure = thrown;
    } finally {
      for (final SparseSet set : permits) {
        set.permit(null);
      }
      slot.thread = null;
    }
    if (!timed) {
      slot.timing.count();
      return 0;
    }
    final long end = System.nanoTime();
    slot.timing.record(end - start);
    return end;
  }

  /** {@return the chunk counts of the system the calling thread runs, or {@code null}} */
  private ChunkCounts counts() {
    final Wave wave = current;
    if (null == wave) {
      return null;
    }
    final Thread thread = Thread.currentThread();
    for (final int system : wave.systems) {
      final SystemSlot slot = wave.slots[system];
      if (slot.thread == thread) {
        return slot.chunks;
      }
    }
    return null;
  }

  void finished() {
    if (0 == pending.decrementAndGet()) {
      LockSupport.unpark(waiter);
    }
  }

  /**
   * Locks every storage for a wave that is not exclusive, and has the registry lock the storages it
   * creates while the wave runs; each system is then permitted, on its own thread, the structural
   * changes it declared (see {@link #runSlot}).
   */
  private void lock(final Wave wave) {
    if (wave.exclusive) {
      return;
    }
    registry.lockAll(LOCKED_BY, wave);
  }

  /** Releases what {@link #lock} took, the storages created while the wave ran included. */
  private void unlock(final Wave wave) {
    if (wave.exclusive) {
      return;
    }
    registry.unlockAll();
  }

  private static void discardCommands(final SystemSlot[] slots) {
    for (final SystemSlot slot : slots) {
      final SystemContext context = slot.context;
      final CommandBuffer buffer = context.bufferOrNull();
      if (null != buffer) {
        buffer.clear();
      }
      for (int i = 0; i < context.setCount(); i++) {
        context.set(i).clear();
      }
      context.forgetSets();
    }
  }

  private void applyCommands(final Stage stage, final SystemSlot[] slots) {
    int failed = -1;
    final boolean holding = stage.holding;
    for (int s = 0; s < slots.length; s++) {
      final SystemSlot slot = slots[s];
      if (holding && slot.held) {
        // Stepped in a stage no step has ended yet: applied by the step that ends it.
        continue;
      }
      final SystemContext context = slot.context;
      final CommandBuffer buffer = context.bufferOrNull();
      if (null != buffer && !buffer.isEmpty()) {
        try {
          buffer.apply();
        } catch (final RuntimeException | Error thrown) {
          slot.failure = thrown;
          if (failed < 0) {
            failed = s;
          }
          // A buffer whose apply was refused outright keeps its commands: drop them.
          buffer.clear();
        }
      }
      for (int i = 0; i < context.setCount(); i++) {
        final CommandBuffers set = context.set(i);
        try {
          set.apply();
        } catch (final RuntimeException | Error thrown) {
          if (null == slot.failure) {
            slot.failure = thrown;
          } else {
            slot.failure.addSuppressed(thrown);
          }
          if (failed < 0) {
            failed = s;
          }
          set.clear();
        }
      }
      context.forgetSets();
    }
    if (failed >= 0) {
      throw failure(stage, slots, failed, true);
    }
  }

  private SystemFailedException failure(
      final Stage stage, final SystemSlot[] slots, final int failed, final boolean atSyncPoint) {
    final SystemFailedException failure =
        new SystemFailedException(
            slots[failed].name, stage.name, frame, atSyncPoint, slots[failed].failure);
    for (int s = failed + 1; s < slots.length; s++) {
      if (null != slots[s].failure) {
        failure.addSuppressed(slots[s].failure);
      }
      slots[s].failure = null;
    }
    slots[failed].failure = null;
    return failure;
  }

  // ---------------------------------------------------------------------------------------------
  // Change detection for run conditions.
  // ---------------------------------------------------------------------------------------------

  /**
   * {@return whether {@code key} (a resource's class or a component type) changed since {@code
   * slot}'s run before the current one (its last run, for a condition)}: a system that declares
   * changing it ran since, other than {@code slot}'s own, or a change made elsewhere was observed
   * at a stage's start since.
   */
  boolean changedSince(final SystemSlot slot, final Object key) {
    final Track track = track(key);
    final long since = slot.baseline;
    if (track.changedAt > since) {
      return true;
    }
    for (final SystemSlot writer : track.writers) {
      if (writer != slot && writer.ranAt > since) {
        return true;
      }
    }
    return false;
  }

  private Track track(final Object key) {
    synchronized (tracks) {
      Track track = tracks.get(key);
      if (null == track) {
        track = newTrack(key);
        tracks.put(key, track);
        final Track[] now = Arrays.copyOf(observed, observed.length + 1);
        now[now.length - 1] = track;
        observed = now;
      }
      return track;
    }
  }

  private Track newTrack(final Object key) {
    final List<SystemSlot> writers = new ArrayList<>();
    for (final Stage stage : stages) {
      for (final SystemSlot slot : stage.slots) {
        final Access access = slot.context.access;
        final boolean writes =
            key instanceof ComponentType<?, ?> type
                ? access.writes(type) || access.changesStructure(type) || access.exclusive
                : access.writesResource((Class<?>) key);
        if (writes) {
          writers.add(slot);
        }
      }
    }
    final Track track = new Track(key, writers.toArray(new SystemSlot[0]));
    track.look(registry);
    // What exists when first asked about counts as changed for a system that has not run yet.
    track.changedAt = track.present ? 1 : 0;
    track.observedAt = tick;
    return track;
  }

  /**
   * Looks at every tracked resource and storage at a stage's start: a change no system that
   * declares it has made since the last look (a command, code between frames) counts as made now.
   */
  private void observe() {
    final Track[] all = observed;
    for (final Track track : all) {
      if (track.look(registry)) {
        boolean declared = false;
        for (final SystemSlot writer : track.writers) {
          declared |= writer.ranAt > track.observedAt;
        }
        if (!declared) {
          track.changedAt = ++tick;
        }
      }
      track.observedAt = tick;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Stepping.
  // ---------------------------------------------------------------------------------------------

  /**
   * Disables system {@code system}: from the next {@link #run()} on it is skipped in every frame
   * and step, as if its run condition were false (its condition is not asked; its {@linkplain
   * #timing timing} does not count the frame), until {@linkplain #enable enabled}. Disabling a
   * disabled system does nothing.
   *
   * @param system a system's name
   * @throws IllegalArgumentException if there is no such system (the message lists the systems)
   * @throws IllegalStateException if called while {@link #run()} runs (from a system or a run
   *     condition); nothing changes
   */
  public void disable(final String system) {
    final SystemSlot slot = controlled(system);
    if (!slot.disabled) {
      slot.disabled = true;
      disabledCount++;
    }
    settle();
  }

  /**
   * Enables system {@code system} again (see {@link #disable}); enabling an enabled system does
   * nothing.
   *
   * @param system a system's name
   * @throws IllegalArgumentException if there is no such system (the message lists the systems)
   * @throws IllegalStateException if called while {@link #run()} runs; nothing changes
   */
  public void enable(final String system) {
    final SystemSlot slot = controlled(system);
    if (slot.disabled) {
      slot.disabled = false;
      disabledCount--;
    }
    settle();
  }

  /** {@return the names of the disabled systems, in the order of {@link #systems()}} */
  public List<String> disabled() {
    final List<String> names = new ArrayList<>();
    for (final Stage stage : stages) {
      for (final SystemSlot slot : stage.slots) {
        if (slot.disabled) {
          names.add(slot.name);
        }
      }
    }
    return Collections.unmodifiableList(names);
  }

  /**
   * Marks system {@code system} to run, or no longer, in every {@link #run()} call while the
   * schedule is paused or stepped (see {@link SystemDeclaration#alwaysRun()}); a disabled system
   * does not run all the same.
   *
   * @param system a system's name
   * @param always whether it runs in every {@code run()} call
   * @throws IllegalArgumentException if there is no such system (the message lists the systems)
   * @throws IllegalStateException if called while {@link #run()} runs; nothing changes
   */
  public void alwaysRun(final String system, final boolean always) {
    // Whether stepping is in use does not depend on this mark: nothing to settle.
    controlled(system).alwaysRun = always;
  }

  /**
   * {@return whether system {@code system} is marked to run in every {@link #run()} call (see
   * {@link #alwaysRun(String, boolean)}); answers at any time}
   *
   * @param system a system's name
   * @throws IllegalArgumentException if there is no such system (the message lists the systems)
   */
  public boolean isAlwaysRun(final String system) {
    return slot(system).alwaysRun;
  }

  /**
   * Pauses the schedule: from the next {@link #run()} on, a {@code run()} runs only the systems
   * marked to {@linkplain #alwaysRun always run}, and {@link #frame()} does not advance, unless a
   * step was asked for ({@link #stepFrame()}, {@link #stepSystem()}). Pausing a paused schedule
   * does nothing.
   *
   * @throws IllegalStateException if called while {@link #run()} runs; nothing changes
   */
  public void pause() {
    checkNotRunning();
    paused = true;
    settle();
  }

  /**
   * Resumes a paused schedule and drops a step asked for and not run: the next {@link #run()} runs
   * the rest of the current frame if a step stopped in its middle (else a whole frame), and frames
   * then run whole. Resuming a schedule that is not paused does nothing.
   *
   * @throws IllegalStateException if called while {@link #run()} runs; nothing changes
   */
  public void resume() {
    checkNotRunning();
    paused = false;
    request = STEP_NONE;
    settle();
  }

  /** {@return whether the schedule is paused (see {@link #pause()})} */
  public boolean isPaused() {
    return paused;
  }

  /**
   * Has the next {@link #run()} run one frame, or the rest of the current one if a {@link
   * #stepSystem()} stopped in its middle, then stay paused; pauses the schedule if it is not. It
   * replaces a step asked for and not run yet.
   *
   * @throws IllegalStateException if called while {@link #run()} runs; nothing changes
   */
  public void stepFrame() {
    checkNotRunning();
    paused = true;
    request = STEP_FRAME;
    settle();
  }

  /**
   * Has the next {@link #run()} run one system only (and the systems marked to {@linkplain
   * #alwaysRun always run}), then stay paused: the next enabled system in plan order from where the
   * last step stopped, named by {@link #nextSystem()}. The step that runs the last enabled system
   * of the plan (or finds none left) ends the frame: {@link #frame()} advances and the next step
   * starts at the first system. Pauses the schedule if it is not; replaces a step asked for and not
   * run yet.
   *
   * @throws IllegalStateException if called while {@link #run()} runs; nothing changes
   */
  public void stepSystem() {
    checkNotRunning();
    paused = true;
    request = STEP_SYSTEM;
    settle();
  }

  /**
   * {@return the system a {@link #stepSystem()} run now would run: the first enabled system in plan
   * order (see the class comment) that no step has run in the current frame; empty if none is left
   * (such a step only ends the frame)}
   */
  public Optional<String> nextSystem() {
    final int next = nextEnabled(cursor);
    return next < 0 ? Optional.empty() : Optional.of(plan[next].name);
  }

  private SystemSlot controlled(final String system) {
    checkNotRunning();
    return slot(system);
  }

  private void checkNotRunning() {
    if (running) {
      throw new IllegalStateException(
          "the schedule is running a frame: stepping and disabling take effect between frames;"
              + " call them outside run()");
    }
  }

  /** {@return the first position at or after {@code from} of an enabled system, or -1} */
  private int nextEnabled(final int from) {
    for (int p = from; p < plan.length; p++) {
      if (!plan[p].disabled) {
        return p;
      }
    }
    return -1;
  }

  /**
   * Works out what a {@link #run()} runs while stepping is in use: sets each system's skip flag and
   * the held commands, moves the cursor, consumes the step asked for; {@return whether the run ends
   * a frame}
   */
  private boolean prepare() {
    stepped = paused || cursor > 0;
    if (!stepped) {
      for (final SystemSlot slot : plan) {
        slot.skip = slot.disabled;
      }
      return true;
    }
    final int from;
    final int to;
    final boolean ends;
    if (!paused || STEP_FRAME == request) {
      from = cursor;
      to = plan.length;
      ends = true;
    } else if (STEP_SYSTEM == request) {
      final int next = nextEnabled(cursor);
      from = Math.max(next, 0);
      to = next + 1;
      ends = next < 0 || nextEnabled(next + 1) < 0;
    } else {
      from = 0;
      to = 0;
      ends = false;
    }
    request = STEP_NONE;
    for (final SystemSlot slot : plan) {
      final int p = slot.position;
      slot.skip = slot.disabled || !(slot.alwaysRun || (p >= from && p < to));
    }
    if (ends) {
      for (final Stage stage : stages) {
        release(stage);
      }
      cursor = 0;
    } else if (to > from) {
      // A step inside the frame: the stages it leaves behind reach their sync points in this run;
      // the stepped system's stage, if the step does not end it, holds what the system defers.
      for (final Stage stage : stages) {
        if (stage.end <= to) {
          release(stage);
        }
      }
      final SystemSlot slot = plan[from];
      if (slot.stage.end > to) {
        slot.held = true;
        slot.stage.holding = true;
      }
      cursor = to;
    }
    return ends;
  }

  private static void release(final Stage stage) {
    if (stage.holding) {
      stage.holding = false;
      for (final SystemSlot slot : stage.slots) {
        slot.held = false;
      }
    }
  }

  /** Works out whether stepping is in use; if not, clears what it set. */
  private void settle() {
    engaged = paused || cursor > 0 || disabledCount > 0 || STEP_NONE != request;
    if (!engaged) {
      stepped = false;
      for (final SystemSlot slot : plan) {
        slot.skip = false;
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Reading the plan and the timings.
  // ---------------------------------------------------------------------------------------------

  /** {@return the names of the stages, in the order they run} */
  public List<String> stages() {
    final List<String> names = new ArrayList<>();
    for (final Stage stage : stages) {
      names.add(stage.name);
    }
    return Collections.unmodifiableList(names);
  }

  /**
   * {@return the names of every system, stage by stage, each stage in its topological order (one
   * thread runs a stage wave by wave, see {@link #waves})}
   */
  public List<String> systems() {
    final List<String> names = new ArrayList<>();
    for (final Stage stage : stages) {
      for (final SystemSlot slot : stage.slots) {
        names.add(slot.name);
      }
    }
    return Collections.unmodifiableList(names);
  }

  /**
   * {@return the waves of stage {@code stage}: each the names of systems that may run at once, in
   * order}
   *
   * @param stage a stage's name
   * @throws IllegalArgumentException if there is no such stage
   */
  public List<List<String>> waves(final String stage) {
    for (final Stage s : stages) {
      if (s.name.equals(stage)) {
        final List<List<String>> waves = new ArrayList<>();
        for (final Wave wave : s.waves) {
          final List<String> names = new ArrayList<>();
          for (final int system : wave.systems) {
            names.add(s.slots[system].name);
          }
          waves.add(Collections.unmodifiableList(names));
        }
        return Collections.unmodifiableList(waves);
      }
    }
    throw new IllegalArgumentException("no stage '" + stage + "' in " + stages());
  }

  /**
   * {@return the names of the {@linkplain SystemSet sets} system {@code system} is in, in the order
   * it joined them ({@link SystemDeclaration#inSet}), each once; empty if none}
   *
   * @param system a system's name
   * @throws IllegalArgumentException if there is no such system (the message lists the systems)
   */
  public List<String> sets(final String system) {
    return slot(system).sets;
  }

  /**
   * {@return the access the schedule holds system {@code system} to, widened for owning groups (see
   * {@link Access})}
   *
   * @param system a system's name
   * @throws IllegalArgumentException if there is no such system
   */
  public Access access(final String system) {
    return slot(system).context.access;
  }

  /**
   * {@return the timing of system {@code system} over its window}
   *
   * @param system a system's name
   * @throws IllegalArgumentException if there is no such system
   */
  public SystemTiming timing(final String system) {
    final SystemSlot slot = slot(system);
    return slot.timing.summary(slot.name, slot.context.stage(), slot.chunks);
  }

  /** {@return the timing of every system, in the order of {@link #systems()}} */
  public List<SystemTiming> timings() {
    final List<SystemTiming> timings = new ArrayList<>();
    for (final Stage stage : stages) {
      for (final SystemSlot slot : stage.slots) {
        timings.add(slot.timing.summary(slot.name, stage.name, slot.chunks));
      }
    }
    return Collections.unmodifiableList(timings);
  }

  /** {@return the timing of whole frames ({@link #run()} calls), named {@code "frame"}} */
  public SystemTiming frameTiming() {
    return frames.summary("frame", "", null);
  }

  private SystemSlot slot(final String system) {
    for (final Stage stage : stages) {
      for (final SystemSlot slot : stage.slots) {
        if (slot.name.equals(system)) {
          return slot;
        }
      }
    }
    throw new IllegalArgumentException("no system '" + system + "' in " + systems());
  }

  @Override
  public String toString() {
    final StringBuilder text = new StringBuilder("Schedule[");
    for (int s = 0; s < stages.length; s++) {
      text.append(s == 0 ? "" : "; ").append(stages[s].name).append(": ");
      text.append(waves(stages[s].name));
    }
    return text.append(']').toString();
  }

  // ---------------------------------------------------------------------------------------------
  // What ScheduleState saves and restores.
  // ---------------------------------------------------------------------------------------------

  /** {@return whether {@link #run()} is under way} */
  boolean isRunning() {
    return running;
  }

  /** {@return whether a step stopped inside the current frame (see {@link #stepSystem()})} */
  boolean isInsideFrame() {
    return cursor > 0;
  }

  /** {@return the stages, in the order they run: their fixed-step time is saved} */
  Stage[] stageList() {
    return stages;
  }

  /** Sets the count of frames run, between frames. */
  void restoreFrame(final long restored) {
    frame = restored;
  }

  // ---------------------------------------------------------------------------------------------
  // The plan.
  // ---------------------------------------------------------------------------------------------

  /**
   * {@return the nodes of {@code edge} (edge[a][b]: a before b) in a topological order, ties broken
   * by the lower index; fewer than all if there is a cycle}
   */
  static int[] topologicalOrder(final boolean[][] edge) {
    final int n = edge.length;
    final int[] incoming = new int[n];
    for (int a = 0; a < n; a++) {
      for (int b = 0; b < n; b++) {
        if (edge[a][b]) {
          incoming[b]++;
        }
      }
    }
    final boolean[] placed = new boolean[n];
    final int[] order = new int[n];
    int count = 0;
    while (count < n) {
      int next = -1;
      for (int i = 0; i < n; i++) {
        if (!placed[i] && 0 == incoming[i]) {
          next = i;
          break;
        }
      }
      if (next < 0) {
        return Arrays.copyOf(order, count);
      }
      placed[next] = true;
      order[count++] = next;
      for (int b = 0; b < n; b++) {
        if (edge[next][b]) {
          incoming[b]--;
        }
      }
    }
    return order;
  }

  /** {@return the transitive closure of {@code edge}} */
  static boolean[][] closure(final boolean[][] edge) {
    final int n = edge.length;
    final boolean[][] reach = new boolean[n][];
    for (int i = 0; i < n; i++) {
      reach[i] = Arrays.copyOf(edge[i], n);
    }
    for (int k = 0; k < n; k++) {
      for (int i = 0; i < n; i++) {
        if (reach[i][k]) {
          for (int j = 0; j < n; j++) {
            reach[i][j] |= reach[k][j];
          }
        }
      }
    }
    return reach;
  }

  /** A stage: its systems in topological order, and its waves. */
  static final class Stage {
    final String name;
    final long stepNanos;
    final int maxSteps;
    final SystemSlot[] slots;
    final Wave[] waves;
    long accumulated;
    // Stepping: the position in the plan after the stage's last system, and whether a system of
    // the stage holds its commands for the step that ends the stage.
    int end;
    boolean holding;

    Stage(
        final String name,
        final long stepNanos,
        final int maxSteps,
        final SystemSlot[] slots,
        final Wave[] waves) {
      this.name = name;
      this.stepNanos = stepNanos;
      this.maxSteps = maxSteps;
      this.slots = slots;
      this.waves = waves;
    }
  }

  /**
   * Systems that run at once (indices into the stage's slots). While it runs, it is the object of
   * the locks it holds: its text names the system the calling thread runs, for the message of a
   * refused change.
   */
  static final class Wave {
    final int[] systems;
    final boolean exclusive;
    final String stage;
    final String names;
    SystemSlot[] slots;

    Wave(final int[] systems, final boolean exclusive, final String stage, final String names) {
      this.systems = systems;
      this.exclusive = exclusive;
      this.stage = stage;
      this.names = names;
    }

    @Override
    public String toString() {
      final Thread current = Thread.currentThread();
      String running = null;
      for (final int system : systems) {
        if (slots[system].thread == current) {
          running = slots[system].name;
        }
      }
      final String who =
          null == running
              ? "running systems [" + names + "] of stage '" + stage + "'"
              : "running system '"
                  + running
                  + "' of stage '"
                  + stage
                  + "', in wave ["
                  + names
                  + "]";
      return "("
          + who
          + ": a system changes the structure only of the storages it declares; declare"
          + " changesStructure, or record the change into context.commands(), applied at the"
          + " stage's sync point, where context.applyAtSyncPoint(buffers) also applies the"
          + " per-run buffers of a parallel pass)";
    }
  }

  /** One system as planned: its code, its context, its timing, its task for the pool. */
  static final class SystemSlot {
    final String name;
    final SystemBody body;
    final RunCondition condition;
    final SystemContext context;
    final Timing timing;
    final ChunkCounts chunks = new ChunkCounts();
    // The storages the system declares structural changes of (none if it is exclusive: its wave
    // locks nothing), and the thread running it, or null: written by that thread, compared by a
    // thread with itself only (see Wave.toString()), so a plain field.
    SparseSet[] permits = NO_SETS;
    Thread thread;
    // Ticks of change detection (see Track): when the latest run started, and the run before the
    // current one, against which its condition and body ask what changed. Written by the thread
    // that runs the schedule before the system's wave.
    long ranAt;
    long baseline;
    SystemTask task;
    boolean active;
    Throwable failure;
    // Stepping (see Schedule.prepare()): where the system is in the plan and its stage; whether it
    // is disabled, runs in every run() call, is skipped in the coming run(), holds its commands.
    int position;
    Stage stage;
    boolean disabled;
    boolean alwaysRun;
    boolean skip;
    boolean held;
    // The sets the system is in, as declared (see Schedule.sets()).
    List<String> sets = List.of();

    SystemSlot(
        final String name,
        final SystemBody body,
        final RunCondition condition,
        final SystemContext context,
        final int window) {
      this.name = name;
      this.body = body;
      this.condition = condition;
      this.context = context;
      this.timing = new Timing(window);
    }
  }

  /**
   * What the schedule knows of one resource or component type for change detection: the systems
   * that declare changing it, and what it looked like at the last look (a resource's identity; a
   * storage's size and structure stamp), with the tick of the last change seen from outside them.
   */
  static final class Track {
    final Class<?> resource;
    final ComponentType<?, ?> type;
    final SystemSlot[] writers;
    long changedAt;
    long observedAt;
    boolean present;
    private Object seen;
    private int size = -1;
    private long stamp = -1;

    Track(final Object key, final SystemSlot[] writers) {
      this.resource = key instanceof Class<?> c ? c : null;
      this.type = key instanceof ComponentType<?, ?> t ? t : null;
      this.writers = writers;
    }

    /** Looks again; {@return whether it differs from the last look} */
    boolean look(final Registry registry) {
      if (null != resource) {
        final Object now = registry.context().find(resource);
        final boolean changed = now != seen;
        seen = now;
        present = null != now;
        return changed;
      }
      final Storage<?> storage = registry.findStorage(type);
      final int nowSize = null == storage ? -1 : storage.size();
      final long nowStamp = null == storage ? -1 : storage.structureStamp();
      final boolean changed = nowSize != size || nowStamp != stamp;
      size = nowSize;
      stamp = nowStamp;
      present = nowSize > 0;
      return changed;
    }
  }

  /**
   * Runs one system on a pool thread; reused every frame ({@link ForkJoinTask#reinitialize}), so
   * handing a system to the pool allocates nothing.
   */
  static final class SystemTask extends ForkJoinTask<Void> {
    private static final long serialVersionUID = 1L;
    private final transient Schedule schedule;
    private final transient SystemSlot slot;

    SystemTask(final Schedule schedule, final SystemSlot slot) {
      this.schedule = schedule;
      this.slot = slot;
    }

    @Override
    public Void getRawResult() {
      return null;
    }

    @Override
    protected void setRawResult(final Void value) {}

    @Override
    protected boolean exec() {
      try {
        final boolean timed = schedule.timed;
        runSlot(slot, timed ? System.nanoTime() : 0, timed);
      } finally {
        schedule.finished();
      }
      return true;
    }
  }

  /**
   * The latest runs of a system, in a ring. Written by the thread that ran it; read by the thread
   * that runs the schedule, after the frame (the wave's end orders the two).
   */
  static final class Timing {
    private final long[] samples;
    private int next;
    private int held;
    private long runs;

    Timing(final int window) {
      samples = new long[window];
    }

    /** Records a run that took {@code nanos}. */
    void record(final long nanos) {
      samples[next] = nanos;
      if (++next == samples.length) {
        next = 0;
      }
      if (held < samples.length) {
        held++;
      }
      runs++;
    }

    /** Records a run whose time was not measured. */
    void count() {
      runs++;
    }

    SystemTiming summary(final String system, final String stage, final ChunkCounts chunks) {
      final int n = held;
      final long[] sorted = Arrays.copyOf(samples, n);
      Arrays.sort(sorted);
      long sum = 0;
      for (final long sample : sorted) {
        sum += sample;
      }
      return new SystemTiming(
          system,
          stage,
          runs,
          n,
          0 == n ? 0 : (double) sum / n,
          rank(sorted, 0.50),
          rank(sorted, 0.95),
          0 == n ? 0 : sorted[n - 1],
          byThread(chunks));
    }

    // The counts up to the last slot that is not zero.
    private static List<Long> byThread(final ChunkCounts chunks) {
      if (null == chunks) {
        return List.of();
      }
      int last = ChunkCounts.SLOTS - 1;
      while (last >= 0 && 0 == chunks.at(last)) {
        last--;
      }
      final List<Long> counts = new ArrayList<>();
      for (int slot = 0; slot <= last; slot++) {
        counts.add(chunks.at(slot));
      }
      return Collections.unmodifiableList(counts);
    }

    // Nearest rank: the smallest sample with at least p of the samples at or below it.
    private static long rank(final long[] sorted, final double p) {
      if (0 == sorted.length) {
        return 0;
      }
      return sorted[Math.max(0, (int) Math.ceil(p * sorted.length) - 1)];
    }
  }
}
