package dev.phalanx.examples.snapshots;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Storage;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import dev.phalanx.ecs.snapshot.SnapshotDump;
import dev.phalanx.ecs.snapshot.SnapshotFormatException;
import dev.phalanx.ecs.snapshot.SnapshotLoader;
import dev.phalanx.ecs.snapshot.SnapshotWriter;
import dev.phalanx.examples.components.Label;
import dev.phalanx.examples.components.Label_Traits;
import dev.phalanx.examples.components.Parent_Traits;
import dev.phalanx.examples.components.Position_Storage;
import dev.phalanx.examples.components.Position_Traits;
import dev.phalanx.examples.components.Slot_Traits;
import dev.phalanx.examples.components.Velocity_Traits;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Whole-world snapshots: round trips of random worlds, schema changes and every kind of bad input.
 */
class SnapshotTest {

  private static Registry randomWorld(final long seed, final int steps) {
    final Registry registry = Worlds.withGroups(new Registry());
    Worlds.mutate(registry, new SplittableRandom(seed), steps);
    return registry;
  }

  private static Registry load(final byte[] bytes, final Registry target) throws IOException {
    Worlds.loader(target).load(new ByteArrayInputStream(bytes));
    return target;
  }

  @Test
  void randomWorldsRoundTripFieldByFieldWithIdenticalIdentifiersAndGroups() throws IOException {
    for (long seed = 1; seed <= 30; seed++) {
      final Registry original = randomWorld(seed, 300 + (int) seed * 20);
      final byte[] bytes = Worlds.save(Worlds.writer(original));
      // With the same groups declared, and with none: both must be consistent.
      final Registry withGroups = load(bytes, Worlds.withGroups(new Registry()));
      final Registry plain = load(bytes, new Registry());
      for (final Registry loaded : List.of(withGroups, plain)) {
        assertEquals(List.of(), loaded.verify(), "seed " + seed);
        assertEquals(List.of(), Hierarchy.of(loaded).verify(), "seed " + seed);
        assertEquals(original.entities().size(), loaded.entities().size());
        assertEquals(original.entities().alive(), loaded.entities().alive());
        assertArrayEquals(
            Arrays.copyOf(original.entities().packed(), original.entities().size()),
            Arrays.copyOf(loaded.entities().packed(), loaded.entities().size()),
            "identifiers and versions");
        assertEquals(dump(original), dump(loaded), "seed " + seed);
      }
      // Field by field, bit for bit: saving the loaded world gives the same bytes (positions, holes
      // with their free list, every column of every storage).
      assertArrayEquals(bytes, Worlds.save(Worlds.writer(withGroups)), "seed " + seed);
      for (int i = 0; i < original.groups().size(); i++) {
        assertEquals(original.groups().get(i).size(), withGroups.groups().get(i).size());
      }
      // Both worlds go on alike: recycling continues the same, groups are maintained.
      Worlds.mutate(original, new SplittableRandom(-seed), 200);
      Worlds.mutate(withGroups, new SplittableRandom(-seed), 200);
      assertEquals(List.of(), withGroups.verify());
      assertArrayEquals(
          Worlds.save(Worlds.writer(original)), Worlds.save(Worlds.writer(withGroups)));
    }
  }

  @Test
  void referenceFieldsEnumsAndEntityReferencesSurvive() throws IOException {
    final Registry original = new Registry();
    final long a = original.create();
    final long b = original.create();
    original
        .storage(Label_Traits.TYPE)
        .emplace(a, new Label("hé", Label.Color.BLUE, List.of("x"), new int[] {7}));
    original.storage(Parent_Traits.TYPE).emplace(b, a, 3);
    Hierarchy.of(original).attach(b, a);
    final Registry loaded = load(Worlds.save(Worlds.writer(original)), new Registry());
    final Label label = loaded.get(a, Label_Traits.TYPE);
    assertEquals("hé", label.getText());
    assertEquals(Label.Color.BLUE, label.getColor());
    assertEquals(List.of("x"), label.getTags());
    assertArrayEquals(new int[] {7}, label.getCodes());
    assertEquals(a, loaded.storage(Parent_Traits.TYPE).entity(b));
    assertEquals(a, Hierarchy.of(loaded).parent(b));
    // The loaded hierarchy is live: destroying the parent unlinks the child.
    loaded.destroy(a);
    assertEquals(Entity.NULL, Hierarchy.of(loaded).parent(b));
    assertEquals(List.of(), Hierarchy.of(loaded).verify());
  }

