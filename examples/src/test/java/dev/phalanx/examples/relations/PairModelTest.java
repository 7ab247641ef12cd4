package dev.phalanx.examples.relations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentListener;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.relation.OnTargetDestroyed;
import dev.phalanx.ecs.relation.Pairs;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Seeded random worlds with three pair kinds (one per destroy policy, the refusing one acyclic),
 * driven through adds, removes, replaces, removals of a source's every pair, destroys and batch
 * destroys, against a plain model of each kind (each source's targets and each target's sources, in
 * order). After every step both sides of every kind equal the model, the tag storages hold exactly
 * the sources with a pair, and {@code verify()} is empty. Then the same scenario with a user
 * listener throwing at every k: the change completes, the exception reaches the caller, and every
 * invariant holds.
 */
class PairModelTest {

  private static final int KINDS = 3;
  private static final int LIKES = 0;
  private static final int ESCORTS = 1;
  private static final int DEPENDS = 2;

  /** The world and its plain model, side by side. */
  private static final class World {
    final Registry registry = new Registry();
    final List<Pairs<?>> kinds =
        List.of(
            Pairs.declare(registry, Likes_Traits.TYPE, OnTargetDestroyed.REMOVE, false),
            Pairs.declare(registry, Escorts_Traits.TYPE, OnTargetDestroyed.DESTROY_SOURCES, false),
            Pairs.declare(registry, DependsOn_Traits.TYPE, OnTargetDestroyed.REFUSE, true));
    final Set<Long> live = new LinkedHashSet<>();
    final List<Map<Long, List<Long>>> out = new ArrayList<>();
    final List<Map<Long, List<Long>>> in = new ArrayList<>();

    World() {
      for (int k = 0; k < KINDS; k++) {
        out.add(new HashMap<>());
        in.add(new HashMap<>());
      }
    }

    long create() {
      final long entity = registry.create();
      live.add(entity);
      return entity;
    }

    List<Long> targets(final int kind, final long source) {
      return out.get(kind).getOrDefault(source, List.of());
    }

    List<Long> sources(final int kind, final long target) {
      return in.get(kind).getOrDefault(target, List.of());
    }

    boolean has(final int kind, final long source, final long target) {
      return targets(kind, source).contains(target);
    }

    void link(final int kind, final long source, final long target) {
      out.get(kind).computeIfAbsent(source, s -> new ArrayList<>()).add(target);
      in.get(kind).computeIfAbsent(target, t -> new ArrayList<>()).add(source);
    }

    void cut(final int kind, final long source, final long target) {
      out.get(kind).get(source).remove(target);
      in.get(kind).get(target).remove(source);
    }

    void retarget(final int kind, final long source, final long from, final long to) {
      final List<Long> targets = out.get(kind).get(source);
      targets.set(targets.indexOf(from), to);
      in.get(kind).get(from).remove(source);
      in.get(kind).computeIfAbsent(to, t -> new ArrayList<>()).add(source);
    }

    /** Whether {@code to} is {@code from} or reachable from it through pairs of {@code kind}. */
    boolean reaches(final int kind, final long from, final long to) {
      final Set<Long> seen = new LinkedHashSet<>();
      final ArrayDeque<Long> queue = new ArrayDeque<>(List.of(from));
      while (!queue.isEmpty()) {
        final long step = queue.poll();
        if (step == to) {
          return true;
        }
        if (seen.add(step)) {
          queue.addAll(targets(kind, step));
        }
      }
      return false;
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
        for (final long source : sources(ESCORTS, queue.poll())) {
          if (going.add(source)) {
            queue.add(source);
          }
        }
      }
      for (final long entity : going) {
        for (final long source : sources(DEPENDS, entity)) {
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
          for (final long target : List.copyOf(targets(k, entity))) {
            cut(k, entity, target);
          }
          for (final long source : List.copyOf(sources(k, entity))) {
            cut(k, source, entity);
          }
        }
      }
    }

