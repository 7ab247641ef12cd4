package dev.phalanx.ecs.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.EmptyStorage;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.OwningGroup;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.SparseSet;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Loading a full snapshot takes a shortcut for the common layouts: an entity list in index order,
 * and storages that hold the first live entities in the list's order. These tests load worlds with
 * and without those layouts (several sparse pages, released identifiers, prefixes, rearranged
 * storages) and check every entity's membership, and that a file that only looks like the common
 * layout is still refused.
 */
class SnapshotLoadLayoutsTest {

  static final class Flag {}

  static final class Mark {}

  static final ComponentType<Flag, EmptyStorage<Flag>> FLAG = ComponentType.tag(Flag.class);
  static final ComponentType<Mark, EmptyStorage<Mark>> MARK = ComponentType.tag(Mark.class);

  /** More than two sparse pages, so that the shortcut copies whole pages and a partial last one. */
  static final int N = 2 * SparseSet.SPARSE_PAGE_SIZE + 123;

  private static Registry world() {
    final Registry registry = new Registry();
    registry.storage(FLAG);
    registry.storage(MARK);
    return registry;
  }

  private static byte[] save(final Registry registry) throws IOException {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    new SnapshotWriter(registry).write(out);
    return out.toByteArray();
  }

  private static Registry load(final byte[] bytes) throws IOException {
    final Registry loaded = world();
    new SnapshotLoader(loaded).load(new ByteArrayInputStream(bytes));
    return loaded;
  }

  /** Checks that {@code loaded} holds exactly what {@code saved} holds, entity by entity. */
  private static void assertSameWorld(final Registry saved, final Registry loaded) {
    assertEquals(List.of(), loaded.verify());
    assertEquals(saved.alive(), loaded.alive());
    final long[] entities = saved.entities().packed();
    for (int at = 0; at < saved.entities().size(); at++) {
      final long e = entities[at];
      assertEquals(saved.valid(e), loaded.valid(e), Entity.toString(e));
      for (final ComponentType<?, ?> type : List.of(FLAG, MARK)) {
        assertEquals(
            saved.storage(type).indexOf(e),
            loaded.storage(type).indexOf(e),
            Entity.toString(e) + " in " + type.name());
      }
    }
    // Recycling continues the same, and a recycled index holds no stale element.
    for (int i = 0; i < 5; i++) {
      final long e = saved.create();
      assertEquals(e, loaded.create());
      assertFalse(loaded.has(e, FLAG));
      assertFalse(loaded.has(e, MARK));
    }
  }

  @Test
  void storagesFilledInCreationOrderLoadWithEveryMembership() throws IOException {
    final Registry saved = world();
    for (int i = 0; i < N; i++) {
      final long e = saved.create();
      saved.storage(FLAG).emplace(e);
      if (i < N - 1000) {
        // A prefix of the list, longer than half of it.
        saved.storage(MARK).emplace(e);
      }
    }
    assertSameWorld(saved, load(save(saved)));
  }

  @Test
  void releasedIdentifiersAfterTheLiveOnesStayOutOfTheStorages() throws IOException {
    final Registry saved = world();
    final long[] created = new long[N];
    for (int i = 0; i < N; i++) {
      created[i] = saved.create();
      saved.storage(FLAG).emplace(created[i]);
      saved.storage(MARK).emplace(created[i]);
    }
    // Destroyed last first: the list stays in index order, released identifiers at its end.
    for (int i = N - 1; i >= N - 7; i--) {
      saved.destroy(created[i]);
    }
    final Registry loaded = load(save(saved));
    for (int i = N - 7; i < N; i++) {
      assertFalse(loaded.valid(created[i]));
      assertEquals(SparseSet.ABSENT, loaded.storage(FLAG).indexOf(created[i]));
    }
    assertSameWorld(saved, loaded);
  }

