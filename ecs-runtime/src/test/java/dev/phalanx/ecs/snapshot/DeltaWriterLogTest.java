package dev.phalanx.ecs.snapshot;

import static dev.phalanx.ecs.snapshot.DeltaContentsTest.SWAP;
import static dev.phalanx.ecs.snapshot.DeltaContentsTest.TRACKED;
import static dev.phalanx.ecs.snapshot.DeltaContentsTest.sample;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.AllPrimitivesStorageB;
import dev.phalanx.ecs.AllPrimitivesStorageB.Point;
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.DeletionPolicy;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.PrimitiveColumnsStorageA;
import dev.phalanx.ecs.PrimitiveColumnsStorageA.Col;
import dev.phalanx.ecs.PrimitiveColumnsStorageA.Pages;
import dev.phalanx.ecs.PrimitiveColumnsStorageA.Row;
import dev.phalanx.ecs.Registry;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A {@link DeltaWriter}'s bookkeeping at its edges: the log entries appended while a write's stream
 * runs (kept for the next write), a failed write's undo of its copy of the entity storage, an
 * element both written and referring to a churned entity (sent once), a storage whose only field is
 * a reference (its elements follow their targets), the nested-call refusals of the interest
 * setters, and a failed write of a registry with no storage.
 */
class DeltaWriterLogTest {

  /**
   * Entries a storage's log gains while a write's stream runs stay for the next write, behind the
   * entries that write read: a component added from the stream reaches the replica in the next
   * delta.
   */
  @Test
  void componentsAddedWhileTheStreamRunsGoOutInTheNextDelta() throws IOException {
    final DeltaContentsTest.Link link = new DeltaContentsTest.Link();
    final long[] read = new long[9];
    link.server.create(read);
    final long late = link.server.create();
    link.server.storage(SWAP); // tracked from the first write on: its log holds what follows
    link.send();
    for (int i = 0; i < read.length; i++) {
      link.server.emplace(read[i], SWAP, sample(i + 1, Entity.NULL));
    }
    final ByteArrayOutputStream target =
        new ByteArrayOutputStream() {
          @Override
          public synchronized void write(final byte[] bytes, final int offset, final int length) {
            super.write(bytes, offset, length);
            link.server.emplace(late, SWAP, sample(40, Entity.NULL));
          }
        };
    final int length = link.writer.write(target);
    link.loader.load(target.toByteArray(), length);
    assertFalse(link.replica.has(link.local(late), SWAP), "added after the delta was built");
    link.send();
    assertEquals(sample(40, Entity.NULL), link.replica.get(link.local(late), SWAP));
    for (int i = 0; i < read.length; i++) {
      assertEquals(sample(i + 1, Entity.NULL), link.replica.get(link.local(read[i]), SWAP));
    }
    assertEquals(0, link.send(), "nothing left to send");
  }

  /**
   * A write that fails after its pass over the entity storage puts back the copy it compared with:
   * an entity destroyed before the failed write, whose identifier a new entity takes before the
   * next one, is lost by the replica, and the new entity gained.
   */
  @Test
  void aFailedWriteUndoesItsCopyOfTheEntityStorage() {
    final boolean[] fail = {false};
    final ValueCodec<Point> points =
        new ValueCodec<>() {
          @Override
          public void write(final Point value, final DataOutput out) throws IOException {
            if (fail[0]) {
              throw new IllegalStateException("codec");
            }
            AllPrimitivesStorageB.POINTS.write(value, out);
          }

          @Override
          public Point read(final DataInput in) throws IOException {
            return AllPrimitivesStorageB.POINTS.read(in);
          }
        };
    final DeltaContentsTest.Link link = new DeltaContentsTest.Link();
    link.writer.codec(Point.class, points);
    final long[] entities = new long[5];
    link.server.create(entities);
    for (int i = 1; i < entities.length; i++) {
      link.server.emplace(entities[i], SWAP, sample(i, Entity.NULL));
    }
    link.send();
    final long doomed = entities[4];
    final long doomedLocal = link.local(doomed);
    link.server.destroy(doomed);
    link.server.emplace(entities[0], SWAP, sample(5, Entity.NULL));
    fail[0] = true;
    assertThrows(IllegalStateException.class, link.writer::write);
    fail[0] = false;
    final long reborn = link.server.create();
    assertEquals(Entity.index(doomed), Entity.index(reborn));
    link.server.emplace(reborn, SWAP, sample(7, Entity.NULL));
    link.send();
    assertFalse(link.replica.valid(doomedLocal), "the destroyed entity is lost");
    assertEquals(sample(7, Entity.NULL), link.replica.get(link.local(reborn), SWAP));
    assertEquals(sample(5, Entity.NULL), link.replica.get(link.local(entities[0]), SWAP));
    assertEquals(5, link.replica.alive());
    assertEquals(5, link.replica.storage(SWAP).size());
  }