    void check() {
      for (int k = 0; k < KINDS; k++) {
        final Pairs<?> kind = kinds.get(k);
        int pairs = 0;
        for (final long entity : live) {
          final String where = " of " + Entity.toString(entity) + " in " + kind.name();
          assertEquals(
              targets(k, entity).toString(),
              asList(kind.targets(entity)).toString(),
              "targets" + where);
          assertEquals(
              sources(k, entity).toString(),
              asList(kind.sources(entity)).toString(),
              "sources" + where);
          assertEquals(!targets(k, entity).isEmpty(), kind.has(entity), "the tag" + where);
          assertEquals(
              !targets(k, entity).isEmpty(), kind.storage().contains(entity), "tag" + where);
          for (final long target : targets(k, entity)) {
            assertTrue(kind.has(entity, target), "hasPair" + where);
          }
          pairs += targets(k, entity).size();
        }
        assertEquals(pairs, kind.size(), "pairs in " + kind.name());
      }
      assertEquals(live.size(), registry.alive());
      assertEquals(List.of(), registry.verify());
    }
  }

  private static List<Long> asList(final long[] entities) {
    return Arrays.stream(entities).boxed().toList();
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
      if (live.size() < 4 || random.nextInt(10) == 0) {
        world.create();
        continue;
      }
      final long a = live.get(random.nextInt(live.size()));
      final long b = live.get(random.nextInt(live.size()));
      final long c = live.get(random.nextInt(live.size()));
      final int k = random.nextInt(KINDS);
      try {
        step(random.nextInt(9), world, k, a, b, c);
      } catch (final Injected injected) {
        caught++;
      }
      world.check();
    }
    return caught;
  }

  private static void step(
      final int operation,
      final World world,
      final int k,
      final long a,
      final long b,
      final long c) {
    final Pairs<?> kind = world.kinds.get(k);
    switch (operation) {
      case 0, 1, 2 -> {
        if (world.has(k, a, b)) {
          assertEquals(false, kind.add(a, b), "a pair added twice");
        } else if (kind.acyclic() && world.reaches(k, b, a)) {
          assertThrows(IllegalArgumentException.class, () -> kind.add(a, b));
        } else {
          try {
            assertEquals(true, kind.add(a, b));
          } finally {
            world.link(k, a, b);
          }
        }
      }
      case 3 -> {
        final boolean had = world.has(k, a, b);
        try {
          assertEquals(had, kind.remove(a, b));
        } finally {
          if (had) {
            world.cut(k, a, b);
          }
        }
      }
      case 4 -> {
        // Replace one of a's targets (or a pair it lacks, which is refused) by c.
        final List<Long> targets = world.targets(k, a);
        final long from = targets.isEmpty() || b == a ? b : targets.get(0);
        if (!world.has(k, a, from)) {
          assertThrows(IllegalArgumentException.class, () -> kind.replace(a, from, c));
        } else if (from == c) {
          kind.replace(a, from, c);
        } else if (world.has(k, a, c)) {
          kind.replace(a, from, c);
          world.cut(k, a, from);
        } else if (kind.acyclic() && world.reaches(k, c, a)) {
          assertThrows(IllegalArgumentException.class, () -> kind.replace(a, from, c));
        } else {
          kind.replace(a, from, c);
          world.retarget(k, a, from, c);
        }
      }
      case 5 -> {
        final List<Long> targets = List.copyOf(world.targets(k, a));
        try {
          assertEquals(!targets.isEmpty(), kind.removeAll(a));
        } finally {
          for (final long target : targets) {
            world.cut(k, a, target);
          }
        }
      }
      case 6, 7 -> {
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
        final long[] batch = a == b ? new long[] {a} : new long[] {a, b};
        final Set<Long> going = world.closure(batch);
        if (null == going) {
          assertThrows(
              IllegalStateException.class, () -> world.registry.destroy(batch, 0, batch.length));
        } else {
          try {
            world.registry.destroy(batch, 0, batch.length);
          } finally {
            world.destroyed(going);
          }
        }
      }
    }
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
    final int[] count = {0};
    {
      final World world = new World();
      connect(world, count, Integer.MAX_VALUE);
      run(new Random(42), world, 150);
    }
    final int calls = count[0];
    assertTrue(calls > 50, "the scenario calls listeners: " + calls);
    int surfaced = 0;
    for (int k = 1; k <= calls; k++) {
      final World world = new World();
      connect(world, new int[] {0}, k);
      surfaced += run(new Random(42), world, 150);
    }
    assertTrue(surfaced >= calls / 2, "injected exceptions reached callers: " + surfaced);
  }

  /** Connects listeners to every signal the pair kinds use; the {@code k}-th call throws. */
  private static void connect(final World world, final int[] count, final int k) {
    final ComponentListener thrower =
        (registry, entity) -> {
          if (++count[0] == k) {
            throw new Injected(k);
          }
        };
    for (final Pairs<?> kind : world.kinds) {
      kind.storage().onConstruct().connect(thrower);
      kind.storage().onDestroy().connect(thrower);
    }
    world.registry.onDestroy().connect(thrower);
  }
}
