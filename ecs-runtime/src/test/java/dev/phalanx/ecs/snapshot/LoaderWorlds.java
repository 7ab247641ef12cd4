package dev.phalanx.ecs.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.DeletionPolicy;
import dev.phalanx.ecs.EmptyStorage;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.PrimitiveColumnsStorageA;
import dev.phalanx.ecs.PrimitiveColumnsStorageA.Col;
import dev.phalanx.ecs.PrimitiveColumnsStorageA.Pages;
import dev.phalanx.ecs.PrimitiveColumnsStorageA.Row;
import dev.phalanx.ecs.Registry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Small worlds for the loaders' contract tests: an {@code int} storage, a {@code char} storage, an
 * in-place storage with a string, an enum, a float and an entity reference, and a local-only tag;
 * with helpers to save them and to compare a mirror with its remote world through a loader's map.
 */
final class LoaderWorlds {

  private LoaderWorlds() {}

  enum Mood {
    CALM,
    ANGRY,
    SLEEPY
  }

  static final class Ints {}

  static final class Chars {}

  static final class Mixed {}

  static final class LocalOnly {}

  static final ComponentType<Row, PrimitiveColumnsStorageA> INTS =
      PrimitiveColumnsStorageA.define(
          Ints.class, 4, DeletionPolicy.SWAP_AND_POP, Pages.KEEPS, Col.of("value", int.class));
  static final ComponentType<Row, PrimitiveColumnsStorageA> CHARS =
      PrimitiveColumnsStorageA.define(
          Chars.class, 8, DeletionPolicy.SWAP_AND_POP, Pages.KEEPS, Col.of("letter", char.class));
  static final ComponentType<Row, PrimitiveColumnsStorageA> MIXED =
      PrimitiveColumnsStorageA.define(
          Mixed.class,
          4,
          DeletionPolicy.IN_PLACE,
          Pages.KEEPS,
          Col.of("name", String.class),
          Col.of("mood", Mood.class),
          Col.of("ratio", float.class),
          Col.entity("target"));
  static final ComponentType<Object, EmptyStorage<Object>> LOCAL_ONLY =
      ComponentType.tag(castClass(LocalOnly.class));

  /** The types the worlds save, for the loaders. */
  static final ComponentType<?, ?>[] TYPES = {INTS, CHARS, MIXED};

  @SuppressWarnings({"unchecked", "rawtypes"}) // a marker class standing for Object
  private static Class<Object> castClass(final Class<?> marker) {
    return (Class) marker;
  }

  /** A remote world of {@code n} entities, each with an int and a char. */
  static Registry intsAndChars(final int n) {
    final Registry remote = new Registry();
    final long[] entities = new long[n];
    remote.create(entities);
    for (int i = 0; i < n; i++) {
      remote.emplace(entities[i], INTS, Row.of(100 + i));
      remote.emplace(entities[i], CHARS, Row.of((char) ('a' + i)));
    }
    return remote;
  }

  /** Gives {@code entity} a random mixed component referring to one of {@code entities}. */
  static void mix(
      final Registry remote,
      final long entity,
      final long[] entities,
      final SplittableRandom random) {
    final long target =
        random.nextInt(4) == 0 ? Entity.NULL : entities[random.nextInt(entities.length)];
    final Row row =
        Row.of(
            random.nextInt(5) == 0 ? null : "n" + random.nextInt(10),
            random.nextInt(5) == 0 ? null : Mood.values()[random.nextInt(3)],
            (float) random.nextInt(4),
            target);
    remote.storage(MIXED).emplaceOrReplace(entity, row);
  }

  /** Changes a random part of {@code remote}: creates, destroys, adds, replaces, removes. */
  static void churn(final Registry remote, final SplittableRandom random, final int steps) {
    for (int step = 0; step < steps; step++) {
      final long[] live = live(remote);
      final int what = random.nextInt(8);
      if (0 == live.length || 0 == what) {
        final long entity = remote.create();
        remote.emplace(entity, INTS, Row.of(random.nextInt(50)));
        continue;
      }
      final long entity = live[random.nextInt(live.length)];
      switch (what) {
        case 1 -> remote.destroy(entity);
        case 2 -> remote.emplaceOrReplace(entity, INTS, Row.of(random.nextInt(50)));
        case 3 -> remote.remove(entity, INTS);
        case 4 -> remote.emplaceOrReplace(entity, CHARS, Row.of((char) ('a' + random.nextInt(26))));
        case 5 -> remote.remove(entity, CHARS);
        case 6 -> mix(remote, entity, live, random);
        default -> remote.remove(entity, MIXED);
      }
    }
  }

