package dev.phalanx.ecs;

import static dev.phalanx.ecs.GroupTypes.NONE;
import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TB;
import static dev.phalanx.ecs.GroupTypes.TC;
import static dev.phalanx.ecs.GroupTypes.TX;
import static dev.phalanx.ecs.GroupTypes.types;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Fixtures.Payload;
import dev.phalanx.ecs.GroupTypes.A;
import dev.phalanx.ecs.GroupTypes.B;
import dev.phalanx.ecs.GroupTypes.C;
import dev.phalanx.ecs.GroupTypes.X;
import dev.phalanx.ecs.snapshot.SnapshotLoader;
import dev.phalanx.ecs.snapshot.SnapshotPageAdoptionTest;
import dev.phalanx.ecs.snapshot.SnapshotWriter;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The parts of {@link Storage}'s contract that generated and custom storages rely on (change
 * tracking, recorded emplaces, entity references) and the rules of its mutation path that only show
 * with locks, groups, view monitors and nested listeners.
 */
class StorageContractTest {

  /** A component holding a reference to another entity. */
  record Link(long target) {}

  /**
   * A custom storage shaped as a tracked generated one: it stamps every write with the current
   * change tick, reports its entity references, and applies recorded emplaces the generated way.
   */
  static final class LinkStorage extends FlatTickedStorage<Link> {
    LinkStorage(final ComponentType<Link, ?> type) {
      super(type);
    }

    @Override
    public void eachEntityRef(final EntityRefVisitor visitor) {
      for (int position = size() - 1; position >= 0; position--) {
        visitor.visit(packed()[position], "target", valueAt(position).target());
      }
    }

    /** What a generated {@code applyRecorded} does with {@link #prepareRecorded}. */
    void record(final long entity, final Link value) {
      final int encoded = prepareRecorded(entity);
      if (encoded >= 0) {
        setAt(encoded, value);
        notifyUpdate(entity);
      } else {
        final int position = -2 - encoded;
        setAt(position, value);
        commitInsert(entity, position);
      }
    }
  }

  static final ComponentType<Link, LinkStorage> LINK =
      ComponentType.define(Link.class, ComponentTraits.DEFAULT.withPageSize(4), LinkStorage::new);

  // ---------------------------------------------------------------------------------------------
  // Change tracking.
  // ---------------------------------------------------------------------------------------------

  /** A write is newer than every earlier tick and not newer than its own; missing is never new. */
  @Test
  void changedSinceComparesTheWriteTickWithTheGivenOne() {
    final Registry registry = new Registry();
    final LinkStorage links = registry.storage(LINK);
    final long e = registry.create();
    final long other = registry.create();
    final long before = registry.advanceChangeTick();
    registry.emplace(e, LINK, new Link(Entity.NULL));
    final long written = registry.changeTick();
    assertEquals(before + 1, written);
    assertEquals(written, links.changeTickAt(links.index(e)));
    assertTrue(links.changedSince(e, before));
    assertFalse(links.changedSince(e, written), "a write is not newer than its own tick");
    assertFalse(links.changedSince(e, written + 5), "nor newer than a later tick");
    assertFalse(links.changedSince(other, before), "an entity without the component");
  }

  /**
   * At the old 32-bit wrap point (2^31 advances, 414 days at 60 a second) an element not written
   * since still reads as unchanged, and one written after reads as changed: ticks are 64-bit. With
   * the former int ticks and wrap-around comparison, the element stamped at tick 1 read as changed
   * since a tick past 2^31.
   */
  @Test
  void ticksPastTheOld32BitWrapCompareRight() {
    final Registry registry = new Registry();
    final LinkStorage links = registry.storage(LINK);
    final long old = registry.create();
    final long fresh = registry.create();
    registry.emplace(old, LINK, new Link(Entity.NULL)); // stamped at tick 1
    for (final long far : new long[] {1L << 31, (1L << 31) + 1, 1L << 32, Long.MAX_VALUE / 2}) {
      registry.changeTick(far);
      final long seen = registry.advanceChangeTick();
      assertEquals(far, seen);
      assertFalse(links.changedSince(old, seen), "unwritten since tick 1, seen " + seen);
      registry.emplaceOrReplace(fresh, LINK, new Link(Entity.NULL));
      assertEquals(far + 1, links.changeTickAt(links.index(fresh)));
      assertTrue(links.changedSince(fresh, seen), "written after " + seen);
      assertTrue(links.changedSince(fresh, 1), "newer than the old element's tick");
      assertFalse(links.changedSince(old, 1));
    }
  }

