package dev.phalanx.examples.particles;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Reactive;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.schedule.Schedule;
import dev.phalanx.ecs.schedule.ScheduleBuilder;
import dev.phalanx.ecs.snapshot.SnapshotFormatException;
import dev.phalanx.ecs.snapshot.SnapshotLoader;
import dev.phalanx.ecs.snapshot.SnapshotWriter;
import dev.phalanx.examples.components.Velocity_Traits;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ForkJoinPool;
import java.util.function.LongPredicate;

/**
 * The particle world: a registry, its storages and queries, and the systems that run each frame.
 *
 * <p>A frame runs, in order:
 *
 * <ol>
 *   <li><b>density</b>: count every particle into the neighbourhood grid (the movers in a chunked,
 *       optionally parallel pass, each thread into a grid of its own);
 *   <li><b>movement</b>: integrate the movers (owning group, chunked, optionally parallel);
 *   <li><b>follow</b>: snap comet tails to their heads (a view of the tails' relationship);
 *   <li><b>aging</b>: age the roots (a chunked, optionally parallel pass that records the dead in
 *       command buffers, one per run); with a pool, beside follow;
 *   <li><b>lifetime</b>: destroy the dead; a comet's tail goes with it, as its relationship kind
 *       destroys its sources;
 *   <li><b>spawn</b>: create as many roots as died (recorded in a command buffer; a reactive
 *       storage counts them).
 * </ol>
 *
 * <p>The result depends only on the seed and the sizes: see {@link #checksum()}.
 */
public final class World implements AutoCloseable {

  /**
   * The name of the snapshot's extra block holding what the registry does not: the frame number
   * (the attractors' positions depend on it) and the spawner's random state.
   */
  public static final String STATE_BLOCK = "particles.state";

  private final Registry registry = new Registry();
  private final Storages storages;
  private final MoversQuery movers;
  private final FollowersQuery followers;
  private final SparksQuery sparks;
  private final ForkJoinPool pool;
  private final DensityGrid grid;
  private final MovementSystem movement;
  private final FollowSystem follow;
  private final LifetimeSystem lifetime;
  private final Spawner spawner;
  private final Schedule schedule;
  private final SystemTimes times;
  // A reactive storage: every entity that received a Lifetime (a spawned root) since the last
  // frame.
  private final Reactive spawned;
  private int spawnedLastFrame;
  private int diedThisFrame;
  private int frame;

  /**
   * Creates a world of {@code roots} root entities (plus the tails of the comets among them).
   *
   * @param roots number of root entities, kept constant: each one that dies is replaced
   * @param seed the seed of every random draw
   * @param threads threads of the movement system; 1 runs everything on the calling thread
   * @param frames how many frames to keep timings for
   */
  public World(final int roots, final long seed, final int threads, final int frames) {
    storages = new Storages(registry);
    // Declared before any entity exists: the group then arranges each entity as it is created.
    movers = MoversQuery.of(registry);
    followers = FollowersQuery.of(registry);
    sparks = SparksQuery.of(registry);
    // A parallel pass runs on the calling thread too: the pool holds the other threads.
    pool = threads > 1 ? new ForkJoinPool(threads - 1) : null;
    grid = new DensityGrid(movers, pool);
    movement = new MovementSystem(movers, grid, pool);
    follow = new FollowSystem(followers);
    lifetime = new LifetimeSystem(registry, storages, pool);
    spawner = new Spawner(registry, storages, seed);
    spawned =
        Reactive.collect(registry, ComponentType.named("spawned"))
            .onConstruct(Lifetime_Traits.TYPE);
    schedule = schedule(frames);
    times = new SystemTimes(schedule);
    spawner.spawn(roots);
    spawned.clear();
  }

