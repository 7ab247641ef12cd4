package dev.phalanx.ecs.hierarchy;

import static dev.phalanx.ecs.GroupTypes.NONE;
import static dev.phalanx.ecs.GroupTypes.types;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentListener;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Group;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.command.CommandBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Fault injection over the hierarchy: listeners on the node storage (construct, destroy) and on a
 * group over it (enter, leave) throw at their k-th call, or at every call from the k-th on, for
 * every k, while a seeded program attaches, reparents, detaches, destroys (one, a tree, a batch)
 * and clears. Every change is all or nothing and completes whatever the listeners throw, so the
 * world after each operation must equal the plain model's, and both verifies be empty; a listener
 * always sees the change finished (the hierarchy consistent).
 */
class HierarchyFaultInjectionTest {

  private static final int STEPS = 60;

  /** The exception the injected faults throw. */
  static final class Injected extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Injected(final int call) {
      super("injected fault at call " + call, null, true, false);
    }
  }

  /** One run of the program with faults armed at call {@code k} (0: none). */
  private static final class Run {
    final Registry registry = new Registry();
    final Hierarchy hierarchy = Hierarchy.of(registry);
    final HierarchyModel model = new HierarchyModel();
    final int armedAt;
    final boolean fromThenOn;
    int calls;
    int thrown;
    final List<String> seenBroken = new ArrayList<>();

    Run(final int armedAt, final boolean fromThenOn) {
      this.armedAt = armedAt;
      this.fromThenOn = fromThenOn;
      final ComponentListener listener = (r, e) -> tick();
      hierarchy.nodes().onConstruct().connect(listener);
      hierarchy.nodes().onDestroy().connect(listener);
      final Group group = registry.nonOwningGroup(types(Hierarchy.TYPE), NONE);
      group.onEnter().connect(listener);
      group.onLeave().connect(listener);
    }

    void tick() {
      calls++;
      // A listener sees every change complete: the hierarchy is consistent whenever user code runs.
      seenBroken.addAll(hierarchy.verify());
      if (armedAt > 0 && (calls == armedAt || (fromThenOn && calls > armedAt))) {
        thrown++;
        throw new Injected(calls);
      }
    }

    /** Runs {@code action}; only an injected fault may come out of it. */
    void guarded(final Runnable action) {
      try {
        action.run();
      } catch (final Injected expected) {
        // The change is complete: the model says what it did.
      }
    }

    void program(final long seed) {
      final Random random = new Random(seed);
      for (int i = 0; i < 6; i++) {
        model.create(registry.create());
      }
      for (int step = 0; step < STEPS; step++) {
        final List<Long> live = new ArrayList<>(model.parents.keySet());
        live.sort(null);
        if (live.size() < 3) {
          model.create(registry.create());
          model.create(registry.create());
          continue;
        }
        final long a = live.get(random.nextInt(live.size()));
        final long b = live.get(random.nextInt(live.size()));
        final int op = random.nextInt(12);
        switch (op) {
          case 0, 1, 2, 3 -> {
            if (Entity.isNull(model.parents.get(a)) && model.mayLink(a, b)) {
              guarded(() -> hierarchy.attach(a, b));
              model.link(a, b);
            }
          }
          case 4, 5 -> {
            if (model.mayLink(a, b)) {
              guarded(() -> hierarchy.reparent(a, b));
              model.link(a, b);
            }
          }
          case 6 -> {
            guarded(() -> hierarchy.detach(a));
            model.link(a, Entity.NULL);
          }
          case 7 -> {
            guarded(() -> registry.destroy(a));
            model.destroy(a);
          }
          case 8 -> {
            guarded(() -> hierarchy.destroyTree(a));
            model.destroyTree(a);
          }
          case 9 -> {
            final long[] batch = {a, b, live.get(random.nextInt(live.size()))};
            guarded(() -> registry.destroy(batch, 0, batch.length));
            for (final long e : batch) {
              if (model.live(e)) {
                model.destroy(e);
              }
            }
          }
          case 10 -> {
            if (0 == random.nextInt(4)) {
              guarded(() -> hierarchy.nodes().clear());
              model.clearLinks();
            }
          }
          default -> {
            model.create(registry.create());
            model.create(registry.create());
          }
        }
        model.check(registry, hierarchy, "seed " + seed + " step " + step + " op " + op);
      }
      guarded(registry::clear);
      model.parents.clear();
      model.check(registry, hierarchy, "seed " + seed + " after clear");
      assertEquals(0, hierarchy.nodes().size());
    }
  }

  @ParameterizedTest
  @CsvSource({"1, false", "2, false", "3, false", "1, true", "2, true", "3, true"})
  void everyChangeIsWholeWhateverTheKthListenerCallThrows(
      final long seed, final boolean fromThenOn) {
    final Run clean = new Run(0, false);
    clean.program(seed);
    assertTrue(clean.calls > 20, clean.calls + " listener calls");
    assertEquals(List.of(), clean.seenBroken);
    for (int k = 1; k <= clean.calls + 1; k++) {
      final Run faulted = new Run(k, fromThenOn);
      faulted.program(seed);
      assertEquals(List.of(), faulted.seenBroken, "k " + k);
      assertEquals(clean.calls, faulted.calls, "k " + k + ": the same listener calls");
      assertEquals(k <= clean.calls, faulted.thrown > 0, "k " + k);
    }
  }

  @Test
  void anAttachCommandIsAppliedWholeWhenANodeListenerThrows() {
    // A defect this guards against: attach commands were left half done (nodes created, not
    // linked) by a throwing construct listener of the node storage.
    final Registry registry = new Registry();
    final Hierarchy hierarchy = Hierarchy.of(registry);
    final int[] calls = {0};
    hierarchy
        .nodes()
        .onConstruct()
        .connect(
            (r, e) -> {
              if (1 == ++calls[0]) {
                throw new Injected(calls[0]);
              }
            });
    final long parent = registry.create();
    final long child = registry.create();
    final CommandBuffer commands = new CommandBuffer(registry);
    commands.attach(child, parent);
    try {
      commands.apply();
    } catch (final Injected expected) {
      // The first listener exception is rethrown once the command is applied.
    }
    assertEquals(parent, hierarchy.parent(child));
    assertEquals(1, hierarchy.childCount(parent));
    assertEquals(2, calls[0]);
    assertEquals(List.of(), registry.verify());
  }
}
