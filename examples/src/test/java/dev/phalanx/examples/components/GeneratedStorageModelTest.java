package dev.phalanx.examples.components;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Storage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * Model-based test: seeded random operations on a registry holding a swap-and-pop generated storage
 * ({@link Position}), an in-place one ({@link Slot}) and a tag ({@link Frozen}), checked against
 * plain {@code HashMap} models: contents, values by entity and by position, signal counts, and the
 * entities of views with and without exclusions, through sorting and compaction.
 */
class GeneratedStorageModelTest {

  private static final int OPERATIONS = 200_000;

  /** One storage under test and its model. */
  private static final class Target<T> {
    final ComponentType<T, ?> type;
    final Storage<T> storage;
    final Map<Long, T> model = new HashMap<>();
    final BiConsumer<Long, T> typedEmplace;
    final BiConsumer<Long, T> typedReplace;
    final Function<Random, T> random;
    final IntFunction<T> readAt;
    int constructs;
    int updates;
    int destroys;

    <S extends Storage<T>> Target(
        final Registry registry,
        final ComponentType<T, S> type,
        final BiConsumer<Long, T> typedEmplace,
        final BiConsumer<Long, T> typedReplace,
        final Function<Random, T> random,
        final IntFunction<T> readAt) {
      this.type = type;
      this.storage = registry.storage(type);
      this.typedEmplace = typedEmplace;
      this.typedReplace = typedReplace;
      this.random = random;
      this.readAt = readAt;
      storage.onConstruct().connect((owner, entity) -> constructs++);
      storage.onUpdate().connect((owner, entity) -> updates++);
      storage
          .onDestroy()
          .connect(
              (owner, entity) -> {
                destroys++;
                // The element is still readable while destroy listeners run.
                assertEquals(model.get(entity), storage.get(entity));
              });
    }
  }

  @Test
  void generatedStoragesBehaveLikeTheirModels() {
    for (final long seed : new long[] {1L, 0xC0FFEEL}) {
      run(seed);
    }
  }

  private static void run(final long seed) {
    final Random random = new Random(seed);
    final Registry registry = new Registry();
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    final Slot_Storage slots = registry.storage(Slot_Traits.TYPE);
    final Target<Position> position =
        new Target<>(
            registry,
            Position_Traits.TYPE,
            (e, p) -> positions.emplace(e, p.x(), p.y()),
            (e, p) -> positions.replace(e, p.x(), p.y()),
            r -> new Position(r.nextInt(1000), r.nextInt(1000)),
            p -> new Position(positions.xAt(p), positions.yAt(p)));
    final Target<Slot> slot =
        new Target<>(
            registry,
            Slot_Traits.TYPE,
            (e, s) -> slots.emplace(e, s.value(), s.name()),
            (e, s) -> slots.replace(e, s.value(), s.name()),
            r -> new Slot(r.nextInt(), r.nextInt(4) == 0 ? null : "s" + r.nextInt(100)),
            p -> new Slot(slots.valueAt(p), slots.nameAt(p)));
    final Set<Long> frozen = new HashSet<>();
    final List<Long> alive = new ArrayList<>();
    int expectedConstructs = 0;
    int expectedUpdates = 0;
    int expectedDestroys = 0;

    for (int step = 0; step < OPERATIONS; step++) {
      final int op = random.nextInt(100);
      if (alive.isEmpty() || op < 10) {
        alive.add(registry.create());
        continue;
      }
      final long entity = alive.get(random.nextInt(alive.size()));
      @SuppressWarnings(
          "unchecked") // both targets are Target<?>; each branch below uses one consistently
      final Target<Object> target =
          (Target<Object>) (Target<?>) (random.nextBoolean() ? position : slot);
      final boolean has = target.model.containsKey(entity);
      if (op < 30) {
        if (!has) {
          final Object value = target.random.apply(random);
          if (random.nextBoolean()) {
            target.typedEmplace.accept(entity, value);
          } else {
            registry.emplace(entity, target.type, value);
          }
          target.model.put(entity, value);
          expectedConstructs++;
        }
      } else if (op < 40) {
        if (has) {
          final Object value = target.random.apply(random);
          if (random.nextBoolean()) {
            target.typedReplace.accept(entity, value);
          } else {
            registry.replace(entity, target.type, value);
          }
          target.model.put(entity, value);
          expectedUpdates++;
        }
      } else if (op < 48) {
        if (has) {
          // Field setters write in place and publish nothing.
          if (target == (Object) position) {
            final float y = random.nextInt(1000);
            positions.setY(entity, y);
            position.model.put(entity, new Position(position.model.get(entity).x(), y));
          } else {
            final int value = random.nextInt();
            slots.setValue(entity, value);
            slot.model.put(entity, new Slot(value, slot.model.get(entity).name()));
          }
        }
      } else if (op < 60) {
        assertEquals(has, registry.remove(entity, target.type));
        if (has) {
          target.model.remove(entity);
          expectedDestroys++;
        }
      } else if (op < 65) {
        registry.destroy(entity);
        expectedDestroys +=
            (position.model.remove(entity) != null ? 1 : 0)
                + (slot.model.remove(entity) != null ? 1 : 0);
        frozen.remove(entity);
        alive.remove(entity);
      } else if (op < 72) {
        if (frozen.add(entity)) {
          registry.storage(Frozen_Traits.TYPE).emplace(entity);
        } else {
          registry.remove(entity, Frozen_Traits.TYPE);
          frozen.remove(entity);
        }
      } else {
        assertEquals(has, target.storage.contains(entity));
        if (has) {
          assertEquals(target.model.get(entity), target.storage.get(entity));
        }
      }
      if (step % 5_000 == 4_999) {
        reorder(positions, slots, random);
      }
      if (step % 1_000 == 999) {
        checkAll(registry, position, slot, frozen);
        assertEquals(expectedConstructs, position.constructs + slot.constructs);
        assertEquals(expectedUpdates, position.updates + slot.updates);
        assertEquals(expectedDestroys, position.destroys + slot.destroys);
      }
    }
    checkAll(registry, position, slot, frozen);
  }

