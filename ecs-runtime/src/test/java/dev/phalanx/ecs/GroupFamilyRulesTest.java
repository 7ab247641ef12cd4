package dev.phalanx.ecs;

import static dev.phalanx.ecs.GroupTypes.NONE;
import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TB;
import static dev.phalanx.ecs.GroupTypes.TC;
import static dev.phalanx.ecs.GroupTypes.TD;
import static dev.phalanx.ecs.GroupTypes.TE;
import static dev.phalanx.ecs.GroupTypes.TX;
import static dev.phalanx.ecs.GroupTypes.TY;
import static dev.phalanx.ecs.GroupTypes.types;
import static dev.phalanx.ecs.GroupTypes.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Nested families of owning groups: creating a group rearranges its whole family, lower ranks
 * first, after checking every storage it moves; the rank counts owned, get and excluded types; the
 * nesting invariant is what {@link Registry#verify()} checks.
 */
class GroupFamilyRulesTest {

  private final Registry registry = new Registry();

  /** Adds the components of {@code types} to {@code e}. */
  private void give(final long e, final ComponentType<?, ?>... types) {
    for (final ComponentType<?, ?> type : types) {
      emplace(e, type);
    }
  }

  private <T> void emplace(final long e, final ComponentType<T, ?> type) {
    registry.emplace(e, type, value(type, (int) e));
  }

  /** Checks that every group is exact and every nested group is a prefix of its outer group. */
  private void assertConsistent(final Group... groups) {
    assertEquals(List.of(), registry.verify());
    for (final Group group : groups) {
      final int[] members = {0};
      registry
          .entities()
          .each(
              e -> {
                assertEquals(
                    group.matches(e), group.contains(e), group + " and " + Entity.toString(e));
                members[0] += group.contains(e) ? 1 : 0;
              });
      assertEquals(members[0], group.size(), group.toString());
    }
  }

  /**
   * Entities in an order where the first ones in {@code D} have {@code A} but not {@code B}: a
   * group walking D from the front enters them first.
   */
  private List<Long> populateForFamily() {
    final List<Long> entities = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      entities.add(registry.create());
    }
    // D is smaller than A and lists entities that lack B first.
    for (int i = 11; i >= 0; i--) {
      if (i % 2 == 0) {
        give(entities.get(i), TD);
      }
    }
    for (int i = 0; i < 12; i++) {
      give(entities.get(i), TA);
      if (i < 6) {
        give(entities.get(i), TB);
      }
    }
    return entities;
  }

  @Test
  void creatingTheMoreRestrictiveGroupKeepsTheOuterOneAPrefix() {
    // Rule: creating a group nested in an existing one arranges the less restrictive group first,
    // so the new group's members end up a prefix of the outer group's.
    populateForFamily();
    final OwningGroup outer = registry.owningGroup(types(TA), types(TD), NONE);
    final OwningGroup inner = registry.owningGroup(types(TA, TB), types(TD), NONE);
    assertEquals(6, outer.size());
    assertEquals(3, inner.size());
    assertConsistent(outer, inner);
  }

  @Test
  void creatingTheLessRestrictiveGroupRearrangesTheInnerOneToo() {
    // Rule: creating a group that an existing one is nested in forgets and re-arranges the
    // existing group as well, so that it stays a prefix.
    populateForFamily();
    final OwningGroup inner = registry.owningGroup(types(TA, TB), types(TD), NONE);
    final OwningGroup outer = registry.owningGroup(types(TA), types(TD), NONE);
    assertEquals(6, outer.size());
    assertEquals(3, inner.size());
    assertConsistent(outer, inner);
    // The family stays exact under changes.
    final Random random = new Random(3);
    final ComponentType<?, ?>[] all = {TA, TB, TD};
    for (int step = 0; step < 300; step++) {
      final long e = Entity.of(random.nextInt(12), 0);
      final ComponentType<?, ?> type = all[random.nextInt(all.length)];
      if (registry.has(e, type)) {
        registry.remove(e, type);
      } else {
        emplace(e, type);
      }
      assertEquals(List.of(), registry.verify(), "step " + step);
    }
  }

  @Test
  void creatingAGroupIsRefusedWhileAFamilyStorageItWouldMoveIsIterated() {
    // Rule: creating a group checks every storage its family's groups own, not only its own:
    // while B (owned by the existing nested group) is iterated, creating the outer group is
    // refused and changes nothing.
    populateForFamily();
    final OwningGroup inner = registry.owningGroup(types(TA, TB), types(TD), NONE);
    final List<Long> before = new ArrayList<>();
    for (final long e : registry.storage(TB).packed()) {
      before.add(e);
    }
    registry
        .view(TB)
        .each(
            e ->
                assertThrows(
                    ConcurrentModificationException.class,
                    () -> registry.owningGroup(types(TA), types(TD), NONE)));
    assertEquals(1, registry.groups().size());
    final List<Long> after = new ArrayList<>();
    for (final long e : registry.storage(TB).packed()) {
      after.add(e);
    }
    assertEquals(before, after);
    assertConsistent(inner);
  }

  @Test
  void creatingAGroupIgnoresUnrelatedGroupsAndTheirIterations() {
    // Rule: groups that share no owned storage with the new one are not part of its family: they
    // are neither checked nor rearranged, so iterating their storages does not stop the creation.
    final OwningGroup unrelated = registry.owningGroup(TC);
    final long c = registry.create();
    give(c, TC);
    final long ab = registry.create();
    give(ab, TA, TB);
    final List<Group> created = new ArrayList<>();
    registry.view(TC).each(e -> created.add(registry.owningGroup(TA, TB)));
    assertEquals(1, created.get(0).size());
    assertEquals(1, unrelated.size());
    assertEquals(2, registry.groups().size());
    assertSame(unrelated, registry.groups().get(0));
    assertSame(created.get(0), registry.groups().get(1));
    assertConsistent(unrelated, created.get(0));
  }

  @Test
  void aGroupExtendedByAGetTypeIsMaintainedAfterTheGroupItExtends() {
    // Rule: the rank counts get types: a group with one more get type than a nested one is the
    // more restrictive, and entries are applied to the other first.
    final OwningGroup inner = registry.owningGroup(types(TA), types(TD, TE), NONE);
    final OwningGroup outer = registry.owningGroup(types(TA), types(TD), NONE);
    churn(new ComponentType<?, ?>[] {TA, TD, TE}, outer, inner);
  }

  @Test
  void aGroupExtendedByAnExcludedTypeIsMaintainedAfterTheGroupItExtends() {
    // Rule: the rank counts excluded types as well.
    final OwningGroup inner = registry.owningGroup(types(TA), NONE, types(TX));
    final OwningGroup outer = registry.owningGroup(TA);
    churn(new ComponentType<?, ?>[] {TA, TX}, outer, inner);
  }

  @Test
  void aGroupExtendedByAGetAndAnExcludedTypeIsMaintainedAfterTheGroupItExtends() {
    // Rule: a group with an owned type more than a nested one ranks above it, whatever the get
    // and excluded types both have.
    final OwningGroup inner = registry.owningGroup(types(TA, TB), types(TD, TE), types(TX, TY));
    final OwningGroup outer = registry.owningGroup(types(TA), types(TD, TE), types(TX, TY));
    churn(new ComponentType<?, ?>[] {TA, TB, TD, TE, TX, TY}, outer, inner);
  }

  /** Random insertions and removals of {@code all}; the family must stay exact throughout. */
  private void churn(final ComponentType<?, ?>[] all, final Group... groups) {
    final long[] entities = new long[24];
    registry.create(entities);
    final Random random = new Random(7);
    for (final long e : entities) {
      for (final ComponentType<?, ?> type : all) {
        if (random.nextInt(3) != 0 && type != TX && type != TY) {
          emplace(e, type);
        }
      }
    }
    assertConsistent(groups);
    for (int step = 0; step < 400; step++) {
      final long e = entities[random.nextInt(entities.length)];
      final ComponentType<?, ?> type = all[random.nextInt(all.length)];
      if (registry.has(e, type)) {
        registry.remove(e, type);
      } else {
        emplace(e, type);
      }
      assertEquals(List.of(), registry.verify(), "step " + step);
    }
    assertConsistent(groups);
  }

  @Test
  void groupsDescribeTheirLists() {
    // Rule: a group reports its owned, get and excluded storages in declaration order.
    final OwningGroup group = registry.owningGroup(types(TA, TB), types(TD, TE), types(TX));
    assertEquals(2, group.ownedCount());
    assertSame(registry.storage(TB), group.owned(1));
    assertEquals(2, group.getCount());
    assertSame(registry.storage(TD), group.get(0));
    assertSame(registry.storage(TE), group.get(1));
    assertEquals(1, group.excludeCount());
    assertSame(registry.storage(TX), group.exclude(0));
    assertEquals("group<owned=[A, B], get=[D, E], exclude=[X]>", group.toString());
    final NonOwningGroup plain = registry.nonOwningGroup(types(TC), NONE);
    assertEquals(0, plain.ownedCount());
    assertEquals(1, plain.getCount());
    assertEquals(0, plain.excludeCount());
  }

  // -------------------------------------------------------------------------------------------
  // What verify reports.
  // -------------------------------------------------------------------------------------------

  @Test
  void verifyReportsANestedGroupLargerThanTheGroupItIsNestedIn() {
    // Rule: Registry.verify reports an inner group with more members than its outer group (here
    // the outer group forgot its members, as a bug would make it).
    final OwningGroup outer = registry.owningGroup(TA);
    final OwningGroup inner = registry.owningGroup(TA, TB);
    for (int i = 0; i < 3; i++) {
      give(registry.create(), TA, TB);
    }
    assertEquals(List.of(), registry.verify());
    outer.reset();
    final List<String> problems = registry.verify();
    assertTrue(
        problems.contains(
            inner + " has 3 members but the group it is nested in, " + outer + ", has only 0"),
        problems.toString());
    // The forgotten members are reported too.
    assertTrue(
        problems.stream()
            .anyMatch(p -> p.startsWith(outer + ": ") && p.endsWith("is not a member")),
        problems.toString());
  }

  @Test
  void verifyDoesNotCompareUnrelatedOrNonOwningGroups() {
    // Rule: the nesting check applies only to owning groups that share an owned storage.
    final OwningGroup a = registry.owningGroup(TA);
    final NonOwningGroup ab = registry.nonOwningGroup(types(TA, TB), NONE);
    final OwningGroup c = registry.owningGroup(TC);
    for (int i = 0; i < 3; i++) {
      give(registry.create(), TA, TB);
    }
    give(registry.create(), TC);
    assertEquals(3, ab.size());
    assertEquals(1, c.size());
    assertEquals(3, a.size());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void verifyReportsMembersThatDoNotMatchAndMatchesThatAreNotMembers() {
    // Rule: verify reports, per group, every member that lacks a component and every entity that
    // matches without being a member (here the component was removed behind the groups' back).
    final NonOwningGroup plain = registry.nonOwningGroup(types(TA, TB), NONE);
    final OwningGroup owning = registry.owningGroup(types(TC), types(TD), NONE);
    final long e = registry.create();
    give(e, TA, TB, TC, TD);
    give(registry.create(), TA);
    give(registry.create(), TA); // A stays the larger storage: B is walked
    assertEquals(List.of(), registry.verify());
    final Storage<?> as = registry.storage(TA);
    as.removeAt(as.indexOf(e));
    final Storage<?> ds = registry.storage(TD);
    ds.removeAt(ds.indexOf(e));
    final List<String> problems = registry.verify();
    final String name = Entity.toString(e);
    assertTrue(
        problems.contains(plain + ": " + name + " is a member but does not match"),
        problems.toString());
    assertTrue(
        problems.contains(plain + ": member " + name + " at 0 does not match"),
        problems.toString());
    assertTrue(
        problems.contains(owning + ": member " + name + " at 0 does not match"),
        problems.toString());
    assertFalse(
        problems.stream().anyMatch(p -> p.endsWith("matches but is not a member")),
        problems.toString());
  }

  @Test
  void verifyReportsAMatchThatIsNotAMember() {
    // Rule: verify reports an entity that matches a group without being a member (here the member
    // set lost it behind the group's back).
    final NonOwningGroup plain = registry.nonOwningGroup(types(TA), NONE);
    final long e = registry.create();
    give(e, TA);
    plain.memberSet().removeAt(0);
    final List<String> problems = registry.verify();
    assertTrue(
        problems.contains(plain + ": " + Entity.toString(e) + " matches but is not a member"),
        problems.toString());
  }

  @Test
  void verifyReportsABrokenMemberSet() {
    // Rule: verify checks a non-owning group's member set like any sparse set, naming it (here
    // its packed array was overwritten behind the group's back).
    final NonOwningGroup plain = registry.nonOwningGroup(types(TA), NONE);
    final long e = registry.create();
    final long other = registry.create();
    give(e, TA);
    plain.memberSet().packed()[0] = other;
    final List<String> problems = registry.verify();
    assertTrue(
        problems.stream().anyMatch(p -> p.startsWith("member set of a non-owning group")),
        problems.toString());
  }
}
