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
 * a lock of its own (a parallel pass) is held. Reads and writes of values the schedule cannot see;
 * the declaration is the contract (generated queries declare theirs, so a system that uses only
 * queries and its command buffer states it once by naming them).
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
    for (final Stage stage : stages) {
      for (final SystemSlot slot : stage.slots) {
        slot.task = new SystemTask(this, slot);
        slot.context.attach(this, slot);
      }
    }
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

  /** {@return the number of frames run (or started) so far} */
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
        if (elapsedNanos < 0) {
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
      frame++;
      running = false;
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
        slot.active = holds(slot);
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
    while (0 != pending.get()) {
      LockSupport.park(this);
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
    for (final SparseSet set : permits) {
      set.permit(thread);
    }
    try {
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
    for (int s = 0; s < slots.length; s++) {
      final SystemSlot slot = slots[s];
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
