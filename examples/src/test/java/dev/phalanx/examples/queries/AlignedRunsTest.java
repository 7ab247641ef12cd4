package dev.phalanx.examples.queries;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Registry;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/**
 * Views walk a run of the leader without lookups when the other storages hold the run's entities at
 * the same positions, until the visitor changes one of them. Seeded worlds where Position and
 * Velocity are filled in the same order (so every run starts aligned), with a visitor that breaks
 * the alignment mid-run: it removes the velocity of entities not visited yet (swap-and-pop moves
 * another element into their place), destroys the visited entity, and creates new ones. Every
 * entity that is a member when the loop reaches it is visited once, with both cursors on its own
 * elements; none is visited after it stopped being a member.
 */
class AlignedRunsTest {

  private static final int N = 3 * 4096 + 500;

  private final Registry registry = new Registry();
  private final Position_Storage positions = registry.storage(Position_Traits.TYPE);
  private final Velocity_Storage velocities = registry.storage(Velocity_Traits.TYPE);
  private final List<Long> members = new ArrayList<>();

  private void populate() {
    for (int i = 0; i < N; i++) {
      final long e = registry.create();
      positions.emplace(e, i, -i);
      velocities.emplace(e, 1, 2);
      members.add(e);
    }
    // Velocity-only entities after them: Velocity stays the larger storage (the visitor removes
    // about two thousand velocities in three passes), so Position leads and the visitor may remove
    // velocities of entities not visited yet.
    for (int i = 0; i < 4000; i++) {
      velocities.emplace(registry.create(), 0, 0);
    }
  }

  /** Runs one pass of {@code each} with a visitor that changes the storages, checking it. */
  private void pass(final Random random, final BiConsumer<Set<Long>, Visit> each) {
    final Set<Long> pending = new HashSet<>();
    for (final long e : members) {
      if (registry.valid(e) && velocities.contains(e)) {
        pending.add(e);
      }
    }
    final int[] visits = {0};
    each.accept(
        pending,
        (e, positionEntity, velocityEntity, at) -> {
          assertTrue(pending.remove(e), () -> "not a member when reached, or visited twice: " + e);
          assertEquals(e, positionEntity);
          assertEquals(e, velocityEntity);
          visits[0]++;
          final int roll = random.nextInt(40);
          final int ahead = at - 1 - random.nextInt(16);
          if (roll < 2 && ahead >= 0 && pending.contains(positions.packed()[ahead])) {
            // An entity a few positions ahead, in the same run most of the time, loses its
            // velocity: it is no longer a member, and another velocity takes its place.
            final long victim = positions.packed()[ahead];
            velocities.remove(victim);
            pending.remove(victim);
          } else if (roll == 2) {
            registry.destroy(e);
          } else if (roll == 3) {
            final long born = registry.create();
            positions.emplace(born, 0, 0);
            velocities.emplace(born, 0, 0);
            // A member from the next pass on: appended, it is not visited in this one.
            members.add(born);
          }
        });
    assertTrue(visits[0] > 0);
    assertEquals(Set.of(), pending, "members never visited");
    assertTrue(registry.verify().isEmpty(), registry.verify().toString());
  }

  /**
   * What the test's visitor sees: the entity, the entities its two cursors point at and the
   * Position cursor's position.
   */
  @FunctionalInterface
  private interface Visit {
    void visit(long entity, long positionEntity, long velocityEntity, int position);
  }

  @Test
  void theGeneratedViewStaysCorrectWhenTheVisitorBreaksTheAlignment() {
    for (int seed = 0; seed < 4; seed++) {
      populate();
      final MovingQuery query = MovingQuery.of(registry);
      final Random random = new Random(seed);
      for (int round = 0; round < 3; round++) {
        pass(
            random,
            (pending, visit) ->
                query.each(
                    (e, p, v) ->
                        visit.visit(e, p.currentEntity(), v.currentEntity(), p.currentPosition())));
      }
      registry.clear();
      members.clear();
    }
  }

  @Test
  void aPartialOwningGroupReachesItsGetStorageWhateverItsOrder() {
    final Spin_Storage spins = registry.storage(Spin_Traits.TYPE);
    final SpinningQuery query = SpinningQuery.of(registry);
    populate();
    final List<Long> velocityOnly = new ArrayList<>();
    for (final long e : members) {
      spins.emplace(e, 1);
    }
    for (int i = 0; i < velocities.size(); i++) {
      if (!spins.contains(velocities.packed()[i])) {
        velocityOnly.add(velocities.packed()[i]);
      }
    }
    final Random random = new Random(7);
    for (int round = 0; round < 3; round++) {
      final Set<Long> pending = new HashSet<>();
      for (int i = 0; i < query.size(); i++) {
        pending.add(query.group().entityAt(i));
      }
      query.each(
          (e, spin, velocity) -> {
            assertTrue(pending.remove(e), () -> "not a member when reached: " + e);
            assertEquals(e, spin.currentEntity());
            assertEquals(e, velocity.currentEntity());
            final int roll = random.nextInt(30);
            if (roll == 0 && !velocityOnly.isEmpty()) {
              // A non-member loses its velocity: another one moves into its place.
              velocities.remove(velocityOnly.remove(0));
            } else if (roll == 1) {
              registry.destroy(e);
            }
          });
      assertEquals(Set.of(), pending, "members never visited");
      // Reorder the group's storage: the get storage is no longer in its order at all.
      query.group().sort((a, b) -> Long.compare(b, a));
    }
    assertTrue(registry.verify().isEmpty(), registry.verify().toString());
  }

  @Test
  void theTypedViewStaysCorrectWhenTheVisitorBreaksTheAlignment() {
    for (int seed = 0; seed < 4; seed++) {
      populate();
      final Random random = new Random(50 + seed);
      for (int round = 0; round < 3; round++) {
        pass(
            random,
            (pending, visit) ->
                registry
                    .typedView(Position_Traits.TYPE, Velocity_Traits.TYPE)
                    .leadBy(positions)
                    .each(
                        (e, p, v) ->
                            visit.visit(
                                e, p.currentEntity(), v.currentEntity(), p.currentPosition())));
      }
      registry.clear();
      members.clear();
    }
  }
}
