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
import java.util.function.Consumer;
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
      this(planned, registry -> {});
    }

    /** As above, {@code beforeGroups} seeing the registry before any group is declared. */
    World(final boolean planned, final Consumer<Registry> beforeGroups) {
      beforeGroups.accept(registry);
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
      step(random, direct, planned);
      if (op % 16 == 0) {
        assertSame(direct, planned, "operation " + op + " (seed " + seed + ")");
      }
    }
    assertEquals(List.of(), direct.registry.verify());
  }

  /**
   * As above, while listeners are connected to and disconnected from random signals of the first
   * registry (its storages' construct and destroy signals, its groups' enter and leave signals)
   * between operations: each change of listeners switches storages between the direct and the
   * planned upkeep, which must keep making the same moves, and a connected listener must hear what
   * the second registry's listener on the same signal hears meanwhile (the second registry has one
   * on every signal, recording only while the first's is connected). The second registry's storage
   * listeners are connected before its groups are declared, so that its storages take the planned
   * path whether or not a later change of listeners is noticed.
   */
  @ParameterizedTest
  @ValueSource(longs = {11L, 12L, 13L, 0xC0FFEEL})
  void listenersComingAndGoingKeepThePlannedMoves(final long seed) {
    // Storages created in the same order in both registries, so that destroys visit them alike.
    final World direct =
        new World(
            false,
            registry -> {
              for (final ComponentType<?, ?> type : ALL) {
                registry.storage(type);
              }
            });
    final List<Signal> directSignals = signals(direct);
    final int count = directSignals.size();
    final boolean[] connected = new boolean[count];
    final List<String> heardDirect = new ArrayList<>();
    final List<String> heardPlanned = new ArrayList<>();
    final ComponentListener[] listeners = new ComponentListener[count];
    final ComponentListener[] recorders = new ComponentListener[count];
    for (int i = 0; i < count; i++) {
      final int signal = i;
      listeners[i] = (r, e) -> heardDirect.add(signal + ": " + Entity.toString(e));
      recorders[i] =
          (r, e) -> {
            if (connected[signal]) {
              heardPlanned.add(signal + ": " + Entity.toString(e));
            }
          };
    }
    final World planned =
        new World(
            true,
            registry -> {
              for (int t = 0; t < ALL.length; t++) {
                registry.storage(ALL[t]).onConstruct().connect(recorders[2 * t]);
                registry.storage(ALL[t]).onDestroy().connect(recorders[2 * t + 1]);
              }
            });
    final List<Signal> plannedSignals = signals(planned);
    for (int i = 2 * ALL.length; i < count; i++) {
      plannedSignals.get(i).connect(recorders[i]);
    }
    final SplittableRandom random = new SplittableRandom(seed);
    for (int op = 0; op < 10_000; op++) {
      if (random.nextInt(40) == 0) {
        final int i = random.nextInt(count);
        if (connected[i]) {
          assertEquals(true, directSignals.get(i).disconnect(listeners[i]));
        } else {
          directSignals.get(i).connect(listeners[i]);
        }
        connected[i] = !connected[i];
      }
      step(random, direct, planned);
      if (op % 16 == 0) {
        final String where = "operation " + op + " (seed " + seed + ")";
        assertSame(direct, planned, where);
        assertEquals(heardPlanned, heardDirect, where + ": what the listeners heard");
      }
    }
    assertEquals(heardPlanned, heardDirect);
    assertEquals(List.of(), direct.registry.verify());
  }

  /** The signals a listener can make a storage give up the direct upkeep through, in order. */
  private static List<Signal> signals(final World w) {
    final List<Signal> signals = new ArrayList<>();
    for (final ComponentType<?, ?> type : ALL) {
      signals.add(w.registry.storage(type).onConstruct());
      signals.add(w.registry.storage(type).onDestroy());
    }
    for (final Group group : w.groups) {
      signals.add(group.onEnter());
      signals.add(group.onLeave());
    }
    return signals;
  }

  /** Draws one random operation and applies it to both registries. */
  private static void step(final SplittableRandom random, final World direct, final World planned) {
    final int roll = random.nextInt(100);
    final int pick = random.nextInt(Integer.MAX_VALUE);
    final ComponentType<?, ?> type = ALL[random.nextInt(ALL.length)];
    final int v = random.nextInt(1_000);
    apply(direct, roll, pick, type, v);
    apply(planned, roll, pick, type, v);
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
      // Whether it removed something: the direct path answers as the planned one.
      final boolean held = w.registry.has(e, type);
      assertEquals(held, w.registry.remove(e, type), "remove's answer");
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
