package dev.phalanx.examples.relations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.relation.Relation;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Seeded random worlds with three relationship kinds (one per destroy policy, one acyclic), driven
 * through adds, replaces, removes, destroys and batch destroys, against a plain model of each kind
 * (a map from source to target, and each target's sources in link order). After every step both
 * sides of every kind equal the model and {@code verify()} is empty. Then the same scenario with a
 * user listener throwing at every k: the change completes, the exception reaches the caller, and
 * every invariant holds.
 */
class RelationshipModelTest {

  private static final int KINDS = 3;
  private static final int DOCKED = 0;
  private static final int TARGETS = 1;
  private static final int OWNED = 2;

  /** The world and its plain model, side by side. */
  private static final class World {
    final Registry registry = new Registry();
    final Docked_Storage docked = registry.storage(Docked_Traits.TYPE);
    final Targets_Storage targets = registry.storage(Targets_Traits.TYPE);
    final OwnedBy_Storage owned = registry.storage(OwnedBy_Traits.TYPE);
    final List<Relation<?>> relations =
        List.of(
            Relation.of(registry, Docked_Traits.TYPE),
            Relation.of(registry, Targets_Traits.TYPE),
            Relation.of(registry, OwnedBy_Traits.TYPE));
    final Set<Long> live = new LinkedHashSet<>();
    final List<Map<Long, Long>> forward = new ArrayList<>();
    final List<Map<Long, List<Long>>> reverse = new ArrayList<>();

    World() {
      for (int k = 0; k < KINDS; k++) {
        forward.add(new HashMap<>());
        reverse.add(new HashMap<>());
      }
    }

    long create() {
      final long entity = registry.create();
      live.add(entity);
      return entity;
    }

    void link(final int kind, final long source, final long target) {
      if (Long.valueOf(target).equals(forward.get(kind).get(source))) {
        // The same target: the source keeps its place in the list.
        return;
      }
      final Long old = forward.get(kind).put(source, target);
      if (null != old) {
        reverse.get(kind).get(old).remove(source);
      }
      reverse.get(kind).computeIfAbsent(target, t -> new ArrayList<>()).add(source);
    }

    void cut(final int kind, final long source) {
      final Long old = forward.get(kind).remove(source);
      if (null != old) {
        reverse.get(kind).get(old).remove(source);
      }
    }

    /** Whether {@code source} naming {@code target} would close a cycle of the acyclic kind. */
    boolean cycles(final long source, final long target) {
      for (Long step = target; null != step; step = forward.get(OWNED).get(step)) {
        if (step == source) {
          return true;
        }
      }
      return false;
    }

    void write(final int kind, final long source, final long target, final boolean replace) {
      switch (kind) {
        case DOCKED -> {
          if (replace) {
            docked.replace(source, target, 7);
          } else {
            docked.emplace(source, target, 7);
          }
        }
        case TARGETS -> {
          if (replace) {
            registry.replace(source, Targets_Traits.TYPE, new Targets(target, 1f));
          } else {
            registry.emplace(source, Targets_Traits.TYPE, new Targets(target, 1f));
          }
        }
        default -> {
          if (replace) {
            owned.replace(source, target);
          } else {
            owned.emplace(source, target);
          }
        }
      }
    }

    void remove(final int kind, final long source) {
      switch (kind) {
        case DOCKED -> docked.remove(source);
        case TARGETS -> targets.remove(source);
        default -> owned.remove(source);
      }
    }

    /** The entities a destroy of {@code batch} takes, or null if the model refuses it. */
    Set<Long> closure(final long... batch) {
      final Set<Long> going = new LinkedHashSet<>();
      final ArrayDeque<Long> queue = new ArrayDeque<>();
      for (final long entity : batch) {
        if (going.add(entity)) {
          queue.add(entity);
        }
      }
      while (!queue.isEmpty()) {
        for (final long source : reverse.get(DOCKED).getOrDefault(queue.poll(), List.of())) {
          if (going.add(source)) {
            queue.add(source);
          }
        }
      }
      for (final long entity : going) {
        for (final long source : reverse.get(OWNED).getOrDefault(entity, List.of())) {
          if (!going.contains(source)) {
            return null;
          }
        }
      }
      return going;
    }

    void destroyed(final Set<Long> going) {
      for (final long entity : going) {
        live.remove(entity);
        for (int k = 0; k < KINDS; k++) {
          cut(k, entity);
          for (final long source : List.copyOf(reverse.get(k).getOrDefault(entity, List.of()))) {
            cut(k, source);
          }
          reverse.get(k).remove(entity);
        }
      }
    }

    void check() {
      for (int k = 0; k < KINDS; k++) {
        final Relation<?> relation = relations.get(k);
        for (final long entity : live) {
          assertEquals(
              forward.get(k).getOrDefault(entity, Entity.NULL),
              relation.target(entity),
              "target of " + Entity.toString(entity) + " in kind " + k);
          final long[] expected =
              reverse.get(k).getOrDefault(entity, List.of()).stream()
                  .mapToLong(Long::longValue)
                  .toArray();
          assertEquals(
              Arrays.toString(expected),
              Arrays.toString(relation.sources(entity)),
              "sources of " + Entity.toString(entity) + " in kind " + k);
        }
      }
      assertEquals(live.size(), registry.alive());
      assertEquals(List.of(), registry.verify());
    }
  }

  @Test
  void randomWorldsMatchThePlainModel() {
    for (int seed = 0; seed < 60; seed++) {
      run(new Random(seed), new World(), 400);
    }
  }

  /** Runs {@code steps} random steps; returns how many listener exceptions reached the caller. */
  private static int run(final Random random, final World world, final int steps) {
    int caught = 0;
    for (int i = 0; i < 8; i++) {
      world.create();
    }
    for (int step = 0; step < steps; step++) {
      final List<Long> live = new ArrayList<>(world.live);
      if (live.size() < 4 || random.nextInt(8) == 0) {
        world.create();
        continue;
      }
      final long a = live.get(random.nextInt(live.size()));
      final long b = live.get(random.nextInt(live.size()));
      final int kind = random.nextInt(KINDS);
      try {
        switch (random.nextInt(6)) {
          case 0, 1 -> {
            final boolean has = world.forward.get(kind).containsKey(a);
            if (OWNED == kind && world.cycles(a, b)) {
              assertThrows(IllegalArgumentException.class, () -> world.write(kind, a, b, has));
            } else {
              try {
                world.write(kind, a, b, has);
              } finally {
                world.link(kind, a, b);
              }
            }
          }
          case 2 -> {
            try {
              world.remove(kind, a);
            } finally {
              world.cut(kind, a);
            }
          }
          case 3, 4 -> {
            final Set<Long> going = world.closure(a);
            if (null == going) {
              assertThrows(IllegalStateException.class, () -> world.registry.destroy(a));
            } else {
              try {
                world.registry.destroy(a);
              } finally {
                world.destroyed(going);
              }
            }
          }
          default -> {
            final long[] batch = {a, b};
            final Set<Long> going = world.closure(batch);
            if (null == going) {
              assertThrows(IllegalStateException.class, () -> world.registry.destroy(batch, 0, 2));
            } else {
              try {
                world.registry.destroy(batch, 0, 2);
              } finally {
                world.destroyed(going);
              }
            }
          }
        }
      } catch (final Injected injected) {
        caught++;
      }
      world.check();
    }
    return caught;
  }

  /** What the injected listeners throw. */
  private static final class Injected extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Injected(final int call) {
      super("injected at call " + call, null, false, false);
    }
  }

  @Test
  void listenersThrowingAtEveryKLeaveBothSidesInStep() {
    int calls = 0;
    // Count the listener calls of the scenario first.
    {
      final World world = new World();
      final int[] count = {0};
      connect(world, count, Integer.MAX_VALUE);
      run(new Random(42), world, 150);
      calls = count[0];
    }
    assertTrue(calls > 50, "the scenario calls listeners: " + calls);
    int surfaced = 0;
    for (int k = 1; k <= calls; k++) {
      final World world = new World();
      connect(world, new int[] {0}, k);
      surfaced += run(new Random(42), world, 150);
    }
    assertTrue(surfaced >= calls / 2, "injected exceptions reached callers: " + surfaced);
  }

  /** Connects listeners to every signal the relationships use; the {@code k}-th call throws. */
  private static void connect(final World world, final int[] count, final int k) {
    final dev.phalanx.ecs.ComponentListener thrower =
        (registry, entity) -> {
          if (++count[0] == k) {
            throw new Injected(k);
          }
        };
    for (final Relation<?> relation : world.relations) {
      relation.storage().onConstruct().connect(thrower);
      relation.storage().onUpdate().connect(thrower);
      relation.storage().onDestroy().connect(thrower);
    }
    world.registry.onDestroy().connect(thrower);
    // Unused set kept honest: every kind's storage is reached.
    assertEquals(KINDS, new HashSet<>(world.relations).size());
  }
}
