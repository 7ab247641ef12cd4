package dev.phalanx.ecs.snapshot;

import static dev.phalanx.ecs.snapshot.LoaderWorlds.TYPES;
import static dev.phalanx.ecs.snapshot.LoaderWorlds.dump;
import static dev.phalanx.ecs.snapshot.LoaderWorlds.live;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentTraits;
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.CoreTestAccess;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.ObjectStorage;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.VoidStorage;
import dev.phalanx.ecs.snapshot.SnapshotLoadBadInputTest.Bytes;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A snapshot from a network peer is untrusted input: it names only types the loader was given or
 * the target has (no class is loaded, initialised or registered, no void name interned, from a name
 * it carries); a refused stream has no effect at all; truncated streams and every single-bit flip
 * of a small stream are refused with {@link SnapshotFormatException}, the target unchanged, or load
 * a sound world where the flip is in a value.
 */
class UntrustedSnapshotTest {

  /** Records whether {@link Victim}'s static initialiser ran. */
  static final class VictimLog {
    static final AtomicBoolean RAN = new AtomicBoolean();
  }

  /** A class a stream names; its static initialiser must never run because of it. */
  static final class Victim {
    static {
      VictimLog.RAN.set(true);
    }

    int hitPoints;
  }

  private static final long E0 = Entity.of(0, 0);

  /** A whole snapshot of one entity with one storage under {@code key}, no field. */
  private static byte[] naming(final String key) {
    return new Bytes()
        .start(SnapshotFormat.FLAG_FULL, 1, E0)
        .i(1)
        .s(key)
        .b(0)
        .i(0)
        .i(1)
        .i(-1)
        .l(E0)
        .end()
        .get();
  }

  @Test
  void aNameInAStreamNeverLoadsInitialisesOrRegistersAClass() throws IOException {
    final byte[] bytes = naming("class:" + Victim.class.getName());
    final Registry target = new Registry();
    final SnapshotFormatException whole =
        assertThrows(
            SnapshotFormatException.class,
            () -> new SnapshotLoader(target).load(ByteBuffer.wrap(bytes)));
    assertTrue(whole.getMessage().startsWith("unknown component type class:"), whole.getMessage());
    assertThrows(
        SnapshotFormatException.class,
        () -> new ContinuousLoader(target).load(new ByteArrayInputStream(bytes)));
    assertFalse(VictimLog.RAN.get(), "the victim's static initialiser ran");
    assertEquals(0, target.storageCount());
    // The application defines the type its own way afterwards: nothing was registered for it.
    final ComponentType<Victim, ObjectStorage<Victim>> own =
        ComponentType.object(Victim.class, ComponentTraits.DEFAULT.withPageSize(8));
    assertEquals(8, own.traits().pageSize());
    // Named by the application, the type loads.
    final Registry given = new Registry();
    new SnapshotLoader(given)
        .types(own)
        .load(ByteBuffer.wrap(naming("class:" + Victim.class.getName())));
    assertEquals(1, given.storage(own).size());
  }

  /**
   * Three refused streams of 200,000 void names each: none is interned, and retained memory does
   * not grow (it grew by 75 MiB when every name was interned as it was read).
   */
  @Test
  void refusedStreamsOfManyVoidNamesInternNothingAndKeepNoMemory() {
    final int names = CoreTestAccess.namedCount();
    final long before = retainedHeap();
    for (int stream = 0; stream < 3; stream++) {
      final Bytes bytes = new Bytes().start(SnapshotFormat.FLAG_FULL, 0).i(200_000);
      for (int i = 0; i < 200_000; i++) {
        bytes.s("void:untrusted-" + stream + "-" + i).b(0).i(0).i(0).i(-1);
      }
      // No end marker: refused at the end at the latest.
      final byte[] data = bytes.get();
      final Registry target = new Registry();
      assertThrows(
          SnapshotFormatException.class,
          () -> new SnapshotLoader(target).load(ByteBuffer.wrap(data)));
      assertThrows(
          SnapshotFormatException.class,
          () -> new ContinuousLoader(target).load(new ByteArrayInputStream(data)));
      assertEquals(0, target.storageCount());
    }
    assertEquals(names, CoreTestAccess.namedCount(), "void names interned");
    final long grown = retainedHeap() - before;
    assertTrue(grown < 16L << 20, "retained " + (grown >> 20) + " MiB more");
  }

  /** A void name given to the loader, or whose storage the target has, still loads. */
  @Test
  void knownVoidNamesLoad() throws IOException {
    final ComponentType<Void, VoidStorage> marked = ComponentType.named("untrusted-known");
    final Registry given = new Registry();
    new SnapshotLoader(given).types(marked).load(ByteBuffer.wrap(naming("void:untrusted-known")));
    assertTrue(given.storage(marked).contains(E0));
    final Registry owning = new Registry();
    owning.storage("untrusted-known");
    new SnapshotLoader(owning).load(ByteBuffer.wrap(naming("void:untrusted-known")));
    assertTrue(owning.storage(marked).contains(E0));
  }

