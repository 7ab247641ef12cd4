package dev.phalanx.ecs.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.AllPrimitivesStorageB;
import dev.phalanx.ecs.AllPrimitivesStorageB.Mood;
import dev.phalanx.ecs.AllPrimitivesStorageB.Point;
import dev.phalanx.ecs.AllPrimitivesStorageB.Sample;
import dev.phalanx.ecs.ComponentTraits;
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.FlatTickedStorage;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Storage;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongPredicate;
import org.junit.jupiter.api.Test;

/**
 * What each delta carries, exactly (the writer's "What a delta holds"): an element goes out in the
 * delta after its write and not again, a delta with nothing to say is as long as an empty world's,
 * and an element that refers to an entity the replica gains or loses goes out once more in that
 * delta only. Observed on the replica: every value a delta carries is applied through the normal
 * path, so the replica's update listeners count the values sent for elements it already had.
 * Tracked storages are scanned page by page over their tick pages when nothing else chose an
 * element and there is no interest predicate, else element by element: both ways are driven here,
 * at page boundaries, past the size of the writer's buffers, and for a custom tracked storage that
 * has no tick pages.
 */
class DeltaContentsTest {

  static final ComponentType<Sample, AllPrimitivesStorageB<Sample>> TRACKED =
      AllPrimitivesStorageB.TRACKED;
  static final ComponentType<Sample, AllPrimitivesStorageB<Sample>> SWAP =
      AllPrimitivesStorageB.SWAP;

  /** The element of {@link #NOTE}. */
  record Note(int value) {}

  /** Writes a {@link Note}: its int. */
  static final ValueCodec<Note> NOTES =
      new ValueCodec<>() {
        @Override
        public void write(final Note value, final DataOutput out) throws IOException {
          out.writeInt(value.value());
        }

        @Override
        public Note read(final DataInput in) throws IOException {
          return new Note(in.readInt());
        }
      };

  /** A custom tracked storage (not generated), whose ticks a writer reads element by element. */
  static final class NoteStorage extends FlatTickedStorage<Note> {
    NoteStorage(final ComponentType<Note, ?> type) {
      super(type);
    }
  }

  static final ComponentType<Note, NoteStorage> NOTE =
      ComponentType.define(Note.class, ComponentTraits.DEFAULT.withPageSize(4), NoteStorage::new);

  /** A sample whose count and reference tell it apart. */
  static Sample sample(final int count, final long target) {
    return new Sample(
        0 == count % 2,
        (byte) count,
        (short) -count,
        'q',
        count,
        7L * count,
        target,
        count / 2f,
        count / 4d,
        "n" + count,
        Mood.values()[count % 3],
        0 == count % 3 ? null : new Point(count, -count));
  }

  /** A server, its writer, a replica and its loader, with the replica's signals counted. */
  static final class Link {
    final Registry server = new Registry();
    final DeltaWriter writer =
        new DeltaWriter(server)
            .codec(Point.class, AllPrimitivesStorageB.POINTS)
            .codec(Note.class, NOTES);
    final Registry replica = new Registry();
    final DeltaLoader loader =
        new DeltaLoader(replica)
            .types(TRACKED, SWAP, NOTE)
            .codec(Point.class, AllPrimitivesStorageB.POINTS)
            .codec(Note.class, NOTES);
    final int[] updates = new int[1];
    final int[] constructs = new int[1];
    int length;

    /** Counts the replica's update and construct signals of {@code type}. */
    Link counting(final ComponentType<?, ?> type) {
      final Storage<?> storage = replica.storage(type);
      storage.onUpdate().connect((r, e) -> updates[0]++);
      storage.onConstruct().connect((r, e) -> constructs[0]++);
      return this;
    }

    /** Writes a delta, loads it, and returns how many updates the replica saw. */
    int send() {
      updates[0] = 0;
      constructs[0] = 0;
      length = writer.write();
      try {
        loader.load(writer.bytes(), length);
      } catch (final SnapshotFormatException e) {
        throw new AssertionError(e);
      }
      assertEquals(List.of(), replica.verify());
      return updates[0];
    }

    long local(final long remote) {
      return loader.map(remote);
    }
  }

  /** The length of a delta that says nothing: lost 0, gained 0, no section. */
  private static int emptyLength() {
    return new DeltaWriter(new Registry()).write();
  }

  // ---------------------------------------------------------------------------------------------
  // Tracked elements: sent in the delta after their write, not again.
  // ---------------------------------------------------------------------------------------------

