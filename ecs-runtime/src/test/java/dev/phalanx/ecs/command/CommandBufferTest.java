package dev.phalanx.ecs.command;

import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.GroupTypes.A;
import dev.phalanx.ecs.GroupTypes.B;
import dev.phalanx.ecs.ObjectStorage;
import dev.phalanx.ecs.OwningGroup;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Command buffers: recorded during iterations, applied later, deterministic, tolerant of dead
 * targets.
 */
class CommandBufferTest {

  @Test
  void commandsRecordedDuringAnIterationApplyAfterIt() {
    final Registry registry = new Registry();
    final List<Long> all = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      final long e = registry.create();
      registry.emplace(e, TA, new A(i));
      all.add(e);
    }
    final CommandBuffer commands = new CommandBuffer(registry);
    registry
        .view(TA)
        .each(
            e -> {
              if (registry.get(e, TA).value() % 2 == 0) {
                commands.destroy(e);
                final long child = commands.create();
                commands.emplace(child, TB, new B(registry.get(e, TA).value()));
              }
            });
    assertEquals(10, registry.alive(), "nothing happens before apply");
    commands.apply();
    assertEquals(10, registry.alive());
    assertEquals(5, registry.storage(TA).size());
    assertEquals(5, registry.storage(TB).size());
    assertEquals(0, commands.skipped());
    assertTrue(commands.isEmpty());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void deadTargetsAreSkippedAndCountedNeverHalfApplied() {
    final Registry registry = new Registry();
    final long a = registry.create();
    final long b = registry.create();
    final CommandBuffer commands = new CommandBuffer(registry);
    commands.emplace(a, TA, new A(1));
    commands.destroy(b);
    commands.emplace(b, TA, new A(2)); // b is dead by then: skipped
    commands.erase(a, TB); // a has no B: skipped
    commands.replace(a, TB, new B(0)); // likewise
    commands.remove(a, TB); // tolerant: nothing, not counted
    commands.emplace(a, TA, new A(3)); // a has A by then: replaced
    commands.apply();
    assertEquals(3, commands.skipped());
    assertEquals(3, registry.get(a, TA).value());
    assertFalse(registry.valid(b));
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void attachLinksReservedEntitiesAndSkipsCyclesAndTheDead() {
    final Registry registry = new Registry();
    final Hierarchy hierarchy = Hierarchy.of(registry);
    final long root = registry.create();
    final long dead = registry.create();
    final CommandBuffer commands = new CommandBuffer(registry);
    final long child = commands.create();
    final long grandchild = commands.create();
    commands.attach(child, root);
    commands.attach(grandchild, child);
    commands.attach(root, grandchild); // a cycle by then: skipped
    commands.destroy(dead);
    commands.attach(child, dead); // dead parent: skipped
    commands.apply();
    assertEquals(2, commands.skipped());
    assertEquals(2, hierarchy.depth(hierarchy.firstChild(hierarchy.firstChild(root))));
    assertEquals(List.of(), hierarchy.verify());
    assertEquals(List.of(), registry.danglingReferences());
  }

  @Test
  void applyingInsideAnIterationIsRefusedAndKeepsTheBuffer() {
    final Registry registry = new Registry();
    registry.emplace(registry.create(), TA, new A(0));
    final CommandBuffer commands = new CommandBuffer(registry);
    commands.emplace(commands.create(), TA, new A(1));
    assertThrows(
        ConcurrentModificationException.class, () -> registry.view(TA).each(e -> commands.apply()));
    assertEquals(1, registry.storage(TA).size());
    assertEquals(1, commands.size());
    commands.apply();
    assertEquals(2, registry.storage(TA).size());
  }

  @Test
  void listenerFailuresDoNotStopTheBuffer() {
    final Registry registry = new Registry();
    registry
        .storage(TA)
        .onConstruct()
        .connect(
            (r, e) -> {
              throw new IllegalStateException("listener");
            });
    final CommandBuffer commands = new CommandBuffer(registry);
    for (int i = 0; i < 3; i++) {
      commands.emplace(commands.create(), TA, new A(i));
    }
    final IllegalStateException error = assertThrows(IllegalStateException.class, commands::apply);
    assertEquals(2, error.getSuppressed().length);
    assertEquals(3, registry.storage(TA).size());
    assertTrue(commands.isEmpty());
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 4})
  void parallelRecordingGivesTheSameWorldWhateverTheThreadCount(final int threads) {
    assertEquals(run(1), run(threads));
  }

