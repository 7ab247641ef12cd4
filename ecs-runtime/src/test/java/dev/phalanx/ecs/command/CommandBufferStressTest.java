package dev.phalanx.ecs.command;

import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TB;
import static dev.phalanx.ecs.GroupTypes.TC;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.GroupTypes.A;
import dev.phalanx.ecs.GroupTypes.B;
import dev.phalanx.ecs.GroupTypes.C;
import dev.phalanx.ecs.ObjectStorage;
import dev.phalanx.ecs.OwningGroup;
import dev.phalanx.ecs.Registry;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.Test;

/**
 * 16 threads recording from a parallel pass: used correctly (a buffer per run, handed out by the
 * pass) the world is the one a single thread makes; misused (runs sharing a buffer, as the guide's
 * {@code forRun(from)} with a page offset did) it is refused, or, when no two threads met, the
 * world is still the right one: never a silent loss.
 */
class CommandBufferStressTest {

  private static final int ENTITIES = 100_000;

  private static Registry world() {
    final Registry registry = new Registry();
    for (int i = 0; i < ENTITIES; i++) {
      final long e = registry.create();
      registry.emplace(e, TA, new A(i));
      registry.emplace(e, TB, new B(i));
    }
    registry.owningGroup(TA, TB);
    return registry;
  }

  /** Every third member dies and spawns one with a C; returns the world's content. */
  private static List<String> correct(final int threads, final int frames) {
    final Registry registry = world();
    final OwningGroup group = registry.owningGroup(TA, TB);
    final ObjectStorage<A> as = registry.storage(TA);
    final CommandBuffers commands = new CommandBuffers(registry);
    final ForkJoinPool pool = new ForkJoinPool(threads);
    try {
      for (int frame = 0; frame < frames; frame++) {
        commands.parallelEachChunk(
            group,
            pool,
            (buffer, entities, from, to) -> {
              for (int p = from; p < to; p++) {
                final int value = as.valueAt(p).value();
                if (0 == value % 3) {
                  buffer.destroy(entities[p]);
                  final long spawn = buffer.create();
                  buffer.emplace(spawn, TC, new C(value));
                  buffer.emplace(spawn, TA, new A(value + 1));
                  buffer.emplace(spawn, TB, new B(value + 1));
                }
              }
            });
        commands.apply();
      }
    } finally {
      pool.shutdown();
    }
    assertEquals(List.of(), registry.verify());
    return content(registry);
  }

  private static List<String> content(final Registry registry) {
    final List<String> out = new ArrayList<>();
    registry
        .entities()
        .each(
            e ->
                out.add(
                    e
                        + ":"
                        + registry.tryGet(e, TA)
                        + registry.tryGet(e, TB)
                        + registry.tryGet(e, TC)));
    return out;
  }

  @Test
  void sixteenThreadsGiveTheWorldOfOne() {
    assertEquals(correct(1, 3), correct(16, 3));
  }

  @Test
  void runsSharingABufferAreRefusedOrHarmlessNeverSilent() {
    final List<String> expected = destroyedByOneThread();
    int refused = 0;
    for (int round = 0; round < 10; round++) {
      final Registry registry = world();
      final OwningGroup group = registry.owningGroup(TA, TB);
      final CommandBuffers commands = new CommandBuffers(registry);
      final ForkJoinPool pool = new ForkJoinPool(16);
      try {
        group.parallelEachChunk(
            pool,
            (entities, from, to) -> {
              // The misuse: a key shared by many runs (a page offset, here always 0).
              final CommandBuffer buffer = commands.forRun(from & (group.chunkSize() - 1));
              for (int p = from; p < to; p++) {
                buffer.destroy(entities[p]);
              }
            });
      } catch (final ConcurrentModificationException detected) {
        assertTrue(detected.getMessage().contains("records into it"), detected.getMessage());
        refused++;
        commands.clear();
        continue;
      } finally {
        pool.shutdown();
      }
      commands.apply();
      assertEquals(
          expected, content(registry), "a shared buffer that was not refused lost nothing");
      assertEquals(List.of(), registry.verify());
    }
    assertTrue(refused > 0, "16 threads never met in one buffer in 10 rounds");
  }

  private static List<String> destroyedByOneThread() {
    final Registry registry = world();
    final CommandBuffer commands = new CommandBuffer(registry);
    registry
        .owningGroup(TA, TB)
        .eachChunk(
            (entities, from, to) -> {
              for (int p = from; p < to; p++) {
                commands.destroy(entities[p]);
              }
            });
    commands.apply();
    return content(registry);
  }
}