  /**
   * A tracked element written in place goes out in the next delta and not in the one after, with
   * the storage scanned page by page (no predicate) and element by element (a predicate).
   */
  @Test
  void aTrackedWriteIsSentInTheNextDeltaOnly() {
    final LongPredicate everyone = e -> true;
    for (final LongPredicate interest : Arrays.asList(null, everyone)) {
      final Link link = new Link();
      link.writer.interest(interest);
      link.counting(TRACKED);
      final long[] entities = new long[5];
      link.server.create(entities);
      for (int i = 0; i < entities.length; i++) {
        link.server.emplace(entities[i], TRACKED, sample(i, entities[(i + 1) % 5]));
      }
      link.send();
      assertEquals(5, link.constructs[0]);
      link.server.replace(entities[2], TRACKED, sample(20, entities[0]));
      assertEquals(1, link.send(), "the element written");
      assertEquals(
          sample(20, link.local(entities[0])), link.replica.get(link.local(entities[2]), TRACKED));
      assertEquals(0, link.send(), "nothing written since the previous delta");
      assertEquals(emptyLength(), link.length);
      link.server.replace(entities[0], TRACKED, sample(30, entities[4]));
      link.server.replace(entities[4], TRACKED, sample(40, Entity.NULL));
      assertEquals(2, link.send());
      assertEquals(0, link.send());
      assertEquals(0, link.constructs[0]);
    }
  }

  /** The same for a custom tracked storage whose ticks are read element by element. */
  @Test
  void aCustomTrackedStorageWithoutTickPagesSendsItsWrites() {
    final Link link = new Link().counting(NOTE);
    final long[] entities = new long[6];
    link.server.create(entities);
    for (int i = 0; i < entities.length; i++) {
      link.server.emplace(entities[i], NOTE, new Note(i));
    }
    assertEquals(0, link.server.storage(NOTE).changeTickPages().length);
    link.send();
    assertEquals(6, link.constructs[0]);
    link.server.replace(entities[5], NOTE, new Note(50));
    link.server.storage(NOTE).patch(entities[1]);
    assertEquals(2, link.send(), "the replaced and the patched element");
    assertEquals(new Note(50), link.replica.get(link.local(entities[5]), NOTE));
    assertEquals(0, link.send());
    assertEquals(emptyLength(), link.length);
  }

  /**
   * The page-by-page scan stops at the storage's size: a size that fills its last tick page
   * exactly, and a last page whose slots past the size still hold removed elements written since
   * the base (their entities destroyed before the replica ever had them).
   */
  @Test
  void thePageScanCoversTheLiveElementsOnly() {
    final Link link = new Link().counting(TRACKED);
    final long[] entities = new long[8];
    link.server.create(entities);
    for (int i = 0; i < 4; i++) {
      link.server.emplace(entities[i], TRACKED, sample(i, Entity.NULL));
    }
    link.send();
    // Four elements in four-element pages: the last page is full.
    link.server.replace(entities[1], TRACKED, sample(11, entities[3]));
    assertEquals(1, link.send());
    assertEquals(
        sample(11, link.local(entities[3])), link.replica.get(link.local(entities[1]), TRACKED));
    link.server.emplace(entities[4], TRACKED, sample(4, Entity.NULL));
    link.server.emplace(entities[5], TRACKED, sample(5, Entity.NULL));
    assertEquals(0, link.send());
    assertEquals(2, link.constructs[0]);
    // Two elements added and destroyed since the base, at positions 6 and 7 of the last page,
    // past the size when the delta is written.
    final long[] passing = new long[2];
    link.server.create(passing);
    for (final long e : passing) {
      link.server.emplace(e, TRACKED, sample(99, Entity.NULL));
    }
    link.server.destroy(passing[0]);
    link.server.destroy(passing[1]);
    assertEquals(0, link.send(), "nothing the replica holds changed");
    assertEquals(0, link.constructs[0]);
    assertEquals(emptyLength(), link.length);
    link.server.replace(entities[5], TRACKED, sample(55, entities[4]));
    assertEquals(1, link.send());
    // Eight: two full pages.
    link.server.emplace(entities[6], TRACKED, sample(6, Entity.NULL));
    link.server.emplace(entities[7], TRACKED, sample(7, Entity.NULL));
    assertEquals(0, link.send());
    link.server.replace(entities[7], TRACKED, sample(17, entities[0]));
    assertEquals(1, link.send());
    assertEquals(
        sample(17, link.local(entities[0])), link.replica.get(link.local(entities[7]), TRACKED));
    link.server.replace(entities[6], TRACKED, sample(66, Entity.NULL));
    link.server.remove(entities[7], TRACKED);
    assertEquals(1, link.send());
    assertFalse(link.replica.has(link.local(entities[7]), TRACKED));
    assertEquals(sample(66, Entity.NULL), link.replica.get(link.local(entities[6]), TRACKED));
  }