  /** Writes {@code writer}'s next delta, then loads it: write first, then read its bytes. */
  static void load(final DeltaLoader loader, final DeltaWriter writer)
      throws SnapshotFormatException {
    final int length = writer.write();
    loader.load(writer.bytes(), length);
  }

  /** {@return a copy of {@code writer}'s next delta} */
  static byte[] delta(final DeltaWriter writer) {
    final int length = writer.write();
    return Arrays.copyOf(writer.bytes(), length);
  }

  static long[] live(final Registry registry) {
    return Arrays.copyOf(registry.entities().packed(), registry.alive());
  }

  static byte[] save(final Registry remote) {
    try {
      final ByteArrayOutputStream out = new ByteArrayOutputStream();
      new SnapshotWriter(remote).write(out);
      return out.toByteArray();
    } catch (final IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * {@return the snapshot of {@code registry}'s entities and of the three saved types, in a fixed
   * order}: equal for two registries with the same identifiers, positions and values, whatever
   * order their storages were created in.
   */
  static byte[] canonical(final Registry registry) {
    try {
      final ByteArrayOutputStream out = new ByteArrayOutputStream();
      new SnapshotWriter(registry).types(TYPES).write(out);
      return out.toByteArray();
    } catch (final IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Checks that {@code actual} holds the same live entities as {@code expected}, each with the same
   * components and values (positions may differ: a group may have arranged them).
   */
  static void assertSameWorld(final Registry expected, final Registry actual) {
    assertEquals(expected.alive(), actual.alive(), "live entities");
    for (final long entity : live(expected)) {
      assertTrue(actual.valid(entity), Entity.toString(entity));
      for (final ComponentType<Row, PrimitiveColumnsStorageA> type : List.of(INTS, CHARS, MIXED)) {
        assertEquals(
            expected.tryGet(entity, type),
            actual.tryGet(entity, type),
            type.name() + " of " + Entity.toString(entity));
      }
    }
  }

  /** {@return the readable dump of {@code registry}} */
  static String dump(final Registry registry) {
    try {
      final StringBuilder text = new StringBuilder();
      SnapshotDump.write(registry, text);
      return text.toString();
    } catch (final IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Checks that {@code local} mirrors {@code remote} through {@code loader}: every remote entity
   * mapped to a live local one, the same components with the same values (references mapped), no
   * mapped local entity with a component its remote lacks, and {@code verify()} empty.
   */
  static void assertMirrors(
      final Registry remote, final Registry local, final ContinuousLoader loader) {
    final long[] entities = live(remote);
    assertEquals(entities.length, loader.size(), "mapped entities");
    for (final long entity : entities) {
      final long mine = loader.map(entity);
      assertTrue(local.valid(mine), Entity.toString(entity) + " has a live local entity");
      for (final ComponentType<Row, PrimitiveColumnsStorageA> type : List.of(INTS, CHARS, MIXED)) {
        final Row theirs = remote.tryGet(entity, type);
        final Row ours = local.findStorage(type) == null ? null : local.tryGet(mine, type);
        if (null == theirs) {
          assertEquals(null, ours, type.name() + " of " + Entity.toString(entity));
        } else if (MIXED == type) {
          final Object target = theirs.get(3);
          final Row mapped =
              Row.of(theirs.get(0), theirs.get(1), theirs.get(2), loader.map((Long) target));
          assertEquals(mapped, ours, type.name() + " of " + Entity.toString(entity));
        } else {
          assertEquals(theirs, ours, type.name() + " of " + Entity.toString(entity));
        }
      }
    }
    assertEquals(List.of(), local.verify());
  }
}
