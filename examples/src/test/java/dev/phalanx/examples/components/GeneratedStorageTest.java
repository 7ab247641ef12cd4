package dev.phalanx.examples.components;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentTraits;
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.DeletionPolicy;
import dev.phalanx.ecs.EmptyStorage;
import dev.phalanx.ecs.ObjectStorage;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.StorageFactory;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Round trips through the generated storages, field by field, for every storage shape. */
class GeneratedStorageTest {

  private final Registry registry = new Registry();

  @Test
  void registryFindsTheGeneratedStorageByTypeAndByClass() {
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    assertSame(Position_Traits.TYPE, ComponentType.of(Position.class));
    assertSame(positions, registry.storage(Position.class));
    assertEquals(ComponentType.of(Primitives.class).traits(), Primitives_Traits.TRAITS);
    assertEquals(16, Primitives_Traits.PAGE_SIZE);
    assertEquals(DeletionPolicy.IN_PLACE, Slot_Traits.POLICY);
    assertEquals(List.of("x", "y"), Position_Traits.FIELD_NAMES);
    assertEquals(List.of(float.class, float.class), Position_Traits.FIELD_TYPES);
    assertEquals(List.of("entity"), Parent_Traits.ENTITY_REF_FIELDS);
    assertEquals(List.of(), Position_Traits.ENTITY_REF_FIELDS);
  }

  /** A type defined by hand, not through {@code Position_Traits}: pages of another size. */
  private static final class Misdefined {}