  /**
   * Entities created after a first delta of an empty world, then more elements written in one delta
   * than any earlier delta sent: the page-by-page scan grows the writer's list of chosen positions
   * as it goes.
   */
  @Test
  void aPageScanChoosesMoreElementsThanAnyDeltaBefore() {
    final Link link = new Link().counting(TRACKED);
    link.send(); // the first delta, of a world without entities: its copy of them is empty
    assertEquals(emptyLength(), link.length);
    final long[] entities = new long[40];
    link.server.create(entities);
    // Added ten at a time: no delta carries more than ten.
    for (int from = 0; from < entities.length; from += 10) {
      for (int i = from; i < from + 10; i++) {
        link.server.emplace(entities[i], TRACKED, sample(i, Entity.NULL));
      }
      assertEquals(0, link.send());
      assertEquals(10, link.constructs[0]);
    }
    for (int i = 0; i < entities.length; i++) {
      link.server.replace(entities[i], TRACKED, sample(100 + i, entities[entities.length - 1 - i]));
    }
    assertEquals(40, link.send());
    for (int i = 0; i < entities.length; i++) {
      assertEquals(
          sample(100 + i, link.local(entities[entities.length - 1 - i])),
          link.replica.get(link.local(entities[i]), TRACKED));
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Added components: sent once.
  // ---------------------------------------------------------------------------------------------

  /**
   * Components added since the base go out once each: sixteen adds (a full log) in one delta, then
   * one add in the next, which must not carry the earlier ones again.
   */
  @Test
  void anAddedComponentIsSentOnce() {
    final Link link = new Link().counting(SWAP);
    final long[] entities = new long[20];
    link.server.create(entities);
    link.server.storage(SWAP);
    link.send();
    for (int i = 0; i < 16; i++) {
      link.server.emplace(entities[i], SWAP, sample(i, entities[19]));
    }
    assertEquals(0, link.send());
    assertEquals(16, link.constructs[0]);
    link.server.emplace(entities[16], SWAP, sample(16, Entity.NULL));
    assertEquals(0, link.send(), "the sixteen are not sent again");
    assertEquals(1, link.constructs[0]);
    link.server.emplace(entities[17], SWAP, sample(17, Entity.NULL));
    link.server.emplace(entities[18], SWAP, sample(18, Entity.NULL));
    link.server.remove(entities[3], SWAP);
    assertEquals(0, link.send());
    assertEquals(2, link.constructs[0]);
    link.server.emplace(entities[19], SWAP, sample(19, Entity.NULL));
    assertEquals(0, link.send(), "nor the two before");
    assertEquals(1, link.constructs[0]);
    assertFalse(link.replica.has(link.local(entities[3]), SWAP));
    assertEquals(
        sample(0, link.local(entities[19])), link.replica.get(link.local(entities[0]), SWAP));
  }

  // ---------------------------------------------------------------------------------------------
  // References: the elements that refer to an entity gained or lost go out once more.
  // ---------------------------------------------------------------------------------------------

  /**
   * In a world whose only storage has references, an element that refers to an entity the replica
   * loses goes out again in that delta (its reference now {@code NULL} on the replica), and not in
   * a later delta that gains another entity: first without an interest predicate (the tracked
   * storage scanned page by page), then with one, for an entity that leaves the interest set and
   * enters it again.
   */
  @Test
  void anElementReferringToAChurnedEntityIsSentAgainInThatDeltaOnly() {
    final Link link = new Link().counting(TRACKED);
    final long holder = link.server.create();
    final long target = link.server.create();
    final long hidden = link.server.create();
    link.server.emplace(holder, TRACKED, sample(1, target));
    final long other = link.server.create();
    link.server.emplace(other, TRACKED, sample(2, hidden));
    link.send();
    assertEquals(sample(1, link.local(target)), link.replica.get(link.local(holder), TRACKED));
    // The holder written again: the delta's chosen positions are its alone.
    link.server.replace(holder, TRACKED, sample(3, target));
    assertEquals(1, link.send());
    // The target destroyed: the holder's element, unchanged on the server, goes out again.
    link.server.destroy(target);
    assertEquals(1, link.send());
    assertEquals(sample(3, Entity.NULL), link.replica.get(link.local(holder), TRACKED));
    // A new entity: no element refers to it.
    link.server.create();
    assertEquals(0, link.send());
    assertEquals(sample(3, Entity.NULL), link.replica.get(link.local(holder), TRACKED));
    // With a predicate: the hidden entity leaves the interest set, then enters it again.
    final boolean[] shown = {false};
    link.writer.interest(e -> e != hidden || shown[0]);
    assertEquals(1, link.send());
    assertFalse(link.replica.valid(link.local(hidden)));
    assertEquals(sample(2, Entity.NULL), link.replica.get(link.local(other), TRACKED));
    link.server.create();
    assertEquals(0, link.send());
    shown[0] = true;
    assertEquals(1, link.send());
    assertEquals(sample(2, link.local(hidden)), link.replica.get(link.local(other), TRACKED));
    assertEquals(0, link.send());
    assertTrue(link.replica.valid(link.local(hidden)));
  }
}
