package dev.phalanx.ecs;

import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TE;
import static dev.phalanx.ecs.GroupTypes.TF;
import static dev.phalanx.ecs.GroupTypes.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.hierarchy.Hierarchy;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Batch and tree destroys called from the bodies of a parallel pass over an owning group, on 16
 * threads at once: each is refused with a {@link ConcurrentModificationException} before it changes
 * anything (the registry's own bookkeeping included), so the world is the same after the pass and
 * every later destroy works.
 */
class ParallelDestroyRefusalTest {

  private static final int THREADS = 16;
  private static final int MEMBERS = 2_048;
  private static final int TREE = 8;
  private static final int ROUNDS = 12;

  private final Registry registry = new Registry();
  private final Hierarchy hierarchy = Hierarchy.of(registry);
  private final OwningGroup group = registry.owningGroup(TE, TF);
  private final List<Long> members = new ArrayList<>();
  private final List<Long> outsiders = new ArrayList<>();
  private final ForkJoinPool pool = new ForkJoinPool(THREADS);

  @AfterEach
  void shutDown() {
    pool.shutdownNow();
  }

  /**
   * Members of {@code <E, F>} (some with A too) in trees of {@link #TREE}, every tree made of
   * members only; outsiders with A alone, each a child of a member. Returns the roots.
   */
  private List<Long> build(final long seed) {
    final Random random = new Random(seed);
    final List<Long> roots = new ArrayList<>();
    for (int i = 0; i < MEMBERS; i++) {
      final long e = registry.create();
      registry.emplace(e, TE, value(TE, i));
      registry.emplace(e, TF, value(TF, i));
      if (random.nextBoolean()) {
        registry.emplace(e, TA, value(TA, i));
      }
      if (0 == i % TREE) {
        roots.add(e);
      } else {
        // A parent among the earlier members of the same tree.
        hierarchy.attach(e, members.get(i - 1 - random.nextInt(i % TREE)));
      }
      members.add(e);
    }
    for (int i = 0; i < MEMBERS / 4; i++) {
      final long outsider = registry.create();
      registry.emplace(outsider, TA, value(TA, -i));
      outsiders.add(outsider);
    }
    return roots;
  }

  /** What a refused destroy must leave as it was: who is alive, who holds what, who is whose. */
  private List<String> world() {
    final List<String> state = new ArrayList<>();
    state.add("alive " + registry.alive());
    for (final List<Long> entities : List.of(members, outsiders)) {
      for (final long e : entities) {
        final boolean valid = registry.valid(e);
        state.add(
            Entity.toString(e)
                + (valid ? " valid" : " destroyed")
                + (valid && registry.has(e, TE) ? " E" : "")
                + (valid && registry.has(e, TF) ? " F" : "")
                + (valid && registry.has(e, TA) ? " A" : "")
                + (valid && registry.storage(Hierarchy.TYPE).contains(e) ? " node" : "")
                + (valid ? " parent " + Entity.toString(hierarchy.parent(e)) : ""));
      }
    }
    state.add("members " + group.size());
    return state;
  }

  /** The destroys a body tries for the member at {@code position}; each must be refused. */
  private List<Runnable> destroys(final int position, final List<Long> roots) {
    final long member = group.entityAt(position);
    final long outsider = outsiders.get(position % outsiders.size());
    final long root = roots.get(position % roots.size());
    final long next = group.entityAt((position + 1) % group.size());
    return List.of(
        // The outsider first: nothing locks it, so a batch that pushed entities before checking
        // the locks would already have touched the registry.
        () -> registry.destroy(new long[] {outsider, member, next}, 0, 3),
        () -> registry.destroy(new long[] {outsider, member}, 1, 2),
        () -> hierarchy.destroyTree(root),
        () -> hierarchy.destroyDescendants(root));
  }

  @Test
  void batchAndTreeDestroysFromSixteenThreadsAreRefusedBeforeAnyChange() {
    final List<Long> roots = build(7);
    final List<String> before = world();
    final int kinds = destroys(0, roots).size();
    final ConcurrentLinkedQueue<Throwable> unexpected = new ConcurrentLinkedQueue<>();
    final ConcurrentLinkedQueue<String> messages = new ConcurrentLinkedQueue<>();
    for (int round = 0; round < ROUNDS; round++) {
      final AtomicInteger refused = new AtomicInteger();
      final AtomicInteger visited = new AtomicInteger();
      group.parallelEachChunk(
          pool,
          16,
          (from, to) -> {
            for (int p = from; p < to; p++) {
              visited.incrementAndGet();
              final List<Runnable> attempts = destroys(p, roots);
              for (int k = 0; k < attempts.size(); k++) {
                try {
                  attempts.get(k).run();
                  unexpected.add(new AssertionError("destroy " + k + " at " + p + " ran"));
                } catch (final ConcurrentModificationException expected) {
                  refused.incrementAndGet();
                  if (0 == p) {
                    messages.add(expected.getMessage());
                  }
                } catch (final Throwable other) {
                  unexpected.add(other);
                }
              }
            }
          });
      assertTrue(unexpected.isEmpty(), "round " + round + ": " + unexpected.peek());
      assertEquals(MEMBERS, visited.get(), "round " + round);
      assertEquals(MEMBERS * kinds, refused.get(), "round " + round);
      assertEquals(List.of(), registry.verify(), "round " + round);
      assertEquals(before, world(), "round " + round);
    }
    assertEquals(ROUNDS * kinds, messages.size());
    final String memberName = Entity.toString(group.entityAt(0));
    for (final String message : messages) {
      assertTrue(message.startsWith("cannot destroy "), message);
      assertTrue(message.contains("parallel chunk iteration"), message);
      assertTrue(message.contains("nothing was destroyed"), message);
    }
    assertTrue(
        messages.stream().anyMatch(m -> m.startsWith("cannot destroy " + memberName + " ")),
        messages.toString());

    // Every later destroy works: one by one, in a batch, and by subtree.
    final long single = members.get(1);
    final List<Long> children = new ArrayList<>();
    hierarchy.eachChild(single, children::add);
    registry.destroy(single);
    assertFalse(registry.valid(single));
    assertEquals(MEMBERS - 1, group.size());
    for (final long child : children) {
      assertEquals(Entity.NULL, hierarchy.parent(child), "orphaned " + Entity.toString(child));
    }
    final long[] batch = {members.get(TREE + 1), outsiders.get(0), members.get(TREE + 2)};
    registry.destroy(batch, 0, batch.length);
    for (final long e : batch) {
      assertFalse(registry.valid(e), Entity.toString(e));
    }
    assertFalse(registry.storage(TA).contains(outsiders.get(0)));
    final long root = roots.get(3);
    hierarchy.destroyTree(root);
    for (int i = 3 * TREE; i < 4 * TREE; i++) {
      assertFalse(registry.valid(members.get(i)), "tree member " + i);
    }
    final long kept = roots.get(4);
    hierarchy.destroyDescendants(kept);
    assertTrue(registry.valid(kept));
    assertEquals(0, hierarchy.childCount(kept));
    for (int i = 4 * TREE + 1; i < 5 * TREE; i++) {
      assertFalse(registry.valid(members.get(i)), "descendant " + i);
    }
    final int destroyed = 1 + 2 + TREE + TREE - 1;
    assertEquals(MEMBERS - destroyed, group.size());
    assertEquals(MEMBERS + outsiders.size() - destroyed - 1, registry.alive());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aRefusedBatchInsideEachChunkNamesTheEntityAndChangesNothing() {
    final List<Long> roots = build(11);
    final List<String> before = world();
    final List<String> messages = new ArrayList<>();
    group.eachChunk(
        (from, to) -> {
          if (0 == from) {
            for (final Runnable attempt : destroys(0, roots)) {
              try {
                attempt.run();
              } catch (final ConcurrentModificationException expected) {
                messages.add(expected.getMessage());
              }
            }
          }
        });
    assertEquals(destroys(0, roots).size(), messages.size(), messages.toString());
    assertEquals(List.of(), registry.verify());
    assertEquals(before, world());
    final long member = group.entityAt(0);
    assertTrue(
        messages.get(0).startsWith("cannot destroy " + Entity.toString(member) + " "),
        messages.get(0));
    assertTrue(messages.get(0).contains("a chunk iteration of"), messages.get(0));
    registry.destroy(member);
    assertFalse(registry.valid(member));
    assertEquals(List.of(), registry.verify());
  }
}