  @Test
  void rearrangedListsAndStoragesLoadThroughTheGeneralCheck() throws IOException {
    final Registry saved = world();
    final long[] created = new long[N];
    for (int i = 0; i < N; i++) {
      created[i] = saved.create();
    }
    // Storages in reverse creation order, and a list no longer in index order.
    for (int i = N - 1; i >= 0; i--) {
      saved.storage(FLAG).emplace(created[i]);
      if (i % 3 != 0) {
        saved.storage(MARK).emplace(created[i]);
      }
    }
    saved.destroy(created[17]);
    saved.destroy(created[4000]);
    saved.create();
    assertSameWorld(saved, load(save(saved)));
  }

  @Test
  void aStorageOfShortMembershipKeepsOnlyItsOwnEntities() throws IOException {
    final Registry saved = world();
    for (int i = 0; i < N; i++) {
      final long e = saved.create();
      if (i < 10) {
        saved.storage(FLAG).emplace(e);
      }
    }
    final Registry loaded = load(save(saved));
    assertEquals(10, loaded.storage(FLAG).size());
    assertSameWorld(saved, loaded);
  }

  @Test
  void anElementThatIsAReleasedIdentifierIsRefusedEvenInListOrder() throws IOException {
    final Registry saved = world();
    final long[] created = new long[N];
    for (int i = 0; i < N; i++) {
      created[i] = saved.create();
      saved.storage(FLAG).emplace(created[i]);
    }
    saved.destroy(created[N - 1]);
    final byte[] bytes = save(saved);
    final long released = saved.entities().packed()[N - 1];
    // The flag storage's elements are the first N - 1 entities of the list: append the released
    // identifier, which comes next in the list, and count it.
    final int packedAt = storageElementsAt(bytes, created[0], created[1]);
    final int sizeAt = packedAt - 8;
    final ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    assertEquals(N - 1, in.getInt(sizeAt));
    final int end = packedAt + 8 * (N - 1);
    final ByteBuffer corrupt = ByteBuffer.allocate(bytes.length + 8).order(ByteOrder.LITTLE_ENDIAN);
    corrupt.put(bytes, 0, end).putLong(released).put(bytes, end, bytes.length - end);
    corrupt.putInt(sizeAt, N);
    final Registry target = world();
    final SnapshotFormatException refused =
        assertThrows(
            SnapshotFormatException.class,
            () -> new SnapshotLoader(target).load(new ByteArrayInputStream(corrupt.array())));
    assertTrue(
        refused.getMessage().contains(Entity.toString(released) + " is not a live entity"),
        refused.getMessage());
    assertEquals(0, target.alive());
    assertEquals(0, target.storage(FLAG).size());
  }

  static final class Held {}

  static final ComponentType<Held, EmptyStorage<Held>> HELD = ComponentType.tag(Held.class);

  /**
   * An owning group rebuilt after a load adopts the members it finds aligned at the front of its
   * storages without moving them, but only while they match: here the file was saved with a group
   * that neither excluded {@link Held} nor required {@link Mark}, so the loaded group's own rules
   * cut the aligned front short and the rest is sorted out entity by entity.
   */
  @Test
  void aGroupRebuiltAfterALoadAdoptsOnlyMatchingAlignedMembers() throws IOException {
    final Registry saved = new Registry();
    saved.owningGroup(FLAG, HELD);
    saved.storage(MARK);
    for (int i = 0; i < 300; i++) {
      final long e = saved.create();
      saved.storage(FLAG).emplace(e);
      saved.storage(HELD).emplace(e);
      if (i % 7 != 3) {
        saved.storage(MARK).emplace(e);
      }
    }
    final byte[] bytes = save(saved);
    for (final boolean excluding : new boolean[] {false, true}) {
      final Registry loaded = new Registry();
      final ComponentType<?, ?>[] owned = {FLAG};
      final OwningGroup group =
          excluding
              ? loaded.owningGroup(
                  owned, new ComponentType<?, ?>[0], new ComponentType<?, ?>[] {HELD})
              : loaded.owningGroup(
                  owned, new ComponentType<?, ?>[] {MARK}, new ComponentType<?, ?>[0]);
      loaded.storage(HELD);
      loaded.storage(MARK);
      new SnapshotLoader(loaded).load(new ByteArrayInputStream(bytes));
      assertEquals(List.of(), loaded.verify());
      final long[] entities = saved.entities().packed();
      int members = 0;
      for (int at = 0; at < saved.alive(); at++) {
        final long e = entities[at];
        final boolean member = !excluding && saved.has(e, MARK);
        assertEquals(member, group.contains(e), Entity.toString(e));
        members += member ? 1 : 0;
      }
      assertEquals(members, group.size());
    }
  }

