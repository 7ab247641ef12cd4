package dev.phalanx.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Fixtures.Payload;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * {@link EntityHandle}'s per-entity verbs against the {@link Registry}'s: two registries receive
 * the same seeded operations, one through handles, the other through the registry's methods, and
 * must answer alike (results, exceptions and their messages) and end alike; then the rules one by
 * one: strict {@code erase} against tolerant {@code remove}, and a stale handle refused with the
 * entity and the component named, changing nothing (not the entity that took its index).
 */
class EntityHandleTest {

  private static final ComponentType<Payload, ObjectStorage<Payload>> A =
      Fixtures.alpha(DeletionPolicy.SWAP_AND_POP);
  private static final ComponentType<Payload, ObjectStorage<Payload>> B =
      Fixtures.beta(DeletionPolicy.IN_PLACE);
  private static final ComponentType<Object, EmptyStorage<Object>> TAG =
      Fixtures.tag(DeletionPolicy.SWAP_AND_POP);

  private static final ComponentType<?, ?>[] ALL = {A, B, TAG};

  /** One verb, applied through a handle or through the registry; answers a description. */
  private interface Verb {
    Object apply(Registry registry, long entity, boolean throughHandle, int n);
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
          (r, e, h, n) ->
              via(
                  r,
                  e,
                  h,
                  x -> x.emplace(A, new Payload(n)) == x,
                  () -> null != r.emplace(e, A, new Payload(n))),
          (r, e, h, n) ->
              via(r, e, h, x -> x.emplace(TAG, "t") == x, () -> null != r.emplace(e, TAG, "t")),
          (r, e, h, n) ->
              via(
                  r,
                  e,
                  h,
                  x -> x.patch(A, p -> p.value += n) == x,
                  () -> {
                    r.patch(e, A, p -> p.value += n);
                    return true;
                  }),
          (r, e, h, n) ->
              via(
                  r,
                  e,
                  h,
                  x -> x.patch(B, p -> p.value -= n) == x,
                  () -> {
                    r.patch(e, B, p -> p.value -= n);
                    return true;
                  }),
          (r, e, h, n) ->
              via(
                  r,
                  e,
                  h,
                  x -> x.erase(A) == x,
                  () -> {
                    r.erase(e, A);
                    return true;
                  }),
          (r, e, h, n) ->
              via(
                  r,
                  e,
                  h,
                  x -> x.erase(TAG) == x,
                  () -> {
                    r.erase(e, TAG);
                    return true;
                  }),
          (r, e, h, n) -> via(r, e, h, x -> x.remove(A), () -> r.remove(e, A)),
          (r, e, h, n) -> via(r, e, h, x -> x.remove(B), () -> r.remove(e, B)),
          (r, e, h, n) ->
              via(
                  r,
                  e,
                  h,
                  x -> x.getOrEmplace(A, () -> new Payload(n)).value,
                  () -> r.getOrEmplace(e, A, () -> new Payload(n)).value),
          (r, e, h, n) ->
              via(
                  r,
                  e,
                  h,
                  x -> x.getOrEmplace(B, () -> new Payload(n)).value,
                  () -> r.getOrEmplace(e, B, () -> new Payload(n)).value),
          (r, e, h, n) -> via(r, e, h, x -> x.allOf(A, B), () -> r.allOf(e, A, B)),
          (r, e, h, n) -> via(r, e, h, x -> x.allOf(ALL), () -> r.allOf(e, ALL)),
          (r, e, h, n) ->
              via(
                  r,
                  e,
                  h,
                  x -> x.allOf(new ComponentType<?, ?>[0]),
                  () -> r.allOf(e, new ComponentType<?, ?>[0])),
          (r, e, h, n) -> via(r, e, h, x -> x.anyOf(A, TAG), () -> r.anyOf(e, A, TAG)),
          (r, e, h, n) ->
              via(
                  r,
                  e,
                  h,
                  x -> x.anyOf(new ComponentType<?, ?>[] {B, TAG}),
                  () -> r.anyOf(e, new ComponentType<?, ?>[] {B, TAG})),
          (r, e, h, n) ->
              via(
                  r,
                  e,
                  h,
                  x -> x.anyOf(new ComponentType<?, ?>[0]),
                  () -> r.anyOf(e, new ComponentType<?, ?>[0])));

  private static String answer(
      final Verb verb, final Registry r, final long e, final boolean h, final int n) {
    try {
      return "= " + verb.apply(r, e, h, n);
    } catch (RuntimeException thrown) {
      return thrown.getClass().getSimpleName() + ": " + thrown.getMessage();
    }
  }

  /** The world as both registries must agree on it: validity, then each component's value. */
  private static String state(final Registry registry, final List<Long> entities) {
    final StringBuilder out = new StringBuilder();
    for (final long e : entities) {
      out.append(Entity.toString(e)).append(registry.valid(e) ? " live" : " dead");
      if (registry.valid(e)) {
        final Payload a = registry.tryGet(e, A);
        final Payload b = registry.tryGet(e, B);
        out.append(" a=").append(null == a ? "-" : a.value);
        out.append(" b=").append(null == b ? "-" : b.value);
        out.append(" tag=").append(registry.has(e, TAG));
      }
      out.append('\n');
    }
    return out.toString();
  }

