package dev.phalanx.examples.queries;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import java.util.ConcurrentModificationException;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The generated queries against plain arrays: every iteration form (per entity, per chunk, parallel
 * chunks) of every query kind (owning, nested owning, non-owning, view) visits exactly the expected
 * entities and computes exactly what the same arithmetic over plain {@code float[]} computes.
 *
 * <p>Entity {@code i} has a position {@code (i, -i)}; a velocity unless {@code i % 5 == 0}; a mass
 * {@code i} if {@code i % 3 == 0}; an anchor if {@code i % 4 == 0}; and is frozen if {@code i % 11
 * == 0}.
 */
class QueriesTest {

  private static final int N = 40_000;

  /**
   * Where the allocation probe's self-check stores what it allocates, so that it is not optimized
   * away.
   */
  private static volatile Object sink;

  private final Registry registry = new Registry();
  private final long[] entities = new long[N];
  private final float[] x = new float[N];
  private final float[] y = new float[N];
  private final float[] vx = new float[N];
  private final float[] vy = new float[N];
  private final boolean[] frozen = new boolean[N];
  private final boolean[] hasVelocity = new boolean[N];

  private Position_Storage positions;

  @BeforeEach
  void populate() {
    positions = registry.storage(Position_Traits.TYPE);
    final Velocity_Storage velocities = registry.storage(Velocity_Traits.TYPE);
    final Mass_Storage masses = registry.storage(Mass_Traits.TYPE);
    final Anchor_Storage anchors = registry.storage(Anchor_Traits.TYPE);
    for (int i = 0; i < N; i++) {
      final long entity = registry.create();
      entities[i] = entity;
      x[i] = i;
      y[i] = -i;
      positions.emplace(entity, x[i], y[i]);
      if (0 != i % 5) {
        hasVelocity[i] = true;
        vx[i] = (i % 13) * 0.5f;
        vy[i] = (i % 7) - 3.25f;
        velocities.emplace(entity, vx[i], vy[i]);
      }
      if (0 == i % 3) {
        masses.emplace(entity, i);
      }
      if (0 == i % 4) {
        anchors.emplace(entity, i);
      }
      if (0 == i % 11) {
        frozen[i] = true;
        registry.emplace(entity, Frozen_Traits.TYPE, new Frozen());
      }
    }
  }

  // -----------------------------------------------------------------------------------------------
  // Owning group.
  // -----------------------------------------------------------------------------------------------

  @Test
  void eachMovesExactlyLikePlainArrays() {
    final MoversQuery movers = MoversQuery.of(registry);
    final boolean[] visited = new boolean[N];
    for (int step = 0; step < 3; step++) {
      movers.each(
          (entity, position, velocity) -> {
            visited[Entity.index(entity)] = true;
            position.setX(position.x() + velocity.x());
            position.setY(position.y() + velocity.y());
          });
      stepArrays();
    }
    assertArrayEquals(expectedMovers(), visited);
    assertPositions();
  }

  @Test
  void eachChunkMovesExactlyLikePlainArrays() {
    final MoversQuery movers = MoversQuery.of(registry);
    for (int step = 0; step < 3; step++) {
      movers.eachChunk(QueriesTest::move);
      stepArrays();
    }
    assertPositions();
  }

  @Test
  void parallelEachChunkMovesExactlyLikePlainArrays() {
    final MoversQuery movers = MoversQuery.of(registry);
    movers.parallelEachChunk(QueriesTest::move);
    stepArrays();
    final ForkJoinPool pool = new ForkJoinPool(3);
    try {
      movers.parallelEachChunk(pool, QueriesTest::move);
      stepArrays();
    } finally {
      pool.shutdown();
    }
    assertPositions();
  }

  @Test
  void chunksCoverTheGroupOncePageByPage() {
    final MoversQuery movers = MoversQuery.of(registry);
    final int[] covered = {0};
    movers.eachChunk(
        (from, to, positionX, positionY, velocityX, velocityY) -> {
          assertTrue(0 <= from && from < to && to <= positionX.length, from + ".." + to);
          assertEquals(positions.pageSize(), positionX.length);
          covered[0] += to - from;
        });
    assertEquals(movers.size(), covered[0]);
    assertEquals(count(expectedMovers()), movers.size());
  }

