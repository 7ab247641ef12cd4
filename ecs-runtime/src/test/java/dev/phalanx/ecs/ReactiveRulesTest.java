package dev.phalanx.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Fixtures.Payload;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Filtered reactive rules ({@code where}) and removing rules: a seeded run against a model of what
 * each rule collects, and a filter that throws at its k-th call, for every k.
 */
class ReactiveRulesTest {

  private static final ComponentType<Payload, ObjectStorage<Payload>> WATCHED =
      Fixtures.alpha(DeletionPolicy.SWAP_AND_POP);
  private static final ComponentType<Payload, ObjectStorage<Payload>> OTHER =
      Fixtures.beta(DeletionPolicy.IN_PLACE);
  private static final ComponentType<Object, EmptyStorage<Object>> FROZEN =
      Fixtures.tag(DeletionPolicy.SWAP_AND_POP);

  private static Set<Long> collected(final Reactive reactive) {
    final Set<Long> out = new HashSet<>();
    reactive.each(out::add);
    return out;
  }

  @Test
  void aFilteredRuleCollectsOnlyWhatPassesItThen() {
    for (int seed = 0; seed < 20; seed++) {
      final Random random = new Random(seed);
      final Registry registry = new Registry();
      final Reactive moved =
          Reactive.collect(registry, ComponentType.named("moved " + seed))
              .onUpdate(WATCHED, e -> registry.has(e, OTHER) && !registry.has(e, FROZEN))
              .onConstruct(WATCHED, e -> !registry.has(e, FROZEN));
      final Set<Long> expected = new HashSet<>();
      final long[] entities = new long[30];
      registry.create(entities);
      for (int step = 0; step < 600; step++) {
        final long e = entities[random.nextInt(entities.length)];
        switch (random.nextInt(6)) {
          case 0 -> {
            if (!registry.has(e, WATCHED)) {
              registry.emplace(e, WATCHED, new Payload(step));
              if (!registry.has(e, FROZEN)) {
                expected.add(e);
              }
            }
          }
          case 1 -> {
            if (registry.has(e, WATCHED)) {
              registry.replace(e, WATCHED, new Payload(step));
              if (registry.has(e, OTHER) && !registry.has(e, FROZEN)) {
                expected.add(e);
              }
            }
          }
          case 2 -> {
            if (!registry.remove(e, OTHER)) {
              registry.emplace(e, OTHER, new Payload(step));
            }
          }
          case 3 -> {
            if (!registry.remove(e, FROZEN)) {
              registry.emplace(e, FROZEN, new Object());
            }
          }
          case 4 -> registry.remove(e, WATCHED);
          default -> {
            if (random.nextInt(10) == 0) {
              moved.clear();
              expected.clear();
            }
          }
        }
        assertEquals(expected, collected(moved), "seed " + seed + " step " + step);
      }
      assertEquals(List.of(), registry.verify());
    }
  }

  @Test
  void removedRulesCollectNothingMoreAndKeepWhatTheyCollected() {
    final Registry registry = new Registry();
    final Reactive changed =
        Reactive.collect(registry, ComponentType.named("changed"))
            .onConstruct(WATCHED)
            .onUpdate(WATCHED, e -> true)
            .onConstruct(OTHER);
    assertEquals(3, changed.ruleCount());
    final long a = registry.create();
    registry.emplace(a, WATCHED, new Payload(1));
    assertTrue(changed.remove(WATCHED));
    assertFalse(changed.remove(WATCHED), "no rule left on the type");
    assertEquals(1, changed.ruleCount());
    assertEquals(0, registry.storage(WATCHED).onConstruct().size());
    assertEquals(0, registry.storage(WATCHED).onUpdate().size());
    final long b = registry.create();
    registry.emplace(b, WATCHED, new Payload(2));
    registry.replace(a, WATCHED, new Payload(3));
    assertEquals(Set.of(a), collected(changed), "kept, and nothing more collected");
    registry.emplace(b, OTHER, new Payload(4));
    assertEquals(Set.of(a, b), collected(changed));
    changed.disconnect();
    assertEquals(0, changed.ruleCount());
    assertEquals(0, registry.storage(OTHER).onConstruct().size());
    registry.emplace(a, OTHER, new Payload(5));
    assertEquals(Set.of(a, b), collected(changed));
    changed.onConstruct(FROZEN);
    registry.emplace(registry.create(), FROZEN, new Object());
    assertEquals(3, changed.size(), "rules may be added again");
    assertEquals(List.of(), registry.verify());
  }

  /**
   * A filtered destroy rule collects an entity that loses its component, lives on and passes the
   * filter, which runs while the component is still there; it chains like every rule.
   */
  @Test
  void aFilteredDestroyRuleCollectsRemovalsThatPassItBeforeTheRemoval() {
    final Registry registry = new Registry();
    final Reactive lost =
        Reactive.collect(registry, ComponentType.named("lost"))
            .onDestroy(WATCHED, e -> registry.has(e, WATCHED) && registry.has(e, OTHER))
            .onConstruct(FROZEN);
    assertEquals(2, lost.ruleCount());
    final long[] entities = new long[4];
    registry.create(entities);
    for (final long e : entities) {
      registry.emplace(e, WATCHED, new Payload(0));
    }
    registry.emplace(entities[0], OTHER, new Payload(1));
    registry.emplace(entities[2], OTHER, new Payload(2));
    registry.remove(entities[0], WATCHED);
    registry.remove(entities[1], WATCHED);
    registry.destroy(entities[2]);
    assertEquals(Set.of(entities[0]), collected(lost), "passed, lives on");
    registry.emplace(entities[3], FROZEN, new Object());
    assertEquals(Set.of(entities[0], entities[3]), collected(lost), "the chained rule");
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aThrowingFilterStopsNoChangeAndCollectsNothingForThatCall() {
    for (int k = 1; k <= 8; k++) {
      final Registry registry = new Registry();
      final int throwAt = k;
      final int[] calls = {0};
      final Reactive reactive =
          Reactive.collect(registry, ComponentType.named("filtered " + k))
              .onConstruct(
                  WATCHED,
                  e -> {
                    if (++calls[0] == throwAt) {
                      throw new IllegalStateException("injected at call " + throwAt);
                    }
                    return true;
                  });
      final Set<Long> expected = new HashSet<>();
      for (int i = 1; i <= 8; i++) {
        final long e = registry.create();
        if (i == k) {
          final IllegalStateException thrown =
              assertThrows(
                  IllegalStateException.class, () -> registry.emplace(e, WATCHED, new Payload(0)));
          assertTrue(thrown.getMessage().contains("injected"));
        } else {
          registry.emplace(e, WATCHED, new Payload(0));
          expected.add(e);
        }
        assertTrue(registry.has(e, WATCHED), "the change completed, k=" + k);
      }
      assertEquals(expected, collected(reactive), "k=" + k);
      assertEquals(List.of(), registry.verify());
    }
  }
}