  @Test
  @SuppressWarnings({"unchecked", "rawtypes"})
  void aGeneratedStorageRefusesPagesOfAnotherSize() {
    // Generated storages compute pages with constants; a type declaring another size is refused.
    final StorageFactory positionStorages =
        type -> new Position_Storage((ComponentType<Position, Position_Storage>) type);
    final ComponentType misdefined =
        ComponentType.define(
            Misdefined.class,
            new ComponentTraits(1024, DeletionPolicy.SWAP_AND_POP, false),
            positionStorages);
    final IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, () -> registry.storage(misdefined));
    assertEquals(
        "cannot create a storage of Misdefined with pages of 1024 elements: Position_Storage is"
            + " generated for pages of 4096, as @Component(pageSize) declares; define the type"
            + " through Position_Traits.TYPE",
        refused.getMessage());
    // Refused before the registry held the storage: nothing changed.
    assertEquals(List.of(), registry.verify());
    assertEquals(0, registry.storageCount());
  }

  @Test
  void recordRoundTrip() {
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    final long e = registry.create();
    positions.emplace(e, 1.5f, -2f);
    assertEquals(new Position(1.5f, -2f), positions.get(e));
    assertEquals(1.5f, positions.x(e));
    positions.setY(e, 7f);
    assertEquals(7f, positions.y(e));
    final int position = positions.index(e);
    assertEquals(7f, positions.yAt(position));
    positions.setXAt(position, 3f);
    assertEquals(new Position(3f, 7f), positions.get(e));
    positions.replace(e, new Position(4f, 5f));
    assertEquals(new Position(4f, 5f), registry.get(e, Position_Traits.TYPE));
    positions.set(e, new Position(6f, 8f));
    assertEquals(new Position(6f, 8f), positions.tryGet(e));
    assertTrue(positions.remove(e));
    assertFalse(positions.contains(e));
    assertNull(positions.tryGet(e));
    assertThrows(IllegalArgumentException.class, () -> positions.x(e));
  }

  @Test
  void instanceApiGoesThroughTheFields() {
    final long e = registry.create();
    registry.emplace(e, Position_Traits.TYPE, new Position(1f, 2f));
    registry.patch(e, Position_Traits.TYPE, p -> assertEquals(new Position(1f, 2f), p));
    assertEquals(2f, registry.storage(Position_Traits.TYPE).y(e));
  }

  @Test
  void mutableClassRoundTrip() {
    final Velocity_Storage velocities = registry.storage(Velocity_Traits.TYPE);
    final long e = registry.create();
    velocities.emplace(e, new Velocity(1f, 2f));
    final Velocity copy = velocities.get(e);
    assertEquals(1f, copy.dx);
    assertEquals(2f, copy.dy);
    copy.dx = 10f;
    assertEquals(1f, velocities.dx(e), "get returns a copy; the storage holds the fields");
    velocities.patch(e, v -> v.dx = 10f);
    assertEquals(10f, velocities.dx(e));
    velocities.emplace(registry.create(), 3f, 4f);
    assertEquals(2, velocities.size());
  }

  @Test
  void everyPrimitiveTypeRoundTripsAcrossPages() {
    final Primitives_Storage storage = registry.storage(Primitives_Traits.TYPE);
    final int count = 100;
    final long[] entities = new long[count];
    for (int i = 0; i < count; i++) {
      entities[i] = registry.create();
      storage.emplace(
          entities[i],
          i % 2 == 0,
          (byte) i,
          (short) (i * 300),
          (char) ('a' + i % 26),
          i * 100_000,
          i * 10_000_000_000L,
          i / 3f,
          i / 7d);
    }
    assertEquals((count + 15) / 16, storage.pageCount());
    for (int i = 0; i < count; i++) {
      assertEquals(expected(i), storage.get(entities[i]));
      assertEquals(i * 10_000_000_000L, storage.big(entities[i]));
      assertEquals((char) ('a' + i % 26), storage.letter(entities[i]));
    }
    // Field setters, each type.
    final long e = entities[17];
    storage.setFlag(e, true);
    storage.setTiny(e, Byte.MIN_VALUE);
    storage.setSmall(e, Short.MAX_VALUE);
    storage.setLetter(e, '\uffff');
    storage.setCount(e, Integer.MIN_VALUE);
    storage.setBig(e, Long.MAX_VALUE);
    storage.setRatio(e, Float.NaN);
    storage.setPrecise(e, -0d);
    assertEquals(
        new Primitives(
            true,
            Byte.MIN_VALUE,
            Short.MAX_VALUE,
            '\uffff',
            Integer.MIN_VALUE,
            Long.MAX_VALUE,
            Float.NaN,
            -0d),
        storage.get(e));
    // Removing moves the last element into the hole (swap-and-pop); values follow their entities.
    for (int i = 0; i < count; i += 3) {
      storage.erase(entities[i]);
    }
    for (int i = 0; i < count; i++) {
      if (i % 3 != 0 && i != 17) {
        assertEquals(expected(i), storage.get(entities[i]));
      }
      assertEquals(i % 3 != 0, storage.contains(entities[i]));
    }
  }

  private static Primitives expected(final int i) {
    return new Primitives(
        i % 2 == 0,
        (byte) i,
        (short) (i * 300),
        (char) ('a' + i % 26),
        i * 100_000,
        i * 10_000_000_000L,
        i / 3f,
        i / 7d);
  }

  @Test
  void pageArraysHoldElementsAtPageAndOffset() {
    final Slot_Storage slots = registry.storage(Slot_Traits.TYPE);
    final List<Long> entities = new ArrayList<>();
    for (int i = 0; i < 17; i++) {
      final long e = registry.create();
      entities.add(e);
      slots.emplace(e, i, "s" + i);
    }
    assertEquals(3, slots.pageCount());
    assertEquals(3, slots.pageShift());
    for (final int position : new int[] {0, 7, 8, 15, 16}) {
      assertEquals(position, slots.valuePages()[position >>> 3][position & 7]);
      assertEquals("s" + position, slots.namePages()[position >>> 3][position & 7]);
      assertEquals(entities.get(position), slots.packed()[position]);
    }
    assertTrue(slots.valuePages().length >= 3);
    assertEquals(8, slots.valuePages()[2].length);
  }

  @Test
  void referenceEnumGenericAndArrayFieldsRoundTrip() {
    final Label_Storage labels = registry.storage(Label_Traits.TYPE);
    final long a = registry.create();
    final long b = registry.create();
    final int[] codes = {1, 2, 3};
    labels.emplace(a, "hello", Label.Color.GREEN, List.of("x", "y"), codes);
    labels.emplace(b, new Label(null, null, null, null));
    assertEquals("hello", labels.text(a));
    assertEquals(Label.Color.GREEN, labels.color(a));
    assertEquals(List.of("x", "y"), labels.tags(a));
    assertSame(codes, labels.codes(a));
    final Label copy = labels.get(a);
    assertEquals("hello", copy.getText());
    assertArrayEquals(codes, copy.getCodes());
    assertNull(labels.get(b).getText());
    labels.setColor(b, Label.Color.BLUE);
    labels.setTags(b, List.of("z"));
    assertEquals(Label.Color.BLUE, labels.get(b).getColor());
    assertEquals(List.of("z"), labels.get(b).getTags());
    // Removing a releases the last slot (b moved into a's position): no stale reference stays.
    final int last = labels.size() - 1;
    labels.remove(a);
    assertNull(labels.textPages()[0][last]);
    assertNull(labels.colorPages()[0][last]);
    assertNull(labels.tagsPages()[0][last]);
    assertNull(labels.codesPages()[0][last]);
    assertEquals(Label.Color.BLUE, labels.color(b));
  }

  @Test
  void entityReferenceComponent() {
    final Parent_Storage parents = registry.storage(Parent_Traits.TYPE);
    final long root = registry.create();
    final long child = registry.create();
    parents.emplace(child, root, 1);
    assertEquals(root, parents.entity(child));
    assertEquals(new Parent(root, 1), parents.get(child));
  }

  @Test
  void tagStoresNoPayloadAndSharesOneInstance() {
    final Frozen_Storage frozen = registry.storage(Frozen_Traits.TYPE);
    assertTrue(frozen instanceof EmptyStorage);
    assertTrue(Frozen_Traits.EMPTY);
    final long a = registry.create();
    final long b = registry.create();
    frozen.emplace(a);
    frozen.emplace(b, new Frozen());
    assertNotNull(frozen.get(a));
    assertSame(frozen.get(a), frozen.get(b));
    assertEquals(List.of(), Frozen_Traits.FIELD_NAMES);
  }

  @Test
  void disabledEmptyOptimizationKeepsInstances() {
    final Token_Storage tokens = registry.storage(Token_Traits.TYPE);
    assertTrue(tokens instanceof ObjectStorage);
    assertFalse(Token_Traits.EMPTY);
    final long a = registry.create();
    final long b = registry.create();
    final Token token = new Token();
    tokens.emplace(a, token);
    tokens.emplace(b);
    assertSame(token, tokens.get(a));
    assertNotNull(tokens.get(b));
    assertFalse(tokens.get(a) == tokens.get(b));
    assertThrows(NullPointerException.class, () -> tokens.emplace(registry.create(), null));
  }

  @Test
  void cursorReadsAndWritesInPlace() {
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    final long[] entities = new long[10];
    for (int i = 0; i < entities.length; i++) {
      entities[i] = registry.create();
      positions.emplace(entities[i], i, 0f);
    }
    final Position_Cursor cursor = positions.cursor();
    assertEquals(-1, cursor.currentPosition());
    for (int p = positions.size() - 1; p >= 0; p--) {
      cursor.moveTo(p);
      cursor.setY(cursor.x() * 2);
    }
    for (int i = 0; i < entities.length; i++) {
      assertEquals(i * 2f, positions.y(entities[i]));
    }
    assertEquals(entities[3], cursor.moveToEntity(entities[3]).currentEntity());
    assertEquals(new Position(3f, 6f), cursor.get());
    cursor.set(new Position(-1f, -1f));
    assertEquals(new Position(-1f, -1f), positions.get(entities[3]));
    assertSame(positions, cursor.storage());
    final long stranger = registry.create();
    assertThrows(IllegalArgumentException.class, () -> cursor.moveToEntity(stranger));
  }

  @Test
  void typedMutatorsPublishSignalsAndSettersDoNot() {
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    final List<String> events = new ArrayList<>();
    positions
        .onConstruct()
        .connect((owner, entity) -> events.add("construct " + positions.x(entity)));
    positions.onUpdate().connect((owner, entity) -> events.add("update " + positions.x(entity)));
    positions.onDestroy().connect((owner, entity) -> events.add("destroy " + positions.x(entity)));
    final long e = registry.create();
    positions.emplace(e, 1f, 1f);
    positions.setX(e, 2f);
    positions.replace(e, 3f, 3f);
    positions.set(e, new Position(4f, 4f));
    positions.patch(e);
    registry.destroy(e);
    assertEquals(List.of("construct 1.0", "update 3.0", "update 4.0", "destroy 4.0"), events);
  }

  @Test
  void misuseIsRejected() {
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    final long e = registry.create();
    positions.emplace(e, 0f, 0f);
    assertThrows(IllegalArgumentException.class, () -> positions.emplace(e, 1f, 1f));
    final long other = registry.create();
    assertThrows(IllegalArgumentException.class, () -> positions.replace(other, 1f, 1f));
    assertThrows(IllegalArgumentException.class, () -> positions.setX(other, 1f));
    registry.destroy(other);
    assertThrows(IllegalArgumentException.class, () -> positions.emplace(other, 1f, 1f));
    assertThrows(AssertionError.class, () -> positions.xAt(5));
  }
}
