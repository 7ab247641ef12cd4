package dev.phalanx.examples.relations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.relation.Cascade;
import dev.phalanx.ecs.relation.Relation;
import dev.phalanx.examples.components.Position_Storage;
import dev.phalanx.examples.components.Position_Traits;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link Cascade} against a plain model: random forests of {@code Targets} (with fan-out, chains
 * and entities without a position), changed between passes (links replaced, removed, added,
 * entities destroyed), each pass propagating {@code x = parent.x + local} through the runs. After
 * every pass each position equals the model's sum along its chain; a run never crosses a page and
 * never reads a target that comes after it.
 */
class CascadeTest {

  @Test
  void runsPropagateLikeAWalkUpEveryChain() {
    for (int seed = 1; seed <= 40; seed++) {
      check(seed);
    }
  }

  private static void check(final int seed) {
    final SplittableRandom random = new SplittableRandom(seed);
    final Registry registry = new Registry();
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    final Targets_Storage targets = registry.storage(Targets_Traits.TYPE);
    final Relation<Targets> relation = Relation.of(registry, Targets_Traits.TYPE);
    final Cascade cascade = Cascade.of(relation, positions);
    final List<Long> alive = new ArrayList<>();
    final int n = 50 + random.nextInt(6000);
    for (int i = 0; i < n; i++) {
      alive.add(registry.create());
    }
    for (final long e : alive) {
      if (random.nextInt(10) > 0) {
        positions.emplace(e, 0f, random.nextInt(5));
      }
    }
    // Link each entity to an earlier one (a forest), often to the one just before (chains).
    for (int i = 1; i < alive.size(); i++) {
      if (random.nextInt(5) > 0) {
        final int to = random.nextBoolean() ? i - 1 : random.nextInt(i);
        targets.emplace(alive.get(i), alive.get(to), 0f);
      }
    }
    for (int pass = 0; pass < 6; pass++) {
      propagate(cascade, positions);
      assertEquals(model(registry, positions, relation), values(positions), "seed " + seed);
      change(random, registry, targets, alive);
      assertEquals(List.of(), registry.verify());
    }
  }

  /** x = the target's x + y (the local value), run by run, with the run's contract checked. */
  private static void propagate(final Cascade cascade, final Position_Storage positions) {
    final int shift = positions.pageShift();
    final float[][] xs = positions.xPages();
    final float[][] ys = positions.yPages();
    final int mask = positions.pageSize() - 1;
    // Roots keep x = y.
    for (int p = 0; p < positions.size(); p++) {
      if (!Entity.isTombstone(positions.packed()[p])) {
        xs[p >>> shift][p & mask] = ys[p >>> shift][p & mask];
      }
    }
    cascade.each(
        (from, to, parentFrom, oneParent) -> {
          assertTrue(from < to && (to - 1) >>> shift == from >>> shift, "a run within a page");
          final int parentTo = oneParent ? parentFrom : parentFrom + (to - 1 - from);
          assertTrue(parentTo < from, "targets before their sources");
          assertTrue(parentTo >>> shift == parentFrom >>> shift, "targets within a page");
          final float[] x = xs[from >>> shift];
          final float[] y = ys[from >>> shift];
          final float[] parentX = xs[parentFrom >>> shift];
          for (int i = from; i < to; i++) {
            final int parent = oneParent ? parentFrom : parentFrom + (i - from);
            x[i & mask] = parentX[parent & mask] + y[i & mask];
          }
        });
  }

  /** The model: the sum of y along each entity's chain, up to the first without a position. */
  private static Map<Long, Float> model(
      final Registry registry, final Position_Storage positions, final Relation<Targets> relation) {
    final Map<Long, Float> expected = new HashMap<>();
    final long[] packed = positions.packed();
    for (int p = 0; p < positions.size(); p++) {
      final long e = packed[p];
      if (Entity.isTombstone(e)) {
        continue;
      }
      float sum = 0;
      for (long at = e; positions.contains(at); at = relation.target(at)) {
        sum += positions.y(at);
      }
      expected.put(e, sum);
    }
    return expected;
  }

  private static Map<Long, Float> values(final Position_Storage positions) {
    final Map<Long, Float> values = new HashMap<>();
    final long[] packed = positions.packed();
    for (int p = 0; p < positions.size(); p++) {
      if (!Entity.isTombstone(packed[p])) {
        values.put(packed[p], positions.x(packed[p]));
      }
    }
    return values;
  }