  // tag::schedule[]
  /**
   * The frame as a schedule: one stage, six systems. The first four only read and write values (the
   * schedule locks every storage against structural changes while they run); aging touches the
   * lifetimes alone, so with a pool it runs beside follow, on another thread. The lifetime and
   * spawn systems destroy and create entities, so they declare that they need the world alone.
   */
  private Schedule schedule(final int frames) {
    final ScheduleBuilder plan =
        Schedule.builder(registry).timingWindow(Math.max(1, frames)).executor(pool);
    // The movers' pass locks both storages the group owns; it reads positions only.
    plan.system("density", context -> countDensity())
        .iterates(Position_Traits.TYPE)
        .iterates(Velocity_Traits.TYPE)
        .reads(Position_Traits.TYPE);
    plan.system("movement", context -> move()).uses(movers).after("density");
    plan.system("follow", context -> followComets()).uses(followers).after("movement");
    // The dead are recorded in command buffers; the lifetime system destroys them.
    plan.system("aging", context -> lifetime.age())
        .iterates(Lifetime_Traits.TYPE)
        .writes(Lifetime_Traits.TYPE)
        .after("movement");
    plan.system("lifetime", context -> reapRoots()).exclusive().after("follow", "aging");
    plan.system("spawn", context -> spawnRoots()).exclusive().after("lifetime");
    return plan.build();
  }

  // end::schedule[]

  /** Runs one frame. */
  public void step() {
    schedule.run();
    frame++;
  }

  /**
   * Runs one frame without the schedule: the systems called one after the other, as the example did
   * before it had a schedule. Same world, same checksum; no timings, no storage locks. It exists so
   * that a benchmark can measure what the schedule costs a frame.
   */
  public void stepWithoutSchedule() {
    countDensity();
    move();
    followComets();
    ageRoots();
    spawnRoots();
    frame++;
  }

  private void countDensity() {
    grid.count(storages.positions);
  }

  private void move() {
    movement.run(frame);
  }

  private void followComets() {
    follow.run();
  }

  private void ageRoots() {
    diedThisFrame = lifetime.run();
  }

  private void reapRoots() {
    diedThisFrame = lifetime.reap();
  }

  private void spawnRoots() {
    spawner.spawn(diedThisFrame);
    // The reactive storage counted the spawns; processed, it is emptied for the next frame.
    spawnedLastFrame = spawned.size();
    spawned.clear();
  }

  /**
   * Returns a fingerprint of the whole state: the sum, over live entities, of a hash of each one's
   * components. A sum does not depend on the order of storages, so any implementation of the same
   * rules (the tests use plain arrays) yields the same value for the same seed. A tail particle's
   * hash includes its comet's position, and a comet's its number of tail particles, so both sides
   * of the relationship count too.
   */
  public long checksum() {
    return checksum(storages);
  }

  /**
   * Returns the fingerprint of {@link #checksum()} over any registry holding the particle world's
   * storages (a replica's, say).
   *
   * @param storages the storages of that registry
   * @return the fingerprint
   */
  public static long checksum(final Storages storages) {
    return checksum(storages, null);
  }

  /**
   * Returns the fingerprint of {@link #checksum()} over the entities {@code chosen} accepts (all if
   * it is {@code null}): what a replica that holds exactly those entities has as its own checksum.
   *
   * @param storages the storages of the registry
   * @param chosen the entities to count, or {@code null} for all
   * @return the fingerprint
   */
  public static long checksum(final Storages storages, final LongPredicate chosen) {
    final Position_Storage positions = storages.positions;
    long sum = 0;
    for (int position = 0; position < positions.size(); position++) {
      final long e = positions.at(position);
      if (null != chosen && !chosen.test(e)) {
        continue;
      }
      sum +=
          Checksums.mix(
              storages.attachments.contains(e) ? childHash(storages, e) : rootHash(storages, e));
    }
    return sum;
  }

  private static long rootHash(final Storages storages, final long e) {
    int flags = storages.frozen.contains(e) ? Checksums.FROZEN : 0;
    flags |= storages.glowing.contains(e) ? Checksums.GLOWING : 0;
    flags |= storages.comets.contains(e) ? Checksums.COMET | storages.tails.sourceCount(e) << 8 : 0;
    return Checksums.root(
        storages.positions.x(e), storages.positions.y(e),
        storages.velocities.dx(e), storages.velocities.dy(e),
        storages.lifetimes.ticks(e), flags);
  }