  @Test
  void groupFollowsChangesAndHonoursExclusions() {
    // Created before any change, then kept up to date by signals.
    final MoversQuery movers = MoversQuery.of(registry);
    registry.emplace(entities[1], Frozen_Traits.TYPE, new Frozen());
    frozen[1] = true;
    registry.remove(entities[11], Frozen_Traits.TYPE);
    frozen[11] = false;
    registry.remove(entities[2], Velocity_Traits.TYPE);
    hasVelocity[2] = false;
    assertFalse(movers.contains(entities[1]));
    assertTrue(movers.contains(entities[11]));
    movers.eachChunk(QueriesTest::move);
    stepArrays();
    assertPositions();
    final boolean[] visited = new boolean[N];
    movers.each((entity, position, velocity) -> visited[Entity.index(entity)] = true);
    assertArrayEquals(expectedMovers(), visited);
  }

  @Test
  void nestedGroupsIterateTheirOwnMembers() {
    final MoversQuery movers = MoversQuery.of(registry);
    final HeavyMoversQuery heavy = HeavyMoversQuery.of(registry);
    final boolean[] expected = expectedMovers();
    for (int i = 0; i < N; i++) {
      expected[i] &= 0 == i % 3;
    }
    final boolean[] visited = new boolean[N];
    heavy.each(
        (entity, position, velocity, mass) -> {
          visited[Entity.index(entity)] = true;
          assertEquals(Entity.index(entity), mass.value());
        });
    assertArrayEquals(expected, visited);
    // Heavy movers move twice as far: a chunk over the nested group's prefix, then all movers.
    heavy.eachChunk(
        (from, to, positionX, positionY, velocityX, velocityY, massValue) -> {
          for (int i = from; i < to; i++) {
            positionX[i] += velocityX[i];
            positionY[i] += velocityY[i];
          }
        });
    for (int i = 0; i < N; i++) {
      if (expected[i]) {
        x[i] += vx[i];
        y[i] += vy[i];
      }
    }
    movers.eachChunk(QueriesTest::move);
    stepArrays();
    assertPositions();
  }

  @Test
  void structuralChangesDuringChunksAreRefused() {
    final MoversQuery movers = MoversQuery.of(registry);
    final long victim = entities[1];
    assertThrows(
        ConcurrentModificationException.class,
        () ->
            movers.eachChunk(
                (from, to, px, py, vx, vy) -> registry.remove(victim, Velocity_Traits.TYPE)));
    assertThrows(
        ConcurrentModificationException.class,
        () ->
            movers.parallelEachChunk(
                (from, to, px, py, vx, vy) -> registry.remove(victim, Velocity_Traits.TYPE)));
    // The locks are released once the iteration is over.
    assertTrue(registry.remove(victim, Velocity_Traits.TYPE));
    assertFalse(movers.contains(victim));
  }

  @Test
  void visitorMayRemoveTheVisitedEntitysComponents() {
    final MoversQuery movers = MoversQuery.of(registry);
    movers.each(
        (entity, position, velocity) -> {
          if (0 == Entity.index(entity) % 2) {
            registry.remove(entity, Velocity_Traits.TYPE);
          }
        });
    int expected = 0;
    for (int i = 0; i < N; i++) {
      expected += hasVelocity[i] && !frozen[i] && 0 != i % 2 ? 1 : 0;
    }
    assertEquals(expected, movers.size());
  }

  // -----------------------------------------------------------------------------------------------
  // Non-owning group and view.
  // -----------------------------------------------------------------------------------------------

  @Test
  void nonOwningGroupVisitsItsMembersWithTheirValues() {
    final WeighedQuery weighed = WeighedQuery.of(registry);
    final boolean[] visited = new boolean[N];
    weighed.each(
        (entity, position, mass) -> {
          final int i = Entity.index(entity);
          visited[i] = true;
          assertEquals(x[i], position.x());
          assertEquals(i, mass.value());
          position.setY(position.y() * 2);
        });
    final boolean[] expected = new boolean[N];
    for (int i = 0; i < N; i++) {
      expected[i] = 0 == i % 3 && !frozen[i];
      y[i] *= expected[i] ? 2 : 1;
    }
    assertArrayEquals(expected, visited);
    assertEquals(count(expected), weighed.size());
    assertPositions();
  }