  /** A standalone storage stamps tick 1: newer than 0, not newer than 1 or later. */
  @Test
  void aStandaloneStorageStampsTickOne() {
    final LinkStorage links = LINK.createStorage();
    final long e = Entity.of(3, 0);
    links.emplace(e, new Link(Entity.NULL));
    assertEquals(1, links.changeTickAt(0));
    assertTrue(links.changedSince(e, 0));
    assertFalse(links.changedSince(e, 1));
    assertFalse(links.changedSince(e, 5));
  }

  /** patch(entity) after an in-place write stamps the element with the current tick. */
  @Test
  void patchingInPlaceStampsTheElement() {
    final Registry registry = new Registry();
    final LinkStorage links = registry.storage(LINK);
    final long e = registry.create();
    registry.emplace(e, LINK, new Link(Entity.NULL));
    final long seen = registry.advanceChangeTick();
    assertFalse(links.changedSince(e, seen));
    final List<Long> updates = new ArrayList<>();
    links.onUpdate().connect((r, entity) -> updates.add(entity));
    links.patch(e);
    assertTrue(links.changedSince(e, seen));
    assertEquals(List.of(e), updates);
  }

  // ---------------------------------------------------------------------------------------------
  // Recorded emplaces (prepareRecorded), as generated applyRecorded runs them.
  // ---------------------------------------------------------------------------------------------

  /** A recorded emplace adds the component, or replaces the one the entity has. */
  @Test
  void aRecordedEmplaceAddsOrReplaces() {
    final Registry registry = new Registry();
    final LinkStorage links = registry.storage(LINK);
    final List<String> events = new ArrayList<>();
    links.onConstruct().connect((r, entity) -> events.add("construct " + Entity.index(entity)));
    links.onUpdate().connect((r, entity) -> events.add("update " + Entity.index(entity)));
    final long first = registry.create();
    final long second = registry.create();
    registry.emplace(first, LINK, new Link(1));
    events.clear();
    links.record(second, new Link(2));
    links.record(first, new Link(3));
    assertEquals(List.of("construct 1", "update 0"), events);
    assertEquals(new Link(2), links.get(second));
    assertEquals(new Link(3), links.get(first));
    assertEquals(1, links.index(second));
    // A recorded emplace on the entity at position 1 writes there.
    links.record(second, new Link(4));
    assertEquals(new Link(4), links.get(second));
    assertEquals(new Link(3), links.get(first));
    assertEquals(List.of(), registry.verify());
  }

  /** A standalone storage applies recorded emplaces too (there is no registry to ask). */
  @Test
  void aStandaloneStorageAppliesRecordedEmplaces() {
    final LinkStorage links = LINK.createStorage();
    final long e = Entity.of(7, 2);
    links.record(e, new Link(1));
    links.record(e, new Link(2));
    assertEquals(1, links.size());
    assertEquals(new Link(2), links.get(e));
  }

