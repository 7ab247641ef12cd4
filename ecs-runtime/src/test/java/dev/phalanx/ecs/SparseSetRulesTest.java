package dev.phalanx.ecs;

import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.GroupTypes.A;
import dev.phalanx.ecs.GroupTypes.B;
import dev.phalanx.ecs.snapshot.SnapshotLoader;
import dev.phalanx.ecs.snapshot.SnapshotWriter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ConcurrentModificationException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Rules of {@link SparseSet} that its own test does not reach: deep nesting of iterations, locks
 * under in-place deletion, moves made for groups and snapshot loads seen by external iterators, and
 * a set that builds its own sparse array when loaded.
 */
class SparseSetRulesTest {

  /** Eight nested iterations each keep their floor, and unwind to none. */
  @Test
  void deeplyNestedIterationsKeepEveryFloor() {
    final TestSet set = new TestSet(DeletionPolicy.SWAP_AND_POP);
    for (int i = 0; i < 20; i++) {
      set.insert(Entity.of(i, 0));
    }
    for (int depth = 0; depth < 8; depth++) {
      set.beginIteration();
      set.visit(19 - depth);
    }
    // The outermost floor is 19: moving the last element into 18 would cross it.
    assertThrows(ConcurrentModificationException.class, () -> set.remove(Entity.of(18, 0)));
    // Removing the element at 19 moves nothing.
    set.remove(Entity.of(19, 0));
    for (int depth = 0; depth < 8; depth++) {
      assertTrue(set.isIterated());
      set.endIteration();
    }
    assertFalse(set.isIterated());
    set.remove(Entity.of(0, 0));
    assertEquals(18, set.checkInvariants().size());
  }

  /** A locked in-place set refuses removals too, though they move nothing. */
  @Test
  void aLockedInPlaceSetRefusesRemovals() {
    final TestSet set = new TestSet(DeletionPolicy.IN_PLACE);
    set.insert(Entity.of(0, 0));
    set.insert(Entity.of(1, 0));
    set.lock("a test of", "locks");
    final ConcurrentModificationException refused =
        assertThrows(ConcurrentModificationException.class, () -> set.remove(Entity.of(0, 0)));
    assertTrue(refused.getMessage().contains("a test of locks"), refused.getMessage());
    assertTrue(set.contains(Entity.of(0, 0)));
    set.unlock();
    set.remove(Entity.of(0, 0));
    assertFalse(set.contains(Entity.of(0, 0)));
  }

  /** Sorting a group rearranges its owned storages: an iterator over one of them notices. */
  @Test
  void anIteratorNoticesThatAGroupSortedItsStorage() {
    final Registry registry = new Registry();
    final OwningGroup group = registry.owningGroup(TA, TB);
    for (int i = 0; i < 5; i++) {
      final long e = registry.create();
      registry.emplace(e, TA, new A(i));
      registry.emplace(e, TB, new B(i));
    }
    final EntityIterator iterator = registry.view(TB).iterator();
    iterator.nextLong();
    group.sort(Long::compare);
    assertThrows(ConcurrentModificationException.class, iterator::hasNext);
  }

  /** The tag saved with in-place deletion. */
  static final class Saved {}

  /** The tag it is loaded as, with swap-and-pop deletion. */
  static final class Loaded {}

  static final ComponentType<Saved, EmptyStorage<Saved>> SAVED =
      ComponentType.define(
          Saved.class,
          ComponentTraits.TAG.withPolicy(DeletionPolicy.IN_PLACE),
          type -> new EmptyStorage<>(type, null));
  static final ComponentType<Loaded, EmptyStorage<Loaded>> LOADED = ComponentType.tag(Loaded.class);

  /**
   * A storage saved with holes (in-place) and loaded as a swap-and-pop storage loses its holes: the
   * set builds its sparse array itself, and every element is found with its payload.
   */
  @Test
  void aStorageLoadedWithAnotherPolicyIsFoundElementByElement() throws IOException {
    final Registry saved = new Registry();
    final long[] e = new long[10];
    for (int i = 0; i < e.length; i++) {
      e[i] = saved.create();
      saved.storage(SAVED).emplace(e[i]);
    }
    saved.remove(e[2], SAVED);
    saved.remove(e[7], SAVED);
    assertTrue(saved.storage(SAVED).hasTombstones());
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    new SnapshotWriter(saved).write(bytes);

    final Registry loaded = new Registry();
    final EmptyStorage<Loaded> storage = loaded.storage(LOADED);
    // An iterator made before the load: the load rearranges the storage under it.
    final EntityIterator early = View.of(storage).iterator();
    new SnapshotLoader(loaded)
        .alias(Saved.class.getName(), LOADED)
        .load(new ByteArrayInputStream(bytes.toByteArray()));
    assertThrows(ConcurrentModificationException.class, early::hasNext);
    assertFalse(storage.hasTombstones());
    assertEquals(8, storage.size());
    for (int i = 0; i < e.length; i++) {
      assertEquals(i != 2 && i != 7, storage.contains(e[i]), "entity " + i);
      if (storage.contains(e[i])) {
        assertEquals(e[i], storage.at(storage.index(e[i])));
      }
    }
    assertEquals(List.of(), loaded.verify());
  }
}