  /**
   * A tracked element written since the last delta that also refers to an entity the replica loses
   * goes out once, though both the page scan and the references pass choose it.
   */
  @Test
  void aWrittenElementReferringToAChurnedEntityGoesOutOnce() {
    final DeltaContentsTest.Link link = new DeltaContentsTest.Link().counting(TRACKED);
    final long holder = link.server.create();
    final long target = link.server.create();
    link.server.emplace(holder, TRACKED, sample(1, target));
    link.send();
    link.server.replace(holder, TRACKED, sample(2, target));
    link.server.destroy(target);
    assertEquals(1, link.send());
    assertEquals(sample(2, Entity.NULL), link.replica.get(link.local(holder), TRACKED));
  }

  static final class Links {}

  /** A storage whose only field is an entity reference. */
  static final ComponentType<Row, PrimitiveColumnsStorageA> LINK =
      PrimitiveColumnsStorageA.define(
          Links.class, 4, DeletionPolicy.SWAP_AND_POP, Pages.KEEPS, Col.entity("target"));

  /**
   * An element of a storage whose only field is a reference follows the entity it refers to: when
   * the replica loses the target, the element goes out again, as {@link Entity#NULL}.
   */
  @Test
  void aStorageWhoseOnlyFieldIsAReferenceFollowsItsTargets() {
    final DeltaContentsTest.Link link = new DeltaContentsTest.Link();
    link.loader.types(LINK);
    final long holder = link.server.create();
    final long target = link.server.create();
    link.server.emplace(holder, LINK, Row.of(target));
    link.send();
    assertEquals(Row.of(link.local(target)), link.replica.get(link.local(holder), LINK));
    link.server.destroy(target);
    link.send();
    assertEquals(Row.of(Entity.NULL), link.replica.get(link.local(holder), LINK));
  }

  /** The interest setters, called from the interest predicate, are refused naming themselves. */
  @Test
  void theInterestSettersAreRefusedFromTheInterestPredicate() {
    final Registry server = new Registry();
    final long entity = server.create();
    server.emplace(entity, SWAP, sample(1, Entity.NULL));
    final DeltaWriter writer =
        new DeltaWriter(server).codec(Point.class, AllPrimitivesStorageB.POINTS);
    final List<Runnable> calls =
        List.of(() -> writer.entities(entity), () -> writer.types(SWAP, TRACKED));
    final List<String> named = List.of("cannot set the interest", "cannot choose the types");
    for (int i = 0; i < calls.size(); i++) {
      final Runnable call = calls.get(i);
      writer.interest(
          e -> {
            call.run();
            return true;
          });
      final IllegalStateException refused =
          assertThrows(IllegalStateException.class, writer::write);
      assertTrue(refused.getMessage().startsWith(named.get(i)), refused.getMessage());
    }
    writer.interest(null);
    final DeltaLoader loader = new DeltaLoader(new Registry()).types(SWAP);
    loader.codec(Point.class, AllPrimitivesStorageB.POINTS);
    assertEquals(0L, writer.base(), "no write went through");
    final int length = writer.write();
    assertDoesNotFail(loader, writer.bytes(), length);
    assertEquals(1, loader.size());
  }

  private static void assertDoesNotFail(
      final DeltaLoader loader, final byte[] bytes, final int length) {
    try {
      loader.load(bytes, length);
    } catch (final SnapshotFormatException e) {
      throw new AssertionError(e);
    }
  }

  /** A write of a registry with no storage whose predicate throws rethrows it, and can go on. */
  @Test
  void aFailedWriteOfARegistryWithoutStoragesRethrowsThePredicatesException() {
    final Registry server = new Registry();
    final long entity = server.create();
    final RuntimeException thrown = new IllegalStateException("predicate");
    final DeltaWriter writer =
        new DeltaWriter(server)
            .interest(
                e -> {
                  throw thrown;
                });
    assertSame(thrown, assertThrows(IllegalStateException.class, writer::write));
    writer.interest(e -> true);
    final DeltaLoader loader = new DeltaLoader(new Registry());
    final int length = writer.write();
    assertDoesNotFail(loader, writer.bytes(), length);
    assertTrue(loader.map(entity) != Entity.NULL);
  }
}
