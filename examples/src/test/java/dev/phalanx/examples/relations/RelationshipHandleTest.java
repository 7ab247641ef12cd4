package dev.phalanx.examples.relations;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.EntityHandle;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.relation.Relation;
import dev.phalanx.ecs.relation.RelationshipStorage;
import dev.phalanx.examples.components.Position_Traits;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * {@link EntityHandle}'s verbs on relationship kinds against the {@link Registry}'s: two registries
 * receive the same seeded operations (adding, replacing and removing relationships to live, dead
 * and cycle-closing targets, and destroys under each policy), one through handles, the other
 * through the registry's methods, and must answer alike (results, exceptions and their messages)
 * and end alike, both sides of every kind included.
 */
class RelationshipHandleTest {

  /** One verb, applied through a handle or through the registry; answers a description. */
  private interface Verb {
    Object apply(Registry registry, long entity, long target, boolean throughHandle, int n);
  }

  private static <T> T via(
      final Registry registry,
      final long entity,
      final boolean throughHandle,
      final Function<EntityHandle, T> handle,
      final Supplier<T> direct) {
    return throughHandle ? handle.apply(registry.handle(entity)) : direct.get();
  }

  private static final List<Verb> VERBS =
      List.of(
          (r, e, t, h, n) ->
              via(
                  r,
                  e,
                  h,
                  x -> x.emplace(Docked_Traits.TYPE, new Docked(t, n)).get(Docked_Traits.TYPE),
                  () -> r.emplace(e, Docked_Traits.TYPE, new Docked(t, n))),
          (r, e, t, h, n) ->
              via(
                  r,
                  e,
                  h,
                  x -> x.emplace(OwnedBy_Traits.TYPE, new OwnedBy(t)).get(OwnedBy_Traits.TYPE),
                  () -> r.emplace(e, OwnedBy_Traits.TYPE, new OwnedBy(t))),
          (r, e, t, h, n) ->
              via(
                  r,
                  e,
                  h,
                  x ->
                      x.emplaceOrReplace(Targets_Traits.TYPE, new Targets(t, n))
                          .get(Targets_Traits.TYPE),
                  () -> r.emplaceOrReplace(e, Targets_Traits.TYPE, new Targets(t, n))),
          (r, e, t, h, n) ->
              via(
                  r,
                  e,
                  h,
                  x -> x.replace(OwnedBy_Traits.TYPE, new OwnedBy(t)).get(OwnedBy_Traits.TYPE),
                  () -> r.replace(e, OwnedBy_Traits.TYPE, new OwnedBy(t))),
          (r, e, t, h, n) ->
              via(
                  r,
                  e,
                  h,
                  x -> x.replace(Docked_Traits.TYPE, new Docked(t, -n)).get(Docked_Traits.TYPE),
                  () -> r.replace(e, Docked_Traits.TYPE, new Docked(t, -n))),
          (r, e, t, h, n) ->
              via(
                  r,
                  e,
                  h,
                  x -> x.remove(OwnedBy_Traits.TYPE),
                  () -> r.remove(e, OwnedBy_Traits.TYPE)),
          (r, e, t, h, n) ->
              via(
                  r,
                  e,
                  h,
                  x -> x.erase(Docked_Traits.TYPE).entity(),
                  () -> {
                    r.erase(e, Docked_Traits.TYPE);
                    return e;
                  }),
          (r, e, t, h, n) ->
              via(
                  r,
                  e,
                  h,
                  x -> x.tryGet(Targets_Traits.TYPE),
                  () -> r.tryGet(e, Targets_Traits.TYPE)),
          (r, e, t, h, n) ->
              via(r, e, h, x -> x.get(OwnedBy_Traits.TYPE), () -> r.get(e, OwnedBy_Traits.TYPE)),
          (r, e, t, h, n) ->
              via(
                  r,
                  e,
                  h,
                  x -> {
                    x.destroy();
                    return e;
                  },
                  () -> {
                    r.destroy(e);
                    return e;
                  }));

  private static final List<ComponentType<?, ?>> KINDS =
      List.of(Docked_Traits.TYPE, OwnedBy_Traits.TYPE, Targets_Traits.TYPE);

  private static String answer(
      final Verb verb, final Registry r, final long e, final long t, final boolean h, final int n) {
    try {
      return "= " + verb.apply(r, e, t, h, n);
    } catch (RuntimeException thrown) {
      return thrown.getClass().getSimpleName() + ": " + thrown.getMessage();
    }
  }