  /**
   * A small stream claiming huge counts cannot make the loader allocate much more than it holds.
   */
  @Test
  void sizesAreBoundedByTheStreamsOwnLength() {
    final long before = allocatedBytes();
    for (int i = 0; i < 50; i++) {
      // 2^28 identifiers announced in 24 bytes.
      final byte[] bytes = new Bytes().header(SnapshotFormat.FLAG_FULL).i(1 << 28).i(0).get();
      assertThrows(
          SnapshotFormatException.class,
          () -> new SnapshotLoader(new Registry()).load(ByteBuffer.wrap(bytes)));
      final byte[] storages = new Bytes().start(SnapshotFormat.FLAG_FULL, 0).i(1 << 20).get();
      assertThrows(
          SnapshotFormatException.class,
          () -> new ContinuousLoader(new Registry()).load(ByteBuffer.wrap(storages)));
    }
    final long allocated = allocatedBytes() - before;
    assertTrue(allocated < 32L << 20, "allocated " + (allocated >> 20) + " MiB");
  }

  /** A world with every kind of column, holes, references, recycled identifiers and an extra. */
  private static byte[] small() throws IOException {
    final Registry remote = LoaderWorlds.intsAndChars(3);
    final SplittableRandom random = new SplittableRandom(11);
    LoaderWorlds.churn(remote, random, 8);
    final long[] entities = live(remote);
    for (int i = 0; i < entities.length; i++) {
      LoaderWorlds.mix(remote, entities[i], entities, random);
    }
    remote.remove(entities[0], LoaderWorlds.MIXED);
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    new SnapshotWriter(remote).extra("state", new byte[] {1, 2, 3}).write(out);
    return out.toByteArray();
  }

  @Test
  void everyTruncationIsRefusedAndChangesNothing() throws IOException {
    final byte[] bytes = small();
    final Registry mirror = new Registry();
    final ContinuousLoader loader = new ContinuousLoader(mirror).types(TYPES);
    loader.load(ByteBuffer.wrap(bytes));
    final String before = dump(mirror);
    for (int length = 0; length < bytes.length; length++) {
      final byte[] cut = Arrays.copyOf(bytes, length);
      final Registry target = new Registry();
      final SnapshotFormatException whole =
          assertThrows(
              SnapshotFormatException.class,
              () -> new SnapshotLoader(target).types(TYPES).load(new ByteArrayInputStream(cut)),
              "length " + length);
      assertTrue(whole.getMessage().contains("truncated"), whole.getMessage());
      assertUntouched(target);
      assertThrows(
          SnapshotFormatException.class,
          () -> loader.load(ByteBuffer.wrap(cut)),
          "length " + length);
      assertEquals(before, dump(mirror), "length " + length);
    }
  }

  /**
   * Every single-bit flip of a small snapshot is refused with a {@link SnapshotFormatException} and
   * changes nothing, or (a flip in a value) loads a world that {@code verify()} finds sound; no
   * other exception escapes either loader.
   */
  @Test
  void everySingleBitFlipIsRefusedOrLoadsASoundWorld() throws IOException {
    final byte[] bytes = small();
    final int names = CoreTestAccess.namedCount();
    int refused = 0;
    int loaded = 0;
    for (int bit = 0; bit < 8 * bytes.length; bit++) {
      final byte[] flipped = bytes.clone();
      flipped[bit >>> 3] ^= (byte) (1 << (bit & 7));
      final String where = "bit " + bit + " (byte " + (bit >>> 3) + ")";
      final Registry target = new Registry();
      try {
        new SnapshotLoader(target).types(TYPES).load(ByteBuffer.wrap(flipped));
        assertEquals(List.of(), target.verify(), where);
        loaded++;
      } catch (final SnapshotFormatException e) {
        assertUntouched(target);
        refused++;
      }
      final Registry mirror = new Registry();
      final ContinuousLoader loader = new ContinuousLoader(mirror).types(TYPES);
      loader.load(ByteBuffer.wrap(bytes));
      final String before = dump(mirror);
      final int mapped = loader.size();
      try {
        loader.load(ByteBuffer.wrap(flipped));
        assertEquals(List.of(), mirror.verify(), where);
      } catch (final SnapshotFormatException e) {
        assertEquals(before, dump(mirror), where);
        assertEquals(mapped, loader.size(), where);
      }
    }
    assertEquals(names, CoreTestAccess.namedCount());
    assertTrue(refused > 0 && loaded > 0, refused + " refused, " + loaded + " loaded");
  }

  private static void assertUntouched(final Registry target) {
    assertEquals(0, target.entities().size());
    assertEquals(0, target.storageCount());
  }

  /** {@return the heap in use after collecting garbage} */
  private static long retainedHeap() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /** {@return the bytes this thread allocated so far} */
  private static long allocatedBytes() {
    return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
        .getThreadAllocatedBytes(Thread.currentThread().getId());
  }
}
