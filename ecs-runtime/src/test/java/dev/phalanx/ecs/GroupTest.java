package dev.phalanx.ecs;

import static dev.phalanx.ecs.GroupTypes.NONE;
import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TB;
import static dev.phalanx.ecs.GroupTypes.TC;
import static dev.phalanx.ecs.GroupTypes.TD;
import static dev.phalanx.ecs.GroupTypes.TE;
import static dev.phalanx.ecs.GroupTypes.TF;
import static dev.phalanx.ecs.GroupTypes.TS;
import static dev.phalanx.ecs.GroupTypes.TX;
import static dev.phalanx.ecs.GroupTypes.intOf;
import static dev.phalanx.ecs.GroupTypes.types;
import static dev.phalanx.ecs.GroupTypes.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.GroupTypes.A;
import dev.phalanx.ecs.GroupTypes.B;
import dev.phalanx.ecs.GroupTypes.E;
import dev.phalanx.ecs.GroupTypes.F;
import dev.phalanx.ecs.command.CommandBuffer;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class GroupTest {

  private final Registry registry = new Registry();

  private long entity(final boolean a, final boolean b, final boolean c) {
    final long e = registry.create();
    final int id = (int) e;
    if (a) {
      registry.emplace(e, TA, new A(id));
    }
    if (b) {
      registry.emplace(e, TB, new B(id));
    }
    if (c) {
      registry.emplace(e, TC, value(TC, id));
    }
    return e;
  }

  /** Checks that positions [0, size) of every owned storage hold the group's members, aligned. */
  private static void assertPacked(final OwningGroup group, final Set<Long> expected) {
    assertEquals(expected.size(), group.size(), group + " size");
    final Set<Long> actual = new HashSet<>();
    for (int p = 0; p < group.size(); p++) {
      final long e = group.owned(0).at(p);
      for (int i = 1; i < group.ownedCount(); i++) {
        assertEquals(e, group.owned(i).at(p), "owned storages disagree at position " + p);
      }
      actual.add(e);
    }
    assertEquals(expected, actual);
  }

  /**
   * Removing a component whose storage an owning group spans, from an entity that also leaves a
   * less restrictive non-owning group, takes it out of both, whichever group was made first.
   */
  @Test
  void aRemovalLeavesASpanningOwningGroupAndANonOwningOneAlike() {
    for (final boolean owningFirst : new boolean[] {true, false}) {
      final Registry world = new Registry();
      final OwningGroup before = owningFirst ? world.owningGroup(TA, TB) : null;
      final NonOwningGroup listed = world.nonOwningGroup(types(TA), NONE);
      final OwningGroup owning = owningFirst ? before : world.owningGroup(TA, TB);
      final List<Long> entities = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        final long e = world.create();
        world.emplace(e, TA, new A(i));
        world.emplace(e, TB, new B(i));
        entities.add(e);
      }
      final long leaving = entities.get(2);
      world.remove(leaving, TA);
      assertFalse(owning.contains(leaving), "owning first: " + owningFirst);
      assertFalse(listed.contains(leaving), "owning first: " + owningFirst);
      assertEquals(5, owning.size());
      assertEquals(5, listed.size());
      assertEquals(List.of(), world.verify());
    }
  }

  /**
   * While a view walks a storage a group observes, once the visited entity (the last element) has
   * lost its component, removing one still to come would leave the storage smaller than the part
   * already visited: refused for that reason, before anything changes, as without groups.
   */
  @Test
  void aRemovalBelowTheFloorAfterTheVisitedOneIsRefusedAsShrinking() {
    final NonOwningGroup group = registry.nonOwningGroup(types(TA, TB), NONE);
    final long[] entities = new long[5];
    for (int i = 0; i < entities.length; i++) {
      entities[i] = entity(true, true, false);
    }
    final List<String> refusals = new ArrayList<>();
    registry
        .view(TA)
        .each(
            e -> {
              if (e == entities[4]) {
                registry.remove(e, TA); // the visited entity, the last element
                refusals.add(
                    assertThrows(
                            ConcurrentModificationException.class,
                            () -> registry.remove(entities[0], TA))
                        .getMessage());
              }
            });
    assertEquals(1, refusals.size());
    assertTrue(refusals.get(0).contains("smaller than the part already visited"), refusals.get(0));
    assertTrue(registry.has(entities[0], TA));
    assertEquals(4, group.size());
    assertTrue(registry.verify().isEmpty(), registry.verify().toString());
  }

  @Test
  void fullOwningGroupKeepsMembersAtTheFrontOfEveryOwnedStorage() {
    final OwningGroup group = registry.owningGroup(TA, TB);
    final Set<Long> members = new HashSet<>();
    for (int i = 0; i < 50; i++) {
      final long e = entity(i % 2 == 0, i % 3 == 0, false);
      if (i % 6 == 0) {
        members.add(e);
      }
    }
    assertPacked(group, members);
    // Values stay bound to their entities after the swaps.
    for (final long e : members) {
      assertEquals((int) e, intOf(registry.storage(TA), e));
      assertEquals((int) e, intOf(registry.storage(TB), e));
    }
    final long leaving = members.iterator().next();
    registry.remove(leaving, TB);
    members.remove(leaving);
    assertPacked(group, members);
    assertFalse(group.contains(leaving));
  }

  @Test
  void creatingAGroupOnAPopulatedRegistryArrangesExistingEntities() {
    final Set<Long> members = new HashSet<>();
    for (int i = 0; i < 200; i++) {
      final long e = entity(i % 2 == 0, i % 5 != 0, false);
      if (i % 2 == 0 && i % 5 != 0) {
        members.add(e);
      }
    }
    assertPacked(registry.owningGroup(TA, TB), members);
  }

  @Test
  void partialOwningGroupOwnsSomeTypesAndLooksOthersUp() {
    final OwningGroup group = registry.owningGroup(types(TA), types(TB), NONE);
    final Set<Long> members = new HashSet<>();
    for (int i = 0; i < 40; i++) {
      final long e = entity(i % 2 == 0, i % 4 == 0, false);
      if (i % 4 == 0) {
        members.add(e);
      }
    }
    assertPacked(group, members);
    // B is not owned: it can be sorted on its own.
    registry.storage(TB).sort(Long::compare);
    assertPacked(group, members);
  }

  @Test
  void excludedTypesMoveEntitiesOutAndBackIn() {
    final OwningGroup group = registry.owningGroup(types(TA, TB), NONE, types(TX));
    final long e = entity(true, true, false);
    assertTrue(group.contains(e));
    registry.emplace(e, TX, value(TX, 1));
    assertFalse(group.contains(e));
    registry.remove(e, TX);
    assertTrue(group.contains(e));
    assertPacked(group, Set.of(e));
  }

  @Test
  void nonOwningGroupKeepsAMemberSetAndAcceptsInPlaceStorages() {
    final NonOwningGroup group = registry.nonOwningGroup(types(TA, TS), types(TX));
    final long a = entity(true, false, false);
    final long b = entity(true, false, false);
    registry.emplace(a, TS, value(TS, 1));
    registry.emplace(b, TS, value(TS, 2));
    registry.emplace(b, TX, value(TX, 2));
    assertTrue(group.contains(a));
    assertFalse(group.contains(b));
    assertEquals(1, group.size());
    final List<Long> seen = new ArrayList<>();
    group.each(seen::add);
    assertEquals(List.of(a), seen);
    registry.destroy(a);
    assertEquals(0, group.size());
  }

  @Test
  void askingTwiceForTheSameGroupReturnsIt() {
    final OwningGroup first = registry.owningGroup(types(TA, TB), NONE, types(TX));
    assertSame(first, registry.owningGroup(types(TB, TA), NONE, types(TX)));
    assertEquals(1, registry.groups().size());
  }

  @Test
  void conflictingGroupsAreRefusedNamingBothAndChangeNothing() {
    final OwningGroup ab = registry.owningGroup(TA, TB);
    final long e = entity(true, true, true);
    final IllegalStateException error =
        assertThrows(IllegalStateException.class, () -> registry.owningGroup(TA, TC));
    assertTrue(error.getMessage().contains("owned=[A, C]"), error.getMessage());
    assertTrue(error.getMessage().contains("owned=[A, B]"), error.getMessage());
    assertEquals(1, registry.groups().size());
    assertPacked(ab, Set.of(e));
    // Not nested either: same owned types but different excludes on each side.
    registry.owningGroup(types(TD), NONE, types(TX));
    assertThrows(
        IllegalStateException.class, () -> registry.owningGroup(types(TD), types(TB), NONE));
  }

  @Test
  void inPlaceStoragesCannotBeOwned() {
    final IllegalStateException error =
        assertThrows(IllegalStateException.class, () -> registry.owningGroup(TA, TS));
    assertTrue(error.getMessage().contains("in-place"), error.getMessage());
    assertEquals(0, registry.groups().size());
    assertEquals(null, registry.storage(TA).owner());
    // As a get type it is fine.
    registry.owningGroup(types(TA), types(TS), NONE);
  }

  @Test
  void listingATypeTwiceIsRefused() {
    final IllegalArgumentException error =
        assertThrows(
            IllegalArgumentException.class,
            () -> registry.owningGroup(types(TA), types(TB), types(TB)));
    assertEquals(
        "B is listed twice in the group's lists (a type cannot be both owned and get, or both"
            + " included and excluded)",
        error.getMessage());
    assertEquals(0, registry.groups().size());
    assertThrows(
        IllegalArgumentException.class, () -> registry.owningGroup(types(TA, TA), NONE, NONE));
    assertThrows(IllegalArgumentException.class, () -> registry.group(NONE, NONE, types(TX)));
  }

  @Test
  void ownedStoragesCannotBeSortedAloneButTheGroupCanBe() {
    final OwningGroup group = registry.owningGroup(TA, TB);
    final List<Long> all = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      all.add(entity(true, true, false));
    }
    registry.storage(TA).emplace(registry.create(), new A(-1)); // a non-member after the prefix
    final IllegalStateException error =
        assertThrows(IllegalStateException.class, () -> registry.storage(TA).sort(Long::compare));
    assertTrue(error.getMessage().contains("owned"), error.getMessage());
    // Sort by descending value of A, reading it at positions of the owned storage.
    final ObjectStorage<A> as = registry.storage(TA);
    group.sortByPosition((l, r) -> Integer.compare(as.valueAt(r).value(), as.valueAt(l).value()));
    for (int p = 1; p < group.size(); p++) {
      assertTrue(as.valueAt(p - 1).value() >= as.valueAt(p).value());
    }
    assertPacked(group, new HashSet<>(all));
    for (final long e : all) {
      assertEquals((int) e, intOf(registry.storage(TB), e));
    }
  }

  @Test
  void onlyTheMostRestrictiveGroupOfANestedFamilyCanBeSorted() {
    final OwningGroup ab = registry.owningGroup(TA, TB);
    final OwningGroup abc = registry.owningGroup(TA, TB, TC);
    for (int i = 0; i < 30; i++) {
      entity(true, true, i % 2 == 0);
    }
    assertThrows(
        IllegalStateException.class, () -> ab.sort((long l, long r) -> Long.compare(l, r)));
    abc.sort((long l, long r) -> Long.compare(r, l));
    for (int p = 1; p < abc.size(); p++) {
      assertTrue(abc.entityAt(p - 1) > abc.entityAt(p));
    }
    assertEquals(30, ab.size());
    assertEquals(15, abc.size());
  }

  @Test
  void listenersThatChangeComponentsDuringMaintenanceLeaveGroupsConsistent() {
    final OwningGroup group = registry.owningGroup(types(TA, TB), NONE, types(TX));
    // Adding A also adds B (the entity enters the group inside a listener); removing B adds X.
    registry.storage(TA).onConstruct().connect((r, e) -> r.emplace(e, TB, new B((int) e)));
    registry.storage(TB).onDestroy().connect((r, e) -> r.emplaceOrReplace(e, TX, value(TX, 0)));
    final long e = registry.create();
    registry.emplace(e, TA, new A(7));
    assertTrue(group.contains(e));
    assertPacked(group, Set.of(e));
    registry.remove(e, TB);
    assertFalse(group.contains(e));
    assertTrue(registry.has(e, TX));
    registry.emplace(e, TB, new B(1));
    assertFalse(group.contains(e), "still excluded by X");
    registry.remove(e, TX);
    assertTrue(group.contains(e));
    assertPacked(group, Set.of(e));
  }

  @Test
  void eachVisitsEveryMemberAndAllowsDestroyingTheVisitedOne() {
    final OwningGroup group = registry.owningGroup(TA, TB);
    final Set<Long> members = new HashSet<>();
    for (int i = 0; i < 64; i++) {
      members.add(entity(true, true, false));
    }
    final Set<Long> seen = new HashSet<>();
    group.each(
        e -> {
          assertTrue(seen.add(e), "visited twice");
          if (e % 3 == 0) {
            registry.destroy(e);
          }
        });
    assertEquals(members, seen);
    assertEquals(members.stream().filter(e -> e % 3 != 0).count(), group.size());
  }

  @Test
  void eachDetectsAnotherMemberLeaving() {
    final OwningGroup group = registry.owningGroup(TA, TB);
    final List<Long> members = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      members.add(entity(true, true, false));
    }
    assertThrows(
        ConcurrentModificationException.class,
        () ->
            group.each(
                e -> {
                  if (e == members.get(9)) {
                    registry.remove(members.get(0), TB);
                  }
                }));
  }

  @Test
  void entitiesEnteringTheGroupDuringItsIterationAreAllowedAndNotVisited() {
    final OwningGroup group = registry.owningGroup(TA, TB);
    for (int i = 0; i < 5; i++) {
      entity(true, true, false);
    }
    entity(true, false, false); // a non-member after the range, so that every entry swaps
    // New members are swapped to the end of the range, behind the visited position: allowed.
    final int[] visits = {0};
    group.each(
        e -> {
          visits[0]++;
          for (int i = 0; i < 70; i++) {
            entity(true, true, false);
          }
        });
    assertEquals(5, visits[0], "new members are not visited");
    assertEquals(5 + 5 * 70, group.size());
    assertTrue(registry.verify().isEmpty(), registry.verify().toString());
  }

  @Test
  void viewOverAnOwnedStorageAllowsEntriesThatMoveOnlyElementsStillToCome() {
    registry.owningGroup(TA, TB);
    final List<Long> all = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      all.add(entity(true, false, false));
    }
    // all[5] is still to come when the walk starts at position 9: entering swaps it with position
    // 0, both still to come, so every entity is still visited once.
    final List<Long> visited = new ArrayList<>();
    registry
        .view(TA)
        .each(
            e -> {
              visited.add(e);
              registry.emplaceOrReplace(all.get(5), TB, new B(0));
            });
    assertEquals(10, visited.size());
    assertEquals(new HashSet<>(all), new HashSet<>(visited));
    assertTrue(registry.verify().isEmpty(), registry.verify().toString());
  }

  @Test
  void theVisitedEntityEnteringAGroupThatOwnsTheIteratedStorageIsRefusedUnmade() {
    final OwningGroup group = registry.owningGroup(TA, TB);
    final List<Long> all = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      all.add(entity(true, false, false));
    }
    // Visited at position 9, the entity would be swapped to position 0, still to come: refused.
    final ConcurrentModificationException error =
        assertThrows(
            ConcurrentModificationException.class,
            () -> registry.view(TA).each(e -> registry.emplace(e, TB, new B(1))));
    assertTrue(error.getMessage().contains("visited twice or never"), error.getMessage());
    assertTrue(error.getMessage().contains("entering or leaving a group"), error.getMessage());
    assertFalse(registry.has(all.get(9), TB), "the refused emplace left nothing");
    assertEquals(0, group.size());
    assertTrue(registry.verify().isEmpty(), registry.verify().toString());
  }

  @Test
  void chunksCoverTheGroupWithinPagesOfEveryOwnedStorage() {
    // E has 8-element pages, F 16: chunks must stop at every multiple of 8.
    final OwningGroup group = registry.owningGroup(TE, TF);
    for (int i = 0; i < 100; i++) {
      final long e = registry.create();
      registry.emplace(e, TE, new E(i));
      if (i % 10 != 0) {
        registry.emplace(e, TF, new F(i));
      }
    }
    assertEquals(8, group.chunkSize());
    final List<int[]> chunks = new ArrayList<>();
    group.eachChunk((from, to) -> chunks.add(new int[] {from, to}));
    int expectedFrom = 0;
    for (final int[] chunk : chunks) {
      assertEquals(expectedFrom, chunk[0]);
      assertTrue(chunk[1] > chunk[0]);
      assertEquals(chunk[0] >>> 3, (chunk[1] - 1) >>> 3, "a chunk crosses a page");
      expectedFrom = chunk[1];
    }
    assertEquals(group.size(), expectedFrom);
    assertEquals(90, group.size());
  }

  @Test
  void entityChunksHandTheMembersOfEachRunInTheSameRunsAsPlainChunks() {
    final OwningGroup group = registry.owningGroup(TE, TF);
    final ObjectStorage<E> es = registry.storage(TE);
    for (int i = 0; i < 100; i++) {
      final long e = registry.create();
      registry.emplace(e, TE, new E(i));
      if (i % 10 != 0) {
        registry.emplace(e, TF, new F(i));
      }
    }
    final List<int[]> plain = new ArrayList<>();
    group.eachChunk((from, to) -> plain.add(new int[] {from, to}));
    final List<int[]> withEntities = new ArrayList<>();
    final Set<Long> members = new HashSet<>();
    group.eachChunk(
        (long[] entities, int from, int to) -> {
          withEntities.add(new int[] {from, to});
          for (int p = from; p < to; p++) {
            assertEquals(group.entityAt(p), entities[p], "position " + p);
            // The entity's element is at the same position of every owned storage.
            assertEquals(es.valueAt(p).value(), registry.get(entities[p], TE).value());
            assertTrue(members.add(entities[p]));
          }
        });
    assertEquals(plain.size(), withEntities.size());
    for (int i = 0; i < plain.size(); i++) {
      assertEquals(plain.get(i)[0], withEntities.get(i)[0]);
      assertEquals(plain.get(i)[1], withEntities.get(i)[1]);
    }
    assertEquals(90, members.size());
    for (final long member : members) {
      assertTrue(group.contains(member));
    }
  }

  @Test
  void entityChunksLetOnePassRecordTheDestructionOfWhatTheyFind() {
    final OwningGroup group = registry.owningGroup(TE, TF);
    final List<Long> odd = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      final long e = registry.create();
      registry.emplace(e, TE, new E(i));
      registry.emplace(e, TF, new F(i));
      if (i % 2 != 0) {
        odd.add(e);
      }
    }
    final ObjectStorage<E> es = registry.storage(TE);
    final CommandBuffer commands = new CommandBuffer(registry);
    group.eachChunk(
        (long[] entities, int from, int to) -> {
          for (int p = from; p < to; p++) {
            if (es.valueAt(p).value() % 2 != 0) {
              commands.destroy(entities[p]);
            }
          }
        });
    // Destroying during the chunk loop itself is refused (the storages are locked).
    assertThrows(
        ConcurrentModificationException.class,
        () ->
            group.eachChunk((long[] entities, int from, int to) -> registry.destroy(entities[0])));
    commands.apply();
    assertEquals(50, group.size());
    for (final long e : odd) {
      assertFalse(registry.valid(e));
    }
    assertTrue(registry.verify().isEmpty(), registry.verify().toString());
  }

  @Test
  void parallelEntityChunksHandEveryMemberOnce() {
    final OwningGroup group = registry.owningGroup(TA, TB);
    final int count = 50_000;
    for (int i = 0; i < count; i++) {
      entity(true, true, false);
    }
    final ForkJoinPool pool = new ForkJoinPool(3);
    try {
      final int[] hits = new int[count];
      group.parallelEachChunk(
          pool,
          (long[] entities, int from, int to) -> {
            for (int p = from; p < to; p++) {
              // Each entity's index is unique below count: entities were created in order.
              hits[Entity.index(entities[p])]++;
            }
          });
      for (int i = 0; i < count; i++) {
        assertEquals(1, hits[i], "entity index " + i);
      }
      final RuntimeException boom = new IllegalStateException("boom");
      final RuntimeException thrown =
          assertThrows(
              RuntimeException.class,
              () ->
                  group.parallelEachChunk(
                      (long[] entities, int from, int to) -> {
                        throw boom;
                      }));
      Throwable root = thrown;
      while (root != boom && null != root.getCause()) {
        root = root.getCause();
      }
      assertSame(boom, root, String.valueOf(thrown));
      assertFalse(group.owned(0).isLocked());
    } finally {
      pool.shutdown();
    }
  }

  @Test
  void chunkIterationRefusesStructuralChangesAndUnlocksAfterwards() {
    final OwningGroup group = registry.owningGroup(TA, TB);
    final long e = entity(true, true, false);
    final long other = entity(true, false, false);
    assertThrows(
        ConcurrentModificationException.class,
        () -> group.eachChunk((from, to) -> registry.emplace(other, TB, new B(1))));
    assertFalse(registry.has(other, TB));
    assertFalse(registry.storage(TA).isLocked());
    registry.emplace(other, TB, new B(1));
    assertEquals(2, group.size());
    assertTrue(group.contains(e));
  }

  @Test
  void parallelChunksVisitEveryPositionOnceAndPropagateFailures() {
    final OwningGroup group = registry.owningGroup(TA, TB);
    final int count = 100_000;
    for (int i = 0; i < count; i++) {
      entity(true, true, false);
    }
    final ForkJoinPool pool = new ForkJoinPool(4);
    try {
      final int[] hits = new int[count];
      final AtomicLong sum = new AtomicLong();
      final Storage<?> as = group.owned(0);
      group.parallelEachChunk(
          pool,
          (from, to) -> {
            long local = 0;
            for (int p = from; p < to; p++) {
              hits[p]++;
              local += ((A) ((ObjectStorage<?>) as).valueAt(p)).value();
            }
            sum.addAndGet(local);
          });
      for (int p = 0; p < count; p++) {
        assertEquals(1, hits[p], "position " + p);
      }
      assertEquals((long) count * (count - 1) / 2, sum.get());
      final RuntimeException boom = new IllegalStateException("boom");
      final RuntimeException thrown =
          assertThrows(
              RuntimeException.class,
              () ->
                  group.parallelEachChunk(
                      pool,
                      (from, to) -> {
                        if (from > count / 2) {
                          throw boom;
                        }
                      }));
      // The fork-join pool may re-wrap the exception once per thread hop, keeping it as the cause.
      Throwable root = thrown;
      while (root != boom && null != root.getCause()) {
        root = root.getCause();
      }
      assertSame(boom, root, String.valueOf(thrown));
      assertThrows(
          ConcurrentModificationException.class,
          () ->
              group.parallelEachChunk(pool, (from, to) -> registry.destroy(group.entityAt(from))));
      assertEquals(count, group.size());
      assertFalse(group.owned(0).isLocked());
    } finally {
      pool.shutdown();
    }
  }

  @Test
  void destroyingEntitiesAndClearingStoragesEmptiesGroups() {
    final OwningGroup ab = registry.owningGroup(TA, TB);
    final NonOwningGroup nb = registry.nonOwningGroup(types(TB, TC), NONE);
    for (int i = 0; i < 20; i++) {
      entity(true, true, true);
    }
    registry.clear(TB);
    assertEquals(0, ab.size());
    assertEquals(0, nb.size());
    registry.clear();
    assertEquals(0, registry.alive());
  }

  @Test
  void enteringAnOwningGroupDuringAViewOfAnOwnedStorageIsRefusedOnlyAcrossTheFloor() {
    final OwningGroup group = registry.owningGroup(TA, TB);
    final long[] e = new long[6];
    for (int i = 0; i < e.length; i++) {
      e[i] = entity(true, false, false);
    }
    final List<Long> visited = new ArrayList<>();
    registry
        .view(TA)
        .each(
            entity -> {
              visited.add(entity);
              if (entity == e[3]) {
                // e[1] is still to come: entering moves it to position 0, below the floor (3).
                registry.emplace(e[1], TB, new B(1));
                // e[5] was visited: entering would move it to position 1, across the floor.
                final ConcurrentModificationException error =
                    assertThrows(
                        ConcurrentModificationException.class,
                        () -> registry.emplace(e[5], TB, new B(5)));
                assertTrue(
                    error.getMessage().contains("visited twice or never"), error.getMessage());
                assertFalse(registry.has(e[5], TB));
              }
            });
    assertEquals(6, visited.size());
    assertEquals(Set.of(e[0], e[1], e[2], e[3], e[4], e[5]), new HashSet<>(visited));
    assertPacked(group, Set.of(e[1]));
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void leavingAnOwningGroupDuringAViewOfAnOwnedStorageIsRefusedOnlyAcrossTheFloor() {
    final OwningGroup group = registry.owningGroup(TA, TB);
    for (int i = 0; i < 6; i++) {
      entity(true, true, false);
    }
    final ObjectStorage<A> as = registry.storage(TA);
    final long[] at = new long[6];
    for (int p = 0; p < 6; p++) {
      at[p] = as.at(p);
    }
    final List<Long> visited = new ArrayList<>();
    registry
        .view(TA)
        .each(
            entity -> {
              visited.add(entity);
              if (entity == at[3]) {
                // The last member leaves: nothing moves.
                registry.remove(at[5], TB);
                // A member still to come would swap with the last member (4), across the floor.
                assertThrows(
                    ConcurrentModificationException.class, () -> registry.remove(at[0], TB));
                assertTrue(registry.has(at[0], TB));
                // The visited member leaves: it swaps with the last member (4), above the floor.
                registry.remove(at[3], TB);
              }
            });
    assertEquals(6, new HashSet<>(visited).size());
    assertPacked(group, Set.of(at[0], at[1], at[2], at[4]));
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void destroyingMembersOfASpanningGroupKeepsEveryStorageAlignedWithOrWithoutListeners() {
    // Without listeners a destroyed member leaves the group and both storages in one step per
    // storage; with a destroy listener on B each storage's removal runs on its own. Both end alike.
    for (final boolean listened : new boolean[] {false, true}) {
      final Registry world = new Registry();
      final OwningGroup group = world.owningGroup(TA, TB);
      final List<Long> seen = new ArrayList<>();
      if (listened) {
        world.storage(TB).onDestroy().connect((r, e) -> seen.add(e));
      }
      final List<Long> all = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        final long e = world.create();
        world.emplace(e, TA, new A((int) e));
        world.emplace(e, TB, new B((int) e));
        all.add(e);
      }
      final Set<Long> members = new HashSet<>(all);
      for (int i = 0; i < all.size(); i += 3) {
        world.destroy(all.get(i));
        members.remove(all.get(i));
      }
      assertEquals(members.size(), group.size(), "listened " + listened);
      assertEquals(members.size(), world.storage(TA).size());
      assertEquals(members.size(), world.storage(TB).size());
      final Set<Long> actual = new HashSet<>();
      for (int p = 0; p < group.size(); p++) {
        final long e = group.owned(0).at(p);
        assertEquals(e, group.owned(1).at(p), "owned storages disagree at position " + p);
        assertEquals((int) e, intOf(world.storage(TA), e));
        assertEquals((int) e, intOf(world.storage(TB), e));
        actual.add(e);
      }
      assertEquals(members, actual);
      assertEquals(listened ? 14 : 0, seen.size());
      assertTrue(world.verify().isEmpty(), world.verify().toString());
    }
  }

  @Test
  void rebuildForgetsTheMembersItHadAndArrangesThemFromTheStorages() {
    // Rule: Groups.rebuild (after a load filled storages in bulk) trusts nothing the groups knew:
    // storages rearranged behind the group's back come out aligned and exact.
    final Registry registry = new Registry();
    final OwningGroup group = registry.owningGroup(TA, TB);
    final long[] entities = new long[8];
    registry.create(entities);
    for (int i = 0; i < entities.length; i++) {
      registry.emplace(entities[i], TA, new A(i));
      if (i < 6) {
        registry.emplace(entities[i], TB, new B(i));
      }
    }
    assertEquals(6, group.size());
    // As a bulk load may leave it: a non-member in front of A, a member behind its range.
    registry.storage(TA).swap(0, 6);
    assertFalse(registry.verify().isEmpty());
    registry.groups().rebuild();
    assertEquals(List.of(), registry.verify());
    assertEquals(6, group.size());
    for (int i = 0; i < entities.length; i++) {
      assertEquals(i < 6, group.contains(entities[i]), "e" + i);
    }
  }
}