  /** A recorded emplace on an entity being destroyed, or during clear(), is refused. */
  @Test
  void aRecordedEmplaceIsRefusedWhileTheEntityIsDestroyedOrTheStorageCleared() {
    final Registry registry = new Registry();
    final LinkStorage links = registry.storage(LINK);
    final ObjectStorage<A> as = registry.storage(TA);
    final long e = registry.create();
    registry.emplace(e, TA, new A(1));
    final List<Class<?>> refused = new ArrayList<>();
    as.onDestroy()
        .connect(
            (r, entity) ->
                refused.add(
                    assertThrows(IllegalStateException.class, () -> links.record(entity, null))
                        .getClass()));
    registry.destroy(e);
    assertEquals(1, refused.size());
    assertEquals(0, links.size());

    final long f = registry.create();
    final long g = registry.create();
    registry.emplace(f, LINK, new Link(0));
    links
        .onDestroy()
        .connect(
            (r, entity) -> {
              if (entity == f) {
                final IllegalStateException error =
                    assertThrows(IllegalStateException.class, () -> links.record(g, new Link(9)));
                assertTrue(error.getMessage().contains("being cleared"), error.getMessage());
                refused.add(error.getClass());
              }
            });
    links.clear();
    assertEquals(2, refused.size());
    assertEquals(0, links.size());
    assertEquals(List.of(), registry.verify());
  }

  // ---------------------------------------------------------------------------------------------
  // Entity references.
  // ---------------------------------------------------------------------------------------------

  /** danglingReferences names each reference to a dead entity, and only those. */
  @Test
  void danglingReferencesNameEveryReferenceToADeadEntity() {
    final Registry registry = new Registry();
    final long holder = registry.create();
    final long target = registry.create();
    final long keeper = registry.create();
    final long empty = registry.create();
    registry.emplace(holder, LINK, new Link(target));
    registry.emplace(keeper, LINK, new Link(holder));
    registry.emplace(empty, LINK, new Link(Entity.NULL));
    assertEquals(List.of(), registry.danglingReferences());
    registry.destroy(target);
    assertEquals(
        List.of(
            "Link.target of "
                + Entity.toString(holder)
                + " names "
                + Entity.toString(target)
                + ", which is not a live entity"),
        registry.danglingReferences());
  }

  // ---------------------------------------------------------------------------------------------
  // Locks and iterations of standalone storages.
  // ---------------------------------------------------------------------------------------------

  /** A comparator may not add to, or remove from, the storage it sorts. */
  @Test
  void aSortComparatorCannotChangeTheStorageItSorts() {
    final ObjectStorage<Payload> storage =
        Fixtures.alpha(DeletionPolicy.SWAP_AND_POP).createStorage();
    for (int i = 0; i < 4; i++) {
      storage.emplace(Entity.of(i, 0), new Payload(i));
    }
    final List<Class<?>> refused = new ArrayList<>();
    storage.sort(
        (left, right) -> {
          if (refused.isEmpty()) {
            refused.add(
                assertThrows(
                        ConcurrentModificationException.class,
                        () -> storage.emplace(Entity.of(9, 0), new Payload(9)))
                    .getClass());
            refused.add(
                assertThrows(
                        ConcurrentModificationException.class,
                        () -> storage.remove(Entity.of(0, 0)))
                    .getClass());
          }
          return Long.compare(right, left);
        });
    assertEquals(2, refused.size());
    assertEquals(4, storage.size());
    assertFalse(storage.contains(Entity.of(9, 0)));
    assertEquals(Entity.of(3, 0), storage.at(0));
  }

  /** Iterating a standalone storage refuses the removal of an entity still to come. */
  @Test
  void iteratingAStandaloneStorageGuardsItsRemovals() {
    final ObjectStorage<Payload> storage =
        Fixtures.alpha(DeletionPolicy.SWAP_AND_POP).createStorage();
    for (int i = 0; i < 4; i++) {
      storage.emplace(Entity.of(i, 0), new Payload(i));
    }
    final List<Long> visited = new ArrayList<>();
    View.of(storage)
        .each(
            entity -> {
              visited.add(entity);
              if (Entity.of(3, 0) == entity) {
                assertThrows(
                    ConcurrentModificationException.class, () -> storage.remove(Entity.of(0, 0)));
              }
            });
    assertEquals(4, visited.size());
    assertEquals(4, storage.size());
  }

