package dev.phalanx.examples;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.storage.ObjectStorage;
import dev.phalanx.ecs.view.View;
import java.util.SplittableRandom;

/** A small simulation on the runtime alone: particles move, some die and are replaced each frame. */
public final class Simulation {

  /** A mutable position. */
  public static final class Position {
    float x;
    float y;

    Position(final float x, final float y) {
      this.x = x;
      this.y = y;
    }
  }

  /** A velocity. */
  public record Velocity(float dx, float dy) {}

  static final ComponentType<Position, ObjectStorage<Position>> POSITION = ComponentType.object(Position.class);
  static final ComponentType<Velocity, ObjectStorage<Velocity>> VELOCITY = ComponentType.object(Velocity.class);

  private Simulation() {}

  /** Runs the simulation; prints a summary. */
  public static void main(final String[] args) {
    final int count = 100_000;
    final int frames = 100;
    final Registry registry = new Registry();
    final ObjectStorage<Position> positions = registry.storage(POSITION);
    final ObjectStorage<Velocity> velocities = registry.storage(VELOCITY);
    final SplittableRandom random = new SplittableRandom(42);
    for (int i = 0; i < count; i++) {
      spawn(registry, random);
    }
    final View moving = registry.view(POSITION, VELOCITY);
    final float dt = 1f / 60f;
    final long start = System.nanoTime();
    int destroyed = 0;
    for (int frame = 0; frame < frames; frame++) {
      moving.each(e -> {
        final Position p = positions.get(e);
        final Velocity v = velocities.get(e);
        p.x += v.dx() * dt;
        p.y += v.dy() * dt;
      });
      // Destroy one entity in a hundred, and replace it.
      final long[] victims = new long[count / 100];
      for (int i = 0; i < victims.length; i++) {
        victims[i] = positions.at(random.nextInt(positions.size()));
        if (!registry.valid(victims[i])) {
          victims[i] = registry.create();
        }
      }
      for (final long victim : victims) {
        if (registry.valid(victim)) {
          registry.destroy(victim);
          destroyed++;
          spawn(registry, random);
        }
      }
    }
    final double millis = (System.nanoTime() - start) / 1e6;
    final double[] centroid = new double[2];
    moving.each(e -> {
      centroid[0] += positions.get(e).x;
      centroid[1] += positions.get(e).y;
    });
    System.out.printf("Phalanx example: %d entities, %d frames, %d destroyed and respawned%n",
        registry.alive(), frames, destroyed);
    System.out.printf("centroid (%.3f, %.3f), %.2f ms per frame%n",
        centroid[0] / registry.alive(), centroid[1] / registry.alive(), millis / frames);
  }

  private static void spawn(final Registry registry, final SplittableRandom random) {
    final long e = registry.create();
    registry.emplace(e, POSITION, new Position((float) random.nextDouble(100), (float) random.nextDouble(100)));
    registry.emplace(e, VELOCITY, new Velocity((float) random.nextDouble(-1, 1), (float) random.nextDouble(-1, 1)));
  }
}
