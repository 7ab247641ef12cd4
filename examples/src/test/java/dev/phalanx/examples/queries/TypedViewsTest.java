package dev.phalanx.examples.queries;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Cursor;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.View;
import dev.phalanx.ecs.View2;
import dev.phalanx.ecs.View3;
import dev.phalanx.ecs.command.CommandBuffer;
import java.util.ConcurrentModificationException;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Typed runtime views over generated components ({@code registry.typedView(A_Traits.TYPE, ...)})
 * against the generated queries of the same declarations, and the entity forms of the generated
 * chunk loops.
 *
 * <p>Entity {@code i} has a position {@code (i, -i)}; a velocity {@code (1, i % 7)} unless {@code i
 * % 5 == 0}; a mass {@code i} if {@code i % 3 == 0}; and is frozen if {@code i % 11 == 0}.
 */
class TypedViewsTest {

  private static final int N = 5_000;

  private static volatile Object sink;

  private final Registry registry = new Registry();
  private final long[] entities = new long[N];
  private Position_Storage positions;
  private Velocity_Storage velocities;
  private Frozen_Storage frozen;

  @BeforeEach
  void populate() {
    positions = registry.storage(Position_Traits.TYPE);
    velocities = registry.storage(Velocity_Traits.TYPE);
    final Mass_Storage masses = registry.storage(Mass_Traits.TYPE);
    frozen = registry.storage(Frozen_Traits.TYPE);
    for (int i = 0; i < N; i++) {
      final long e = registry.create();
      entities[i] = e;
      positions.emplace(e, i, -i);
      if (0 != i % 5) {
        velocities.emplace(e, 1, i % 7);
      }
      if (0 == i % 3) {
        masses.emplace(e, i);
      }
      if (0 == i % 11) {
        frozen.emplace(e);
      }
    }
  }

  private float[] positionsX() {
    final float[] xs = new float[N];
    for (int i = 0; i < N; i++) {
      xs[i] = positions.x(entities[i]);
    }
    return xs;
  }

  @Test
  void aTypedViewMovesExactlyLikeTheGeneratedViewOfTheSameTypes() {
    // The same arithmetic over plain arrays.
    final float[] expected = positionsX();
    for (int i = 0; i < N; i++) {
      if (0 != i % 5 && 0 != i % 11) {
        expected[i] += 1;
      }
    }
    final View2<Position_Cursor, Velocity_Cursor> movers =
        registry.typedView(Position_Traits.TYPE, Velocity_Traits.TYPE).exclude(frozen);
    final Set<Long> seen = new HashSet<>();
    movers.each(
        (entity, position, velocity) -> {
          assertTrue(seen.add(entity), "visited twice");
          assertEquals(entity, position.currentEntity());
          assertEquals(entity, velocity.currentEntity());
          position.setX(position.x() + velocity.x());
        });
    assertArrayEquals(expected, positionsX());
    assertEquals(movers.sizeHint() - countFrozenMovers(), seen.size());
  }

  private int countFrozenMovers() {
    int n = 0;
    for (int i = 0; i < N; i++) {
      if (0 != i % 5 && 0 == i % 11) {
        n++;
      }
    }
    return n;
  }

  @Test
  void threeTypesHandThreeCursorsInArgumentOrder() {
    final View3<Mass_Cursor, Position_Cursor, Velocity_Cursor> view =
        registry.typedView(Mass_Traits.TYPE, Position_Traits.TYPE, Velocity_Traits.TYPE);
    final int[] visits = {0};
    view.each(
        (entity, mass, position, velocity) -> {
          assertEquals(mass.value(), position.x());
          assertEquals(-position.x(), position.y());
          assertEquals(((int) position.x()) % 7, velocity.y());
          visits[0]++;
        });
    int expected = 0;
    for (int i = 0; i < N; i++) {
      if (0 == i % 3 && 0 != i % 5) {
        expected++;
      }
    }
    assertEquals(expected, visits[0]);
  }

  @Test
  void generatedCursorsAreRuntimeCursorsAndStoragesAreTheirSources() {
    final Position_Cursor cursor = positions.cursor();
    final Cursor base = cursor;
    assertEquals(-1, base.currentPosition());
    cursor.moveToEntity(entities[3]);
    assertEquals(positions.index(entities[3]), base.currentPosition());
    // A typed view is a plain View too, so code written against View keeps working.
    final View plain = registry.typedView(Position_Traits.TYPE, Velocity_Traits.TYPE);
    final long[] count = {0};
    plain.each((long e) -> count[0]++);
    assertEquals(velocities.size(), count[0]);
  }

  @Test
  void destroyingTheVisitedEntityIsAllowed() {
    final View2<Position_Cursor, Velocity_Cursor> view =
        registry.typedView(Position_Traits.TYPE, Velocity_Traits.TYPE);
    final int[] destroyed = {0};
    view.each(
        (entity, position, velocity) -> {
          if (velocity.y() == 0) {
            registry.destroy(entity);
            destroyed[0]++;
          }
        });
    assertTrue(destroyed[0] > 0);
    view.each((entity, position, velocity) -> assertFalse(velocity.y() == 0));
    assertTrue(registry.verify().isEmpty(), registry.verify().toString());
  }

