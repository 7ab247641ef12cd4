package dev.phalanx.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import java.util.function.LongConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a pass of {@link EntityView#each} (and of {@link EntityStorage#each}, the same walk) visits
 * when its action creates and destroys entities: every entity live at the start, once, less those
 * destroyed before their turn; never one created during the pass. Checked on a hand-made case and
 * against a plain model (java.util sets) over random creates, destroys, batch destroys, clears and
 * nested passes, several seeds; and the walk allocates nothing while the action changes the world.
 */
class EntityPassTest {

  private static final ComponentType<Object, EmptyStorage<Object>> TAG =
      Fixtures.tag(DeletionPolicy.SWAP_AND_POP);

  /** The three walks over a registry's entities, each with its own start set. */
  private enum Walk {
    STORAGE(r -> r.entities()::each),
    VIEW(r -> r.entityView()::each),
    VIEW_WITHOUT_TAG(r -> r.entityView().exclude(TAG)::each);

    final Function<Registry, java.util.function.Consumer<LongConsumer>> each;

    Walk(final Function<Registry, java.util.function.Consumer<LongConsumer>> each) {
      this.each = each;
    }

    /** The entities the walk would visit now, with nothing changed meanwhile. */
    Set<Long> members(final Registry registry) {
      final Set<Long> members = new HashSet<>();
      final long[] packed = registry.entities().packed();
      for (int at = 0; at < registry.alive(); at++) {
        if (this != VIEW_WITHOUT_TAG || !registry.has(packed[at], TAG)) {
          members.add(packed[at]);
        }
      }
      return members;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // By hand.
  // ---------------------------------------------------------------------------------------------

  /**
   * The action of the first visit creates an entity and destroys one still to come: the walk visits
   * every other entity once and never the new one (which the destroy moved into the part still to
   * come).
   */
  @Test
  void anEntityCreatedByTheActionIsNotVisitedWhenItAlsoDestroysOneStillToCome() {
    for (final Walk walk : Walk.values()) {
      final Registry registry = new Registry();
      final long[] all = new long[5];
      registry.create(all);
      final List<Long> visited = new ArrayList<>();
      final long[] created = {Entity.NULL};
      walk.each
          .apply(registry)
          .accept(
              e -> {
                visited.add(e);
                if (1 == visited.size()) {
                  created[0] = registry.create();
                  registry.destroy(all[0]);
                }
              });
      assertFalse(visited.contains(created[0]), walk + " visited the entity it created");
      assertEquals(4, visited.size(), walk + ": " + visited);
      assertEquals(Set.of(all[1], all[2], all[3], all[4]), new HashSet<>(visited), walk.name());
      assertEquals(all[4], visited.get(0), walk + " starts at the last position");
      assertEquals(5, registry.alive());
      assertEquals(List.of(), registry.verify());
    }
  }

  /**
   * A pass that ends with an exception leaves no trace: later destroys release as outside any pass
   * (the last live entity fills the hole).
   */
  @Test
  void aPassEndedByAnExceptionLeavesLaterDestroysAsOutsideAPass() {
    final Registry registry = new Registry();
    final long[] all = new long[6];
    registry.create(all);
    final IllegalStateException boom = new IllegalStateException("boom");
    for (final Walk walk : Walk.values()) {
      assertSame(
          boom,
          assertThrows(
              IllegalStateException.class,
              () ->
                  walk.each
                      .apply(registry)
                      .accept(
                          e -> {
                            throw boom;
                          })));
    }
    final long[] packed = registry.entities().packed();
    final long first = packed[0];
    final long last = packed[registry.alive() - 1];
    registry.destroy(first);
    assertEquals(last, registry.entities().packed()[0]);
    assertEquals(List.of(), registry.verify());
  }

  /** A clear from the action ends the pass: nothing live at the start is left to visit. */
  @Test
  void aClearFromTheActionEndsThePassAndWhatItCreatesIsNotVisited() {
    for (final Walk walk : Walk.values()) {
      final Registry registry = new Registry();
      registry.create(new long[8]);
      final List<Long> visited = new ArrayList<>();
      walk.each
          .apply(registry)
          .accept(
              e -> {
                visited.add(e);
                registry.clear();
                registry.create(new long[12]);
              });
      assertEquals(1, visited.size(), walk + ": " + visited);
      assertEquals(12, registry.alive());
      assertEquals(List.of(), registry.verify());
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Against a model.
  // ---------------------------------------------------------------------------------------------

  /** One pass in progress, as the model sees it. */
  private static final class Pass {
    final Set<Long> start;
    final Set<Long> visited = new HashSet<>();
    final Set<Long> destroyedBeforeTurn = new HashSet<>();
    final Set<Long> created = new HashSet<>();

    Pass(final Set<Long> start) {
      this.start = start;
    }

    /** The reference: alive at the start, less those destroyed before their turn. */
    Set<Long> expected() {
      final Set<Long> expected = new HashSet<>(start);
      expected.removeAll(destroyedBeforeTurn);
      return expected;
    }
  }

  /** Random creates and destroys inside passes, checked against {@link Pass}. */
  private static final class ModelRun {
    final Registry registry = new Registry();
    final Random random;
    final Deque<Pass> passes = new ArrayDeque<>();
    final String label;
    int visits;

    ModelRun(final long seed, final String label) {
      this.random = new Random(seed);
      this.label = label;
    }

    void populate(final int count) {
      for (int i = 0; i < count; i++) {
        final long e = registry.create();
        if (random.nextInt(4) == 0) {
          registry.emplace(e, TAG, new Object());
        }
      }
    }

    long anyLive() {
      return registry.entities().packed()[random.nextInt(registry.alive())];
    }

    void noteDestroyed(final long e) {
      for (final Pass pass : passes) {
        if (pass.start.contains(e) && !pass.visited.contains(e)) {
          pass.destroyedBeforeTurn.add(e);
        }
      }
    }

    void pass(final Walk walk, final int depth) {
      final Pass pass = new Pass(walk.members(registry));
      passes.push(pass);
      walk.each
          .apply(registry)
          .accept(
              e -> {
                final String at = label + " " + walk + " depth " + depth + " " + Entity.toString(e);
                assertFalse(pass.created.contains(e), at + ": created during the pass");
                assertTrue(pass.start.contains(e), at + ": not in the view at the start");
                assertFalse(pass.destroyedBeforeTurn.contains(e), at + ": destroyed before");
                assertTrue(registry.valid(e), at + ": not valid");
                assertTrue(pass.visited.add(e), at + ": visited twice");
                visits++;
                act(e, walk, depth);
              });
      passes.pop();
      assertEquals(pass.expected(), pass.visited, label + " " + walk + " depth " + depth);
    }

    void act(final long visitedEntity, final Walk walk, final int depth) {
      final int operations = random.nextInt(4);
      for (int i = 0; i < operations; i++) {
        final int choice = random.nextInt(100);
        if (choice < 30) {
          final long created = registry.create();
          for (final Pass pass : passes) {
            pass.created.add(created);
          }
          if (random.nextBoolean()) {
            registry.emplace(created, TAG, new Object());
          }
        } else if (choice < 60 && registry.alive() > 0) {
          final long doomed = anyLive();
          noteDestroyed(doomed);
          registry.destroy(doomed);
        } else if (choice < 70 && registry.valid(visitedEntity)) {
          noteDestroyed(visitedEntity);
          registry.destroy(visitedEntity);
        } else if (choice < 80 && registry.alive() > 0) {
          final int n = 1 + random.nextInt(Math.min(3, registry.alive()));
          final long[] batch = new long[n];
          for (int k = 0; k < n; k++) {
            batch[k] = anyLive();
          }
          for (final long doomed : batch) {
            noteDestroyed(doomed);
          }
          registry.destroy(batch, 0, n);
        } else if (choice < 84 && depth < 2) {
          pass(Walk.values()[random.nextInt(Walk.values().length)], depth + 1);
        } else if (choice < 85) {
          final long[] packed = registry.entities().packed();
          for (int at = 0; at < registry.alive(); at++) {
            noteDestroyed(packed[at]);
          }
          registry.clear();
        }
      }
    }
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 5, 8, 13, 21, 34})
  void randomCreatesAndDestroysInsideEachMatchThePlainModel(final long seed) {
    for (final Walk walk : Walk.values()) {
      final ModelRun run = new ModelRun(seed, "seed " + seed);
      for (int round = 0; round < 6; round++) {
        run.populate(40 + run.random.nextInt(200));
        run.pass(walk, 0);
        assertEquals(List.of(), run.registry.verify(), "seed " + seed + " " + walk);
        assertTrue(run.passes.isEmpty());
      }
      assertTrue(run.visits > 100, "seed " + seed + " " + walk + ": only " + run.visits);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // No allocation.
  // ---------------------------------------------------------------------------------------------

  /**
   * Walks whose actions destroy entities still to come and create others (recycled identifiers: the
   * world keeps its size) allocate nothing, nested walks included once warmed.
   */
  @Test
  void walksThatCreateAndDestroyAllocateNothing() {
    final Registry registry = new Registry();
    final long[] all = new long[1_000];
    registry.create(all);
    for (int i = 0; i < all.length; i += 3) {
      registry.emplace(all[i], TAG, new Object());
    }
    final EntityView view = registry.entityView().exclude(TAG);
    final EntityStorage entities = registry.entities();
    final long[] sum = {0};
    final LongConsumer inner = e -> sum[0] += e;
    final LongConsumer churn =
        e -> {
          sum[0] += e;
          // Destroy the entity at position 0 (still to come, or the visited one at the end) and
          // create one in its stead, which recycles the identifier just released.
          registry.destroy(entities.packed()[0]);
          registry.create();
          if (0 == (e & 255)) {
            entities.each(inner);
          }
        };
    final Runnable walks =
        () -> {
          view.each(churn);
          entities.each(churn);
        };
    for (int i = 0; i < 200; i++) {
      walks.run();
    }
    final com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    final long id = Thread.currentThread().getId();
    long least = Long.MAX_VALUE;
    for (int attempt = 0; attempt < 5; attempt++) {
      final long before = threads.getThreadAllocatedBytes(id);
      for (int i = 0; i < 10; i++) {
        walks.run();
      }
      least = Math.min(least, threads.getThreadAllocatedBytes(id) - before);
    }
    assertEquals(0, least);
    assertNotEquals(0, sum[0]);
    assertEquals(1_000, registry.alive());
    assertEquals(List.of(), registry.verify());
  }
}