  @Test
  void chosenTypesAndAMissingCodecAreHandled() throws IOException {
    final Registry original = randomWorld(5, 400);
    final byte[] bytes =
        Worlds.save(Worlds.writer(original).types(Position_Traits.TYPE, Velocity_Traits.TYPE));
    final Registry loaded = load(bytes, new Registry());
    // The chosen types, and the hierarchy's links, which go with the entities whatever the types.
    assertEquals(3, loaded.storageCount());
    assertEquals(
        original.storage(Position_Traits.TYPE).size(), loaded.storage(Position_Traits.TYPE).size());
    assertEquals(List.of(), loaded.verify());
    final Hierarchy tree = Hierarchy.of(original);
    assertTrue(tree.nodes().size() > 0);
    for (int i = 0; i < tree.nodes().size(); i++) {
      final long node = tree.nodes().packed()[i];
      if (!Entity.isTombstone(node)) {
        assertEquals(tree.parent(node), Hierarchy.of(loaded).parent(node));
        assertEquals(tree.firstChild(node), Hierarchy.of(loaded).firstChild(node));
      }
    }
    final IllegalStateException refused =
        assertThrows(
            IllegalStateException.class,
            () -> new SnapshotWriter(original).write(new java.io.ByteArrayOutputStream()));
    assertTrue(refused.getMessage().contains("ValueCodec"), refused.getMessage());
  }

  @Test
  void schemaChangesMatchFieldsByName() throws IOException {
    final Registry original = new Registry();
    final long e = original.create();
    original.storage(Position_Traits.TYPE).emplace(e, 1.5f, 2.5f);
    final byte[] bytes = Worlds.save(new SnapshotWriter(original));
    // A field the class lacks (y) is skipped; one the file lacks (extra) gets the default.
    final Registry evolved = new Registry();
    new SnapshotLoader(evolved)
        .alias(Position_Traits.TYPE.javaClass().getName(), PositionV3_Traits.TYPE)
        .load(new ByteArrayInputStream(bytes));
    assertEquals(new PositionV3(0, 1.5f), evolved.get(e, PositionV3_Traits.TYPE));
    // A changed type is refused, naming the storage and the field.
    final Registry target = new Registry();
    final SnapshotFormatException changed =
        assertThrows(
            SnapshotFormatException.class,
            () ->
                new SnapshotLoader(target)
                    .alias(Position_Traits.TYPE.javaClass().getName(), PositionV2_Traits.TYPE)
                    .load(new ByteArrayInputStream(bytes)));
    assertTrue(
        changed.getMessage().contains("field 'y'")
            && changed.getMessage().contains("changed type")
            && changed.getMessage().contains("PositionV2"),
        changed.getMessage());
    assertUnchanged(target);
  }

  @Test
  void everyTruncationIsRefusedAndLeavesTheTargetUnchanged() {
    final byte[] bytes = Worlds.save(Worlds.writer(randomWorld(3, 120)));
    for (int length = 0; length < bytes.length; length++) {
      final Registry target = Worlds.withGroups(new Registry());
      final byte[] cut = Arrays.copyOf(bytes, length);
      final SnapshotFormatException e =
          assertThrows(SnapshotFormatException.class, () -> load(cut, target));
      assertTrue(e.getMessage().contains("truncated"), e.getMessage());
      assertUnchanged(target);
    }
  }

