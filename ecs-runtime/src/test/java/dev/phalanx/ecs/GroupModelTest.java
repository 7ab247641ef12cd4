package dev.phalanx.ecs;

import static dev.phalanx.ecs.GroupTypes.NONE;
import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TB;
import static dev.phalanx.ecs.GroupTypes.TC;
import static dev.phalanx.ecs.GroupTypes.TD;
import static dev.phalanx.ecs.GroupTypes.TE;
import static dev.phalanx.ecs.GroupTypes.TF;
import static dev.phalanx.ecs.GroupTypes.TG;
import static dev.phalanx.ecs.GroupTypes.TH;
import static dev.phalanx.ecs.GroupTypes.TS;
import static dev.phalanx.ecs.GroupTypes.TX;
import static dev.phalanx.ecs.GroupTypes.TY;
import static dev.phalanx.ecs.GroupTypes.intOf;
import static dev.phalanx.ecs.GroupTypes.types;
import static dev.phalanx.ecs.GroupTypes.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * One million random operations on a registry with a nested family of three owning groups, a
 * full-owning group, a partial-owning group and a non-owning group (with excluded types and an
 * in-place storage), checked against a plain map model after every batch.
 */
class GroupModelTest {

  private static final ComponentType<?, ?>[] ALL =
      types(TA, TB, TC, TD, TE, TF, TG, TH, TX, TY, TS);

  /** A group's lists, for the model. */
  private record Spec(Group group, ComponentType<?, ?>[] include, ComponentType<?, ?>[] exclude) {}

  private final Registry registry = new Registry();
  private final Map<Long, Map<ComponentType<?, ?>, Integer>> model = new HashMap<>();
  private final List<Long> live = new ArrayList<>();
  private final List<Spec> specs = new ArrayList<>();

  private void addGroup(
      final ComponentType<?, ?>[] owned,
      final ComponentType<?, ?>[] get,
      final ComponentType<?, ?>[] exclude) {
    final ComponentType<?, ?>[] include = new ComponentType<?, ?>[owned.length + get.length];
    System.arraycopy(owned, 0, include, 0, owned.length);
    System.arraycopy(get, 0, include, owned.length, get.length);
    specs.add(new Spec(registry.group(owned, get, exclude), include, exclude));
  }

  @Test
  void groupsAgreeWithAPlainModelOverOneMillionOperations() {
    final SplittableRandom random = new SplittableRandom(0x5EED);
    addGroup(types(TA, TB), NONE, NONE);
    addGroup(types(TA, TB, TC), types(TD), types(TX));
    addGroup(types(TE, TF), NONE, NONE);
    addGroup(types(TG), types(TH), types(TY));
    addGroup(NONE, types(TA, TS), types(TX));
    // Fewer under mutation testing (see the runtime POM), but past the group added at 20 000.
    final int operations = Integer.getInteger("phalanx.modelOperations", 1_000_000);
    for (int op = 1; op <= operations; op++) {
      if (op == 20_000) {
        // The middle of the nested family arrives on a populated registry.
        addGroup(types(TA, TB, TC), NONE, NONE);
      }
      step(random);
      if (op % 2_000 == 0) {
        check();
      }
    }
    check();
    assertEquals(6, specs.size());
  }

  private void step(final SplittableRandom random) {
    final int roll = random.nextInt(100);
    if (live.isEmpty() || roll < 8 || (roll < 12 && live.size() < 300)) {
      final long e = registry.create();
      live.add(e);
      model.put(e, new HashMap<>());
      return;
    }
    final int slot = random.nextInt(live.size());
    final long e = live.get(slot);
    final ComponentType<?, ?> type = ALL[random.nextInt(ALL.length)];
    if (roll < (live.size() > 600 ? 20 : 14)) {
      registry.destroy(e);
      live.set(slot, live.get(live.size() - 1));
      live.remove(live.size() - 1);
      model.remove(e);
    } else if (roll < 60) {
      final int v = random.nextInt(1_000_000);
      if (!model.get(e).containsKey(type)) {
        emplace(e, type, v);
        model.get(e).put(type, v);
      }
    } else if (roll < 66) {
      final int v = random.nextInt(1_000_000);
      emplaceOrReplace(e, type, v);
      model.get(e).put(type, v);
    } else if (roll < 97) {
      registry.remove(e, type);
      model.get(e).remove(type);
    } else if (roll < 99) {
      // Iterate a group, destroying some visited entities (permitted).
      final Group group = specs.get(random.nextInt(specs.size())).group();
      final Set<Long> doomed = new HashSet<>();
      group.each(
          visited -> {
            if ((visited ^ 0x9E37) % 5 == 0) {
              registry.destroy(visited);
              doomed.add(visited);
            }
          });
      for (final long d : doomed) {
        model.remove(d);
      }
      live.removeAll(doomed);
    } else {
      // Sort the most restrictive group of the family, or the partial-owning group.
      final OwningGroup group = (OwningGroup) specs.get(random.nextBoolean() ? 1 : 3).group();
      group.sort((long l, long r) -> Long.compare(r, l));
    }
  }

  private <T> void emplace(final long e, final ComponentType<T, ?> type, final int v) {
    registry.emplace(e, type, value(type, v));
  }

  private <T> void emplaceOrReplace(final long e, final ComponentType<T, ?> type, final int v) {
    registry.emplaceOrReplace(e, type, value(type, v));
  }

  private void check() {
    assertEquals(model.size(), registry.alive());
    for (final Map.Entry<Long, Map<ComponentType<?, ?>, Integer>> entry : model.entrySet()) {
      final long e = entry.getKey();
      assertTrue(registry.valid(e));
      for (final ComponentType<?, ?> type : ALL) {
        final Integer expected = entry.getValue().get(type);
        assertEquals(null != expected, registry.has(e, type), "has " + type.name());
        if (null != expected) {
          assertEquals(
              expected.intValue(), intOf(registry.storage(type), e), "value of " + type.name());
        }
      }
    }
    for (final Spec spec : specs) {
      final Set<Long> expected = new HashSet<>();
      for (final Map.Entry<Long, Map<ComponentType<?, ?>, Integer>> entry : model.entrySet()) {
        if (matches(entry.getValue(), spec)) {
          expected.add(entry.getKey());
        }
      }
      final Group group = spec.group();
      assertEquals(expected.size(), group.size(), group.toString());
      final Set<Long> actual = new HashSet<>();
      for (int p = 0; p < group.size(); p++) {
        final long e = group.entityAt(p);
        for (int i = 0; i < group.ownedCount(); i++) {
          assertEquals(e, group.owned(i).at(p), group + ": owned storages disagree at " + p);
        }
        actual.add(e);
        assertTrue(group.contains(e));
      }
      assertEquals(expected, actual, group.toString());
    }
  }

  private static boolean matches(
      final Map<ComponentType<?, ?>, Integer> components, final Spec spec) {
    for (final ComponentType<?, ?> type : spec.include()) {
      if (!components.containsKey(type)) {
        return false;
      }
    }
    for (final ComponentType<?, ?> type : spec.exclude()) {
      if (components.containsKey(type)) {
        return false;
      }
    }
    return true;
  }
}
