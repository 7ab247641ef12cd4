package dev.phalanx.ecs;

import static dev.phalanx.ecs.GroupTypes.NONE;
import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TB;
import static dev.phalanx.ecs.GroupTypes.TC;
import static dev.phalanx.ecs.GroupTypes.TE;
import static dev.phalanx.ecs.GroupTypes.TF;
import static dev.phalanx.ecs.GroupTypes.TG;
import static dev.phalanx.ecs.GroupTypes.TH;
import static dev.phalanx.ecs.GroupTypes.TY;
import static dev.phalanx.ecs.GroupTypes.intOf;
import static dev.phalanx.ecs.GroupTypes.types;
import static dev.phalanx.ecs.GroupTypes.value;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The direct group upkeep of an insertion or a removal (a storage whose only observer is one owning
 * group without listeners) makes exactly the moves of the planned upkeep. Two registries receive
 * the same random operations; in one, a listener that does nothing on every group forces the
 * planned path. After every operation each storage must hold the same entities at the same
 * positions, with the same values, and each group the same size (checked every 16 operations).
 */
class DirectGroupUpkeepTest {

  private static final ComponentType<?, ?>[] ALL = types(TA, TB, TC, TE, TF, TG, TH, TY);

  /** One registry and its groups, built the same way for both paths. */
  private static final class World {
    final Registry registry = new Registry();
    final List<Group> groups = new ArrayList<>();
    final List<Long> live = new ArrayList<>();

    World(final boolean planned) {
      // E and F: observed by a full-owning group alone (direct when unobserved).
      groups.add(registry.owningGroup(TE, TF));
      // G owned, H got, Y excluded: G and H direct, Y planned (it is excluded).
      groups.add(registry.group(types(TG), types(TH), types(TY)));
      // B observed by one owning group alone; A shared with a non-owning group; C non-owning.
      groups.add(registry.owningGroup(TA, TB));
      groups.add(registry.nonOwningGroup(types(TA, TC), NONE));
      if (planned) {
        for (final Group group : groups) {
          group.onEnter().connect((r, e) -> {});
        }
      }
    }
  }

  @ParameterizedTest
  @ValueSource(longs = {1L, 2L, 3L, 0x5EEDL, 0xD1EC7L})
  void directUpkeepMakesThePlannedMoves(final long seed) {
    final World direct = new World(false);
    final World planned = new World(true);
    final SplittableRandom random = new SplittableRandom(seed);
    for (int op = 0; op < 10_000; op++) {
      final int roll = random.nextInt(100);
      final int pick = random.nextInt(Integer.MAX_VALUE);
      final ComponentType<?, ?> type = ALL[random.nextInt(ALL.length)];
      final int v = random.nextInt(1_000);
      apply(direct, roll, pick, type, v);
      apply(planned, roll, pick, type, v);
      if (op % 16 == 0) {
        assertSame(direct, planned, "operation " + op + " (seed " + seed + ")");
      }
    }
    assertEquals(List.of(), direct.registry.verify());
  }

  private static void apply(
      final World w, final int roll, final int pick, final ComponentType<?, ?> type, final int v) {
    if (w.live.isEmpty() || roll < 10) {
      w.live.add(w.registry.create());
      return;
    }
    final int slot = pick % w.live.size();
    final long e = w.live.get(slot);
    if (roll < 14) {
      w.registry.destroy(e);
      w.live.set(slot, w.live.get(w.live.size() - 1));
      w.live.remove(w.live.size() - 1);
    } else if (roll < 60) {
      if (!w.registry.has(e, type)) {
        emplace(w.registry, e, type, v);
      }
    } else {
      w.registry.remove(e, type);
    }
  }

  private static <T> void emplace(
      final Registry registry, final long e, final ComponentType<T, ?> type, final int v) {
    registry.emplace(e, type, value(type, v));
  }

  private static void assertSame(final World direct, final World planned, final String where) {
    for (final ComponentType<?, ?> type : ALL) {
      final Storage<?> a = direct.registry.storage(type);
      final Storage<?> b = planned.registry.storage(type);
      assertEquals(b.size(), a.size(), where + ": size of " + type.name());
      for (int p = 0; p < a.size(); p++) {
        final long e = a.at(p);
        assertEquals(b.at(p), e, where + ": entity at " + p + " of " + type.name());
        assertEquals(intOf(b, e), intOf(a, e), where + ": value at " + p + " of " + type.name());
      }
    }
    for (int g = 0; g < direct.groups.size(); g++) {
      assertEquals(
          planned.groups.get(g).size(), direct.groups.get(g).size(), where + ": group " + g);
    }
  }
}