  private static void reorder(
      final Position_Storage positions, final Slot_Storage slots, final Random random) {
    positions.sortByPosition((l, r) -> Float.compare(positions.xAt(l), positions.xAt(r)));
    if (random.nextBoolean()) {
      slots.compact();
      slots.sortByPosition((l, r) -> Integer.compare(slots.valueAt(l), slots.valueAt(r)));
    }
  }

  private static void checkAll(
      final Registry registry,
      final Target<Position> position,
      final Target<Slot> slot,
      final Set<Long> frozen) {
    checkContents(position);
    checkContents(slot);
    final Set<Long> both = new HashSet<>(position.model.keySet());
    both.retainAll(slot.model.keySet());
    assertEquals(
        both,
        viewed(
            registry,
            new ComponentType<?, ?>[] {Position_Traits.TYPE, Slot_Traits.TYPE},
            new ComponentType<?, ?>[0]));
    final Set<Long> thawed = new HashSet<>(both);
    thawed.removeAll(frozen);
    assertEquals(
        thawed,
        viewed(
            registry,
            new ComponentType<?, ?>[] {Slot_Traits.TYPE, Position_Traits.TYPE},
            new ComponentType<?, ?>[] {Frozen_Traits.TYPE}));
    assertEquals(
        slot.model.keySet(),
        viewed(registry, new ComponentType<?, ?>[] {Slot_Traits.TYPE}, new ComponentType<?, ?>[0]));
  }

  private static <T> void checkContents(final Target<T> target) {
    int live = 0;
    final long[] packed = target.storage.packed();
    for (int p = 0; p < target.storage.size(); p++) {
      if (Entity.isTombstone(packed[p])) {
        continue;
      }
      live++;
      assertTrue(target.model.containsKey(packed[p]));
      assertEquals(target.model.get(packed[p]), target.readAt.apply(p));
    }
    assertEquals(target.model.size(), live);
    for (final Map.Entry<Long, T> entry : target.model.entrySet()) {
      assertEquals(entry.getValue(), target.storage.get(entry.getKey()));
    }
  }

  private static Set<Long> viewed(
      final Registry registry,
      final ComponentType<?, ?>[] include,
      final ComponentType<?, ?>[] exclude) {
    final Set<Long> seen = new HashSet<>();
    registry.view(include, exclude).each(entity -> assertFalse(!seen.add(entity), "visited twice"));
    final Set<Long> iterated = new HashSet<>();
    for (final var iterator = registry.view(include, exclude).iterator(); iterator.hasNext(); ) {
      iterated.add(iterator.nextLong());
    }
    assertEquals(seen, iterated);
    return seen;
  }
}
