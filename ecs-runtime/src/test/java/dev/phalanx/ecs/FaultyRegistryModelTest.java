package dev.phalanx.ecs;

import static dev.phalanx.ecs.GroupTypes.NONE;
import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TB;
import static dev.phalanx.ecs.GroupTypes.TC;
import static dev.phalanx.ecs.GroupTypes.TX;
import static dev.phalanx.ecs.GroupTypes.types;
import static dev.phalanx.ecs.GroupTypes.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.phalanx.ecs.Fixtures.Payload;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The model test with faults: random operations on a registry with owning, nested and non-owning
 * groups (the non-owning one over a storage of the parameter's deletion policy), whose listeners
 * throw at random, whose patch consumers, suppliers and comparators throw at random, and whose
 * iterations attempt refused changes. A plain map model follows the documented outcomes: a
 * listener's exception leaves the change applied, a consumer's, supplier's or comparator's leaves
 * nothing changed, a refused change changes nothing. The registry and model are compared, and
 * {@link Registry#verify()} checked, periodically and at the end.
 */
class FaultyRegistryModelTest {

  // Fewer under mutation testing (see the runtime POM): every surviving mutant runs this test.
  private static final int OPERATIONS = Integer.getInteger("phalanx.modelOperations", 500_000);
  private static final int CHECK_EVERY = 5_000;

  /** Thrown by the random faults. */
  static final class Injected extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Injected() {
      super("injected", null, false, false);
    }
  }

  private Random random;
  private Registry registry;
  private ComponentType<Payload, ObjectStorage<Payload>> p;
  private ComponentType<?, ?>[] all;
  private final Map<Long, Map<ComponentType<?, ?>, Object>> model = new HashMap<>();
  private final List<Long> live = new ArrayList<>();
  private final Map<ComponentType<?, ?>, int[]> expectedEvents = new HashMap<>();
  private final Map<ComponentType<?, ?>, int[]> events = new HashMap<>();
  private OwningGroup ab;
  private OwningGroup abcNoX;
  private NonOwningGroup cp;
  private int faultPercent;
  private int injected;
  private int refused;

  @ParameterizedTest
  @EnumSource(
      value = DeletionPolicy.class,
      names = {"SWAP_AND_POP", "IN_PLACE"})
  void randomOperationsWithRandomFaultsMatchAPlainModel(final DeletionPolicy policy) {
    random = new Random(0xFA17_0000L + policy.ordinal());
    registry = new Registry();
    p = Fixtures.alpha(policy);
    all = types(TA, TB, TC, TX, p);
    for (final ComponentType<?, ?> type : all) {
      final Storage<?> storage = registry.storage(type);
      final int[] counts = new int[3];
      events.put(type, counts);
      expectedEvents.put(type, new int[3]);
      for (int n = 0; n < 2; n++) {
        storage
            .onConstruct()
            .connect(
                (r, e) -> {
                  counts[0]++;
                  maybeThrow();
                });
        storage
            .onUpdate()
            .connect(
                (r, e) -> {
                  counts[1]++;
                  maybeThrow();
                });
        storage
            .onDestroy()
            .connect(
                (r, e) -> {
                  counts[2]++;
                  assertTrue(storage.contains(e), "destroy listener: component already gone");
                  maybeThrow();
                });
      }
    }
    ab = registry.owningGroup(TA, TB);
    abcNoX = registry.owningGroup(types(TA, TB, TC), NONE, types(TX));
    cp = registry.nonOwningGroup(types(TC, p), types(TX));
    for (int op = 1; op <= OPERATIONS; op++) {
      faultPercent = random.nextInt(4) == 0 ? 30 : 0;
      try {
        step();
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError("operation " + op + " (" + policy + ") failed: " + e, e);
      }
      if (0 == op % CHECK_EVERY) {
        compare("operation " + op);
      }
    }
    compare("end");
    assertTrue(injected > OPERATIONS / 50, "faults injected: " + injected);
    assertTrue(refused > OPERATIONS / 500, "refused changes: " + refused);
  }

  private void maybeThrow() {
    if (faultPercent > 0 && random.nextInt(100) < faultPercent) {
      injected++;
      throw new Injected();
    }
  }

  /** Runs {@code change}; a listener's fault is expected to leave it applied. */
  private void applied(final Runnable change) {
    try {
      change.run();
    } catch (final Injected expected) {
      // The change stands.
    }
  }

  private void expect(final ComponentType<?, ?> type, final int event) {
    expectedEvents.get(type)[event]++;
  }

  private long pick() {
    return live.get(random.nextInt(live.size()));
  }

  private ComponentType<?, ?> pickType() {
    return all[random.nextInt(all.length)];
  }

  private Object valueOf(final ComponentType<?, ?> type) {
    return type == p ? new Payload(random.nextInt(1000)) : value(type, random.nextInt(1000));
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private void emplace(final long e, final ComponentType type, final Object value) {
    registry.emplace(e, type, value);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private void emplaceOrReplace(final long e, final ComponentType type, final Object value) {
    registry.emplaceOrReplace(e, type, value);
  }

  private void step() {
    final int roll = random.nextInt(100);
    if (live.isEmpty() || roll < 10 || (roll < 14 && live.size() < 200)) {
      final long e = registry.create();
      live.add(e);
      model.put(e, new HashMap<>());
      return;
    }
    final long e = pick();
    final ComponentType<?, ?> type = pickType();
    final Map<ComponentType<?, ?>, Object> components = model.get(e);
    if (roll < (live.size() > 300 ? 22 : 16)) {
      if (random.nextInt(5) == 0) {
        final long other = pick();
        applied(() -> registry.destroy(new long[] {e, other, e}, 0, 3));
        forget(e);
        if (other != e) {
          forget(other);
        }
      } else {
        applied(() -> registry.destroy(e));
        forget(e);
      }
    } else if (roll < 50) {
      final Object value = valueOf(type);
      if (!components.containsKey(type)) {
        applied(() -> emplace(e, type, value));
        components.put(type, value);
        expect(type, 0);
      } else {
        applied(() -> emplaceOrReplace(e, type, value));
        components.put(type, value);
        expect(type, 1);
      }
    } else if (roll < 70) {
      final boolean had = components.containsKey(type);
      applied(() -> registry.remove(e, type));
      if (had) {
        components.remove(type);
        expect(type, 2);
      }
    } else if (roll < 76) {
      if (components.containsKey(type)) {
        final boolean consumerFails = random.nextInt(4) == 0;
        try {
          registry.patch(
              e,
              type,
              value -> {
                if (consumerFails) {
                  throw new Injected();
                }
              });
        } catch (final Injected fault) {
          // Either the consumer (nothing written, nothing published) or a listener (applied).
        }
        if (!consumerFails) {
          expect(type, 1);
        }
      }
    } else if (roll < 80) {
      if (!components.containsKey(type)) {
        final boolean supplierFails = random.nextInt(3) == 0;
        final Object value = valueOf(type);
        try {
          getOrEmplace(e, type, value, supplierFails);
        } catch (final Injected fault) {
          // Nothing added if the supplier threw; added if a listener threw.
        }
        if (!supplierFails) {
          components.put(type, value);
          expect(type, 0);
        }
      }
    } else if (roll < 92) {
      iterate();
    } else if (roll < 97) {
      sortWithFaults();
    } else if (roll < 98 && random.nextInt(30) == 0) {
      final ComponentType<?, ?> cleared = pickType();
      applied(() -> registry.clear(cleared));
      for (final Map<ComponentType<?, ?>, Object> c : model.values()) {
        if (null != c.remove(cleared)) {
          expect(cleared, 2);
        }
      }
    } else if (roll < 99 && random.nextInt(400) == 0) {
      applied(registry::clear);
      for (final Map<ComponentType<?, ?>, Object> c : model.values()) {
        for (final ComponentType<?, ?> t : c.keySet()) {
          expect(t, 2);
        }
      }
      model.clear();
      live.clear();
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private void getOrEmplace(
      final long e, final ComponentType type, final Object value, final boolean fails) {
    registry.getOrEmplace(
        e,
        type,
        () -> {
          if (fails) {
            throw new Injected();
          }
          return value;
        });
  }

  private void forget(final long e) {
    final Map<ComponentType<?, ?>, Object> components = model.remove(e);
    if (null != components) {
      for (final ComponentType<?, ?> t : components.keySet()) {
        expect(t, 2);
      }
      live.remove(e);
    }
  }

  /** Iterates a random form; the visitor tries refused changes (caught) and makes allowed ones. */
  private void iterate() {
    final int form = random.nextInt(4);
    final Set<Long> visited = new HashSet<>();
    final SparseSet leader =
        switch (form) {
          case 0, 1 -> registry.storage(TA);
          case 2 -> cp.members();
          default -> registry.storage(p);
        };
    final java.util.function.LongConsumer visitor =
        e -> {
          assertTrue(visited.add(e) || DeletionPolicy.IN_PLACE == leader.policy(), "visited twice");
          final int position = leader.indexOf(e);
          if (position > 0
              && DeletionPolicy.IN_PLACE != leader.policy()
              && random.nextInt(3) == 0) {
            // Refused: sorting or clearing the iterated set, or removing an element still to come.
            final long ahead = leader.packed()[0];
            final int sizeBefore = leader.size();
            try {
              switch (random.nextInt(3)) {
                case 0 -> registry.clear();
                case 1 -> registry.destroy(ahead);
                default -> {
                  if (leader == cp.members()) {
                    registry.remove(ahead, TC);
                  } else {
                    ((Storage<?>) leader).clear();
                  }
                }
              }
              fail("a change inside the iteration was not refused");
            } catch (final ConcurrentModificationException expected) {
              refused++;
            }
            assertEquals(sizeBefore, leader.size());
            assertEquals(e, leader.packed()[position]);
          }
          // Allowed: change or destroy the visited entity.
          final Map<ComponentType<?, ?>, Object> components = model.get(e);
          switch (random.nextInt(4)) {
            case 0 -> {
              applied(() -> registry.destroy(e));
              forget(e);
            }
            case 1 -> {
              final ComponentType<?, ?> type = all[random.nextInt(all.length)];
              if (components.containsKey(type)) {
                try {
                  applied(() -> registry.remove(e, type));
                  components.remove(type);
                  expect(type, 2);
                } catch (final ConcurrentModificationException entering) {
                  // Removing X makes the visited entity enter <A,B,C> !X, which may move it below
                  // the floor of an iteration over A: refused, unmade.
                  assertTrue(TX == type && leader == registry.storage(TA), entering.getMessage());
                  assertTrue(registry.has(e, TX));
                  refused++;
                }
              }
            }
            case 2 -> {
              if (!components.containsKey(TX)) {
                final Object value = valueOf(TX);
                applied(() -> emplace(e, TX, value));
                components.put(TX, value);
                expect(TX, 0);
              }
            }
            default -> {}
          }
        };
    switch (form) {
      case 0 -> ab.each(visitor);
      case 1 -> registry.view(TA, TB).leadBy(registry.storage(TA)).each(visitor);
      case 2 -> cp.each(visitor);
      default -> registry.view(p).each(visitor);
    }
  }

  private void sortWithFaults() {
    final int[] calls = {0};
    final int failAt = random.nextInt(3) == 0 ? 1 + random.nextInt(40) : -1;
    final List<Long> before = new ArrayList<>();
    for (int i = 0; i < abcNoX.size(); i++) {
      before.add(abcNoX.entityAt(i));
    }
    try {
      abcNoX.sort(
          (l, r) -> {
            if (++calls[0] == failAt) {
              throw new Injected();
            }
            return Long.compare(l, r);
          });
    } catch (final Injected fault) {
      final List<Long> after = new ArrayList<>();
      for (int i = 0; i < abcNoX.size(); i++) {
        after.add(abcNoX.entityAt(i));
      }
      assertEquals(before, after, "a throwing comparator moved something");
    }
  }

  private void compare(final String where) {
    final List<String> problems = registry.verify();
    assertTrue(problems.isEmpty(), where + ": " + problems);
    assertEquals(model.size(), registry.alive(), where + ": alive");
    for (final ComponentType<?, ?> type : all) {
      final Storage<?> storage = registry.storage(type);
      int count = 0;
      for (int position = 0; position < storage.size(); position++) {
        final long e = storage.packed()[position];
        if (!Entity.isTombstone(e)) {
          count++;
          final Map<ComponentType<?, ?>, Object> components = model.get(e);
          assertTrue(
              null != components && components.containsKey(type),
              where + ": unexpected " + type.name());
          if (type == p) {
            assertSame(components.get(type), storage.get(e), where);
          } else {
            assertEquals(components.get(type), storage.get(e), where);
          }
        }
      }
      int expected = 0;
      for (final Map<ComponentType<?, ?>, Object> c : model.values()) {
        expected += c.containsKey(type) ? 1 : 0;
      }
      assertEquals(expected, count, where + ": size of " + type.name());
      assertEquals(
          2 * expectedEvents.get(type)[0],
          events.get(type)[0],
          where + ": construct events of " + type.name());
      assertEquals(
          2 * expectedEvents.get(type)[1],
          events.get(type)[1],
          where + ": update events of " + type.name());
      assertEquals(
          2 * expectedEvents.get(type)[2],
          events.get(type)[2],
          where + ": destroy events of " + type.name());
    }
    for (final Group group : new Group[] {ab, abcNoX, cp}) {
      assertEquals(
          FaultWorld.expectedMembers(registry, group).size(), group.size(), where + ": " + group);
    }
    for (final long e : live) {
      assertTrue(registry.valid(e));
    }
    assertFalse(registry.storage(TA).isIterated() || registry.storage(TA).isLocked());
  }
}