  // ---------------------------------------------------------------------------------------------
  // Messages.
  // ---------------------------------------------------------------------------------------------

  /** A missing component is explained by the entity's validity, when there is a registry. */
  @Test
  void aMissingComponentIsExplained() {
    final Registry registry = new Registry();
    final ObjectStorage<A> as = registry.storage(TA);
    final long live = registry.create();
    final long dead = registry.create();
    registry.destroy(dead);
    assertEquals(
        "cannot get A of " + Entity.toString(live) + ": the entity has no A",
        assertThrows(IllegalArgumentException.class, () -> as.get(live)).getMessage());
    assertEquals(
        "cannot get A of "
            + Entity.toString(dead)
            + ": the entity is not valid (destroyed or never created)",
        assertThrows(IllegalArgumentException.class, () -> as.get(dead)).getMessage());
    final ObjectStorage<A> standalone = TA.createStorage();
    assertEquals(
        "cannot get A of " + Entity.toString(live) + ": the entity has no A",
        assertThrows(IllegalArgumentException.class, () -> standalone.get(live)).getMessage());
  }

  // ---------------------------------------------------------------------------------------------
  // Listeners during removals.
  // ---------------------------------------------------------------------------------------------

  /** A destroy listener that destroys the entity and then throws: the caller gets the exception. */
  @Test
  void aDestroyListenerThatDestroysTheEntityAndThrowsIsHeard() {
    final Registry registry = new Registry();
    final ObjectStorage<A> as = registry.storage(TA);
    final long e = registry.create();
    registry.emplace(e, TA, new A(1));
    final IllegalStateException thrown = new IllegalStateException("listener");
    as.onDestroy()
        .connect(
            (r, entity) -> {
              r.destroy(entity);
              throw thrown;
            });
    assertSame(thrown, assertThrows(IllegalStateException.class, () -> registry.remove(e, TA)));
    assertFalse(registry.valid(e));
    assertEquals(0, as.size());
    assertEquals(List.of(), registry.verify());
  }

  /** Destroy listeners removing the next component, six storages deep: each runs once. */
  @Test
  void nestedRemovalsFromListenersRunEachListenerOnce() {
    final Registry registry = new Registry();
    final List<ComponentType<Payload, ObjectStorage<Payload>>> chain =
        List.of(
            Fixtures.paged(DeletionPolicy.SWAP_AND_POP, 1),
            Fixtures.paged(DeletionPolicy.SWAP_AND_POP, 2),
            Fixtures.paged(DeletionPolicy.SWAP_AND_POP, 4),
            Fixtures.paged(DeletionPolicy.SWAP_AND_POP, 1024),
            Fixtures.paged(DeletionPolicy.IN_PLACE, 1),
            Fixtures.paged(DeletionPolicy.IN_PLACE, 2),
            Fixtures.paged(DeletionPolicy.IN_PLACE, 4));
    final long e = registry.create();
    final Map<Integer, Integer> calls = new HashMap<>();
    for (int i = 0; i < chain.size(); i++) {
      final int link = i;
      registry.emplace(e, chain.get(i), new Payload(i));
      registry
          .storage(chain.get(i))
          .onDestroy()
          .connect(
              (r, entity) -> {
                calls.merge(link, 1, Integer::sum);
                // Removing this very component again is a no-op; the next one nests one deeper.
                r.remove(entity, chain.get(link));
                if (link + 1 < chain.size()) {
                  r.remove(entity, chain.get(link + 1));
                }
              });
    }
    registry.remove(e, chain.get(0));
    assertEquals(chain.size(), calls.size());
    calls.values().forEach(count -> assertEquals(1, count));
    assertTrue(registry.orphan(e));
    assertEquals(List.of(), registry.verify());
  }