  private static void change(
      final SplittableRandom random,
      final Registry registry,
      final Targets_Storage targets,
      final List<Long> alive) {
    for (int k = 0; k < 20; k++) {
      final long e = alive.get(random.nextInt(alive.size()));
      switch (random.nextInt(4)) {
        case 0 -> targets.remove(e);
        case 1 -> {
          registry.destroy(e);
          alive.remove(e);
          alive.add(registry.create());
        }
        default -> {
          final long to = alive.get(random.nextInt(alive.size()));
          if (to != e && !reaches(targets, to, e)) {
            targets.emplaceOrReplace(e, new Targets(to, 0f));
          }
        }
      }
    }
  }

  /**
   * Whether {@code from}'s chain reaches {@code e}: linking {@code e} to it would close a cycle.
   */
  private static boolean reaches(final Targets_Storage targets, final long from, final long e) {
    for (long at = from; targets.contains(at); at = targets.get(at).enemy()) {
      if (targets.get(at).enemy() == e) {
        return true;
      }
    }
    return false;
  }

  /**
   * A visitor that throws ends the pass and leaves the storage unlocked (the next pass is whole); a
   * visitor that starts another pass of the same cascade is refused before it starts; one that
   * changes the storage's structure is refused by the lock, with nothing changed.
   */
  @Test
  void aVisitorThatThrowsOrReentersLeavesTheCascadeWhole() {
    final Registry registry = new Registry();
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    final Targets_Storage targets = registry.storage(Targets_Traits.TYPE);
    final Relation<Targets> relation = Relation.of(registry, Targets_Traits.TYPE);
    final Cascade cascade = Cascade.of(relation, positions);
    final long[] chain = new long[3000];
    registry.create(chain, 0, chain.length);
    for (int i = 0; i < chain.length; i++) {
      positions.emplace(chain[i], 0f, 1f);
      if (0 != i % 3) {
        targets.emplace(chain[i], chain[i - 1], 0f);
      }
    }
    final int runs = cascade.runs();
    for (int k = 0; k < runs; k++) {
      final int failAt = k;
      final int[] seen = {0};
      assertThrows(
          IllegalStateException.class,
          () ->
              cascade.each(
                  (from, to, parentFrom, oneParent) -> {
                    if (seen[0]++ == failAt) {
                      throw new IllegalStateException("a visitor fails at run " + failAt);
                    }
                  }));
      assertFalse(positions.isLocked());
    }
    final IllegalStateException again =
        assertThrows(
            IllegalStateException.class,
            () ->
                cascade.each(
                    (from, to, parentFrom, oneParent) -> cascade.each((a, b, c, d) -> {})));
    assertTrue(again.getMessage().contains("already visiting"), again::getMessage);
    final long spare = registry.create();
    assertThrows(
        java.util.ConcurrentModificationException.class,
        () -> cascade.each((from, to, parentFrom, oneParent) -> positions.emplace(spare, 0f, 0f)));
    assertFalse(positions.contains(spare));
    assertFalse(positions.isLocked());
    assertEquals(runs, cascade.runs());
    final int[] visited = {0};
    cascade.each((from, to, parentFrom, oneParent) -> visited[0] += to - from);
    assertEquals(2000, visited[0]);
    assertEquals(List.of(), registry.verify());
  }

  /** A second pass over an unchanged world reuses the runs: no allocation, no sort. */
  @Test
  void anUnchangedWorldIsNotArrangedAgain() {
    final Registry registry = new Registry();
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    final Targets_Storage targets = registry.storage(Targets_Traits.TYPE);
    final Cascade cascade = Cascade.of(Relation.of(registry, Targets_Traits.TYPE), positions);
    final long[] chain = new long[20_000];
    registry.create(chain, 0, chain.length);
    for (int i = 0; i < chain.length; i++) {
      positions.emplace(chain[i], 0f, 1f);
      if (0 != i % 8) {
        targets.emplace(chain[i], chain[i - 1], 0f);
      }
    }
    final int runs = cascade.runs();
    final long stamp = positions.structureStamp();
    final com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    final long id = Thread.currentThread().getId();
    final Cascade.Run body = (from, to, parentFrom, oneParent) -> {};
    cascade.each(body);
    final long before = threads.getThreadAllocatedBytes(id);
    for (int i = 0; i < 100; i++) {
      cascade.each(body);
    }
    assertEquals(0, threads.getThreadAllocatedBytes(id) - before);
    assertEquals(stamp, positions.structureStamp());
    assertEquals(runs, cascade.runs());
    // Chains of 8 laid out level by level: each level's runs are long, not one per entity.
    assertTrue(runs < chain.length / 100, runs + " runs");
  }
}
