package dev.phalanx.examples.queries;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Registry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The generated {@code eachInOrder}: a typed walk from position 0, in a sort's order, with cursors
 * on each member, checked against a sorted model list; structural changes refused meanwhile.
 */
class InOrderTest {

  @Test
  void aNonOwningQueryWalksItsMembersInTheSortsOrderWithCursors() {
    final Registry registry = new Registry();
    final DrawnQuery drawn = DrawnQuery.of(registry);
    final Position_Storage positions = drawn.positionStorage();
    final Random random = new Random(5);
    final List<Long> model = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      final long e = registry.create();
      positions.emplace(e, random.nextFloat(), i);
      model.add(e);
    }
    drawn.sortByFloatKey(positions::x);
    model.sort(Comparator.comparingDouble(positions::x));
    final List<Long> order = new ArrayList<>();
    final float[] last = {Float.NEGATIVE_INFINITY};
    drawn.eachInOrder(
        (entity, position) -> {
          assertEquals(positions.x(entity), position.x(), "the cursor is on the entity");
          assertTrue(position.x() >= last[0], "ascending keys");
          last[0] = position.x();
          position.setY(-position.y()); // writing values is allowed
          order.add(entity);
        });
    assertEquals(model, order);
    for (int i = 0; i < model.size(); i++) {
      assertTrue(positions.y(model.get(i)) <= 0f, "every member was written");
    }
    assertTrue(registry.verify().isEmpty());
  }

  @Test
  void anOwningQueryWalksForwardAndRefusesStructuralChangesAndNesting() {
    final Registry registry = new Registry();
    final MoversQuery movers = MoversQuery.of(registry);
    final Position_Storage positions = movers.positionStorage();
    final Velocity_Storage velocities = movers.velocityStorage();
    final List<Long> created = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      final long e = registry.create();
      positions.emplace(e, 100 - i, 0f);
      velocities.emplace(e, i, 0f);
      created.add(e);
    }
    movers.sortByPosition((l, r) -> Float.compare(positions.xAt(l), positions.xAt(r)));
    final List<Long> forward = new ArrayList<>();
    movers.eachInOrder((entity, position, velocity) -> forward.add(entity));
    final List<Long> backward = new ArrayList<>();
    movers.each((entity, position, velocity) -> backward.add(0, entity));
    assertEquals(backward, forward, "eachInOrder is each's walk reversed");
    assertEquals(created.get(99), forward.get(0), "smallest x first");

    assertThrows(
        ConcurrentModificationException.class,
        () -> movers.eachInOrder((entity, position, velocity) -> registry.destroy(entity)));
    assertThrows(
        IllegalStateException.class,
        () ->
            movers.eachInOrder(
                (entity, position, velocity) -> movers.eachInOrder((inner, p, v) -> {})));
    assertEquals(100, movers.size(), "nothing was destroyed");
    // The query is usable again after both refusals.
    final int[] visits = {0};
    movers.eachInOrder((entity, position, velocity) -> visits[0]++);
    assertEquals(100, visits[0]);
    assertTrue(registry.verify().isEmpty());
  }

  @Test
  void aVisitorThatThrowsAtItsKthCallLeavesTheQueryAndTheGroupUsable() {
    final Registry registry = new Registry();
    final MoversQuery movers = MoversQuery.of(registry);
    for (int i = 0; i < 8; i++) {
      final long e = registry.create();
      movers.positionStorage().emplace(e, i, 0f);
      movers.velocityStorage().emplace(e, 1f, 0f);
    }
    for (int k = 1; k <= 8; k++) {
      final int failAt = k;
      final int[] calls = {0};
      final IllegalStateException thrown =
          assertThrows(
              IllegalStateException.class,
              () ->
                  movers.eachInOrder(
                      (entity, position, velocity) -> {
                        if (++calls[0] == failAt) {
                          throw new IllegalStateException("body " + failAt);
                        }
                      }));
      assertEquals("body " + failAt, thrown.getMessage());
      // The locks are released: a structural change goes through, and is undone.
      final long extra = registry.create();
      movers.positionStorage().emplace(extra, 0f, 0f);
      movers.velocityStorage().emplace(extra, 0f, 0f);
      registry.destroy(extra);
      final int[] visits = {0};
      movers.eachInOrder((entity, position, velocity) -> visits[0]++);
      assertEquals(8, visits[0], "after a throw at call " + failAt);
      assertTrue(registry.verify().isEmpty());
    }
  }

  @Test
  void aWarmWalkAllocatesNothing() {
    final Registry registry = new Registry();
    final MoversQuery movers = MoversQuery.of(registry);
    for (int i = 0; i < 1_000; i++) {
      final long e = registry.create();
      movers.positionStorage().emplace(e, i, 0f);
      movers.velocityStorage().emplace(e, 1f, 0f);
    }
    final MoversQuery.Visitor step =
        (entity, position, velocity) -> position.setX(position.x() + velocity.x());
    for (int i = 0; i < 5_000; i++) {
      movers.eachInOrder(step);
    }
    assertEquals(0L, Allocations.allocatedBy(() -> movers.eachInOrder(step)));
  }
}