  @Test
  void movingAnUnvisitedEntityAcrossTheFloorIsRefused() {
    final View2<Position_Cursor, Velocity_Cursor> view =
        registry.typedView(Position_Traits.TYPE, Velocity_Traits.TYPE);
    assertSame(velocities, view.leader());
    final long lastVisited = velocities.packed()[0];
    final ConcurrentModificationException refused =
        assertThrows(
            ConcurrentModificationException.class,
            () ->
                view.each(
                    (entity, position, velocity) -> {
                      if (entity != lastVisited) {
                        registry.destroy(lastVisited);
                      }
                    }));
    assertTrue(registry.valid(lastVisited), refused.getMessage());
    assertFalse(velocities.isIterated());
  }

  @Test
  void nestingTheSameViewObjectIsRefusedButTwoViewObjectsNest() {
    final View2<Position_Cursor, Velocity_Cursor> outer =
        registry.typedView(Position_Traits.TYPE, Velocity_Traits.TYPE);
    final View2<Position_Cursor, Velocity_Cursor> inner =
        registry.typedView(Position_Traits.TYPE, Velocity_Traits.TYPE);
    final long first = velocities.packed()[velocities.size() - 1];
    final IllegalStateException refused =
        assertThrows(
            IllegalStateException.class,
            () -> outer.each((e, p, v) -> outer.each((e2, p2, v2) -> {})));
    assertTrue(refused.getMessage().contains("already iterating"), refused.getMessage());
    final int[] pairs = {0};
    outer.each(
        (e, p, v) -> {
          if (e == first) {
            inner.each(
                (e2, p2, v2) -> {
                  assertNotSame(p, p2);
                  pairs[0]++;
                });
            assertEquals(e, p.currentEntity(), "the outer cursor did not move");
          }
        });
    assertEquals(velocities.size(), pairs[0]);
  }

  @Test
  void entityChunksOfAGeneratedQueryHandTheEntityOfEveryOffset() {
    final MoversQuery movers = MoversQuery.of(registry);
    final Set<Long> seen = new HashSet<>();
    movers.eachChunk(
        (entities, pageStart, from, to, positionX, positionY, velocityX, velocityY) -> {
          for (int i = from; i < to; i++) {
            final long entity = entities[pageStart + i];
            assertTrue(movers.contains(entity));
            assertEquals(positions.x(entity), positionX[i]);
            assertEquals(velocities.y(entity), velocityY[i]);
            assertTrue(seen.add(entity));
          }
        });
    assertEquals(movers.size(), seen.size());
  }

  @Test
  void oneChunkPassRecordsTheDestructionOfWhatItFinds() {
    final MoversQuery movers = MoversQuery.of(registry);
    final CommandBuffer commands = new CommandBuffer(registry);
    movers.eachChunk(
        (entities, pageStart, from, to, positionX, positionY, velocityX, velocityY) -> {
          for (int i = from; i < to; i++) {
            if (velocityY[i] == 0) {
              commands.destroy(entities[pageStart + i]);
            }
          }
        });
    final int before = movers.size();
    commands.apply();
    int destroyed = 0;
    for (int i = 0; i < N; i++) {
      final boolean mover = 0 != i % 5 && 0 != i % 11;
      if (mover && 0 == i % 7) {
        assertFalse(registry.valid(entities[i]), "entity " + i);
        destroyed++;
      } else {
        assertTrue(registry.valid(entities[i]), "entity " + i);
      }
    }
    assertEquals(before - destroyed, movers.size());
    final Set<Long> parallel = java.util.concurrent.ConcurrentHashMap.newKeySet();
    movers.parallelEachChunk(
        (entities, pageStart, from, to, positionX, positionY, velocityX, velocityY) -> {
          for (int i = from; i < to; i++) {
            parallel.add(entities[pageStart + i]);
          }
        });
    assertEquals(movers.size(), parallel.size());
  }

  @Test
  void typedEachAndEntityChunksAllocateNothing() {
    final View2<Position_Cursor, Velocity_Cursor> two =
        registry.typedView(Position_Traits.TYPE, Velocity_Traits.TYPE).exclude(frozen);
    final View3<Position_Cursor, Velocity_Cursor, Mass_Cursor> three =
        registry.typedView(Position_Traits.TYPE, Velocity_Traits.TYPE, Mass_Traits.TYPE);
    final MoversQuery movers = MoversQuery.of(registry);
    final View2.Visitor<Position_Cursor, Velocity_Cursor> move =
        (entity, position, velocity) -> position.setX(position.x() + velocity.x());
    final View3.Visitor<Position_Cursor, Velocity_Cursor, Mass_Cursor> weigh =
        (entity, position, velocity, mass) -> position.setY(mass.value() + velocity.y());
    final float[] total = {0};
    final MoversQuery.EntityChunk sum =
        (entities, pageStart, from, to, positionX, positionY, velocityX, velocityY) -> {
          for (int i = from; i < to; i++) {
            total[0] += positionX[i] + (entities[pageStart + i] & 1);
          }
        };
    for (int i = 0; i < 300; i++) {
      two.each(move);
      three.each(weigh);
      movers.eachChunk(sum);
    }
    assertTrue(
        Allocations.allocatedBy(() -> sink = new long[16]) > 0, "the probe sees allocations");
    assertEquals(0, Allocations.allocatedBy(() -> two.each(move)), "View2.each");
    assertEquals(0, Allocations.allocatedBy(() -> three.each(weigh)), "View3.each");
    assertEquals(
        0,
        Allocations.allocatedBy(() -> movers.eachChunk(sum)),
        "MoversQuery.eachChunk(EntityChunk)");
  }
}
