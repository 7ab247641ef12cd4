package dev.phalanx.examples.cloning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.ObjectStorage;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.clone.EntityCloner;
import dev.phalanx.examples.components.Frozen_Traits;
import dev.phalanx.examples.components.Parent;
import dev.phalanx.examples.components.Parent_Traits;
import dev.phalanx.examples.components.Position;
import dev.phalanx.examples.components.Position_Traits;
import dev.phalanx.examples.components.Primitives;
import dev.phalanx.examples.components.Primitives_Traits;
import dev.phalanx.examples.components.Slot;
import dev.phalanx.examples.components.Slot_Traits;
import dev.phalanx.examples.components.Velocity_Storage;
import dev.phalanx.examples.components.Velocity_Traits;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Random entities with random component sets in two registries, cloned at random (within one,
 * across, into existing entities, refused), against a plain model: a map per registry from entity
 * to its components' values.
 */
class CloneModelTest {

  /** An object-stored component (no generated storage). */
  record Name(String text) {}

  private static final ComponentType<Name, ObjectStorage<Name>> NAME =
      ComponentType.object(Name.class);

  /** The component kinds of the model, by key. */
  private static final String[] KINDS = {
    "position", "velocity", "primitives", "parent", "slot", "frozen", "name"
  };

  private final Random random = new Random(33);

  @Test
  void clonesMatchThePlainModel() {
    for (int round = 0; round < 20; round++) {
      runRound();
    }
  }

  private void runRound() {
    final Registry[] registries = {new Registry(), new Registry()};
    final List<Map<Long, Map<String, Object>>> models = List.of(new HashMap<>(), new HashMap<>());
    for (int step = 0; step < 150; step++) {
      final int r = random.nextInt(2);
      final Registry registry = registries[r];
      final Map<Long, Map<String, Object>> model = models.get(r);
      final int op = random.nextInt(10);
      if (op < 3 || model.isEmpty()) {
        create(registry, model);
      } else if (op < 4) {
        final long dead = pick(model);
        registry.destroy(dead);
        model.remove(dead);
        assertThrows(
            IllegalArgumentException.class, () -> EntityCloner.within(registry).clone(dead));
      } else {
        final int d = random.nextInt(2);
        final Registry destination = registries[d];
        final Map<Long, Map<String, Object>> into = models.get(d);
        final long source = pick(model);
        final EntityCloner cloner = EntityCloner.between(registry, destination);
        if (op < 8 || into.isEmpty()) {
          final long copy = cloner.clone(source);
          into.put(copy, expected(model.get(source), source, copy, r == d));
        } else {
          final long target = pick(into);
          final Map<String, Object> has = into.get(target);
          final boolean conflict = model.get(source).keySet().stream().anyMatch(has::containsKey);
          if (conflict) {
            final String before = Worlds.print(destination);
            assertThrows(IllegalArgumentException.class, () -> cloner.cloneInto(source, target));
            assertEquals(before, Worlds.print(destination));
          } else {
            cloner.cloneInto(source, target);
            has.putAll(expected(model.get(source), source, target, r == d));
          }
        }
      }
      for (int i = 0; i < 2; i++) {
        check(registries[i], models.get(i));
      }
    }
  }

  private long pick(final Map<Long, Map<String, Object>> model) {
    final List<Long> keys = new ArrayList<>(model.keySet());
    keys.sort(null);
    return keys.get(random.nextInt(keys.size()));
  }

  /** The values a copy of {@code values} holds: references remapped as the cloner promises. */
  private static Map<String, Object> expected(
      final Map<String, Object> values, final long source, final long copy, final boolean same) {
    final Map<String, Object> out = new LinkedHashMap<>(values);
    final Parent parent = (Parent) out.get("parent");
    if (null != parent) {
      final long ref = parent.entity() == source ? copy : same ? parent.entity() : Entity.NULL;
      out.put("parent", new Parent(ref, parent.depth()));
    }
    return out;
  }

  private void create(final Registry registry, final Map<Long, Map<String, Object>> model) {
    final long e = registry.create();
    final Map<String, Object> values = new LinkedHashMap<>();
    for (final String kind : KINDS) {
      if (random.nextBoolean()) {
        continue;
      }
      switch (kind) {
        case "position" -> {
          final Position p = new Position(random.nextFloat(), random.nextFloat());
          registry.emplace(e, Position_Traits.TYPE, p);
          values.put(kind, p);
        }
        case "velocity" -> {
          final float dx = random.nextFloat();
          final float dy = random.nextFloat();
          registry.storage(Velocity_Traits.TYPE).emplace(e, dx, dy);
          values.put(kind, List.of(dx, dy));
        }
        case "primitives" -> {
          final Primitives p =
              new Primitives(
                  random.nextBoolean(),
                  (byte) random.nextInt(),
                  (short) random.nextInt(),
                  (char) random.nextInt(65536),
                  random.nextInt(),
                  random.nextLong(),
                  random.nextFloat(),
                  random.nextDouble());
          registry.emplace(e, Primitives_Traits.TYPE, p);
          values.put(kind, p);
        }
        case "parent" -> {
          final int choice = random.nextInt(3);
          final long ref =
              0 == choice ? e : 1 == choice && !model.isEmpty() ? pick(model) : Entity.NULL;
          final Parent p = new Parent(ref, random.nextInt(10));
          registry.emplace(e, Parent_Traits.TYPE, p);
          values.put(kind, p);
        }
        case "slot" -> {
          final Slot s = new Slot(random.nextInt(), "s" + random.nextInt(100));
          registry.emplace(e, Slot_Traits.TYPE, s);
          values.put(kind, s);
        }
        case "frozen" -> {
          registry.storage(Frozen_Traits.TYPE).emplace(e);
          values.put(kind, Boolean.TRUE);
        }
        case "name" -> {
          final Name n = new Name("n" + random.nextInt(100));
          registry.emplace(e, NAME, n);
          values.put(kind, n);
        }
        default -> throw new AssertionError(kind);
      }
    }
    model.put(e, values);
  }

  private static void check(final Registry registry, final Map<Long, Map<String, Object>> model) {
    assertEquals(model.size(), registry.alive());
    for (final Map.Entry<Long, Map<String, Object>> entry : model.entrySet()) {
      final long e = entry.getKey();
      assertEquals(entry.getValue(), actual(registry, e), Entity.toString(e));
    }
    assertEquals(List.of(), registry.verify());
  }

  private static Map<String, Object> actual(final Registry registry, final long e) {
    final Map<String, Object> values = new LinkedHashMap<>();
    if (registry.has(e, Position_Traits.TYPE)) {
      values.put("position", registry.get(e, Position_Traits.TYPE));
    }
    if (registry.has(e, Velocity_Traits.TYPE)) {
      final Velocity_Storage velocities = registry.storage(Velocity_Traits.TYPE);
      values.put("velocity", List.of(velocities.dx(e), velocities.dy(e)));
    }
    if (registry.has(e, Primitives_Traits.TYPE)) {
      values.put("primitives", registry.get(e, Primitives_Traits.TYPE));
    }
    if (registry.has(e, Parent_Traits.TYPE)) {
      values.put("parent", registry.get(e, Parent_Traits.TYPE));
    }
    if (registry.has(e, Slot_Traits.TYPE)) {
      values.put("slot", registry.get(e, Slot_Traits.TYPE));
    }
    if (registry.has(e, Frozen_Traits.TYPE)) {
      values.put("frozen", Boolean.TRUE);
    }
    if (registry.has(e, NAME)) {
      values.put("name", registry.get(e, NAME));
    }
    return values;
  }
}