  @Test
  void viewOverAnInPlaceStorageSkipsTombstonesAndExclusions() {
    final AnchoredQuery anchored = AnchoredQuery.of(registry);
    for (int i = 0; i < N; i += 8) {
      registry.remove(entities[i], Anchor_Traits.TYPE);
    }
    final boolean[] visited = new boolean[N];
    anchored.each(
        (entity, position, anchor) -> {
          final int i = Entity.index(entity);
          visited[i] = true;
          assertEquals(i, anchor.id());
          assertEquals(x[i], position.x());
          // In-place storage: removing the visited entity's anchor moves nothing.
          registry.remove(entity, Anchor_Traits.TYPE);
        });
    final boolean[] expected = new boolean[N];
    for (int i = 0; i < N; i++) {
      expected[i] = 0 == i % 4 && 0 != i % 8 && !frozen[i];
    }
    assertArrayEquals(expected, visited);
    anchored.each(
        (entity, position, anchor) -> {
          throw new AssertionError("every anchor was removed");
        });
  }

  // -----------------------------------------------------------------------------------------------
  // Allocation.
  // -----------------------------------------------------------------------------------------------

  @Test
  void eachAndEachChunkAllocateNothing() {
    final MoversQuery movers = MoversQuery.of(registry);
    final WeighedQuery weighed = WeighedQuery.of(registry);
    final AnchoredQuery anchored = AnchoredQuery.of(registry);
    final MoversQuery.Visitor move =
        (entity, position, velocity) -> position.setX(position.x() + velocity.x());
    final MoversQuery.Chunk moveChunk = QueriesTest::move;
    final WeighedQuery.Visitor weigh = (entity, position, mass) -> position.setY(mass.value());
    final AnchoredQuery.Visitor anchor = (entity, position, a) -> position.setY(a.id());
    for (int i = 0; i < 300; i++) {
      movers.each(move);
      movers.eachChunk(moveChunk);
      weighed.each(weigh);
      anchored.each(anchor);
    }
    assertTrue(
        Allocations.allocatedBy(() -> sink = new long[16]) > 0, "the probe sees allocations");
    assertEquals(0, Allocations.allocatedBy(() -> movers.each(move)), "MoversQuery.each");
    assertEquals(
        0, Allocations.allocatedBy(() -> movers.eachChunk(moveChunk)), "MoversQuery.eachChunk");
    assertEquals(0, Allocations.allocatedBy(() -> weighed.each(weigh)), "WeighedQuery.each");
    assertEquals(0, Allocations.allocatedBy(() -> anchored.each(anchor)), "AnchoredQuery.each");
  }

  // -----------------------------------------------------------------------------------------------
  // The reference computation.
  // -----------------------------------------------------------------------------------------------

  /** The chunk body under test: position += velocity over one run of page arrays. */
  private static void move(
      final int from,
      final int to,
      final float[] positionX,
      final float[] positionY,
      final float[] velocityX,
      final float[] velocityY) {
    for (int i = from; i < to; i++) {
      positionX[i] += velocityX[i];
      positionY[i] += velocityY[i];
    }
  }

  /** The same step over plain arrays. */
  private void stepArrays() {
    final boolean[] moves = expectedMovers();
    for (int i = 0; i < N; i++) {
      if (moves[i]) {
        x[i] += vx[i];
        y[i] += vy[i];
      }
    }
  }

  private boolean[] expectedMovers() {
    final boolean[] moves = new boolean[N];
    for (int i = 0; i < N; i++) {
      moves[i] = hasVelocity[i] && !frozen[i];
    }
    return moves;
  }

  private void assertPositions() {
    final float[] actualX = new float[N];
    final float[] actualY = new float[N];
    for (int i = 0; i < N; i++) {
      actualX[i] = positions.x(entities[i]);
      actualY[i] = positions.y(entities[i]);
    }
    assertArrayEquals(x, actualX);
    assertArrayEquals(y, actualY);
  }

  private static int count(final boolean[] flags) {
    int count = 0;
    for (final boolean flag : flags) {
      count += flag ? 1 : 0;
    }
    return count;
  }
}
