package dev.phalanx.benchmarks.snapshot;

import dev.phalanx.benchmarks.components.TrackedPosition_Storage;
import dev.phalanx.benchmarks.components.TrackedPosition_Traits;
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.snapshot.DeltaWriter;
import dev.phalanx.examples.particles.Attachment_Storage;
import dev.phalanx.examples.particles.Attachment_Traits;
import dev.phalanx.examples.particles.Comet_Storage;
import dev.phalanx.examples.particles.Comet_Traits;
import dev.phalanx.examples.particles.Frozen_Traits;
import dev.phalanx.examples.particles.Glowing_Traits;
import dev.phalanx.examples.particles.Lifetime_Storage;
import dev.phalanx.examples.particles.Lifetime_Traits;
import dev.phalanx.examples.particles.Position_Storage;
import dev.phalanx.examples.particles.Position_Traits;
import dev.phalanx.examples.particles.Replica;
import dev.phalanx.examples.particles.Storages;
import dev.phalanx.examples.particles.Velocity_Storage;
import dev.phalanx.examples.particles.Velocity_Traits;
import dev.phalanx.examples.particles.World;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Deltas against full snapshots, side by side, on the particle example's world (1M roots after 20
 * frames, as {@link ExampleWorldSnapshot}), with 1% of its entities changed per tick. Each row
 * times only its own work; the changes happen before the call, outside the timing:
 *
 * <ul>
 *   <li>{@link #deltaWrite}, {@code change = structure}: before each call 1% of the live entities,
 *       roots that are neither comets nor tails, die and as many new roots are born with a
 *       position, a velocity and a lifetime, as the example's own deaths and spawns do; the call
 *       writes the delta since the previous call ({@link DeltaWriter} of the replica's types, none
 *       opted in to {@code everyValue}); after it, untimed, a replica ({@link Replica}) applies it;
 *   <li>{@link #deltaApply}: the same changes and the delta written before the call; the call
 *       applies it to the replica, which holds the previous tick;
 *   <li>{@code change = values}: every root also carries a tracked copy of its position ({@link
 *       dev.phalanx.benchmarks.components.TrackedPosition}, streamed too), and before each call 1%
 *       of the live entities get a new tracked position (an in-place write, no structural change);
 *       the calls are the same;
 *   <li>{@link #coreFloor}: the structural change applied directly through the registry to a
 *       replica-shaped world (a {@link Replica} fed the world once, its groups and storages
 *       included): 1% of its entities, chosen before the call, destroyed and as many created with a
 *       position, a velocity and a lifetime. What any delta apply of that churn must pay at least;
 *   <li>{@link #fullSaveAndLoad}: what a full snapshot costs, on a world of its own that nothing
 *       changes (the rows of {@link ExampleWorldSnapshot}): the example's {@code World.save} into a
 *       preallocated array, then {@code World.load} of it in place into a new world.
 * </ul>
 *
 * Teardown prints the average delta size against the full snapshot's and checks the replica against
 * the world. Times per tick.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class ExampleWorldDelta {

  /** The types the particle world streams to a replica, as {@code Replica.writerOfChanges}. */
  static final ComponentType<?, ?>[] TYPES = {
    Position_Traits.TYPE,
    Velocity_Traits.TYPE,
    Lifetime_Traits.TYPE,
    Frozen_Traits.TYPE,
    Glowing_Traits.TYPE,
    Comet_Traits.TYPE,
    Attachment_Traits.TYPE
  };

  static World exampleWorld(final int roots) {
    final World world = new World(roots, 42, 1, 100);
    for (int frame = 0; frame < 20; frame++) {
      world.step();
    }
    return world;
  }

  static int snapshotSize(final World world) throws IOException {
    final ExampleWorldSnapshot.Sink probe = new ExampleWorldSnapshot.Sink(1 << 28);
    world.save(probe);
    return probe.size;
  }

  /** A world, its replica and the writer between them; changed before each call. */
  @State(Scope.Benchmark)
  public abstract static class Tick {
    @Param("1000000")
    int roots;

    @Param({"structure", "values"})
    String change;

    World world;
    TrackedPosition_Storage tracked;
    Replica replica;
    DeltaWriter writer;
    SplittableRandom random;
    long deltaBytes;
    long deltas;
    int changedPerTick;
    int fullBytes;

    /** The length of the delta the last call wrote ({@link WriteTick}) or will apply. */
    int written;

    @Setup(Level.Trial)
    public void setup() throws IOException {
      world = exampleWorld(roots);
      fullBytes = snapshotSize(world);
      replica = new Replica();
      writer = new DeltaWriter(world.registry());
      if ("values".equals(change)) {
        tracked = world.registry().storage(TrackedPosition_Traits.TYPE);
        final Storages storages = world.storages();
        final long[] packed = storages.positions.packed();
        for (int i = 0; i < storages.positions.size(); i++) {
          final long e = packed[i];
          tracked.emplace(e, storages.positions.x(e), storages.positions.y(e));
        }
        final ComponentType<?, ?>[] types = java.util.Arrays.copyOf(TYPES, TYPES.length + 1);
        types[TYPES.length] = TrackedPosition_Traits.TYPE;
        writer.types(types).whenAdded(types);
        replica.loader().types(TrackedPosition_Traits.TYPE);
      } else {
        writer.types(TYPES).whenAdded(TYPES);
      }
      final int first = writer.write(); // write first: it may grow the array bytes() returns
      replica.apply(writer.bytes(), first); // the replica now holds the world
      random = new SplittableRandom(7);
      changedPerTick = world.registry().alive() / 100;
      System.err.printf(
          "%nexample world: %,d entities, full snapshot %,d bytes; %,d entities changed per tick"
              + " (%s)%n",
          world.registry().alive(), fullBytes, changedPerTick, change);
    }

    /** Not timed: 1% of the live entities die and as many are born, or get a new value. */
    void change() {
      if (null != tracked) {
        changeValues();
      } else {
        changeStructure();
      }
    }

    private void changeStructure() {
      final Registry registry = world.registry();
      final Storages storages = world.storages();
      final long[] packed = registry.entities().packed();
      int changed = 0;
      while (changed < changedPerTick) {
        final long e = packed[random.nextInt(registry.alive())];
        if (storages.comets.contains(e) || storages.attachments.contains(e)) {
          continue;
        }
        registry.destroy(e);
        final long born = registry.create();
        storages.positions.emplace(born, (float) random.nextDouble(), (float) random.nextDouble());
        storages.velocities.emplace(born, 0f, 0f);
        storages.lifetimes.emplace(born, 100);
        changed++;
      }
    }

    private void changeValues() {
      final long[] packed = tracked.packed();
      final int size = tracked.size();
      for (int changed = 0; changed < changedPerTick; changed++) {
        final long e = packed[random.nextInt(size)];
        tracked.setX(e, (float) random.nextDouble());
        tracked.setY(e, (float) random.nextDouble());
      }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      if (0 != deltas) {
        System.err.printf(
            "%naverage delta %,d bytes (%.3f%% of the full snapshot's %,d), replica %s%n",
            deltaBytes / deltas,
            100.0 * deltaBytes / deltas / fullBytes,
            fullBytes,
            replicaEqual() ? "equal" : "DIFFERENT");
      }
      writer.close();
      world.close();
    }

    private boolean replicaEqual() {
      if (replica.checksum() != world.checksum()) {
        return false;
      }
      if (null == tracked) {
        return true;
      }
      final TrackedPosition_Storage copies =
          replica.registry().storage(TrackedPosition_Traits.TYPE);
      final long[] packed = tracked.packed();
      for (int i = 0; i < tracked.size(); i++) {
        final long local = replica.loader().map(packed[i]);
        if (copies.x(local) != tracked.xAt(i) || copies.y(local) != tracked.yAt(i)) {
          return false;
        }
      }
      return copies.size() == tracked.size();
    }
  }

  /** {@link Tick} for {@link #deltaWrite}: changed before each call, the delta applied after. */
  @State(Scope.Benchmark)
  public static class WriteTick extends Tick {
    /** Not timed: the change. */
    @Setup(Level.Invocation)
    public void before() {
      change();
    }

    /** Not timed: the replica applies what the call wrote. */
    @TearDown(Level.Invocation)
    public void after() throws IOException {
      replica.apply(writer.bytes(), written);
    }
  }

  /** {@link Tick} for {@link #deltaApply}: changed and the delta written before each call. */
  @State(Scope.Benchmark)
  public static class ApplyTick extends Tick {
    /** Not timed: the change and the delta's write. */
    @Setup(Level.Invocation)
    public void before() {
      change();
      written = writer.write();
      deltaBytes += written;
      deltas++;
    }
  }

  /**
   * A replica-shaped world (a {@link Replica} fed {@link #exampleWorld} once) that the churn is
   * applied to directly; the victims are chosen before each call.
   */
  @State(Scope.Benchmark)
  public static class Floor {
    @Param("1000000")
    int roots;

    Replica replica;
    Registry registry;
    Position_Storage positions;
    Velocity_Storage velocities;
    Lifetime_Storage lifetimes;
    Comet_Storage comets;
    Attachment_Storage attachments;
    long[] victims;
    final java.util.BitSet taken = new java.util.BitSet();
    SplittableRandom random;

    @Setup(Level.Trial)
    public void setup() throws IOException {
      try (World world = exampleWorld(roots);
          DeltaWriter writer = new DeltaWriter(world.registry()).types(TYPES).whenAdded(TYPES)) {
        replica = new Replica();
        final int first = writer.write();
        replica.apply(writer.bytes(), first);
      }
      registry = replica.registry();
      positions = registry.storage(Position_Traits.TYPE);
      velocities = registry.storage(Velocity_Traits.TYPE);
      lifetimes = registry.storage(Lifetime_Traits.TYPE);
      comets = registry.storage(Comet_Traits.TYPE);
      attachments = registry.storage(Attachment_Traits.TYPE);
      victims = new long[registry.alive() / 100];
      random = new SplittableRandom(7);
    }

    /** Not timed: 1% of the live roots that are neither comets nor tails, distinct. */
    @Setup(Level.Invocation)
    public void choose() {
      final long[] packed = registry.entities().packed();
      final int alive = registry.alive();
      taken.clear();
      int chosen = 0;
      while (chosen < victims.length) {
        final int position = random.nextInt(alive);
        final long e = packed[position];
        if (comets.contains(e) || attachments.contains(e) || taken.get(position)) {
          continue;
        }
        taken.set(position);
        victims[chosen++] = e;
      }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      System.err.printf("%ncore floor: %,d entities churned per call%n", victims.length);
    }
  }

  /** A world nothing changes, and a preallocated array for its snapshot. */
  @State(Scope.Benchmark)
  public static class Full {
    @Param("1000000")
    int roots;

    World world;
    ExampleWorldSnapshot.Sink sink;

    @Setup(Level.Trial)
    public void setup() throws IOException {
      world = exampleWorld(roots);
      sink = new ExampleWorldSnapshot.Sink(snapshotSize(world));
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      world.close();
    }
  }

  @Benchmark
  public int deltaWrite(final WriteTick tick) {
    final int length = tick.writer.write();
    tick.written = length;
    tick.deltaBytes += length;
    tick.deltas++;
    return length;
  }

  @Benchmark
  public int deltaApply(final ApplyTick tick) throws IOException {
    tick.replica.apply(tick.writer.bytes(), tick.written);
    return tick.written;
  }

  @Benchmark
  public int coreFloor(final Floor floor) {
    final Registry registry = floor.registry;
    final long[] victims = floor.victims;
    for (int i = 0; i < victims.length; i++) {
      registry.destroy(victims[i]);
      final long born = registry.create();
      floor.positions.emplace(born, 0.5f, 0.25f);
      floor.velocities.emplace(born, 0f, 0f);
      floor.lifetimes.emplace(born, 100);
    }
    return registry.alive();
  }

  @Benchmark
  public long fullSaveAndLoad(final Full full) throws IOException {
    full.sink.reset();
    full.world.save(full.sink);
    try (World loaded = World.load(ByteBuffer.wrap(full.sink.bytes, 0, full.sink.size), 1, 100)) {
      return loaded.registry().alive();
    }
  }
}
