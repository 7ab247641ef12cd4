package dev.phalanx.ecs.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.DeletionPolicy;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Fixtures;
import dev.phalanx.ecs.Fixtures.Payload;
import dev.phalanx.ecs.ObjectStorage;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.RegistryTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A run of consecutive destroy commands that nothing observes is applied as one batch; the result
 * must be the one of applying them one by one, which a twin registry gets by having a listener
 * (every command then takes the entity-by-entity path). Seeded random buffers mix runs of destroys
 * with other commands, and target live, dead, repeated and reserved entities.
 */
class CommandBufferDestroyRunTest {

  private static final ComponentType<Payload, ObjectStorage<Payload>> A =
      Fixtures.alpha(DeletionPolicy.SWAP_AND_POP);
  private static final ComponentType<Payload, ObjectStorage<Payload>> B =
      Fixtures.beta(DeletionPolicy.IN_PLACE);

  /** Builds the same world for a seed; returns every entity ever created, dead ones included. */
  private static List<Long> build(final Registry registry, final long seed) {
    final Random random = new Random(seed);
    final List<Long> created = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      final long e = registry.create();
      created.add(e);
      if (random.nextInt(3) != 0) {
        registry.emplace(e, A, new Payload(i));
      }
      if (random.nextBoolean()) {
        registry.emplace(e, B, new Payload(-i));
      }
      final long victim = created.get(random.nextInt(created.size()));
      if (random.nextInt(6) == 0 && registry.valid(victim)) {
        registry.destroy(victim);
      }
    }
    return created;
  }

  /** Records the same random commands into {@code buffer} for a seed. */
  private static void record(
      final CommandBuffer buffer, final List<Long> created, final long seed) {
    final Random random = new Random(seed);
    final List<Long> reserved = new ArrayList<>();
    for (int i = 0; i < 150; i++) {
      final int kind = random.nextInt(10);
      if (kind < 6) {
        // Runs form where destroys follow each other; some targets are dead or repeated.
        buffer.destroy(created.get(random.nextInt(created.size())));
      } else if (kind < 7 && !reserved.isEmpty()) {
        buffer.destroy(reserved.get(random.nextInt(reserved.size())));
      } else if (kind < 8) {
        final long e = buffer.create();
        reserved.add(e);
        buffer.emplace(e, A, new Payload(1000 + i));
      } else {
        buffer.emplace(created.get(random.nextInt(created.size())), B, new Payload(2000 + i));
      }
    }
  }

  @Test
  void aRunOfDestroysEqualsApplyingThemOneByOne() {
    for (int seed = 0; seed < 40; seed++) {
      final Registry batched = new Registry();
      final Registry single = new Registry();
      // The same storages in the same order in both.
      batched.storage(A);
      batched.storage(B);
      single.storage(A);
      single.storage(B).onDestroy().connect((r, e) -> {});
      final List<Long> created = build(batched, seed);
      assertEquals(created, build(single, seed));
      final CommandBuffer batchedCommands = new CommandBuffer(batched);
      final CommandBuffer singleCommands = new CommandBuffer(single);
      record(batchedCommands, created, 100 + seed);
      record(singleCommands, created, 100 + seed);
      batchedCommands.apply();
      singleCommands.apply();
      assertEquals(singleCommands.skipped(), batchedCommands.skipped(), "seed " + seed);
      assertEquals(RegistryTest.snapshot(single), RegistryTest.snapshot(batched), "seed " + seed);
      for (int i = 0; i < 20; i++) {
        assertEquals(single.create(), batched.create(), "seed " + seed);
      }
      assertEquals(List.of(), batched.verify());
    }
  }

  /**
   * A run that names a handle reserved during the apply (by a queued action) and not created yet is
   * applied as one by one: the earlier destroy frees the identifier the late creation needs under
   * the registry's entity limit, so nothing is refused and every target is destroyed, in both
   * registries alike.
   */
  @Test
  void aRunNamingALateReservationEqualsApplyingItOneByOne() {
    final List<String> outcomes = new ArrayList<>();
    for (final boolean observed : new boolean[] {false, true}) {
      final Registry registry = new Registry(2);
      if (observed) {
        registry.onDestroy().connect((r, e) -> {});
      }
      final long a = registry.create();
      final long b = registry.create();
      final CommandBuffer commands = new CommandBuffer(registry);
      final long[] late = new long[1];
      commands.queue(
          r -> {
            late[0] = commands.create();
            commands.destroy(a);
            commands.destroy(late[0]);
            commands.destroy(b);
          });
      commands.apply();
      assertEquals(0, commands.skipped(), "observed " + observed);
      assertFalse(registry.valid(a), "observed " + observed);
      assertFalse(registry.valid(b), "observed " + observed);
      assertEquals(0, registry.alive(), "observed " + observed);
      outcomes.add(Entity.toString(registry.create()) + " " + Entity.toString(registry.create()));
      assertEquals(List.of(), registry.verify());
    }
    assertEquals(outcomes.get(1), outcomes.get(0), "the same recycling order");
  }
}
