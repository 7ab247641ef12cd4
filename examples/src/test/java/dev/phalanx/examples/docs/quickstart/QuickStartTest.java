package dev.phalanx.examples.docs.quickstart;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.phalanx.ecs.Registry;
import org.junit.jupiter.api.Test;

/** The README's example, compiled and run. */
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
    // end::world[]
    final long asleep = registry.create();
    positions.emplace(asleep, -1f, 0f);
    velocities.emplace(asleep, 1f, 2f);
    registry.storage(Asleep_Traits.TYPE).emplace(asleep); // a tag that Moving excludes

    // tag::system[]
    final MovingQuery moving = MovingQuery.of(registry);
    final float dt = 1f / 60f;
    moving.eachChunk( // a page of every field and a range: a plain loop that the JIT vectorizes
        (from, to, x, y, dx, dy) -> {
          for (int i = from; i < to; i++) {
            x[i] += dx[i] * dt;
            y[i] += dy[i] * dt;
          }
        });
    moving.each((entity, position, velocity) -> position.setY(position.y() + velocity.dy() * dt));
    // end::system[]

    final long first = moving.group().entityAt(0);
    assertEquals(2f * 2f * dt, positions.y(first), 1e-6f);
    assertEquals(10_000, moving.size());
    assertEquals(-1f, positions.x(asleep));
  }
}
