package dev.phalanx.ecs.snapshot;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentTraits;
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.DeletionPolicy;
import dev.phalanx.ecs.EmptyStorage;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.ObjectStorage;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.VoidStorage;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Snapshots of worlds made of the runtime's own storages (object storages with codecs, an in-place
 * one with holes, tags, a named void storage, the hierarchy), saved and loaded back, whole and
 * continuously, and compared through {@link SnapshotDump} and {@link Registry#verify()}.
 */
class SnapshotRoundTripTest {

  record Label(String text) {}

  record Score(int value) {}

  static final class Flag {}

  static final ComponentType<Label, ObjectStorage<Label>> LABEL = ComponentType.object(Label.class);
  static final ComponentType<Score, ObjectStorage<Score>> SCORE =
      ComponentType.object(
          Score.class, ComponentTraits.DEFAULT.withPolicy(DeletionPolicy.IN_PLACE));
  static final ComponentType<Flag, EmptyStorage<Flag>> FLAG = ComponentType.tag(Flag.class);
  static final ComponentType<Void, VoidStorage> MARK = ComponentType.named("snapshot-test-mark");

  static final ValueCodec<Label> LABELS =
      new ValueCodec<>() {
        @Override
        public void write(final Label value, final DataOutput out) throws IOException {
          out.writeUTF(value.text());
        }

        @Override
        public Label read(final DataInput in) throws IOException {
          return new Label(in.readUTF());
        }
      };

  static final ValueCodec<Score> SCORES =
      new ValueCodec<>() {
        @Override
        public void write(final Score value, final DataOutput out) throws IOException {
          out.writeInt(value.value());
        }

        @Override
        public Score read(final DataInput in) throws IOException {
          return new Score(in.readInt());
        }
      };

  /** A registry with every kind of storage, in a fixed creation order. */
  private static Registry world() {
    final Registry registry = new Registry();
    registry.storage(LABEL);
    registry.storage(SCORE);
    registry.storage(FLAG);
    registry.storage(MARK);
    Hierarchy.of(registry);
    return registry;
  }

  private static void mutate(final Registry registry, final SplittableRandom random, final int n) {
    final Hierarchy hierarchy = Hierarchy.of(registry);
    for (int i = 0; i < n; i++) {
      final long[] live = live(registry);
      final int op = random.nextInt(8);
      if (op == 0 || live.length < 4) {
        registry.create();
        continue;
      }
      final long e = live[random.nextInt(live.length)];
      final long other = live[random.nextInt(live.length)];
      switch (op) {
        case 1 -> registry.emplaceOrReplace(e, LABEL, new Label("label " + random.nextInt(1000)));
        case 2 -> registry.emplaceOrReplace(e, SCORE, new Score(random.nextInt()));
        case 3 -> {
          if (!registry.has(e, FLAG)) {
            registry.storage(FLAG).emplace(e);
          }
          if (!registry.has(e, MARK)) {
            registry.storage(MARK).emplace(e);
          }
        }
        case 4 -> {
          registry.remove(e, SCORE);
          registry.remove(e, FLAG);
        }
        case 5 -> {
          if (e != other && !hierarchy.isAncestor(e, other) && Entity.NULL == hierarchy.parent(e)) {
            hierarchy.attach(e, other);
          }
        }
        case 6 -> registry.destroy(e);
        default -> registry.remove(e, LABEL);
      }
    }
  }

  private static long[] live(final Registry registry) {
    return Arrays.copyOf(registry.entities().packed(), registry.alive());
  }

  private static byte[] save(final SnapshotWriter writer) throws IOException {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final long written = writer.write(out);
    assertEquals(out.size(), written);
    return out.toByteArray();
  }

  private static String dump(final Registry registry) throws IOException {
    final StringBuilder text = new StringBuilder();
    SnapshotDump.write(registry, text);
    return text.toString();
  }

  @Test
  void aWholeSnapshotRestoresIdenticalIdentifiersPositionsAndValues() throws IOException {
    for (long seed = 1; seed <= 6; seed++) {
      final SplittableRandom random = new SplittableRandom(seed);
      final Registry saved = world();
      mutate(saved, random, 400);
      final byte[] bytes =
          save(
              new SnapshotWriter(saved)
                  .codec(Label.class, LABELS)
                  .codec(Score.class, SCORES)
                  .extra("seed", new byte[] {(byte) seed}));
      final Registry loaded = world();
      final Map<String, byte[]> extra =
          new SnapshotLoader(loaded)
              .codec(Label.class, LABELS)
              .codec(Score.class, SCORES)
              .load(new ByteArrayInputStream(bytes));
      assertArrayEquals(new byte[] {(byte) seed}, extra.get("seed"));
      assertEquals(List.of(), loaded.verify());
      assertEquals(dump(saved), dump(loaded));
      assertEquals(saved.alive(), loaded.alive());
      for (final long e : live(saved)) {
        assertTrue(loaded.valid(e));
        assertEquals(saved.storage(SCORE).indexOf(e), loaded.storage(SCORE).indexOf(e));
        assertEquals(saved.tryGet(e, LABEL), loaded.tryGet(e, LABEL));
        assertEquals(saved.tryGet(e, SCORE), loaded.tryGet(e, SCORE));
        assertEquals(saved.has(e, FLAG), loaded.has(e, FLAG));
        assertEquals(saved.has(e, MARK), loaded.has(e, MARK));
        assertEquals(Hierarchy.of(saved).parent(e), Hierarchy.of(loaded).parent(e));
      }
      // Identifiers are recycled in the same order afterwards.
      assertEquals(saved.create(), loaded.create());
      assertEquals(saved.storage(SCORE).firstHole(), loaded.storage(SCORE).firstHole());
    }
  }

  @Test
  void snapshotsLoadFromABufferAndMovePastThemselves() throws IOException {
    // Two snapshots back to back, then bytes that are not a snapshot: each load reads exactly one,
    // from an array in place or from a direct buffer through a channel.
    final SplittableRandom random = new SplittableRandom(21);
    final Registry first = world();
    mutate(first, random, 300);
    final Registry second = world();
    mutate(second, random, 200);
    final byte[] a =
        save(
            new SnapshotWriter(first)
                .codec(Label.class, LABELS)
                .codec(Score.class, SCORES)
                .extra("which", new byte[] {1}));
    final byte[] b =
        save(new SnapshotWriter(second).codec(Label.class, LABELS).codec(Score.class, SCORES));
    final ByteBuffer heap = ByteBuffer.allocate(a.length + b.length + 3);
    heap.put(a).put(b).put(new byte[] {7, 7, 7}).flip();
    final ByteBuffer direct = ByteBuffer.allocateDirect(heap.remaining());
    direct.put(heap.duplicate()).flip();
    final String firstDump = dump(first);
    final String secondDump = dump(second);
    for (final ByteBuffer buffer : List.of(heap, direct)) {
      final Registry one = world();
      final Registry two = world();
      final Map<String, byte[]> extras =
          new SnapshotLoader(one)
              .codec(Label.class, LABELS)
              .codec(Score.class, SCORES)
              .load(buffer);
      assertArrayEquals(new byte[] {1}, extras.get("which"));
      assertEquals(a.length, buffer.position());
      new SnapshotLoader(two).codec(Label.class, LABELS).codec(Score.class, SCORES).load(buffer);
      assertEquals(a.length + b.length, buffer.position());
      assertEquals(List.of(), one.verify());
      assertEquals(List.of(), two.verify());
      assertEquals(firstDump, dump(one));
      assertEquals(secondDump, dump(two));
      assertEquals(3, buffer.remaining());
    }
  }

  @Test
  void loadingIntoAPopulatedRegistryOrWithoutACodecIsRefused() throws IOException {
    final Registry saved = world();
    mutate(saved, new SplittableRandom(7), 100);
    final IllegalStateException noCodec =
        assertThrows(IllegalStateException.class, () -> save(new SnapshotWriter(saved)));
    assertEquals(
        "cannot save storage of Label: field 'value' is of type "
            + Label.class.getName()
            + ", which snapshots do not encode natively; register a ValueCodec for it with"
            + " codec(Label.class, ...)",
        noCodec.getMessage());
    final byte[] bytes =
        save(new SnapshotWriter(saved).codec(Label.class, LABELS).codec(Score.class, SCORES));
    final Registry populated = world();
    populated.create();
    assertThrows(
        IllegalStateException.class,
        () ->
            new SnapshotLoader(populated)
                .codec(Label.class, LABELS)
                .codec(Score.class, SCORES)
                .load(new ByteArrayInputStream(bytes)));
    final byte[] truncated = Arrays.copyOf(bytes, bytes.length / 2);
    assertThrows(
        IOException.class,
        () ->
            new SnapshotLoader(world())
                .codec(Label.class, LABELS)
                .codec(Score.class, SCORES)
                .load(new ByteArrayInputStream(truncated)));
  }

  @Test
  void aContinuousLoaderMirrorsAStreamOfSnapshotsWithItsOwnIdentifiers() throws IOException {
    final SplittableRandom random = new SplittableRandom(11);
    final Registry remote = world();
    final Registry local = world();
    final long own = local.create();
    local.emplace(own, LABEL, new Label("mine"));
    final ContinuousLoader loader =
        new ContinuousLoader(local).codec(Label.class, LABELS).codec(Score.class, SCORES);
    for (int round = 0; round < 12; round++) {
      mutate(remote, random, 80);
      final SnapshotWriter writer =
          new SnapshotWriter(remote)
              .codec(Label.class, LABELS)
              .codec(Score.class, SCORES)
              .extra("round", new byte[] {(byte) round});
      if (round % 3 == 2) {
        writer.types(LABEL, SCORE, Hierarchy.TYPE).entities(live(remote));
      }
      final byte[] bytes = save(writer);
      // Every other round from a buffer read in place.
      if (0 == round % 2) {
        loader.load(new ByteArrayInputStream(bytes));
      } else {
        final ByteBuffer buffer = ByteBuffer.wrap(bytes);
        assertArrayEquals(new byte[] {(byte) round}, loader.load(buffer).get("round"));
        assertEquals(bytes.length, buffer.position());
      }
      assertEquals(List.of(), local.verify(), "round " + round);
      assertEquals(remote.alive(), loader.size(), "round " + round);
      for (final long e : live(remote)) {
        assertTrue(loader.contains(e));
        final long mine = loader.map(e);
        assertTrue(local.valid(mine));
        assertEquals(remote.tryGet(e, LABEL), local.tryGet(mine, LABEL));
        assertEquals(remote.tryGet(e, SCORE), local.tryGet(mine, SCORE));
        if (round % 3 != 2) {
          assertEquals(remote.has(e, FLAG), local.has(mine, FLAG));
          assertEquals(remote.has(e, MARK), local.has(mine, MARK));
        }
        final long parent = Hierarchy.of(remote).parent(e);
        assertEquals(
            Entity.NULL == parent ? Entity.NULL : loader.map(parent),
            Hierarchy.of(local).parent(mine));
      }
      assertTrue(local.valid(own));
      assertEquals(new Label("mine"), local.get(own, LABEL));
    }
    assertFalse(loader.contains(Entity.of(100_000, 0)));
    assertEquals(Entity.NULL, loader.map(Entity.of(100_000, 0)));
  }

  @Test
  void theDumpIsReadableJsonOfEveryStorageAndComponent() throws IOException {
    final Registry registry = world();
    final long parent = registry.create();
    final long child = registry.create();
    final long dead = registry.create();
    registry.destroy(dead);
    registry.emplace(parent, LABEL, new Label("say \"hi\"\n"));
    registry.emplace(child, SCORE, new Score(-3));
    registry.storage(FLAG).emplace(child);
    registry.storage(MARK).emplace(parent);
    Hierarchy.of(registry).attach(child, parent);
    final StringBuilder text = new StringBuilder();
    SnapshotDump.write(registry, new long[] {parent, child, dead}, text);
    assertEquals(
        """
        {
          "entities": {"alive": 2, "released": 1},
          "storages": [
            {"type": "class:dev.phalanx.ecs.snapshot.SnapshotRoundTripTest$Label", "size": 1, \
        "fields": {"value": "dev.phalanx.ecs.snapshot.SnapshotRoundTripTest$Label"}},
            {"type": "class:dev.phalanx.ecs.snapshot.SnapshotRoundTripTest$Score", "size": 1, \
        "fields": {"value": "dev.phalanx.ecs.snapshot.SnapshotRoundTripTest$Score"}},
            {"type": "class:dev.phalanx.ecs.snapshot.SnapshotRoundTripTest$Flag", "size": 1, "fields": {}},
            {"type": "void:snapshot-test-mark", "size": 1, "fields": {}},
            {"type": "class:dev.phalanx.ecs.hierarchy.Hierarchy$Node", "size": 2, "fields": \
        {"parent": "@EntityRef long", "firstChild": "@EntityRef long", \
        "previousSibling": "@EntityRef long", "nextSibling": "@EntityRef long", \
        "childCount": "int"}}
          ],
          "components": [
            {"entity": "0:0", "Label": {"value": "Label[text=say \\"hi\\"\\u000a]"}, \
        "snapshot-test-mark": {}, "Node": {"parent": null, "firstChild": "1:0", \
        "previousSibling": null, "nextSibling": null, "childCount": 1}},
            {"entity": "1:0", "Score": {"value": "Score[value=-3]"}, "Flag": {}, \
        "Node": {"parent": "0:0", "firstChild": null, "previousSibling": null, \
        "nextSibling": null, "childCount": 0}},
            {"entity": "2:0", "dead": true}
          ]
        }
        """,
        text.toString());
  }

  @Test
  void aCorruptedOrTruncatedSnapshotIsRefusedAndChangesNothing() throws IOException {
    final Registry saved = world();
    mutate(saved, new SplittableRandom(3), 60);
    final byte[] bytes =
        save(new SnapshotWriter(saved).codec(Label.class, LABELS).codec(Score.class, SCORES));
    int refused = 0;
    for (int at = 0; at <= bytes.length; at++) {
      for (final int flip : new int[] {0x01, 0x80, -1}) {
        final byte[] bad;
        if (at == bytes.length) {
          bad = Arrays.copyOf(bytes, at - 1 - (flip & 7)); // truncated
        } else {
          bad = bytes.clone();
          bad[at] ^= (byte) flip;
        }
        final Registry target = world();
        final String fromStream = loadOrRefuse(target, bad, false, at);
        // The same bytes read in place: the same outcome, the same message.
        final Registry inPlace = world();
        assertEquals(fromStream, loadOrRefuse(inPlace, bad, true, at), "byte " + at);
        if (null != fromStream) {
          refused++;
          continue;
        }
        // A flip inside a value may still be a loadable snapshot: then a consistent one.
        assertEquals(List.of(), target.verify(), "byte " + at);
        assertEquals(dump(target), dump(inPlace), "byte " + at);
      }
    }
    assertTrue(refused > bytes.length, refused + " refusals for " + bytes.length + " bytes");
  }

  /**
   * Loads {@code bytes} into {@code target} from a stream or in place; returns null, or the
   * refusal's message after checking that {@code target} is still empty.
   */
  private static String loadOrRefuse(
      final Registry target, final byte[] bytes, final boolean inPlace, final int at)
      throws IOException {
    final SnapshotLoader loader =
        new SnapshotLoader(target).codec(Label.class, LABELS).codec(Score.class, SCORES);
    try {
      if (inPlace) {
        loader.load(ByteBuffer.wrap(bytes));
      } else {
        loader.load(new ByteArrayInputStream(bytes));
      }
      return null;
    } catch (final SnapshotFormatException e) {
      assertEquals(0, target.entities().size(), "byte " + at + ": " + e.getMessage());
      for (int i = 0; i < target.storageCount(); i++) {
        assertEquals(0, target.storageAt(i).size(), "byte " + at + ": " + e.getMessage());
      }
      return e.getMessage();
    }
  }
}