  /**
   * A small excluded storage cuts the aligned front at its first entity there, found by walking the
   * excluded storage rather than looking each member up; the rest enter one by one.
   */
  @Test
  void aSmallExcludedStorageCutsTheAdoptedFrontAtItsFirstEntity() throws IOException {
    final Registry saved = new Registry();
    saved.owningGroup(FLAG);
    saved.storage(HELD);
    final long[] created = new long[300];
    for (int i = 0; i < created.length; i++) {
      created[i] = saved.create();
      saved.storage(FLAG).emplace(created[i]);
    }
    // Held in the middle of the front, at its very end, and out of order.
    for (final int i : new int[] {299, 120, 37, 121}) {
      saved.storage(HELD).emplace(created[i]);
    }
    final byte[] bytes = save(saved);
    final Registry loaded = new Registry();
    final OwningGroup group =
        loaded.owningGroup(
            new ComponentType<?, ?>[] {FLAG},
            new ComponentType<?, ?>[0],
            new ComponentType<?, ?>[] {HELD});
    new SnapshotLoader(loaded).load(new ByteArrayInputStream(bytes));
    assertEquals(List.of(), loaded.verify());
    assertEquals(created.length - 4, group.size());
    // The first 37 stayed where they were; the others that match came after them.
    for (int i = 0; i < 37; i++) {
      assertEquals(created[i], loaded.storage(FLAG).packed()[i]);
    }
    for (int i = 0; i < created.length; i++) {
      assertEquals(!saved.has(created[i], HELD), group.contains(created[i]));
    }
  }

  /** A world whose two storages an owning group arranged: a shared front, then different tails. */
  private static Registry groupArranged(final long[] created) {
    final Registry saved = world();
    saved.owningGroup(FLAG, MARK);
    for (int i = 0; i < created.length; i++) {
      created[i] = saved.create();
      saved.storage(FLAG).emplace(created[i]);
      if (i % 5 != 0) {
        saved.storage(MARK).emplace(created[i]);
      }
    }
    // A tail in the second storage too: members that lose the first component.
    for (int i = 1; i < created.length; i += 97) {
      saved.storage(FLAG).remove(created[i]);
    }
    return saved;
  }

  /**
   * Two storages an owning group arranged (a shared front, then different tails) load with every
   * membership, and into a registry with the same group.
   */
  @Test
  void storagesSharingAFrontLoadWithEveryMembership() throws IOException {
    final long[] created = new long[N];
    final Registry saved = groupArranged(created);
    final Registry loaded = load(save(saved));
    assertSameWorld(saved, loaded);
    final Registry grouped = world();
    final OwningGroup group = grouped.owningGroup(FLAG, MARK);
    new SnapshotLoader(grouped).load(new ByteArrayInputStream(save(saved)));
    assertEquals(List.of(), grouped.verify());
    assertEquals(saved.groups().size(), grouped.groups().size());
    assertEquals(saved.owningGroup(FLAG, MARK).size(), group.size());
  }

