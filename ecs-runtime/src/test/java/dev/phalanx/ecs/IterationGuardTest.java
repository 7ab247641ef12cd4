package dev.phalanx.ecs;

import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TB;
import static dev.phalanx.ecs.GroupTypes.TC;
import static dev.phalanx.ecs.GroupTypes.TD;
import static dev.phalanx.ecs.GroupTypes.TE;
import static dev.phalanx.ecs.GroupTypes.TF;
import static dev.phalanx.ecs.GroupTypes.TS;
import static dev.phalanx.ecs.GroupTypes.TX;
import static dev.phalanx.ecs.GroupTypes.TY;
import static dev.phalanx.ecs.GroupTypes.types;
import static dev.phalanx.ecs.GroupTypes.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.FaultWorld.Layout;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongConsumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Changes inside every iteration form: each refused change throws before anything changes (the
 * world, layouts and listener calls equal a snapshot taken just before it) and the iteration goes
 * on; each allowed change works; every entity is visited exactly once; afterwards {@link
 * Registry#verify()} is empty.
 */
class IterationGuardTest {

  private static final long SEED = 7;
  private static final int COUNT = 80;

  /** A callback iteration form and what it walks. */
  interface Form {
    void run(FaultWorld world, LongConsumer visitor);
  }

  /**
   * Returns the set (storage or member set) a form walks, and its component type (null: member
   * set).
   */
  record Walk(String name, Form form, ComponentType<?, ?> leaderType, boolean memberSet) {
    SparseSet leader(final FaultWorld w) {
      return memberSet ? w.dsNoY.members() : w.registry.storage(leaderType);
    }

    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Arguments> forms() {
    return Stream.of(
            new Walk(
                "View(A, B) exclude X, led by A",
                (w, v) ->
                    w.registry
                        .view(types(TA, TB), types(TX))
                        .leadBy(w.registry.storage(TA))
                        .each(v),
                TA,
                false),
            new Walk(
                "View(D, S), led by in-place S",
                (w, v) -> w.registry.view(TD, TS).leadBy(w.registry.storage(TS)).each(v),
                TS,
                false),
            new Walk("owning <A,B> each", (w, v) -> w.ab.each(v), TA, false),
            new Walk("nested <A,B,C> !X each", (w, v) -> w.abcNoX.each(v), TA, false),
            new Walk("partial <E,F> get S !X each", (w, v) -> w.efGetSNoX.each(v), TE, false),
            new Walk("non-owning <D,S> !Y each", (w, v) -> w.dsNoY.each(v), null, true),
            new Walk(
                "RuntimeView(D) exclude Y",
                (w, v) ->
                    new RuntimeView()
                        .iterate(w.registry.storage(TD))
                        .exclude(w.registry.storage(TY))
                        .each(v),
                TD,
                false))
        .map(Arguments::of);
  }

  /** The entities an iteration would visit now, in order. */
  private static List<Long> membersNow(final FaultWorld world, final Walk walk) {
    final List<Long> result = new ArrayList<>();
    walk.form().run(world, result::add);
    return result;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("forms")
  void refusedChangesChangeNothingAllowedOnesWorkAndEveryEntityIsVisitedOnce(final Walk walk) {
    final FaultWorld world = new FaultWorld(SEED, COUNT, false);
    final List<Long> initial = membersNow(world, walk);
    assertTrue(initial.size() >= 6, walk + ": too few members to test: " + initial.size());
    final SparseSet leader = walk.leader(world);
    final boolean inPlace = DeletionPolicy.IN_PLACE == leader.policy();
    final Set<Long> visited = new HashSet<>();
    final Set<Long> removedEarly = new HashSet<>();
    final Set<Long> addedToLeader = new HashSet<>();
    final Map<String, Integer> refusals = new LinkedHashMap<>();
    final int[] step = {0};
    walk.form()
        .run(
            world,
            e -> {
              assertTrue(
                  visited.add(e) || (inPlace && addedToLeader.contains(e)),
                  walk + ": visited twice: " + e);
              final int position = leader.index(e);
              // A member still to come, as far from the visited one as possible.
              long found = Entity.NULL;
              for (int p = 0; p < position; p++) {
                final long candidate = leader.packed()[p];
                if (!Entity.isTombstone(candidate)
                    && initial.contains(candidate)
                    && !visited.contains(candidate)) {
                  found = candidate;
                  break;
                }
              }
              final long ahead = found;
              if (!Entity.isNull(ahead) && !inPlace) {
                refused(
                    world,
                    refusals,
                    "remove the leader's component of an entity still to come",
                    removeFromLeader(world, walk, ahead));
                refused(
                    world,
                    refusals,
                    "destroy an entity still to come",
                    () -> world.registry.destroy(ahead));
              }
              if (!inPlace) {
                refused(world, refusals, "sort the iterated set", () -> sortLeader(world, walk));
              }
              refused(world, refusals, "clear the iterated set", () -> clearLeader(world, walk));
              refused(world, refusals, "clear the registry", world.registry::clear);
              if (!walk.memberSet() && TS != walk.leaderType() && TD != walk.leaderType()) {
                refused(
                    world,
                    refusals,
                    "create a group that owns the iterated storage",
                    () -> createOwning(world, walk));
              }
              if (inPlace && leader.hasTombstones()) {
                refused(world, refusals, "compact the iterated set", leader::compact);
              }
              // Allowed changes, in turn.
              switch (step[0]++ % 5) {
                case 0 -> world.registry.destroy(e);
                case 1 -> {
                  final long fresh = world.registry.create();
                  if (!walk.memberSet()) {
                    emplace(world, fresh, walk.leaderType());
                    addedToLeader.add(fresh);
                  }
                  world.registry.emplaceOrReplace(fresh, TD, value(TD, 1));
                  world.registry.emplace(fresh, TY, value(TY, 1));
                }
                case 2 -> {
                  // Add a non-owned component to any entity (here the one still to come, or the
                  // visited one). Not for the non-owning group: Y is excluded, so an entity still
                  // to come would leave its member set, moving the last member below the floor
                  // (refused).
                  final long target = Entity.isNull(ahead) || walk.memberSet() ? e : ahead;
                  if (!world.registry.has(target, TY)) {
                    world.registry.emplace(target, TY, value(TY, 2));
                    if (TD == walk.leaderType() && target != e) {
                      removedEarly.add(target); // Y is excluded: it no longer matches
                    }
                  }
                }
                case 3 -> {
                  // Destroy an entity already visited, if any is still alive.
                  for (final long done : visited) {
                    if (done != e && world.registry.valid(done)) {
                      world.registry.destroy(done);
                      break;
                    }
                  }
                }
                default -> {
                  if (inPlace && !Entity.isNull(ahead)) {
                    // In place: removing an entity still to come moves nothing, so it is allowed.
                    world.registry.remove(ahead, TS);
                    removedEarly.add(ahead);
                  } else {
                    world.registry.remove(e, TD);
                  }
                }
              }
            });
    final Set<Long> expected = new HashSet<>(initial);
    expected.removeAll(removedEarly);
    final Set<Long> missed = new HashSet<>(expected);
    missed.removeAll(visited);
    assertTrue(missed.isEmpty(), walk + ": never visited " + missed);
    final Set<Long> extra = new HashSet<>(visited);
    extra.removeAll(initial);
    if (!inPlace) {
      assertTrue(extra.isEmpty(), walk + ": visited entities added during the iteration: " + extra);
    } else {
      assertTrue(addedToLeader.containsAll(extra), walk + ": visited " + extra);
    }
    assertTrue(refusals.size() >= 3, walk + ": refusals " + refusals);
    FaultInjectionTest.assertConsistent(world, walk.toString());
  }

  private static void refused(
      final FaultWorld world,
      final Map<String, Integer> refusals,
      final String what,
      final Runnable change) {
    final Layout before = world.layout();
    final ConcurrentModificationException error =
        assertThrows(ConcurrentModificationException.class, change::run, what);
    assertEquals(
        before,
        world.layout(),
        what + " changed something before it was refused: " + error.getMessage());
    refusals.merge(what, 1, Integer::sum);
  }

  private static Runnable removeFromLeader(
      final FaultWorld world, final Walk walk, final long entity) {
    return walk.memberSet()
        ? () -> world.registry.remove(entity, TD)
        : () -> world.registry.remove(entity, walk.leaderType());
  }

  private static void sortLeader(final FaultWorld world, final Walk walk) {
    if (walk.memberSet()) {
      world.dsNoY.sort(Long::compare);
    } else if (TA == walk.leaderType()) {
      world.abcNoX.sort(Long::compare);
    } else if (TE == walk.leaderType()) {
      world.efGetSNoX.sort(Long::compare);
    } else {
      world.registry.storage(walk.leaderType()).sort(Long::compare);
    }
  }

  private static void clearLeader(final FaultWorld world, final Walk walk) {
    world.registry.clear(walk.memberSet() ? TD : walk.leaderType());
  }

  private static void createOwning(final FaultWorld world, final Walk walk) {
    if (TA == walk.leaderType()) {
      world.registry.group(types(TA, TB, TC), types(TD), types(TX));
    } else {
      world.registry.group(types(TE, TF), types(TS), types(TX, TY));
    }
  }

  private static <T> void emplace(
      final FaultWorld world, final long e, final ComponentType<T, ?> type) {
    world.registry.emplace(e, type, value(type, 5));
  }

  // ---------------------------------------------------------------------------------------------
  // Iterators: changes are not refused but detected at the next step, complete.
  // ---------------------------------------------------------------------------------------------

  @Test
  void iteratorsDetectMovesAcrossTheirPositionAndAllowChangesBehindIt() {
    final FaultWorld world = new FaultWorld(SEED, COUNT, false);
    final View view = world.registry.view(TA, TB).leadBy(world.registry.storage(TA));
    final List<Long> initial = new ArrayList<>();
    view.each(initial::add);
    // Allowed: destroying the returned entity, adding components anywhere, creating entities.
    final EntityIterator iterator = view.iterator();
    final Set<Long> seen = new HashSet<>();
    while (iterator.hasNext()) {
      final long e = iterator.nextLong();
      assertTrue(seen.add(e));
      world.registry.emplaceOrReplace(e, TY, value(TY, 1));
      if (Entity.index(e) % 2 == 0) {
        world.registry.destroy(e);
      }
      final long fresh = world.registry.create();
      world.registry.emplace(fresh, TD, value(TD, 1));
    }
    assertEquals(new HashSet<>(initial), seen);
    FaultInjectionTest.assertConsistent(world, "iterator");
    // Refused (detected): removing an entity still to come; the change itself is complete.
    final RuntimeView runtime =
        new RuntimeView().iterate(world.registry.storage(TD)).exclude(world.registry.storage(TX));
    final EntityIterator it = runtime.iterator();
    final long first = it.nextLong();
    final SparseSet ds = world.registry.storage(TD);
    final long ahead = ds.packed()[0];
    assertTrue(ds.index(first) > 0);
    world.registry.remove(ahead, TD);
    assertFalse(world.registry.has(ahead, TD));
    assertThrows(ConcurrentModificationException.class, it::hasNext);
    FaultInjectionTest.assertConsistent(world, "iterator after detection");
  }

  // ---------------------------------------------------------------------------------------------
  // Chunk iterations and comparators: the group's storages are locked.
  // ---------------------------------------------------------------------------------------------

  /** Structural changes of every kind touching the storages of {@code <E,F> get S !X}. */
  private static List<Runnable> lockedChanges(
      final FaultWorld world, final long member, final long outsider) {
    final Registry r = world.registry;
    return List.of(
        () -> r.remove(member, TE), // owned
        () -> r.remove(member, TS), // get, in place
        () -> r.emplace(member, TX, value(TX, 1)), // excluded
        () -> r.emplace(outsider, TE, value(TE, 1)),
        () -> r.erase(member, TF),
        () -> r.destroy(member),
        () -> r.destroy(new long[] {outsider, member}, 0, 2),
        () -> r.clear(TF),
        () -> r.storage(TS).clear(),
        () -> r.clear(),
        () -> r.group(types(TE, TF), types(TS), types(TX, TY)),
        () -> world.efGetSNoX.sort(Long::compare),
        () -> r.storage(TS).compact());
  }

  @Test
  void everyStructuralChangeOfALockedStorageIsRefusedInsideEachChunk() {
    final FaultWorld world = new FaultWorld(SEED, 120, false);
    final OwningGroup group = world.efGetSNoX;
    final long member = group.entityAt(0);
    final long outsider = world.pick(0, types(TF), types(TE));
    final Layout before = world.layout();
    final AtomicInteger refused = new AtomicInteger();
    final int changes = lockedChanges(world, member, outsider).size();
    group.eachChunk(
        (from, to) -> {
          for (final Runnable change : lockedChanges(world, member, outsider)) {
            refused(world, new LinkedHashMap<>(), "a change inside eachChunk", change);
            refused.incrementAndGet();
          }
          // Allowed: storages the group does not observe.
          world.registry.emplaceOrReplace(member, TD, value(TD, from));
        });
    assertTrue(refused.get() >= 2 * changes, "refusals: " + refused.get());
    FaultInjectionTest.assertConsistent(world, "after eachChunk");
    // Only D (not observed by the group) changed.
    assertEquals(withoutD(before.packed()), withoutD(world.layout().packed()));
  }

  private static Map<String, List<Long>> withoutD(final Map<String, List<Long>> packed) {
    final Map<String, List<Long>> result = new LinkedHashMap<>(packed);
    result.remove("storage of D");
    return result;
  }

  @Test
  void everyStructuralChangeOfALockedStorageIsRefusedInsideParallelEachChunk() {
    final FaultWorld world = new FaultWorld(SEED, 120, false);
    final OwningGroup group = world.efGetSNoX;
    final long member = group.entityAt(0);
    final long outsider = world.pick(0, types(TF), types(TE));
    final Layout before = world.layout();
    final AtomicInteger refused = new AtomicInteger();
    final AtomicInteger other = new AtomicInteger();
    final ForkJoinPool pool = new ForkJoinPool(2);
    try {
      group.parallelEachChunk(
          pool,
          (from, to) -> {
            for (final Runnable change : lockedChanges(world, member, outsider)) {
              try {
                change.run();
                other.incrementAndGet();
              } catch (final ConcurrentModificationException expected) {
                refused.incrementAndGet();
              } catch (final RuntimeException unexpected) {
                other.incrementAndGet();
              }
            }
          });
    } finally {
      pool.shutdown();
    }
    assertEquals(0, other.get(), "a change was not refused with a ConcurrentModificationException");
    assertTrue(refused.get() >= lockedChanges(world, member, outsider).size());
    assertEquals(before, world.layout());
    FaultInjectionTest.assertConsistent(world, "after parallelEachChunk");
  }

  @Test
  void comparatorsGetAConcurrentModificationExceptionAndTheSortStillCompletes() {
    final FaultWorld world = new FaultWorld(SEED, 120, false);
    final OwningGroup group = world.efGetSNoX;
    final long member = group.entityAt(0);
    final long outsider = world.pick(0, types(TF), types(TE));
    final Layout before = world.layout();
    final AtomicInteger refused = new AtomicInteger();
    final int[] next = {0};
    group.sort(
        (l, r) -> {
          final List<Runnable> changes = lockedChanges(world, member, outsider);
          final Runnable change = changes.get(next[0]++ % changes.size());
          assertThrows(ConcurrentModificationException.class, change::run);
          refused.incrementAndGet();
          return Long.compare(r, l);
        });
    assertTrue(refused.get() > lockedChanges(world, member, outsider).size());
    for (int p = 1; p < group.size(); p++) {
      assertTrue(group.entityAt(p - 1) > group.entityAt(p), "sorted at " + p);
    }
    assertEquals(before.state(), world.state());
    FaultInjectionTest.assertConsistent(world, "after the sort");
    // A storage's comparator: sorting D, whose comparator tries to change D.
    final SparseSet ds = world.registry.storage(TD);
    ds.sortByPosition(
        (l, r) -> {
          assertThrows(
              ConcurrentModificationException.class,
              () -> world.registry.remove(ds.packed()[l], TD));
          assertThrows(ConcurrentModificationException.class, () -> world.registry.clear(TD));
          return Long.compare(ds.packed()[l], ds.packed()[r]);
        });
    for (int p = 1; p < ds.size(); p++) {
      assertTrue(ds.packed()[p - 1] < ds.packed()[p]);
    }
    assertEquals(before.state(), world.state());
    FaultInjectionTest.assertConsistent(world, "after the storage sort");
  }

  @Test
  void visitedEntityEnteringANestedGroupThatOwnsTheIteratedStorageIsRefusedUnmade() {
    final FaultWorld world = new FaultWorld(SEED, COUNT, false);
    // In <A,B> each, the visited entity gaining C enters <A,B,C> !X: it moves to the nested range's
    // end, below the floor, unless it is there already.
    final int[] refusedCount = {0};
    world.ab.each(
        e -> {
          if (!world.registry.has(e, TC)
              && !world.registry.has(e, TX)
              && world.registry.storage(TA).index(e) > world.abcNoX.size()) {
            final Layout before = world.layout();
            assertThrows(
                ConcurrentModificationException.class,
                () -> world.registry.emplace(e, TC, value(TC, 1)));
            assertEquals(before, world.layout());
            refusedCount[0]++;
          }
        });
    assertTrue(refusedCount[0] > 0, "no visited entity could enter the nested group");
    FaultInjectionTest.assertConsistent(world, "nested entry");
  }

  @Test
  void anUnvisitedMemberMayLeaveWhileAViewVisitsTheFirstNonMember() {
    // Rule: while a view walks A and visits the first entity past the range of <A,B> (not a
    // member), a member still to come may lose B: leaving moves it within the group's range, all
    // below the visited position. Seeded random memberships.
    final java.util.Random random = new java.util.Random(SEED);
    final Registry registry = new Registry();
    final OwningGroup group = registry.owningGroup(TA, TB);
    final List<Long> entities = new ArrayList<>();
    for (int i = 0; i < COUNT; i++) {
      final long e = registry.create();
      entities.add(e);
      if (random.nextInt(4) != 0) {
        registry.emplace(e, TA, value(TA, i));
      }
      if (random.nextInt(3) != 0) {
        registry.emplace(e, TB, value(TB, i));
      }
    }
    final Storage<?> a = registry.storage(TA);
    assertTrue(group.size() > 5 && group.size() < a.size(), "members and non-members of A");
    final Set<Long> visited = new HashSet<>();
    final List<Long> left = new ArrayList<>();
    registry
        .view(TA)
        .each(
            e -> {
              assertTrue(visited.add(e), "visited once");
              if (left.size() < 5 && a.index(e) == group.size()) {
                final long member = group.entityAt(random.nextInt(group.size()));
                registry.remove(member, TB);
                assertFalse(group.contains(member));
                left.add(member);
              }
            });
    assertEquals(5, left.size());
    assertEquals(a.size(), visited.size(), "every entity of A visited");
    assertEquals(List.of(), registry.verify());
  }
}