  /** A clear whose listeners remove other elements publishes one destroy per element. */
  @Test
  void clearPublishesOneDestroyPerElementWhenListenersRemoveOthers() {
    final Registry registry = new Registry();
    final ObjectStorage<A> as = registry.storage(TA);
    final long[] e = new long[8];
    for (int i = 0; i < e.length; i++) {
      e[i] = registry.create();
      registry.emplace(e[i], TA, new A(i));
    }
    final Map<Long, Integer> destroyed = new HashMap<>();
    as.onDestroy()
        .connect(
            (r, entity) -> {
              destroyed.merge(entity, 1, Integer::sum);
              if (entity == e[7]) {
                r.remove(e[0], TA);
                r.remove(e[1], TA);
                r.remove(e[2], TA);
              }
            });
    as.clear();
    assertEquals(0, as.size());
    assertEquals(e.length, destroyed.size());
    destroyed.forEach((entity, count) -> assertEquals(1, count, Entity.toString(entity)));
  }

  // ---------------------------------------------------------------------------------------------
  // Groups and view monitors.
  // ---------------------------------------------------------------------------------------------

  /** Clearing a storage that a group excludes lets its entities enter the group. */
  @Test
  void clearingAnExcludedStorageLetsEntitiesEnterTheGroup() {
    final Registry registry = new Registry();
    final NonOwningGroup group = registry.nonOwningGroup(types(TA), types(TX));
    final long e = registry.create();
    registry.emplace(e, TA, new A(1));
    registry.emplace(e, TX, new X(1));
    assertFalse(group.contains(e));
    registry.clear(TX);
    assertTrue(group.contains(e));
    assertEquals(List.of(), registry.verify());
  }

  /** Clearing a storage tells the leave listeners of groups and views that include it. */
  @Test
  void clearingAStorageTellsGroupAndViewLeaveListeners() {
    final Registry registry = new Registry();
    final OwningGroup group = registry.owningGroup(TA);
    final View view = registry.view(TB);
    final long e = registry.create();
    registry.emplace(e, TA, new A(1));
    registry.emplace(e, TB, new B(1));
    final List<String> left = new ArrayList<>();
    group.onLeave().connect((r, entity) -> left.add("group"));
    view.onLeave().connect((r, entity) -> left.add("view"));
    registry.clear(TA);
    registry.clear(TB);
    assertEquals(List.of("group", "view"), left);
  }

  /**
   * A refused emplace keeps no reference to the value: it is refused (here because entering a
   * nested group would move a locked storage) before the value is written anywhere.
   */
  @Test
  void aRefusedEmplaceWritesNothing() {
    final Registry registry = new Registry();
    final OwningGroup outer = registry.owningGroup(TA);
    registry.owningGroup(types(TA, TC), NONE, NONE);
    final long e = registry.create();
    final long f = registry.create();
    registry.emplace(e, TA, new A(1));
    registry.emplace(f, TA, new A(2));
    final C value = new C(7);
    outer.eachChunk(
        (from, to) ->
            assertThrows(
                ConcurrentModificationException.class, () -> registry.emplace(f, TC, value)));
    final ObjectStorage<C> cs = registry.storage(TC);
    assertEquals(0, cs.size());
    for (final Object[] page : cs.pages()) {
      if (null != page) {
        for (final Object slot : page) {
          assertNull(slot);
        }
      }
    }
    assertEquals(List.of(), registry.verify());
  }

  /**
   * Generated code may run other changes between prepareInsert and commitInsert (nothing but field
   * writes, in practice): the commit then plans the group upkeep again.
   */
  @Test
  void aCommitAfterAnotherChangePlansTheGroupsAgain() {
    final Registry registry = new Registry();
    final OwningGroup group = registry.owningGroup(TA, TB);
    final long e = registry.create();
    final long f = registry.create();
    registry.emplace(e, TA, new A(1));
    registry.emplace(f, TA, new A(2));
    registry.emplace(f, TB, new B(2));
    final ObjectStorage<B> bs = registry.storage(TB);
    final int position = bs.prepareInsert(e);
    // f leaves the group: the groups plan that removal, which B does not see.
    registry.remove(f, TA);
    bs.setAt(position, new B(1));
    bs.commitInsert(e, position);
    assertTrue(group.contains(e));
    assertFalse(group.contains(f));
    assertEquals(1, group.size());
    assertEquals(List.of(), registry.verify());
  }