  /** An element of the tail that repeats one of the shared front is refused. */
  @Test
  void aRepeatOfASharedFrontElementIsRefused() throws IOException {
    final long[] created = new long[N];
    final Registry saved = groupArranged(created);
    final byte[] bytes = save(saved);
    final long[] flags = saved.storage(FLAG).packed();
    // The second storage starts with the first one's front: patch its last element.
    final int markSize = saved.storage(MARK).size();
    final int markAt = elementsAt(bytes, flags[0], flags[1], markSize);
    final ByteBuffer corrupt = ByteBuffer.wrap(bytes.clone()).order(ByteOrder.LITTLE_ENDIAN);
    corrupt.putLong(markAt + 8 * (markSize - 1), flags[0]);
    final Registry target = world();
    final SnapshotFormatException refused =
        assertThrows(
            SnapshotFormatException.class,
            () -> new SnapshotLoader(target).load(new ByteArrayInputStream(corrupt.array())));
    assertTrue(
        refused.getMessage().contains(Entity.toString(flags[0]) + " appears twice"),
        refused.getMessage());
    assertEquals(0, target.alive());
  }

  /** An excluded entity at the very front leaves nothing to adopt in place. */
  @Test
  void anExcludedFirstEntityLeavesNothingToAdopt() throws IOException {
    final Registry saved = new Registry();
    saved.owningGroup(FLAG);
    final long[] created = new long[20];
    for (int i = 0; i < created.length; i++) {
      created[i] = saved.create();
      saved.storage(FLAG).emplace(created[i]);
    }
    saved.storage(HELD).emplace(created[0]);
    final Registry loaded = new Registry();
    final OwningGroup group =
        loaded.owningGroup(
            new ComponentType<?, ?>[] {FLAG},
            new ComponentType<?, ?>[0],
            new ComponentType<?, ?>[] {HELD});
    new SnapshotLoader(loaded).load(new ByteArrayInputStream(save(saved)));
    assertEquals(List.of(), loaded.verify());
    assertEquals(created.length - 1, group.size());
    assertFalse(group.contains(created[0]));
  }

  /**
   * Storages saved in different orders (no group arranged them) are not aligned: the group rebuilt
   * after the load arranges its members by moving them, and adopts nothing in place.
   */
  @Test
  void aGroupOverStoragesSavedInDifferentOrdersArrangesItsMembers() throws IOException {
    final Registry saved = world();
    final long[] created = new long[50];
    for (int i = 0; i < created.length; i++) {
      created[i] = saved.create();
      saved.storage(FLAG).emplace(created[i]);
    }
    for (int i = created.length - 1; i >= 0; i--) {
      saved.storage(MARK).emplace(created[i]);
    }
    final Registry loaded = world();
    final OwningGroup group = loaded.owningGroup(FLAG, MARK);
    new SnapshotLoader(loaded).load(new ByteArrayInputStream(save(saved)));
    assertEquals(List.of(), loaded.verify());
    assertEquals(created.length, group.size());
    for (int position = 0; position < group.size(); position++) {
      assertEquals(
          loaded.storage(FLAG).packed()[position], loaded.storage(MARK).packed()[position]);
    }
  }

  /**
   * Finds the elements of a storage of {@code size} elements that begin with {@code first} and
   * {@code second}: the place where the two follow each other after that count and the first hole.
   */
  private static int elementsAt(
      final byte[] bytes, final long first, final long second, final int size) {
    final ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    for (int at = 8; at + 16 <= bytes.length; at++) {
      if (in.getLong(at) == first && in.getLong(at + 8) == second && in.getInt(at - 8) == size) {
        return at;
      }
    }
    throw new AssertionError("no storage of " + size + " elements starts with those two");
  }

  /**
   * Finds the second place where {@code first} and {@code second} follow each other (the first is
   * the entity list; the second the flag storage, saved first), the start of its elements.
   */
  private static int storageElementsAt(final byte[] bytes, final long first, final long second) {
    final ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    int found = 0;
    for (int at = 0; at + 16 <= bytes.length; at++) {
      if (in.getLong(at) == first && in.getLong(at + 8) == second && ++found == 2) {
        return at;
      }
    }
    throw new AssertionError("the flag storage's elements are not in the snapshot");
  }
}