  @Test
  void handlesAnswerAndChangeAsTheRegistryDoes() {
    int answers = 0;
    int refusals = 0;
    for (int seed = 0; seed < 20; seed++) {
      final Random random = new Random(seed);
      final Registry byHandle = new Registry();
      final Registry byRegistry = new Registry();
      final List<Long> entities = new ArrayList<>();
      for (int step = 0; step < 400; step++) {
        final int op = random.nextInt(VERBS.size() + 3);
        if (op >= VERBS.size() || entities.isEmpty()) {
          if (op == VERBS.size() && !entities.isEmpty()) {
            final long e = entities.get(random.nextInt(entities.size()));
            if (byRegistry.valid(e)) {
              byHandle.handle(e).destroy();
              byRegistry.destroy(e);
            }
          } else {
            final long e = byHandle.create();
            assertEquals(e, byRegistry.create());
            entities.add(e);
          }
        } else {
          final long e = entities.get(random.nextInt(entities.size()));
          final Verb verb = VERBS.get(op);
          final String expected = answer(verb, byRegistry, e, false, step);
          final String actual = answer(verb, byHandle, e, true, step);
          final String where = "seed " + seed + ", step " + step + ", verb " + op;
          assertEquals(expected, actual, where);
          answers++;
          refusals += expected.startsWith("=") ? 0 : 1;
        }
        assertEquals(state(byRegistry, entities), state(byHandle, entities));
      }
      assertEquals(List.of(), byHandle.verify());
    }
    // Both kinds of outcome were exercised.
    assertTrue(answers > 1000 && refusals > 100, answers + " answers, " + refusals + " refusals");
  }

  @Test
  void eraseRefusesAnAbsentComponentThatRemoveTolerates() {
    final Registry registry = new Registry();
    final EntityHandle handle = registry.handle(registry.create());
    handle.emplace(B, new Payload(7));
    final IllegalArgumentException thrown =
        assertThrows(IllegalArgumentException.class, () -> handle.erase(A));
    assertTrue(thrown.getMessage().contains(Entity.toString(handle.entity())), thrown.getMessage());
    assertTrue(thrown.getMessage().contains(A.name()), thrown.getMessage());
    assertTrue(thrown.getMessage().contains("has no"), thrown.getMessage());
    assertEquals(List.of(B), handle.components());
    assertFalse(handle.remove(A));
    assertSame(handle, handle.erase(B));
    assertTrue(handle.orphan());
  }

  @Test
  void getOrEmplaceAddsOnlyWhatIsMissingAndNothingWhenTheSupplierThrows() {
    final Registry registry = new Registry();
    final EntityHandle handle = registry.handle(registry.create());
    final Payload first = new Payload(1);
    assertSame(first, handle.getOrEmplace(A, () -> first));
    assertSame(first, handle.getOrEmplace(A, () -> new Payload(2)));
    assertThrows(
        IllegalStateException.class,
        () ->
            handle.getOrEmplace(
                B,
                () -> {
                  throw new IllegalStateException("injected");
                }));
    assertFalse(handle.has(B));
    assertTrue(handle.allOf(new ComponentType<?, ?>[] {A}));
    assertFalse(handle.anyOf(B, TAG));
    handle.patch(A, p -> p.value = 5);
    assertEquals(5, handle.get(A).value);
  }

  @Test
  void aStaleHandleIsRefusedByEveryVerbAndTouchesNotTheEntityThatTookItsIndex() {
    final Registry registry = new Registry();
    final EntityHandle stale = registry.handle(registry.create());
    stale.emplace(A, new Payload(1)).emplace(B, new Payload(2)).emplace(TAG, "t");
    stale.destroy();
    final EntityHandle heir = registry.handle(registry.create());
    assertEquals(Entity.index(stale.entity()), Entity.index(heir.entity()));
    heir.emplace(A, new Payload(3));
    final String before = state(registry, List.of(heir.entity()));
    final boolean[] userCodeRan = {false};
    final List<Executable> verbs =
        List.of(
            () -> stale.patch(A, p -> userCodeRan[0] = true),
            () -> stale.erase(A),
            () -> stale.remove(A),
            () ->
                stale.getOrEmplace(
                    B,
                    () -> {
                      userCodeRan[0] = true;
                      return new Payload(9);
                    }),
            () -> stale.allOf(A, B),
            () -> stale.anyOf(A, TAG));
    for (final Executable verb : verbs) {
      final IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class, verb);
      final String message = thrown.getMessage();
      assertTrue(message.contains(Entity.toString(stale.entity())), message);
      assertTrue(message.contains("not valid"), message);
      assertTrue(message.contains(A.name()) || message.contains(B.name()), message);
    }
    for (final Executable verb :
        List.<Executable>of(() -> stale.allOf(ALL), () -> stale.anyOf(ALL))) {
      final IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class, verb);
      assertTrue(
          thrown.getMessage().contains(Entity.toString(stale.entity())), thrown.getMessage());
    }
    assertFalse(userCodeRan[0], "user code ran for a stale handle");
    assertEquals(before, state(registry, List.of(heir.entity())));
    assertEquals(1, registry.alive());
    assertEquals(List.of(), registry.verify());
  }
}
