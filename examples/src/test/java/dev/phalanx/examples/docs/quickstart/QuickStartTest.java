package dev.phalanx.examples.docs.quickstart;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.phalanx.ecs.Registry;
import org.junit.jupiter.api.Test;

/** The README's quick start, compiled and run. */
class QuickStartTest {

  @Test
  void quickStart() {
    // tag::world[]
    final Registry registry = new Registry();
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    final Velocity_Storage velocities = registry.storage(Velocity_Traits.TYPE);
    for (int i = 0; i < 10_000; i++) {
      final long e = registry.create();
      positions.emplace(e, i, 0f); // no Position object is allocated
      velocities.emplace(e, 1f, 2f);
    }
    registry.storage(Asleep_Traits.TYPE).emplace(registry.create());
    // end::world[]

    // tag::system[]
    final MovingQuery moving = MovingQuery.of(registry);
    final float dt = 1f / 60f;
    // Owned storages are aligned: each run hands out one page of every field.
    final MovingQuery.Chunk integrate =
        (from, to, x, y, dx, dy) -> {
          for (int i = from; i < to; i++) {
            x[i] += dx[i] * dt;
            y[i] += dy[i] * dt;
          }
        };
    moving.eachChunk(integrate); // or parallelEachChunk(integrate)
    moving.each(
        (entity, position, velocity) -> // per entity, with reused cursors
        position.setY(position.y() + velocity.dy() * dt));
    // end::system[]

    final long first = moving.group().entityAt(0);
    assertEquals(2f * 2f * dt, positions.y(first), 1e-6f);
    assertEquals(10_000, moving.size());
  }
}
