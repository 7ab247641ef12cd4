package dev.phalanx.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.phalanx.ecs.Fixtures.Payload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class ObjectStorageTest {

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 4, 1024})
  void valueAtReadsThePageAndOffsetOfAPosition(final int pageSize) {
    final ObjectStorage<Payload> storage =
        Fixtures.paged(DeletionPolicy.SWAP_AND_POP, pageSize).createStorage();
    for (int i = 0; i < 2 * pageSize + 1; i++) {
      storage.emplace(Entity.of(i, 0), new Payload(i));
    }
    assertEquals(3, storage.pageCount());
    for (int position = 0; position < storage.size(); position++) {
      assertSame(
          storage.pages()[position / pageSize][position % pageSize], storage.valueAt(position));
      assertEquals(position, storage.valueAt(position).value);
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = DeletionPolicy.class,
      names = {"SWAP_AND_POP", "IN_PLACE"})
  void removalDropsTheReferenceSoTheComponentCanBeCollected(final DeletionPolicy policy) {
    final ObjectStorage<Payload> storage = Fixtures.paged(policy, 2).createStorage();
    for (int i = 0; i < 5; i++) {
      storage.emplace(Entity.of(i, 0), new Payload(i));
    }
    storage.remove(Entity.of(1, 0));
    storage.remove(Entity.of(4, 0));
    int references = 0;
    for (final Object[] page : storage.pages()) {
      for (int offset = 0; null != page && offset < page.length; offset++) {
        references += null == page[offset] ? 0 : 1;
      }
    }
    assertEquals(3, references);
    if (DeletionPolicy.IN_PLACE == policy) {
      assertNull(storage.pages()[0][1]);
      storage.compact();
      assertNull(storage.pages()[1][1], "compact left a reference behind the last element");
    } else {
      assertNull(storage.pages()[1][1]);
    }
  }

  @Test
  void anUntrackedStorageNeverReportsAChangeWhateverTheTick() {
    final ObjectStorage<Payload> storage =
        Fixtures.paged(DeletionPolicy.SWAP_AND_POP, 4).createStorage();
    final long entity = Entity.of(3, 0);
    storage.emplace(entity, new Payload(3));
    assertFalse(storage.isTracked());
    // Whatever the tick, an untracked storage has no change to report.
    for (final long tick :
        new long[] {Long.MIN_VALUE, -1, 0, 1, Integer.MAX_VALUE, Long.MAX_VALUE}) {
      assertFalse(storage.changedSince(entity, tick), "tick " + tick);
    }
  }

  @Test
  void theOuterPageArrayGrowsGeometricallySoFewCopiesAreMade() {
    // Cost rule: adding page after page replaces the outer array O(log pages) times (doubling),
    // not once per page; the pages themselves never move.
    final ObjectStorage<Payload> storage =
        Fixtures.paged(DeletionPolicy.SWAP_AND_POP, 2).createStorage();
    Object[][] outer = storage.pages();
    int replaced = 0;
    for (int i = 0; i < 2 * 128; i++) {
      storage.emplace(Entity.of(i, 0), new Payload(i));
      if (storage.pages() != outer) {
        for (int page = 0; page < outer.length; page++) {
          assertSame(outer[page], storage.pages()[page], "page " + page + " kept");
        }
        outer = storage.pages();
        replaced++;
      }
    }
    assertEquals(128, storage.pageCount());
    assertEquals(8, replaced, "0 -> 1 -> 2 -> 4 -> ... -> 128 pages");
  }
}
