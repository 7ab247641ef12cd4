package dev.phalanx.ecs.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Registry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * {@link Access} against a plain model: random declarations (chained, repeated, more types and
 * resources than the builder's first arrays hold) through {@link Access.Builder} and through {@link
 * SystemDeclaration}; every query, {@code toString} and {@code conflictWith} (the first conflict by
 * component id, then resources in declared order, then entity creation, each with its reason) must
 * be what the model computes from the declarations alone.
 */
class AccessModelTest {

  static final class T0 {}

  static final class T1 {}

  static final class T2 {}

  static final class T3 {}

  static final class T4 {}

  static final class T5 {}

  static final class T6 {}

  static final class T7 {}

  static final class T8 {}

  static final class T9 {}

  static final List<ComponentType<?, ?>> TYPES =
      List.of(
          ComponentType.tag(T0.class),
          ComponentType.tag(T1.class),
          ComponentType.tag(T2.class),
          ComponentType.tag(T3.class),
          ComponentType.tag(T4.class),
          ComponentType.tag(T5.class),
          ComponentType.tag(T6.class),
          ComponentType.tag(T7.class),
          ComponentType.tag(T8.class),
          ComponentType.tag(T9.class));

  static final List<Class<?>> RESOURCES =
      List.of(
          String.class,
          Integer.class,
          Long.class,
          Double.class,
          Float.class,
          Short.class,
          Byte.class,
          Character.class,
          Boolean.class,
          Object.class);

  static final int READ = 1;
  static final int WRITE = 2;
  static final int ITERATE = 4;
  static final int STRUCTURE = 8;

  /** The model: what was declared. */
  static final class Model {
    final Map<ComponentType<?, ?>, Integer> kinds =
        new TreeMap<>(Comparator.comparingInt(ComponentType::id));
    final Map<Class<?>, Integer> resources = new LinkedHashMap<>();
    boolean creates;
    boolean exclusive;

    int kind(final ComponentType<?, ?> type) {
      return kinds.getOrDefault(type, 0);
    }

    int resource(final Class<?> key) {
      return resources.getOrDefault(key, 0);
    }

    String text() {
      final List<String> parts = new ArrayList<>();
      kinds.forEach((type, kind) -> parts.add(type.name() + ":" + describe(kind)));
      resources.forEach(
          (key, kind) ->
              parts.add(key.getSimpleName() + ":" + (0 != (kind & WRITE) ? "write" : "read")));
      if (creates) {
        parts.add("creates entities");
      }
      if (exclusive) {
        parts.add("exclusive");
      }
      return "Access[" + String.join(", ", parts) + "]";
    }

    static String describe(final int kind) {
      final List<String> words = new ArrayList<>();
      if (0 != (kind & WRITE)) {
        words.add("write");
      } else if (0 != (kind & READ)) {
        words.add("read");
      }
      if (0 != (kind & ITERATE)) {
        words.add("iterate");
      }
      if (0 != (kind & STRUCTURE)) {
        words.add("structure");
      }
      return String.join("+", words);
    }

    String conflictWith(final Model other) {
      if (exclusive || other.exclusive) {
        return "the world: " + (exclusive ? "the first" : "the second") + " system is exclusive";
      }
      for (final Map.Entry<ComponentType<?, ?>, Integer> entry : kinds.entrySet()) {
        final int mine = entry.getValue();
        final int theirs = other.kind(entry.getKey());
        final String why = why(mine, theirs);
        if (0 != theirs && null != why) {
          return entry.getKey().name() + ": " + why;
        }
      }
      for (final Map.Entry<Class<?>, Integer> entry : resources.entrySet()) {
        final int mine = entry.getValue();
        final int theirs = other.resource(entry.getKey());
        if (0 != theirs && (0 != (mine & WRITE) || 0 != (theirs & WRITE))) {
          return "resource "
              + entry.getKey().getName()
              + ": "
              + (0 != (mine & WRITE) && 0 != (theirs & WRITE)
                  ? "both write it"
                  : "one writes what the other reads");
        }
      }
      return creates && other.creates ? "entities: both create entities" : null;
    }

