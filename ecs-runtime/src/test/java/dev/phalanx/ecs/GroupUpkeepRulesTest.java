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
import static dev.phalanx.ecs.GroupTypes.types;
import static dev.phalanx.ecs.GroupTypes.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How groups are kept up to date: plans made at insertion and checked again at commit, exits and
 * entries through excluded types, enter and leave signals (nested changes included), and the fused
 * removal of a destroyed entity from a spanning group.
 */
class GroupUpkeepRulesTest {

  private final Registry registry = new Registry();

  private void give(final long e, final ComponentType<?, ?>... types) {
    for (final ComponentType<?, ?> type : types) {
      emplace(e, type);
    }
  }

  private <T> void emplace(final long e, final ComponentType<T, ?> type) {
    registry.emplace(e, type, value(type, (int) e));
  }

  // -------------------------------------------------------------------------------------------
  // Insertions prepared and committed in two steps (generated code's emplace).
  // -------------------------------------------------------------------------------------------

  @Test
  void aCommitAfterAnotherEntitysChangeElsewhereIsPlannedAgain() {
    // Rule: if the groups planned another change between prepareInsert and commitInsert, the
    // insertion is planned again at commit: the entity enters its own groups, no others.
    final OwningGroup ab = registry.owningGroup(types(TA), types(TB), NONE);
    final NonOwningGroup c = registry.nonOwningGroup(types(TC), NONE);
    final long e = registry.create();
    give(e, TA);
    final long other = registry.create();
    final Storage<?> bs = registry.storage(TB);
    final int position = bs.prepareInsert(e);
    give(other, TC);
    bs.commitInsert(e, position);
    assertTrue(ab.contains(e));
    assertFalse(c.contains(e));
    assertTrue(c.contains(other));
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aCommitAfterTheSameEntitysChangeElsewhereIsPlannedAgain() {
    // Rule: as above when the change made meanwhile was the same entity's, in another storage.
    final OwningGroup ab = registry.owningGroup(types(TA), types(TB), NONE);
    final NonOwningGroup c = registry.nonOwningGroup(types(TC), NONE);
    final long e = registry.create();
    give(e, TA);
    final Storage<?> bs = registry.storage(TB);
    final int position = bs.prepareInsert(e);
    give(e, TC);
    bs.commitInsert(e, position);
    assertTrue(ab.contains(e));
    assertTrue(c.contains(e));
    assertEquals(1, c.size());
    assertEquals(List.of(), registry.verify());
  }

  /**
   * As above when both changes are planned (their groups have enter listeners): the commit plans
   * again for its own storage and does not replay the other storage's plan.
   */
  @Test
  void aCommitAfterTheSameEntitysPlannedChangeElsewhereIsPlannedAgain() {
    final OwningGroup ab = registry.owningGroup(types(TA), types(TB), NONE);
    final NonOwningGroup c = registry.nonOwningGroup(types(TC), NONE);
    final List<String> entered = new ArrayList<>();
    ab.onEnter().connect((r, entity) -> entered.add("ab " + entity));
    c.onEnter().connect((r, entity) -> entered.add("c " + entity));
    final long e = registry.create();
    give(e, TA);
    final Storage<?> bs = registry.storage(TB);
    final int position = bs.prepareInsert(e);
    give(e, TC);
    bs.commitInsert(e, position);
    assertTrue(ab.contains(e));
    assertTrue(c.contains(e));
    assertEquals(List.of("c " + e, "ab " + e), entered);
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aCommitAfterAnotherEntitysPreparationInTheSameStorageIsPlannedAgain() {
    // Rule: as above when another entity's insertion into the same storage was prepared (and
    // abandoned) meanwhile.
    final OwningGroup ab = registry.owningGroup(types(TA), types(TB), NONE);
    final NonOwningGroup b = registry.nonOwningGroup(types(TB), NONE);
    final long e = registry.create();
    give(e, TA);
    final long stranger = registry.create();
    final Storage<?> bs = registry.storage(TB);
    final int position = bs.prepareInsert(e);
    assertEquals(position, bs.prepareInsert(stranger));
    bs.commitInsert(e, position);
    assertTrue(ab.contains(e));
    assertTrue(b.contains(e));
    assertFalse(b.contains(stranger));
    assertEquals(List.of(), registry.verify());
  }

  // -------------------------------------------------------------------------------------------
  // Excluded types.
  // -------------------------------------------------------------------------------------------

  @Test
  void anEntityEntersOnlyWhenItLosesItsLastExcludedComponent() {
    // Rule: with several excluded types, losing one of them is not enough to enter the group.
    final OwningGroup group = registry.owningGroup(types(TA), NONE, types(TX, TY));
    final NonOwningGroup plain = registry.nonOwningGroup(types(TB), types(TX, TY));
    final long e = registry.create();
    give(e, TA, TB, TX, TY);
    assertFalse(group.contains(e));
    registry.remove(e, TX);
    assertFalse(group.contains(e));
    assertFalse(plain.contains(e));
    registry.remove(e, TY);
    assertTrue(group.contains(e));
    assertTrue(plain.contains(e));
    give(e, TY);
    assertFalse(group.contains(e));
    give(e, TX);
    registry.remove(e, TY);
    assertFalse(group.contains(e));
    assertFalse(plain.contains(e));
    assertEquals(List.of(), registry.verify());
  }

  // -------------------------------------------------------------------------------------------
  // Signals.
  // -------------------------------------------------------------------------------------------

  @Test
  void aGroupWithOnlyAnEnterOrOnlyALeaveListenerStillPublishesIt() {
    // Rule: enter and leave are published whichever of the two signals has listeners.
    final NonOwningGroup entering = registry.nonOwningGroup(types(TA), NONE);
    final NonOwningGroup leaving = registry.nonOwningGroup(types(TA, TB), NONE);
    final List<String> events = new ArrayList<>();
    entering.onEnter().connect((r, e) -> events.add("enter " + e));
    leaving.onLeave().connect((r, e) -> events.add("leave " + e));
    final long e = registry.create();
    give(e, TB, TA);
    registry.remove(e, TA);
    assertEquals(List.of("enter " + e, "leave " + e), events);
  }

  @Test
  void aListenerThatMakesAnotherEntityEnterAGroupGetsOneSignalPerEntry() {
    // Rule: signals of changes made by listeners are published once, for their own entity, and
    // those of the outer change are neither repeated nor lost.
    final NonOwningGroup first = registry.nonOwningGroup(types(TA), NONE);
    final NonOwningGroup second = registry.nonOwningGroup(types(TB), NONE);
    final NonOwningGroup both = registry.nonOwningGroup(types(TA, TC), NONE);
    final long e = registry.create();
    final long f = registry.create();
    give(e, TC);
    final List<String> events = new ArrayList<>();
    first
        .onEnter()
        .connect(
            (r, entity) -> {
              events.add("first " + entity);
              if (entity == e) {
                give(f, TB);
              }
            });
    second.onEnter().connect((r, entity) -> events.add("second " + entity));
    both.onEnter().connect((r, entity) -> events.add("both " + entity));
    give(e, TA);
    assertEquals(List.of("first " + e, "second " + f, "both " + e), events);
  }

  @Test
  void anEntityEnteringManyGroupsAtOnceIsAnnouncedToEach() {
    // Rule: one change may make an entity enter (and leave) any number of groups; each publishes.
    final ComponentType<?, ?>[] others = {TB, TC, TD, TE, TF, TG, TH, TX, TY, TS};
    final List<NonOwningGroup> groups = new ArrayList<>();
    groups.add(registry.nonOwningGroup(types(TA), NONE));
    for (final ComponentType<?, ?> other : others) {
      groups.add(registry.nonOwningGroup(types(TA, other), NONE));
    }
    final List<String> events = new ArrayList<>();
    for (int i = 0; i < groups.size(); i++) {
      final int n = i;
      groups.get(i).onEnter().connect((r, e) -> events.add("enter " + n));
      groups.get(i).onLeave().connect((r, e) -> events.add("leave " + n));
    }
    final long e = registry.create();
    give(e, others);
    assertEquals(List.of(), events);
    give(e, TA);
    assertEquals(11, events.size());
    for (int i = 0; i < groups.size(); i++) {
      assertTrue(events.contains("enter " + i), events.toString());
      assertTrue(groups.get(i).contains(e));
    }
    events.clear();
    registry.remove(e, TA);
    assertEquals(11, events.size());
    for (int i = 0; i < groups.size(); i++) {
      assertTrue(events.contains("leave " + i), events.toString());
      assertEquals(0, groups.get(i).size());
    }
    assertEquals(List.of(), registry.verify());
  }

  // -------------------------------------------------------------------------------------------
  // Destroying members of a group that spans its storages.
  // -------------------------------------------------------------------------------------------

  /** A registry with its storages created in the given order, so that destroy meets them so. */
  private static Registry withStorages(final ComponentType<?, ?>... order) {
    final Registry registry = new Registry();
    for (final ComponentType<?, ?> type : order) {
      registry.storage(type);
    }
    return registry;
  }

  private static <T> void put(
      final Registry registry, final long e, final ComponentType<T, ?> type) {
    registry.emplace(e, type, value(type, (int) e));
  }

  @Test
  void destroyAnnouncesTheRemovalFromEveryOwnedStorageThatHasListeners() {
    // Rule: destroying a member of a spanning group publishes destroy for each of its components,
    // whichever storage the destroy meets first.
    for (final Registry registry : List.of(withStorages(TA, TB), withStorages(TB, TA))) {
      final OwningGroup group = registry.owningGroup(TA, TB);
      final List<String> destroyed = new ArrayList<>();
      registry.storage(TA).onDestroy().connect((r, e) -> destroyed.add("A" + e));
      registry.storage(TB).onDestroy().connect((r, e) -> destroyed.add("B" + e));
      final long[] entities = new long[3];
      registry.create(entities);
      for (final long e : entities) {
        put(registry, e, TA);
        put(registry, e, TB);
      }
      registry.destroy(entities[1]);
      assertEquals(2, destroyed.size(), destroyed.toString());
      assertTrue(destroyed.contains("A" + entities[1]));
      assertTrue(destroyed.contains("B" + entities[1]));
      assertEquals(2, group.size());
      assertEquals(List.of(), registry.verify());
    }
  }

  @Test
  void aLeaveListenerSeesTheDestroyedEntityLoseOneComponentAtATime() {
    // Rule: leave is published once the component whose removal made the entity leave is gone;
    // the entity's other components are still there (the destroy removes them next).
    for (final Registry registry : List.of(withStorages(TA, TB), withStorages(TB, TA))) {
      final OwningGroup group = registry.owningGroup(TA, TB);
      final List<Integer> kept = new ArrayList<>();
      group
          .onLeave()
          .connect(
              (r, e) -> kept.add((registry.has(e, TA) ? 1 : 0) + (registry.has(e, TB) ? 1 : 0)));
      final long[] entities = new long[3];
      registry.create(entities);
      for (final long e : entities) {
        put(registry, e, TA);
        put(registry, e, TB);
      }
      registry.destroy(entities[0]);
      registry.destroy(entities[2]);
      assertEquals(List.of(1, 1), kept);
      assertEquals(List.of(), registry.verify());
    }
  }

  @Test
  void destroyKeepsOtherGroupsOfTheOwnedStoragesExact() {
    // Rule: a storage owned by a spanning group and observed by another group: destroying a
    // member updates both groups.
    for (final Registry registry : List.of(withStorages(TA, TB), withStorages(TB, TA))) {
      final OwningGroup group = registry.owningGroup(TA, TB);
      final NonOwningGroup onB = registry.nonOwningGroup(types(TB), NONE);
      final NonOwningGroup notB = registry.nonOwningGroup(types(TC), types(TB));
      final long[] entities = new long[3];
      registry.create(entities);
      for (final long e : entities) {
        put(registry, e, TA);
        put(registry, e, TB);
        put(registry, e, TC);
      }
      registry.destroy(entities[1]);
      assertEquals(2, group.size());
      assertEquals(2, onB.size());
      assertFalse(onB.contains(entities[1]));
      assertEquals(0, notB.size());
      assertEquals(List.of(), registry.verify());
    }
  }

  @Test
  void destroyingMembersOfAPartialGroupRemovesEveryComponent() {
    // Rule: destroying a member of a group that owns A and gets B removes both components,
    // whichever storage the destroy meets first.
    for (final Registry registry : List.of(withStorages(TA, TB), withStorages(TB, TA))) {
      final OwningGroup group = registry.owningGroup(types(TA), types(TB), NONE);
      final long[] entities = new long[4];
      registry.create(entities);
      for (final long e : entities) {
        put(registry, e, TA);
        put(registry, e, TB);
      }
      registry.destroy(entities[2]);
      registry.destroy(entities[0]);
      assertEquals(2, group.size());
      assertEquals(2, registry.storage(TA).size());
      assertEquals(2, registry.storage(TB).size());
      assertFalse(registry.storage(TB).contains(entities[2]));
      assertEquals(List.of(), registry.verify());
    }
  }

  @Test
  void removingOneComponentOfASpanningGroupMemberKeepsTheOthers() {
    // Rule: removing one owned component (not a destroy) removes that component only, even when
    // the group spans every owned storage and nothing listens.
    final OwningGroup group = registry.owningGroup(TA, TB);
    final long[] entities = new long[3];
    registry.create(entities);
    for (final long e : entities) {
      give(e, TA, TB);
    }
    registry.remove(entities[1], TA);
    assertTrue(registry.has(entities[1], TB));
    assertEquals(3, registry.storage(TB).size());
    assertEquals(2, group.size());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void removingFromNestedSpanningGroupsMakesTheEntityLeaveBoth() {
    // Rule: a removal that makes an entity leave two nested groups updates both, even when the
    // inner group spans the storage.
    final OwningGroup outer = registry.owningGroup(TA);
    final OwningGroup inner = registry.owningGroup(TA, TB);
    final long[] entities = new long[4];
    registry.create(entities);
    for (final long e : entities) {
      give(e, TA, TB);
    }
    registry.remove(entities[0], TA);
    registry.destroy(entities[2]);
    assertEquals(2, outer.size());
    assertEquals(2, inner.size());
    assertEquals(List.of(), registry.verify());
  }

  // -------------------------------------------------------------------------------------------
  // Changes during an iteration of a storage that groups observe.
  // -------------------------------------------------------------------------------------------

  @Test
  void aRemovalThatWouldShrinkAnIteratedStorageBelowItsFloorIsRefusedWithGroupsToo() {
    // Rule: as for a storage no group observes, once the visited entity left the iterated
    // storage, removing an entity still to come would make the storage smaller than the part
    // already visited: refused, and every entity is visited once. (Before the fix, groups
    // observing the storage let it through and an entity was visited twice.)
    for (int n = 0; n < 3; n++) {
      final int setup = n;
      final Registry registry = new Registry();
      if (1 == setup) {
        registry.nonOwningGroup(types(TA), NONE);
      } else if (2 == setup) {
        registry.owningGroup(types(TA), NONE, types(TB));
      }
      final long[] entities = new long[4];
      registry.create(entities);
      for (final long e : entities) {
        put(registry, e, TA);
      }
      final List<Long> visited = new ArrayList<>();
      registry
          .view(TA)
          .each(
              e -> {
                visited.add(e);
                if (e == entities[3]) {
                  registry.remove(e, TA);
                  assertThrows(
                      ConcurrentModificationException.class,
                      () -> registry.remove(entities[0], TA),
                      "setup " + setup);
                }
              });
      assertEquals(List.of(entities[3], entities[2], entities[1], entities[0]), visited);
      assertTrue(registry.has(entities[0], TA));
      assertEquals(List.of(), registry.verify());
    }
  }

  @Test
  void membersMayLeaveAndVisitedEntitiesEnterWhileTheFirstNonMemberIsVisited() {
    // Rule: during a view over an owned storage, while the entity at the group's end (the first
    // non-member) is visited, an unvisited member may leave (its moves stay below the visited
    // part), and an already visited entity may enter (its moves stay within the visited part).
    for (final boolean leave : new boolean[] {true, false}) {
      final Registry registry = new Registry();
      final OwningGroup group = registry.owningGroup(TA, TB);
      final long[] entities = new long[4];
      registry.create(entities);
      for (final long e : entities) {
        put(registry, e, TA);
      }
      put(registry, entities[0], TB);
      put(registry, entities[1], TB);
      final long atEnd = registry.storage(TA).packed()[2];
      final long visitedNonMember = registry.storage(TA).packed()[3];
      final List<Long> visited = new ArrayList<>();
      registry
          .view(TA)
          .each(
              e -> {
                visited.add(e);
                if (e == atEnd) {
                  if (leave) {
                    registry.remove(group.entityAt(0), TB);
                  } else {
                    put(registry, visitedNonMember, TB);
                  }
                }
              });
      assertEquals(4, visited.size());
      assertEquals(4, new HashSet<>(visited).size());
      assertEquals(leave ? 1 : 3, group.size());
      assertEquals(List.of(), registry.verify());
    }
  }

  // -------------------------------------------------------------------------------------------
  // Clearing a storage that groups observe.
  // -------------------------------------------------------------------------------------------

  @Test
  void clearingAStorageIsRefusedWhileAStorageItsGroupOwnsIsIterated() {
    // Rule: clearing a storage checks every storage its groups would rearrange: while another
    // owned storage of the group is iterated, the clear is refused and changes nothing.
    final OwningGroup group = registry.owningGroup(TA, TB);
    final long e = registry.create();
    give(e, TA, TB);
    registry
        .view(TB)
        .each(
            visited ->
                assertThrows(
                    ConcurrentModificationException.class, () -> registry.storage(TA).clear()));
    assertEquals(1, registry.storage(TA).size());
    assertEquals(1, group.size());
    registry.storage(TA).clear();
    assertEquals(0, group.size());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void clearingAnExcludedStorageIsRefusedWhileTheGroupsMemberSetIsIterated() {
    // Rule: clearing an excluded storage would make entities enter its groups: refused while a
    // non-owning group's member set is iterated.
    final NonOwningGroup group = registry.nonOwningGroup(types(TA), types(TX));
    final long member = registry.create();
    give(member, TA);
    final long excluded = registry.create();
    give(excluded, TA, TX);
    group.each(
        visited ->
            assertThrows(
                ConcurrentModificationException.class, () -> registry.storage(TX).clear()));
    assertEquals(1, group.size());
    registry.storage(TX).clear();
    assertEquals(2, group.size());
    assertEquals(List.of(), registry.verify());
  }

  // -------------------------------------------------------------------------------------------
  // Non-owning groups' member sets.
  // -------------------------------------------------------------------------------------------

  @Test
  void aRefusedChangeDuringANonOwningGroupIterationNamesItsMemberSet() {
    // Rule: making an unvisited member of a non-owning group leave while the group is iterated is
    // refused; the message names the group's member set.
    final NonOwningGroup group = registry.nonOwningGroup(types(TA), NONE);
    final long first = registry.create();
    give(first, TA);
    give(registry.create(), TA);
    final List<String> messages = new ArrayList<>();
    group.each(
        e -> {
          if (e != first) {
            messages.add(
                assertThrows(
                        ConcurrentModificationException.class, () -> registry.remove(first, TA))
                    .getMessage());
          }
        });
    assertEquals(1, messages.size());
    assertTrue(messages.get(0).contains("member set of a non-owning group"), messages.get(0));
    assertTrue(group.contains(first));
  }
}
