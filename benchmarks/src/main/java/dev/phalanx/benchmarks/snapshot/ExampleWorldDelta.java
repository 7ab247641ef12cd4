package dev.phalanx.benchmarks.snapshot;

import dev.phalanx.ecs.DeltaWriter;
import dev.phalanx.ecs.Registry;
import dev.phalanx.examples.particles.Replica;
import dev.phalanx.examples.particles.Storages;
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
 * frames, as {@link ExampleWorldSnapshot}), with 1% of its entities changed per tick:
 *
 * <ul>
 *   <li>{@link #deltaWriteAndApply}: before each call (not timed) 1% of the live entities, roots
 *       that are neither comets nor tails, die and as many new roots are born with a position, a
 *       velocity and a lifetime, as the example's own deaths and spawns do; the call writes the
 *       delta since the previous call ({@link DeltaWriter}, the replica's types, no type opted in
 *       to {@code everyValue}) and applies it to a replica ({@link Replica}) that holds the
 *       previous tick;
 *   <li>{@link #fullSaveAndLoad}: what a full snapshot costs for the same tick: the example's
 *       {@code World.save} into a preallocated array, then {@code World.load} of it in place into a
 *       new world.
 * </ul>
 *
 * The example world's components are untracked, so the changes a delta can see in it are
 * structural; in-place writes to untracked components reach a replica only through {@code
 * everyValue} (whole storages) or tracking. Teardown prints the average delta size and the full
 * snapshot's. Times per tick.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class ExampleWorldDelta {

  @Param("1000000")
  int roots;

  World world;
  Replica replica;
  DeltaWriter writer;
  ExampleWorldSnapshot.Sink sink;
  SplittableRandom random;
  long deltaBytes;
  long deltas;
  int changedPerTick;
  int fullBytes;

  @Setup(Level.Trial)
  public void setup() throws IOException {
    world = new World(roots, 42, 1, 100);
    for (int frame = 0; frame < 20; frame++) {
      world.step();
    }
    final ExampleWorldSnapshot.Sink probe = new ExampleWorldSnapshot.Sink(1 << 30);
    world.save(probe);
    fullBytes = probe.size;
    sink = new ExampleWorldSnapshot.Sink(2 * fullBytes);
    replica = new Replica();
    writer = Replica.writerOfChanges(world);
    final int first = writer.write(); // write first: it may grow the array bytes() returns
    replica.apply(writer.bytes(), first); // the replica now holds the world
    random = new SplittableRandom(7);
    changedPerTick = world.registry().alive() / 100;
    System.err.printf(
        "%nexample world: %,d entities, full snapshot %,d bytes; %,d entities changed per tick%n",
        world.registry().alive(), fullBytes, changedPerTick);
  }

  /** Not timed: 1% of the live entities die and as many are born. */
  @Setup(Level.Invocation)
  public void change() {
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

  @TearDown(Level.Trial)
  public void tearDown() {
    if (0 != deltas) {
      System.err.printf(
          "%naverage delta %,d bytes (%.3f%% of the full snapshot's %,d), replica checksum %s%n",
          deltaBytes / deltas,
          100.0 * deltaBytes / deltas / fullBytes,
          fullBytes,
          replica.checksum() == world.checksum() ? "equal" : "DIFFERENT");
    }
    writer.close();
    world.close();
  }

  @Benchmark
  public int deltaWriteAndApply() throws IOException {
    final int length = writer.write();
    replica.apply(writer.bytes(), length);
    deltaBytes += length;
    deltas++;
    return length;
  }

  @Benchmark
  public long fullSaveAndLoad() throws IOException {
    sink.reset();
    world.save(sink);
    try (World loaded = World.load(ByteBuffer.wrap(sink.bytes, 0, sink.size), 1, 100)) {
      return loaded.registry().alive();
    }
  }
}