  /** The world as both registries must agree on it: validity, each kind's value and sources. */
  private static String state(final Registry registry, final List<Long> entities) {
    final StringBuilder out = new StringBuilder();
    for (final long e : entities) {
      out.append(Entity.toString(e)).append(registry.valid(e) ? " live" : " dead");
      if (registry.valid(e)) {
        for (final ComponentType<?, ?> kind : KINDS) {
          final Relation<?> relation =
              ((RelationshipStorage<?>) registry.findStorage(kind)).relation();
          out.append(' ').append(kind.name()).append('=').append(registry.tryGet(e, kind));
          out.append(" sources=").append(java.util.Arrays.toString(relation.sources(e)));
        }
      }
      out.append('\n');
    }
    return out.toString();
  }

  /** A handle's {@code target}, {@code sourceCount} and {@code sources} answer as the relation. */
  private static void assertLinksAgree(final Registry registry, final List<Long> entities) {
    for (final long e : entities) {
      final EntityHandle handle = registry.handle(e);
      for (final ComponentType<?, ?> kind : KINDS) {
        final Relation<?> relation =
            ((RelationshipStorage<?>) registry.findStorage(kind)).relation();
        assertEquals(relation.target(e), handle.target(kind));
        assertEquals(relation.sourceCount(e), handle.sourceCount(kind));
        assertArrayEquals(relation.sources(e), handle.sources(kind));
      }
    }
  }

  @Test
  void aHandleRefusesTheLinksOfAKindThatIsNoRelationship() {
    final Registry registry = new Registry();
    final EntityHandle handle = registry.handle(registry.create());
    final IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, () -> handle.target(Position_Traits.TYPE));
    assertTrue(refused.getMessage().contains("Position"), refused.getMessage());
    assertTrue(refused.getMessage().contains("not a relationship kind"), refused.getMessage());
    assertThrows(IllegalArgumentException.class, () -> handle.sources(Position_Traits.TYPE));
    assertThrows(IllegalArgumentException.class, () -> handle.sourceCount(Position_Traits.TYPE));
    final long carrier = registry.create();
    registry.emplace(handle.entity(), Docked_Traits.TYPE, new Docked(carrier, 0));
    assertEquals(carrier, handle.target(Docked_Traits.TYPE));
    assertArrayEquals(
        new long[] {handle.entity()}, registry.handle(carrier).sources(Docked_Traits.TYPE));
    assertEquals(1, registry.handle(carrier).sourceCount(Docked_Traits.TYPE));
    assertEquals(Entity.NULL, registry.handle(carrier).target(Docked_Traits.TYPE));
  }

  @Test
  void handlesAnswerAndChangeRelationshipsAsTheRegistryDoes() {
    int answers = 0;
    int refusals = 0;
    for (int seed = 0; seed < 12; seed++) {
      final Random random = new Random(seed);
      final Registry byHandle = new Registry();
      final Registry byRegistry = new Registry();
      for (final ComponentType<?, ?> kind : KINDS) {
        byHandle.storage(kind);
        byRegistry.storage(kind);
      }
      final List<Long> entities = new ArrayList<>();
      for (int step = 0; step < 400; step++) {
        final int op = random.nextInt(VERBS.size() + 2);
        if (op >= VERBS.size() || entities.size() < 2) {
          final long e = byHandle.create();
          assertEquals(e, byRegistry.create());
          entities.add(e);
        } else {
          final long e = entities.get(random.nextInt(entities.size()));
          final long t = entities.get(random.nextInt(entities.size()));
          final Verb verb = VERBS.get(op);
          final String expected = answer(verb, byRegistry, e, t, false, step);
          final String actual = answer(verb, byHandle, e, t, true, step);
          final String where = "seed " + seed + ", step " + step + ", verb " + op;
          assertEquals(expected, actual, where);
          answers++;
          refusals += expected.startsWith("=") ? 0 : 1;
        }
        assertEquals(state(byRegistry, entities), state(byHandle, entities));
        assertLinksAgree(byHandle, entities);
      }
      assertEquals(List.of(), byHandle.verify());
      assertEquals(List.of(), byRegistry.verify());
    }
    // Both kinds of outcome were exercised.
    assertTrue(answers > 1000 && refusals > 200, answers + " answers, " + refusals + " refusals");
  }
}