  @Test
  void corruptHeadersCountsAndIdentifiersAreRefusedWithTheirPlace() {
    final byte[] bytes = Worlds.save(Worlds.writer(randomWorld(4, 200)));
    expect(with(bytes, 0, (byte) 'X'), "wrong magic");
    expect(withInt(bytes, 4, 2), "newer than this runtime's");
    expect(withInt(bytes, 12, 100_000_000), "truncated");
    expect(withInt(bytes, 12, Integer.MAX_VALUE), "corrupt count of identifiers");
    expect(withInt(bytes, 12, -5), "corrupt count of identifiers");
    expect(withInt(bytes, 16, Integer.MAX_VALUE), "corrupt count of live identifiers");
    // The second identifier made a copy of the first: a repeated index.
    final byte[] repeated = bytes.clone();
    System.arraycopy(bytes, 20, repeated, 28, 8);
    expect(repeated, "corrupt identifier");
    final byte[] trailing = with(bytes, bytes.length - 1, (byte) '?');
    expect(trailing, "end marker");
    expect(with(bytes, 9, (byte) 0x10), "corrupt header flags");
  }

  @Test
  void aStorageElementThatIsNotLiveIsRefused() throws IOException {
    final Registry original = new Registry();
    final long a = original.create();
    original.storage(Position_Traits.TYPE).emplace(a, 1f, 2f);
    final byte[] bytes = Worlds.save(new SnapshotWriter(original));
    // Layout: magic 4, version 4, flags 4, count 4, alive 4, one identifier 8, extras 4,
    // storages 4, then the storage: key, policy, fields..., size, first hole, packed.
    final int packedAt =
        indexOf(bytes, Position_Traits.TYPE.javaClass().getName())
            - 4
            + 4
            + Position_Traits.TYPE.javaClass().getName().length()
            + 6
            + 1
            + 9
            + 1
            + 4
            + 4;
    final byte[] corrupt = withInt(bytes, packedAt + 4, 9);
    final SnapshotFormatException e = expect(corrupt, "is not a live entity of the snapshot");
    assertTrue(e.getMessage().contains("storage of Position"), e.getMessage());
    assertEquals(packedAt, e.offset());
  }

  @Test
  void aStorageElementListedTwiceIsRefused() throws IOException {
    final Registry original = new Registry();
    final Position_Storage positions = original.storage(Position_Traits.TYPE);
    final long first = original.create();
    positions.emplace(first, 1f, 2f);
    positions.emplace(original.create(), 3f, 4f);
    final byte[] bytes = Worlds.save(new SnapshotWriter(original));
    final String name = Position_Traits.TYPE.javaClass().getName();
    // As above: the storage's key, policy, two float fields, size and first hole, then packed.
    final int packedAt = indexOf(bytes, name) + name.length() + 6 + 1 + 9 + 1 + 4 + 4;
    assertEquals(first, ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getLong(packedAt));
    final byte[] corrupt = bytes.clone();
    System.arraycopy(bytes, packedAt, corrupt, packedAt + 8, 8);
    final SnapshotFormatException e = expect(corrupt, "appears twice");
    assertTrue(e.getMessage().contains("storage of Position"), e.getMessage());
    assertEquals(packedAt + 8, e.offset());
  }

  @Test
  void anUnknownTypeAndANonEmptyTargetAreRefused() throws IOException {
    final Registry original = new Registry();
    original.storage(Position_Traits.TYPE).emplace(original.create(), 1f, 2f);
    final byte[] bytes = Worlds.save(new SnapshotWriter(original));
    final String name = Position_Traits.TYPE.javaClass().getName();
    final byte[] unknown = bytes.clone();
    final int at = indexOf(bytes, name);
    unknown[at + name.length() - 1] = 'Q';
    expect(unknown, "unknown component type");
    final Registry used = new Registry();
    used.create();
    assertThrows(IllegalStateException.class, () -> load(bytes, used));
    assertEquals(1, used.entities().size());
  }

