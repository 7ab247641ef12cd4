package dev.phalanx.examples;

import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.inspector.Inspector;
import dev.phalanx.ecs.schedule.SystemFailedException;
import dev.phalanx.examples.particles.Options;
import dev.phalanx.examples.particles.Renderer;
import dev.phalanx.examples.particles.Replication;
import dev.phalanx.examples.particles.Storages;
import dev.phalanx.examples.particles.World;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs the particle world headless for a fixed number of frames, prints progress and a table of
 * time per system per frame, and writes a picture of the final state. {@code --help} lists the
 * options.
 *
 * <p>From the repository root: {@code mvn -q install -DskipTests && mvn -q -pl examples exec:java},
 * with options as {@code -Dexec.args="--entities 200000 --frames 50 --seed 7"}.
 */
public final class Simulation {

  private Simulation() {}

  /** Parses the options, runs the world and reports. */
  public static void main(final String[] args) throws IOException {
    final Options options;
    try {
      options = Options.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.err.println();
      System.err.println(Options.USAGE);
      System.exit(2);
      return;
    }
    if (options.help()) {
      System.out.println(Options.USAGE);
      return;
    }
    run(options);
  }

  private static void run(final Options options) throws IOException {
    System.out.printf(
        Locale.ROOT,
        "Phalanx particles: %,d roots, %d frames, seed %d, %d thread(s)%n",
        options.entities(),
        options.frames(),
        options.seed(),
        options.threads());
    final long setupStart = System.nanoTime();
    try (World world = open(options);
        Inspector inspector = inspect(world, options)) {
      System.out.printf(
          Locale.ROOT,
          "%s %,d entities in %.0f ms%n",
          null == options.load() ? "created" : "loaded",
          world.registry().alive(),
          (System.nanoTime() - setupStart) / 1e6);
      final long runStart = System.nanoTime();
      final int every = Math.max(1, options.frames() / 10);
      final Replication replication =
          options.replica()
              ? new Replication(
                  world, options.clients(), options.seed(), options.loss(), options.reorder())
              : null;
      for (int frame = 1; frame <= options.frames(); frame++) {
        try {
          world.step();
        } catch (SystemFailedException e) {
          if (null == inspector) {
            throw e;
          }
          inspector.systemFailed(e); // the world is consistent: pause, show it, keep serving
        }
        if (null != inspector) {
          inspector.serve(); // between frames: the calls that arrived run here
        }
        if (null != replication) {
          replication.frame(frame);
        }
        if (null != options.save() && frame == options.saveAt()) {
          try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(options.save()))) {
            world.save(out);
          }
          System.out.println("saved " + options.save() + " after frame " + frame);
        }
        if (0 == frame % every || frame == options.frames()) {
          progress(world, frame, options.frames(), runStart);
        }
      }
      System.out.println();
      System.out.println("Time per system per frame:");
      System.out.println();
      System.out.print(world.times().table());
      System.out.println();
      System.out.printf(
          Locale.ROOT,
          "%,d roots died and respawned, %,d comet tail particles went with them%n",
          world.lifetime().destroyedRoots(),
          world.lifetime().destroyedChildren());
      System.out.printf("checksum %016x%n", world.checksum());
      if (null != replication) {
        System.out.printf(
            Locale.ROOT,
            "replication over a link dropping %.0f%% and holding back %.0f%% of datagrams"
                + " (a full snapshot of the world: %,d bytes):%n",
            100 * options.loss(),
            100 * options.reorder(),
            fullSnapshotBytes(world));
        System.out.print(replication.report(options.frames()));
        replication.close();
      }
      new Renderer(options.imageSize()).write(world, options.out());
      System.out.println("picture: " + options.out());
      if (null != inspector) {
        keepServing(inspector);
      }
    }
  }

  /** Attaches the live inspector when {@code --inspect} asks for it; prints its address. */
  private static Inspector inspect(final World world, final Options options) throws IOException {
    if (options.inspect() < 0) {
      return null;
    }
    final Storages storages = world.storages();
    return Inspector.builder(world.registry())
        .schedule(world.schedule())
        // Names for the page: comets by index, their tails after their head.
        .names(
            entity -> {
              if (storages.comets.contains(entity)) {
                return "comet " + Entity.index(entity);
              }
              final long head = storages.tails.target(entity);
              return Entity.isNull(head) ? null : "tail of comet " + Entity.index(head);
            })
        .view("followers", world.followers().view())
        .view("sparks", world.sparks().view())
        .port(options.inspect())
        .start();
  }

  /**
   * Serves the inspector about 60 times a second, the world paused, until Enter (or end of input).
   */
  private static void keepServing(final Inspector inspector) {
    System.out.println("The inspector stays open at " + inspector.pageAddress());
    System.out.println("Press Enter to quit.");
    final AtomicBoolean quit = new AtomicBoolean();
    final Thread input =
        new Thread(
            () -> {
              try {
                int c = System.in.read();
                while (c >= 0 && '\n' != c) {
                  c = System.in.read();
                }
              } catch (IOException e) {
                // No input to wait for: quit.
              }
              quit.set(true);
            },
            "stdin");
    input.setDaemon(true);
    input.start();
    while (!quit.get()) {
      inspector.serve();
      LockSupport.parkNanos(16_000_000L);
    }
  }

  private static long fullSnapshotBytes(final World world) throws IOException {
    final CountingStream counter = new CountingStream();
    world.save(counter);
    return counter.count;
  }

  /** Counts what is written to it. */
  private static final class CountingStream extends OutputStream {
    long count;

    @Override
    public void write(final int b) {
      count++;
    }

    @Override
    public void write(final byte[] bytes, final int offset, final int length) {
      count += length;
    }
  }

  private static World open(final Options options) throws IOException {
    if (null == options.load()) {
      return new World(options.entities(), options.seed(), options.threads(), options.frames());
    }
    // Read whole, then loaded in place: no stream buffer in between.
    final ByteBuffer snapshot = ByteBuffer.wrap(Files.readAllBytes(options.load()));
    return World.load(snapshot, options.threads(), options.frames());
  }

  private static void progress(
      final World world, final int frame, final int frames, final long runStart) {
    final double elapsed = (System.nanoTime() - runStart) / 1e9;
    System.out.printf(
        Locale.ROOT,
        "frame %4d/%d  %,10d entities  %,9d moving  %6.2f ms/frame  %5.1f s%n",
        frame,
        frames,
        world.registry().alive(),
        world.movers().size(),
        world.times().meanFrameMillis(),
        elapsed);
  }
}