  private static long childHash(final Storages storages, final long e) {
    final long comet = storages.tails.target(e);
    return Checksums.child(
        storages.positions.x(e), storages.positions.y(e),
        storages.attachments.offsetX(e), storages.attachments.offsetY(e),
        storages.positions.x(comet), storages.positions.y(comet));
  }

  /** Returns how many root entities the last frame spawned (counted by a reactive storage). */
  public int spawnedLastFrame() {
    return spawnedLastFrame;
  }

  // tag::save[]
  /**
   * Saves the world: the registry (entities and components, the tails' relationships among them)
   * plus an extra block with the frame number and the spawner's random state, so that a loaded
   * world runs on exactly as this one.
   *
   * @param out where to write the snapshot (not closed)
   * @throws IOException if {@code out} fails
   */
  public void save(final OutputStream out) throws IOException {
    final byte[] state =
        ByteBuffer.allocate(12).putInt(frame).putLong(spawner.randomState()).array();
    new SnapshotWriter(registry).extra(STATE_BLOCK, state).write(out);
  }

  // end::save[]

  // tag::load[]
  /**
   * Loads a world saved by {@link #save}: a new world with no roots of its own receives the
   * snapshot (its storages and groups exist already; the loader fills and rebuilds them), then its
   * frame number and random state.
   *
   * @param in the snapshot
   * @param threads threads of the movement system
   * @param frames how many frames to keep timings for
   * @return the loaded world
   * @throws IOException if the stream fails or is not a particle world snapshot
   */
  public static World load(final InputStream in, final int threads, final int frames)
      throws IOException {
    return load(threads, frames, loader -> loader.load(in));
  }

  /**
   * As {@link #load(InputStream, int, int)}, from a snapshot in memory, read in place: the buffer's
   * position moves past it.
   *
   * @param snapshot the snapshot's bytes
   * @param threads threads of the movement system
   * @param frames how many frames to keep timings for
   * @return the loaded world
   * @throws IOException if the bytes are not a particle world snapshot
   */
  public static World load(final ByteBuffer snapshot, final int threads, final int frames)
      throws IOException {
    return load(threads, frames, loader -> loader.load(snapshot));
  }

  /** How a snapshot reaches the loader: from a stream or from memory. */
  private interface Source {
    Map<String, byte[]> into(SnapshotLoader loader) throws IOException;
  }

  private static World load(final int threads, final int frames, final Source source)
      throws IOException {
    final World world = new World(0, 0, threads, frames);
    try {
      final Map<String, byte[]> extras = source.into(new SnapshotLoader(world.registry));
      final byte[] state = extras.get(STATE_BLOCK);
      if (null == state || 12 != state.length) {
        throw new SnapshotFormatException(
            -1, "not a particle world snapshot: no '" + STATE_BLOCK + "' block");
      }
      final ByteBuffer buffer = ByteBuffer.wrap(state);
      world.frame = buffer.getInt();
      world.spawner.restoreRandomState(buffer.getLong());
      return world;
    } catch (final IOException | RuntimeException e) {
      world.close();
      throw e;
    }
  }

  // end::load[]

  /** Returns the number of frames run. */
  public int frame() {
    return frame;
  }

  /** Returns the registry, for tools and tests. */
  public Registry registry() {
    return registry;
  }

  /** Returns the typed storages. */
  public Storages storages() {
    return storages;
  }

  /** Returns the query over the owning group of moving particles. */
  public MoversQuery movers() {
    return movers;
  }

  /** Returns the query over the view of glowing particles. */
  public SparksQuery sparks() {
    return sparks;
  }

  /** Returns the query over the view of comet tail particles. */
  public FollowersQuery followers() {
    return followers;
  }

  /** Returns the movement system (for the attractors' positions). */
  public MovementSystem movement() {
    return movement;
  }

  /** Returns the schedule that runs each frame's systems (for its plan and timings). */
  public Schedule schedule() {
    return schedule;
  }

  /** Returns the lifetime system (for its counters). */
  public LifetimeSystem lifetime() {
    return lifetime;
  }

  /** Returns the per-system timings. */
  public SystemTimes times() {
    return times;
  }

  /** Stops the movement system's threads, if any. */
  @Override
  public void close() {
    if (null != pool) {
      pool.shutdown();
    }
  }
}
