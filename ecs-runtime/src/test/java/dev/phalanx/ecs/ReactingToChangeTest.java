package dev.phalanx.ecs;

import static dev.phalanx.ecs.GroupTypes.NONE;
import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TB;
import static dev.phalanx.ecs.GroupTypes.TC;
import static dev.phalanx.ecs.GroupTypes.TS;
import static dev.phalanx.ecs.GroupTypes.TX;
import static dev.phalanx.ecs.GroupTypes.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.GroupTypes.A;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Reactive storages and enter/leave signals of groups and views, against models of membership. */
class ReactingToChangeTest {

  @Test
  void aReactiveStorageCollectsByItsRulesAndIsClearedByTheUser() {
    final Registry registry = new Registry();
    final Reactive moved =
        Reactive.collect(registry, ComponentType.named("moved"))
            .onConstruct(TA)
            .onUpdate(TB)
            .onDestroy(TC);
    final long a = registry.create();
    final long b = registry.create();
    final long c = registry.create();
    final long d = registry.create();
    registry.emplace(a, TA, new A(1));
    registry.emplace(b, TB, value(TB, 1));
    registry.replace(b, TB, value(TB, 2)); // update: collected
    registry.emplace(c, TC, value(TC, 1));
    registry.remove(c, TC); // destroy while c lives on: collected
    registry.emplace(d, TC, value(TC, 1));
    registry.destroy(d); // d dies: not collected
    assertEquals(Set.of(a, b, c), collected(moved));
    final View view =
        registry.view(new ComponentType<?, ?>[] {TA, ComponentType.named("moved")}, NONE);
    final List<Long> both = new ArrayList<>();
    view.each(both::add);
    assertEquals(List.of(a), both, "usable in views like any storage");
    registry.destroy(a);
    assertEquals(Set.of(b, c), collected(moved), "destroyed entities leave it");
    moved.clear();
    assertEquals(0, moved.size());
    assertThrows(
        IllegalArgumentException.class,
        () -> Reactive.collect(registry, TA),
        "instances: not a tag");
    assertEquals(List.of(), registry.verify());
  }

  /**
   * Random changes against a model of what each rule should have collected since the last clear.
   */
  @Test
  void aReactiveStorageMatchesAModelOfItsRules() {
    final Random random = new Random(7);
    final Registry registry = new Registry();
    final Reactive watched =
        Reactive.collect(registry, ComponentType.named("watched"))
            .onConstruct(TA)
            .onUpdate(TB)
            .onDestroy(TC);
    final Set<Long> expected = new HashSet<>();
    final List<Long> live = new ArrayList<>();
    final ComponentType<?, ?>[] types = {TA, TB, TC};
    for (int step = 0; step < 30_000; step++) {
      if (live.size() < 20 || random.nextInt(10) == 0) {
        live.add(registry.create());
      }
      final long e = live.get(random.nextInt(live.size()));
      final ComponentType<?, ?> type = types[random.nextInt(types.length)];
      switch (random.nextInt(6)) {
        case 0 -> {
          registry.destroy(e);
          live.remove(e);
          expected.remove(e);
        }
        case 1, 2 -> {
          if (!registry.has(e, type)) {
            emplace(registry, e, type);
            if (TA == type) {
              expected.add(e);
            }
          }
        }
        case 3 -> {
          if (registry.has(e, type)) {
            replace(registry, e, type);
            if (TB == type) {
              expected.add(e);
            }
          }
        }
        case 4 -> {
          if (registry.remove(e, type) && TC == type) {
            expected.add(e);
          }
        }
        default -> {
          assertEquals(expected, collected(watched), "step " + step);
          if (random.nextBoolean()) {
            watched.clear();
            expected.clear();
          }
        }
      }
    }
    assertEquals(expected, collected(watched));
    assertEquals(List.of(), registry.verify());
  }

  @SuppressWarnings("unchecked") // the value is built for the type
  private static void replace(
      final Registry registry, final long entity, final ComponentType<?, ?> type) {
    registry.replace(
        entity, (ComponentType<Object, ?>) type, value((ComponentType<Object, ?>) type, 2));
  }

  private static Set<Long> collected(final Reactive reactive) {
    final Set<Long> set = new HashSet<>();
    reactive.each(set::add);
    return set;
  }

  /**
   * Random structural changes; a model of each group's and view's membership, updated from the
   * signals alone, must equal the real membership after every step (nested owning groups, a
   * non-owning group with an excluded type, a view with an excluded type).
   */
  @Test
  void enterAndLeaveSignalsKeepAModelOfMembershipExact() {
    final Random random = new Random(42);
    final Registry registry = new Registry();
    final OwningGroup ab = registry.owningGroup(TA, TB);
    final OwningGroup abc = registry.owningGroup(TA, TB, TC);
    final NonOwningGroup bNotX =
        registry.nonOwningGroup(new ComponentType<?, ?>[] {TB}, new ComponentType<?, ?>[] {TX});
    final View view =
        registry.view(new ComponentType<?, ?>[] {TA, TS}, new ComponentType<?, ?>[] {TX});
    final Map<String, Set<Long>> model = new HashMap<>();
    watch(model, "ab", ab.onEnter(), ab.onLeave());
    watch(model, "abc", abc.onEnter(), abc.onLeave());
    watch(model, "bNotX", bNotX.onEnter(), bNotX.onLeave());
    watch(model, "view", view.onEnter(), view.onLeave());
    final List<Long> live = new ArrayList<>();
    final ComponentType<?, ?>[] types = {TA, TB, TC, TS, TX};
    for (int step = 0; step < 20_000; step++) {
      if (live.size() < 20 || random.nextInt(10) == 0) {
        live.add(registry.create());
      }
      final long e = live.get(random.nextInt(live.size()));
      final int op = random.nextInt(10);
      if (op == 0) {
        registry.destroy(e);
        live.remove(e);
      } else {
        final ComponentType<?, ?> type = types[random.nextInt(types.length)];
        if (op < 6) {
          if (!registry.has(e, type)) {
            emplace(registry, e, type);
          }
        } else {
          registry.remove(e, type);
        }
      }
      if (0 == step % 50) {
        assertEquals(members(ab), model.get("ab"), "step " + step);
        assertEquals(members(abc), model.get("abc"), "step " + step);
        assertEquals(members(bNotX), model.get("bNotX"), "step " + step);
        final Set<Long> inView = new HashSet<>();
        view.each(inView::add);
        assertEquals(inView, model.get("view"), "step " + step);
      }
    }
    registry.clear();
    assertTrue(
        model.values().stream().allMatch(Set::isEmpty), "clearing the registry leaves every group");
    assertEquals(List.of(), registry.verify());
  }

  @SuppressWarnings("unchecked") // the value is built for the type
  private static void emplace(
      final Registry registry, final long entity, final ComponentType<?, ?> type) {
    registry.emplace(
        entity, (ComponentType<Object, ?>) type, value((ComponentType<Object, ?>) type, 1));
  }

  private static void watch(
      final Map<String, Set<Long>> model,
      final String name,
      final Signal enter,
      final Signal leave) {
    final Set<Long> members = new HashSet<>();
    model.put(name, members);
    enter.connect(
        (r, e) -> assertTrue(members.add(e), name + ": entered twice " + Entity.toString(e)));
    leave.connect(
        (r, e) ->
            assertTrue(members.remove(e), name + ": left without entering " + Entity.toString(e)));
  }

  private static Set<Long> members(final Group group) {
    final Set<Long> set = new HashSet<>();
    for (int i = 0; i < group.size(); i++) {
      set.add(group.entityAt(i));
    }
    return set;
  }
}