  /** Spawns and kills from a parallel pass; returns the world as a map of entity to values. */
  private static TreeMap<Long, String> run(final int threads) {
    final Registry registry = new Registry();
    for (int i = 0; i < 100_000; i++) {
      final long e = registry.create();
      registry.emplace(e, TA, new A(i));
      registry.emplace(e, TB, new B(i));
    }
    final OwningGroup group = registry.owningGroup(TA, TB);
    final ObjectStorage<A> as = registry.storage(TA);
    final CommandBuffers commands = new CommandBuffers(registry);
    final ForkJoinPool pool = new ForkJoinPool(threads);
    try {
      for (int frame = 0; frame < 3; frame++) {
        group.parallelEachChunk(
            pool,
            (from, to) -> {
              final CommandBuffer buffer = commands.forRun(from);
              for (int position = from; position < to; position++) {
                final A a = as.valueAt(position);
                if (a.value() % 7 == 0) {
                  buffer.destroy(group.entityAt(position));
                  final long spawn = buffer.create();
                  buffer.emplace(spawn, TA, new A(a.value() + 1));
                  buffer.emplace(spawn, TB, new B(a.value()));
                }
              }
            });
        commands.apply();
      }
    } finally {
      pool.shutdown();
    }
    assertEquals(List.of(), registry.verify());
    final TreeMap<Long, String> world = new TreeMap<>();
    for (final long e : registry.storage(TA).packed()) {
      if (registry.valid(e)) {
        world.put(e, registry.get(e, TA).value() + "/" + registry.get(e, TB).value());
      }
    }
    return world;
  }

  @Test
  void randomProgramsEqualTheSameChangesMadeDirectly() {
    for (long seed = 1; seed <= 20; seed++) {
      final Registry buffered = new Registry();
      final Registry direct = new Registry();
      final Random random = new Random(seed);
      for (int i = 0; i < 200; i++) {
        final long e = buffered.create();
        direct.create();
        if (random.nextBoolean()) {
          buffered.emplace(e, TA, new A(i));
          direct.emplace(e, TA, new A(i));
        }
      }
      final CommandBuffer commands = new CommandBuffer(buffered);
      final List<Runnable> directly = new ArrayList<>();
      buffered
          .view(TA)
          .each(
              e -> {
                final int value = random.nextInt(1000);
                switch (random.nextInt(4)) {
                  case 0 -> {
                    commands.destroy(e);
                    directly.add(() -> direct.destroy(e));
                  }
                  case 1 -> {
                    commands.emplace(e, TB, new B(value));
                    directly.add(() -> direct.emplaceOrReplace(e, TB, new B(value)));
                  }
                  case 2 -> {
                    commands.remove(e, TA);
                    directly.add(() -> direct.remove(e, TA));
                  }
                  default -> {
                    final long spawn = commands.create();
                    commands.emplace(spawn, TB, new B(value));
                    directly.add(() -> direct.emplace(direct.create(), TB, new B(value)));
                  }
                }
              });
      commands.apply();
      directly.forEach(Runnable::run);
      // Reserved entities are created before the commands run, so identifiers may differ from the
      // direct program's (which recycles destroyed ones first): compare the components per entity.
      assertEquals(describe(direct), describe(buffered), "seed " + seed);
      assertEquals(List.of(), buffered.verify());
    }
  }

  private static List<String> describe(final Registry registry) {
    final List<String> world = new ArrayList<>();
    registry
        .entities()
        .each(
            e ->
                world.add(
                    (registry.has(e, TA) ? "A" + registry.get(e, TA).value() : "")
                        + (registry.has(e, TB) ? "B" + registry.get(e, TB).value() : "")));
    world.sort(null);
    return world;
  }

  @Test
  void theEndOfAParallelPassHandsABufferToAnotherThread() throws Exception {
    final Registry registry = new Registry();
    final long[] entities = new long[64];
    registry.create(entities);
    for (final long e : entities) {
      registry.emplace(e, TA, new A(1));
      registry.emplace(e, TB, new B(1));
    }
    final OwningGroup group = registry.owningGroup(TA, TB);
    final CommandBuffer buffer = new CommandBuffer(registry);
    final ForkJoinPool pool = new ForkJoinPool(2);
    try {
      // One task (64 elements, a grain of 1,024): the calling thread runs it and records.
      group.parallelEachChunk(pool, 1024, (from, to) -> buffer.destroy(group.entityAt(from)));
    } finally {
      pool.shutdown();
    }
    // The pass ended, a sync point: another thread may record into the buffer now.
    final Throwable[] refused = {null};
    final Thread other =
        new Thread(
            () -> {
              try {
                buffer.destroy(entities[entities.length - 1]);
              } catch (final RuntimeException e) {
                refused[0] = e;
              }
            });
    other.start();
    other.join();
    assertNull(refused[0], "the end of the pass let another thread record");
    buffer.apply();
    assertEquals(entities.length - 2, registry.alive());
    assertEquals(List.of(), registry.verify());
  }
}