    static String why(final int mine, final int theirs) {
      final boolean myStructure = 0 != (mine & STRUCTURE);
      final boolean theirStructure = 0 != (theirs & STRUCTURE);
      if (myStructure && theirStructure) {
        return "both change its structure";
      }
      if (myStructure || theirStructure) {
        return "one changes the structure of what the other uses";
      }
      final boolean myWrite = 0 != (mine & WRITE);
      final boolean theirWrite = 0 != (theirs & WRITE);
      if (myWrite && theirWrite) {
        return "both write it";
      }
      if ((myWrite && 0 != (theirs & READ)) || (theirWrite && 0 != (mine & READ))) {
        return "one writes what the other reads";
      }
      return null;
    }
  }

  /** Declares random things on both a builder and the model; returns the built access. */
  static Access declare(
      final SplittableRandom random, final Model model, final Registry registry, final int n) {
    Access.Builder builder = Access.builder();
    for (int d = 0; d < n; d++) {
      final ComponentType<?, ?> type = TYPES.get(random.nextInt(TYPES.size()));
      final Class<?> key = RESOURCES.get(random.nextInt(RESOURCES.size()));
      final int roll = random.nextInt(20);
      final Access.Builder next;
      if (roll < 3) {
        next = builder.reads(type);
        model.kinds.merge(type, READ, (a, b) -> a | b);
      } else if (roll < 6) {
        next = builder.writes(type);
        model.kinds.merge(type, WRITE, (a, b) -> a | b);
      } else if (roll < 8) {
        next = builder.iterates(type);
        model.kinds.merge(type, ITERATE, (a, b) -> a | b);
      } else if (roll < 9) {
        next = builder.changesStructure(type);
        model.kinds.merge(type, STRUCTURE, (a, b) -> a | b);
      } else if (roll < 10) {
        next = builder.reads(registry.storage(type));
        model.kinds.merge(type, READ, (a, b) -> a | b);
      } else if (roll < 11) {
        next = builder.writes(registry.storage(type));
        model.kinds.merge(type, WRITE, (a, b) -> a | b);
      } else if (roll < 14) {
        next = builder.readsResource(key);
        model.resources.merge(key, READ, (a, b) -> a | b);
      } else if (roll < 17) {
        next = builder.writesResource(key);
        model.resources.merge(key, READ | WRITE, (a, b) -> a | b);
      } else if (roll < 19) {
        next = builder.createsEntities();
        model.creates = true;
      } else if (random.nextInt(4) == 0) {
        next = builder.exclusive();
        model.exclusive = true;
      } else {
        next = builder.uses(b -> b.reads(type));
        model.kinds.merge(type, READ, (a, b) -> a | b);
      }
      assertSame(builder, next, "the builder's methods chain");
      builder = next;
    }
    return builder.build();
  }

  static void assertMatches(final Model model, final Access access) {
    for (final ComponentType<?, ?> type : TYPES) {
      final int kind = model.kind(type);
      assertEquals(0 != (kind & (READ | WRITE)), access.reads(type), type.name());
      assertEquals(0 != (kind & WRITE), access.writes(type), type.name());
      assertEquals(0 != (kind & ITERATE), access.iterates(type), type.name());
      assertEquals(0 != (kind & STRUCTURE), access.changesStructure(type), type.name());
      assertEquals(0 != kind || model.exclusive, access.touches(type), type.name());
    }
    for (final Class<?> key : RESOURCES) {
      final int kind = model.resource(key);
      assertEquals(model.exclusive || 0 != kind, access.readsResource(key), key.getName());
      assertEquals(
          model.exclusive || 0 != (kind & WRITE), access.writesResource(key), key.getName());
    }
    assertEquals(model.creates || model.exclusive, access.createsEntities());
    assertEquals(model.exclusive, access.exclusive());
    assertEquals(model.text(), access.toString());
  }