  /**
   * A group that spans its owned storages may drop a destroyed entity's elements itself only when
   * nobody else watches them: destroy listeners, views and other groups still hear of it.
   */
  @Test
  void destroyingUnderASpanningGroupStillTellsEveryOtherObserver() {
    // The destroy removes B first (created last), then A: A is the storage the group could empty
    // on its own.
    final Registry registry = new Registry();
    final OwningGroup group = registry.owningGroup(TA, TB);
    final long[] e = new long[3];
    for (int i = 0; i < e.length; i++) {
      e[i] = registry.create();
      registry.emplace(e[i], TA, new A(i));
      registry.emplace(e[i], TB, new B(i));
    }
    final List<String> heard = new ArrayList<>();
    registry.storage(TA).onDestroy().connect((r, entity) -> heard.add("destroy"));
    registry.destroy(e[0]);
    assertEquals(List.of("destroy"), heard);
    assertEquals(2, group.size());
    assertEquals(List.of(), registry.verify());

    final Registry viewed = new Registry();
    viewed.owningGroup(TA, TB);
    final View view = viewed.view(TA);
    final long v = viewed.create();
    viewed.emplace(v, TA, new A(0));
    viewed.emplace(v, TB, new B(0));
    view.onLeave().connect((r, entity) -> heard.add("view"));
    viewed.destroy(v);
    assertEquals(List.of("destroy", "view"), heard);

    final Registry grouped = new Registry();
    grouped.owningGroup(TA, TB);
    // Of the same rank as the owning group, and created after it.
    final NonOwningGroup other = grouped.nonOwningGroup(types(TA), types(TX));
    final long g = grouped.create();
    grouped.emplace(g, TA, new A(0));
    grouped.emplace(g, TB, new B(0));
    assertTrue(other.contains(g));
    grouped.destroy(g);
    assertFalse(other.contains(g));
    assertEquals(0, other.size());
    assertEquals(List.of(), grouped.verify());
  }

  /**
   * Nested groups keep every member whatever order they were created in: each storage lists its
   * groups by rank, so an entity enters the less restrictive group first (the worked example of
   * {@link NestedGroupOrderTest}, with the groups created the other way round).
   */
  @Test
  void nestedGroupsCreatedMostRestrictiveFirstKeepEveryMember() {
    final Registry registry = new Registry();
    final long[] e = new long[9];
    for (int i = 0; i < e.length; i++) {
      e[i] = registry.create();
    }
    final OwningGroup abc = registry.owningGroup(TA, TB, TC);
    final OwningGroup ab = registry.owningGroup(TA, TB);
    for (final int i : new int[] {4, 7, 3, 8, 6}) {
      registry.emplace(e[i], TA, new A(i));
    }
    for (final int i : new int[] {4, 7, 5}) {
      registry.emplace(e[i], TB, new B(i));
    }
    for (final int i : new int[] {6, 8, 5}) {
      registry.emplace(e[i], TC, new C(i));
    }
    registry.emplace(e[8], TB, new B(8));
    assertTrue(ab.contains(e[4]));
    assertTrue(ab.contains(e[7]));
    assertTrue(ab.contains(e[8]));
    assertTrue(abc.contains(e[8]));
    assertEquals(3, ab.size());
    assertEquals(1, abc.size());
    assertEquals(List.of(), registry.verify());
  }

  /**
   * A removal allowed when asked may become unsafe through its own destroy listeners: it is then
   * refused after they ran, and their changes stand. Here the group's members lie below the visited
   * position; the listener makes the visited entity join them, so that the removed entity's leaving
   * would now swap it with the visited one.
   */
  @Test
  void aRemovalThatItsListenersMadeUnsafeIsRefusedAfterThem() {
    refusedAfterListeners(null);
  }