  @Test
  void inPlaceStoragesKeepTheirHoles() throws IOException {
    final Registry original = new Registry();
    final long[] entities = new long[20];
    original.create(entities);
    final var slots = original.storage(Slot_Traits.TYPE);
    for (final long e : entities) {
      slots.emplace(e, new dev.phalanx.examples.components.Slot((int) e, "n" + e));
    }
    for (int i = 0; i < 20; i += 3) {
      slots.remove(entities[i]);
    }
    final Registry loaded = load(Worlds.save(new SnapshotWriter(original)), new Registry());
    final Storage<?> copy = loaded.storage(Slot_Traits.TYPE);
    assertEquals(slots.size(), copy.size());
    assertEquals(slots.firstHole(), copy.firstHole());
    assertArrayEquals(
        Arrays.copyOf(slots.packed(), slots.size()), Arrays.copyOf(copy.packed(), copy.size()));
    assertEquals(List.of(), loaded.verify());
    // The free list works: the next insertion reuses the same hole in both.
    final long fresh = original.create();
    assertEquals(fresh, loaded.create());
    slots.emplace(fresh, new dev.phalanx.examples.components.Slot(1, "x"));
    loaded
        .storage(Slot_Traits.TYPE)
        .emplace(fresh, new dev.phalanx.examples.components.Slot(1, "x"));
    assertEquals(slots.index(fresh), loaded.storage(Slot_Traits.TYPE).index(fresh));
  }

  @Test
  void theDumpIsReadable() throws IOException {
    final Registry registry = new Registry();
    final long e = registry.create();
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    positions.emplace(e, 1f, Float.NaN);
    registry.storage(Parent_Traits.TYPE).emplace(e, Entity.NULL, 2);
    final StringBuilder text = new StringBuilder();
    SnapshotDump.write(registry, text);
    assertTrue(
        text.toString().contains("\"Position\": {\"x\": 1.0, \"y\": \"NaN\"}"), text.toString());
    assertTrue(
        text.toString().contains("\"Parent\": {\"entity\": null, \"depth\": 2}"), text.toString());
    final StringBuilder chosen = new StringBuilder();
    SnapshotDump.write(registry, new long[] {e, Entity.of(5, 0)}, chosen);
    assertTrue(chosen.toString().contains("\"dead\": true"), chosen.toString());
  }

  // -----------------------------------------------------------------------------------------------

  static String dump(final Registry registry) throws IOException {
    final StringBuilder text = new StringBuilder();
    SnapshotDump.write(registry, text);
    // int[] and object values print by identity: drop them.
    return text.toString()
        .replaceAll("\\[I@[0-9a-f]+", "int[]")
        .replaceAll("Token@[0-9a-f]+", "Token");
  }

  private static void assertUnchanged(final Registry target) {
    assertEquals(0, target.entities().size());
    for (int i = 0; i < target.storageCount(); i++) {
      assertEquals(0, target.storageAt(i).size(), target.storageAt(i).describe());
    }
    for (int i = 0; i < target.groups().size(); i++) {
      assertEquals(0, target.groups().get(i).size());
    }
    assertNull(target.context().find(Hierarchy.class));
    assertEquals(List.of(), target.verify());
  }

  private static SnapshotFormatException expect(final byte[] bytes, final String message) {
    final Registry target = Worlds.withGroups(new Registry());
    final SnapshotFormatException e =
        assertThrows(SnapshotFormatException.class, () -> load(bytes, target));
    assertTrue(e.getMessage().contains(message), e.getMessage());
    assertTrue(e.getMessage().contains("at byte"), e.getMessage());
    assertUnchanged(target);
    return e;
  }

  private static byte[] with(final byte[] bytes, final int at, final byte value) {
    final byte[] copy = bytes.clone();
    copy[at] = value;
    return copy;
  }

  private static byte[] withInt(final byte[] bytes, final int at, final int value) {
    final byte[] copy = bytes.clone();
    ByteBuffer.wrap(copy).order(ByteOrder.LITTLE_ENDIAN).putInt(at, value);
    return copy;
  }

  private static int indexOf(final byte[] bytes, final String text) {
    final byte[] needle = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    outer:
    for (int i = 0; i + needle.length <= bytes.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (bytes[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    throw new AssertionError(text + " not found");
  }

  static Map<String, byte[]> unused() {
    return Map.of();
  }
}