  @Test
  void randomDeclarationsMatchTheModel() {
    final Registry registry = new Registry();
    for (long seed = 1; seed <= 400; seed++) {
      final SplittableRandom random = new SplittableRandom(seed);
      final Model mine = new Model();
      final Model theirs = new Model();
      final Access a = declare(random, mine, registry, random.nextInt(1 + (int) (seed % 30)));
      final Access b = declare(random, theirs, registry, random.nextInt(8));
      assertMatches(mine, a);
      assertMatches(theirs, b);
      assertEquals(mine.conflictWith(theirs), a.conflictWith(b), a + " against " + b);
      assertEquals(theirs.conflictWith(mine), b.conflictWith(a), b + " against " + a);
      // Together: the union of both.
      final Model both = new Model();
      mine.kinds.forEach((t, k) -> both.kinds.merge(t, k, (x, y) -> x | y));
      theirs.kinds.forEach((t, k) -> both.kinds.merge(t, k, (x, y) -> x | y));
      mine.resources.forEach((t, k) -> both.resources.merge(t, k, (x, y) -> x | y));
      theirs.resources.forEach((t, k) -> both.resources.merge(t, k, (x, y) -> x | y));
      both.creates = mine.creates || theirs.creates;
      both.exclusive = mine.exclusive || theirs.exclusive;
      assertMatches(both, a.with(b));
    }
  }

  @Test
  void noAccessTouchesNothing() {
    final Access none = Access.none();
    assertEquals("Access[]", none.toString());
    assertFalse(none.touches(TYPES.get(0)));
    assertFalse(none.readsResource(String.class));
    assertFalse(none.createsEntities());
    assertEquals(null, none.conflictWith(none));
    final Access exclusive = Access.builder().exclusive().build();
    assertEquals("the world: the first system is exclusive", exclusive.conflictWith(none));
    assertEquals("the world: the second system is exclusive", none.conflictWith(exclusive));
    assertTrue(exclusive.touches(TYPES.get(3)));
  }

  /** The declarations of a system go to its access, each call returning the declaration. */
  @Test
  void aSystemDeclarationChainsIntoTheSystemsAccess() {
    for (long seed = 1; seed <= 60; seed++) {
      final SplittableRandom random = new SplittableRandom(seed);
      final Registry registry = new Registry();
      final ScheduleBuilder builder = Schedule.builder(registry);
      final SystemDeclaration declaration = builder.system("s", context -> {});
      final Model model = new Model();
      SystemDeclaration chained = declaration;
      for (int d = random.nextInt(12); d > 0; d--) {
        final ComponentType<?, ?> type = TYPES.get(random.nextInt(TYPES.size()));
        final Class<?> key = RESOURCES.get(random.nextInt(RESOURCES.size()));
        final SystemDeclaration next =
            switch (random.nextInt(11)) {
              case 0 -> {
                model.kinds.merge(type, READ, (a, b) -> a | b);
                yield chained.reads(type);
              }
              case 1 -> {
                model.kinds.merge(type, WRITE, (a, b) -> a | b);
                yield chained.writes(type);
              }
              case 2 -> {
                model.kinds.merge(type, ITERATE, (a, b) -> a | b);
                yield chained.iterates(type);
              }
              case 3 -> {
                model.kinds.merge(type, STRUCTURE, (a, b) -> a | b);
                yield chained.changesStructure(type);
              }
              case 4 -> {
                model.kinds.merge(type, READ, (a, b) -> a | b);
                yield chained.reads(registry.storage(type));
              }
              case 5 -> {
                model.kinds.merge(type, WRITE, (a, b) -> a | b);
                yield chained.writes(registry.storage(type));
              }
              case 6 -> {
                model.resources.merge(key, READ, (a, b) -> a | b);
                yield chained.readsResource(key);
              }
              case 7 -> {
                model.resources.merge(key, READ | WRITE, (a, b) -> a | b);
                yield chained.writesResource(key);
              }
              case 8 -> {
                model.creates = true;
                yield chained.createsEntities();
              }
              case 9 -> {
                model.kinds.merge(type, WRITE, (a, b) -> a | b);
                yield chained.uses(b -> b.writes(type));
              }
              default -> {
                model.exclusive = true;
                yield chained.exclusive();
              }
            };
        assertSame(declaration, next);
        chained = next;
      }
      assertSame(declaration, declaration.after().before().ambiguousWith().runIf(() -> true));
      assertSame(declaration, declaration.in(Schedule.UPDATE));
      final Schedule schedule = builder.build();
      assertSame(registry, schedule.registry());
      assertEquals(
          List.of(Schedule.PRE_UPDATE, Schedule.UPDATE, Schedule.POST_UPDATE), schedule.stages());
      assertMatches(model, schedule.access("s"));
    }
  }
}