  /** As above, with a listener that also throws: its exception travels with the refusal. */
  @Test
  void aRefusalAfterListenersCarriesTheirException() {
    final IllegalStateException thrown = new IllegalStateException("listener");
    final ConcurrentModificationException refused = refusedAfterListeners(thrown);
    assertEquals(List.of(thrown), List.of(refused.getSuppressed()));
  }

  private static ConcurrentModificationException refusedAfterListeners(
      final RuntimeException listenerFailure) {
    final Registry registry = new Registry();
    final OwningGroup group = registry.owningGroup(TA, TB);
    final long w = registry.create();
    final long x = registry.create();
    final long v = registry.create();
    final long z = registry.create();
    for (final long e : new long[] {w, x, v, z}) {
      registry.emplace(e, TA, new A(0));
    }
    registry.emplace(w, TB, new B(0));
    registry.emplace(x, TB, new B(0));
    assertEquals(2, group.size());
    assertEquals(v, registry.storage(TA).at(2));
    registry
        .storage(TB)
        .onDestroy()
        .connect(
            (r, entity) -> {
              if (!r.has(v, TB)) {
                r.emplace(v, TB, new B(1));
              }
              if (null != listenerFailure) {
                throw listenerFailure;
              }
            });
    final List<Long> visited = new ArrayList<>();
    final List<ConcurrentModificationException> refusals = new ArrayList<>();
    registry
        .view(TA)
        .each(
            entity -> {
              visited.add(entity);
              if (entity == v) {
                refusals.add(
                    assertThrows(
                        ConcurrentModificationException.class, () -> registry.remove(w, TB)));
                assertTrue(registry.has(w, TB), "the refused removal changed nothing");
                assertTrue(registry.has(v, TB), "the listener's change stands");
              }
            });
    assertEquals(4, visited.size());
    assertEquals(3, group.size());
    assertEquals(List.of(), registry.verify());
    assertEquals(1, refusals.size());
    return refusals.get(0);
  }

  /**
   * A loaded storage whose staged pages it adopts gets the pages its elements need, no more; an
   * empty one gets none.
   */
  @Test
  void aLoadedStorageGetsThePagesItNeeds() throws java.io.IOException {
    final Registry saved = new Registry();
    final SnapshotPageAdoptionTest.CellStorage<SnapshotPageAdoptionTest.Cell> savedCells =
        saved.storage(SnapshotPageAdoptionTest.CELL);
    saved.storage(SnapshotPageAdoptionTest.OLD_CELL);
    for (int i = 0; i < 2 * savedCells.pageSize(); i++) {
      savedCells.emplace(saved.create(), new SnapshotPageAdoptionTest.Cell(i));
    }
    final java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    new SnapshotWriter(saved).write(bytes);
    final Registry loaded = new Registry();
    new SnapshotLoader(loaded)
        .types(SnapshotPageAdoptionTest.CELL, SnapshotPageAdoptionTest.OLD_CELL)
        .load(new java.io.ByteArrayInputStream(bytes.toByteArray()));
    final SnapshotPageAdoptionTest.CellStorage<SnapshotPageAdoptionTest.Cell> cells =
        loaded.storage(SnapshotPageAdoptionTest.CELL);
    assertEquals(2 * cells.pageSize(), cells.size());
    assertEquals(2, cells.pageCount());
    assertEquals(2, java.util.Arrays.stream(cells.values).filter(p -> null != p).count());
    assertEquals(2, java.util.Arrays.stream(cells.hidden).filter(p -> null != p).count());
    assertEquals(0, loaded.storage(SnapshotPageAdoptionTest.OLD_CELL).pageCount());
    assertEquals(5, cells.get(cells.at(5)).value());
  }

  @Test
  void aRangeInsertionOfNullIsRefusedNamingTypeAndEntityAndAnEmptyRangeIsANoOp() {
    final Registry registry = new Registry();
    final ComponentType<Payload, ObjectStorage<Payload>> type =
        Fixtures.alpha(DeletionPolicy.SWAP_AND_POP);
    final ObjectStorage<Payload> storage = registry.storage(type);
    final long[] entities = new long[3];
    registry.create(entities);
    final NullPointerException refused =
        assertThrows(NullPointerException.class, () -> storage.insert(entities, 1, 3, null));
    assertTrue(refused.getMessage().contains(type.name()), refused.getMessage());
    assertTrue(refused.getMessage().contains(Entity.toString(entities[1])), refused.getMessage());
    assertEquals(0, storage.size(), "nothing inserted");
    // An empty range at the very end of the array: nothing to check, nothing to insert.
    storage.insert(entities, 3, 3, null);
    storage.insert(entities, 3, 3, new Payload(1));
    assertEquals(0, storage.size());
    storage.insert(entities, 0, 3, new Payload(2));
    assertEquals(3, storage.size());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aListenerFailureDuringClearSurvivesTheEmptyStoragesClearedAfterIt() {
    final Registry registry = new Registry();
    // Cleared last first: the empty storage (created first) is cleared after the failing one.
    final ObjectStorage<Payload> empty =
        registry.storage(Fixtures.beta(DeletionPolicy.SWAP_AND_POP));
    final ObjectStorage<Payload> full =
        registry.storage(Fixtures.alpha(DeletionPolicy.SWAP_AND_POP));
    final long e = registry.create();
    full.emplace(e, new Payload(1));
    final RuntimeException boom = new IllegalStateException("boom");
    full.onDestroy()
        .connect(
            (r, entity) -> {
              throw boom;
            });
    assertSame(boom, assertThrows(RuntimeException.class, registry::clear));
    assertTrue(full.isEmpty());
    assertTrue(empty.isEmpty());
    assertEquals(0, registry.alive());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aLockedStorageRefusesAnEmplaceNamingTheComponentAndTheEntity() {
    final Registry registry = new Registry();
    final ComponentType<Payload, ObjectStorage<Payload>> type =
        Fixtures.alpha(DeletionPolicy.SWAP_AND_POP);
    final ObjectStorage<Payload> storage = registry.storage(type);
    final long e = registry.create();
    CoreTestAccess.lock(storage, "a test");
    try {
      final ConcurrentModificationException refused =
          assertThrows(
              ConcurrentModificationException.class, () -> storage.emplace(e, new Payload(1)));
      assertTrue(
          refused.getMessage().contains("emplace " + type.name() + " on " + Entity.toString(e)),
          refused.getMessage());
    } finally {
      CoreTestAccess.unlock(storage);
    }
    assertFalse(storage.contains(e));
  }

  @Test
  void reservingNothingAllocatesNothing() {
    final ObjectStorage<Payload> storage =
        new Registry().storage(Fixtures.alpha(DeletionPolicy.SWAP_AND_POP));
    storage.reserve(0);
    assertEquals(0, storage.pageCount());
    storage.reserve(1);
    assertEquals(1, storage.pageCount());
  }

  @Test
  void aRangeInsertionIntoAGroupedStorageDuringAnIterationSaysHowManyItRefused() {
    final Registry registry = new Registry();
    registry.group(types(TA), types(TB), NONE);
    final long[] entities = new long[5];
    registry.create(entities);
    final Storage<A> storage = registry.storage(TA);
    CoreTestAccess.lock(registry.storage(TC), "a test");
    try {
      final ConcurrentModificationException refused =
          assertThrows(
              ConcurrentModificationException.class,
              () -> storage.insert(entities, 1, 4, new A(1)));
      assertTrue(refused.getMessage().contains(" on 3 entities at once"), refused.getMessage());
    } finally {
      CoreTestAccess.unlock(registry.storage(TC));
    }
    assertEquals(0, storage.size());
  }
}
